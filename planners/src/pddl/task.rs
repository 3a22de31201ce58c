//! A grounded task over atomic states of one width ([`Task`]), and its
//! forward and regression spaces.

use search_core::bidirectional::Meeting;
use state_atomic::AtomicMeeting;
use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering};

use rustc_hash::FxHashMap;

use search_core::{CheapestStep, SearchSpace};
use state_atomic::{
    ActionId, ActionSet, Bits, ForwardSpace, PartialState, PruningStats, PruningTally,
    RegressionSpace, Subsumption, WorldState,
};

use searchlab_pddl::{
    bits_of, negated_derived, Axioms, GroundTask, IpcPlan, Mutexes, PddlError, GOAL_ACTION,
};

use super::SolveError;
use crate::{BoxedFrontToFront, BoxedHeuristic, PlanError, PlanningDomain};

/// A grounded PDDL task over atomic states of type `B`: one atom per fact,
/// one action per ground operator, of the operator's cost (1 without
/// action costs). It is a [`PlanningDomain`], so
/// the [`Planner`](crate::Planner) runs on it in both directions; regression
/// prunes subgoals with `h^2` mutex pairs once
/// [`set_mutexes`](Self::set_mutexes) gave them.
///
/// A task with derived predicates (axioms) plans forward only: every
/// state, the start included, is closed under the axioms ([`Axioms`]), and
/// the heuristics see the axioms as actions of cost 0 beside the operators
/// (see [`PlanningDomain::task_view`]).
#[derive(Debug)]
pub struct Task<B: Bits> {
    actions: ActionSet<B>,
    derived: Option<Box<Derived<B>>>,
    start: WorldState<B>,
    goal: PartialState<B>,
    action_costs: bool,
    mutexes: Vec<B>,
    subsumption: Subsumption,
    mutex_pruned: AtomicU64,
    subsumption_pruned: AtomicU64,
    /// Forward search's stubborn sets, when on: their counts.
    stubborn: Option<PruningTally>,
}

/// What marks the `k`-th variant (from 2) of an ADL operator in the
/// action set: no PDDL name holds a `#`.
const VARIANT_MARK: &str = " #";

fn variant_name(name: &str, k: usize) -> String {
    format!("{name}{VARIANT_MARK}{k}")
}

/// An action's name as a plan step: without its variant mark.
fn plan_step_name(name: &str) -> &str {
    name.split_once(VARIANT_MARK).map_or(name, |(step, _)| step)
}

/// What a task with derived predicates holds besides its operators.
#[derive(Debug)]
struct Derived<B: Bits> {
    axioms: Axioms<B>,
    /// The operators, then each axiom as an action of cost 0, then, for
    /// each derived fact some condition wants false, an action of cost 0
    /// making it false: a relaxation of the task with axioms that
    /// over-approximates it (every plan maps to a plan of the view of the
    /// same cost), so admissible heuristics stay admissible and their dead
    /// ends real.
    view: ActionSet<B>,
    /// The derived predicates' names, for regression's refusal.
    predicates: String,
    /// Fact names, for replay's messages.
    facts: Vec<String>,
}

impl<B: Bits> Task<B> {
    /// Declares `packing`'s groups (of at least two facts) as the mutex
    /// groups of the task's actions.
    pub(crate) fn set_mutex_groups(
        &mut self,
        packing: &searchlab_pddl::Packing,
    ) -> Result<(), PlanError> {
        let groups = packing
            .groups()
            .map(|group| group.iter().map(|&f| f as usize));
        self.actions.set_mutex_groups(groups)?;
        Ok(())
    }

