//! The heuristic registry: what each built-in heuristic says of itself
//! matches what its instances do, and a heuristic serves exactly the
//! representations, widths and directions it declares.

use planners::heuristics::{NamedHeuristic, Registry, Representation, TaskView};
use planners::{Direction, PlanError, Planner, PlannerConfig};
use search_core::{Algorithm, Heuristic};
use state_atomic::{Bits, SparseBits, Wide};

fn atomic<B: Bits>() -> state_atomic::problems::Problem<B> {
    state_atomic::problems::hungry_agent::<B>().unwrap()
}

fn factored() -> state_factored::problems::Problem {
    state_factored::problems::hitman().unwrap()
}

/// Makes `h` for `task` in `direction`, and returns the instance's
/// declared properties, or the error.
fn properties<T: TaskView>(
    h: &NamedHeuristic,
    task: &T,
    start: &T::State,
    goal: &T::Goal,
    direction: Direction,
) -> Result<(bool, bool), PlanError> {
    Ok(if direction == Direction::Forward {
        let made = h.forward(task, start, goal)?;
        (made.is_admissible(), made.is_consistent())
    } else {
        let made = h.regression(task, start, goal)?;
        (made.is_admissible(), made.is_consistent())
    })
}

#[test]
fn every_builtin_serves_what_it_declares_with_the_properties_it_declares() {
    let a = atomic::<u64>();
    let w = atomic::<Wide<2>>();
    let s = atomic::<SparseBits>();
    let f = factored();
    for h in Registry::builtin().iter() {
        let info = h.info();
        for direction in [Direction::Forward, Direction::Regression] {
            let made = [
                (
                    Representation::Atomic,
                    properties(h, &a.actions, &a.start, &a.goal, direction),
                ),
                (
                    Representation::Atomic,
                    properties(h, &w.actions, &w.start, &w.goal, direction),
                ),
                (
                    Representation::Atomic,
                    properties(h, &s.actions, &s.start, &s.goal, direction),
                ),
                (
                    Representation::Factored,
                    properties(h, &f.domain, &f.start, &f.goal, direction),
                ),
            ];
            for (representation, made) in made {
                let what = format!("{} {direction} {representation}", info.name);
                if h.supports(representation, direction) {
                    let (admissible, consistent) = made.unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert_eq!(admissible, info.admissible, "{what}: admissible");
                    // Declared consistent means consistent on every
                    // representation; an instance may be more (atomic h_max
                    // is consistent, the factored one is not known to be).
                    assert!(consistent || !info.consistent, "{what}: consistent");
                } else {
                    let error = made.unwrap_err().to_string();
                    assert!(error.contains("is not available"), "{what}: {error}");
                }
            }
        }
    }
}

#[test]
fn admissible_builtins_find_the_optimal_cost_on_every_width_and_direction() {
    let a = atomic::<u64>();
    let w = atomic::<Wide<3>>();
    let s = atomic::<SparseBits>();
    let f = factored();
    for h in Registry::builtin().iter().filter(|h| h.info().admissible) {
        for direction in [
            Direction::Forward,
            Direction::Regression,
            Direction::Portfolio,
        ] {
            let config = PlannerConfig {
                direction,
                algorithm: Algorithm::AStar,
                heuristic: h.clone(),
                ..PlannerConfig::default()
            };
            let what = format!("{} {direction}", h.name());
            if h.supports(Representation::Atomic, direction) {
                for cost in [
                    tests::plan_and_validate(&a.actions, &a.start, &a.goal, config.clone()).0,
                    tests::plan_and_validate(&w.actions, &w.start, &w.goal, config.clone()).0,
                    tests::plan_and_validate(&s.actions, &s.start, &s.goal, config.clone()).0,
                ] {
                    assert_eq!(cost, 30, "{what}");
                }
            }
            if h.supports(Representation::Factored, direction) {
                let cost = tests::plan_and_validate(&f.domain, &f.start, &f.goal, config).0;
                assert_eq!(cost, 15, "{what}");
            }
        }
    }
}

