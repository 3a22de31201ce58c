//! A* for tiny problems: the same expansions as [`Search`](crate::Search)'s
//! A*, without its fixed costs.
//!
//! A game agent's plan expands a handful of nodes, where the general
//! engine's set-up (chunked store, bucket levels, limit checks, statistics
//! of memory) costs more than the search. This engine keeps four flat
//! buffers ([`TinyWorkspace`]) that the caller hands from one search to the
//! next, takes the heuristic by `&mut` (statically dispatched), and stops
//! once it has stored [`TINY_MAX_NODES`] nodes: past that size the general
//! engine is as fast, so [`tiny_astar`] gives the problem back (`None`) and
//! the caller runs [`Search`](crate::Search), which finds the same result.
//! It stops between two expansions, so the general engine can go on from
//! where it stopped ([`TinyWorkspace::take_handover`],
//! [`Search::take_over`](crate::Search::take_over)) instead of starting
//! over.
//!
//! Semantics are A*'s as [`Search`](crate::Search) runs it: ties on `f` go
//! to the larger `g`, then to the entry pushed first; a cheaper path to an
//! expanded node reopens it; the goal test is at expansion; statistics
//! count the same events. So the result (cost, plan and counters) is the
//! general engine's on every problem it accepts; tests in
//! `search-core/tests/tiny.rs` check this on random problems.

use std::hash::BuildHasher;
use std::sync::atomic::Ordering as Atomic;

use hashbrown::HashTable;
use num_traits::{CheckedAdd, Zero};
use rustc_hash::FxBuildHasher;

// The general engine's heap entry: the same order (lowest f, then highest
// g, then first pushed) by construction.
use crate::engine::heap::Heap;
use crate::engine::open::Entry;
use crate::{
    Cost, Estimate, Heuristic, Limit, Outcome, ResultOf, SearchLimits, SearchSpace, Solution,
    Statistics, Status,
};

/// The nodes a tiny search stores before it gives the problem back to the
/// general engine (checked between expansions, so the last expansion's
/// successors may take it past this). The general engine is as fast past
/// it, and can go on with the tiny search's nodes ([`Handover`]).
pub const TINY_MAX_NODES: usize = 2048;

/// A stored node: its path cost, heuristic value, parent and state.
#[derive(Clone, Debug)]
pub(crate) struct Record<N, C> {
    pub(crate) node: N,
    pub(crate) g: C,
    pub(crate) h: C,
    pub(crate) parent: u32,
    pub(crate) closed: bool,
    pub(crate) dead: bool,
}

/// The buffers of a tiny search, kept between searches: after the first
/// few plans a tiny search allocates nothing but its solution, and nothing
/// at all when the solution's vectors come back through
/// [`recycle`](TinyWorkspace::recycle).
#[derive(Clone, Debug)]
pub struct TinyWorkspace<N, A, C> {
    records: Vec<Record<N, C>>,
    /// The action that reached record `i + 1` (the start has none).
    actions: Vec<A>,
    index: HashTable<u32>,
    open: Heap<C>,
    /// A returned solution's vectors, emptied, for the next solution.
    spare: (Vec<A>, Vec<N>),
    /// Whether a search reads the clock for its `elapsed` statistic.
    timed: bool,
    /// Set when the last search stopped at [`TINY_MAX_NODES`] between
    /// expansions: its statistics and the `f` of its last expansion.
    grown: Option<(Statistics, Option<C>)>,
}

/// A tiny A* that stored [`TINY_MAX_NODES`] nodes and stopped between two
/// expansions, for the general engine to go on with
/// ([`Search::take_over`](crate::Search::take_over)): its nodes with their
/// paths and heuristic values, its open list and its statistics. Taken
/// from the search's buffers by [`TinyWorkspace::take_handover`].
#[derive(Clone, Debug)]
pub struct Handover<N, C> {
    pub(crate) records: Vec<Record<N, C>>,
    pub(crate) open: Vec<Entry<C>>,
    pub(crate) stats: Statistics,
    pub(crate) last_f: Option<C>,
}

impl<N, C> Handover<N, C> {
    /// The nodes the tiny search stored.
    pub fn stored(&self) -> usize {
        self.records.len()
    }
}

impl<N, A, C: Ord> Default for TinyWorkspace<N, A, C> {
    fn default() -> Self {
        Self {
            records: Vec::new(),
            actions: Vec::new(),
            index: HashTable::new(),
            open: Heap::default(),
            spare: (Vec::new(), Vec::new()),
            timed: true,
            grown: None,
        }
    }
}

