//! [`PlanningDomain`] for atomic (bitset) GOAP domains.

use search_core::bidirectional::{front_to_front_fn, Meeting};
use state_atomic::{
    ActionId, ActionSet, AtomicMeeting, Bits, ForwardSpace, PartialState, RegressionSpace,
    RelaxedBetween, RelaxedKind, WorldState,
};

use crate::heuristics::{ActionView, Representation, TaskView};
use std::borrow::Cow;

use crate::{BoxedFrontToFront, BoxedHeuristic, PlanError, PlanningDomain};

impl<B: Bits + Send + Sync> PlanningDomain for ActionSet<B> {
    type State = WorldState<B>;
    type Goal = PartialState<B>;
    type Subgoal = PartialState<B>;
    type ActionId = ActionId;
    type Forward<'a>
        = ForwardSpace<'a, B>
    where
        B: 'a;
    type Regression<'a>
        = RegressionSpace<'a, B>
    where
        B: 'a;

    fn forward<'a>(&'a self, goal: &'a PartialState<B>) -> Result<ForwardSpace<'a, B>, PlanError> {
        Ok(ForwardSpace::new(self, goal.clone())?)
    }

    fn regression<'a>(
        &'a self,
        start: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Result<(RegressionSpace<'a, B>, PartialState<B>), PlanError> {
        Ok((
            RegressionSpace::new(self, start.clone(), goal.clone())?,
            goal.clone(),
        ))
    }

    fn satisfies(&self, state: &Self::State, subgoal: &Self::Subgoal) -> bool {
        state.satisfies(subgoal)
    }

    fn meeting(&self) -> impl Meeting<Self::State, Self::Subgoal> + '_ {
        AtomicMeeting::default()
    }

    fn execution_order(&self, regressed: &[ActionId]) -> Vec<ActionId> {
        RegressionSpace::<B>::execution_order(regressed)
    }

    fn front_to_front(
        &self,
        name: &str,
        goal: &PartialState<B>,
    ) -> Result<BoxedFrontToFront<'_, WorldState<B>, PartialState<B>>, PlanError> {
        front_to_front(self, goal, name)
    }

    type View = Self;

    fn task_view(&self) -> &Self {
        self
    }

    fn view_problem<'s>(
        &'s self,
        start: &'s WorldState<B>,
        goal: &'s PartialState<B>,
    ) -> (Cow<'s, WorldState<B>>, Cow<'s, PartialState<B>>) {
        (Cow::Borrowed(start), Cow::Borrowed(goal))
    }

    fn view_forward<'a>(
        &'a self,
        heuristic: BoxedHeuristic<'a, WorldState<B>>,
    ) -> BoxedHeuristic<'a, WorldState<B>> {
        heuristic
    }

    fn view_regression<'a>(
        &'a self,
        heuristic: BoxedHeuristic<'a, PartialState<B>>,
    ) -> BoxedHeuristic<'a, PartialState<B>> {
        heuristic
    }

    fn view_owned_forward(
        &self,
        heuristic: BoxedHeuristic<'static, WorldState<B>>,
    ) -> Option<BoxedHeuristic<'static, WorldState<B>>> {
        Some(heuristic)
    }

    fn view_owned_regression(
        &self,
        heuristic: BoxedHeuristic<'static, PartialState<B>>,
    ) -> Option<BoxedHeuristic<'static, PartialState<B>>> {
        Some(heuristic)
    }

    fn quick_forward_heuristic<'a>(
        &'a self,
        name: &str,
        goal: &'a PartialState<B>,
    ) -> Option<impl search_core::Heuristic<WorldState<B>, u32> + 'a> {
        crate::heuristics::quick::QuickAtomic::new(name, self, goal)
    }

    fn action_name(&self, id: ActionId) -> &str {
        self.action(id).map_or("?", |a| a.name.as_str())
    }

    fn describe_state(&self, state: &WorldState<B>) -> String {
        self.registry().named(state).to_string()
    }

    fn describe_subgoal(&self, subgoal: &PartialState<B>) -> String {
        self.registry().named(subgoal).to_string()
    }

    fn validate(
        &self,
        start: &WorldState<B>,
        goal: &PartialState<B>,
        plan: &[ActionId],
    ) -> Result<u64, PlanError> {
        ActionSet::validate(self, start.clone(), goal, plan)
            .map_err(|e| PlanError::Invalid(e.to_string()))
    }
}

impl<B: Bits> TaskView for ActionSet<B> {
    type State = WorldState<B>;
    type Goal = PartialState<B>;
    type Subgoal = PartialState<B>;
    type ActionId = ActionId;

    const REPRESENTATION: Representation = Representation::Atomic;

    fn variables(&self) -> usize {
        self.registry().len()
    }

