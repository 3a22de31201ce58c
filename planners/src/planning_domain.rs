//! The one trait a planner needs from a state representation.

use std::borrow::Cow;
use std::fmt::Debug;
use std::hash::Hash;

use search_core::bidirectional::{FrontToFront, Meeting, Stored};
use search_core::{
    tiny_astar, Heuristic, Node, SearchLimits, SearchResult, SearchSpace, TinyWorkspace,
};

use crate::heuristics::TaskView;
use crate::PlanError;

/// A boxed heuristic over nodes `N` (the planner's costs are `u32`).
pub type BoxedHeuristic<'a, N> = Box<dyn Heuristic<N, u32> + Send + 'a>;

/// A boxed front-to-front heuristic from states `S` to subgoals `G`, the
/// estimate of bidirectional greedy search (TTBS).
pub type BoxedFrontToFront<'a, S, G> = Box<dyn FrontToFront<S, G, u32> + Send + 'a>;

/// A planning domain: a state representation with a forward and a
/// regression search space, a view for heuristics ([`TaskView`]), names for its
/// actions and a plan validator.
///
/// Implemented for [`state_atomic::ActionSet`] and
/// [`state_factored::Domain`]. Domains are shared across threads (`Sync`):
/// planning many problems in parallel over one domain needs no locks.
pub trait PlanningDomain: Sync {
    /// A complete state: the start, and the forward search's nodes.
    type State: Node + Send + Sync;
    /// A goal.
    type Goal: Debug + Sync;
    /// A regression search node.
    type Subgoal: Node + Send;
    /// An action's id.
    type ActionId: Copy + Debug + Eq + Hash + Send + Sync;
    /// The forward search space.
    type Forward<'a>: SearchSpace<Node = Self::State, Action = Self::ActionId, Cost = u32>
    where
        Self: 'a;
    /// The regression search space.
    type Regression<'a>: SearchSpace<Node = Self::Subgoal, Action = Self::ActionId, Cost = u32>
    where
        Self: 'a;

    /// The forward space towards `goal`.
    ///
    /// # Errors
    /// When the goal does not fit the domain.
    fn forward<'a>(&'a self, goal: &'a Self::Goal) -> Result<Self::Forward<'a>, PlanError>;