impl<N, A, C: Ord> TinyWorkspace<N, A, C> {
    /// Keeps `solution`'s vectors, emptied, for the next search's solution:
    /// a caller that hands each solution back once it has read it plans
    /// without allocating after the first few searches.
    ///
    /// ```
    /// use search_core::{tiny_astar, FnSpace, SearchLimits, TinyWorkspace};
    ///
    /// let space = FnSpace::new(|&n: &u8| (n < 5).then(|| (n + 1, 1_u32)), |&n: &u8| n == 5);
    /// let mut workspace = TinyWorkspace::default();
    /// let mut h = |n: &u8| u32::from(5 - n);
    /// for _ in 0..3 {
    ///     let result = tiny_astar(&space, 0, &mut h, &SearchLimits::default(), &mut workspace);
    ///     let solution = result.unwrap().outcome.into_solution().unwrap();
    ///     assert_eq!(solution.actions.len(), 5);
    ///     workspace.recycle(solution);
    /// }
    /// ```
    pub fn recycle(&mut self, solution: Solution<N, A, C>) {
        let (mut actions, mut nodes) = (solution.actions, solution.nodes);
        actions.clear();
        nodes.clear();
        if actions.capacity() > self.spare.0.capacity() {
            self.spare.0 = actions;
        }
        if nodes.capacity() > self.spare.1.capacity() {
            self.spare.1 = nodes;
        }
    }

    /// The vectors [`recycle`](Self::recycle) kept, emptied (new ones if
    /// none): for a caller that builds a solution of its own, say one
    /// translated from a search over another form of the nodes, and hands
    /// it back through [`recycle`](Self::recycle) once read.
    ///
    /// ```
    /// use search_core::{Solution, TinyWorkspace};
    ///
    /// let mut workspace = TinyWorkspace::<u8, char, u32>::default();
    /// workspace.recycle(Solution { actions: Vec::with_capacity(8), nodes: vec![1, 2], cost: 0 });
    /// let (actions, nodes) = workspace.take_spare();
    /// assert!(actions.is_empty() && actions.capacity() >= 8 && nodes.is_empty());
    /// ```
    pub fn take_spare(&mut self) -> (Vec<A>, Vec<N>) {
        std::mem::take(&mut self.spare)
    }

    /// Whether searches in this workspace read the clock (see
    /// [`set_timed`](Self::set_timed)).
    pub fn is_timed(&self) -> bool {
        self.timed
    }

    /// Whether searches in this workspace read the clock for
    /// [`Statistics::elapsed`] (the default); without, `elapsed` is zero
    /// and a search of a few nodes saves two clock reads, a noticeable
    /// share of its time.
    ///
    /// ```
    /// use search_core::{tiny_astar, FnSpace, SearchLimits, TinyWorkspace};
    /// use std::time::Duration;
    ///
    /// let space = FnSpace::new(|&n: &u8| (n < 5).then(|| (n + 1, 1_u32)), |&n: &u8| n == 5);
    /// let mut workspace = TinyWorkspace::default();
    /// workspace.set_timed(false);
    /// let result = tiny_astar(&space, 0, &mut |_: &u8| 0, &SearchLimits::default(), &mut workspace);
    /// assert_eq!(result.unwrap().stats.elapsed, Duration::ZERO);
    /// ```
    pub fn set_timed(&mut self, timed: bool) {
        self.timed = timed;
    }

    /// The last search, if it stopped for having stored
    /// [`TINY_MAX_NODES`] nodes (not for an invalid or overflowing cost):
    /// its nodes, open list and statistics, taken out of these buffers, for
    /// [`Search::take_over`](crate::Search::take_over). `None` otherwise,
    /// and after the first call.
    ///
    /// ```
    /// use search_core::{tiny_astar, FnSpace, Search, SearchLimits, TinyWorkspace, TINY_MAX_NODES};
    ///
    /// // A line of 10,000 cells, searched blind: too large to stay tiny.
    /// let space = FnSpace::new(|&n: &u32| (n < 10_000).then(|| (n + 1, 1_u32)), |&n: &u32| n == 10_000);
    /// let mut workspace = TinyWorkspace::default();
    /// let limits = SearchLimits::default();
    /// assert!(tiny_astar(&space, 0, &mut |_: &u32| 0, &limits, &mut workspace).is_none());
    /// let handover = workspace.take_handover().unwrap();
    /// assert!(handover.stored() >= TINY_MAX_NODES);
    /// let result = Search::new(&space, 0).take_over(handover).run().unwrap();
    /// assert_eq!(result.outcome.solution().unwrap().cost, 10_000);
    /// assert_eq!(result.stats.expanded, 10_001);
    /// ```
    pub fn take_handover(&mut self) -> Option<Handover<N, C>> {
        let (stats, last_f) = self.grown.take()?;
        // The general engine keeps no actions: it finds a plan's again.
        self.actions.clear();
        Some(Handover {
            records: std::mem::take(&mut self.records),
            open: self.open.take_entries(),
            stats,
            last_f,
        })
    }

