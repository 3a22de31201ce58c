//! searchlab's PDDL front end, usable without the planner: a reader for
//! STRIPS with `:typing`, `:negative-preconditions`, `:equality`,
//! `:action-costs`, ADL, `:derived-predicates` and linear numeric fluents
//! (PDDL 2.1, as in the IPC 2023 numeric tracks); grounding by relaxed
//! reachability; `h^2` mutexes; packing of mutually exclusive facts into
//! fields; plans in the IPC format. Fast Downward keeps its translator
//! apart from its search in the same way; the `planners` crate searches
//! on what this crate produces (`planners::pddl`).
//!
//! - [`parse_domain`], [`parse_problem`] (the reader, on the syntax model
//!   of [`Domain`] and [`Problem`]): files to a domain and a problem, with errors that give the file, line and
//!   column; anything outside the subset (object fluents, durative
//!   actions, constraints, preferences) is refused, naming it. Tokens
//!   split as in Fast Downward's translator: `(p?x)` is `p` and `?x`; `-`
//!   is a name character, so `?x-t` is one variable, but no name starts
//!   with it, so `?x -t` is `?x - t`.
//! - [`ground`]: a [`GroundTask`] of facts and operators (and axioms, and
//!   linear numeric conditions and effects: [`GroundTask::numeric`]),
//!   within [`GroundingLimits`].
//! - [`Axioms`]: derived predicates, stratified and evaluated on a state.
//! - [`h2_mutexes`]: pairs of facts no reachable state holds.
//! - [`Packing`]: groups of pairwise mutex facts as binary fields
//!   (finite-domain, SAS+-like states).
//! - [`IpcPlan`]: writing and reading IPC plans; [`replay`] checks one on
//!   a ground task, numeric fluents included.
//! - [`input`]: reading files with a size cap (64 MiB), for every loader.
//!
//! ```
//! use searchlab_pddl::{ground, h2_mutexes, parse_domain, parse_problem, GroundingLimits};
//!
//! let domain = parse_domain("domain.pddl", "(define (domain d) (:requirements :strips :typing)
//!   (:types place)
//!   (:predicates (at ?x - place) (road ?x ?y - place))
//!   (:action go :parameters (?x ?y - place) :precondition (and (at ?x) (road ?x ?y))
//!     :effect (and (at ?y) (not (at ?x)))))").unwrap();
//! let problem = parse_problem(&domain, "problem.pddl", "(define (problem p) (:domain d)
//!   (:objects a b c z - place)
//!   (:init (at a) (road a b) (road b c) (road z a)) (:goal (at c)))").unwrap();
//! let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
//! // `road` is static and `(at z)` unreachable: three facts, two operators.
//! assert_eq!(task.facts, ["(at a)", "(at b)", "(at c)"]);
//! let names: Vec<&str> = task.operators.iter().map(|o| o.name.as_str()).collect();
//! assert_eq!(names, ["go a b", "go b c"]);
//! // The robot is in one place at a time.
//! assert_eq!(h2_mutexes(&task).pairs(), 3);
//! ```
//!
#![doc = include_str!("language.md")]

mod adl;
mod axioms;
mod error;
mod ground;
pub mod input;
mod ipc;
mod limits;
mod mutex;
mod numeric;
mod numeric_reader;
mod packing;
mod reader;
mod reading;
mod replay;
mod schema_reader;
mod sexp;
mod syntax;

pub use axioms::{bits_of, negated_derived, Axioms};
pub use error::{Location, PddlError};
pub use ground::{
    ground, GroundEffect, GroundOperator, GroundTask, GroundingStats, GOAL_ACTION, GOAL_REACHED,
};
pub use ipc::{decimal_cost, IpcPlan, PlanStep};
pub use limits::{GroundingExceeded, GroundingLimits};
pub use mutex::{h2_mutexes, h2_mutexes_until, Mutexes};
pub use numeric::{
    Comparison, LinearCondition, LinearExpr, NumericEffect, NumericFluents, OperatorNumeric,
};
pub use packing::Packing;
pub use reader::{parse_domain, parse_problem};
pub use replay::{replay, PlanCost};
pub use syntax::{Domain, Problem, MAX_ACTION_COST};
