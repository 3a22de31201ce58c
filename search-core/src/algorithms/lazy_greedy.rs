//! Lazy greedy best-first search with preferred operators, as Fast
//! Downward's `lazy_greedy` (LAMA's first iteration).
//!
//! Evaluation is deferred: a successor goes on the open list with its
//! parent's estimates and is estimated only when taken off it, so a node
//! whose siblings lead the way is never estimated at all. The open list
//! alternates between one queue per heuristic and, with preferred
//! operators, one more queue per heuristic that holds only successors
//! reached by a preferred step; each time a heuristic's best value improves,
//! the preferred queues jump ahead by a boost (1000 by default). Within a
//! queue, equal estimates go first in, first out, which keeps a plateau
//! search breadth-first. With type-based exploration one more queue takes
//! its turn: entries by the type (first heuristic's estimate, path cost),
//! a random type's random entry first ([`type_based`](super::type_based)).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hash::BuildHasher;
use std::mem::size_of;
use std::time::Instant;

use hashbrown::HashTable;
use num_traits::{CheckedAdd, Zero};
use rustc_hash::FxBuildHasher;

use super::type_based::TypeBuckets;
use crate::engine::driver::{self, Core, End, Step};
use crate::engine::open::vec_growth;
use crate::engine::outcome::edge_error;
use crate::{
    Cost, Estimate, Heuristic, Limit, ResultOf, SearchError, SearchLimits, SearchSpace, Solution,
    Statistics, Status, Trace, TracedNode,
};

/// How much a preferred queue jumps ahead when the search makes progress,
/// Fast Downward's default for lazy search.
pub const DEFAULT_BOOST: i64 = 1000;

/// A stored node: expanded, or found to be a dead end.
struct Record<S: SearchSpace> {
    node: S::Node,
    /// The parent's index and the action from it; `None` for the start.
    parent: Option<(u32, S::Action)>,
    g: S::Cost,
    dead: bool,
}

/// What a trace needs beyond the records, kept when recording.
struct Recording<C> {
    /// The expanded nodes' indices in order.
    expansions: Vec<u32>,
    /// Each record's first estimate (`None` for a dead end).
    h: Vec<Option<C>>,
}

/// An edge waiting on the open list: the successor is not yet estimated.
/// Its path cost is read when it is taken, from the parent's cost then (as
/// Fast Downward does), so a parent reopened meanwhile passes on its
/// cheaper path. The successor itself is kept beside it, in
/// [`LazyGreedy::waiting`], only where the space cannot make it again
/// when the edge is taken ([`SearchSpace::makes_successors`]): an edge is
/// then a few bytes, however wide the nodes.
struct Pending<S: SearchSpace> {
    parent: Option<(u32, S::Action)>,
    cost: S::Cost,
}

/// A successor as generated: action, node, edge cost, and whether preferred.
type Successor<S> = (
    <S as SearchSpace>::Action,
    <S as SearchSpace>::Node,
    <S as SearchSpace>::Cost,
    bool,
);

/// One queue of the alternation.
struct Queue<C> {
    entries: Entries<C>,
    preferred_only: bool,
    /// Removals so far, less boosts; the queue with the least goes next.
    priority: i64,
}

/// A queue's waiting edges (their slots).
enum Entries<C> {
    /// By key, then first in, first out.
    Ordered(BinaryHeap<Reverse<(C, u64, u32)>>),
    /// By type (estimate, path cost): a random type's random entry first.
    Types(TypeBuckets<(C, C)>),
}

impl<C: Ord + Copy> Entries<C> {
    fn is_empty(&self) -> bool {
        match self {
            Entries::Ordered(heap) => heap.is_empty(),
            Entries::Types(types) => types.is_empty(),
        }
    }

    fn pop(&mut self) -> Option<u32> {
        match self {
            Entries::Ordered(heap) => heap.pop().map(|Reverse((_, _, slot))| slot),
            Entries::Types(types) => types.pop(),
        }
    }

    /// Bytes held.
    fn bytes(&self) -> usize {
        match self {
            Entries::Ordered(heap) => heap.capacity() * size_of::<(C, u64, u32)>(),
            Entries::Types(types) => types.bytes(),
        }
    }

