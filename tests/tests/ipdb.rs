//! iPDB: on random small tasks with zero-cost actions it never exceeds the
//! optimal cost, calls a state a dead end only when no plan exists, and
//! lets A* find Dijkstra's cost; with atoms as binary variables, and with
//! mutex groups as finite-domain variables. On shipped PDDL tasks it finds
//! LM-cut's optimal cost and expands no more than blind search.

use std::collections::BTreeMap;

use planners::heuristics::heuristic;
use planners::pddl::solve_files;
use planners::{Direction, PlanError, Planner, PlannerConfig};
use proptest::prelude::*;
use search_core::{Algorithm, Blind, Estimate, Heuristic};
use state_atomic::{ActionSet, Bits, Ipdb, IpdbConfig, SparseBits};
use tests::random_task::{build, optimal, spec, states, Built};

/// (changed variable, from, to (`domain`: none), other conditions, cost).
type FdrAction = (usize, usize, usize, Vec<(usize, usize)>, u32);

/// A random task over finite-domain variables: atom `v * domain + x` is
/// "variable `v` has value `x`", exactly one holds at the start, and every
/// action that changes a variable asks for its value, so each variable's
/// atoms are a true mutex group. Some actions only delete ("none").
#[derive(Clone, Debug)]
struct FdrSpec {
    variables: usize,
    domain: usize,
    actions: Vec<FdrAction>,
    start: Vec<usize>,
    goal: Vec<(usize, usize)>,
    walk: Vec<usize>,
}

fn fdr_spec() -> impl Strategy<Value = FdrSpec> {
    (2_usize..=4, 2_usize..=4).prop_flat_map(|(variables, domain)| {
        let action = (
            0..variables,
            0..domain,
            0..=domain,
            prop::collection::vec((0..variables, 0..domain), 0..=2),
            0_u32..=3,
        );
        (
            prop::collection::vec(action, 2..=12),
            prop::collection::vec(0..domain, variables),
            prop::collection::vec((0..variables, 0..domain), 1..=3),
            prop::collection::vec(0_usize..12, 0..=12),
        )
            .prop_map(move |(actions, start, goal, walk)| FdrSpec {
                variables,
                domain,
                actions,
                start,
                goal,
                walk,
            })
    })
}

fn build_fdr(spec: &FdrSpec) -> Built<u64> {
    let name = |v: usize, x: usize| format!("v{v}_{x}");
    let mut actions = ActionSet::<u64>::new();
    for v in 0..spec.variables {
        for x in 0..spec.domain {
            actions.declare(&name(v, x)).unwrap();
        }
    }
    for (k, (changed, from, to, others, cost)) in spec.actions.iter().enumerate() {
        if from == to {
            continue;
        }
        let mut b = actions.add_action(&format!("act{k}"), *cost);
        // Conditions on other variables; one per variable.
        let others: BTreeMap<usize, usize> = others
            .iter()
            .copied()
            .filter(|(v, _)| v != changed)
            .collect();
        for (v, x) in others {
            b.pre(&name(v, x), true);
        }
        b.pre(&name(*changed, *from), true)
            .eff(&name(*changed, *from), false);
        if *to < spec.domain {
            b.eff(&name(*changed, *to), true);
        }
    }
    actions.check().unwrap();
    let groups: Vec<Vec<usize>> = (0..spec.variables)
        .map(|v| (0..spec.domain).map(|x| v * spec.domain + x).collect())
        .collect();
    actions.set_mutex_groups(groups).unwrap();
    let true_atoms: Vec<String> = spec
        .start
        .iter()
        .enumerate()
        .map(|(v, &x)| name(v, x))
        .collect();
    let start = actions
        .state(true_atoms.iter().map(String::as_str))
        .unwrap();
    let goal: BTreeMap<usize, usize> = spec.goal.iter().copied().collect();
    let goal: Vec<String> = goal.into_iter().map(|(v, x)| name(v, x)).collect();
    let goal = actions
        .partial(goal.iter().map(|n| (n.as_str(), true)))
        .unwrap();
    Built {
        actions,
        start,
        goal,
    }
}

