//! The planner's tiny path against the general engine: on random small
//! atomic problems, a `Planner` (which runs A* in the tiny engine, with the
//! quick forms of the built-in heuristics) gives what `Search` gives with
//! the registry's heuristics: the same outcome kind, the same optimal cost
//! and plan, under expansion limits too; and `SmallHMax` is `h_max`.

use std::collections::BTreeMap;

use planners::heuristics::heuristic;
use planners::{Direction, PlanOutcome, Planner, PlannerConfig};
use proptest::prelude::*;
use search_core::{Estimate, Heuristic, Outcome, Search, SearchLimits};
use state_atomic::{ActionSet, ForwardSpace, PartialState, RelaxedForward, SmallHMax, WorldState};

/// Literals as (atom, value).
type Literals = Vec<(usize, bool)>;

/// A random problem over `atoms` atoms: actions (preconditions, effects,
/// cost), a start (bits) and a goal (atom, value).
#[derive(Clone, Debug)]
struct Spec {
    atoms: usize,
    actions: Vec<(Literals, Literals, u32)>,
    start: u64,
    goal: Literals,
}

fn spec() -> impl Strategy<Value = Spec> {
    (1_usize..=8).prop_flat_map(|atoms| {
        let literal = (0..atoms, any::<bool>());
        let action = (
            prop::collection::vec(literal.clone(), 0..=3),
            prop::collection::vec(literal.clone(), 1..=2),
            0_u32..=6,
        );
        (
            prop::collection::vec(action, 1..=12),
            any::<u64>(),
            prop::collection::vec(literal, 1..=3),
        )
            .prop_map(move |(actions, start, goal)| Spec {
                atoms,
                actions,
                start,
                goal,
            })
    })
}

fn build(spec: &Spec) -> (ActionSet<u64>, WorldState<u64>, PartialState<u64>) {
    let mut actions = ActionSet::<u64>::new();
    let names: Vec<String> = (0..spec.atoms).map(|i| format!("a{i}")).collect();
    for name in &names {
        actions.declare(name).unwrap();
    }
    for (k, (pre, eff, cost)) in spec.actions.iter().enumerate() {
        let mut b = actions.add_action(&format!("act{k}"), *cost);
        // A later literal on the same atom overrides an earlier one.
        for (atom, value) in pre.iter().copied().collect::<BTreeMap<_, _>>() {
            b.pre(&names[atom], value);
        }
        for (atom, value) in eff.iter().copied().collect::<BTreeMap<_, _>>() {
            b.eff(&names[atom], value);
        }
    }
    let start = actions
        .state(
            (0..spec.atoms)
                .filter(|i| spec.start >> i & 1 == 1)
                .map(|i| names[i].as_str()),
        )
        .unwrap();
    let goal = actions
        .partial(
            spec.goal
                .iter()
                .copied()
                .collect::<BTreeMap<_, _>>()
                .into_iter()
                .map(|(atom, value)| (names[atom].as_str(), value)),
        )
        .unwrap();
    (actions, start, goal)
}

/// The general engine's A* with the registry's heuristic `name`.
fn general(
    actions: &ActionSet<u64>,
    start: WorldState<u64>,
    goal: PartialState<u64>,
    name: &str,
    limits: &SearchLimits<u32>,
) -> Outcome<WorldState<u64>, state_atomic::ActionId, u32> {
    let space = ForwardSpace::new(actions, goal).unwrap();
    let h = heuristic(name)
        .unwrap()
        .forward(actions, &start, &goal)
        .unwrap();
    let result = Search::new(&space, start)
        .heuristic(h)
        .limits(limits.clone())
        .run()
        .unwrap();
    result.outcome
}