    /// Bytes `more` pushes may allocate.
    fn growth(&self, more: usize) -> usize {
        match self {
            Entries::Ordered(heap) => {
                vec_growth(heap.capacity(), heap.len() + more) * size_of::<(C, u64, u32)>()
            }
            Entries::Types(_) => TypeBuckets::<(C, C)>::growth(more),
        }
    }
}

/// What the builder methods set.
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent switches of the builder"
)]
struct Options {
    preferred: bool,
    preferred_first: bool,
    boost: i64,
    reopen_closed: bool,
    type_based: bool,
    helpful_only: bool,
}

/// Lazy greedy best-first search: Fast Downward's `lazy_greedy([h1, ...],
/// preferred=[h1, ...])`.
///
/// - Successors are queued with their parent's estimates and estimated when
///   taken off the open list (deferred evaluation). A successor already
///   stored is dropped when generated (counted as a duplicate) unless
///   [`reopen_closed`](Self::reopen_closed) lets a cheaper path reopen it.
/// - One queue per heuristic; with [`preferred`](Self::preferred) (the
///   default), one more per heuristic for successors that some heuristic
///   prefers ([`Heuristic::is_preferred`]), queued first
///   ([`preferred_first`](Self::preferred_first)). The queues take
///   turns; the one used least goes next (the first on ties), and each time
///   a heuristic reaches a value below its best so far, the preferred queues
///   are boosted ([`boost`](Self::boost)).
/// - A dead end by any heuristic is a dead end. Path-dependent heuristics
///   hear of each node's parent ([`Heuristic::notify_transition`]) before
///   it is estimated.
/// - Ties on an estimate go first in, first out. Deterministic.
///
/// Statistics as Fast Downward's lazy search counts them: `evaluated`
/// counts nodes estimated (the start included), `expanded` nodes whose
/// successors were generated (a goal is not expanded), `generated` the
/// successors generated plus the start. `max_open` is the largest number of
/// edges waiting on the open list. The memory estimate counts the node
/// store, its index, the waiting edges and the queues.
///
/// ```
/// use search_core::{LazyGreedy, SearchSpace};
///
/// struct Line;
/// impl SearchSpace for Line {
///     type Node = i32;
///     type Action = i32;
///     type Cost = u32;
///     fn is_goal(&self, n: &i32) -> bool { *n == 7 }
///     fn successors<F: FnMut(i32, i32, u32)>(&self, n: &i32, mut emit: F) {
///         emit(-1, n - 1, 1);
///         emit(1, n + 1, 1);
///     }
/// }
///
/// let distance = |n: &i32| (7 - n).unsigned_abs();
/// let result = LazyGreedy::new(&Line, 0, vec![distance]).run().unwrap();
/// assert_eq!(result.outcome.solution().unwrap().cost, 7);
/// ```
pub struct LazyGreedy<'s, S: SearchSpace, H> {
    space: &'s S,
    start: Option<S::Node>,
    heuristics: Vec<H>,
    options: Options,
    /// The limits, statistics and end the engine's loop keeps.
    core: Core<S::Cost>,
    records: Vec<Record<S>>,
    /// Each record's index, found by its node's hash: the node itself is
    /// stored once, in its record.
    index: HashTable<u32>,
    /// Edges waiting, by slot; a slot is emptied when its edge is taken by
    /// one queue and freed once every queue holding it has let it go.
    pending: Vec<Option<Pending<S>>>,
    /// The successor of the edge in each slot, where the space does not
    /// make successors (empty where it does).
    waiting: Vec<Option<S::Node>>,
    holders: Vec<u8>,
    free: Vec<u32>,
    queues: Vec<Queue<S::Cost>>,
    /// Insertion counter: the first-in, first-out tie-break.
    sequence: u64,
    /// The best value of each heuristic so far, for progress.
    best: Vec<Option<S::Cost>>,
    /// Scratch for one expansion's successors and estimates.
    successors: Vec<Successor<S>>,
    estimates: Vec<S::Cost>,
    /// Heap bytes of the stored nodes.
    node_heap: usize,
    /// Heap bytes of the nodes on the open list (edges not yet taken).
    pending_heap: usize,
    pruned: bool,
    /// Whether an expansion dropped successors no heuristic prefers
    /// ([`helpful_only`](Self::helpful_only)).
    unhelpful_dropped: bool,
    /// The first path whose cost passed the cost type: left out, since a
    /// cheaper plan may exist, and the error if none does.
    overflow: Option<SearchError>,
    recording: Option<Recording<S::Cost>>,
}

