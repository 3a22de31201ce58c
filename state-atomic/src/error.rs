//! The crate's one error type.

/// What can go wrong when building or checking an atomic GOAP problem.
///
/// "No plan exists" is not an error: the search reports it as
/// [`Outcome::Exhausted`](search_core::Outcome).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AtomicError {
    /// The state type has no room for another atom.
    #[error("atom `{name}` does not fit: this state type holds at most {capacity} atoms")]
    TooManyAtoms {
        /// The atom that did not fit.
        name: String,
        /// How many atoms the state type holds.
        capacity: usize,
    },
    /// A name that the registry does not know.
    #[error("unknown atom `{name}`")]
    UnknownAtom {
        /// The name looked up.
        name: String,
    },
    /// An atom declared twice.
    #[error("atom `{name}` is already declared")]
    DuplicateAtom {
        /// The atom's name.
        name: String,
    },
    /// An action declared twice.
    #[error("action `{name}` is already declared")]
    DuplicateAction {
        /// The action's name.
        name: String,
    },
    /// An action that asks for both values of one atom.
    #[error("action `{action}` gives atom `{atom}` both values in its {part}")]
    Contradiction {
        /// The action's name.
        action: String,
        /// The atom's name.
        atom: String,
        /// `preconditions` or `effects`.
        part: &'static str,
    },
    /// A plan step whose preconditions do not hold when it is replayed.
    #[error("action `{action}` (step {step}) is not applicable: atom `{atom}` is wrong")]
    NotApplicable {
        /// The action's name.
        action: String,
        /// The step, counted from 0.
        step: usize,
        /// The first precondition atom that does not hold.
        atom: String,
    },
    /// A replayed plan that ends short of the goal.
    #[error("the plan ends in a state where goal atom `{atom}` is wrong")]
    GoalNotReached {
        /// The first goal atom that does not hold.
        atom: String,
    },
    /// An action whose cost depends on the state
    /// ([`ActionBuilder::cost_fn`](crate::ActionBuilder::cost_fn)), where
    /// costs must be known without a state: regression, which does not know
    /// the state an action is applied in, or a heuristic that tabulates
    /// costs before search.
    #[error("{needed_by} needs fixed action costs, but the cost of action `{action}` depends on the state: plan forward, with a heuristic that reads no action costs")]
    StateDependentCost {
        /// The first action with a cost function.
        action: String,
        /// What refused it: "regression", "heuristic `hmax`".
        needed_by: String,
    },
    /// A direction or heuristic that needs every effect of an action to be
    /// unconditional met an action with conditional effects.
    #[error("{needed_by} does not handle conditional effects, but action `{action}` has them: plan forward, with `h_max`, `h_add`, `h_FF`, the landmark count or a heuristic that reads no actions")]
    ConditionalEffects {
        /// The first action with conditional effects.
        action: String,
        /// What refused it: "regression", "heuristic `lmcut`".
        needed_by: String,
    },
    /// An action index that is not in the action set.
    #[error("no action with index {index} in this action set")]
    UnknownAction {
        /// The index.
        index: usize,
    },
    /// An atom declared in two mutex groups
    /// ([`ActionSet::set_mutex_groups`](crate::ActionSet::set_mutex_groups)).
    #[error(
        "atom `{atom}` is in two mutex groups: a group is one variable, and an atom belongs to one"
    )]
    AtomInTwoGroups {
        /// The atom's name.
        atom: String,
    },
}
