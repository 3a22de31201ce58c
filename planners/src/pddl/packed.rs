//! A grounded task on packed (finite-domain) states; see [`Packing`].

use search_core::bidirectional::{FrontToFront, Meeting};
use state_atomic::AtomicMeeting;
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicU64, Ordering};

use search_core::{CheapestStep, SearchSpace, Viewed};
use state_atomic::{
    ActionId, ActionSet, Bits, ForwardSpace, PartialState, PruningStats, PruningTally,
    RegressionSpace, SparseBits, Subsumption, Wide, WorldState,
};

use searchlab_pddl::{GroundTask, IpcPlan, Mutexes, Packing, PddlError};

use super::{GroundedDomain, GroundedTask, SolveError, Task};
use crate::{BoxedFrontToFront, BoxedHeuristic, PlanError, PlanningDomain};

/// A grounded PDDL task whose search runs on packed states `Bp` (one
/// field per group of mutually exclusive facts, see [`Packing`]) while its
/// heuristics read the fact-level task on `Bf` ([`Task`]), so they
/// estimate exactly what they estimate unpacked. Plans, names and
/// validation are the fact-level task's.
///
/// ```
/// use planners::pddl::{ground, h2_mutexes, parse_domain, parse_problem, GroundingLimits, Packing, PackedTask};
/// use planners::{heuristics::heuristic, Planner, PlannerConfig};
/// use state_atomic::Wide;
/// let domain = parse_domain("d", "(define (domain d) (:predicates (at ?x) (road ?x ?y)) \
///     (:action go :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y)) \
///      :effect (and (at ?y) (not (at ?x)))))").unwrap();
/// let problem = parse_problem(&domain, "p", "(define (problem p) (:domain d) (:objects a b c) \
///     (:init (at a) (road a b) (road b c)) (:goal (at c)))").unwrap();
/// let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
/// let packing = Packing::new(&task, &h2_mutexes(&task));
/// let packed = PackedTask::<u64, Wide<2>>::new(&task, packing).unwrap().unwrap();
/// let config = PlannerConfig { heuristic: heuristic("lmcut").unwrap(), ..PlannerConfig::default() };
/// let report = Planner::new(config).plan(&packed, &packed.start(), &packed.goal()).unwrap();
/// assert_eq!(report.plan().unwrap().cost, 2);
/// ```
#[derive(Debug)]
pub struct PackedTask<Bp: Bits, Bf: Bits> {
    packing: Packing,
    actions: ActionSet<Bp>,
    /// Per packed action: the fact-level task's action index.
    fact_actions: Vec<usize>,
    start: WorldState<Bp>,
    goal: PartialState<Bp>,
    facts: Task<Bf>,
    mutexes: Option<Mutexes>,
    subsumption: Subsumption,
    mutex_pruned: AtomicU64,
    subsumption_pruned: AtomicU64,
    /// Forward search's stubborn sets, when on: their counts.
    stubborn: Option<PruningTally>,
}