impl<'s, S, H> LazyGreedy<'s, S, H>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost>,
{
    /// A lazy greedy search of `space` from `start` alternating between
    /// `heuristics` (with none, every node is estimated 0 and the search
    /// goes breadth-first), with preferred operators, a boost of
    /// [`DEFAULT_BOOST`], no reopening and no limits until configured
    /// otherwise.
    pub fn new(space: &'s S, start: S::Node, heuristics: Vec<H>) -> Self {
        Self {
            space,
            start: Some(start),
            heuristics,
            options: Options {
                preferred: true,
                preferred_first: true,
                boost: DEFAULT_BOOST,
                reopen_closed: false,
                type_based: false,
                helpful_only: false,
            },
            core: Core::default(),
            records: Vec::new(),
            index: HashTable::new(),
            pending: Vec::new(),
            waiting: Vec::new(),
            holders: Vec::new(),
            free: Vec::new(),
            queues: Vec::new(),
            sequence: 0,
            best: Vec::new(),
            successors: Vec::new(),
            estimates: Vec::new(),
            node_heap: 0,
            pending_heap: 0,
            pruned: false,
            unhelpful_dropped: false,
            overflow: None,
            recording: None,
        }
    }

    /// Whether to use the heuristics' preferred operators (default yes):
    /// preferred successors are generated first and also go on preferred-only
    /// queues.
    #[must_use]
    pub fn preferred(mut self, on: bool) -> Self {
        self.options.preferred = on;
        self
    }

    /// Whether preferred successors are queued before the others (default
    /// yes; Fast Downward's `preferred_successors_first`, which defaults to
    /// no there). Otherwise successors keep the space's order.
    #[must_use]
    pub fn preferred_first(mut self, on: bool) -> Self {
        self.options.preferred_first = on;
        self
    }

    /// How far the preferred queues jump ahead on progress (default
    /// [`DEFAULT_BOOST`]; 0 for none).
    #[must_use]
    pub fn boost(mut self, amount: i64) -> Self {
        self.options.boost = amount;
        self
    }

    /// Whether an expansion queues only the successors some heuristic
    /// prefers, where it has any (default no): helpful-actions pruning, as
    /// Metric-FF and ENHSP (`-ha true`) do. It can cut the expansions a
    /// thousandfold where the relaxed plan points the way (numeric TPP),
    /// but it is incomplete: a search that runs dry after dropping a
    /// successor ends with [`Outcome::NoSolutionFound`](crate::Outcome),
    /// not with a proof that no plan exists. Needs
    /// [`preferred`](Self::preferred).
    ///
    /// ```
    /// use search_core::{Estimate, Heuristic, LazyGreedy, SearchSpace};
    ///
    /// /// From 0, steps of +1 and +2 toward 10.
    /// struct Line;
    /// impl SearchSpace for Line {
    ///     type Node = i32;
    ///     type Action = i32;
    ///     type Cost = u32;
    ///     fn is_goal(&self, n: &i32) -> bool { *n == 10 }
    ///     fn successors<F: FnMut(i32, i32, u32)>(&self, n: &i32, mut emit: F) {
    ///         for step in [1, 2] { if n + step <= 10 { emit(step, n + step, 1); } }
    ///     }
    /// }
    /// /// Blind but for its preference: the +2 steps.
    /// struct Twos;
    /// impl Heuristic<i32, u32> for Twos {
    ///     fn estimate(&mut self, n: &i32) -> Estimate<u32> { Estimate::Value(u32::from(*n != 10)) }
    ///     fn is_preferred(&mut self, parent: &i32, child: &i32) -> bool { child - parent == 2 }
    /// }
    /// let result = LazyGreedy::new(&Line, 0, vec![Twos]).helpful_only(true).run().unwrap();
    /// assert_eq!(result.outcome.solution().unwrap().actions, [2, 2, 2, 2, 2]);
    /// assert_eq!(result.stats.expanded, 5);
    /// ```
    #[must_use]
    pub fn helpful_only(mut self, on: bool) -> Self {
        self.options.helpful_only = on;
        self
    }

