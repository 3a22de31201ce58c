//! The reference scenarios through the one Planner API, in all three
//! directions; every plan goes through `validate`.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use planners::heuristics::NamedHeuristic;
use planners::{validate, Direction, PlanError, PlanOutcome, Planner, PlannerConfig};
use rayon::prelude::*;
use search_core::{Algorithm, Limit, SearchLimits};
use state_atomic::problems as atomic;
use state_factored::problems as factored;
use tests::heuristic;

const DIRECTIONS: [Direction; 3] = [
    Direction::Forward,
    Direction::Regression,
    Direction::Portfolio,
];

use tests::{plan_and_validate as solve, planner_config as config};

/// Optimal configurations for atomic domains.
fn atomic_optimal() -> Vec<(Algorithm, NamedHeuristic)> {
    vec![
        (Algorithm::Dijkstra, heuristic("blind")),
        (Algorithm::AStar, heuristic("blind")),
        (Algorithm::AStar, heuristic("hmax")),
        (Algorithm::AStar, heuristic("mismatch-admissible")),
    ]
}

#[test]
fn atomic_scenarios_in_every_direction() {
    let ship = |start: &[&str]| atomic::enemy_ship::<u64>(start).unwrap();
    // (problem, optimal cost, fewest actions)
    let cases = [
        (atomic::hungry_agent::<u64>().unwrap(), 30, 2),
        (ship(&["safe", "ammo_full"]), 5, 2),
        (ship(&["safe", "ammo_full", "player_weak"]), 4, 1),
        (ship(&["ammo_full"]), 2, 2),
        (ship(&["safe", "ammo_full", "aim_ready"]), 2, 1),
        (atomic::consumed_fact::<u64>().unwrap(), 7, 5),
    ];
    for (p, optimal, fewest) in &cases {
        for direction in DIRECTIONS {
            for (algorithm, heuristic) in atomic_optimal() {
                let c = config(direction, algorithm, heuristic);
                assert_eq!(
                    solve(&p.actions, &p.start, &p.goal, c).0,
                    *optimal,
                    "{}",
                    p.name
                );
            }
            let c = config(direction, Algorithm::BreadthFirst, heuristic("blind"));
            assert_eq!(
                solve(&p.actions, &p.start, &p.goal, c).1,
                *fewest,
                "{}",
                p.name
            );
            for heuristic in [heuristic("ff"), heuristic("hadd"), heuristic("mismatch")] {
                let c = config(direction, Algorithm::GreedyBestFirst, heuristic);
                assert!(solve(&p.actions, &p.start, &p.goal, c).0 >= *optimal);
            }
        }
    }
}

#[test]
fn hitman_in_every_direction() {
    let p = factored::hitman().unwrap();
    // Mining gold never ends; the limit keeps a mistake from running away.
    let limits = SearchLimits {
        max_expansions: Some(200_000),
        ..SearchLimits::default()
    };
    for direction in DIRECTIONS {
        for (algorithm, heuristic) in [
            (Algorithm::Dijkstra, heuristic("blind")),
            (Algorithm::AStar, heuristic("numeric")),
            (Algorithm::AStar, heuristic("blind")),
        ] {
            let c = PlannerConfig {
                limits: limits.clone(),
                ..config(direction, algorithm, heuristic)
            };
            assert_eq!(solve(&p.domain, &p.start, &p.goal, c).0, 15, "{direction}");
        }
    }
}

#[test]
fn portfolio_reports_both_directions_and_the_winner() {
    let p = atomic::hungry_agent::<u64>().unwrap();
    let c = config(Direction::Portfolio, Algorithm::AStar, heuristic("hmax"));
    let report = Planner::new(c).plan(&p.actions, &p.start, &p.goal).unwrap();
    assert!(report.forward.is_some() && report.regression.is_some());
    assert!(matches!(
        report.direction,
        Direction::Forward | Direction::Regression
    ));
    assert_eq!(report.plan().unwrap().cost, 30);
    assert!(report.stats().expanded > 0);
}