impl<Bp: Bits, Bf: Bits> PackedTask<Bp, Bf> {
    /// The task `ground` packed by `packing` (made for it). `None` when the
    /// start or goal do not pack: a goal that wants two facts of one group
    /// (no plan reaches it, and the unpacked task says so), or a task with
    /// derived predicates (axioms) or conditional effects, which is
    /// searched unpacked.
    ///
    /// # Errors
    /// As for [`Task::new`] on `Bf`, and [`PddlError::TooManyFacts`] if
    /// the packed state does not fit `Bp`.
    pub fn new(ground: &GroundTask, packing: Packing) -> Result<Option<Self>, SolveError> {
        if !ground.axioms.is_empty() || ground.has_conditional_effects() {
            return Ok(None);
        }
        let mut facts = Task::<Bf>::new(ground)?;
        // The groups are h^2-mutex: heuristics that read finite-domain
        // variables (ipdb) take each as one.
        facts.set_mutex_groups(&packing)?;
        let too_many = || PddlError::TooManyFacts {
            facts: packing.bits(),
            capacity: Bp::CAPACITY,
        };
        if packing.words() * 64 > Bp::CAPACITY {
            return Err(too_many().into());
        }
        let mut actions = ActionSet::<Bp>::new();
        for bit in 0..packing.words() * 64 {
            actions
                .declare(&format!("packed bit {bit}"))
                .map_err(|_| too_many())?;
        }
        let mut fact_actions = Vec::new();
        let usable = ground
            .operators
            .iter()
            .filter(|op| !op.pre.iter().any(|f| op.neg_pre.contains(f)));
        // The fact-level task has one action per usable operator, in
        // order, named as plans and traces know it (an ADL operator's
        // variants marked apart), so each packed action takes its name.
        for ((index, op), fact_action) in usable.enumerate().zip(facts.actions().iter()) {
            // Operators that want or add two facts of a group never apply
            // in a reachable state.
            let pre = packing.partial(&op.pre, &op.neg_pre);
            let (Some(pre), Some(eff)) = (pre, packing.effect(op)) else {
                continue;
            };
            actions
                .add_partial(&fact_action.name, op.cost, pre, eff)
                .map_err(PlanError::from)?;
            fact_actions.push(index);
        }
        let (Some(start), Some(goal)) = (
            packing.encode(&ground.init),
            packing.partial(&ground.goal, &ground.goal_false),
        ) else {
            return Ok(None);
        };
        Ok(Some(Self {
            packing,
            actions,
            fact_actions,
            start,
            goal,
            facts,
            mutexes: None,
            subsumption: Subsumption::Parent,
            mutex_pruned: AtomicU64::new(0),
            subsumption_pruned: AtomicU64::new(0),
            stubborn: None,
        }))
    }

    /// The packing.
    pub fn packing(&self) -> &Packing {
        &self.packing
    }

    /// The packed actions.
    pub fn actions(&self) -> &ActionSet<Bp> {
        &self.actions
    }

    /// The fact-level task: what heuristics read, and what checks plans.
    pub fn facts(&self) -> &Task<Bf> {
        &self.facts
    }

    /// The packed initial state.
    pub fn start(&self) -> WorldState<Bp> {
        self.start.clone()
    }

    /// The packed goal.
    pub fn goal(&self) -> PartialState<Bp> {
        self.goal.clone()
    }

    /// Makes regression prune subgoals that want a pair of `mutexes`.
    pub fn set_mutexes(&mut self, mutexes: &Mutexes) {
        self.mutexes = Some(mutexes.clone());
    }

    /// The heap memory the task holds, in bytes: the packed actions, the
    /// fact-level task beside them, the packing and the mutexes.
    pub fn heap_bytes(&self) -> usize {
        self.actions.heap_bytes()
            + self.fact_actions.capacity() * size_of::<usize>()
            + self.facts.heap_bytes()
            + self.packing.heap_bytes()
            + self.mutexes.as_ref().map_or(0, Mutexes::heap_bytes)
    }

    /// Chooses regression's subsumption pruning.
    pub fn set_subsumption(&mut self, how: Subsumption) {
        self.subsumption = how;
    }

    /// See [`Task::set_stubborn_sets`]: on the packed fields' bits.
    pub fn set_stubborn_sets(&mut self, on: bool) {
        self.stubborn = on.then(PruningTally::default);
    }
}

impl<Bp: Bits, Bf: Bits> GroundedDomain for PackedTask<Bp, Bf> {
    fn start_state(&self) -> WorldState<Bp> {
        self.start.clone()
    }

    fn goal_state(&self) -> PartialState<Bp> {
        self.goal.clone()
    }

    fn fact_action(&self, id: ActionId) -> usize {
        self.fact_actions
            .get(id.index())
            .copied()
            .unwrap_or(usize::MAX)
    }

    fn to_ipc(&self, actions: &[ActionId]) -> IpcPlan {
        let ids: Vec<ActionId> = actions
            .iter()
            .filter_map(|&id| self.facts.actions().find(self.actions.name(id)))
            .collect();
        self.facts.to_ipc(&ids)
    }

    fn validate_ipc(&self, plan: &IpcPlan) -> Result<u64, SolveError> {
        self.facts.validate(plan)
    }

    fn mutex_pruned(&self) -> u64 {
        self.mutex_pruned.load(Ordering::Relaxed)
    }

