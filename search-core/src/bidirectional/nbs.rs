//! NBS (Chen, Holte, Zilles and Sturtevant, IJCAI 2017): front-to-end
//! bidirectional search that expands a pair of nodes at a time, one per
//! side, whose lower bound is the smallest.

use std::time::Instant;

use super::frontier::{Pair, Ready};
use super::half::{Guard, Half};
use super::meeting::{join, Meetings};
use super::{Meeting, Side};
use num_traits::Zero;

use crate::engine::driver::{self, Core, End, Status, Step};
use crate::{
    Blind, Cost, Heuristic, SearchError, SearchLimits, SearchResult, SearchSpace, Solution,
    Statistics,
};

/// The result of a bidirectional search of `FS` forward and `BS` backward.
pub type BidirectionalResult<FS, BS> = SearchResult<
    Side<<FS as SearchSpace>::Node, <BS as SearchSpace>::Node>,
    <FS as SearchSpace>::Action,
    <FS as SearchSpace>::Cost,
>;

/// A bidirectional search by NBS: optimal with admissible heuristics, and
/// with consistent ones it expands at most twice the nodes of a minimum
/// vertex cover of the pairs every front-to-end search must expand (the
/// best worst-case guarantee such an algorithm can give).
///
/// The forward space searches from `start`; the backward space searches
/// from `goal` over reversed edges (its successors are a node's
/// predecessors, with the cost of the edge between them). The two sides'
/// nodes may differ in type: in planning the backward side regresses over
/// subgoals. A [`Meeting`] says when a forward node meets a backward one;
/// each forward node is checked against the stored backward nodes when it
/// is stored, each backward node against the stored forward nodes when it
/// is expanded.
/// Each side's heuristic estimates the cost to its own target: the
/// forward one to the goal, the backward one back to the start.
///
/// The search keeps a lower bound `C` on the cost of every solution it has
/// not found: the least `max(f_F(u), f_B(v), g_F(u) + g_B(v))` over open
/// pairs `(u, v)`. It expands the pair that sets it, one node per step
/// (forward, then backward), and ends when `C` reaches the cheapest
/// solution found, or when either side has no open node left.
///
/// Statistics count both sides together ([`statistics`](Self::statistics))
/// and each side alone ([`forward_statistics`](Self::forward_statistics),
/// [`backward_statistics`](Self::backward_statistics)). The solution's
/// nodes are tagged with the side that stored them ([`Side`]): the forward
/// path to the meeting point, then the backward path after it, in the
/// order they are passed.
///
/// ```
/// use search_core::bidirectional::{Nbs, SameNode, Side};
/// use search_core::{FnSpace, SearchLimits};
///
/// // Numbers 0..=1000: +1 costs 1, *2 costs 1 (and backward, -1 and /2).
/// let forward = FnSpace::new(
///     |&n: &u32| [(n + 1, 1_u32), (n * 2, 1)].into_iter().filter(|&(m, _)| m <= 1000),
///     |&n: &u32| n == 1000,
/// );
/// let backward = FnSpace::new(
///     |&n: &u32| {
///         let halve = (n % 2 == 0 && n > 0).then(|| (n / 2, 1));
///         n.checked_sub(1).map(|m| (m, 1)).into_iter().chain(halve)
///     },
///     |&n: &u32| n == 1,
/// );
/// let mut search = Nbs::new(&forward, 1, &backward, 1000, SameNode)
///     .limits(SearchLimits { max_expansions: Some(10_000), ..SearchLimits::default() });
/// let result = search.run().unwrap();
/// let path = result.outcome.solution().unwrap();
/// assert_eq!(path.cost, 14); // 1 2 3 6 7 14 15 30 31 62 124 125 250 500 1000
/// assert!(matches!(path.nodes.last(), Some(Side::Backward(1000))));
/// assert!(search.forward_statistics().expanded > 0);
/// assert!(search.backward_statistics().expanded > 0);
/// ```
pub struct Nbs<'s, FS, BS, M, HF = Blind, HB = Blind>
where
    FS: SearchSpace,
    BS: SearchSpace<Action = FS::Action, Cost = FS::Cost>,
{
    forward: Half<'s, FS, HF>,
    backward: Half<'s, BS, HB>,
    start: FS::Node,
    /// The backward root, until the first step stores both roots.
    goal: Option<BS::Node>,
    /// The meeting test, and the cheapest solution found.
    meetings: Meetings<M, FS::Cost>,
    /// `C`: no solution not yet found costs less.
    bound: FS::Cost,
    /// The backward node of the chosen pair, when it is still to expand
    /// (its `g` and number).
    backward_next: Option<Ready<FS::Cost>>,
    /// The first path cost that passed the cost type, if one was left out.
    overflow: Option<SearchError>,
    /// Whether the cost bound pruned a path.
    pruned: bool,
    core: Core<FS::Cost>,
}