    /// The task `ground` as atomic actions over `B`. An operator whose
    /// precondition wants a fact both true and false never applies, and
    /// gets no action.
    ///
    /// # Errors
    /// [`PddlError::TooManyFacts`] if `B` holds fewer atoms than the task
    /// has facts; [`PddlError::ContradictoryGoal`] if the goal wants a fact
    /// both true and false ([`ground`](super::ground) makes such a goal
    /// unsolvable instead).
    pub fn new(ground: &GroundTask) -> Result<Self, SolveError> {
        let too_many = || PddlError::TooManyFacts {
            facts: ground.facts.len(),
            capacity: B::CAPACITY,
        };
        if ground.facts.len() > B::CAPACITY {
            return Err(too_many().into());
        }
        if let Some(numeric) = &ground.numeric {
            return Err(PddlError::Numeric {
                context: "the task".to_owned(),
                message: format!(
                    "has {} changing numeric fluents, and the atomic state holds facts only",
                    numeric.names.len()
                ),
            }
            .into());
        }
        let mut actions = ActionSet::<B>::new();
        for name in &ground.facts {
            actions.declare(name).map_err(|_| too_many())?;
        }
        // Variants of one ADL operator share its name; the action set
        // wants each name once, so the second and later ones are marked.
        let mut variants: FxHashMap<&str, usize> = FxHashMap::default();
        actions.reserve(ground.operators.len());
        for op in &ground.operators {
            if op.pre.iter().any(|f| op.neg_pre.contains(f)) {
                continue;
            }
            let count = variants.entry(op.name.as_str()).or_insert(0);
            *count += 1;
            let name = match *count {
                1 => Cow::Borrowed(op.name.as_str()),
                k => Cow::Owned(variant_name(&op.name, k)),
            };
            let pre_true: B = bits_of(&op.pre);
            let pre = PartialState::new(pre_true.clone(), pre_true | bits_of::<B>(&op.neg_pre));
            let add: B = bits_of(&op.add);
            let eff = PartialState::new(add.clone(), add | bits_of::<B>(&op.del));
            let id = actions
                .add_partial(&name, op.cost, pre, eff)
                .map_err(PlanError::from)?;
            for e in &op.effects {
                let when_true: B = bits_of(&e.pre);
                let condition =
                    PartialState::new(when_true.clone(), when_true | bits_of::<B>(&e.neg_pre));
                let add: B = bits_of(&e.add);
                let effect = PartialState::new(add.clone(), add | bits_of::<B>(&e.del));
                actions
                    .add_when(id, condition, effect)
                    .map_err(PlanError::from)?;
            }
        }
        if let Some(&f) = ground.goal.iter().find(|f| ground.goal_false.contains(f)) {
            return Err(PddlError::ContradictoryGoal {
                fact: ground.facts.get(f as usize).cloned().unwrap_or_default(),
            }
            .into());
        }
        let goal_true: B = bits_of(&ground.goal);
        let derived = if ground.axioms.is_empty() {
            None
        } else {
            Some(Box::new(Derived::new(ground, &actions)?))
        };
        let start = WorldState::new(bits_of(&ground.init));
        Ok(Self {
            start: match &derived {
                Some(d) => d.axioms.close(start),
                None => start,
            },
            actions,
            derived,
            goal: PartialState::new(
                goal_true.clone(),
                goal_true | bits_of::<B>(&ground.goal_false),
            ),
            action_costs: ground.action_costs,
            mutexes: Vec::new(),
            subsumption: Subsumption::Parent,
            mutex_pruned: AtomicU64::new(0),
            subsumption_pruned: AtomicU64::new(0),
            stubborn: None,
        })
    }

    /// The ground operators as atomic actions.
    pub fn actions(&self) -> &ActionSet<B> {
        &self.actions
    }

    /// The initial state.
    pub fn start(&self) -> WorldState<B> {
        self.start.clone()
    }

    /// The goal.
    pub fn goal(&self) -> PartialState<B> {
        self.goal.clone()
    }

    /// Makes regression prune subgoals with a pair of `mutexes`; see
    /// [`RegressionSpace::mutexes`].
    pub fn set_mutexes(&mut self, mutexes: &Mutexes) {
        self.mutexes = mutexes.table();
    }