    fn subsumption_pruned(&self) -> u64 {
        self.subsumption_pruned.load(Ordering::Relaxed)
    }

    fn stubborn_sets(&self) -> Option<PruningStats> {
        self.stubborn.as_ref().map(PruningTally::total)
    }
}

/// The regression space of a [`PackedTask`]: state-atomic's
/// [`RegressionSpace`] on packed subgoals, pruning those that want a mutex
/// pair of facts; its pruning counts are added to the task's when it is
/// dropped.
pub struct PackedRegression<'a, B: Bits> {
    space: RegressionSpace<'a, B>,
    actions: &'a ActionSet<B>,
    packing: &'a Packing,
    mutexes: Option<&'a Mutexes>,
    facts: RefCell<Vec<u32>>,
    mutex_pruned: Cell<u64>,
    counts: [&'a AtomicU64; 2],
}

impl<B: Bits> PackedRegression<'_, B> {
    /// Whether the facts `partial` wants true hold a mutex pair.
    fn has_mutex(&self, mutexes: &Mutexes, partial: &PartialState<B>) -> bool {
        let mut facts = self.facts.borrow_mut();
        facts.clear();
        self.packing.true_facts(partial, |f| facts.push(f));
        facts.iter().enumerate().any(|(i, &p)| {
            facts[i + 1..]
                .iter()
                .any(|&q| mutexes.are_mutex(p as usize, q as usize))
        })
    }

    /// Whether regressing `node` through action `id` to `sub` wants a
    /// mutex pair, as unpacked: in the state right after the action, or in
    /// the one before it.
    fn breaks_mutex(
        &self,
        mutexes: &Mutexes,
        node: &PartialState<B>,
        id: ActionId,
        sub: &PartialState<B>,
    ) -> bool {
        let Some(action) = self.actions.action(id) else {
            return true;
        };
        let eff = &action.eff;
        let after = PartialState::new(
            (node.values() & !eff.care()) | (eff.values() & eff.as_care()),
            node.care() | eff.as_care(),
        );
        self.has_mutex(mutexes, &after) || self.has_mutex(mutexes, sub)
    }
}

impl<B: Bits> SearchSpace for PackedRegression<'_, B> {
    type Node = PartialState<B>;
    type Action = ActionId;
    type Cost = u32;

    #[inline]
    fn is_goal(&self, node: &PartialState<B>) -> bool {
        self.space.is_goal(node)
    }

    #[inline]
    fn successors<F>(&self, node: &PartialState<B>, mut emit: F)
    where
        F: FnMut(ActionId, PartialState<B>, u32),
    {
        let Some(mutexes) = self.mutexes else {
            return self.space.successors(node, emit);
        };
        self.space.successors(node, |id, sub, cost| {
            if self.breaks_mutex(mutexes, node, id, &sub) {
                self.mutex_pruned.set(self.mutex_pruned.get() + 1);
            } else {
                emit(id, sub, cost);
            }
        });
    }

    /// From the plain successors, as [`RegressionSpace`]'s, without
    /// counting what the mutexes prune.
    fn action_between(
        &self,
        parent: &PartialState<B>,
        child: &PartialState<B>,
    ) -> Option<(ActionId, u32)> {
        let mut cheapest = CheapestStep::to(child);
        self.space.plain_successors(parent, |id, sub, cost| {
            if !self
                .mutexes
                .is_some_and(|mutexes| self.breaks_mutex(mutexes, parent, id, &sub))
            {
                cheapest.offer(id, &sub, cost);
            }
        });
        cheapest.found()
    }

    #[inline]
    fn node_heap_bytes(&self, node: &PartialState<B>) -> usize {
        self.space.node_heap_bytes(node)
    }
}

impl<B: Bits> Drop for PackedRegression<'_, B> {
    fn drop(&mut self) {
        self.counts[0].fetch_add(self.mutex_pruned.get(), Ordering::Relaxed);
        self.counts[1].fetch_add(self.space.pruned(), Ordering::Relaxed);
    }
}

