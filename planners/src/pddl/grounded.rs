//! What solving needs of a grounded task, whatever its state
//! ([`GroundedDomain`]), and [`GroundedTask`]: a ground task on the
//! narrowest atomic state that holds it.

use state_atomic::{
    ActionId, Bits, PartialState, PruningStats, SparseBits, Subsumption, Wide, WorldState,
};

use searchlab_pddl::{GroundTask, IpcPlan, Mutexes};

use super::{SolveError, Task};
use crate::PlanningDomain;

/// What solving needs of a grounded task, packed ([`PackedTask`]) or not
/// ([`Task`]), beyond planning on it.
///
/// [`PackedTask`]: super::PackedTask
pub trait GroundedDomain:
    PlanningDomain<ActionId = ActionId, State: Sync, Goal: Sync> + Sized
{
    /// The initial state.
    fn start_state(&self) -> Self::State;
    /// The goal.
    fn goal_state(&self) -> Self::Goal;
    /// The index of action `id` among the fact-level task's actions.
    fn fact_action(&self, id: ActionId) -> usize;
    /// The IPC plan of a plan's actions; see [`Task::to_ipc`].
    fn to_ipc(&self, actions: &[ActionId]) -> IpcPlan;
    /// Replays an IPC plan on the fact-level task; see [`Task::validate`].
    ///
    /// # Errors
    /// As for [`Task::validate`].
    fn validate_ipc(&self, plan: &IpcPlan) -> Result<u64, SolveError>;
    /// See [`Task::mutex_pruned`].
    fn mutex_pruned(&self) -> u64;
    /// See [`Task::subsumption_pruned`].
    fn subsumption_pruned(&self) -> u64;
    /// See [`Task::stubborn_sets`].
    fn stubborn_sets(&self) -> Option<PruningStats>;
}

impl<B: Bits> GroundedDomain for Task<B> {
    fn start_state(&self) -> WorldState<B> {
        self.start()
    }

    fn goal_state(&self) -> PartialState<B> {
        self.goal()
    }

    fn fact_action(&self, id: ActionId) -> usize {
        id.index()
    }

    fn to_ipc(&self, actions: &[ActionId]) -> IpcPlan {
        Task::to_ipc(self, actions)
    }

    fn validate_ipc(&self, plan: &IpcPlan) -> Result<u64, SolveError> {
        Task::validate(self, plan)
    }

    fn mutex_pruned(&self) -> u64 {
        Task::mutex_pruned(self)
    }

    fn subsumption_pruned(&self) -> u64 {
        Task::subsumption_pruned(self)
    }

    fn stubborn_sets(&self) -> Option<PruningStats> {
        Task::stubborn_sets(self)
    }
}

/// Something to do with a [`Task`] of whatever width a [`GroundedTask`]
/// chose; see [`GroundedTask::visit`].
pub trait TaskVisitor {
    /// What the visit returns.
    type Output;
    /// Runs on the task.
    fn visit<B: Bits>(self, task: &Task<B>) -> Self::Output;
}

/// A grounded task on the narrowest state that holds its facts: one `u64`
/// up to 64 facts, then [`Wide`] states of 2, 3, 4, 8, 16, 32, 64, 128, 256
/// and 512 words (up to 32,768 facts), and beyond those a [`SparseBits`],
/// which holds any number. Every fixed rung is compiled search code, so
/// the ladder stops where a task's dense operator masks (four states an
/// operator, 16 KiB each at 512 words) would outgrow memory; a
/// `SparseBits` mask holds only the words its facts fall in, so a larger
/// task is bounded by the memory limit alone. [`GroundedTask::bytes`] says
/// what a task will take before it is built.
#[derive(Debug)]
#[non_exhaustive]
pub enum GroundedTask {
    /// Up to 64 facts.
    W1(Box<Task<u64>>),
    /// Up to 128 facts.
    W2(Box<Task<Wide<2>>>),
    /// Up to 192 facts.
    W3(Box<Task<Wide<3>>>),
    /// Up to 256 facts.
    W4(Box<Task<Wide<4>>>),
    /// Up to 512 facts.
    W8(Box<Task<Wide<8>>>),
    /// Up to 1,024 facts.
    W16(Box<Task<Wide<16>>>),
    /// Up to 2,048 facts.
    W32(Box<Task<Wide<32>>>),
    /// Up to 4,096 facts.
    W64(Box<Task<Wide<64>>>),
    /// Up to 8,192 facts.
    W128(Box<Task<Wide<128>>>),
    /// Up to 16,384 facts.
    W256(Box<Task<Wide<256>>>),
    /// Up to 32,768 facts.
    W512(Box<Task<Wide<512>>>),
    /// More than 32,768 facts.
    Sparse(Box<Task<SparseBits>>),
}