proptest! {
    #[test]
    fn small_hmax_is_h_max(spec in spec(), states in prop::collection::vec(any::<u64>(), 1..8)) {
        let (actions, _, goal) = build(&spec);
        let mut small = SmallHMax::new(&actions, goal).unwrap();
        let mut reference = RelaxedForward::h_max(&actions, goal);
        for bits in states {
            let state = WorldState::new(bits & ((1 << spec.atoms) - 1));
            prop_assert_eq!(small.estimate(&state), reference.estimate(&state));
        }
    }

    #[test]
    fn tiny_plans_are_the_general_engines(
        spec in spec(),
        max_expansions in prop::option::weighted(0.3, 0..6_u64),
    ) {
        let (actions, start, goal) = build(&spec);
        let limits = SearchLimits { max_expansions, ..SearchLimits::default() };
        for name in ["hmax", "blind", "mismatch", "hadd"] {
            let planner = Planner::new(PlannerConfig {
                direction: Direction::Forward,
                heuristic: heuristic(name).unwrap(),
                limits: limits.clone(),
                ..PlannerConfig::default()
            });
            let expected = general(&actions, start, goal, name, &limits);
            // Twice: the second plan runs in the kept buffers.
            for _ in 0..2 {
                let outcome = planner.plan(&actions, &start, &goal).unwrap().outcome;
                match (&outcome, &expected) {
                    (PlanOutcome::Solved(plan), Outcome::Solved(solution)) => {
                        prop_assert_eq!(&plan.actions, &solution.actions, "{}", name);
                        prop_assert_eq!(plan.cost, u64::from(solution.cost));
                        let replayed = planners::validate(&actions, &start, &goal, &plan.actions);
                        prop_assert_eq!(replayed.unwrap(), plan.cost);
                    }
                    (PlanOutcome::Unsolvable, Outcome::Exhausted)
                    | (PlanOutcome::LimitReached { .. }, Outcome::LimitReached { .. }) => {}
                    _ => prop_assert!(false, "{name}: {outcome:?} against {expected:?}"),
                }
            }
        }
    }

    /// The portfolio (whose first phase steps both directions in the tiny
    /// engine) and `plan_into` (the buffer's tiny path) on random tasks:
    /// the general engine's optimal cost and outcome kind, valid plans.
    #[test]
    fn the_portfolio_and_the_buffer_plan_as_the_general_engine(spec in spec()) {
        let (actions, start, goal) = build(&spec);
        let limits = SearchLimits::default();
        for name in ["hmax", "blind"] {
            let expected = general(&actions, start, goal, name, &limits);
            let config = |direction| PlannerConfig {
                direction,
                heuristic: heuristic(name).unwrap(),
                ..PlannerConfig::default()
            };
            let portfolio = Planner::new(config(Direction::Portfolio));
            let forward = Planner::new(config(Direction::Forward));
            let mut buffer = planners::PlanBuffer::new();
            for _ in 0..2 {
                let outcomes = [
                    portfolio.plan(&actions, &start, &goal).unwrap().outcome,
                    forward.plan_into(&actions, &start, &goal, &mut buffer).unwrap().outcome.clone(),
                ];
                for outcome in outcomes {
                    match (&outcome, &expected) {
                        (PlanOutcome::Solved(plan), Outcome::Solved(solution)) => {
                            prop_assert_eq!(plan.cost, u64::from(solution.cost), "{}", name);
                            let replayed = planners::validate(&actions, &start, &goal, &plan.actions);
                            prop_assert_eq!(replayed.unwrap(), plan.cost);
                        }
                        (PlanOutcome::Unsolvable, Outcome::Exhausted) => {}
                        _ => prop_assert!(false, "{name}: {outcome:?} against {expected:?}"),
                    }
                }
            }
        }
    }
}

#[test]
fn small_hmax_refuses_wide_states_and_many_actions() {
    let wide = ActionSet::<state_atomic::Wide<2>>::new();
    assert!(SmallHMax::new(&wide, PartialState::empty()).is_none());
    let mut many = ActionSet::<u64>::new();
    for k in 0..=state_atomic::SMALL_HMAX_MAX_ACTIONS {
        many.add_action(&format!("act{k}"), 1).eff("done", true);
    }
    assert!(SmallHMax::new(&many, PartialState::empty()).is_none());
    let none = ActionSet::<u64>::new();
    let mut h = SmallHMax::new(&none, PartialState::empty()).unwrap();
    assert_eq!(h.estimate(&WorldState::empty()), Estimate::Value(0));
}

/// A plan larger than the tiny engine (chains-60 stores about 2,600 nodes)
/// goes on in the general engine from where the tiny engine stopped: each
/// state is evaluated once in all (the report's count), with the counters
/// and plan of a search that never ran tiny (a time limit keeps it out).
#[test]
fn a_plan_past_the_tiny_engine_is_taken_over_not_run_again() {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    let problem = state_atomic::problems::chains::<u64>(60, 1).unwrap();
    let plan = |limits: SearchLimits<u32>| {
        let calls = Arc::new(AtomicU64::new(0));
        let counted = Arc::clone(&calls);
        let goal = problem.goal;
        let config = PlannerConfig {
            limits,
            ..PlannerConfig::default()
        };
        let planner = Planner::new(config).with_forward_heuristic(move || {
            let counted = Arc::clone(&counted);
            move |s: &WorldState| {
                counted.fetch_add(1, Ordering::Relaxed);
                u32::from(!s.satisfies(&goal))
            }
        });
        let report = planner
            .plan(&problem.actions, &problem.start, &problem.goal)
            .unwrap();
        (report, calls.load(Ordering::Relaxed))
    };
    let (report, calls) = plan(SearchLimits::default());
    let stats = report.forward.clone().unwrap();
    assert!(stats.stored > search_core::TINY_MAX_NODES);
    assert_eq!(calls, stats.evaluated);
    let (alone, _) = plan(SearchLimits {
        max_time: Some(std::time::Duration::from_secs(3600)),
        ..SearchLimits::default()
    });
    let alone_stats = alone.forward.clone().unwrap();
    assert_eq!(
        alone.plan().unwrap().actions,
        report.plan().unwrap().actions
    );
    assert_eq!(alone_stats.counters(), stats.counters());
}