    /// The regression space from `goal` back to `start`, and its start node.
    ///
    /// # Errors
    /// When the domain cannot be regressed (custom predicates or effects).
    fn regression<'a>(
        &'a self,
        start: &'a Self::State,
        goal: &'a Self::Goal,
    ) -> Result<(Self::Regression<'a>, Self::Subgoal), PlanError>;

    /// Whether `state` satisfies `subgoal`: where a bidirectional search's
    /// forward states meet its regression subgoals.
    fn satisfies(&self, state: &Self::State, subgoal: &Self::Subgoal) -> bool;

    /// The meeting test of a bidirectional search
    /// ([`Direction::Bidirectional`](crate::Direction)): which stored
    /// subgoals a new state satisfies, and which stored states satisfy a
    /// new subgoal. The default scans the other side's nodes with
    /// [`satisfies`](Self::satisfies); a domain whose states are bits
    /// answers from an index instead.
    fn meeting(&self) -> impl Meeting<Self::State, Self::Subgoal> + '_ {
        Scan(self)
    }

    /// The regressed actions of a solution in execution order.
    fn execution_order(&self, regressed: &[Self::ActionId]) -> Vec<Self::ActionId> {
        regressed.iter().rev().copied().collect()
    }

    /// The heuristic `name` (a registry name) from a state to a subgoal
    /// that regression reaches from `goal`, for bidirectional greedy
    /// search (TTBS), where each side aims at the other side's best node.
    ///
    /// # Errors
    /// [`PlanError::NoFrontToFront`] where the domain has no such form of
    /// the heuristic (the default: none).
    fn front_to_front(
        &self,
        name: &str,
        goal: &Self::Goal,
    ) -> Result<BoxedFrontToFront<'_, Self::State, Self::Subgoal>, PlanError> {
        let _ = goal;
        Err(PlanError::NoFrontToFront {
            heuristic: name.to_owned(),
        })
    }

    /// What heuristics read of this domain: the domain itself, or the one
    /// a wrapper plans on (a grounded PDDL task's fact-level actions, under
    /// its packed states). Registered heuristics ([`crate::heuristics`])
    /// are made for it; [`view_problem`](Self::view_problem),
    /// [`view_forward`](Self::view_forward) and
    /// [`view_regression`](Self::view_regression) translate between its
    /// nodes and the domain's (all the identity where the view's nodes are
    /// the domain's).
    type View: TaskView<State: Clone, Goal: Clone>;

    /// See [`View`](Self::View).
    fn task_view(&self) -> &Self::View;

    /// The view's start and goal of a problem of this domain.
    #[expect(clippy::type_complexity, reason = "two associated types of the view")]
    fn view_problem<'s>(
        &'s self,
        start: &'s Self::State,
        goal: &'s Self::Goal,
    ) -> (
        Cow<'s, <Self::View as TaskView>::State>,
        Cow<'s, <Self::View as TaskView>::Goal>,
    );

    /// A heuristic for the domain's states from one made for the view's.
    fn view_forward<'a>(
        &'a self,
        heuristic: BoxedHeuristic<'a, <Self::View as TaskView>::State>,
    ) -> BoxedHeuristic<'a, Self::State>;

    /// A heuristic for the domain's subgoals from one made for the view's.
    fn view_regression<'a>(
        &'a self,
        heuristic: BoxedHeuristic<'a, <Self::View as TaskView>::Subgoal>,
    ) -> BoxedHeuristic<'a, Self::Subgoal>;

    /// [`view_forward`](Self::view_forward) for a heuristic that owns what
    /// it reads, keeping it owned; `None` (the default) where the domain's
    /// adapter would borrow the domain. A sliced
    /// [`PlanJob`](crate::PlanJob) keeps such a heuristic between slices.
    fn view_owned_forward(
        &self,
        heuristic: BoxedHeuristic<'static, <Self::View as TaskView>::State>,
    ) -> Option<BoxedHeuristic<'static, Self::State>> {
        let _ = heuristic;
        None
    }

    /// [`view_regression`](Self::view_regression) for a heuristic that
    /// owns what it reads; see
    /// [`view_owned_forward`](Self::view_owned_forward).
    fn view_owned_regression(
        &self,
        heuristic: BoxedHeuristic<'static, <Self::View as TaskView>::Subgoal>,
    ) -> Option<BoxedHeuristic<'static, Self::Subgoal>> {
        let _ = heuristic;
        None
    }

    /// The built-in heuristic `name` (`blind`, `mismatch` or `hmax`) for
    /// forward search towards `goal`, made without the registry's set-up
    /// and statically dispatched, where the domain has such a form for this
    /// task; `None` (the default) otherwise. It must give the registry's
    /// heuristic's values. The planner asks for it for searches that its
    /// tiny engine runs, where building the registry's heuristic would cost
    /// more than the search (atomic domains: small tasks).
    fn quick_forward_heuristic<'a>(
        &'a self,
        name: &str,
        goal: &'a Self::Goal,
    ) -> Option<impl Heuristic<Self::State, u32> + 'a> {
        let _ = (name, goal);
        None::<search_core::Blind>
    }

    /// Forward A* in the tiny engine ([`tiny_astar`]) with the quick form
    /// of the built-in heuristic `name`
    /// ([`quick_forward_heuristic`](Self::quick_forward_heuristic)), in
    /// `workspace`. The default searches
    /// [`forward`](Self::forward)'s space; a domain with a more compact
    /// form of its states for small tasks may search that instead (a
    /// factored domain of a few variables does), and must give the same
    /// result.
    fn quick_forward_search(
        &self,
        name: &str,
        start: &Self::State,
        goal: &Self::Goal,
        limits: &SearchLimits<u32>,
        workspace: &mut TinyWorkspace<Self::State, Self::ActionId, u32>,
    ) -> QuickSearch<Self::State, Self::ActionId> {
        quick_forward_search(self, name, start, goal, limits, workspace)
    }

    /// An action's name (`?` for an id of another domain).
    fn action_name(&self, id: Self::ActionId) -> &str;

    /// A state in words, for traces and logs ([`PlanTrace`](crate::PlanTrace)):
    /// the true atoms' names, `name=value` pairs, the true facts. The
    /// default is the state's `Debug`.
    fn describe_state(&self, state: &Self::State) -> String {
        format!("{state:?}")
    }

    /// A regression subgoal (a partial state: only what it constrains) in
    /// words, for traces and logs. The default is the subgoal's `Debug`.
    fn describe_subgoal(&self, subgoal: &Self::Subgoal) -> String {
        format!("{subgoal:?}")
    }

    /// Replays `plan` from `start` and checks it reaches `goal`; returns its
    /// cost.
    ///
    /// # Errors
    /// [`PlanError::Invalid`] naming the first step whose precondition fails,
    /// or saying the goal is not reached.
    fn validate(
        &self,
        start: &Self::State,
        goal: &Self::Goal,
        plan: &[Self::ActionId],
    ) -> Result<u64, PlanError>;
}

