//! [`PlanningDomain`] for factored (typed-value) GOAP domains.

use state_factored::{ActionId, Domain, ForwardSpace, Goal, RegressionSpace, State, Subgoal};

use crate::heuristics::builtin::BlindEstimate;
use crate::heuristics::{ActionView, Representation, TaskView};
use std::borrow::Cow;

use crate::{BoxedHeuristic, PlanError, PlanningDomain};

impl PlanningDomain for Domain {
    type State = State;
    type Goal = Goal;
    type Subgoal = Subgoal;
    type ActionId = ActionId;
    type Forward<'a> = ForwardSpace<'a>;
    type Regression<'a> = RegressionSpace<'a>;

    fn forward<'a>(&'a self, goal: &'a Goal) -> Result<ForwardSpace<'a>, PlanError> {
        Ok(Domain::forward(self, goal))
    }

    fn regression<'a>(
        &'a self,
        start: &'a State,
        goal: &'a Goal,
    ) -> Result<(RegressionSpace<'a>, Subgoal), PlanError> {
        let space = Domain::regression(self, start, goal)?;
        let node = space.start_node();
        Ok((space, node))
    }

    fn satisfies(&self, state: &State, subgoal: &Subgoal) -> bool {
        subgoal.is_satisfied_by(state)
    }

    type View = Self;

    fn task_view(&self) -> &Self {
        self
    }

    fn view_problem<'s>(
        &'s self,
        start: &'s State,
        goal: &'s Goal,
    ) -> (Cow<'s, State>, Cow<'s, Goal>) {
        (Cow::Borrowed(start), Cow::Borrowed(goal))
    }

    fn view_forward<'a>(
        &'a self,
        heuristic: BoxedHeuristic<'a, State>,
    ) -> BoxedHeuristic<'a, State> {
        heuristic
    }

    fn view_regression<'a>(
        &'a self,
        heuristic: BoxedHeuristic<'a, Subgoal>,
    ) -> BoxedHeuristic<'a, Subgoal> {
        heuristic
    }

    /// `blind` has a quick form here (the registry's values, without its
    /// table of action views).
    fn quick_forward_heuristic<'a>(
        &'a self,
        name: &str,
        goal: &'a Goal,
    ) -> Option<impl search_core::Heuristic<State, u32> + 'a> {
        (name == "blind").then(|| BlindEstimate {
            cheapest: self
                .actions()
                .iter()
                .map(state_factored::Action::cost)
                .min()
                .unwrap_or(0),
            unmet: move |s: &State| !goal.is_satisfied(s),
        })
    }

    fn action_name(&self, id: ActionId) -> &str {
        self.names(&[id]).first().copied().unwrap_or("?")
    }

    fn describe_state(&self, state: &State) -> String {
        self.schema().describe(state)
    }

    fn describe_subgoal(&self, subgoal: &Subgoal) -> String {
        subgoal.describe(self.schema())
    }

    fn validate(&self, start: &State, goal: &Goal, plan: &[ActionId]) -> Result<u64, PlanError> {
        Domain::validate(self, start, goal, plan).map_err(|e| PlanError::Invalid(e.to_string()))
    }
}

impl TaskView for Domain {
    type State = State;
    type Goal = Goal;
    type Subgoal = Subgoal;
    type ActionId = ActionId;

    const REPRESENTATION: Representation = Representation::Factored;

    fn variables(&self) -> usize {
        self.schema().len()
    }

    fn action_views(&self) -> Vec<ActionView<ActionId>> {
        self.actions()
            .iter()
            .filter_map(|action| {
                Some(ActionView {
                    id: self.action_id(action.name())?,
                    cost: action.cost(),
                    changes: action.changed_variables().map(Iterator::collect),
                })
            })
            .collect()
    }

    fn unmet_goal(&self, goal: &Goal, state: &State, each: impl FnMut(Option<usize>)) {
        goal.unmet(state).for_each(each);
    }

    fn unmet_subgoal(&self, start: &State, subgoal: &Subgoal, mut each: impl FnMut(Option<usize>)) {
        subgoal.unmet_by(start).for_each(|v| each(Some(v)));
    }

    fn meets_goal(&self, goal: &Goal, state: &State) -> bool {
        goal.is_satisfied(state)
    }

    fn start_meets(&self, start: &State, subgoal: &Subgoal) -> bool {
        subgoal.is_satisfied_by(start)
    }
}

impl crate::agent::AgentDomain for Domain {
    fn view(&self, world: &State, own: &State) -> State {
        self.schema().view(world, own)
    }

    fn write_back(&self, view: &State, world: &mut State, own: &mut State) {
        self.schema().store_shared(view, world);
        own.clone_from(view);
    }

    fn is_applicable(&self, state: &State, action: ActionId) -> bool {
        self.apply(action, state).is_some()
    }

    fn apply(&self, state: &State, action: ActionId) -> Option<State> {
        Domain::apply(self, action, state)
    }

    fn is_satisfied(&self, state: &State, goal: &Goal) -> bool {
        goal.is_satisfied(state)
    }

    fn find_action(&self, name: &str) -> Option<ActionId> {
        self.action_id(name)
    }
}
