//! searchlab's PDDL front end, usable without the planner: a reader for
//! STRIPS with `:typing`, `:negative-preconditions`, `:equality`,
//! `:action-costs`, ADL and `:derived-predicates`; grounding by relaxed
//! reachability; `h^2` mutexes; packing of mutually exclusive facts into
//! fields; plans in the IPC format. Fast Downward keeps its translator
//! apart from its search in the same way; the `planners` crate searches
//! on what this crate produces (`planners::pddl`).
//!
//! - [`parse_domain`], [`parse_problem`] (the reader, on the syntax model
//!   of [`Domain`] and [`Problem`]): files to a domain and a problem, with errors that give the file, line and
//!   column; anything outside the subset (numeric fluents other than
//!   action costs, durative actions, constraints, preferences) is refused,
//!   naming it. Tokens split as in Fast Downward's translator: `(p?x)` is
//!   `p` and `?x`; `-` is a name character, so `?x-t` is one variable and
//!   a typed list needs `?x - t`.
//! - [`ground`]: a [`GroundTask`] of facts and operators (and axioms),
//!   within [`GroundingLimits`].
//! - [`Axioms`]: derived predicates, stratified and evaluated on a state.
//! - [`h2_mutexes`]: pairs of facts no reachable state holds.
//! - [`Packing`]: groups of pairwise mutex facts as binary fields
//!   (finite-domain, SAS+-like states).
//! - [`IpcPlan`]: writing and reading IPC plans.
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
//! # ADL
//!
//! The requirements `:adl`, `:disjunctive-preconditions`,
//! `:existential-preconditions`, `:universal-preconditions`,
//! `:quantified-preconditions` and `:conditional-effects` are read:
//! preconditions and goals with `and`, `or`, `imply`, `not` over any
//! formula, `exists`, `forall` and `=`; effects with `forall` and `when`,
//! nested; `:constants` of the domain beside the problem's objects (a
//! constant declared again as an object of the same type is accepted, as
//! Fast Downward does); `either` types. ADL is compiled to the same
//! [`GroundTask`] STRIPS has, at grounding, so both directions, mutexes and
//! every heuristic run on it unchanged:
//!
//! - Quantifiers expand over the objects of their types; static atoms,
//!   atoms relaxed reachability never reaches, and `=` fold into constants
//!   as soon as they appear, so a `forall` over a static condition costs
//!   nothing. Reachability itself matches each conditional effect as a
//!   rule of its own (its condition's atoms beside the action's), so it
//!   finds the facts such effects add.
//! - A precondition goes to disjunctive normal form; each disjunct is a
//!   ground operator of its own, as in Fast Downward's translator. A goal
//!   with more than one disjunct gets one [`GOAL_ACTION`] per disjunct (cost
//!   0) making [`GOAL_REACHED`] true; plans leave it out.
//! - Conditional effects are compiled away exactly. First they are
//!   simplified against the operator's precondition: a condition it implies
//!   makes the effect unconditional, one it contradicts drops it; `when p:
//!   (not p)` is an unconditional `(not p)`, `when (not p): p` an
//!   unconditional `p` (unless something else deletes `p`); effects that
//!   change nothing go, effects with the same condition merge. What remains
//!   splits: each variant chooses, per effect, that it fires (its condition
//!   joins the precondition) or not (`not l1`, or `l1 and not l2`, ...:
//!   mutually exclusive), so exactly one variant applies in any state, with
//!   PDDL's semantics (effects read the state before the action; delete,
//!   then add). Variants share the operator's name; the planner's task (`planners::pddl::Task`) marks the
//!   second and later ones in its action set, writes plans with the plain
//!   name and, reading one, picks the variant that applies.
//! - The blowup is bounded: every variant and every product of a normal
//!   form is a step of [`GroundingLimits::max_steps`], and the variants
//!   held count toward [`GroundingLimits::max_memory_bytes`], so a split too
//!   large ends with [`GroundingExceeded`], never a hang. `k` effects with
//!   `n` open literals each in their conditions make up to `(n + 1)^k`
//!   variants per disjunct.
//!
//! # Derived predicates
//!
//! `(:derived (p ?x ...) body)` is read as a schema whose precondition is
//! the body (any ADL formula) and whose one add effect is the head;
//! grounding treats it as an action (reachability, relevance, normal
//! forms) and returns it in [`GroundTask::axioms`], apart from the
//! operators. An action that changes a derived predicate, or an `:init`
//! that states one, is refused. As in Fast Downward, derived facts are
//! false unless an axiom derives them from the other facts, and
//! [`Axioms`] recomputes them after every step: the strata are the
//! strongly connected components of the ground dependency graph, each
//! evaluated to a fixed point in turn, and a fact that depends on its own
//! negation is refused ([`PddlError::NotStratifiable`]).
//!
//! Searching on such a task (forward only: regression refuses it) is
//! the planner's side, in `planners::pddl`.
//!
//! # Action costs
//!
//! As in Fast Downward's translator: with `(:metric minimize
//! (total-cost))` in the problem, a ground operator costs what its
//! `(increase (total-cost) amount)` adds, where the amount is a number or a
//! static function such as `(road-length ?x ?y)` whose values the
//! problem's `:init` gives (`(= (road-length a b) 7)`); an action without
//! an `increase` costs 0. An operator whose function has no value for its
//! arguments does not exist (the translator drops it too, silently).
//! Costs are integers from 0 to [`MAX_ACTION_COST`]; anything else is a
//! located error. Without the metric every action costs 1, whatever its
//! effects say. The search minimises the real costs, as Fast Downward's
//! default `cost_type=normal` does (not `one` or `plusone`), and zero-cost
//! actions are allowed. Plans end with `; cost = N (general cost)` on a
//! task with action costs, `; cost = N (unit cost)` otherwise.
//!

mod adl;
mod axioms;
mod error;
mod ground;
pub mod input;
mod ipc;
mod limits;
mod mutex;
mod packing;
mod reader;
mod reading;
mod schema_reader;
mod sexp;
mod syntax;

pub use axioms::{bits_of, negated_derived, Axioms};
pub use error::{Location, PddlError};
pub use ground::{ground, GroundOperator, GroundTask, GroundingStats, GOAL_ACTION, GOAL_REACHED};
pub use ipc::{IpcPlan, PlanStep};
pub use limits::{GroundingExceeded, GroundingLimits};
pub use mutex::{h2_mutexes, h2_mutexes_until, Mutexes};
pub use packing::Packing;
pub use reader::{parse_domain, parse_problem};
pub use syntax::{Domain, Problem, MAX_ACTION_COST};