    /// The heap memory the task holds, in bytes: its actions
    /// ([`ActionSet::heap_bytes`]), the axioms and their heuristics' view,
    /// and the mutex table.
    pub fn heap_bytes(&self) -> usize {
        let derived = self.derived.as_ref().map_or(0, |d| {
            let facts: usize = d.facts.iter().map(String::capacity).sum();
            size_of::<Derived<B>>()
                + d.axioms.heap_bytes()
                + d.view.heap_bytes()
                + d.predicates.capacity()
                + d.facts.capacity() * size_of::<String>()
                + facts
        });
        self.actions.heap_bytes()
            + derived
            + self.mutexes.capacity() * size_of::<B>()
            + self.mutexes.iter().map(Bits::heap_bytes).sum::<usize>()
    }

    /// Chooses regression's subsumption pruning.
    pub fn set_subsumption(&mut self, how: Subsumption) {
        self.subsumption = how;
    }

    /// Makes forward search expand only each state's strong stubborn set
    /// ([`ForwardSpace::stubborn_sets`]); not on a task with axioms,
    /// whose derived facts the sets do not see.
    pub fn set_stubborn_sets(&mut self, on: bool) {
        self.stubborn = (on && self.derived.is_none()).then(PruningTally::default);
    }

    /// What stubborn sets pruned, over every forward search run on this
    /// task so far; `None` when they are off.
    pub fn stubborn_sets(&self) -> Option<PruningStats> {
        self.stubborn.as_ref().map(PruningTally::total)
    }

    /// Regression successors dropped by mutex pruning, over every search
    /// run on this task so far.
    pub fn mutex_pruned(&self) -> u64 {
        self.mutex_pruned.load(Ordering::Relaxed)
    }

    /// Regression successors dropped by subsumption pruning, over every
    /// search run on this task so far.
    pub fn subsumption_pruned(&self) -> u64 {
        self.subsumption_pruned.load(Ordering::Relaxed)
    }

    /// The action ids of an IPC plan. A step names a ground operator; of
    /// the variants an ADL operator compiles to, the one that applies
    /// after the steps before it (replayed from the start) is chosen, or
    /// the first if none applies.
    ///
    /// # Errors
    /// [`PddlError::Plan`] naming the line of a step that is not a ground
    /// operator of this task.
    pub fn resolve(&self, plan: &IpcPlan) -> Result<Vec<ActionId>, PddlError> {
        let mut state = self.start.clone();
        let mut ids = Vec::with_capacity(plan.steps.len() + 1);
        for step in &plan.steps {
            let Some(id) = self.variant(&step.name, &mut state) else {
                return Err(PddlError::Plan {
                    file: plan.file.clone(),
                    at: step.at,
                    message: format!("`({})` is not an action of this task", step.name),
                });
            };
            ids.push(id);
        }
        // A disjunctive goal's action ends the plan (plans leave it out).
        if let Some(id) = self.variant(GOAL_ACTION, &mut state) {
            ids.push(id);
        }
        Ok(ids)
    }

    /// Of the actions called `name` (an operator's variants), the first
    /// that applies in `state`, or the first if none does; `state` moves
    /// on by it. `None` if no action is called `name`.
    fn variant(&self, name: &str, state: &mut WorldState<B>) -> Option<ActionId> {
        let first = self.actions.find(name)?;
        let variants = std::iter::once(first)
            .chain((2..).map_while(|k| self.actions.find(&variant_name(name, k))));
        let mut chosen = first;
        for id in variants {
            if self
                .actions
                .action(id)
                .is_some_and(|a| state.satisfies(&a.pre))
            {
                chosen = id;
                break;
            }
        }
        if let Some(action) = self.actions.action(chosen) {
            *state = self.close(state.apply_when(&action.eff, &action.when));
        }
        Some(chosen)
    }

    /// Replays an IPC plan from the initial state and checks the goal;
    /// returns its cost.
    ///
    /// # Errors
    /// As for [`resolve`](Self::resolve), and [`SolveError::Planner`] with
    /// [`PlanError::Invalid`] naming the first step that does not apply or
    /// the goal fact that is not reached.
    pub fn validate(&self, plan: &IpcPlan) -> Result<u64, SolveError> {
        let ids = self.resolve(plan)?;
        Ok(self.replay(&self.start, &self.goal, &ids)?)
    }

    /// Whether the task has derived predicates (axioms).
    pub fn has_axioms(&self) -> bool {
        self.derived.is_some()
    }