/// Replays `plan` from `start` and checks that it reaches `goal`; returns the
/// plan's cost. Works for every [`PlanningDomain`].
///
/// # Errors
/// [`PlanError::Invalid`] naming the first step whose precondition fails, or
/// saying that the goal is not reached.
///
/// ```
/// use planners::validate;
/// use state_atomic::ActionSet;
///
/// let mut actions = ActionSet::<u64>::new();
/// let cook = actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true).id().unwrap();
/// let eat = actions.add_action("eat", 5).pre("has_food", true).eff("fed", true).id().unwrap();
/// let start = actions.state(["has_groceries"]).unwrap();
/// let goal = actions.partial([("fed", true)]).unwrap();
/// assert_eq!(validate(&actions, &start, &goal, &[cook, eat]).unwrap(), 15);
/// let error = validate(&actions, &start, &goal, &[eat]).unwrap_err();
/// assert!(error.to_string().contains("eat"));
/// ```
pub fn validate<D: PlanningDomain>(
    domain: &D,
    start: &D::State,
    goal: &D::Goal,
    plan: &[D::ActionId],
) -> Result<u64, PlanError> {
    domain.validate(start, goal, plan)
}

/// A domain shared behind an [`Arc`](std::sync::Arc) (as agents and ECS
/// components hold one) plans as the domain itself.
///
/// ```
/// use std::sync::Arc;
/// use planners::{Planner, PlannerConfig};
/// use state_atomic::ActionSet;
///
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let start = actions.state(["has_food"]).unwrap();
/// let goal = actions.partial([("fed", true)]).unwrap();
/// let shared = Arc::new(actions);
/// let report = Planner::new(PlannerConfig::default()).plan(&shared, &start, &goal).unwrap();
/// assert_eq!(report.plan().unwrap().cost, 5);
/// ```
impl<D: PlanningDomain + Send> PlanningDomain for std::sync::Arc<D> {
    type State = D::State;
    type Goal = D::Goal;
    type Subgoal = D::Subgoal;
    type ActionId = D::ActionId;
    type Forward<'a>
        = D::Forward<'a>
    where
        Self: 'a;
    type Regression<'a>
        = D::Regression<'a>
    where
        Self: 'a;

    fn forward<'a>(&'a self, goal: &'a Self::Goal) -> Result<Self::Forward<'a>, PlanError> {
        (**self).forward(goal)
    }