    /// Whether a cheaper path to a stored node reopens it (default no, as
    /// in LAMA's first iteration).
    #[must_use]
    pub fn reopen_closed(mut self, on: bool) -> Self {
        self.options.reopen_closed = on;
        self
    }

    /// Whether one more queue takes its turn with type-based exploration
    /// (default no; Xie, Müller, Holte and Imai, AAAI 2014, Fast
    /// Downward's `type_based([h, g()])`): edges grouped by the type (the
    /// first heuristic's estimate of the parent, the successor's path
    /// cost), a random type first, every type alike, then a random edge of
    /// it. The choice is random but the same on every run. It spends a
    /// share of the expansions away from the heuristic's best, which gets
    /// the search out of plateaus and regions where the heuristic misleads.
    #[must_use]
    pub fn type_based(mut self, on: bool) -> Self {
        self.options.type_based = on;
        self
    }

    /// Sets the limits.
    #[must_use]
    pub fn limits(mut self, limits: SearchLimits<S::Cost>) -> Self {
        self.core.limits = limits;
        self
    }

    /// Records the search's exploration (off by default) for
    /// [`trace`](Self::trace), as [`Search::record_trace`](crate::Search::record_trace)
    /// does. Turn it on before the first step.
    #[must_use]
    pub fn record_trace(mut self, record: bool) -> Self {
        if !record {
            self.recording = None;
        } else if self.recording.is_none() {
            self.recording = Some(Recording {
                expansions: Vec::new(),
                h: Vec::new(),
            });
        }
        self
    }

    /// The search's exploration so far, if [`record_trace`](Self::record_trace)
    /// is on; see [`Trace`]. A lazy search stores the nodes it takes off the
    /// open list (the expanded ones, dead ends and the goal), not the
    /// successors waiting there, so those are what the trace holds; `h` is
    /// the first heuristic's estimate.
    ///
    /// ```
    /// use search_core::{LazyGreedy, SearchSpace};
    ///
    /// struct Line;
    /// impl SearchSpace for Line {
    ///     type Node = i32;
    ///     type Action = i32;
    ///     type Cost = u32;
    ///     fn is_goal(&self, n: &i32) -> bool { *n == 3 }
    ///     fn successors<F: FnMut(i32, i32, u32)>(&self, n: &i32, mut emit: F) {
    ///         emit(1, n + 1, 1);
    ///         emit(-1, n - 1, 1);
    ///     }
    /// }
    ///
    /// let h = |n: &i32| (3 - n).unsigned_abs();
    /// let mut search = LazyGreedy::new(&Line, 0, vec![h]).record_trace(true);
    /// let result = search.run().unwrap();
    /// let trace = search.trace().unwrap();
    /// assert_eq!(trace.expansions().len() as u64, result.stats.expanded);
    /// assert_eq!(trace.path(), [0, 1, 2, 3]);
    /// assert_eq!(trace.nodes()[1].h, Some(2));
    /// ```
    pub fn trace(&self) -> Option<Trace<S::Node, S::Action, S::Cost>> {
        let recording = self.recording.as_ref()?;
        let nodes = self
            .records
            .iter()
            .zip(&recording.h)
            .map(|(record, &h)| TracedNode {
                node: record.node.clone(),
                parent: record.parent.as_ref().map(|(parent, _)| *parent),
                action: record.parent.as_ref().map(|(_, action)| action.clone()),
                g: record.g,
                h,
                expanded: None,
                dead_end: record.dead,
                dominated: false,
            })
            .collect();
        let goal = End::goal(self.core.end.as_ref());
        Some(Trace::new(nodes, recording.expansions.clone(), goal))
    }

    /// The statistics so far.
    pub fn statistics(&self) -> &Statistics {
        &self.core.stats
    }

    /// The heuristics, for reading what they learned.
    pub fn heuristics(&self) -> &[H] {
        &self.heuristics
    }