/// Runs `$body` with `$t` bound to the task, whatever its width.
macro_rules! each_width {
    ($value:expr, $t:ident => $body:expr) => {
        match $value {
            GroundedTask::W1($t) => $body,
            GroundedTask::W2($t) => $body,
            GroundedTask::W3($t) => $body,
            GroundedTask::W4($t) => $body,
            GroundedTask::W8($t) => $body,
            GroundedTask::W16($t) => $body,
            GroundedTask::W32($t) => $body,
            GroundedTask::W64($t) => $body,
            GroundedTask::W128($t) => $body,
            GroundedTask::W256($t) => $body,
            GroundedTask::W512($t) => $body,
            GroundedTask::Sparse($t) => $body,
        }
    };
}

impl GroundedTask {
    /// The most facts a fixed-width state holds; a task with more goes
    /// on a [`SparseBits`].
    pub const MAX_FIXED_FACTS: usize = 512 * 64;

    /// The fixed state widths in 64-bit words, narrowest first.
    pub const WIDTHS: [usize; 11] = [1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512];

    /// The width in 64-bit words of the narrowest fixed-width state that
    /// holds `facts` facts, or `None` beyond
    /// [`MAX_FIXED_FACTS`](Self::MAX_FIXED_FACTS) (a [`SparseBits`] then).
    ///
    /// ```
    /// use planners::pddl::GroundedTask;
    /// assert_eq!(GroundedTask::words_for(65), Some(2));
    /// assert_eq!(GroundedTask::words_for(6525), Some(128));
    /// assert_eq!(GroundedTask::words_for(GroundedTask::MAX_FIXED_FACTS + 1), None);
    /// ```
    pub fn words_for(facts: usize) -> Option<usize> {
        let words = facts.div_ceil(64).max(1);
        Self::WIDTHS.into_iter().find(|&w| w >= words)
    }

    /// An estimate of the bytes the atomic actions of `ground` take on a
    /// state of `words` words: each holds eight masks (its precondition's
    /// and effect's values and care bits, with the action and again in the
    /// compact rule the successor loop reads) and its name twice (with the
    /// action and in the index by name). A mask of a fixed width takes
    /// `words` words; beyond the widest, a [`SparseBits`] mask takes its
    /// own nonzero words (at most one per fact it names) on the heap. A
    /// task with axioms holds its operators twice (the heuristics' view
    /// beside them), with the axioms and one action per derived fact.
    ///
    /// ```
    /// use planners::pddl::{ground, parse_domain, parse_problem, GroundedTask, GroundingLimits};
    /// let domain = parse_domain("d", "(define (domain d) (:predicates (at ?x) (road ?x ?y)) \
    ///     (:action go :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y)) \
    ///      :effect (and (at ?y) (not (at ?x)))))").unwrap();
    /// let problem = parse_problem(&domain, "p", "(define (problem p) (:domain d) (:objects a b c) \
    ///     (:init (at a) (road a b) (road b c)) (:goal (at c)))").unwrap();
    /// let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
    /// assert!(GroundedTask::bytes(&task, 2) > GroundedTask::bytes(&task, 1));
    /// // Sparse masks: a few words each, whatever the width.
    /// assert!(GroundedTask::bytes(&task, 1000) < GroundedTask::bytes(&task, 64));
    /// ```
    pub fn bytes(ground: &GroundTask, words: usize) -> usize {
        let fixed = words <= GroundedTask::MAX_FIXED_FACTS / 64;
        // A sparse mask: the set itself and its heap, an `(index, word)`
        // pair per fact at most and the allocator's own 16 bytes.
        let sparse = |facts: usize| size_of::<SparseBits>() + 16 + 16 * facts;
        let masks = |pre: usize, eff: usize| {
            if fixed {
                8 * words * 8
            } else {
                4 * sparse(pre) + 4 * sparse(eff)
            }
        };
        let operators: usize = ground
            .operators
            .iter()
            .map(|op| {
                let pre = op.pre.len() + op.neg_pre.len();
                // A conditional effect is two masks, once in the action.
                let effects: usize = op
                    .effects
                    .iter()
                    .map(|e| masks(e.pre.len() + e.neg_pre.len(), e.add.len() + e.del.len()) / 2)
                    .sum();
                masks(pre, op.add.len() + op.del.len()) + effects + 16 + 2 * op.name.len() + 64
            })
            .fold(0, usize::saturating_add);
        if ground.axioms.is_empty() {
            return operators;
        }
        let axioms: usize = ground
            .axioms
            .iter()
            .map(|a| {
                let rule = masks(a.pre.len() + a.neg_pre.len(), a.add.len()) + 16;
                2 * rule + 2 * a.name.len() + 64
            })
            .fold(0, usize::saturating_add);
        operators.saturating_mul(2).saturating_add(axioms)
    }

