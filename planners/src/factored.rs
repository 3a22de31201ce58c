//! [`PlanningDomain`] for factored (typed-value) GOAP domains.

use state_factored::{
    ActionId, Combine, Domain, ForwardSpace, Goal, GoalCount, NumericDistance, NumericHmax,
    OperatorCounting, RegressionSpace, State, Subgoal,
};

use crate::{BoxedHeuristic, HeuristicName, PlanError, PlanningDomain};

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

    fn forward_heuristic<'a>(
        &'a self,
        name: HeuristicName,
        start: &'a State,
        goal: &'a Goal,
    ) -> Result<BoxedHeuristic<'a, State>, PlanError> {
        heuristic(self, name, start, goal)
    }

    fn regression_heuristic<'a>(
        &'a self,
        name: HeuristicName,
        start: &'a State,
        goal: &'a Goal,
    ) -> Result<BoxedHeuristic<'a, Subgoal>, PlanError> {
        heuristic(self, name, start, goal)
    }

    fn action_name(&self, id: ActionId) -> &str {
        self.names(&[id]).first().copied().unwrap_or("?")
    }

    fn validate(&self, start: &State, goal: &Goal, plan: &[ActionId]) -> Result<u64, PlanError> {
        Domain::validate(self, start, goal, plan).map_err(|e| PlanError::Invalid(e.to_string()))
    }
}

/// The factored heuristics serve both directions.
fn heuristic<'a, N>(
    domain: &'a Domain,
    name: HeuristicName,
    start: &'a State,
    goal: &'a Goal,
) -> Result<BoxedHeuristic<'a, N>, PlanError>
where
    GoalCount<'a>: search_core::Heuristic<N, u32>,
    NumericDistance<'a>: search_core::Heuristic<N, u32>,
    NumericHmax<'a>: search_core::Heuristic<N, u32>,
    OperatorCounting<'a>: search_core::Heuristic<N, u32>,
{
    Ok(match name {
        HeuristicName::Blind => Box::new(search_core::Blind),
        HeuristicName::Mismatch => Box::new(GoalCount::new(domain, goal, start)),
        HeuristicName::NumericMax => {
            Box::new(NumericDistance::new(domain, goal, start, Combine::Max))
        }
        HeuristicName::NumericSum => {
            Box::new(NumericDistance::new(domain, goal, start, Combine::Sum))
        }
        HeuristicName::HMax => Box::new(NumericHmax::new(domain, goal, start)),
        HeuristicName::Counting => Box::new(OperatorCounting::new(domain, goal, start)),
        HeuristicName::AdmissibleMismatch | HeuristicName::HAdd | HeuristicName::Ff => {
            return Err(PlanError::UnsupportedHeuristic {
                heuristic: name.name(),
                domain: "factored",
            })
        }
    })
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
