//! TTBS (Kuroiwa and Fukunaga, IJCAI 2020): front-to-front greedy
//! bidirectional search, each side heading for the other side's best open
//! node.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

use super::half::{edge, Guard};
use super::meeting::{join, Arrival, Meetings};
use super::nbs::BidirectionalResult;
use super::store::{grows, Inserted, Store};
use super::{Meeting, Side};
use num_traits::Zero;

use crate::engine::driver::{self, Core, End, Status, Step};
use crate::{Cost, Estimate, Limit, SearchError, SearchLimits, SearchSpace, Solution, Statistics};

/// A front-to-front estimate: the cost from a forward node to a backward
/// one. [`Ttbs`] asks it of a forward node toward the backward side's best
/// open node, and of a backward node from the forward side's.
///
/// In planning it is a heuristic from a state to a regression subgoal
/// (`h_FF` toward the subgoal's facts); on a graph, a distance between two
/// nodes. [`DeadEnd`](Estimate::DeadEnd) says only that this pair does not
/// meet: the node is kept, behind every node with a value, since it may
/// still meet another.
pub trait FrontToFront<F, B, C> {
    /// The estimated cost from `forward` to `backward`.
    fn estimate(&mut self, forward: &F, backward: &B) -> Estimate<C>;

    /// Heap bytes the estimate holds, for
    /// [`max_memory_bytes`](crate::SearchLimits::max_memory_bytes). The
    /// default is 0.
    fn memory_bytes(&self) -> usize {
        0
    }
}

impl<F, B, C, T: FrontToFront<F, B, C> + ?Sized> FrontToFront<F, B, C> for Box<T> {
    fn estimate(&mut self, forward: &F, backward: &B) -> Estimate<C> {
        (**self).estimate(forward, backward)
    }

    fn memory_bytes(&self) -> usize {
        (**self).memory_bytes()
    }
}

/// A [`FrontToFront`] estimate from a closure; see [`front_to_front_fn`].
#[derive(Clone, Copy, Debug)]
pub struct FrontToFrontFn<E>(E);

/// A front-to-front estimate from a closure of two nodes.
///
/// ```
/// use search_core::bidirectional::{front_to_front_fn, FrontToFront};
/// use search_core::Estimate;
/// let mut distance = front_to_front_fn(|a: &i32, b: &i32| (a - b).unsigned_abs());
/// assert_eq!(distance.estimate(&3, &10), Estimate::Value(7));
/// ```
pub fn front_to_front_fn<F, B, C, E: FnMut(&F, &B) -> C>(estimate: E) -> FrontToFrontFn<E> {
    FrontToFrontFn(estimate)
}

impl<F, B, C, E: FnMut(&F, &B) -> C> FrontToFront<F, B, C> for FrontToFrontFn<E> {
    fn estimate(&mut self, forward: &F, backward: &B) -> Estimate<C> {
        Estimate::Value((self.0)(forward, backward))
    }
}

/// An open entry: `(h, number)`, the lower first; ties go to the node
/// stored first.
type Entry<C> = Reverse<(C, u32)>;

/// One side of a [`Ttbs`]: its stored nodes, each one's estimate and the
/// other side's node it aims at, and a greedy open list on the estimate.
struct Front<'s, S: SearchSpace> {
    space: &'s S,
    store: Store<S::Node, S::Action, S::Cost>,
    /// By number: the estimate, and the other side's node it was made for.
    h: Vec<S::Cost>,
    aim: Vec<u32>,
    closed: Vec<bool>,
    open: BinaryHeap<Entry<S::Cost>>,
    stats: Statistics,
    /// The most successors one expansion gave, for the memory estimate.
    max_branching: usize,
    children: Vec<(S::Action, S::Node, S::Cost)>,
}

impl<'s, S: SearchSpace> Front<'s, S> {
    fn new(space: &'s S) -> Self {
        Self {
            space,
            store: Store::new(),
            h: Vec::new(),
            aim: Vec::new(),
            closed: Vec::new(),
            open: BinaryHeap::new(),
            stats: Statistics::default(),
            max_branching: 1,
            children: Vec::new(),
        }
    }

    /// The best open node, dropping the entries left stale by a new
    /// estimate or an expansion.
    fn top(&mut self) -> Option<u32> {
        while let Some(&Reverse((h, number))) = self.open.peek() {
            if !self.closed[number as usize] && self.h[number as usize] == h {
                return Some(number);
            }
            self.open.pop();
        }
        None
    }