    fn clear(&mut self) {
        self.grown = None;
        self.records.clear();
        self.actions.clear();
        self.index.clear();
        self.open.clear();
    }
}

/// Whether [`tiny_astar`] honours every limit in `limits`: it checks the
/// expansion limit and the cancellation flag; a search with other limits
/// (time, memory, stored nodes, cost bound) runs in the general engine.
///
/// ```
/// use search_core::{tiny_accepts, SearchLimits};
/// use std::time::Duration;
///
/// assert!(tiny_accepts(&SearchLimits::<u32> { max_expansions: Some(10), ..SearchLimits::default() }));
/// assert!(!tiny_accepts(&SearchLimits::<u32> { max_time: Some(Duration::from_millis(1)), ..SearchLimits::default() }));
/// ```
pub fn tiny_accepts<C>(limits: &SearchLimits<C>) -> bool {
    limits.max_stored_nodes.is_none()
        && limits.max_memory_bytes.is_none()
        && limits.max_time.is_none()
        && limits.cost_bound.is_none()
}

/// A* from `start` with `heuristic` over `space`, in `workspace`'s buffers.
///
/// Returns `None`, having changed nothing but the buffers and the
/// heuristic's state, when the problem is not tiny: [`TINY_MAX_NODES`]
/// nodes stored, limits it does not honour (see [`tiny_accepts`]), or an
/// edge cost or priority that is invalid or overflows (the general engine
/// reports those as errors). Run [`Search`](crate::Search) then; it returns
/// what this would have. Where the search stopped for its size, the
/// general engine can go on from there with the same heuristic:
/// [`TinyWorkspace::take_handover`].
/// Otherwise the result is the one [`astar`](crate::astar()) (with
/// `limits`) returns: same outcome, plan and counters (`elapsed`, `stored`
/// and `estimated_bytes` describe this engine).
///
/// ```
/// use search_core::{tiny_astar, SearchLimits, SearchSpace, TinyWorkspace};
///
/// /// Count up by one or two from 0 to 9, at cost 1 or 3.
/// struct Count;
/// impl SearchSpace for Count {
///     type Node = u8;
///     type Action = u8;
///     type Cost = u32;
///     fn is_goal(&self, n: &u8) -> bool { *n == 9 }
///     fn successors<F: FnMut(u8, u8, u32)>(&self, n: &u8, mut emit: F) {
///         if *n < 9 { emit(1, n + 1, 1); }
///         if *n < 8 { emit(2, n + 2, 3); }
///     }
/// }
///
/// let mut workspace = TinyWorkspace::default();
/// let mut h = |n: &u8| u32::from(9 - n);
/// let limits = SearchLimits::default();
/// let result = tiny_astar(&Count, 0, &mut h, &limits, &mut workspace).unwrap();
/// assert_eq!(result.outcome.solution().unwrap().cost, 9);
/// ```
pub fn tiny_astar<S, H>(
    space: &S,
    start: S::Node,
    heuristic: &mut H,
    limits: &SearchLimits<S::Cost>,
    workspace: &mut TinyWorkspace<S::Node, S::Action, S::Cost>,
) -> Option<ResultOf<S>>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost> + ?Sized,
{
    // Not through `TinyAstar`, which keeps its result: moving it in and
    // out is a noticeable part of a plan of a few expansions.
    if !tiny_accepts(limits) {
        return None;
    }
    let started = workspace.timed.then(std::time::Instant::now);
    workspace.clear();
    let mut tiny = Tiny::new(space, heuristic, workspace);
    let result = match tiny.begin(start)? {
        Stretch::Ended(result) => result,
        Stretch::Paused => match tiny.advance(limits, u64::MAX)? {
            Stretch::Ended(result) => result,
            Stretch::Paused => unreachable!("a search without a bound on its stretch ends"),
        },
    };
    Some(tiny.finish(result, started))
}

