//! [`PlanningDomain`] for factored (typed-value) GOAP domains.

use std::borrow::Cow;
use std::cell::RefCell;

use search_core::{tiny_astar, SearchLimits, SearchResult, Solution, TinyWorkspace};
use state_factored::{
    Action, ActionId, Domain, FixedState, ForwardSpace, Goal, RegressionSpace, State, Subgoal,
};

use crate::heuristics::builtin::BlindEstimate;
use crate::heuristics::{ActionView, Representation, TaskView};
use crate::planning_domain::quick_forward_search;
use crate::{BoxedHeuristic, PlanError, PlanningDomain, QuickSearch};

/// The most variables the fixed-width path takes: a game agent's domain has
/// a handful, and eight words copy in a few vector moves.
const FIXED_WIDTH: usize = 8;

thread_local! {
    /// The tiny engine's tables over fixed-width states, one set per
    /// thread: a plan buffer keeps tables of the domain's own states, which
    /// are of another type.
    static FIXED_TABLES: RefCell<TinyWorkspace<FixedState<FIXED_WIDTH>, ActionId, u32>> =
        RefCell::new(TinyWorkspace::default());
}

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

    fn view_owned_forward(
        &self,
        heuristic: BoxedHeuristic<'static, State>,
    ) -> Option<BoxedHeuristic<'static, State>> {
        Some(heuristic)
    }

    fn view_owned_regression(
        &self,
        heuristic: BoxedHeuristic<'static, Subgoal>,
    ) -> Option<BoxedHeuristic<'static, Subgoal>> {
        Some(heuristic)
    }

    /// `blind` has a quick form here (the registry's values, without its
    /// table of action views).
    fn quick_forward_heuristic<'a>(
        &'a self,
        name: &str,
        goal: &'a Goal,
    ) -> Option<impl search_core::Heuristic<State, u32> + 'a> {
        (name == "blind").then(|| BlindEstimate {
            cheapest: self.actions().iter().map(Action::cost).min().unwrap_or(0),
            unmet: move |s: &State| !goal.is_satisfied(s),
        })
    }

    /// Blind A* on a domain of at most 8 variables (`FIXED_WIDTH`) whose
    /// actions and goal all compile searches fixed-width states
    /// ([`FixedForward`](state_factored::FixedForward)): copied, hashed and
    /// compared as plain arrays, about twice as fast as the general state
    /// on a game agent's plan. The same successors in the same order give
    /// the same result; its states are translated back on the way out.
    fn quick_forward_search(
        &self,
        name: &str,
        start: &State,
        goal: &Goal,
        limits: &SearchLimits<u32>,
        workspace: &mut TinyWorkspace<State, ActionId, u32>,
    ) -> QuickSearch<State, ActionId> {
        if name == "blind" {
            if let Some(found) = fixed_blind(self, start, goal, limits, workspace) {
                return found;
            }
        }
        quick_forward_search(self, name, start, goal, limits, workspace)
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

/// Blind A* in the tiny engine over fixed-width states (see
/// [`PlanningDomain::quick_forward_search`]), its solution translated back
/// into `workspace`'s spare vectors; `None` where the domain or the goal
/// does not fit, or this thread's tables are in use (a search inside a
/// heuristic's search).
fn fixed_blind(
    domain: &Domain,
    start: &State,
    goal: &Goal,
    limits: &SearchLimits<u32>,
    workspace: &mut TinyWorkspace<State, ActionId, u32>,
) -> Option<QuickSearch<State, ActionId>> {
    let space = domain.fixed_forward::<FIXED_WIDTH>(goal)?;
    let fixed_start = space.fixed(start)?;
    let mut blind = BlindEstimate {
        cheapest: domain.actions().iter().map(Action::cost).min().unwrap_or(0),
        unmet: |s: &FixedState<FIXED_WIDTH>| !space.is_satisfied(s),
    };
    FIXED_TABLES.with(|tables| {
        let mut tables = tables.try_borrow_mut().ok()?;
        tables.set_timed(workspace.is_timed());
        let Some(result) = tiny_astar(&space, fixed_start, &mut blind, limits, &mut tables) else {
            return Some(QuickSearch::TooLarge);
        };
        let outcome = result.outcome.map_solution(|fixed| {
            let (mut actions, mut nodes) = workspace.take_spare();
            actions.extend_from_slice(&fixed.actions);
            nodes.extend(fixed.nodes.iter().map(|n| space.state(n)));
            let cost = fixed.cost;
            tables.recycle(fixed);
            Solution {
                actions,
                nodes,
                cost,
            }
        });
        Some(QuickSearch::Ran(SearchResult {
            outcome,
            stats: result.stats,
        }))
    })
}

#[cfg(test)]
mod tests {
    use search_core::{Outcome, SearchLimits, Statistics, TinyWorkspace};
    use state_factored::problems::{chains, economy, hitman, Problem};
    use state_factored::{Predicate, Schema};

    use super::*;

    /// What two searches must share: the outcome and every counter (the
    /// bytes differ: the fixed-width states are smaller).
    fn same(stats: &Statistics) -> (u64, u64, u64, u64, u64, usize, usize) {
        let s = stats;
        (
            s.expanded,
            s.generated,
            s.evaluated,
            s.duplicates,
            s.reopened,
            s.max_open,
            s.stored,
        )
    }

    fn run(
        search: impl FnOnce(&mut TinyWorkspace<State, ActionId, u32>) -> QuickSearch<State, ActionId>,
    ) -> Option<(Outcome<State, ActionId, u32>, Statistics)> {
        let mut workspace = TinyWorkspace::default();
        match search(&mut workspace) {
            QuickSearch::Ran(result) => Some((result.outcome, result.stats)),
            QuickSearch::TooLarge => None,
            QuickSearch::NotRun => panic!("blind has a quick form"),
        }
    }

    #[test]
    fn fixed_width_search_is_the_default_search() {
        let problems = [hitman(), economy(1), chains(2), chains(4)];
        let mut fixed_width = 0;
        for problem in problems.map(Result::unwrap) {
            let Problem {
                domain,
                start,
                goal,
                name,
            } = &problem;
            let far = domain.goal([Predicate::ge("gold", 10_000)]).ok();
            for goal in [Some(goal.clone()), far].into_iter().flatten() {
                fixed_width += usize::from(domain.fixed_forward::<FIXED_WIDTH>(&goal).is_some());
                for cap in [None, Some(3)] {
                    let limits = SearchLimits {
                        max_expansions: cap,
                        ..SearchLimits::default()
                    };
                    let fast =
                        run(|ws| domain.quick_forward_search("blind", start, &goal, &limits, ws));
                    let default =
                        run(|ws| quick_forward_search(domain, "blind", start, &goal, &limits, ws));
                    assert_eq!(
                        fast.as_ref().map(|(o, s)| (o, same(s))),
                        default.as_ref().map(|(o, s)| (o, same(s))),
                        "{name}, {goal:?}, {cap:?}"
                    );
                }
            }
        }
        assert!(
            fixed_width >= 2,
            "the hitman and its far goal take the fixed-width path"
        );
    }

    #[test]
    fn wider_or_interpreted_domains_keep_the_default_path() {
        let mut schema = Schema::new();
        for v in 0..=FIXED_WIDTH {
            schema.int(&format!("x{v}")).unwrap();
        }
        let mut domain = Domain::new(schema);
        domain
            .add_action(Action::builder("step").increase("x0", 1))
            .unwrap();
        let goal = domain.goal([Predicate::ge("x0", 2)]).unwrap();
        assert!(domain.fixed_forward::<FIXED_WIDTH>(&goal).is_none());
        let start = domain.schema().default_state();
        let limits = SearchLimits::default();
        let (outcome, _) =
            run(|ws| domain.quick_forward_search("blind", &start, &goal, &limits, ws)).unwrap();
        assert_eq!(outcome.solution().unwrap().actions.len(), 2);
    }
}