    /// Opens `number` with estimate `h` toward the other side's `aim`.
    fn push(&mut self, number: u32, h: S::Cost, aim: u32) {
        self.h[number as usize] = h;
        self.aim[number as usize] = aim;
        self.open.push(Reverse((h, number)));
        self.stats.max_open = self.stats.max_open.max(self.open.len());
    }

    /// Offers `node` at `g`: its number and whether it is new, if it was
    /// stored, or reached more cheaply while still open.
    fn offer(
        &mut self,
        guard: &mut Guard<'_, S::Cost>,
        parent: Option<(u32, S::Action)>,
        node: S::Node,
        g: S::Cost,
    ) -> Option<(u32, bool)> {
        if guard.limits.cost_bound.is_some_and(|bound| g > bound) {
            *guard.pruned = true;
            return None;
        }
        if self.store.len() >= u32::MAX as usize {
            *guard.end = Some(End::Limit(Limit::StoredNodes));
            return None;
        }
        let heap = self.space.node_heap_bytes(&node);
        // A closed node keeps its path: its descendants' `g`s were made
        // from it.
        let closed = &self.closed;
        match self
            .store
            .insert(node, parent, g, heap, |n| !closed[n as usize])
        {
            Inserted::New(number) => {
                self.h.push(S::Cost::largest());
                self.aim.push(0);
                self.closed.push(false);
                Some((number, true))
            }
            Inserted::Cheaper(number, _) => Some((number, false)),
            Inserted::NotCheaper => {
                self.stats.duplicates += 1;
                None
            }
        }
    }

    /// Node `number`, just stored (`new`) or reached more cheaply, as the
    /// meetings take it.
    fn arrival(&self, number: u32, new: bool) -> Arrival {
        Arrival {
            number,
            new,
            is_goal: self.space.is_goal(self.store.node(number)),
        }
    }

    fn bytes(&self) -> usize {
        self.store.bytes()
            + self.h.capacity() * size_of::<S::Cost>()
            + self.aim.capacity() * size_of::<u32>()
            + self.closed.capacity()
            + self.open.capacity() * size_of::<Entry<S::Cost>>()
    }

    fn growth(&self, branching: usize) -> usize {
        self.store.growth(branching)
            + grows(
                self.h.len(),
                self.h.capacity(),
                branching,
                size_of::<S::Cost>() + size_of::<u32>() + 1,
            )
            + grows(
                self.open.len(),
                self.open.capacity(),
                branching,
                size_of::<Entry<S::Cost>>(),
            )
    }
}

/// A bidirectional greedy search by TTBS, Top-to-Top Bidirectional Search
/// (Kuroiwa and Fukunaga, IJCAI 2020): satisficing, front to front.
///
/// Each side is a greedy best-first search whose target is the other
/// side's best open node (its top): a forward node's estimate is the cost
/// from it to the backward top, a backward node's the cost from the
/// forward top to it ([`FrontToFront`]). So the two frontiers head for
/// each other and meet in the middle, where front-to-end searches run
/// past each other, and the search can solve tasks that neither direction
/// solves alone. The sides take turns, one expansion each. When a node
/// comes up whose estimate was made for a top that has since changed (and
/// not for the new top's parent), it is estimated again toward the new
/// top and goes back to the open list, instead of being expanded.
///
/// The two spaces, the [`Meeting`] and the tagged solution are as for
/// [`Nbs`](super::Nbs): each forward node is checked against the stored
/// backward nodes when stored, each backward node against the stored
/// forward nodes when expanded, and the expansion that finds a meeting
/// ends the search at the cheapest it found. Its solution need not be
/// optimal; no node is reopened. A node whose
/// estimate is a dead end toward one top is kept behind the others, since
/// it may meet another.
///
/// ```
/// use search_core::bidirectional::{front_to_front_fn, SameNode, Ttbs};
/// use search_core::FnSpace;
///
/// // A 50x50 open grid, four moves of cost 1 each way.
/// let steps = |&(x, y): &(i32, i32)| {
///     [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
///         .into_iter()
///         .filter(|&(x, y)| (0..50).contains(&x) && (0..50).contains(&y))
///         .map(|p| (p, 1_u32))
/// };
/// let forward = FnSpace::new(steps, |&p: &(i32, i32)| p == (49, 49));
/// let backward = FnSpace::new(steps, |&p: &(i32, i32)| p == (0, 0));
/// let manhattan = front_to_front_fn(|a: &(i32, i32), b: &(i32, i32)| {
///     (a.0 - b.0).unsigned_abs() + (a.1 - b.1).unsigned_abs()
/// });
/// let mut search = Ttbs::new(&forward, (0, 0), &backward, (49, 49), SameNode, manhattan);
/// let path = search.run().unwrap().outcome.solution().unwrap().clone();
/// assert_eq!(path.cost, 98);
/// // The sides met in the middle: each expanded about half the path.
/// assert!(search.forward_statistics().expanded <= 60);
/// assert!(search.backward_statistics().expanded <= 60);
/// ```
pub struct Ttbs<'s, FS, BS, M, H>
where
    FS: SearchSpace,
    BS: SearchSpace<Action = FS::Action, Cost = FS::Cost>,
{
    forward: Front<'s, FS>,
    backward: Front<'s, BS>,
    heuristic: H,
    /// The meeting test, and the cheapest solution found.
    meetings: Meetings<M, FS::Cost>,
    start: FS::Node,
    /// The backward root, until the first step stores both roots.
    goal: Option<BS::Node>,
    /// Whose turn it is.
    backward_turn: bool,
    /// The first path cost that passed the cost type, if one was left out.
    overflow: Option<SearchError>,
    /// Whether the cost bound pruned a path.
    pruned: bool,
    core: Core<FS::Cost>,
}