    /// Advances the search by at most `steps` removals from the open list
    /// (each expands at most one node).
    ///
    /// Returns [`Status::Finished`] once the search has ended (and on every
    /// later call); [`run`](Self::run) then returns the result.
    ///
    /// # Errors
    /// [`SearchError::InvalidCost`] for a negative or NaN edge cost and
    /// [`SearchError::CostOverflow`] when a path cost passes the cost type's
    /// largest value.
    pub fn step(&mut self, steps: u64) -> Result<Status, SearchError> {
        driver::step(self, steps)
    }

    /// Runs the search to its end and returns the outcome and statistics.
    /// May be called again; it returns the same result.
    ///
    /// # Errors
    /// As for [`step`](Self::step).
    pub fn run(&mut self) -> Result<ResultOf<S>, SearchError> {
        driver::run(self)
    }

    fn begin(&mut self, start: S::Node, started: Instant) {
        let keys = self.heuristics.len().max(1);
        for _ in 0..keys {
            self.queues.push(Queue {
                entries: Entries::Ordered(BinaryHeap::new()),
                preferred_only: false,
                priority: 0,
            });
            if self.options.preferred {
                self.queues.push(Queue {
                    entries: Entries::Ordered(BinaryHeap::new()),
                    preferred_only: true,
                    priority: 0,
                });
            }
        }
        if self.options.type_based {
            self.queues.push(Queue {
                entries: Entries::Types(TypeBuckets::new()),
                preferred_only: false,
                priority: 0,
            });
        }
        self.best = vec![None; self.heuristics.len()];
        self.core.stats.generated = 1;
        if let Some(end) = driver::check_limits(self, started) {
            self.core.end = Some(end);
            return;
        }
        let edge = Pending {
            parent: None,
            cost: S::Cost::zero(),
        };
        self.visit(edge, start);
    }

    /// The engine's memory estimate: allocated capacity of its tables.
    fn bytes(&self) -> usize {
        self.search_bytes() + self.heuristics.iter().map(H::memory_bytes).sum::<usize>()
    }

    /// The bytes the search's own tables hold, its heuristics' apart.
    fn search_bytes(&self) -> usize {
        let queued: usize = self.queues.iter().map(|q| q.entries.bytes()).sum();
        self.records.capacity() * size_of::<Record<S>>()
            + self.index.capacity() * (size_of::<u32>() + 1)
            + self.pending.capacity() * size_of::<Option<Pending<S>>>()
            + self.waiting.capacity() * size_of::<Option<S::Node>>()
            + self.holders.capacity()
            + self.free.capacity() * size_of::<u32>()
            + queued
            + self.node_heap
            + self.pending_heap
    }

    /// The bytes one more step may add to [`bytes`](Self::bytes): a
    /// record and an index entry, and an edge per successor of the widest
    /// expansion so far (the scratch list's capacity) in the slots and in
    /// each queue, for each container that would have to grow. Without
    /// it, a hash table's last doubling took a search past its limit and
    /// the system killed it.
    fn growth(&self) -> usize {
        let widest = self.successors.capacity();
        let grows = |capacity: usize, len: usize, more: usize, size: usize| {
            vec_growth(capacity, len + more) * size
        };
        let queues: usize = self.queues.iter().map(|q| q.entries.growth(widest)).sum();
        let index_entry = size_of::<u32>() + 1;
        grows(
            self.records.capacity(),
            self.records.len(),
            1,
            size_of::<Record<S>>(),
        ) + grows(self.index.capacity(), self.index.len(), 1, index_entry)
            + grows(
                self.pending.capacity(),
                self.pending.len(),
                widest,
                size_of::<Option<Pending<S>>>(),
            )
            + grows(
                self.waiting.capacity(),
                self.waiting.len(),
                if self.space.makes_successors() {
                    0
                } else {
                    widest
                },
                size_of::<Option<S::Node>>(),
            )
            + queues
    }

    /// The index of `node`'s record, if it has one.
    fn find(&self, node: &S::Node) -> Option<u32> {
        let records = &self.records;
        self.index
            .find(FxBuildHasher.hash_one(node), |&i| {
                records[i as usize].node == *node
            })
            .copied()
    }