    /// `ground` on the narrowest state that holds its facts: a fixed width
    /// up to [`MAX_FIXED_FACTS`](Self::MAX_FIXED_FACTS) facts, a
    /// [`SparseBits`] beyond.
    ///
    /// # Errors
    /// [`PddlError::ContradictoryGoal`](searchlab_pddl::PddlError::ContradictoryGoal)
    /// as for [`Task::new`].
    ///
    /// ```
    /// use planners::pddl::{ground, parse_domain, parse_problem, GroundedTask, GroundingLimits};
    /// let domain = parse_domain("d", "(define (domain d) (:predicates (at ?x) (road ?x ?y)) \
    ///     (:action go :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y)) \
    ///      :effect (and (at ?y) (not (at ?x)))))").unwrap();
    /// let problem = parse_problem(&domain, "p", "(define (problem p) (:domain d) (:objects a b c) \
    ///     (:init (at a) (road a b) (road b c)) (:goal (at c)))").unwrap();
    /// let task = GroundedTask::new(&ground(&domain, &problem, GroundingLimits::default()).unwrap()).unwrap();
    /// assert_eq!(task.words(), 1);
    /// ```
    pub fn new(ground: &GroundTask) -> Result<Self, SolveError> {
        Ok(match ground.facts.len() {
            0..=64 => GroundedTask::W1(Box::new(Task::new(ground)?)),
            65..=128 => GroundedTask::W2(Box::new(Task::new(ground)?)),
            129..=192 => GroundedTask::W3(Box::new(Task::new(ground)?)),
            193..=256 => GroundedTask::W4(Box::new(Task::new(ground)?)),
            257..=512 => GroundedTask::W8(Box::new(Task::new(ground)?)),
            513..=1024 => GroundedTask::W16(Box::new(Task::new(ground)?)),
            1025..=2048 => GroundedTask::W32(Box::new(Task::new(ground)?)),
            2049..=4096 => GroundedTask::W64(Box::new(Task::new(ground)?)),
            4097..=8192 => GroundedTask::W128(Box::new(Task::new(ground)?)),
            8193..=16384 => GroundedTask::W256(Box::new(Task::new(ground)?)),
            16385..=32768 => GroundedTask::W512(Box::new(Task::new(ground)?)),
            _ => GroundedTask::Sparse(Box::new(Task::new(ground)?)),
        })
    }

    /// The state's width in 64-bit words: a fixed width's, or the words a
    /// [`SparseBits`] state's facts span.
    pub fn words(&self) -> usize {
        match self {
            GroundedTask::W1(_) => 1,
            GroundedTask::W2(_) => 2,
            GroundedTask::W3(_) => 3,
            GroundedTask::W4(_) => 4,
            GroundedTask::W8(_) => 8,
            GroundedTask::W16(_) => 16,
            GroundedTask::W32(_) => 32,
            GroundedTask::W64(_) => 64,
            GroundedTask::W128(_) => 128,
            GroundedTask::W256(_) => 256,
            GroundedTask::W512(_) => 512,
            GroundedTask::Sparse(t) => t.actions().registry().len().div_ceil(64),
        }
    }

    /// Runs `visitor` on the task at its width.
    pub fn visit<V: TaskVisitor>(&self, visitor: V) -> V::Output {
        each_width!(self, t => visitor.visit(t))
    }

    /// Runs `visitor` on the task at its width, as a [`GroundedDomain`].
    pub fn visit_domain<V: super::DomainVisitor>(&self, visitor: V) -> V::Output {
        each_width!(self, t => visitor.visit(&**t))
    }

    /// See [`Task::set_mutexes`].
    pub fn set_mutexes(&mut self, mutexes: &Mutexes) {
        each_width!(self, t => t.set_mutexes(mutexes));
    }

    /// Declares `packing`'s groups as the task's mutex groups
    /// ([`ActionSet::set_mutex_groups`](state_atomic::ActionSet::set_mutex_groups)),
    /// for heuristics that read them, on a task searched unpacked.
    ///
    /// # Errors
    /// [`PlanError::Atomic`](crate::PlanError::Atomic) if a group names a
    /// fact the task does not have (a packing made for another task).
    pub fn set_mutex_groups(
        &mut self,
        packing: &searchlab_pddl::Packing,
    ) -> Result<(), crate::PlanError> {
        each_width!(self, t => t.set_mutex_groups(packing))
    }

    /// See [`Task::set_subsumption`].
    pub fn set_subsumption(&mut self, how: Subsumption) {
        each_width!(self, t => t.set_subsumption(how));
    }

    /// See [`Task::set_stubborn_sets`].
    pub fn set_stubborn_sets(&mut self, on: bool) {
        each_width!(self, t => t.set_stubborn_sets(on));
    }

    /// See [`Task::heap_bytes`].
    pub fn heap_bytes(&self) -> usize {
        each_width!(self, t => t.heap_bytes())
    }

    /// See [`Task::validate`].
    ///
    /// # Errors
    /// As for [`Task::validate`].
    pub fn validate(&self, plan: &IpcPlan) -> Result<u64, SolveError> {
        each_width!(self, t => t.validate(plan))
    }

    /// See [`Task::mutex_pruned`].
    pub fn mutex_pruned(&self) -> u64 {
        each_width!(self, t => t.mutex_pruned())
    }

    /// See [`Task::subsumption_pruned`].
    pub fn subsumption_pruned(&self) -> u64 {
        each_width!(self, t => t.subsumption_pruned())
    }
}
