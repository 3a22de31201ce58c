//! Bidirectional planning (NBS over forward states and regression
//! subgoals) against the optimal costs of one-way search: the reference
//! scenarios, random STRIPS tasks on two state widths, factored hitman and
//! PDDL tasks with costs and ADL; and the configurations it refuses.

use planners::pddl::{solve_text, PddlOptions};
use planners::{Direction, PlanError, PlanJob, PlanOutcome, Planner, PlannerConfig};
use proptest::prelude::*;
use search_core::{Algorithm, Blind};
use state_atomic::{problems as atomic, Wide};
use state_factored::problems::hitman;
use tests::random_task::{build, optimal, spec};
use tests::{heuristic, plan_and_validate, planner_config};

fn bidirectional(algorithm: Algorithm, name: &str) -> PlannerConfig {
    planner_config(Direction::Bidirectional, algorithm, heuristic(name))
}

/// The admissible configurations bidirectional search runs.
fn optimal_configs() -> Vec<PlannerConfig> {
    vec![
        bidirectional(Algorithm::Dijkstra, "blind"),
        bidirectional(Algorithm::AStar, "blind"),
        bidirectional(Algorithm::AStar, "hmax"),
        bidirectional(Algorithm::AStar, "mismatch-admissible"),
    ]
}

#[test]
fn atomic_scenarios_meet_at_the_optimal_cost() {
    let ship = |start: &[&str]| atomic::enemy_ship::<u64>(start).unwrap();
    let cases = [
        (atomic::hungry_agent::<u64>().unwrap(), 30),
        (ship(&["safe", "ammo_full"]), 5),
        (ship(&["safe", "ammo_full", "player_weak"]), 4),
        (ship(&["ammo_full"]), 2),
        (ship(&["safe", "ammo_full", "aim_ready"]), 2),
        (atomic::consumed_fact::<u64>().unwrap(), 7),
    ];
    for (p, cost) in &cases {
        for config in optimal_configs() {
            let name = config.name();
            let (found, _) = plan_and_validate(&p.actions, &p.start, &p.goal, config);
            assert_eq!(found, *cost, "{} {name}", p.name);
        }
    }
}

/// The heuristics bidirectional greedy search (TTBS) takes.
const FRONT_TO_FRONT: [&str; 5] = ["ff", "hadd", "hmax", "mismatch", "blind"];

#[test]
fn ttbs_plans_the_atomic_scenarios() {
    let ship = |start: &[&str]| atomic::enemy_ship::<u64>(start).unwrap();
    for p in [
        atomic::hungry_agent::<u64>().unwrap(),
        ship(&["safe", "ammo_full"]),
        ship(&["ammo_full"]),
        atomic::consumed_fact::<u64>().unwrap(),
    ] {
        for name in FRONT_TO_FRONT {
            let config = bidirectional(Algorithm::GreedyBestFirst, name);
            // Validated by replaying it; greedy, so any cost.
            let (cost, _) = plan_and_validate(&p.actions, &p.start, &p.goal, config);
            assert!(cost > 0, "{} {name}", p.name);
        }
    }
}

#[test]
fn the_report_counts_both_sides() {
    let p = atomic::consumed_fact::<u64>().unwrap();
    let report = Planner::new(bidirectional(Algorithm::AStar, "hmax"))
        .plan(&p.actions, &p.start, &p.goal)
        .unwrap();
    assert_eq!(report.direction, Direction::Bidirectional);
    let (forward, regression) = (
        report.forward.clone().unwrap(),
        report.regression.clone().unwrap(),
    );
    let both = report.both.clone().unwrap();
    assert!(forward.expanded > 0 && regression.expanded > 0);
    assert_eq!(both.expanded, forward.expanded + regression.expanded);
    assert_eq!(report.stats().expanded, both.expanded);
}