    fn regression<'a>(
        &'a self,
        start: &'a Self::State,
        goal: &'a Self::Goal,
    ) -> Result<(Self::Regression<'a>, Self::Subgoal), PlanError> {
        (**self).regression(start, goal)
    }

    fn satisfies(&self, state: &Self::State, subgoal: &Self::Subgoal) -> bool {
        (**self).satisfies(state, subgoal)
    }

    fn meeting(&self) -> impl Meeting<Self::State, Self::Subgoal> + '_ {
        (**self).meeting()
    }

    fn execution_order(&self, regressed: &[Self::ActionId]) -> Vec<Self::ActionId> {
        (**self).execution_order(regressed)
    }

    fn front_to_front(
        &self,
        name: &str,
        goal: &Self::Goal,
    ) -> Result<BoxedFrontToFront<'_, Self::State, Self::Subgoal>, PlanError> {
        (**self).front_to_front(name, goal)
    }

    type View = D::View;

    fn task_view(&self) -> &Self::View {
        (**self).task_view()
    }

    fn view_problem<'s>(
        &'s self,
        start: &'s Self::State,
        goal: &'s Self::Goal,
    ) -> (
        Cow<'s, <Self::View as TaskView>::State>,
        Cow<'s, <Self::View as TaskView>::Goal>,
    ) {
        (**self).view_problem(start, goal)
    }

    fn view_forward<'a>(
        &'a self,
        heuristic: BoxedHeuristic<'a, <Self::View as TaskView>::State>,
    ) -> BoxedHeuristic<'a, Self::State> {
        (**self).view_forward(heuristic)
    }

    fn view_regression<'a>(
        &'a self,
        heuristic: BoxedHeuristic<'a, <Self::View as TaskView>::Subgoal>,
    ) -> BoxedHeuristic<'a, Self::Subgoal> {
        (**self).view_regression(heuristic)
    }

    fn view_owned_forward(
        &self,
        heuristic: BoxedHeuristic<'static, <Self::View as TaskView>::State>,
    ) -> Option<BoxedHeuristic<'static, Self::State>> {
        (**self).view_owned_forward(heuristic)
    }

    fn view_owned_regression(
        &self,
        heuristic: BoxedHeuristic<'static, <Self::View as TaskView>::Subgoal>,
    ) -> Option<BoxedHeuristic<'static, Self::Subgoal>> {
        (**self).view_owned_regression(heuristic)
    }

    fn quick_forward_heuristic<'a>(
        &'a self,
        name: &str,
        goal: &'a Self::Goal,
    ) -> Option<impl Heuristic<Self::State, u32> + 'a> {
        (**self).quick_forward_heuristic(name, goal)
    }

    fn quick_forward_search(
        &self,
        name: &str,
        start: &Self::State,
        goal: &Self::Goal,
        limits: &SearchLimits<u32>,
        workspace: &mut TinyWorkspace<Self::State, Self::ActionId, u32>,
    ) -> QuickSearch<Self::State, Self::ActionId> {
        (**self).quick_forward_search(name, start, goal, limits, workspace)
    }

    fn action_name(&self, id: Self::ActionId) -> &str {
        (**self).action_name(id)
    }

    fn describe_state(&self, state: &Self::State) -> String {
        (**self).describe_state(state)
    }

    fn describe_subgoal(&self, subgoal: &Self::Subgoal) -> String {
        (**self).describe_subgoal(subgoal)
    }

    fn validate(
        &self,
        start: &Self::State,
        goal: &Self::Goal,
        plan: &[Self::ActionId],
    ) -> Result<u64, PlanError> {
        (**self).validate(start, goal, plan)
    }
}

/// A meeting that scans the other side's stored nodes with
/// [`PlanningDomain::satisfies`]: for domains without an index.
struct Scan<'d, D: ?Sized>(&'d D);

impl<D: PlanningDomain + ?Sized> Meeting<D::State, D::Subgoal> for Scan<'_, D> {
    fn forward_meets(
        &self,
        node: &D::State,
        backward: Stored<'_, D::Subgoal>,
        mut met: impl FnMut(u32),
    ) {
        for (number, subgoal) in backward.iter() {
            if self.0.satisfies(node, subgoal) {
                met(number);
            }
        }
    }

    fn backward_meets(
        &self,
        node: &D::Subgoal,
        forward: Stored<'_, D::State>,
        mut met: impl FnMut(u32),
    ) {
        for (number, state) in forward.iter() {
            if self.0.satisfies(state, node) {
                met(number);
            }
        }
    }
}

/// [`PlanningDomain::quick_forward_search`]'s default: over the domain's
/// own forward space.
pub(crate) fn quick_forward_search<D: PlanningDomain + ?Sized>(
    domain: &D,
    name: &str,
    start: &D::State,
    goal: &D::Goal,
    limits: &SearchLimits<u32>,
    workspace: &mut TinyWorkspace<D::State, D::ActionId, u32>,
) -> QuickSearch<D::State, D::ActionId> {
    let Some(mut heuristic) = domain.quick_forward_heuristic(name, goal) else {
        return QuickSearch::NotRun;
    };
    let Ok(space) = domain.forward(goal) else {
        return QuickSearch::NotRun;
    };
    match tiny_astar(&space, start.clone(), &mut heuristic, limits, workspace) {
        Some(result) => QuickSearch::Ran(result),
        None => QuickSearch::TooLarge,
    }
}

/// What a quick forward search ([`PlanningDomain::quick_forward_search`])
/// did.
#[derive(Debug)]
pub enum QuickSearch<S, A> {
    /// It ran to an outcome.
    Ran(SearchResult<S, A, u32>),
    /// The problem outgrew the tiny engine
    /// ([`TINY_MAX_NODES`](search_core::TINY_MAX_NODES) stored nodes): the
    /// general engine runs it.
    TooLarge,
    /// The domain has no quick form of the heuristic, or no forward space
    /// toward the goal (the general path reports why).
    NotRun,
}