impl<Bp: Bits, Bf: Bits> PlanningDomain for PackedTask<Bp, Bf> {
    type State = WorldState<Bp>;
    type Goal = PartialState<Bp>;
    type Subgoal = PartialState<Bp>;
    type ActionId = ActionId;
    type Forward<'a> = ForwardSpace<'a, Bp>;
    type Regression<'a> = PackedRegression<'a, Bp>;

    fn forward<'a>(
        &'a self,
        goal: &'a PartialState<Bp>,
    ) -> Result<ForwardSpace<'a, Bp>, PlanError> {
        let space = self.actions.forward(goal)?;
        Ok(match &self.stubborn {
            Some(tally) => space.stubborn_sets().report_to(tally),
            None => space,
        })
    }

    fn regression<'a>(
        &'a self,
        start: &'a WorldState<Bp>,
        goal: &'a PartialState<Bp>,
    ) -> Result<(PackedRegression<'a, Bp>, PartialState<Bp>), PlanError> {
        let space = RegressionSpace::new(&self.actions, start.clone(), goal.clone())?
            .subsumption(self.subsumption);
        let regression = PackedRegression {
            space,
            actions: &self.actions,
            packing: &self.packing,
            mutexes: self.mutexes.as_ref(),
            facts: RefCell::new(Vec::new()),
            mutex_pruned: Cell::new(0),
            counts: [&self.mutex_pruned, &self.subsumption_pruned],
        };
        Ok((regression, goal.clone()))
    }

    fn satisfies(&self, state: &Self::State, subgoal: &Self::Subgoal) -> bool {
        state.satisfies(subgoal)
    }

    fn meeting(&self) -> impl Meeting<Self::State, Self::Subgoal> + '_ {
        AtomicMeeting::default()
    }

    fn execution_order(&self, regressed: &[ActionId]) -> Vec<ActionId> {
        RegressionSpace::<Bp>::execution_order(regressed)
    }

    fn front_to_front(
        &self,
        name: &str,
        goal: &PartialState<Bp>,
    ) -> Result<BoxedFrontToFront<'_, WorldState<Bp>, PartialState<Bp>>, PlanError> {
        let goal = self.packing.decode_partial::<Bp, Bf>(goal);
        Ok(Box::new(Decoded {
            facts: crate::atomic::front_to_front(self.facts.actions(), &goal, name)?,
            packing: &self.packing,
        }))
    }

    type View = ActionSet<Bf>;

    fn task_view(&self) -> &ActionSet<Bf> {
        self.facts.actions()
    }

    fn view_problem<'s>(
        &'s self,
        start: &'s WorldState<Bp>,
        goal: &'s PartialState<Bp>,
    ) -> (Cow<'s, WorldState<Bf>>, Cow<'s, PartialState<Bf>>) {
        (
            Cow::Owned(self.packing.decode(start)),
            Cow::Owned(self.packing.decode_partial(goal)),
        )
    }

    fn view_forward<'a>(
        &'a self,
        heuristic: BoxedHeuristic<'a, WorldState<Bf>>,
    ) -> BoxedHeuristic<'a, WorldState<Bp>> {
        let packing = &self.packing;
        Box::new(Viewed::new(heuristic, move |node: &WorldState<Bp>| {
            packing.decode::<Bp, Bf>(node)
        }))
    }

    fn view_regression<'a>(
        &'a self,
        heuristic: BoxedHeuristic<'a, PartialState<Bf>>,
    ) -> BoxedHeuristic<'a, PartialState<Bp>> {
        let packing = &self.packing;
        Box::new(Viewed::new(heuristic, move |node: &PartialState<Bp>| {
            packing.decode_partial::<Bp, Bf>(node)
        }))
    }

    fn action_name(&self, id: ActionId) -> &str {
        self.actions.name(id)
    }

    /// The facts the packed state holds.
    fn describe_state(&self, state: &WorldState<Bp>) -> String {
        self.facts
            .describe_state(&self.packing.decode::<Bp, Bf>(state))
    }

    /// The fact condition of the packed subgoal.
    fn describe_subgoal(&self, subgoal: &PartialState<Bp>) -> String {
        self.facts
            .describe_subgoal(&self.packing.decode_partial::<Bp, Bf>(subgoal))
    }

    fn validate(
        &self,
        start: &WorldState<Bp>,
        goal: &PartialState<Bp>,
        plan: &[ActionId],
    ) -> Result<u64, PlanError> {
        PlanningDomain::validate(&self.actions, start, goal, plan)
    }
}