#[test]
fn factored_hitman_meets_at_fifteen() {
    let p = hitman().unwrap();
    for config in [
        bidirectional(Algorithm::Dijkstra, "blind"),
        bidirectional(Algorithm::AStar, "numeric"),
    ] {
        let name = config.name();
        let (cost, _) = plan_and_validate(&p.domain, &p.start, &p.goal, config);
        assert_eq!(cost, 15, "{name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// On random tasks (zero-cost actions included), bidirectional
    /// Dijkstra and NBS with h_max find the optimal cost or prove that
    /// there is no plan, on 64-bit and wider states.
    #[test]
    fn random_tasks_meet_at_the_optimal_cost(task in spec(3..=9, 9)) {
        let narrow = build::<u64>(&task, 0);
        let best = optimal(&narrow, narrow.start, Algorithm::Dijkstra, Box::new(Blind));
        let wide = build::<Wide<2>>(&task, 64);
        for config in [bidirectional(Algorithm::Dijkstra, "blind"), bidirectional(Algorithm::AStar, "hmax")] {
            let name = config.name();
            let report = Planner::new(config.clone()).plan(&narrow.actions, &narrow.start, &narrow.goal).unwrap();
            let wide_report = Planner::new(config).plan(&wide.actions, &wide.start, &wide.goal).unwrap();
            if let Some(cost) = best {
                let plan = report.plan().unwrap_or_else(|| panic!("{name}: {:?}", report.outcome));
                prop_assert_eq!(plan.cost, u64::from(cost), "{}", name);
                let replayed = planners::validate(&narrow.actions, &narrow.start, &narrow.goal, &plan.actions);
                prop_assert_eq!(replayed.ok(), Some(u64::from(cost)));
                prop_assert_eq!(wide_report.plan().map(|p| p.cost), Some(u64::from(cost)));
            } else {
                prop_assert_eq!(&report.outcome, &PlanOutcome::Unsolvable, "{}", name);
                prop_assert_eq!(&wide_report.outcome, &PlanOutcome::Unsolvable, "{}", name);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// On random tasks, TTBS finds a valid plan exactly when there is one,
    /// on 64-bit and wider states alike.
    #[test]
    fn ttbs_plans_random_tasks_when_there_is_a_plan(task in spec(3..=9, 9), h in 0..FRONT_TO_FRONT.len()) {
        let narrow = build::<u64>(&task, 0);
        let best = optimal(&narrow, narrow.start, Algorithm::Dijkstra, Box::new(Blind));
        let wide = build::<Wide<2>>(&task, 64);
        let config = bidirectional(Algorithm::GreedyBestFirst, FRONT_TO_FRONT[h]);
        let report = Planner::new(config.clone()).plan(&narrow.actions, &narrow.start, &narrow.goal).unwrap();
        let wide_report = Planner::new(config).plan(&wide.actions, &wide.start, &wide.goal).unwrap();
        if let Some(least) = best {
            let plan = report.plan().unwrap_or_else(|| panic!("{:?}", report.outcome));
            let replayed = planners::validate(&narrow.actions, &narrow.start, &narrow.goal, &plan.actions);
            prop_assert_eq!(replayed.ok(), Some(plan.cost));
            prop_assert!(plan.cost >= u64::from(least));
            prop_assert_eq!(wide_report.plan().map(|p| p.cost), Some(plan.cost));
        } else {
            prop_assert_eq!(&report.outcome, &PlanOutcome::Unsolvable);
            prop_assert_eq!(&wide_report.outcome, &PlanOutcome::Unsolvable);
        }
    }
}

/// Optimal costs of Fast Downward's `astar(lmcut())` or `astar(hmax())`
/// (the tables of `pddl_costs.rs` and `pddl_adl.rs`): STRIPS with costs
/// and ADL with conditional effects.
const PDDL_OPTIMA: [(&str, &str, u64); 6] = [
    ("pegsol-08-strips", "p01", 2),
    ("pegsol-08-strips", "p02", 5),
    ("openstacks-opt08-strips", "p01", 2),
    ("parcprinter-08-strips", "p01", 169_009),
    ("miconic-simpleadl", "s1-0", 4),
    ("schedule", "probschedule-2-0", 2),
];

#[test]
fn ttbs_plans_pddl_tasks_with_costs_and_adl() {
    for (domain, task, optimum) in PDDL_OPTIMA {
        let (domain_file, problem_file) = tests::ipc_task_files(domain, task);
        let domain_text = std::fs::read_to_string(domain_file).unwrap();
        let problem_text = std::fs::read_to_string(problem_file).unwrap();
        let config = bidirectional(Algorithm::GreedyBestFirst, "ff");
        let solution = solve_text(
            &domain_text,
            &problem_text,
            &config,
            &PddlOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{domain} {task}: {e}"));
        // Greedy: no cheaper than optimal, and replayed on the task.
        let plan = solution
            .report
            .plan()
            .unwrap_or_else(|| panic!("{domain} {task}"));
        assert!(plan.cost >= optimum, "{domain} {task}");
        let text = solution.plan_text().unwrap();
        let replayed = planners::pddl::validate_text(
            ("domain", &domain_text),
            ("problem", &problem_text),
            ("plan", &text),
        );
        assert_eq!(replayed.ok(), Some(plan.cost), "{domain} {task}");
        let both = solution.report.both.clone().unwrap();
        assert!(both.expanded > 0, "{domain} {task}");
    }
}

#[test]
fn pddl_tasks_meet_at_fast_downwards_optimal_costs() {
    for (domain, task, optimum) in PDDL_OPTIMA {
        let (domain_file, problem_file) = tests::ipc_task_files(domain, task);
        let domain_text = std::fs::read_to_string(domain_file).unwrap();
        let problem_text = std::fs::read_to_string(problem_file).unwrap();
        let config = bidirectional(Algorithm::AStar, "hmax");
        let solution = solve_text(
            &domain_text,
            &problem_text,
            &config,
            &PddlOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{domain} {task}: {e}"));
        let plan = solution
            .report
            .plan()
            .unwrap_or_else(|| panic!("{domain} {task}"));
        assert_eq!(plan.cost, optimum, "{domain} {task}");
        assert!(solution
            .plan_text()
            .unwrap()
            .contains(&format!("; cost = {optimum}")));
    }
}

#[test]
fn algorithms_without_a_bidirectional_form_are_refused_by_name() {
    let p = atomic::hungry_agent::<u64>().unwrap();
    for (algorithm, name) in [
        (Algorithm::BreadthFirst, "blind"),
        (Algorithm::LazyGreedy, "hmax"),
    ] {
        let error = Planner::new(bidirectional(algorithm, name))
            .plan(&p.actions, &p.start, &p.goal)
            .unwrap_err();
        assert!(
            matches!(error, PlanError::NotBidirectional { .. }),
            "{error}"
        );
        assert!(
            error.to_string().contains(&algorithm.to_string()),
            "{error}"
        );
    }
    let error = Planner::new(bidirectional(Algorithm::AStar, "ff+lmcount"))
        .plan(&p.actions, &p.start, &p.goal)
        .unwrap_err();
    assert!(matches!(error, PlanError::Alternation { .. }), "{error}");
    // TTBS needs a heuristic between a state and a subgoal.
    let error = Planner::new(bidirectional(Algorithm::GreedyBestFirst, "lmcut"))
        .plan(&p.actions, &p.start, &p.goal)
        .unwrap_err();
    assert!(matches!(error, PlanError::NoFrontToFront { .. }), "{error}");
    assert!(error.to_string().contains("lmcut"), "{error}");
    let error = Planner::new(bidirectional(Algorithm::GreedyBestFirst, "numeric"))
        .plan(
            &hitman().unwrap().domain,
            &hitman().unwrap().start,
            &hitman().unwrap().goal,
        )
        .unwrap_err();
    assert!(matches!(error, PlanError::NoFrontToFront { .. }), "{error}");
    let planner = Planner::new(bidirectional(Algorithm::AStar, "hmax"));
    let mut job = PlanJob::new(std::sync::Arc::new(p.actions.clone()), p.start, p.goal);
    let error = job
        .advance(&planner, planners::Budget::Expansions(10))
        .unwrap_err();
    assert!(matches!(error, PlanError::NotSliced { .. }), "{error}");
    assert!(error.to_string().contains("nbs"), "{error}");
}

#[test]
fn configuration_names_read_back() {
    let config = bidirectional(Algorithm::AStar, "lmcut");
    assert_eq!(config.name(), "bid-nbs-lmcut");
    assert_eq!(
        bidirectional(Algorithm::GreedyBestFirst, "ff").name(),
        "bid-ttbs-ff"
    );
    assert_eq!(
        Direction::Bidirectional.parse_algorithm("ttbs").unwrap(),
        Algorithm::GreedyBestFirst
    );
    assert_eq!(
        Direction::Bidirectional.parse_algorithm("nbs").unwrap(),
        Algorithm::AStar
    );
    assert_eq!(
        "bid".parse::<Direction>().unwrap(),
        Direction::Bidirectional
    );
}