impl<'s, FS, BS, M, H> Ttbs<'s, FS, BS, M, H>
where
    FS: SearchSpace,
    BS: SearchSpace<Action = FS::Action, Cost = FS::Cost>,
    M: Meeting<FS::Node, BS::Node>,
    H: FrontToFront<FS::Node, BS::Node, FS::Cost>,
{
    /// A search from `start` in `forward` and from `goal` in `backward`,
    /// whose sides meet as `meeting` says and aim at each other by
    /// `heuristic`.
    pub fn new(
        forward: &'s FS,
        start: FS::Node,
        backward: &'s BS,
        goal: BS::Node,
        meeting: M,
        heuristic: H,
    ) -> Self {
        Self {
            forward: Front::new(forward),
            backward: Front::new(backward),
            heuristic,
            meetings: Meetings::new(meeting),
            start,
            goal: Some(goal),
            backward_turn: false,
            overflow: None,
            pruned: false,
            core: Core::default(),
        }
    }

    /// Stops the search at these limits; expansions count both sides.
    #[must_use]
    pub fn limits(mut self, limits: SearchLimits<FS::Cost>) -> Self {
        self.core.limits = limits;
        self
    }

    /// Both sides' statistics together.
    pub fn statistics(&self) -> &Statistics {
        &self.core.stats
    }

    /// The forward side's statistics.
    pub fn forward_statistics(&self) -> &Statistics {
        &self.forward.stats
    }

    /// The backward side's statistics.
    pub fn backward_statistics(&self) -> &Statistics {
        &self.backward.stats
    }

    /// Advances by at most `expansions` expansions (of either side).
    ///
    /// # Errors
    /// [`SearchError`] for a negative or NaN edge cost.
    pub fn step(&mut self, expansions: u64) -> Result<Status, SearchError> {
        driver::step(self, expansions)
    }

    /// Runs to the end; a second call returns the same result.
    ///
    /// # Errors
    /// [`SearchError`] for a negative or NaN edge cost, or when every
    /// solution's cost passes the cost type.
    pub fn run(&mut self) -> Result<BidirectionalResult<FS, BS>, SearchError> {
        driver::run(self)
    }

    /// Stores both roots, each aimed at the other, and checks whether they
    /// already meet.
    fn begin(&mut self, goal: BS::Node) {
        let mut guard = Guard {
            limits: &self.core.limits,
            end: &mut self.core.end,
            overflow: &mut self.overflow,
            pruned: &mut self.pruned,
        };
        let zero = FS::Cost::zero();
        let forward = self
            .forward
            .offer(&mut guard, None, self.start.clone(), zero);
        let backward = self.backward.offer(&mut guard, None, goal, zero);
        let (Some((f, _)), Some((b, _))) = (forward, backward) else {
            // A root past the cost bound: nothing to search.
            self.finish();
            return;
        };
        let h = value(
            self.heuristic
                .estimate(self.forward.store.node(f), self.backward.store.node(b)),
        );
        self.forward.stats.evaluated += 1;
        self.forward.push(f, h, b);
        self.backward.push(b, h, f);
        let bound = self.core.limits.cost_bound;
        let (forward, backward) = (&self.forward, &self.backward);
        let meetings = &mut self.meetings;
        let _ = meetings.forward_stored(
            &forward.store,
            &backward.store,
            forward.arrival(f, true),
            bound,
        ) || meetings.backward_stored(&backward.store, backward.arrival(b, true), bound)
            || meetings.backward_expanded(&forward.store, &backward.store, b, bound);
    }

    /// Ends the search: at the solution if there is one.
    fn finish(&mut self) {
        self.core.end = Some(match self.meetings.best() {
            Some(_) => End::Goal(0),
            None => End::ran_dry(self.overflow.take(), self.pruned || self.meetings.pruned),
        });
    }

    /// Expands the next node of the backward side if `backward`, else of
    /// the forward side, checking it (backward) or each successor stored
    /// (forward) against the other side.
    fn expand(&mut self, backward: bool) {
        let mut guard = Guard {
            limits: &self.core.limits,
            end: &mut self.core.end,
            overflow: &mut self.overflow,
            pruned: &mut self.pruned,
        };
        let (heuristic, meetings) = (&mut self.heuristic, &mut self.meetings);
        let bound = self.core.limits.cost_bound;
        let (forward, back) = (&mut self.forward, &mut self.backward);
        if backward {
            let mut toward = |b: &BS::Node, f: &FS::Node| value(heuristic.estimate(f, b));
            let Some(number) = next(back, forward, &mut toward) else {
                return;
            };
            if meetings.backward_expanded(&forward.store, &back.store, number, bound) {
                return;
            }
            let aim = forward.top().unwrap_or(back.aim[number as usize]);
            expand(
                back,
                forward,
                (number, aim),
                &mut guard,
                &mut toward,
                |back, child, new| {
                    meetings.backward_stored(&back.store, back.arrival(child, new), bound);
                },
            );
        } else {
            let mut toward = |f: &FS::Node, b: &BS::Node| value(heuristic.estimate(f, b));
            let Some(number) = next(forward, back, &mut toward) else {
                return;
            };
            let aim = back.top().unwrap_or(forward.aim[number as usize]);
            expand(
                forward,
                back,
                (number, aim),
                &mut guard,
                &mut toward,
                |forward, child, new| {
                    let arrival = forward.arrival(child, new);
                    meetings.forward_stored(&forward.store, &back.store, arrival, bound);
                },
            );
        }
    }

    /// Both sides' statistics together, with what is measured at the end.
    fn total(&self) -> Statistics {
        let (f, b) = (&self.forward, &self.backward);
        Statistics {
            expanded_until_last_jump: self.core.stats.expanded_until_last_jump,
            stored: f.store.len() + b.store.len(),
            estimated_bytes: self.bytes(0),
            elapsed: self.core.stats.elapsed,
            ..f.stats.beside(&b.stats)
        }
    }

    /// The engine's memory estimate, and with the growth of every
    /// structure that `branching` more nodes per side could fill.
    fn bytes(&self, branching: usize) -> usize {
        self.forward.bytes()
            + self.backward.bytes()
            + self.forward.growth(branching)
            + self.backward.growth(branching)
            + self.meetings.test.memory_bytes()
            + self.heuristic.memory_bytes()
    }
}