#[test]
fn unsolvable_limited_and_cancelled() {
    let mut actions = state_atomic::ActionSet::<u64>::new();
    actions
        .add_action("toggle", 1)
        .pre("a", false)
        .eff("a", true);
    actions
        .add_action("untoggle", 1)
        .pre("a", true)
        .eff("a", false);
    actions.declare("never").unwrap();
    let start = actions.state([]).unwrap();
    let goal = actions.partial([("never", true)]).unwrap();
    for direction in DIRECTIONS {
        let report = Planner::new(config(direction, Algorithm::AStar, heuristic("blind")))
            .plan(&actions, &start, &goal)
            .unwrap();
        assert_eq!(report.outcome, PlanOutcome::Unsolvable, "{direction}");

        let cancel = Arc::new(AtomicBool::new(true));
        let limits = SearchLimits {
            cancel: Some(cancel),
            ..SearchLimits::default()
        };
        let report = Planner::new(PlannerConfig {
            direction,
            limits,
            ..PlannerConfig::default()
        })
        .plan(&actions, &start, &goal)
        .unwrap();
        assert_eq!(
            report.outcome,
            PlanOutcome::Cancelled { best: None },
            "{direction}"
        );
    }
    // A factored counter that grows without bound: forward hits the limit.
    let mut schema = state_factored::Schema::new();
    schema.int("n").unwrap();
    schema.bool("flag").unwrap();
    let mut domain = state_factored::Domain::new(schema);
    domain
        .add_action(state_factored::Action::builder("inc").increase("n", 1))
        .unwrap();
    let goal = domain
        .goal([state_factored::Predicate::eq("flag", true)])
        .unwrap();
    let start = domain.schema().default_state();
    let limits = SearchLimits {
        max_expansions: Some(1_000),
        ..SearchLimits::default()
    };
    let limited = PlannerConfig {
        limits,
        ..PlannerConfig::default()
    };
    let report = Planner::new(limited.clone())
        .plan(&domain, &start, &goal)
        .unwrap();
    assert_eq!(
        report.outcome,
        PlanOutcome::LimitReached {
            limit: Limit::Expansions,
            best: None,
        }
    );
    let regression = PlannerConfig {
        direction: Direction::Regression,
        ..limited.clone()
    };
    let report = Planner::new(regression)
        .plan(&domain, &start, &goal)
        .unwrap();
    assert_eq!(report.outcome, PlanOutcome::Unsolvable);
    // The portfolio takes regression's proof.
    let portfolio = PlannerConfig {
        direction: Direction::Portfolio,
        ..limited
    };
    let report = Planner::new(portfolio)
        .plan(&domain, &start, &goal)
        .unwrap();
    assert_eq!(report.outcome, PlanOutcome::Unsolvable);
    assert_eq!(report.direction, Direction::Regression);
}

#[test]
fn errors_name_what_is_wrong() {
    let p = atomic::hungry_agent::<u64>().unwrap();
    let c = config(Direction::Forward, Algorithm::AStar, heuristic("numeric"));
    let error = Planner::new(c)
        .plan(&p.actions, &p.start, &p.goal)
        .unwrap_err();
    assert!(
        matches!(error, PlanError::UnsupportedHeuristic { .. }),
        "{error}"
    );
    assert!(error.to_string().contains("numeric"));
    assert!("nonsense".parse::<NamedHeuristic>().is_err());
    assert!("sideways".parse::<Direction>().is_err());

    let mut schema = state_factored::Schema::new();
    schema.int("n").unwrap();
    let mut domain = state_factored::Domain::new(schema);
    domain
        .add_action(state_factored::Action::builder("inc").increase("n", 1))
        .unwrap();
    let goal = domain
        .goal([state_factored::Predicate::custom("big", |s| s.len() > 5)])
        .unwrap();
    let start = domain.schema().default_state();
    let error = Planner::new(config(
        Direction::Regression,
        Algorithm::AStar,
        heuristic("blind"),
    ))
    .plan(&domain, &start, &goal)
    .unwrap_err();
    assert!(error.to_string().contains("big"), "{error}");

    let wrong = [p.actions.find("eat").unwrap()];
    let error = validate(&p.actions, &p.start, &p.goal, &wrong).unwrap_err();
    assert!(error.to_string().contains("eat"), "{error}");
}