/// [`tiny_astar`] a few expansions at a time: a caller can run two tiny
/// searches side by side on one thread (a portfolio's two directions on a
/// problem too small to hand to a second thread) and stop both when one
/// ends.
///
/// ```
/// use search_core::{FnSpace, SearchLimits, Status, TinyAstar, TinyWorkspace};
///
/// let space = FnSpace::new(|&n: &u8| (n < 9).then(|| (n + 1, 1_u32)), |&n: &u8| n == 9);
/// let (mut workspace, mut h, limits) = (TinyWorkspace::default(), |_: &u8| 0, SearchLimits::default());
/// let mut search = TinyAstar::new(&space, 0, &mut h, &limits, &mut workspace).unwrap();
/// assert_eq!(search.step(4), Some(Status::Running));
/// assert_eq!(search.step(100), Some(Status::Finished));
/// let result = search.into_result().unwrap();
/// assert_eq!(result.outcome.solution().unwrap().cost, 9);
/// assert_eq!(result.stats.expanded, 10);
/// ```
pub struct TinyAstar<'t, S: SearchSpace, H: ?Sized> {
    tiny: Tiny<'t, S, H>,
    limits: &'t SearchLimits<S::Cost>,
    started: Option<std::time::Instant>,
    /// The result, once the search ended.
    end: Option<ResultOf<S>>,
}

impl<'t, S, H> TinyAstar<'t, S, H>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost> + ?Sized,
{
    /// A tiny A* from `start`, not stepped yet; `None` where [`tiny_astar`]
    /// would give the problem back before searching (limits it does not
    /// honour, or a priority that overflows at the start).
    pub fn new(
        space: &'t S,
        start: S::Node,
        heuristic: &'t mut H,
        limits: &'t SearchLimits<S::Cost>,
        workspace: &'t mut TinyWorkspace<S::Node, S::Action, S::Cost>,
    ) -> Option<Self> {
        if !tiny_accepts(limits) {
            return None;
        }
        let started = workspace.timed.then(std::time::Instant::now);
        workspace.clear();
        let mut tiny = Tiny::new(space, heuristic, workspace);
        let end = match tiny.begin(start)? {
            Stretch::Ended(result) => Some(result),
            Stretch::Paused => None,
        };
        Some(Self {
            tiny,
            limits,
            started,
            end,
        })
    }

    /// Runs at most `expansions` more expansions; `None` when the problem
    /// is not tiny after all (see [`tiny_astar`]): run
    /// [`Search`](crate::Search) then.
    pub fn step(&mut self, expansions: u64) -> Option<Status> {
        if self.end.is_some() {
            return Some(Status::Finished);
        }
        Some(match self.tiny.advance(self.limits, expansions)? {
            Stretch::Paused => Status::Running,
            Stretch::Ended(result) => {
                self.end = Some(result);
                Status::Finished
            }
        })
    }

    /// The nodes waiting in the open list (stale entries included): how
    /// wide the search has grown, to choose which of two to step.
    pub fn open_len(&self) -> usize {
        self.tiny.ws.open.len()
    }

    /// The statistics so far (without `elapsed`, `stored` and
    /// `estimated_bytes`, which the result gives).
    pub fn statistics(&self) -> &Statistics {
        self.end
            .as_ref()
            .map_or(&self.tiny.stats, |result| &result.stats)
    }

    /// The result, once [`step`](Self::step) said
    /// [`Finished`](Status::Finished); `None` before.
    pub fn into_result(self) -> Option<ResultOf<S>> {
        let result = self.end?;
        Some(self.tiny.finish(result, self.started))
    }
}

/// A tiny search in progress.
struct Tiny<'t, S: SearchSpace, H: ?Sized> {
    space: &'t S,
    heuristic: &'t mut H,
    ws: &'t mut TinyWorkspace<S::Node, S::Action, S::Cost>,
    stats: Statistics,
    /// Pushes so far, for first-in-first-out ties.
    seq: u32,
    /// The `f` of the last node expanded.
    last_f: Option<S::Cost>,
}

/// How a stretch of a tiny search ended.
enum Stretch<R> {
    /// Its expansions are spent; the search goes on.
    Paused,
    Ended(R),
}