    /// `state` closed under the axioms (itself without them).
    pub fn close(&self, state: WorldState<B>) -> WorldState<B> {
        match &self.derived {
            Some(d) => d.axioms.close(state),
            None => state,
        }
    }

    /// Replays `plan` from `start`, closing each state under the axioms,
    /// and checks `goal`; returns the plan's cost.
    fn replay(
        &self,
        start: &WorldState<B>,
        goal: &PartialState<B>,
        plan: &[ActionId],
    ) -> Result<u64, PlanError> {
        let Some(derived) = &self.derived else {
            return PlanningDomain::validate(&self.actions, start, goal, plan);
        };
        let first_wrong = |state: &WorldState<B>, partial: &PartialState<B>| {
            let mut first = None;
            ((state.bits() ^ partial.as_values()) & partial.as_care()).for_each_one(|i| {
                first.get_or_insert(i);
            });
            first
                .and_then(|i| derived.facts.get(i))
                .map_or("?", String::as_str)
                .to_owned()
        };
        let invalid = |e: state_atomic::AtomicError| PlanError::Invalid(e.to_string());
        let mut state = self.close(start.clone());
        let mut cost = 0;
        for (step, &id) in plan.iter().enumerate() {
            let action = self.actions.action(id).ok_or(invalid(
                state_atomic::AtomicError::UnknownAction { index: id.index() },
            ))?;
            if !state.satisfies(&action.pre) {
                return Err(invalid(state_atomic::AtomicError::NotApplicable {
                    action: action.name.clone(),
                    step,
                    atom: first_wrong(&state, &action.pre),
                }));
            }
            state = self.close(state.apply_when(&action.eff, &action.when));
            cost += u64::from(action.cost);
        }
        if !state.satisfies(goal) {
            return Err(invalid(state_atomic::AtomicError::GoalNotReached {
                atom: first_wrong(&state, goal),
            }));
        }
        Ok(cost)
    }

    /// Whether the actions have their own costs (see
    /// [`GroundTask::action_costs`]).
    pub fn has_action_costs(&self) -> bool {
        self.action_costs
    }

    /// The IPC plan of a plan's actions; with action costs it carries the
    /// plan's cost ([`IpcPlan::general_cost`]).
    pub fn to_ipc(&self, actions: &[ActionId]) -> IpcPlan {
        let mut plan = IpcPlan::from_names(
            actions
                .iter()
                .map(|&id| plan_step_name(self.actions.name(id)))
                .filter(|&name| name != GOAL_ACTION),
        );
        if self.action_costs {
            plan.general_cost = Some(
                actions
                    .iter()
                    .filter_map(|&id| self.actions.action(id))
                    .map(|a| u64::from(a.cost))
                    .sum(),
            );
        }
        plan
    }
}

impl<B: Bits> Derived<B> {
    fn new(ground: &GroundTask, actions: &ActionSet<B>) -> Result<Self, SolveError> {
        let axioms = Axioms::new(ground)?;
        let mut view = actions.clone();
        for (i, axiom) in ground.axioms.iter().enumerate() {
            let pre_true: B = bits_of(&axiom.pre);
            let pre = PartialState::new(pre_true.clone(), pre_true | bits_of::<B>(&axiom.neg_pre));
            let add: B = bits_of(&axiom.add);
            let name = format!("<axiom {i}: ({})>", axiom.name);
            view.add_partial(&name, 0, pre, PartialState::new(add.clone(), add))
                .map_err(PlanError::from)?;
        }
        for f in negated_derived(ground) {
            let fact = ground.facts.get(f as usize).map_or("?", String::as_str);
            let name = format!("<not {fact}>");
            let bit: B = B::bit(f as usize);
            view.add_partial(
                &name,
                0,
                PartialState::empty(),
                PartialState::new(B::zero(), bit),
            )
            .map_err(PlanError::from)?;
        }
        let mut predicates: Vec<&str> = ground
            .axioms
            .iter()
            .map(|a| a.name.split(' ').next().unwrap_or_default())
            .collect();
        predicates.sort_unstable();
        predicates.dedup();
        Ok(Self {
            axioms,
            view,
            predicates: predicates.join(", "),
            facts: ground.facts.clone(),
        })
    }
}