#[test]
fn custom_heuristics_in_both_directions() {
    let p = atomic::hungry_agent::<u64>().unwrap();
    let goal = p.goal;
    let start = p.start;
    for direction in DIRECTIONS {
        let planner = Planner::new(config(direction, Algorithm::AStar, heuristic("blind")))
            .with_forward_heuristic(move || {
                move |s: &state_atomic::WorldState| u32::from(!s.satisfies(&goal))
            })
            .with_regression_heuristic(move || {
                move |g: &state_atomic::PartialState| u32::from(!start.satisfies(g))
            });
        let report = planner.plan(&p.actions, &p.start, &p.goal).unwrap();
        assert_eq!(report.plan().unwrap().cost, 30, "{direction}");
    }
}

#[test]
fn one_domain_many_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<state_atomic::ActionSet<u64>>();
    shareable::<state_factored::Domain>();
    shareable::<Planner<'static, state_atomic::ActionSet<u64>>>();

    let p = atomic::enemy_ship::<u64>(&[]).unwrap();
    let starts: Vec<_> = (0..64_u64)
        .map(|bits| state_atomic::WorldState::new(bits & 0b11_1101)) // never player_killed
        .collect();
    let planner = Planner::new(config(
        Direction::Forward,
        Algorithm::AStar,
        heuristic("hmax"),
    ));
    let costs: Vec<u64> = starts
        .par_iter()
        .map(|start| planner.plan(&p.actions, start, &p.goal).unwrap())
        .map(|report| report.plan().map_or(u64::MAX, |plan| plan.cost))
        .collect();
    let sequential: Vec<u64> = starts
        .iter()
        .map(|start| planner.plan(&p.actions, start, &p.goal).unwrap())
        .map(|report| report.plan().map_or(u64::MAX, |plan| plan.cost))
        .collect();
    assert_eq!(costs, sequential);
    assert!(costs.iter().all(|&c| c <= 5));
}

#[test]
fn a_planner_that_kept_buffers_plans_as_a_fresh_one() {
    // One planner serves problems of different sizes in turn (chains-2 runs
    // into the limit after thousands of expansions, hitman needs a handful),
    // in both directions; every report must match a fresh planner's,
    // statistics included.
    let problems = [
        factored::chains(2).unwrap(),
        factored::hitman().unwrap(),
        factored::chains(1).unwrap(),
        factored::hitman().unwrap(),
    ];
    let limits = SearchLimits {
        max_expansions: Some(3_000),
        ..SearchLimits::default()
    };
    for direction in [Direction::Forward, Direction::Regression] {
        let c = PlannerConfig {
            limits: limits.clone(),
            ..config(direction, Algorithm::AStar, heuristic("hmax"))
        };
        let kept = Planner::new(c.clone());
        for round in 0..2 {
            for p in &problems {
                let again = kept.plan(&p.domain, &p.start, &p.goal).unwrap();
                let fresh = Planner::new(c.clone())
                    .plan(&p.domain, &p.start, &p.goal)
                    .unwrap();
                let what = format!("{} {direction} round {round}", p.name);
                assert_eq!(again.outcome, fresh.outcome, "{what}");
                assert_eq!(again.stats().counters(), fresh.stats().counters(), "{what}");
            }
        }
    }
}

