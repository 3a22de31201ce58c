//! The crate's one error type.

use crate::VarType;

/// Everything that can be wrong with a schema, an action, a goal, a state or
/// a plan. "No plan exists" is a search outcome, not an error.
///
/// Each variant names what a user needs to fix the input: the variable, and
/// where it was used (`context` reads like "action `buy_weapon`", "goal" or
/// "state").
///
/// ```
/// use state_factored::{Action, Domain, FactoredError, Schema};
///
/// let mut schema = Schema::new();
/// schema.int("gold").unwrap();
/// let mut domain = Domain::new(schema);
/// let error = domain
///     .add_action(Action::builder("buy").set("gld", 3))
///     .unwrap_err();
/// assert!(matches!(error, FactoredError::UnknownVariable { .. }));
/// assert_eq!(error.to_string(), "unknown variable `gld` in action `buy`");
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum FactoredError {
    /// Two variables of a schema share a name.
    #[error("variable `{name}` is declared twice")]
    DuplicateVariable {
        /// The repeated name.
        name: String,
    },
    /// Two actions of a domain share a name.
    #[error("action `{name}` is declared twice")]
    DuplicateAction {
        /// The repeated name.
        name: String,
    },
    /// A name that the schema does not declare.
    #[error("unknown variable `{name}` in {context}")]
    UnknownVariable {
        /// The name used.
        name: String,
        /// Where it was used.
        context: String,
    },
    /// A typed handle asked for a variable of another type.
    #[error("variable `{name}` is {is}, not {asked}")]
    WrongVarType {
        /// The variable.
        name: String,
        /// Its type.
        is: VarType,
        /// The type asked for.
        asked: VarType,
    },
    /// A value of the wrong type for a variable.
    #[error("variable `{variable}` is {expected} but {context} gives it a {found} value")]
    TypeMismatch {
        /// The variable.
        variable: String,
        /// The variable's type.
        expected: VarType,
        /// The type of the value given.
        found: VarType,
        /// Where.
        context: String,
    },
    /// An operation the variable's type does not support (`<` on a string,
    /// `toggle` on an int, a tolerance on an int ...).
    #[error("`{operation}` does not apply to {ty} variable `{variable}` in {context}")]
    UnsupportedOperation {
        /// The variable.
        variable: String,
        /// Its type.
        ty: VarType,
        /// The operation, as written (`<`, `increase`, `toggle`, `tolerance` ...).
        operation: &'static str,
        /// Where.
        context: String,
    },
    /// A float that is NaN or infinite (or a negative tolerance).
    #[error("variable `{variable}` in {context} gets {value}: floats must be finite")]
    NonFinite {
        /// The variable.
        variable: String,
        /// The value given.
        value: f64,
        /// Where.
        context: String,
    },
    /// A domain that regression cannot search: custom predicates, custom
    /// effects or state-dependent costs, each named.
    /// The message names the first five; `items` holds them all.
    #[error("regression cannot use {}", first_of(.items))]
    NotRegressable {
        /// What is in the way, e.g. "custom effect `teleport` of action `warp`".
        items: Vec<String>,
    },
    /// An action identifier that the domain does not have.
    #[error("no action with index {index}")]
    UnknownAction {
        /// The index.
        index: usize,
    },
    /// A plan step whose action cannot be applied.
    #[error("plan step {step} (`{action}`) is not applicable")]
    NotApplicable {
        /// The step, from 0.
        step: usize,
        /// The action's name.
        action: String,
    },
    /// A plan that ends in a state that does not satisfy the goal.
    #[error("the plan ends in a state that does not satisfy the goal")]
    GoalNotReached,
}

/// The first five of `items` joined, then how many more there are: a
/// grounded task can have thousands.
fn first_of(items: &[String]) -> String {
    const SHOWN: usize = 5;
    let text = items[..items.len().min(SHOWN)].join(", ");
    match items.len().checked_sub(SHOWN) {
        Some(more) if more > 0 => format!("{text} and {more} more"),
        _ => text,
    }
}