/// The forward space of a [`Task`]: state-atomic's [`ForwardSpace`], each
/// successor closed under the task's axioms (if any) before it is tested
/// or stored.
pub struct TaskForward<'a, B: Bits> {
    space: ForwardSpace<'a, B>,
    axioms: Option<&'a Axioms<B>>,
}

impl<B: Bits> SearchSpace for TaskForward<'_, B> {
    type Node = WorldState<B>;
    type Action = ActionId;
    type Cost = u32;

    #[inline]
    fn is_goal(&self, node: &WorldState<B>) -> bool {
        self.space.is_goal(node)
    }

    #[inline]
    fn successors<F>(&self, node: &WorldState<B>, mut emit: F)
    where
        F: FnMut(ActionId, WorldState<B>, u32),
    {
        match self.axioms {
            None => self.space.successors(node, emit),
            Some(axioms) => self
                .space
                .successors(node, |id, next, cost| emit(id, axioms.close(next), cost)),
        }
    }

    fn action_between(
        &self,
        parent: &WorldState<B>,
        child: &WorldState<B>,
    ) -> Option<(ActionId, u32)> {
        let Some(axioms) = self.axioms else {
            return self.space.action_between(parent, child);
        };
        let mut cheapest = CheapestStep::to(child);
        self.space.plain_successors(parent, |id, next, cost| {
            cheapest.offer(id, &axioms.close(next), cost);
        });
        cheapest.found()
    }

    #[inline]
    fn node_heap_bytes(&self, node: &WorldState<B>) -> usize {
        self.space.node_heap_bytes(node)
    }
}

/// A heuristic on the view of a task with axioms, whose preferred steps
/// are asked about with the child's derived facts as the parent's: the
/// view's actions (FF's helpful actions) change no derived fact by
/// themselves, the axioms do.
struct ClosedChild<'a, B: Bits> {
    heuristic: BoxedHeuristic<'a, WorldState<B>>,
    derived: B,
}

impl<B: Bits> search_core::Heuristic<WorldState<B>, u32> for ClosedChild<'_, B> {
    fn estimate(&mut self, node: &WorldState<B>) -> search_core::Estimate<u32> {
        self.heuristic.estimate(node)
    }

    fn is_admissible(&self) -> bool {
        self.heuristic.is_admissible()
    }

    fn is_consistent(&self) -> bool {
        self.heuristic.is_consistent()
    }

    fn is_cheap(&self) -> bool {
        self.heuristic.is_cheap()
    }

    fn notify_transition(&mut self, parent: &WorldState<B>, child: &WorldState<B>) {
        self.heuristic.notify_transition(parent, child);
    }

    fn is_preferred(&mut self, parent: &WorldState<B>, child: &WorldState<B>) -> bool {
        let unclosed = (child.bits() & !self.derived.clone()) | (parent.bits() & &self.derived);
        self.heuristic.is_preferred(parent, child)
            || self
                .heuristic
                .is_preferred(parent, &WorldState::new(unclosed))
    }

    fn dead_ends_are_reliable(&self) -> bool {
        self.heuristic.dead_ends_are_reliable()
    }

    fn memory_bytes(&self) -> usize {
        self.heuristic.memory_bytes()
    }

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.heuristic.set_deadline(deadline);
    }

    fn set_memory_budget(&mut self, bytes: Option<usize>) {
        self.heuristic.set_memory_budget(bytes);
    }
}

/// The regression space of a [`Task`]: state-atomic's [`RegressionSpace`]
/// with the task's mutexes; its pruning counts are added to the task's when
/// it is dropped.
pub struct TaskRegression<'a, B: Bits> {
    space: RegressionSpace<'a, B>,
    task: &'a Task<B>,
}

