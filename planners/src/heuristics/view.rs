//! What a heuristic may read of a task, whatever its representation.

use std::fmt;

use crate::PlanError;

/// A family of state representations. Atomic covers every width (`u64`,
/// [`Wide<N>`](state_atomic::Wide), [`SparseBits`](state_atomic::SparseBits))
/// and grounded PDDL tasks, which are atomic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Representation {
    /// Bitset states ([`state_atomic`]).
    Atomic,
    /// Typed-value states ([`state_factored`]).
    Factored,
}

impl Representation {
    /// Both representations.
    pub const ALL: [Representation; 2] = [Representation::Atomic, Representation::Factored];
}

impl fmt::Display for Representation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Representation::Atomic => "atomic",
            Representation::Factored => "factored",
        })
    }
}

/// An action as a heuristic sees it at setup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionView<Id> {
    /// The action.
    pub id: Id,
    /// Its cost (for a state-dependent cost, a lower bound of it: 0 for an
    /// atomic action with a cost function).
    pub cost: u32,
    /// The variables its effects may change; `None` when it may change any
    /// (a custom effect).
    pub changes: Option<Vec<usize>>,
}

/// A task as any heuristic may read it, whatever the representation: a set
/// of variables (atoms, or typed variables), actions with costs that change
/// some of them, and goals and subgoals as conjunctions of conditions that
/// a state meets or not.
///
/// A heuristic written against this trait (a
/// [`HeuristicFactory`](crate::heuristics::HeuristicFactory)) runs on every
/// representation: atomic domains of every width, grounded PDDL tasks and
/// factored domains. A condition is named by its variable (`Some(index)`),
/// or `None` for one on no single variable (a factored custom predicate).
///
/// ```
/// use planners::heuristics::TaskView;
/// use state_atomic::ActionSet;
///
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// let start = actions.state(["has_groceries"]).unwrap();
/// let goal = actions.partial([("has_food", true)]).unwrap();
/// let mut unmet = Vec::new();
/// actions.unmet_goal(&goal, &start, |c| unmet.push(c));
/// assert_eq!(unmet, [Some(1)]);
/// assert_eq!(actions.action_views()[0].changes, Some(vec![1]));
/// ```
pub trait TaskView: Sync + 'static {
    /// A complete state.
    type State: Sync;
    /// A goal.
    type Goal: Sync;
    /// A regression node.
    type Subgoal;
    /// An action's id.
    type ActionId: Copy;

    /// The representation.
    const REPRESENTATION: Representation;

    /// How many variables there are.
    fn variables(&self) -> usize;

    /// Every action, for tables built at setup.
    fn action_views(&self) -> Vec<ActionView<Self::ActionId>>;

    /// Calls `each` with every condition of `goal` that `state` fails.
    fn unmet_goal(&self, goal: &Self::Goal, state: &Self::State, each: impl FnMut(Option<usize>));

    /// Calls `each` with every condition of `subgoal` that `start` fails
    /// (regression estimates the cost from the start to a subgoal).
    fn unmet_subgoal(
        &self,
        start: &Self::State,
        subgoal: &Self::Subgoal,
        each: impl FnMut(Option<usize>),
    );

    /// Whether `state` meets every condition of `goal`. The default asks
    /// [`unmet_goal`](Self::unmet_goal); representations override it with
    /// their own test, which stops at the first failed condition.
    fn meets_goal(&self, goal: &Self::Goal, state: &Self::State) -> bool {
        let mut met = true;
        self.unmet_goal(goal, state, |_| met = false);
        met
    }

    /// Whether `start` meets every condition of `subgoal`; see
    /// [`meets_goal`](Self::meets_goal).
    fn start_meets(&self, start: &Self::State, subgoal: &Self::Subgoal) -> bool {
        let mut met = true;
        self.unmet_subgoal(start, subgoal, |_| met = false);
        met
    }

    /// Checks that every action's cost is fixed, for `needed_by` (a
    /// heuristic that tabulates costs before search,
    /// [`HeuristicInfo::fixed_costs`](crate::heuristics::HeuristicInfo::fixed_costs)).
    /// The default has nothing to refuse; atomic domains refuse an action
    /// with a cost function
    /// ([`ActionBuilder::cost_fn`](state_atomic::ActionBuilder::cost_fn)).
    /// Factored domains accept theirs: a factored action's fixed cost is
    /// declared a lower bound of its cost function.
    ///
    /// # Errors
    /// [`PlanError::Atomic`] with
    /// [`AtomicError::StateDependentCost`](state_atomic::AtomicError::StateDependentCost),
    /// naming the action.
    ///
    /// ```
    /// use planners::heuristics::TaskView;
    /// use state_atomic::ActionSet;
    ///
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("walk", 1).eff("at_shop", true).cost_fn(|_| 3);
    /// let error = actions.require_fixed_costs("heuristic `hmax`").unwrap_err();
    /// assert!(error.to_string().contains("action `walk`"), "{error}");
    /// ```
    fn require_fixed_costs(&self, needed_by: &str) -> Result<(), PlanError> {
        let _ = needed_by;
        Ok(())
    }

    /// Checks that no action has conditional effects, for `needed_by` (a
    /// heuristic that reads every effect as unconditional,
    /// [`HeuristicInfo::unconditional`](crate::heuristics::HeuristicInfo::unconditional)).
    /// The default has nothing to refuse; atomic domains refuse an action
    /// with conditional effects
    /// ([`ActionSet::add_when`](state_atomic::ActionSet::add_when)).
    ///
    /// # Errors
    /// [`PlanError::Atomic`] with
    /// [`AtomicError::ConditionalEffects`](state_atomic::AtomicError::ConditionalEffects),
    /// naming the action.
    ///
    /// ```
    /// use planners::heuristics::TaskView;
    /// use state_atomic::ActionSet;
    ///
    /// let mut actions = ActionSet::<u64>::new();
    /// let flip = actions.add_action("flip", 1).eff("on", true).id().unwrap();
    /// let on = actions.partial([("on", true)]).unwrap();
    /// actions.add_when(flip, on, actions.partial([("on", false)]).unwrap()).unwrap();
    /// let error = actions.require_unconditional("heuristic `ipdb`").unwrap_err();
    /// assert!(error.to_string().contains("action `flip`"), "{error}");
    /// ```
    fn require_unconditional(&self, needed_by: &str) -> Result<(), PlanError> {
        let _ = needed_by;
        Ok(())
    }
}