impl<'t, S, H> Tiny<'t, S, H>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost> + ?Sized,
{
    fn new(
        space: &'t S,
        heuristic: &'t mut H,
        ws: &'t mut TinyWorkspace<S::Node, S::Action, S::Cost>,
    ) -> Self {
        Tiny {
            space,
            heuristic,
            ws,
            stats: Statistics::default(),
            seq: 0,
            last_f: None,
        }
    }

    /// The result with what is measured at the end: the nodes stored, the
    /// bytes, and the time since `started` if timed.
    fn finish(&self, mut result: ResultOf<S>, started: Option<std::time::Instant>) -> ResultOf<S> {
        result.stats.stored = self.ws.records.len();
        result.stats.estimated_bytes = self.bytes();
        result.stats.elapsed = started.map(|t| t.elapsed()).unwrap_or_default();
        result
    }

    /// Stores and opens the start (or ends at once, at a dead end); `None`
    /// hands the problem over.
    fn begin(&mut self, start: S::Node) -> Option<Stretch<ResultOf<S>>> {
        let zero = S::Cost::zero();
        self.stats.generated = 1;
        self.stats.evaluated = 1;
        let h = match self.heuristic.estimate(&start) {
            Estimate::Value(h) => h,
            Estimate::DeadEnd => {
                self.stats.dead_ends = 1;
                return Some(Stretch::Ended(self.ran_dry()));
            }
        };
        let hash = FxBuildHasher.hash_one(&start);
        self.ws.index.insert_unique(hash, 0, |_| hash);
        self.ws.records.push(Record {
            node: start,
            g: zero,
            h,
            parent: 0,
            closed: false,
            dead: false,
        });
        self.push(zero, h, 0)?;
        Some(Stretch::Paused)
    }

    /// Runs at most `expansions` expansions, or to the end; `None` hands
    /// the problem over.
    fn advance(
        &mut self,
        limits: &SearchLimits<S::Cost>,
        expansions: u64,
    ) -> Option<Stretch<ResultOf<S>>> {
        let mut left = expansions;
        while left > 0 {
            if limits
                .cancel
                .as_ref()
                .is_some_and(|flag| flag.load(Atomic::Relaxed))
            {
                return Some(Stretch::Ended(
                    self.result(Outcome::Cancelled { best: None }),
                ));
            }
            if limits
                .max_expansions
                .is_some_and(|m| self.stats.expanded >= m)
            {
                return Some(Stretch::Ended(self.result(Outcome::LimitReached {
                    limit: Limit::Expansions,
                    best: None,
                })));
            }
            if self.ws.records.len() >= TINY_MAX_NODES {
                // Too large to stay tiny: give the search, whole, to the
                // general engine.
                let stats = std::mem::take(&mut self.stats);
                self.ws.grown = Some((stats, self.last_f));
                return None;
            }
            let Some(index) = self.pop() else {
                return Some(Stretch::Ended(self.ran_dry()));
            };
            left -= 1;
            let open_before = self.ws.open.len();
            self.stats.expanded += 1;
            let record = &self.ws.records[index as usize];
            if self.space.is_goal(&record.node) {
                let solution = self.solution(index);
                return Some(Stretch::Ended(self.result(Outcome::Solved(solution))));
            }
            let node = record.node.clone();
            let (g, grandparent) = (record.g, (index != 0).then_some(record.parent));
            let mut handed_over = false;
            self.space.successors(&node, |action, child, cost| {
                if !handed_over {
                    handed_over = self
                        .successor(&node, index, grandparent, g, action, child, cost)
                        .is_none();
                }
            });
            if handed_over {
                return None;
            }
            self.stats.max_open = self.stats.max_open.max(self.ws.open.len().max(open_before));
        }
        Some(Stretch::Paused)
    }

    /// The next node to expand, marked closed.
    fn pop(&mut self) -> Option<u32> {
        while let Some(entry) = self.ws.open.pop() {
            let record = &mut self.ws.records[entry.index as usize];
            if record.closed {
                continue; // a stale entry of a node expanded at a lower cost
            }
            if self.last_f.is_some_and(|last| entry.key > last) {
                self.stats.expanded_until_last_jump = self.stats.expanded;
            }
            self.last_f = Some(entry.key);
            record.closed = true;
            return Some(entry.index);
        }
        None
    }