impl<B: Bits> SearchSpace for TaskRegression<'_, B> {
    type Node = PartialState<B>;
    type Action = ActionId;
    type Cost = u32;

    #[inline]
    fn is_goal(&self, node: &PartialState<B>) -> bool {
        self.space.is_goal(node)
    }

    #[inline]
    fn successors<F>(&self, node: &PartialState<B>, emit: F)
    where
        F: FnMut(ActionId, PartialState<B>, u32),
    {
        self.space.successors(node, emit);
    }

    fn action_between(
        &self,
        parent: &PartialState<B>,
        child: &PartialState<B>,
    ) -> Option<(ActionId, u32)> {
        self.space.action_between(parent, child)
    }

    #[inline]
    fn node_heap_bytes(&self, node: &PartialState<B>) -> usize {
        self.space.node_heap_bytes(node)
    }
}

impl<B: Bits> Drop for TaskRegression<'_, B> {
    fn drop(&mut self) {
        self.task
            .mutex_pruned
            .fetch_add(self.space.mutex_pruned(), Ordering::Relaxed);
        self.task
            .subsumption_pruned
            .fetch_add(self.space.pruned(), Ordering::Relaxed);
    }
}

impl<B: Bits> PlanningDomain for Task<B> {
    type State = WorldState<B>;
    type Goal = PartialState<B>;
    type Subgoal = PartialState<B>;
    type ActionId = ActionId;
    type Forward<'a> = TaskForward<'a, B>;
    type Regression<'a> = TaskRegression<'a, B>;

    fn forward<'a>(&'a self, goal: &'a PartialState<B>) -> Result<TaskForward<'a, B>, PlanError> {
        let space = self.actions.forward(goal)?;
        let space = match &self.stubborn {
            Some(tally) => space.stubborn_sets().report_to(tally),
            None => space,
        };
        Ok(TaskForward {
            space,
            axioms: self.derived.as_ref().map(|d| &d.axioms),
        })
    }

    fn regression<'a>(
        &'a self,
        start: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Result<(TaskRegression<'a, B>, PartialState<B>), PlanError> {
        if let Some(derived) = &self.derived {
            return Err(PlanError::DerivedPredicates {
                predicates: derived.predicates.clone(),
            });
        }
        let space = RegressionSpace::new(&self.actions, start.clone(), goal.clone())?
            .subsumption(self.subsumption)
            .mutexes(self.mutexes.clone());
        Ok((TaskRegression { space, task: self }, goal.clone()))
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
        crate::atomic::front_to_front(self.task_view(), goal, name)
    }

    type View = ActionSet<B>;

    fn task_view(&self) -> &ActionSet<B> {
        self.derived.as_ref().map_or(&self.actions, |d| &d.view)
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
        match &self.derived {
            None => heuristic,
            Some(derived) => Box::new(ClosedChild {
                heuristic,
                derived: derived.axioms.derived(),
            }),
        }
    }

    fn view_regression<'a>(
        &'a self,
        heuristic: BoxedHeuristic<'a, PartialState<B>>,
    ) -> BoxedHeuristic<'a, PartialState<B>> {
        heuristic
    }

    /// Owned where no axiom closes a state (the closing adapter reads the
    /// task's axioms).
    fn view_owned_forward(
        &self,
        heuristic: BoxedHeuristic<'static, WorldState<B>>,
    ) -> Option<BoxedHeuristic<'static, WorldState<B>>> {
        self.derived.is_none().then_some(heuristic)
    }

    fn view_owned_regression(
        &self,
        heuristic: BoxedHeuristic<'static, PartialState<B>>,
    ) -> Option<BoxedHeuristic<'static, PartialState<B>>> {
        Some(heuristic)
    }

    fn action_name(&self, id: ActionId) -> &str {
        self.actions.name(id)
    }

    fn describe_state(&self, state: &WorldState<B>) -> String {
        self.actions.describe_state(state)
    }

    fn describe_subgoal(&self, subgoal: &PartialState<B>) -> String {
        self.actions.describe_subgoal(subgoal)
    }

    fn validate(
        &self,
        start: &WorldState<B>,
        goal: &PartialState<B>,
        plan: &[ActionId],
    ) -> Result<u64, PlanError> {
        self.replay(start, goal, plan)
    }
}
