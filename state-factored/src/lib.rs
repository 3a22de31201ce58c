//! searchlab's factored GOAP states: typed variables, predicate goals, and
//! forward and regression search spaces for the search-core engine.
//!
//! - A [`Schema`] declares variables: bool, int (`i64`), float (finite `f64`)
//!   and string (interned to a [`Symbol`]). A [`State`] is one 8-byte slot
//!   per variable, so hashing and comparing are cheap.
//! - [`Predicate`]s compare a variable with constants, or linear
//!   expressions ([`Expr`]) of several variables, or are named closures; a
//!   [`Goal`] is a conjunction of them. [`Effect`]s set, increase,
//!   decrease (by a constant or a linear expression), toggle, or run a named
//!   closure. An [`Action`] has
//!   preconditions, effects (applied in order) and a cost. Names and types
//!   are checked when a [`Domain`] adds an action or builds a goal, and
//!   errors ([`FactoredError`]) name the variable and the action or goal.
//! - [`ForwardSpace`] searches complete states; [`RegressionSpace`] searches
//!   [`Subgoal`]s (per-variable interval and set constraints, and linear
//!   constraints over several ints) back from the goal, through numeric
//!   effects too. Both run with every search-core
//!   algorithm. Forward search reads each action compiled to slot checks
//!   and slot writes (interpreted only where a test or effect reads
//!   several variables or runs a closure); [`FixedForward`] searches
//!   [`FixedState`]s, plain `Copy` arrays of at most `W` words, for the
//!   small domains of game agents (the planner's tiny path takes it for
//!   blind A* on domains of at most 8 variables).
//! - Heuristics: [`GoalCount`] (the classic GOAP count),
//!   [`NumericDistance`] (admissible and informative forms) and
//!   [`NumericHmax`] (admissible, through the preconditions behind each
//!   goal), for both directions; any closure works as well.
//!
//! Costs are [`Cost`] (`u32`): an action's cost is a `u32`, and the engine
//! reports a path whose cost overflows as an error.
//!
//! # Linear numeric conditions and effects
//!
//! [`Predicate::linear`] compares two linear [`Expr`]essions
//! (`gold + 2 * wood >= 10`); [`Effect::assign`], [`Effect::increase_by`] and
//! [`Effect::decrease_by`] set, raise or lower a number by one (`x := y - 2`,
//! `x += y`), the expression read in the state the action starts from. The
//! arithmetic:
//!
//! - **Exact** when every variable of the expression is an int and every
//!   number an integer: the value is computed in `i128` (each term `a_i *
//!   x_i` of two `i64`s is exact there), checked. A sum that overflows makes
//!   the condition false; an int variable that would receive a value outside
//!   `i64` makes the action inapplicable. Never a panic, never a wrap.
//! - **`f64`** otherwise (a float variable or a non-integer number
//!   anywhere in it). With `d` the difference of the two sides and `s` the
//!   largest of 1 and the magnitudes of the terms `a_i * x_i` and of the
//!   constant, `==` holds when `|d| <= 1e-9 * s`, `!=` when it does not, `<=`
//!   when `d <= 1e-9 * s`, `<` when `d < -1e-9 * s` (and `>=`, `>` likewise),
//!   so `x + y == 0.3` holds after adding `0.1` and `0.2`. An int variable
//!   given an `f64` result takes the nearest integer when the result is
//!   within that tolerance of it; otherwise the action is inapplicable, as it
//!   is when a float would stop being finite (PDDL: an undefined value makes
//!   the action inapplicable).
//! - A linear condition on one variable with coefficient 1 (for ints, any
//!   integer coefficient) is compiled to the same per-variable interval as
//!   [`Predicate::compare`], so it costs nothing extra; the tolerance above
//!   is then built into the interval's ends. Comparisons written with
//!   [`Predicate::compare`] and friends stay exact as before.
//!
//! Regression carries the exact ones: subgoals hold per-variable
//! constraints and [`LinearConstraint`]s, and an `f64` condition or effect
//! is refused by name when the regression space is built
//! ([`RegressionSpace::new`]). The heuristics relax linear conditions away
//! (a relaxation keeps them admissible) and treat an expression effect as
//! one that can set its variable to any value.
//!
//! ```
//! use state_factored::prelude::*;
//!
//! let mut schema = Schema::new();
//! schema.float("x").unwrap();
//! schema.float("y").unwrap();
//! let mut domain = Domain::new(schema);
//! let add = domain
//!     .add_action(Action::builder("add").increase("x", 0.1).increase("y", 0.2))
//!     .unwrap();
//! let goal = domain
//!     .goal([Predicate::linear(Expr::var("x") + Expr::var("y"), Op::Eq, 0.3)])
//!     .unwrap();
//! let start = domain.schema().default_state();
//! assert_eq!(domain.validate(&start, &goal, &[add]), Ok(1));
//! ```
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
mod compiled;
mod constraint;
mod counting;
mod domain;
mod dominance;
mod effect;
mod error;
mod fixed;
mod forward;
mod heuristic;
mod hmax;
mod linear;
mod linear_constraint;
mod predicate;
pub mod problems;
mod regression;
mod relaxed;
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
pub use fixed::{FixedForward, FixedState};
pub use forward::ForwardSpace;
pub use heuristic::{Combine, GoalCount, NumericDistance};
pub use hmax::NumericHmax;
pub use linear::Expr;
pub use linear_constraint::LinearConstraint;
pub use predicate::{Op, Predicate, PredicateFn};
pub use regression::{RegressionSpace, Subgoal};
pub use relaxed::{NumericRelaxedPlan, NumericRmax};
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
        Action, ActionId, BoolVar, Cost, Domain, Effect, Expr, FactoredError, FloatVar,
        ForwardSpace, Goal, GoalCount, IntVar, LinearConstraint, NumericDistance, NumericHmax, Op,
        OperatorCounting, Predicate, RegressionSpace, Schema, State, StrVar, Subgoal, Value, Var,
        VarType,
    };
}

/// The README's example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctest;