/// Hill climbing that keeps any pattern that helps one sample, so the
/// small tasks get patterns of several variables.
fn eager() -> IpdbConfig {
    IpdbConfig {
        samples: 60,
        min_improvement: 1,
        ..IpdbConfig::default()
    }
}

/// Admissible on the start and walked-to states, dead ends real, and A*
/// with it finds Dijkstra's cost.
fn check<B: Bits>(built: &Built<B>, walk: &[usize]) -> Result<(), TestCaseError> {
    for config in [IpdbConfig::default(), eager()] {
        let mut ipdb = Ipdb::with_config(&built.actions, &built.start, built.goal.clone(), &config);
        for state in states(built, walk) {
            let best = optimal(built, state.clone(), Algorithm::Dijkstra, Box::new(Blind));
            match (ipdb.estimate(&state), best) {
                (Estimate::Value(h), Some(cost)) => prop_assert!(h <= cost, "h {h} > {cost}"),
                (Estimate::DeadEnd, Some(cost)) => {
                    prop_assert!(false, "a dead end with a plan of cost {cost}");
                }
                (_, None) => {}
            }
            let astar = optimal(built, state, Algorithm::AStar, Box::new(ipdb.clone()));
            prop_assert_eq!(astar, best);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn ipdb_is_admissible_on_binary_variables(spec in spec(3..=7, 3)) {
        check(&build::<u64>(&spec, 0), &spec.walk)?;
        check(&build::<SparseBits>(&spec, 0), &spec.walk)?;
    }

    #[test]
    fn ipdb_is_admissible_on_mutex_groups(spec in fdr_spec()) {
        check(&build_fdr(&spec), &spec.walk)?;
    }
}

/// The plan's cost and the expansions of forward A* with `name`.
fn solve(domain: &str, problem: &str, name: &str) -> (u64, u64) {
    let root = tests::pddl_benchmarks();
    let dir = root.join(domain);
    let config = PlannerConfig {
        direction: Direction::Forward,
        algorithm: Algorithm::AStar,
        heuristic: heuristic(name).unwrap(),
        ..PlannerConfig::default()
    };
    let solution = solve_files(&dir.join("domain.pddl"), &dir.join(problem), &config)
        .unwrap_or_else(|e| panic!("{domain}/{problem} with {name}: {e}"));
    let cost = solution.report.plan().map(|p| p.cost).expect("a plan");
    (cost, solution.report.stats().expanded)
}

#[test]
fn ipdb_finds_lmcuts_optimal_cost_and_expands_no_more_than_blind() {
    for (domain, problem) in [("gripper", "task01.pddl"), ("blocks", "task01.pddl")] {
        let (ipdb_cost, ipdb_expanded) = solve(domain, problem, "ipdb");
        let (lmcut_cost, _) = solve(domain, problem, "lmcut");
        let (blind_cost, blind_expanded) = solve(domain, problem, "blind");
        assert_eq!(ipdb_cost, lmcut_cost, "{domain}/{problem}");
        assert_eq!(ipdb_cost, blind_cost, "{domain}/{problem}");
        assert!(
            ipdb_expanded <= blind_expanded,
            "{domain}/{problem}: {ipdb_expanded} > {blind_expanded}"
        );
    }
}

#[test]
fn ipdb_refuses_regression_by_name() {
    let mut actions = ActionSet::<u64>::new();
    actions
        .add_action("eat", 5)
        .pre("has_food", true)
        .eff("fed", true);
    let start = actions.state(["has_food"]).unwrap();
    let goal = actions.partial([("fed", true)]).unwrap();
    let config = PlannerConfig {
        direction: Direction::Regression,
        heuristic: heuristic("ipdb").unwrap(),
        ..PlannerConfig::default()
    };
    let error: PlanError = Planner::new(config)
        .plan(&actions, &start, &goal)
        .unwrap_err();
    assert!(error.to_string().contains("ipdb"), "{error}");
}
