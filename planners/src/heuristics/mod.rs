//! Heuristics by name: one [`Registry`] lists every heuristic a planner,
//! the command line and a suite know, built-in or the user's, with its
//! aliases, description, properties and factories.
//!
//! A heuristic is made per search by a factory. Write one against
//! [`TaskView`] ([`HeuristicFactory`]) and it runs on every representation:
//! atomic domains of every width, grounded PDDL tasks, factored domains. Or
//! write one for a single representation ([`AtomicFactory`] for atomic
//! tasks of every width, [`FactoredFactory`]); it is skipped elsewhere.
//! A factory whose heuristic can own what it reads (its tables, a copy of
//! the goal) says so with `forward_owned` and `regression_owned`: a sliced
//! [`PlanJob`](crate::PlanJob) then makes it once and keeps it from slice
//! to slice, where it makes a borrowing heuristic anew each slice.
//!
//! `mismatch-admissible`, `hmax`, `hadd`, `ff`, `lmcut` and `ipdb` tabulate action
//! costs before search ([`HeuristicInfo::fixed_costs`]), so they refuse an
//! atomic task where an action's cost depends on the state
//! ([`ActionBuilder::cost_fn`](state_atomic::ActionBuilder::cost_fn)),
//! naming the action; `blind` (which then counts 0), `mismatch` and
//! `lmcount` read no costs and plan on it.
//!
//! The built-in heuristics:
//!
#![doc = include_str!("heuristics.md")]
//!
//! ```
//! use planners::heuristics::{heuristic, Registry};
//! use planners::{Direction, Planner, PlannerConfig};
//!
//! let mut actions = state_atomic::ActionSet::<u64>::new();
//! actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
//! let start = actions.state(["has_food"]).unwrap();
//! let goal = actions.partial([("fed", true)]).unwrap();
//! let config = PlannerConfig { heuristic: heuristic("hmax").unwrap(), ..PlannerConfig::default() };
//! assert_eq!(Planner::new(config).plan(&actions, &start, &goal).unwrap().plan().unwrap().cost, 5);
//! assert!(Registry::builtin().markdown_table().contains("`hmax`"));
//! ```

pub(crate) mod builtin;
mod factory;
mod named;
pub(crate) mod quick;
mod view;

pub use factory::{AtomicFactory, FactoredFactory, HeuristicFactory};
pub use named::{heuristic, Directions, HeuristicBuilder, HeuristicInfo, NamedHeuristic, Registry};
pub use view::{ActionView, Representation, TaskView};