/// Every built-in heuristic, in each direction it serves, leads greedy
/// search to the same plan with the same expansions on a `SparseBits` task
/// as on a fixed width: it computes the same values.
#[test]
fn every_builtin_plans_alike_on_sparse_bits() {
    let (w, s) = (
        state_atomic::problems::toggles::<Wide<2>>(20, 3).unwrap(),
        state_atomic::problems::toggles::<SparseBits>(20, 3).unwrap(),
    );
    for h in Registry::builtin().iter() {
        for direction in [Direction::Forward, Direction::Regression] {
            if !h.supports(Representation::Atomic, direction) {
                continue;
            }
            let config = PlannerConfig {
                direction,
                algorithm: Algorithm::GreedyBestFirst,
                heuristic: h.clone(),
                ..PlannerConfig::default()
            };
            let what = format!("{} {direction}", h.name());
            let fixed = Planner::new(config.clone()).plan(&w.actions, &w.start, &w.goal);
            let sparse = Planner::new(config).plan(&s.actions, &s.start, &s.goal);
            let (fixed, sparse) = (fixed.unwrap(), sparse.unwrap());
            let plan = |report: &planners::PlanReport<_>| report.plan().map(|p| p.actions.clone());
            assert!(plan(&fixed).is_some(), "{what}");
            assert_eq!(plan(&fixed), plan(&sparse), "{what}");
            assert_eq!(fixed.stats().expanded, sparse.stats().expanded, "{what}");
        }
    }
}

#[test]
fn a_width_outside_the_registry_is_an_error_not_a_panic() {
    let odd = atomic::<Wide<5>>();
    let planner = Planner::new(PlannerConfig {
        heuristic: planners::heuristics::heuristic("hmax").unwrap(),
        ..PlannerConfig::default()
    });
    let error = planner
        .plan(&odd.actions, &odd.start, &odd.goal)
        .unwrap_err();
    assert!(
        matches!(error, PlanError::UnsupportedHeuristic { .. }),
        "{error}"
    );
}

/// `meets_goal` and `start_meets` (each representation's own test) agree
/// with the conditions `unmet_goal` and `unmet_subgoal` report.
fn meets_agrees_with_unmet<T: TaskView>(
    task: &T,
    states: &[T::State],
    goal: &T::Goal,
    subgoal: &T::Subgoal,
) {
    for state in states {
        let mut unmet = 0;
        task.unmet_goal(goal, state, |_| unmet += 1);
        assert_eq!(task.meets_goal(goal, state), unmet == 0);
        let mut unmet = 0;
        task.unmet_subgoal(state, subgoal, |_| unmet += 1);
        assert_eq!(task.start_meets(state, subgoal), unmet == 0);
    }
}

/// A plan by forward A* (blind).
fn plan_of<D: planners::PlanningDomain>(
    domain: &D,
    start: &D::State,
    goal: &D::Goal,
) -> Vec<D::ActionId> {
    let report = Planner::new(PlannerConfig::default())
        .plan(domain, start, goal)
        .unwrap();
    report.plan().unwrap().actions.clone()
}

#[test]
fn meeting_a_goal_is_having_no_unmet_condition() {
    let a = atomic::<u64>();
    let done = a
        .actions
        .replay(a.start, &plan_of(&a.actions, &a.start, &a.goal))
        .unwrap();
    meets_agrees_with_unmet(&a.actions, &[a.start, done], &a.goal, &a.goal);
    let f = factored();
    let plan = plan_of(&f.domain, &f.start, &f.goal);
    let (done, _) = f.domain.replay(&f.start, &plan).unwrap();
    let subgoal = f.domain.regression(&f.start, &f.goal).unwrap().start_node();
    meets_agrees_with_unmet(&f.domain, &[f.start.clone(), done], &f.goal, &subgoal);
}