    fn action_views(&self) -> Vec<ActionView<ActionId>> {
        self.iter()
            .filter_map(|action| {
                let mut changes = Vec::new();
                // What a conditional effect may change counts too.
                let care = action
                    .when
                    .iter()
                    .fold(action.eff.care(), |care, w| care | w.effect.as_care());
                care.for_each_one(|atom| changes.push(atom));
                let id = self.find(&action.name)?;
                Some(ActionView {
                    id,
                    // A cost function's least value is not known.
                    cost: if self.has_cost_fn(id) { 0 } else { action.cost },
                    changes: Some(changes),
                })
            })
            .collect()
    }

    fn unmet_goal(
        &self,
        goal: &PartialState<B>,
        state: &WorldState<B>,
        mut each: impl FnMut(Option<usize>),
    ) {
        ((state.bits() ^ goal.as_values()) & goal.as_care()).for_each_one(|atom| each(Some(atom)));
    }

    fn unmet_subgoal(
        &self,
        start: &WorldState<B>,
        subgoal: &PartialState<B>,
        each: impl FnMut(Option<usize>),
    ) {
        self.unmet_goal(subgoal, start, each);
    }

    fn meets_goal(&self, goal: &PartialState<B>, state: &WorldState<B>) -> bool {
        state.satisfies(goal)
    }

    fn start_meets(&self, start: &WorldState<B>, subgoal: &PartialState<B>) -> bool {
        start.satisfies(subgoal)
    }

    fn require_fixed_costs(&self, needed_by: &str) -> Result<(), PlanError> {
        Ok(self.check_fixed_costs(needed_by)?)
    }

    fn require_unconditional(&self, needed_by: &str) -> Result<(), PlanError> {
        Ok(self.check_unconditional(needed_by)?)
    }
}

impl<B: Bits + Send + Sync> crate::agent::AgentDomain for ActionSet<B> {
    fn view(&self, world: &WorldState<B>, own: &WorldState<B>) -> WorldState<B> {
        self.registry().view(world.clone(), own.clone())
    }

    fn write_back(&self, view: &WorldState<B>, world: &mut WorldState<B>, own: &mut WorldState<B>) {
        let shared = self.registry().shared_mask();
        *world = world.clone().merge_shared(view.clone(), shared);
        own.clone_from(view);
    }

    fn is_applicable(&self, state: &WorldState<B>, action: ActionId) -> bool {
        self.action(action).is_some_and(|a| state.satisfies(&a.pre))
    }

    fn apply(&self, state: &WorldState<B>, action: ActionId) -> Option<WorldState<B>> {
        let action = self.action(action)?;
        state
            .satisfies(&action.pre)
            .then(|| state.apply_when(&action.eff, &action.when))
    }

    fn is_satisfied(&self, state: &WorldState<B>, goal: &PartialState<B>) -> bool {
        state.satisfies(goal)
    }

    fn find_action(&self, name: &str) -> Option<ActionId> {
        self.find(name)
    }

    /// Only atoms that the goal or some action's precondition reads.
    fn relevant_change(
        &self,
        expected: &WorldState<B>,
        now: &WorldState<B>,
        goal: &PartialState<B>,
    ) -> bool {
        let read = self
            .iter()
            .flat_map(|a| std::iter::once(&a.pre).chain(a.when.iter().map(|w| &w.condition)))
            .fold(goal.care(), |read, pre| read | pre.as_care());
        !expected.as_bits().agrees_on(now.as_bits(), &read)
    }
}

/// The registry's heuristic `name` between the states of `actions` and
/// the subgoals regression reaches from `goal`: the delete relaxation's
/// (`hmax`, `hadd`, `ff`), the subgoal atoms a state gets wrong
/// (`mismatch`), or 0 (`blind`).
///
/// # Errors
/// [`PlanError::NoFrontToFront`] for any other heuristic.
pub(crate) fn front_to_front<'a, B: Bits + Send + Sync>(
    actions: &ActionSet<B>,
    goal: &PartialState<B>,
    name: &str,
) -> Result<BoxedFrontToFront<'a, WorldState<B>, PartialState<B>>, PlanError> {
    let relaxed = |kind| -> BoxedFrontToFront<'a, _, _> {
        Box::new(RelaxedBetween::new(actions, goal, kind))
    };
    Ok(match name {
        "hmax" => relaxed(RelaxedKind::Max),
        "hadd" => relaxed(RelaxedKind::Add),
        "ff" => relaxed(RelaxedKind::Ff),
        "mismatch" => Box::new(front_to_front_fn(
            |state: &WorldState<B>, subgoal: &PartialState<B>| {
                ((state.bits() ^ subgoal.as_values()) & subgoal.as_care()).count_ones()
            },
        )),
        "blind" => Box::new(front_to_front_fn(
            |_: &WorldState<B>, _: &PartialState<B>| 0,
        )),
        _ => {
            return Err(PlanError::NoFrontToFront {
                heuristic: name.to_owned(),
            })
        }
    })
}