impl<'s, FS, BS, M> Nbs<'s, FS, BS, M>
where
    FS: SearchSpace,
    BS: SearchSpace<Action = FS::Action, Cost = FS::Cost>,
    M: Meeting<FS::Node, BS::Node>,
{
    /// A search from `start` in `forward` and from `goal` in `backward`,
    /// whose sides meet as `meeting` says. Without
    /// [`heuristics`](Self::heuristics) it is bidirectional Dijkstra.
    pub fn new(
        forward: &'s FS,
        start: FS::Node,
        backward: &'s BS,
        goal: BS::Node,
        meeting: M,
    ) -> Self {
        Self {
            forward: Half::new(forward, Blind),
            backward: Half::new(backward, Blind),
            start,
            goal: Some(goal),
            meetings: Meetings::new(meeting),
            bound: FS::Cost::zero(),
            backward_next: None,
            overflow: None,
            pruned: false,
            core: Core::default(),
        }
    }
}

impl<'s, FS, BS, M, HF, HB> Nbs<'s, FS, BS, M, HF, HB>
where
    FS: SearchSpace,
    BS: SearchSpace<Action = FS::Action, Cost = FS::Cost>,
    M: Meeting<FS::Node, BS::Node>,
    HF: Heuristic<FS::Node, FS::Cost>,
    HB: Heuristic<BS::Node, BS::Cost>,
{
    /// Estimates for each side: `forward` of the cost from a forward node
    /// to the goal, `backward` of the cost from the start to a backward
    /// node. Both must be admissible for optimal solutions, and consistent
    /// for NBS's bound on expansions.
    pub fn heuristics<HF2, HB2>(self, forward: HF2, backward: HB2) -> Nbs<'s, FS, BS, M, HF2, HB2>
    where
        HF2: Heuristic<FS::Node, FS::Cost>,
        HB2: Heuristic<BS::Node, BS::Cost>,
    {
        Nbs {
            forward: self.forward.with_heuristic(forward),
            backward: self.backward.with_heuristic(backward),
            start: self.start,
            goal: self.goal,
            meetings: self.meetings,
            bound: self.bound,
            backward_next: self.backward_next,
            overflow: self.overflow,
            pruned: self.pruned,
            core: self.core,
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
        &self.forward.frontier.stats
    }

    /// The backward side's statistics.
    pub fn backward_statistics(&self) -> &Statistics {
        &self.backward.frontier.stats
    }

    /// The lower bound `C` reached so far: every solution not yet found
    /// costs at least this much.
    pub fn lower_bound(&self) -> FS::Cost {
        self.bound
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

    /// Stores both roots and checks whether they already meet.
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
        // The backward root is checked against the forward one.
        let bound = self.core.limits.cost_bound;
        let (forward_store, backward_store) = (
            self.forward.frontier.store(),
            self.backward.frontier.store(),
        );
        if let Some(found) = forward {
            self.meetings
                .forward_stored(forward_store, backward_store, found, bound);
        }
        if let Some(found) = backward {
            self.meetings.backward_stored(backward_store, found, bound);
            self.meetings
                .backward_expanded(forward_store, backward_store, found.number, bound);
        }
    }

    /// Chooses the next pair to expand (each node's `g` and number),
    /// raising `C` until the least lower bound of a ready pair reaches it;
    /// ends the search instead when `C` reaches the best solution or a side
    /// runs dry.
    fn choose_pair(&mut self) -> Option<Pair<FS::Cost>> {
        loop {
            if self.is_done() || self.forward.frontier.is_dry() || self.backward.frontier.is_dry() {
                self.finish();
                return None;
            }
            self.forward.frontier.make_ready(self.bound);
            self.backward.frontier.make_ready(self.bound);
            let ready = self
                .forward
                .frontier
                .least_ready_g()
                .zip(self.backward.frontier.least_ready_g())
                .map(|(f, b)| f.saturating_add(b));
            if ready.is_some_and(|sum| sum <= self.bound) {
                let (bound, least_back) = (self.bound, self.backward.frontier.least_ready_g()?);
                let forward = self
                    .forward
                    .frontier
                    .pick(|g| g.saturating_add(least_back) <= bound)?;
                let backward = self
                    .backward
                    .frontier
                    .pick(|g| g.saturating_add(forward.0) <= bound)?;
                return Some((forward, backward));
            }
            // Every live waiting `f`, and the ready sum, is above `C` now.
            let next = [
                self.forward.frontier.least_waiting_f(),
                self.backward.frontier.least_waiting_f(),
                ready,
            ]
            .into_iter()
            .flatten()
            .min();
            match next {
                Some(next) if next > self.bound => self.bound = next,
                // Only priorities saturated at the cost type's largest value
                // are left: no path past here fits the type.
                _ => {
                    self.finish();
                    return None;
                }
            }
        }
    }

    /// Whether `C` has reached the cheapest solution found: it is optimal.
    fn is_done(&self) -> bool {
        self.meetings
            .best()
            .is_some_and(|(cost, _)| cost <= self.bound)
    }

    /// Ends the search: at the best solution if there is one.
    fn finish(&mut self) {
        self.core.end = Some(match self.meetings.best() {
            Some(_) => End::Goal(0),
            None => End::ran_dry(self.overflow.take(), self.pruned || self.meetings.pruned),
        });
    }

    /// Expands forward node `node` (its `g` and number), or backward node
    /// `node` if `backward`.
    fn expand(&mut self, node: Ready<FS::Cost>, backward: bool) {
        let mut guard = Guard {
            limits: &self.core.limits,
            end: &mut self.core.end,
            overflow: &mut self.overflow,
            pruned: &mut self.pruned,
        };
        let (meetings, bound) = (&mut self.meetings, self.core.limits.cost_bound);
        if backward {
            let forward = self.forward.frontier.store();
            meetings.backward_expanded(forward, self.backward.frontier.store(), node.1, bound);
            self.backward.expand(node, &mut guard, |backward, found| {
                meetings.backward_stored(backward.frontier.store(), found, bound);
            });
        } else {
            let backward = self.backward.frontier.store();
            self.forward.expand(node, &mut guard, |forward, found| {
                meetings.forward_stored(forward.frontier.store(), backward, found, bound);
            });
        }
    }

    /// Both sides' statistics together, with what is measured at the end.
    fn total(&self) -> Statistics {
        let (f, b) = (&self.forward.frontier, &self.backward.frontier);
        Statistics {
            dominated: 0,
            expanded_until_last_jump: self.core.stats.expanded_until_last_jump,
            stored: f.len() + b.len(),
            estimated_bytes: self.bytes(0),
            elapsed: self.core.stats.elapsed,
            ..f.stats.beside(&b.stats)
        }
    }

    /// The engine's memory estimate, and with the growth of every
    /// structure that `branching` more nodes per side could fill.
    fn bytes(&self, branching: usize) -> usize {
        self.forward.frontier.bytes()
            + self.backward.frontier.bytes()
            + self.forward.frontier.growth(branching)
            + self.backward.frontier.growth(branching)
            + self.meetings.test.memory_bytes()
            + self.forward.heuristic.memory_bytes()
            + self.backward.heuristic.memory_bytes()
    }
}

impl<FS, BS, M, HF, HB> Step for Nbs<'_, FS, BS, M, HF, HB>
where
    FS: SearchSpace,
    BS: SearchSpace<Action = FS::Action, Cost = FS::Cost>,
    M: Meeting<FS::Node, BS::Node>,
    HF: Heuristic<FS::Node, FS::Cost>,
    HB: Heuristic<BS::Node, BS::Cost>,
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

    fn prepare(&mut self, started: Instant) {
        if let Some(left) = self.core.time_left() {
            let deadline = started.checked_add(left);
            self.forward.heuristic.set_deadline(deadline);
            self.backward.heuristic.set_deadline(deadline);
        }
        if let Some(max) = self.core.limits.max_memory_bytes {
            // Each side's heuristic may hold half of what the search leaves.
            let left = max.saturating_sub(self.bytes(0)) / 2;
            self.forward.heuristic.set_memory_budget(Some(left));
            self.backward.heuristic.set_memory_budget(Some(left));
        }
        if let Some(goal) = self.goal.take() {
            self.begin(goal);
            self.core.stats = self.total();
        }
    }

    fn advance(&mut self, _started: Instant) -> bool {
        if self.core.end.is_some() {
            return false;
        }
        // The pair's backward node follows its forward one, unless the
        // forward expansion found a solution that the bound proves optimal.
        match self.backward_next.take() {
            Some(_) if self.is_done() => {
                self.finish();
                return false;
            }
            Some(backward) => self.expand(backward, true),
            None => {
                let Some((forward, backward)) = self.choose_pair() else {
                    return false;
                };
                self.expand(forward, false);
                self.backward_next = Some(backward);
            }
        }
        self.core.stats = self.total();
        true
    }

    fn stored_nodes(&self) -> Option<usize> {
        Some(self.forward.frontier.len() + self.backward.frontier.len())
    }

    fn exceeds_memory(&self, max: usize) -> bool {
        let branching = self.forward.max_branching.max(self.backward.max_branching);
        self.bytes(branching) > max
    }

    fn settle(&mut self) {
        self.core.stats = self.total();
        let elapsed = self.core.stats.elapsed;
        let forward = &mut self.forward.frontier;
        forward.stats.stored = forward.len();
        forward.stats.estimated_bytes = forward.bytes() + self.forward.heuristic.memory_bytes();
        forward.stats.elapsed = elapsed;
        let backward = &mut self.backward.frontier;
        backward.stats.stored = backward.len();
        backward.stats.estimated_bytes = backward.bytes() + self.backward.heuristic.memory_bytes();
        backward.stats.elapsed = elapsed;
    }

    fn solution(
        &self,
        _goal: u32,
    ) -> Result<Solution<Side<FS::Node, BS::Node>, FS::Action, FS::Cost>, SearchError> {
        Ok(self
            .best()
            .unwrap_or_else(|| unreachable!("the search ends at a goal only with a solution")))
    }

    /// The cheapest solution found: optimal when the search ended by
    /// itself, the best so far when a limit stopped it.
    fn best(&self) -> Option<Solution<Side<FS::Node, BS::Node>, FS::Action, FS::Cost>> {
        let (cost, meet) = self.meetings.best()?;
        Some(join(
            &self.start,
            self.forward.frontier.store(),
            self.backward.frontier.store(),
            cost,
            meet,
        ))
    }

    fn dead_ends_are_reliable(&self) -> bool {
        self.forward.heuristic.dead_ends_are_reliable()
            && self.backward.heuristic.dead_ends_are_reliable()
    }
}