/// An estimate as an open list's key: a dead end is the largest cost, last.
fn value<C: Cost>(estimate: Estimate<C>) -> C {
    match estimate {
        Estimate::Value(h) => h,
        Estimate::DeadEnd => C::largest(),
    }
}

/// The next node of side `own` to expand: its best open node, once that
/// node's estimate aims at the `other` side's top or at the top's parent
/// (whose successors the top is among, as TTBS allows); a node aimed
/// elsewhere is estimated again toward the top and put back. `toward`
/// estimates between a node of `own` and one of `other`.
fn next<S, O>(
    own: &mut Front<'_, S>,
    other: &mut Front<'_, O>,
    toward: &mut impl FnMut(&S::Node, &O::Node) -> S::Cost,
) -> Option<u32>
where
    S: SearchSpace,
    O: SearchSpace<Action = S::Action, Cost = S::Cost>,
{
    let top = other.top();
    loop {
        let number = own.top()?;
        let aim = own.aim[number as usize];
        let Some(top) = top else {
            return Some(number);
        };
        if aim == top || other.store.parent(top) == Some(aim) {
            return Some(number);
        }
        own.stats.evaluated += 1;
        let h = toward(own.store.node(number), other.store.node(top));
        own.push(number, h, top);
    }
}

/// Expands node `number` of side `own`: each new successor is estimated
/// toward node `aim` of the `other` side (its top, or with no open node
/// there, what `number` aimed at), and each successor stored or reached
/// more cheaply while open is passed to `stored`, which checks whether it
/// meets the other side (the expansion goes on: a later successor may
/// meet more cheaply, or be the same node by a cheaper edge).
fn expand<S, O>(
    own: &mut Front<'_, S>,
    other: &Front<'_, O>,
    (number, aim): (u32, u32),
    guard: &mut Guard<'_, S::Cost>,
    toward: &mut impl FnMut(&S::Node, &O::Node) -> S::Cost,
    mut stored: impl FnMut(&Front<'_, S>, u32, bool),
) where
    S: SearchSpace,
    O: SearchSpace<Action = S::Action, Cost = S::Cost>,
{
    own.closed[number as usize] = true;
    own.stats.expanded += 1;
    let (node, g) = (own.store.node(number).clone(), own.store.g(number));
    let mut children = std::mem::take(&mut own.children);
    own.space.successors(&node, |action, child, cost| {
        children.push((action, child, cost));
    });
    own.max_branching = own.max_branching.max(children.len());
    for (action, child, cost) in children.drain(..) {
        own.stats.generated += 1;
        let Some(child_g) = edge(guard, &node, g, cost) else {
            if guard.end.is_some() {
                break;
            }
            continue;
        };
        let Some((child, new)) = own.offer(guard, Some((number, action)), child, child_g) else {
            if guard.end.is_some() {
                break;
            }
            continue;
        };
        if new {
            own.stats.evaluated += 1;
            let h = toward(own.store.node(child), other.store.node(aim));
            own.push(child, h, aim);
        }
        stored(own, child, new);
    }
    own.children = children;
}

impl<FS, BS, M, H> Step for Ttbs<'_, FS, BS, M, H>
where
    FS: SearchSpace,
    BS: SearchSpace<Action = FS::Action, Cost = FS::Cost>,
    M: Meeting<FS::Node, BS::Node>,
    H: FrontToFront<FS::Node, BS::Node, FS::Cost>,
{
    type Node = Side<FS::Node, BS::Node>;
    type Action = FS::Action;
    type Cost = FS::Cost;

    const PACED_CLOCK: bool = true;

    fn core(&self) -> &Core<FS::Cost> {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core<FS::Cost> {
        &mut self.core
    }

    fn prepare(&mut self, _started: Instant) {
        if let Some(goal) = self.goal.take() {
            self.begin(goal);
            if self.meetings.best().is_some() {
                self.finish();
            }
            self.core.stats = self.total();
        }
    }

    fn advance(&mut self, _started: Instant) -> bool {
        if self.core.end.is_some() {
            return false;
        }
        let (forward_open, backward_open) =
            (self.forward.top().is_some(), self.backward.top().is_some());
        if !forward_open && !backward_open {
            self.finish();
            return false;
        }
        // The sides take turns while both have open nodes.
        let backward = if self.backward_turn {
            backward_open
        } else {
            !forward_open
        };
        self.expand(backward);
        self.backward_turn = !backward;
        if self.meetings.best().is_some() {
            self.finish();
        }
        self.core.stats = self.total();
        true
    }

    fn stored_nodes(&self) -> Option<usize> {
        Some(self.forward.store.len() + self.backward.store.len())
    }

    fn exceeds_memory(&self, max: usize) -> bool {
        let branching = self.forward.max_branching.max(self.backward.max_branching);
        self.bytes(branching) > max
    }

    fn settle(&mut self) {
        self.core.stats = self.total();
        let elapsed = self.core.stats.elapsed;
        let forward = (self.forward.store.len(), self.forward.bytes());
        let backward = (self.backward.store.len(), self.backward.bytes());
        for (stats, (stored, bytes)) in [
            (&mut self.forward.stats, forward),
            (&mut self.backward.stats, backward),
        ] {
            stats.stored = stored;
            stats.estimated_bytes = bytes;
            stats.elapsed = elapsed;
        }
    }

    fn solution(
        &self,
        _goal: u32,
    ) -> Result<Solution<Side<FS::Node, BS::Node>, FS::Action, FS::Cost>, SearchError> {
        Ok(self
            .best()
            .unwrap_or_else(|| unreachable!("the search ends at a goal only with a solution")))
    }

    fn best(&self) -> Option<Solution<Side<FS::Node, BS::Node>, FS::Action, FS::Cost>> {
        let (cost, meet) = self.meetings.best()?;
        Some(join(
            &self.start,
            &self.forward.store,
            &self.backward.store,
            cost,
            meet,
        ))
    }

    /// A dead end toward one top is no dead end: no node is dropped.
    fn dead_ends_are_reliable(&self) -> bool {
        true
    }
}