    /// The next edge from the alternation, skipping ones another queue
    /// already took, with its successor (made now if the edge does not
    /// hold it). `None` when the queues are empty, or when the space did
    /// not make a successor it had emitted (the search then ends with
    /// that error).
    fn pop(&mut self) -> Option<(Pending<S>, S::Node)> {
        loop {
            let mut chosen: Option<usize> = None;
            for (i, queue) in self.queues.iter().enumerate() {
                if !queue.entries.is_empty()
                    && chosen.is_none_or(|c| queue.priority < self.queues[c].priority)
                {
                    chosen = Some(i);
                }
            }
            let queue = &mut self.queues[chosen?];
            queue.priority += 1;
            let slot = queue.entries.pop()?;
            let s = slot as usize;
            let edge = self.pending[s].take();
            let waiting = self.waiting.get_mut(s).and_then(Option::take);
            self.holders[s] -= 1;
            if self.holders[s] == 0 {
                self.free.push(slot);
            }
            let Some(edge) = edge else {
                continue;
            };
            if let Some(node) = waiting {
                self.pending_heap -= self.space.node_heap_bytes(&node);
                return Some((edge, node));
            }
            // Only the start's edge has no parent, and it holds no node
            // only until it is visited, which `begin` does at once.
            let (parent, action) = edge.parent.as_ref()?;
            let parent = &self.records[*parent as usize].node;
            let Some(node) = self.space.successor(parent, action) else {
                let node = format!("{parent:?}");
                self.core.end = Some(End::Failed(SearchError::SuccessorNotMade { node }));
                return None;
            };
            return Some((edge, node));
        }
    }

    /// Takes an edge off the open list: estimates its node if new (or
    /// reopened), and expands it unless it is a goal or a dead end.
    fn visit(&mut self, edge: Pending<S>, node: S::Node) {
        let parent_g = edge
            .parent
            .as_ref()
            .map_or_else(S::Cost::zero, |(p, _)| self.records[*p as usize].g);
        // Checked when generated; the parent's cost can only have dropped.
        let g = parent_g.checked_add(&edge.cost).unwrap_or(parent_g);
        let known = self.find(&node);
        if let Some(i) = known {
            let record = &self.records[i as usize];
            if !(self.options.reopen_closed && !record.dead && g < record.g) {
                return;
            }
        }
        if let Some((parent, _)) = &edge.parent {
            let parent = &self.records[*parent as usize].node;
            for h in &mut self.heuristics {
                h.notify_transition(parent, &node);
            }
        }
        self.core.stats.evaluated += 1;
        self.estimates.clear();
        let mut dead = false;
        for h in &mut self.heuristics {
            match h.estimate(&node) {
                Estimate::Value(v) => self.estimates.push(v),
                Estimate::DeadEnd => {
                    dead = true;
                    break;
                }
            }
        }
        let index = if let Some(i) = known {
            self.core.stats.reopened += 1;
            let record = &mut self.records[i as usize];
            record.parent = edge.parent;
            record.g = g;
            record.dead = dead;
            i
        } else {
            let Ok(i) = u32::try_from(self.records.len()) else {
                self.core.end = Some(End::Limit(Limit::StoredNodes));
                return;
            };
            self.node_heap += self.space.node_heap_bytes(&node);
            let records = &self.records;
            self.index
                .insert_unique(FxBuildHasher.hash_one(&node), i, |&j| {
                    FxBuildHasher.hash_one(&records[j as usize].node)
                });
            self.records.push(Record {
                node,
                parent: edge.parent,
                g,
                dead,
            });
            i
        };
        if let Some(recording) = &mut self.recording {
            let h = self.estimates.first().copied().filter(|_| !dead);
            let i = index as usize;
            if recording.h.len() <= i {
                recording.h.resize(i + 1, None);
            }
            recording.h[i] = h;
        }
        if dead {
            self.core.stats.dead_ends += 1;
            return;
        }
        let node = self.records[index as usize].node.clone();
        if self.space.is_goal(&node) {
            self.core.end = Some(End::Goal(index));
            return;
        }
        let mut progress = false;
        for (best, &h) in self.best.iter_mut().zip(&self.estimates) {
            if best.is_none_or(|b| h < b) {
                progress |= best.is_some();
                *best = Some(h);
            }
        }
        if progress {
            for queue in self.queues.iter_mut().filter(|q| q.preferred_only) {
                queue.priority -= self.options.boost;
            }
        }
        self.expand(index, &node);
    }