    /// Queues `index` at `g + h`; `None` when the priority overflows.
    #[inline]
    fn push(&mut self, g: S::Cost, h: S::Cost, index: u32) -> Option<()> {
        self.ws.open.push(Entry {
            key: g.checked_add(&h)?,
            g,
            seq: self.seq,
            index,
        });
        self.seq += 1;
        Some(())
    }

    /// Handles one successor of `parent` (stored at `index`, reached at
    /// `g`); `None` hands the problem over to the general engine.
    #[expect(clippy::too_many_arguments, reason = "one successor's context")]
    #[inline]
    fn successor(
        &mut self,
        parent: &S::Node,
        index: u32,
        grandparent: Option<u32>,
        g: S::Cost,
        action: S::Action,
        child: S::Node,
        cost: S::Cost,
    ) -> Option<()> {
        self.stats.generated += 1;
        if !cost.is_valid_edge() {
            return None;
        }
        let child_g = g.checked_add(&cost)?;
        let records = &self.ws.records;
        if grandparent.is_some_and(|i| records[i as usize].node == child) {
            self.stats.duplicates += 1;
            return Some(());
        }
        let hash = FxBuildHasher.hash_one(&child);
        let found = self
            .ws
            .index
            .find(hash, |&i| records[i as usize].node == child)
            .copied();
        let Some(old) = found else {
            return self.first_visit(parent, index, action, child, child_g, hash);
        };
        self.stats.duplicates += 1;
        let record = &mut self.ws.records[old as usize];
        if record.dead || child_g >= record.g {
            return Some(());
        }
        if record.closed {
            self.stats.reopened += 1;
            record.closed = false;
        }
        record.g = child_g;
        record.parent = index;
        let h = record.h;
        self.ws.actions[old as usize - 1] = action;
        self.push(child_g, h, old)
    }

    /// Stores and evaluates a node seen for the first time.
    fn first_visit(
        &mut self,
        parent: &S::Node,
        index: u32,
        action: S::Action,
        child: S::Node,
        child_g: S::Cost,
        hash: u64,
    ) -> Option<()> {
        let stored = u32::try_from(self.ws.records.len()).ok()?;
        self.stats.evaluated += 1;
        self.heuristic.notify_transition(parent, &child);
        let estimate = self.heuristic.estimate(&child);
        let (h, dead) = match estimate {
            Estimate::Value(h) => (h, false),
            Estimate::DeadEnd => {
                self.stats.dead_ends += 1;
                (S::Cost::zero(), true)
            }
        };
        let records = &self.ws.records;
        self.ws.index.insert_unique(hash, stored, |&i| {
            FxBuildHasher.hash_one(&records[i as usize].node)
        });
        self.ws.records.push(Record {
            node: child,
            g: child_g,
            h,
            parent: index,
            closed: dead,
            dead,
        });
        self.ws.actions.push(action);
        if dead {
            return Some(());
        }
        self.push(child_g, h, stored)
    }

    fn solution(&mut self, goal: u32) -> Solution<S::Node, S::Action, S::Cost> {
        let (mut actions, mut nodes) = std::mem::take(&mut self.ws.spare);
        let records = &self.ws.records;
        let mut index = goal as usize;
        while index != 0 {
            nodes.push(records[index].node.clone());
            actions.push(self.ws.actions[index - 1].clone());
            index = records[index].parent as usize;
        }
        nodes.push(records[0].node.clone());
        nodes.reverse();
        actions.reverse();
        Solution {
            actions,
            nodes,
            cost: records[goal as usize].g,
        }
    }

    /// The result of a search whose open list ran dry.
    fn ran_dry(&mut self) -> ResultOf<S> {
        let reliable = self.heuristic.dead_ends_are_reliable();
        self.result(Outcome::ran_dry(self.stats.dead_ends, reliable))
    }

    fn result(&mut self, outcome: Outcome<S::Node, S::Action, S::Cost>) -> ResultOf<S> {
        ResultOf::<S> {
            outcome,
            stats: std::mem::take(&mut self.stats),
        }
    }

    /// The buffers' bytes, as the general engine estimates its own.
    fn bytes(&self) -> usize {
        let ws = &*self.ws;
        ws.records.capacity() * size_of::<Record<S::Node, S::Cost>>()
            + ws.actions.capacity() * size_of::<S::Action>()
            + ws.index.capacity() * (size_of::<u32>() + 1)
            + ws.open.capacity() * size_of::<Entry<S::Cost>>()
            + self.heuristic.memory_bytes()
    }
}