/// Something to do with a grounded task, packed or not; see
/// [`PackedGroundedTask::visit`] and [`GroundedTask::visit_domain`](super::GroundedTask::visit_domain).
pub trait DomainVisitor {
    /// What the visit returns.
    type Output;
    /// Runs on the task.
    fn visit<D: GroundedDomain>(self, task: &D) -> Self::Output;
}

macro_rules! packed_pairs {
    ($($variant:ident: $bp:ty, $pw:literal, $bf:ty, $fw:literal;)*) => {
        /// A grounded task packed onto the narrowest state that holds its
        /// fields, when that is narrower than its facts' state: one of a
        /// few (packed, fact) width pairs, to bound how much search code
        /// is compiled, and beyond the fixed widths [`SparseBits`] for
        /// both.
        #[derive(Debug)]
        #[non_exhaustive]
        pub enum PackedGroundedTask {
            $(
                #[doc = concat!("Packed on ", stringify!($pw), " word(s), facts on ", stringify!($fw), ".")]
                $variant(Box<PackedTask<$bp, $bf>>),
            )*
            /// More than 32,768 facts, packed on fewer words.
            Sparse(Box<PackedTask<SparseBits, SparseBits>>),
        }

        impl PackedGroundedTask {
            const PAIRS: &'static [(usize, usize)] = &[$(($pw, $fw)),*];

            fn at(ground: &GroundTask, packing: Packing, pw: usize, fw: usize) -> Result<Option<Self>, SolveError> {
                Ok(match (pw, fw) {
                    $(($pw, $fw) => PackedTask::<$bp, $bf>::new(ground, packing)?
                        .map(|t| PackedGroundedTask::$variant(Box::new(t))),)*
                    _ => None,
                })
            }

            /// The packed state's width in 64-bit words (on a
            /// [`SparseBits`], the words its fields span).
            pub fn words(&self) -> usize {
                match self {
                    $(PackedGroundedTask::$variant(_) => $pw,)*
                    PackedGroundedTask::Sparse(t) => t.packing().words(),
                }
            }

            /// The fact state's width in 64-bit words (on a
            /// [`SparseBits`], the words its facts span).
            pub fn fact_words(&self) -> usize {
                match self {
                    $(PackedGroundedTask::$variant(_) => $fw,)*
                    PackedGroundedTask::Sparse(t) => {
                        t.facts().actions().registry().len().div_ceil(64)
                    }
                }
            }

            /// The packing.
            pub fn packing(&self) -> &Packing {
                match self {
                    $(PackedGroundedTask::$variant(t) => t.packing(),)*
                    PackedGroundedTask::Sparse(t) => t.packing(),
                }
            }

            /// Runs `visitor` on the task at its widths.
            pub fn visit<V: DomainVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $(PackedGroundedTask::$variant(t) => visitor.visit(&**t),)*
                    PackedGroundedTask::Sparse(t) => visitor.visit(&**t),
                }
            }

            /// See [`PackedTask::set_mutexes`].
            pub fn set_mutexes(&mut self, mutexes: &Mutexes) {
                match self {
                    $(PackedGroundedTask::$variant(t) => t.set_mutexes(mutexes),)*
                    PackedGroundedTask::Sparse(t) => t.set_mutexes(mutexes),
                }
            }

            /// See [`PackedTask::set_subsumption`].
            pub fn set_subsumption(&mut self, how: Subsumption) {
                match self {
                    $(PackedGroundedTask::$variant(t) => t.set_subsumption(how),)*
                    PackedGroundedTask::Sparse(t) => t.set_subsumption(how),
                }
            }

            /// See [`PackedTask::set_stubborn_sets`].
            pub fn set_stubborn_sets(&mut self, on: bool) {
                match self {
                    $(PackedGroundedTask::$variant(t) => t.set_stubborn_sets(on),)*
                    PackedGroundedTask::Sparse(t) => t.set_stubborn_sets(on),
                }
            }

            /// See [`PackedTask::heap_bytes`].
            pub fn heap_bytes(&self) -> usize {
                match self {
                    $(PackedGroundedTask::$variant(t) => t.heap_bytes(),)*
                    PackedGroundedTask::Sparse(t) => t.heap_bytes(),
                }
            }
        }
    };
}