    fn expand(&mut self, index: u32, node: &S::Node) {
        let g = self.records[index as usize].g;
        let mut successors = std::mem::take(&mut self.successors);
        successors.clear();
        self.space.successors(node, |action, child, cost| {
            successors.push((action, child, cost, false));
        });
        self.core.stats.generated += successors.len() as u64;
        if self.options.preferred && !self.heuristics.is_empty() {
            for (_, child, _, preferred) in &mut successors {
                *preferred = self
                    .heuristics
                    .iter_mut()
                    .any(|h| h.is_preferred(node, child));
            }
            // A successor that is its parent (an action that changes
            // nothing here) is no way forward, preferred or not.
            let helpful = |s: &Successor<S>| s.3 && s.1 != *node;
            if self.options.helpful_only && successors.iter().any(helpful) {
                let before = successors.len();
                successors.retain(helpful);
                self.unhelpful_dropped |= successors.len() < before;
            } else if self.options.preferred_first {
                // Each group in the space's order.
                successors.sort_by_key(|s| !s.3);
            }
        }
        // Keep the successors on the open list only where the space cannot
        // make them again.
        let makes = self.space.makes_successors();
        for (action, child, cost, preferred) in successors.drain(..) {
            let child_g = match g.checked_add(&cost) {
                Some(child_g) if cost.is_valid_edge() => child_g,
                None if cost.is_valid_edge() => {
                    // A bound is below every path cost past the type.
                    if self.core.limits.cost_bound.is_some() {
                        self.pruned = true;
                    } else if self.overflow.is_none() {
                        self.overflow = Some(edge_error(node, g, cost));
                    }
                    continue;
                }
                _ => {
                    self.core.end = Some(End::Failed(edge_error(node, g, cost)));
                    break;
                }
            };
            if self.core.limits.cost_bound.is_some_and(|b| child_g > b) {
                self.pruned = true;
                continue;
            }
            if let Some(i) = self.find(&child) {
                let record = &self.records[i as usize];
                if !(self.options.reopen_closed && !record.dead && child_g < record.g) {
                    self.core.stats.duplicates += 1;
                    continue;
                }
            }
            let edge = Pending {
                parent: Some((index, action)),
                cost,
            };
            self.queue(edge, (!makes).then_some(child), child_g, preferred);
        }
        self.successors = successors;
        self.core.stats.expanded += 1;
        if let Some(recording) = &mut self.recording {
            recording.expansions.push(index);
        }
        let waiting = self.pending.len() - self.free.len();
        self.core.stats.max_open = self.core.stats.max_open.max(waiting);
    }

    /// Puts an edge (with its successor `node`, unless the space makes it
    /// again) on every queue of its kind, keyed by the parent's estimates
    /// (and for type-based exploration, the first of them and the
    /// successor's path cost `g`).
    fn queue(&mut self, edge: Pending<S>, node: Option<S::Node>, g: S::Cost, preferred: bool) {
        if let Some(node) = &node {
            self.pending_heap += self.space.node_heap_bytes(node);
        }
        let slot = if let Some(slot) = self.free.pop() {
            self.pending[slot as usize] = Some(edge);
            slot
        } else {
            self.pending.push(Some(edge));
            self.holders.push(0);
            u32::try_from(self.pending.len() - 1).unwrap_or(u32::MAX)
        };
        if node.is_some() {
            let s = slot as usize;
            if self.waiting.len() <= s {
                self.waiting.resize_with(s + 1, || None);
            }
            self.waiting[s] = node;
        }
        let sequence = self.sequence;
        self.sequence += 1;
        let mut holders = 0;
        for (i, queue) in self.queues.iter_mut().enumerate() {
            if queue.preferred_only && !preferred {
                continue;
            }
            let k = if self.options.preferred { i / 2 } else { i };
            match &mut queue.entries {
                Entries::Ordered(heap) => {
                    let key = self.estimates.get(k).copied().unwrap_or_else(S::Cost::zero);
                    heap.push(Reverse((key, sequence, slot)));
                }
                Entries::Types(types) => {
                    let h = self
                        .estimates
                        .first()
                        .copied()
                        .unwrap_or_else(S::Cost::zero);
                    types.push((h, g), slot);
                }
            }
            holders += 1;
        }
        self.holders[slot as usize] = holders;
    }