/// Restarting weighted A* in every direction ends with the optimum, with an
/// admissible and with an inadmissible heuristic; every plan it lists on
/// the way replays, in execution order, at its cost, and each is cheaper
/// than the one before.
#[test]
fn anytime_search_improves_to_the_optimum_in_every_direction() {
    let hungry = atomic::hungry_agent::<u64>().unwrap();
    let chain = atomic::consumed_fact::<u64>().unwrap();
    for (p, optimal) in [(&hungry, 30), (&chain, 7)] {
        for direction in DIRECTIONS {
            for h in ["hmax", "ff"] {
                let c = config(direction, Algorithm::RestartingWeightedAStar, heuristic(h));
                let name = c.name();
                let report = Planner::new(c).plan(&p.actions, &p.start, &p.goal).unwrap();
                assert_eq!(report.plan().map(|plan| plan.cost), Some(optimal), "{name}");
                assert_eq!(
                    report.improvements.last().map(|i| &i.plan),
                    report.plan(),
                    "{name}"
                );
                for found in &report.improvements {
                    let replayed = validate(&p.actions, &p.start, &p.goal, &found.plan.actions);
                    assert_eq!(replayed.ok(), Some(found.plan.cost), "{name}");
                }
                let costs: Vec<u64> = report.improvements.iter().map(|i| i.plan.cost).collect();
                assert!(costs.windows(2).all(|w| w[1] < w[0]), "{name}: {costs:?}");
            }
        }
    }
    let hitman = factored::hitman().unwrap();
    let c = PlannerConfig {
        limits: SearchLimits {
            max_expansions: Some(200_000),
            ..SearchLimits::default()
        },
        ..config(
            Direction::Forward,
            Algorithm::RestartingWeightedAStar,
            heuristic("numeric"),
        )
    };
    assert_eq!(solve(&hitman.domain, &hitman.start, &hitman.goal, c).0, 15);
}

/// A domain behind an `Arc` plans as the domain itself, with registered
/// heuristics, in every direction (atomic and factored).
#[test]
fn an_arc_shared_domain_plans_as_the_domain() {
    let hungry = atomic::hungry_agent::<u64>().unwrap();
    let shared = Arc::new(hungry.actions.clone());
    let hitman = factored::hitman().unwrap();
    let domain = Arc::new(hitman.domain.clone());
    for direction in DIRECTIONS {
        let c = config(direction, Algorithm::AStar, heuristic("hmax"));
        assert_eq!(solve(&shared, &hungry.start, &hungry.goal, c).0, 30);
        let c = PlannerConfig {
            limits: SearchLimits {
                max_expansions: Some(200_000),
                ..SearchLimits::default()
            },
            ..config(direction, Algorithm::AStar, heuristic("numeric"))
        };
        assert_eq!(solve(&domain, &hitman.start, &hitman.goal, c).0, 15);
    }
}

/// A portfolio on a domain regression cannot search (a state-dependent
/// cost) plans forward, with a note, instead of failing.
#[test]
fn a_portfolio_plans_forward_where_regression_cannot_run() {
    use state_factored::{Action, Domain, Predicate, Schema};
    let mut schema = Schema::new();
    schema.bool("fed").unwrap();
    let mut domain = Domain::new(schema);
    domain
        .add_action(
            Action::builder("eat")
                .cost(1)
                .cost_fn(|_| 4)
                .set("fed", true),
        )
        .unwrap();
    let start = domain.schema().default_state();
    let goal = domain.goal([Predicate::eq("fed", true)]).unwrap();
    let regression = Planner::new(config(
        Direction::Regression,
        Algorithm::AStar,
        heuristic("blind"),
    ))
    .plan(&domain, &start, &goal);
    assert!(regression.is_err(), "regression should refuse a cost_fn");
    let report = Planner::new(config(
        Direction::Portfolio,
        Algorithm::AStar,
        heuristic("blind"),
    ))
    .plan(&domain, &start, &goal)
    .unwrap();
    assert_eq!(report.plan().map(|p| p.cost), Some(4));
    assert_eq!(report.direction, Direction::Forward);
    assert!(report.regression.is_none());
    assert_eq!(report.notes.len(), 1, "{:?}", report.notes);
    assert!(
        report.notes[0].contains("planned forward only"),
        "{:?}",
        report.notes
    );
}

