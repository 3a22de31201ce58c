//! searchlab's planners: one planning API over atomic and factored GOAP
//! domains.
//!
//! - [`PlanningDomain`]: what a planner needs from a state representation;
//!   implemented for [`state_atomic::ActionSet`] and [`state_factored::Domain`].
//! - [`Planner`] with a [`PlannerConfig`]: direction (forward, regression, or
//!   a parallel portfolio of both), algorithm, heuristic (built-in by name or
//!   your own), limits. It returns a [`PlanReport`]: the [`PlanOutcome`] and
//!   the statistics of each search.
//! - [`validate`] replays any plan forward.
//! - [`Planner::plan_traced`] returns a [`PlanTrace`] with the plan: the
//!   search's nodes by name, as text or Graphviz DOT.
//! - [`input`] reads files with a size cap (64 MiB), for every loader.
//! - [`kept_threads`]: threads kept for the process, for work that must
//!   start beside the caller at once (the portfolio's second direction).
//! - [`crew`]: threads that spin between rounds of work, for simulations
//!   that plan their agents in shards every step.
//! - [`agent`]: the GOAP agent runtime (goals with fixed priorities or
//!   priorities that follow the world, repeating or one-shot; executors,
//!   sensors, replan policies, planning sliced across ticks while the
//!   current action runs on).
//! - `bevy` (feature `bevy`, on `bevy_ecs` and `bevy_app` 0.17): agents as
//!   components, ticked by a plugin's system within a planning budget per
//!   frame shared by all of them; `cargo run --release -p planners
//!   --features bevy --example bevy_agents` runs 1,000 of them headless.
//!
//! The `bevy` module is documented only where the feature is on: build
//! these docs with `cargo doc -p planners --features bevy --open`. On
//! docs.rs (which builds with the features in `Cargo.toml`'s
//! `[package.metadata.docs.rs]`, and `--cfg docsrs`) the module is marked
//! as needing the feature; to see that mark locally, build with nightly:
//! `RUSTDOCFLAGS="--cfg docsrs" cargo +nightly doc -p planners --features bevy`.
//!
//! ```
//! use planners::{heuristics::heuristic, Direction, Planner, PlannerConfig};
//! use state_factored::{Action, Domain, Predicate, Schema};
//!
//! let mut schema = Schema::new();
//! schema.int("gold").unwrap();
//! let mut domain = Domain::new(schema);
//! domain.add_action(Action::builder("mine").cost(3).increase("gold", 25)).unwrap();
//! let goal = domain.goal([Predicate::ge("gold", 60)]).unwrap();
//! let start = domain.schema().default_state();
//!
//! let planner = Planner::new(PlannerConfig {
//!     direction: Direction::Portfolio,
//!     heuristic: heuristic("numeric").unwrap(),
//!     ..PlannerConfig::default()
//! });
//! let report = planner.plan(&domain, &start, &goal).unwrap();
//! assert_eq!(report.plan().unwrap().cost, 9);
//! assert!(report.forward.is_some() && report.regression.is_some());
//! ```

#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod agent;
mod atomic;
#[cfg(feature = "bevy")]
#[cfg_attr(docsrs, doc(cfg(feature = "bevy")))]
pub mod bevy;
mod bidirectional;
mod config;
mod error;
mod factored;
pub mod heuristics;
mod inline_portfolio;
mod outcome;
pub mod pddl;
mod plan_buffer;
mod planner;
mod planning_domain;
pub mod problem;
mod runtime;
mod sliced;
mod trace;

/// Reading input files with a size cap, for every loader (from
/// [`searchlab_pddl::input`]).
pub use searchlab_pddl::input;

pub use config::{Direction, PlannerConfig};
pub use error::PlanError;
pub use outcome::{Plan, PlanImprovement, PlanOutcome, PlanReport};
pub use plan_buffer::PlanBuffer;
pub use planner::Planner;
pub use planning_domain::{
    validate, BoxedFrontToFront, BoxedHeuristic, PlanningDomain, QuickSearch,
};
pub use runtime::{cpu, crew, kept_threads};
pub use sliced::{Budget, PlanJob};
pub use trace::PlanTrace;
