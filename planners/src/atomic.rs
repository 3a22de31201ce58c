//! [`PlanningDomain`] for atomic (bitset) GOAP domains.

use state_atomic::{
    ActionId, ActionSet, AdmissibleMismatch, Bits, ForwardSpace, Mismatch, PartialState,
    RegressionSpace, RelaxedForward, RelaxedRegression, WorldState,
};

use crate::{BoxedHeuristic, HeuristicName, PlanError, PlanningDomain};

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
        Ok(ForwardSpace::new(self, *goal)?)
    }

    fn regression<'a>(
        &'a self,
        start: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Result<(RegressionSpace<'a, B>, PartialState<B>), PlanError> {
        Ok((RegressionSpace::new(self, *start, *goal)?, *goal))
    }

    fn execution_order(&self, regressed: &[ActionId]) -> Vec<ActionId> {
        RegressionSpace::<B>::execution_order(regressed)
    }

    fn forward_heuristic<'a>(
        &'a self,
        name: HeuristicName,
        _start: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Result<BoxedHeuristic<'a, WorldState<B>>, PlanError> {
        let goal = *goal;
        Ok(match name {
            HeuristicName::Blind => Box::new(search_core::Blind),
            HeuristicName::Mismatch => Box::new(Mismatch::forward(goal)),
            HeuristicName::AdmissibleMismatch => Box::new(AdmissibleMismatch::forward(self, goal)),
            HeuristicName::HMax => Box::new(RelaxedForward::h_max(self, goal)),
            HeuristicName::HAdd => Box::new(RelaxedForward::h_add(self, goal)),
            HeuristicName::Ff => Box::new(RelaxedForward::h_ff(self, goal)),
            HeuristicName::NumericMax | HeuristicName::NumericSum | HeuristicName::Counting => {
                return Err(unsupported(name));
            }
        })
    }

    fn regression_heuristic<'a>(
        &'a self,
        name: HeuristicName,
        start: &'a WorldState<B>,
        _goal: &'a PartialState<B>,
    ) -> Result<BoxedHeuristic<'a, PartialState<B>>, PlanError> {
        let start = *start;
        Ok(match name {
            HeuristicName::Blind => Box::new(search_core::Blind),
            HeuristicName::Mismatch => Box::new(Mismatch::regression(start)),
            HeuristicName::AdmissibleMismatch => {
                Box::new(AdmissibleMismatch::regression(self, start))
            }
            HeuristicName::HMax => Box::new(RelaxedRegression::h_max(self, start)),
            HeuristicName::HAdd => Box::new(RelaxedRegression::h_add(self, start)),
            HeuristicName::Ff => Box::new(RelaxedRegression::h_ff(self, start)),
            HeuristicName::NumericMax | HeuristicName::NumericSum | HeuristicName::Counting => {
                return Err(unsupported(name));
            }
        })
    }

    fn action_name(&self, id: ActionId) -> &str {
        self.action(id).map_or("?", |a| a.name.as_str())
    }

    fn validate(
        &self,
        start: &WorldState<B>,
        goal: &PartialState<B>,
        plan: &[ActionId],
    ) -> Result<u64, PlanError> {
        ActionSet::validate(self, *start, goal, plan).map_err(|e| PlanError::Invalid(e.to_string()))
    }
}

fn unsupported(name: HeuristicName) -> PlanError {
    PlanError::UnsupportedHeuristic {
        heuristic: name.name(),
        domain: "atomic",
    }
}

impl<B: Bits + Send + Sync> crate::agent::AgentDomain for ActionSet<B> {
    fn view(&self, world: &WorldState<B>, own: &WorldState<B>) -> WorldState<B> {
        self.registry().view(*world, *own)
    }

    fn write_back(&self, view: &WorldState<B>, world: &mut WorldState<B>, own: &mut WorldState<B>) {
        let shared = self.registry().shared_mask();
        *world = world.merge_shared(*view, shared);
        *own = *view;
    }

    fn is_applicable(&self, state: &WorldState<B>, action: ActionId) -> bool {
        self.action(action).is_some_and(|a| state.satisfies(&a.pre))
    }

    fn apply(&self, state: &WorldState<B>, action: ActionId) -> Option<WorldState<B>> {
        let action = self.action(action)?;
        state
            .satisfies(&action.pre)
            .then(|| state.apply(&action.eff))
    }

    fn is_satisfied(&self, state: &WorldState<B>, goal: &PartialState<B>) -> bool {
        state.satisfies(goal)
    }

    fn find_action(&self, name: &str) -> Option<ActionId> {
        self.find(name)
    }
}
