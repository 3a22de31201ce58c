//! A user heuristic, written once against `TaskView`, run by the whole
//! `searchlab` command line beside `h_max` (and Fast Downward's LM-cut
//! where it is installed), in both directions, on PDDL tasks of every width,
//! numeric PDDL tasks (on the factored state: the same code, unchanged),
//! generated atomic problems and factored ones.
//!
//! `cargo run --release -p searchlab-lab --example custom_heuristic` runs
//! benches/suites/custom-heuristic.toml into target/custom-heuristic (in
//! `CARGO_TARGET_DIR` where that is set); with
//! arguments it is `searchlab` itself, knowing `cheapest`
//! (`... --example custom_heuristic -- plan problems/hitman.toml --heuristic cheapest`,
//! or a numeric task: `... -- plan benchmarks/pddl-numeric/counters/domain.pddl
//! benchmarks/pddl-numeric/counters/instances/instance-2.pddl --heuristic cheapest`).
//!
//! The heuristic, "cheapest achiever": for every condition of the goal (or,
//! in regression, of the subgoal) that the state (the start) fails, the
//! cheapest action that can change its variable; the estimate is the
//! largest of those costs. Admissible and consistent: each failed condition
//! needs at least one such action. A failed condition that no action can
//! change is a dead end.

use std::ffi::OsString;
use std::process::ExitCode;

use planners::heuristics::{HeuristicFactory, NamedHeuristic, TaskView};
use planners::BoxedHeuristic;
use search_core::{Estimate, Heuristic};
use searchlab_lab::Lab;

/// The factory: builds the table of cheapest achievers for each search.
struct Cheapest;

/// The table, and the task it reads.
struct CheapestAchiever<'a, T> {
    task: &'a T,
    /// Per variable, the cheapest action that changes it (`None`: none does).
    by_variable: Vec<Option<u32>>,
    /// The cheapest action of all: what a condition on no single variable
    /// (a factored custom predicate) may need.
    any: Option<u32>,
}

impl<'a, T: TaskView> CheapestAchiever<'a, T> {
    fn new(task: &'a T) -> Self {
        let mut by_variable = vec![None; task.variables()];
        let mut any: Option<u32> = None;
        let cheaper = |slot: &mut Option<u32>, cost: u32| {
            *slot = Some(slot.map_or(cost, |c| c.min(cost)));
        };
        for action in task.action_views() {
            cheaper(&mut any, action.cost);
            match &action.changes {
                Some(variables) => {
                    for &v in variables {
                        if let Some(slot) = by_variable.get_mut(v) {
                            cheaper(slot, action.cost);
                        }
                    }
                }
                // A custom effect may change any variable.
                None => by_variable
                    .iter_mut()
                    .for_each(|slot| cheaper(slot, action.cost)),
            }
        }
        Self {
            task,
            by_variable,
            any,
        }
    }

    /// The largest cheapest achiever over the failed conditions `unmet`
    /// reports.
    fn largest(&self, unmet: impl FnOnce(&mut dyn FnMut(Option<usize>))) -> Estimate<u32> {
        let mut h = Some(0);
        unmet(&mut |condition| {
            let achiever = match condition {
                Some(v) => self.by_variable.get(v).copied().flatten(),
                None => self.any,
            };
            h = h.zip(achiever).map(|(h, a)| h.max(a));
        });
        h.map_or(Estimate::DeadEnd, Estimate::Value)
    }
}

/// Forward: the node against the goal.
struct Forward<'a, T: TaskView> {
    table: CheapestAchiever<'a, T>,
    goal: &'a T::Goal,
}

impl<T: TaskView> Heuristic<T::State, u32> for Forward<'_, T> {
    fn estimate(&mut self, state: &T::State) -> Estimate<u32> {
        let (task, goal) = (self.table.task, self.goal);
        self.table
            .largest(|each| task.unmet_goal(goal, state, each))
    }

    fn is_admissible(&self) -> bool {
        true
    }

    fn is_consistent(&self) -> bool {
        true
    }
}

/// Regression: the start against the subgoal.
struct Backward<'a, T: TaskView> {
    table: CheapestAchiever<'a, T>,
    start: &'a T::State,
}

impl<T: TaskView> Heuristic<T::Subgoal, u32> for Backward<'_, T> {
    fn estimate(&mut self, subgoal: &T::Subgoal) -> Estimate<u32> {
        let (task, start) = (self.table.task, self.start);
        self.table
            .largest(|each| task.unmet_subgoal(start, subgoal, each))
    }

    fn is_admissible(&self) -> bool {
        true
    }

    fn is_consistent(&self) -> bool {
        true
    }
}

impl HeuristicFactory for Cheapest {
    fn forward<'a, T: TaskView>(
        &self,
        task: &'a T,
        _start: &'a T::State,
        goal: &'a T::Goal,
    ) -> Option<BoxedHeuristic<'a, T::State>> {
        Some(Box::new(Forward {
            table: CheapestAchiever::new(task),
            goal,
        }))
    }

    fn regression<'a, T: TaskView>(
        &self,
        task: &'a T,
        start: &'a T::State,
        _goal: &'a T::Goal,
    ) -> Option<BoxedHeuristic<'a, T::Subgoal>> {
        Some(Box::new(Backward {
            table: CheapestAchiever::new(task),
            start,
        }))
    }
}

fn main() -> ExitCode {
    let cheapest = NamedHeuristic::builder(
        "cheapest",
        "the largest cheapest achiever over the failed goal conditions",
    )
    .consistent()
    .generic(Cheapest)
    .build();
    let mut args: Vec<OsString> = std::env::args_os().collect();
    if args.len() == 1 {
        let suite = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../suites/custom-heuristic.toml"
        );
        // Cargo's target directory, where the user put it.
        let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
            || std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../target")),
            std::path::PathBuf::from,
        );
        args.extend(["bench", suite, "--out"].map(OsString::from));
        args.push(target.join("custom-heuristic").into_os_string());
        args.extend(
            [
                "--overwrite",
                "--compare",
                "fwd-astar-hmax",
                "fwd-astar-cheapest",
                "--compare",
                "reg-astar-hmax",
                "reg-astar-cheapest",
            ]
            .map(OsString::from),
        );
    }
    Lab::new().heuristic(cheapest).run(args)
}