packed_pairs! {
    P1F2: u64, 1, Wide<2>, 2;
    P1F3: u64, 1, Wide<3>, 3;
    P1F4: u64, 1, Wide<4>, 4;
    P2F3: Wide<2>, 2, Wide<3>, 3;
    P2F4: Wide<2>, 2, Wide<4>, 4;
    P3F4: Wide<3>, 3, Wide<4>, 4;
    P1F8: u64, 1, Wide<8>, 8;
    P2F8: Wide<2>, 2, Wide<8>, 8;
    P4F8: Wide<4>, 4, Wide<8>, 8;
    P2F16: Wide<2>, 2, Wide<16>, 16;
    P4F16: Wide<4>, 4, Wide<16>, 16;
    P8F16: Wide<8>, 8, Wide<16>, 16;
    P4F32: Wide<4>, 4, Wide<32>, 32;
    P8F32: Wide<8>, 8, Wide<32>, 32;
    P16F32: Wide<16>, 16, Wide<32>, 32;
    P8F64: Wide<8>, 8, Wide<64>, 64;
    P16F64: Wide<16>, 16, Wide<64>, 64;
    P32F64: Wide<32>, 32, Wide<64>, 64;
    P32F128: Wide<32>, 32, Wide<128>, 128;
    P64F128: Wide<64>, 64, Wide<128>, 128;
    P64F256: Wide<64>, 64, Wide<256>, 256;
    P128F256: Wide<128>, 128, Wide<256>, 256;
    P128F512: Wide<128>, 128, Wide<512>, 512;
    P256F512: Wide<256>, 256, Wide<512>, 512;
}

impl PackedGroundedTask {
    /// `ground` packed by `packing` (made for it), if that saves words:
    /// on the narrowest packed width of the listed pairs that holds the
    /// fields and is narrower than the facts' width, or beyond the fixed
    /// widths on [`SparseBits`] if the fields span fewer words than the
    /// facts. `None` when it saves none, the start or goal do not pack, or
    /// the task has axioms ([`PackedTask::new`]).
    ///
    /// # Errors
    /// As for [`PackedTask::new`].
    pub fn new(ground: &GroundTask, packing: Packing) -> Result<Option<Self>, SolveError> {
        let Some(fw) = GroundedTask::words_for(ground.facts.len()) else {
            if packing.words() >= ground.facts.len().div_ceil(64) {
                return Ok(None);
            }
            let task = PackedTask::<SparseBits, SparseBits>::new(ground, packing)?;
            return Ok(task.map(|t| PackedGroundedTask::Sparse(Box::new(t))));
        };
        let pair = GroundedTask::WIDTHS
            .into_iter()
            .filter(|&pw| pw >= packing.words() && pw < fw)
            .find(|&pw| Self::PAIRS.contains(&(pw, fw)));
        match pair {
            Some(pw) => Self::at(ground, packing, pw, fw),
            None => Ok(None),
        }
    }
}

/// A front-to-front heuristic on the fact-level view, asked of packed
/// states and subgoals.
struct Decoded<'a, Bf: Bits> {
    facts: BoxedFrontToFront<'a, WorldState<Bf>, PartialState<Bf>>,
    packing: &'a Packing,
}

impl<Bp: Bits, Bf: Bits> FrontToFront<WorldState<Bp>, PartialState<Bp>, u32> for Decoded<'_, Bf> {
    fn estimate(
        &mut self,
        state: &WorldState<Bp>,
        subgoal: &PartialState<Bp>,
    ) -> search_core::Estimate<u32> {
        let state = self.packing.decode::<Bp, Bf>(state);
        let subgoal = self.packing.decode_partial::<Bp, Bf>(subgoal);
        self.facts.estimate(&state, &subgoal)
    }

    fn memory_bytes(&self) -> usize {
        self.facts.memory_bytes()
    }
}