    /// The plan to the record `goal`.
    fn path_to(&self, goal: u32) -> Solution<S::Node, S::Action, S::Cost> {
        let mut nodes = Vec::new();
        let mut actions = Vec::new();
        let mut record = &self.records[goal as usize];
        let cost = record.g;
        nodes.push(record.node.clone());
        while let Some((parent, action)) = &record.parent {
            actions.push(action.clone());
            record = &self.records[*parent as usize];
            nodes.push(record.node.clone());
        }
        nodes.reverse();
        actions.reverse();
        Solution {
            actions,
            nodes,
            cost,
        }
    }
}

impl<S, H> Step for LazyGreedy<'_, S, H>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost>,
{
    type Node = S::Node;
    type Action = S::Action;
    type Cost = S::Cost;

    // Estimates dominate a lazy search's time, so one clock reading per
    // removal costs little.
    const PACED_CLOCK: bool = false;

    fn core(&self) -> &Core<S::Cost> {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core<S::Cost> {
        &mut self.core
    }

    fn prepare(&mut self, started: Instant) {
        if let Some(left) = self.core.time_left() {
            let deadline = started.checked_add(left);
            for heuristic in &mut self.heuristics {
                heuristic.set_deadline(deadline);
            }
        }
        if let Some(max) = self.core.limits.max_memory_bytes {
            // Each may hold what the search and the others leave.
            let held = self.bytes();
            for heuristic in &mut self.heuristics {
                let others = held - heuristic.memory_bytes();
                heuristic.set_memory_budget(Some(max.saturating_sub(others)));
            }
        }
        if let Some(start) = self.start.take() {
            self.begin(start, started);
        }
    }

    /// Takes one edge off the open list.
    fn advance(&mut self, _started: Instant) -> bool {
        match self.pop() {
            Some((edge, node)) => self.visit(edge, node),
            None if self.core.end.is_some() => {}
            None => self.core.end = Some(End::ran_dry(self.overflow.take(), self.pruned)),
        }
        true
    }

    fn stored_nodes(&self) -> Option<usize> {
        Some(self.records.len())
    }

    fn exceeds_memory(&self, max: usize) -> bool {
        self.bytes() + self.growth() > max
    }

    fn settle(&mut self) {
        self.core.stats.stored = self.records.len();
        self.core.stats.estimated_bytes = self.bytes();
    }

    fn solution(&self, goal: u32) -> Result<Solution<S::Node, S::Action, S::Cost>, SearchError> {
        Ok(self.path_to(goal))
    }

    fn dead_ends_are_reliable(&self) -> bool {
        self.heuristics
            .iter()
            .all(Heuristic::dead_ends_are_reliable)
    }

    fn left_out_states(&self) -> bool {
        self.unhelpful_dropped
    }
}

/// Runs lazy greedy best-first search from `start` with one heuristic and
/// its preferred operators; see [`LazyGreedy`] for several heuristics and
/// options.
///
/// ```
/// use search_core::{lazy_greedy, SearchSpace};
///
/// struct Line;
/// impl SearchSpace for Line {
///     type Node = i32;
///     type Action = i32;
///     type Cost = u32;
///     fn is_goal(&self, n: &i32) -> bool { *n == 7 }
///     fn successors<F: FnMut(i32, i32, u32)>(&self, n: &i32, mut emit: F) {
///         emit(-1, n - 1, 1);
///         emit(1, n + 1, 1);
///     }
/// }
///
/// let result = lazy_greedy(&Line, 0, |n: &i32| (7 - n).unsigned_abs()).unwrap();
/// assert_eq!(result.outcome.solution().unwrap().actions, vec![1; 7]);
/// ```
///
/// # Errors
/// [`SearchError`] for a negative or NaN edge cost or an overflowing path.
pub fn lazy_greedy<S, H>(
    space: &S,
    start: S::Node,
    heuristic: H,
) -> Result<ResultOf<S>, SearchError>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost>,
{
    LazyGreedy::new(space, start, vec![heuristic]).run()
}