/// A portfolio runs both directions at once even inside a rayon pool whose
/// one thread is busy with the portfolio itself: regression proves the goal
/// unreachable at once and cancels forward, which alone would count up
/// without end. (Were regression queued behind forward on that thread,
/// forward would run to its limit first.)
#[test]
fn a_portfolio_runs_both_directions_at_once_in_a_busy_pool() {
    use state_factored::{Action, Domain, Predicate, Schema};
    let mut schema = Schema::new();
    schema.int("n").unwrap();
    schema.bool("flag").unwrap();
    let mut domain = Domain::new(schema);
    domain
        .add_action(Action::builder("inc").increase("n", 1))
        .unwrap();
    let goal = domain.goal([Predicate::eq("flag", true)]).unwrap();
    let start = domain.schema().default_state();
    // Only a bound on forward, far beyond what it reaches before regression
    // answers; a test that fails rather than hangs.
    let limit = 1_000_000;
    let portfolio = PlannerConfig {
        direction: Direction::Portfolio,
        limits: SearchLimits {
            max_expansions: Some(limit),
            // A time limit keeps the portfolio out of the tiny engine, so
            // that both directions run on threads (not first on this one).
            max_time: Some(std::time::Duration::from_secs(600)),
            ..SearchLimits::default()
        },
        ..PlannerConfig::default()
    };
    let planner = Planner::new(portfolio);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let report = pool
        .install(|| planner.plan(&domain, &start, &goal))
        .unwrap();
    assert_eq!(report.outcome, PlanOutcome::Unsolvable);
    assert_eq!(report.direction, Direction::Regression);
    let forward = report.forward.unwrap().expanded;
    assert!(forward < limit / 2, "forward expanded {forward} nodes");
}

/// On problems its first phase settles on the caller's thread, a portfolio
/// returns the plan of the direction that settled it, as that direction
/// alone plans it; on one it does not settle (chains-40), the threaded
/// portfolio's.
#[test]
fn the_portfolio_first_phase_returns_the_plans_of_each_direction_alone() {
    let mut problems = vec![
        atomic::hungry_agent::<u64>().unwrap(),
        atomic::enemy_ship(&["safe", "ammo_full"]).unwrap(),
        atomic::consumed_fact().unwrap(),
        atomic::shortcuts(40, 1).unwrap(),
        atomic::toggles(40, 1).unwrap(),
    ];
    problems.push(atomic::chains(40, 1).unwrap());
    for p in &problems {
        for h in ["hmax", "blind"] {
            let alone = |direction| {
                Planner::new(config(direction, Algorithm::AStar, heuristic(h)))
                    .plan(&p.actions, &p.start, &p.goal)
                    .unwrap()
            };
            let portfolio = alone(Direction::Portfolio);
            let winner = alone(portfolio.direction);
            assert_eq!(portfolio.plan(), winner.plan(), "{} {h}", p.name);
            assert_eq!(
                portfolio.plan().map(|plan| plan.cost),
                alone(Direction::Forward).plan().map(|plan| plan.cost),
                "{} {h}",
                p.name
            );
            assert!(portfolio.forward.is_some() && portfolio.regression.is_some());
        }
    }
}

/// A portfolio with a heuristic that serves forward only (iPDB) plans
/// forward, with a note, as where regression cannot run at all: its first
/// phase on the caller's thread leaves such a problem to the threaded
/// portfolio.
#[test]
fn a_portfolio_with_a_forward_only_heuristic_plans_forward() {
    let p = atomic::hungry_agent::<u64>().unwrap();
    let report = Planner::new(config(
        Direction::Portfolio,
        Algorithm::AStar,
        heuristic("ipdb"),
    ))
    .plan(&p.actions, &p.start, &p.goal)
    .unwrap();
    assert_eq!(report.plan().map(|plan| plan.cost), Some(30));
    assert_eq!(report.direction, Direction::Forward);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("planned forward only")),
        "{:?}",
        report.notes
    );
}
