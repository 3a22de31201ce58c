//! searchlab's factored GOAP states: typed variables, predicate goals, and
//! forward and regression search spaces for the search-core engine.
//!
//! - A [`Schema`] declares variables: bool, int (`i64`), float (finite `f64`)
//!   and string (interned to a [`Symbol`]). A [`State`] is one 8-byte slot
//!   per variable, so hashing and comparing are cheap.
//! - [`Predicate`]s compare a variable with constants (or are named
//!   closures); a [`Goal`] is a conjunction of them. [`Effect`]s set,
//!   increase, decrease, toggle, or run a named closure. An [`Action`] has
//!   preconditions, effects (applied in order) and a cost. Names and types
//!   are checked when a [`Domain`] adds an action or builds a goal, and
//!   errors ([`FactoredError`]) name the variable and the action or goal.
//! - [`ForwardSpace`] searches complete states; [`RegressionSpace`] searches
//!   [`Subgoal`]s (per-variable interval and set constraints) back from the
//!   goal, through numeric effects too. Both run with every search-core
//!   algorithm.
//! - Heuristics: [`GoalCount`] (the classic GOAP count),
//!   [`NumericDistance`] (admissible and informative forms) and
//!   [`NumericHmax`] (admissible, through the preconditions behind each
//!   goal), for both directions; any closure works as well.
//!
//! Costs are [`Cost`] (`u32`): an action's cost is a `u32`, and the engine
//! reports a path whose cost overflows as an error.
//!
//! ```
//! use search_core::{astar, dijkstra};
//! use state_factored::prelude::*;
//!
//! let mut schema = Schema::new();
//! schema.int("gold").unwrap();
//! schema.bool("has_axe").unwrap();
//! let mut domain = Domain::new(schema);
//! domain.add_action(Action::builder("work").cost(2).increase("gold", 10)).unwrap();
//! domain
//!     .add_action(
//!         Action::builder("buy_axe")
//!             .pre(Predicate::ge("gold", 30))
//!             .decrease("gold", 30)
//!             .set("has_axe", true),
//!     )
//!     .unwrap();
//! let goal = domain.goal([Predicate::eq("has_axe", true)]).unwrap();
//! let start = domain.schema().state().set("gold", 5).build().unwrap();
//!
//! let forward = domain.forward(&goal);
//! let h = NumericDistance::admissible(&domain, &start, &goal);
//! let plan = astar(&forward, start.clone(), h).unwrap().outcome.into_solution().unwrap();
//! assert_eq!(plan.cost, 7);
//!
//! let regression = domain.regression(&start, &goal).unwrap();
//! let result = dijkstra(&regression, regression.start_node()).unwrap();
//! let solution = result.outcome.solution().unwrap();
//! let steps = regression.plan(solution);
//! assert_eq!(domain.names(&steps), ["work", "work", "work", "buy_axe"]);
//! assert_eq!(domain.validate(&start, &goal, &steps), Ok(7));
//! ```

mod action;
mod constraint;
mod counting;
mod domain;
mod dominance;
mod effect;
mod error;
mod forward;
mod heuristic;
mod hmax;
mod predicate;
pub mod problems;
mod regression;
mod schema;
mod simplex;
mod state;
mod value;

pub use action::{Action, ActionBuilder, ActionId, CostFn};
pub use constraint::{Constraint, Intervals, StrSet};
pub use counting::OperatorCounting;
pub use domain::{Domain, Goal};
pub use dominance::ResourceDominance;
pub use effect::{Effect, EffectFn};
pub use error::FactoredError;
pub use forward::ForwardSpace;
pub use heuristic::{Combine, GoalCount, NumericDistance};
pub use hmax::NumericHmax;
pub use predicate::{Op, Predicate, PredicateFn};
pub use regression::{RegressionSpace, Subgoal};
pub use schema::{BoolVar, FloatVar, IntVar, Schema, StateBuilder, StrVar, Symbol, Var};
pub use state::State;
pub use value::{Value, VarType};

/// The cost type of both search spaces: action costs and plan costs.
pub type Cost = u32;

/// The names most programs need. It can be glob-imported next to
/// search-core's prelude: [`Cost`] is then this crate's type (`u32`), since
/// search-core keeps its `Cost` trait out of its prelude.
///
/// ```
/// use search_core::prelude::*;
/// use state_factored::prelude::*;
///
/// let c: Cost = 3;
/// assert_eq!(c + 1, 4_u32);
/// ```
pub mod prelude {
    pub use crate::{
        Action, ActionId, BoolVar, Cost, Domain, Effect, FactoredError, FloatVar, ForwardSpace,
        Goal, GoalCount, IntVar, NumericDistance, NumericHmax, Op, OperatorCounting, Predicate,
        RegressionSpace, Schema, State, StrVar, Subgoal, Value, Var, VarType,
    };
}

/// The README's example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctest;
