//! The eager best-first search that every algorithm of [`Algorithm`]
//! configures: its builder, its state between steps, and its step for the
//! engine's loop ([`driver`](crate::engine::driver)); one expansion is in
//! [`expansion`](crate::engine::expansion).

use std::time::Instant;

use num_traits::Zero;

use crate::engine::anytime::{Improvement, Next, Schedule};
use crate::engine::driver::{self, Core, End, PlanOf, Step};
use crate::engine::expansion::{estimate_again, push_open, Expansion};
use crate::engine::open::{OpenListKind, Priority};
use crate::engine::store::{Refused, Slot};
use crate::engine::tiny::Handover;
use crate::engine::workspace::Workspace;
use crate::{
    Algorithm, Blind, Cost, Dominance, Estimate, Heuristic, SearchError, SearchLimits,
    SearchResult, SearchSpace, Solution, Statistics, Status, Trace,
};

/// The owned part of a search over space `S` ([`SearchState`]).
pub type StateOf<S> =
    SearchState<<S as SearchSpace>::Node, <S as SearchSpace>::Action, <S as SearchSpace>::Cost>;

/// The result type of a search over space `S`.
pub type ResultOf<S> =
    SearchResult<<S as SearchSpace>::Node, <S as SearchSpace>::Action, <S as SearchSpace>::Cost>;

/// A search in progress, advanced in steps or run to the end.
///
/// Configure it with the builder methods before the first step; then call
/// [`step`](Search::step) to advance a number of expansions at a time (to
/// spread a search over game frames) or [`run`](Search::run) to finish.
///
/// ```
/// use search_core::{Algorithm, Search, SearchSpace, Status};
///
/// /// A line of cells 0..=100; step left or right at cost 1.
/// struct Line;
/// impl SearchSpace for Line {
///     type Node = i32;
///     type Action = i32;
///     type Cost = u32;
///     fn is_goal(&self, n: &i32) -> bool { *n == 100 }
///     fn successors<F: FnMut(i32, i32, u32)>(&self, n: &i32, mut emit: F) {
///         for d in [-1, 1] {
///             if (0..=100).contains(&(n + d)) { emit(d, n + d, 1); }
///         }
///     }
/// }
///
/// let mut search = Search::new(&Line, 0)
///     .algorithm(Algorithm::AStar)
///     .heuristic(|n: &i32| (100 - n) as u32);
/// let mut frames = 0;
/// while search.step(10).unwrap() == Status::Running {
///     frames += 1; // render a frame, then go on
/// }
/// let result = search.run().unwrap();
/// assert_eq!(result.outcome.solution().unwrap().cost, 100);
/// assert!(frames >= 10);
/// ```
pub struct Search<'s, S: SearchSpace, H = Blind> {
    space: &'s S,
    heuristic: H,
    dominance: Option<Box<dyn Dominance<S::Node, S::Cost> + 's>>,
    run: SearchState<S::Node, S::Action, S::Cost>,
}

/// Everything a [`Search`] owns: its nodes, open list, statistics, limits
/// and where it stopped; all but the space, the heuristic and the
/// dominance pruner, which it borrows or is given.
///
/// Take it out with [`Search::into_state`] to keep a search between game
/// frames in a struct that owns it (it is `Send` when the nodes, actions
/// and costs are), and go on with [`Search::resume`] over the same space.
///
/// ```
/// use search_core::{Search, SearchSpace, SearchState, Status};
///
/// /// Count from 0 to 1000 in steps of one.
/// struct Count;
/// impl SearchSpace for Count {
///     type Node = u32;
///     type Action = ();
///     type Cost = u32;
///     fn is_goal(&self, n: &u32) -> bool { *n == 1000 }
///     fn successors<F: FnMut((), u32, u32)>(&self, n: &u32, mut emit: F) {
///         if *n < 1000 { emit((), n + 1, 1); }
///     }
/// }
///
/// /// An agent that keeps its search from one frame to the next.
/// struct Agent { search: Option<SearchState<u32, (), u32>> }
///
/// let mut agent = Agent { search: Some(Search::new(&Count, 0).into_state().0) };
/// let mut frames = 0;
/// loop {
///     frames += 1;
///     let state = agent.search.take().unwrap();
///     let mut search = Search::resume(&Count, state);
///     if search.step(100).unwrap() == Status::Finished {
///         let result = search.run().unwrap();
///         assert_eq!(result.outcome.solution().unwrap().cost, 1000);
///         break;
///     }
///     agent.search = Some(search.into_state().0);
/// }
/// assert_eq!(frames, 11);
/// ```
pub struct SearchState<N, A, C> {
    start: Option<N>,
    algorithm: Algorithm,
    open_list: OpenListKind,
    /// The limits, statistics, clock and end the engine's loop keeps.
    core: Core<C>,
    ws: Workspace<N, C>,
    /// Set when the cost bound pruned a node, so "exhausted" would be a lie.
    pruned: bool,
    /// The first path whose cost passed the cost type's largest value: left
    /// out, since a cheaper plan may exist, and the error if none does.
    overflow: Option<SearchError>,
    last_key: Option<Priority<C>>,
    /// Breadth-first search expands the store in order; the next to expand.
    bfs_next: u32,
    /// The most successors one expansion produced, for memory projections.
    max_branching: usize,
    /// When `max_time` runs out, from the running step's start.
    deadline: Option<Instant>,
    /// Restarting weighted A*'s iterations and plans so far.
    schedule: Option<Schedule<N, A, C>>,
    /// The start, kept for the next iteration of restarting weighted A*.
    origin: Option<N>,
    /// The expanded nodes in order, when recording a [`Trace`].
    expansions: Option<Vec<u32>>,
    /// A tiny search to go on with instead of starting ([`Search::take_over`]).
    handover: Option<Handover<N, C>>,
}

impl<N, A, C: Ord> SearchState<N, A, C> {
    /// A search from `start` that has not begun: A* and no limits.
    fn new(start: N) -> Self {
        Self {
            start: Some(start),
            algorithm: Algorithm::AStar,
            open_list: OpenListKind::Auto,
            core: Core::default(),
            ws: Workspace::default(),
            pruned: false,
            overflow: None,
            last_key: None,
            bfs_next: 0,
            max_branching: 1,
            deadline: None,
            schedule: None,
            origin: None,
            expansions: None,
            handover: None,
        }
    }

    /// The statistics so far.
    pub fn statistics(&self) -> &Statistics {
        &self.core.stats
    }

    /// Whether the search has ended ([`Search::run`] then returns at once).
    pub fn is_finished(&self) -> bool {
        self.core.end.is_some()
    }
}

impl<N: crate::Node, A: Clone, C: Cost> SearchState<N, A, C> {
    /// The search's exploration so far, if it records one; see
    /// [`Search::trace`]. `space` is the space it ran on: the actions are
    /// found again from it.
    pub fn trace<S>(&self, space: &S) -> Option<Trace<N, A, C>>
    where
        S: SearchSpace<Node = N, Action = A, Cost = C>,
    {
        let goal = End::goal(self.core.end.as_ref());
        let expansions = self.expansions.as_deref()?;
        let heuristic = self.algorithm.uses_heuristic();
        Some(Trace::of_store(
            &self.ws.store,
            space,
            expansions,
            goal,
            heuristic,
        ))
    }
}

impl<'s, S: SearchSpace> Search<'s, S, Blind> {
    /// A search of `space` from `start`: A* with the blind heuristic and no
    /// limits until configured otherwise.
    pub fn new(space: &'s S, start: S::Node) -> Self {
        Self::resume(space, SearchState::new(start))
    }

    /// Goes on with a search taken out by [`into_state`](Search::into_state),
    /// over `space`, which must be the space it ran on (or one equal to it).
    /// Give the heuristic again with [`heuristic`](Search::heuristic), and
    /// a dominance pruner if it had one: the search goes on where it
    /// stopped, with its nodes, open list, limits and statistics.
    pub fn resume(space: &'s S, state: StateOf<S>) -> Self {
        Self {
            space,
            heuristic: Blind,
            dominance: None,
            run: state,
        }
    }
}

impl<'s, S, H> Search<'s, S, H>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost>,
{
    /// Goes on from a tiny A* that grew too large
    /// ([`TinyWorkspace::take_handover`](crate::TinyWorkspace::take_handover))
    /// instead of starting afresh: its nodes, open list and statistics
    /// become this search's, so the result is the one a search from the
    /// start would have returned, without doing the tiny search's work
    /// again. The handover must come from a search of the same space from
    /// the same start, with the heuristic this search is given (its
    /// values are kept, not computed again). It is dropped, and the search
    /// starts afresh, unless the search is A* without a dominance pruner
    /// or a trace (which would miss the tiny search's expansions) from the
    /// handover's start.
    #[must_use]
    pub fn take_over(mut self, handover: Handover<S::Node, S::Cost>) -> Self {
        self.run.handover = Some(handover);
        self
    }

    /// Chooses the algorithm.
    #[must_use]
    pub fn algorithm(mut self, algorithm: Algorithm) -> Self {
        if algorithm == Algorithm::RestartingWeightedAStar {
            let schedule = Schedule::new();
            self.run.algorithm = schedule.algorithm();
            self.run.schedule = Some(schedule);
        } else {
            self.run.algorithm = algorithm;
            self.run.schedule = None;
        }
        self
    }

    /// The plans restarting weighted A* found so far, each cheaper than the
    /// one before (empty for the other algorithms). Read it between
    /// [`step`](Search::step)s to act on a plan before the search ends.
    ///
    /// ```
    /// use search_core::{Algorithm, Search, SearchSpace, Status};
    ///
    /// /// Two roads from 0 to 10: ten steps at cost 1, or a jump at cost 20.
    /// struct Roads;
    /// impl SearchSpace for Roads {
    ///     type Node = u32;
    ///     type Action = &'static str;
    ///     type Cost = u32;
    ///     fn is_goal(&self, n: &u32) -> bool { *n == 10 }
    ///     fn successors<F: FnMut(&'static str, u32, u32)>(&self, n: &u32, mut emit: F) {
    ///         if *n < 10 { emit("step", n + 1, 1); }
    ///         if *n == 0 { emit("jump", 10, 20); }
    ///     }
    /// }
    ///
    /// let mut search = Search::new(&Roads, 0)
    ///     .algorithm(Algorithm::RestartingWeightedAStar)
    ///     .heuristic(search_core::Admissible(|n: &u32| 10 - n));
    /// let mut first = None;
    /// while search.step(1).unwrap() == Status::Running {
    ///     first = first.or(search.improvements().first().map(|i| i.solution.cost));
    /// }
    /// // Weight 5 jumps (cost 20); weight 3, below 20, walks (10); weight 2
    /// // finds nothing below 10, so 10 is optimal.
    /// assert_eq!(first, Some(20));
    /// let costs: Vec<u32> = search.improvements().iter().map(|i| i.solution.cost).collect();
    /// assert_eq!(costs, [20, 10]);
    /// let result = search.run().unwrap();
    /// assert_eq!(result.outcome.solution().unwrap().cost, 10);
    /// ```
    pub fn improvements(&self) -> &[Improvement<S::Node, S::Action, S::Cost>] {
        self.run
            .schedule
            .as_ref()
            .map_or(&[], |schedule| &schedule.improvements)
    }

    /// Chooses the open list (default [`OpenListKind::Auto`], the measured
    /// best); the expansions are the same whatever the choice.
    #[must_use]
    pub fn open_list(mut self, kind: OpenListKind) -> Self {
        self.run.open_list = kind;
        self
    }

    /// Chooses the heuristic (ignored by Dijkstra and BFS).
    pub fn heuristic<H2: Heuristic<S::Node, S::Cost>>(self, heuristic: H2) -> Search<'s, S, H2> {
        Search {
            space: self.space,
            heuristic,
            dominance: self.dominance,
            run: self.run,
        }
    }

    /// Skips nodes that `dominance` calls dominated (see [`Dominance`]);
    /// ignored by breadth-first search.
    #[must_use]
    pub fn dominance(mut self, dominance: impl Dominance<S::Node, S::Cost> + 's) -> Self {
        self.dominance = Some(Box::new(dominance));
        self
    }

    /// Sets the limits.
    #[must_use]
    pub fn limits(mut self, limits: SearchLimits<S::Cost>) -> Self {
        self.run.core.limits = limits;
        self
    }

    /// Records the order of expansions (off by default), so that
    /// [`trace`](Search::trace) can show the search's exploration. Off, it
    /// costs one branch per expansion; on, four bytes per expansion, which
    /// the memory limit does not count. Turn it on before the first step;
    /// it stays on in a [`SearchState`] taken out and resumed, and turning
    /// it on again keeps what was recorded.
    ///
    /// ```
    /// # use search_core::{Search, SearchSpace};
    /// # struct Two;
    /// # impl SearchSpace for Two {
    /// #     type Node = u8; type Action = (); type Cost = u32;
    /// #     fn is_goal(&self, n: &u8) -> bool { *n == 1 }
    /// #     fn successors<F: FnMut((), u8, u32)>(&self, n: &u8, mut emit: F) { if *n == 0 { emit((), 1, 1) } }
    /// # }
    /// let mut search = Search::new(&Two, 0).record_trace(true);
    /// search.run().unwrap();
    /// assert_eq!(search.trace().unwrap().expansions(), [0, 1]);
    /// assert!(Search::new(&Two, 0).trace().is_none());
    /// ```
    #[must_use]
    pub fn record_trace(mut self, record: bool) -> Self {
        if !record {
            self.run.expansions = None;
        } else if self.run.expansions.is_none() {
            self.run.expansions = Some(Vec::new());
        }
        self
    }

    /// The search's exploration so far (every stored node, its best known
    /// path, its estimate and when it was expanded, and the goal), if
    /// [`record_trace`](Search::record_trace) is on; see [`Trace`]. It
    /// copies the nodes, so ask for it once the search is done.
    pub fn trace(&self) -> Option<Trace<S::Node, S::Action, S::Cost>> {
        self.run.trace(self.space)
    }

    /// Reuses the buffers of an earlier search.
    #[must_use]
    pub fn workspace(mut self, workspace: Workspace<S::Node, S::Cost>) -> Self {
        self.run.ws = workspace;
        self
    }

    /// The statistics so far.
    pub fn statistics(&self) -> &Statistics {
        &self.run.core.stats
    }

    /// The heuristic, for reading what it learned.
    pub fn heuristic_ref(&self) -> &H {
        &self.heuristic
    }

    /// Gives back the buffers for the next search.
    pub fn into_workspace(self) -> Workspace<S::Node, S::Cost> {
        self.run.ws
    }

    /// Every node stored so far, in the order stored, with its best known
    /// path cost and its parent's index (the start is its own parent).
    pub(crate) fn stored(&self) -> impl Iterator<Item = (&S::Node, S::Cost, u32)> {
        let records = self.run.ws.store.records.chunks().flatten();
        records.map(|record| (&record.node, record.g, record.parent))
    }

    /// Takes out what the search owns, to resume it later with
    /// [`Search::resume`], and gives back the heuristic (keep it if it
    /// learns; a stateless one can be made again).
    pub fn into_state(self) -> (StateOf<S>, H) {
        (self.run, self.heuristic)
    }

    /// Advances the search by at most `expansions` expansions.
    ///
    /// Returns [`Status::Finished`] once the search has ended (and on every
    /// later call); [`run`](Search::run) then returns the result.
    ///
    /// # Errors
    /// [`SearchError::InvalidCost`] for a negative or NaN edge cost,
    /// [`SearchError::CostOverflow`] when a path cost passes the cost type's
    /// largest value,
    /// [`SearchError::InvalidWeight`] for a weighted A* weight below 1, and
    /// [`SearchError::NodeNumberOutOfRange`] or
    /// [`SearchError::NodeNumberShared`] for a broken node numbering.
    pub fn step(&mut self, expansions: u64) -> Result<Status, SearchError> {
        driver::step(self, expansions)
    }

    /// Runs the search to its end and returns the outcome and statistics.
    ///
    /// May be called again; it returns the same result.
    ///
    /// # Errors
    /// As for [`step`](Search::step).
    pub fn run(&mut self) -> Result<ResultOf<S>, SearchError> {
        driver::run(self)
    }

    fn begin(&mut self, start: S::Node) {
        if let Err(error) = self.run.algorithm.validate() {
            self.run.core.end = Some(End::Failed(error));
            return;
        }
        self.run.core.stats = Statistics::default();
        if self.run.schedule.is_some() {
            self.run.origin = Some(start.clone());
        }
        if let Some(handover) = self.run.handover.take() {
            let takes = self.run.algorithm == Algorithm::AStar
                && self.dominance.is_none()
                && self.run.expansions.is_none()
                && handover.records.first().is_some_and(|r| r.node == start);
            if takes {
                self.adopt(handover);
                return;
            }
        }
        self.begin_iteration(start);
    }

    /// Empties the store, the open list and what the last iteration left,
    /// and restarts the clock from the statistics so far.
    fn empty(&mut self) {
        let run = &mut self.run;
        // A cheap heuristic is asked again rather than kept, unless a trace
        // shows every estimate.
        let keeps_h = run.algorithm.uses_heuristic()
            && (!self.heuristic.is_cheap() || run.expansions.is_some());
        run.ws.store.clear(self.space.node_numbers(), keeps_h);
        let buckets_possible =
            run.algorithm.buckets_integer_priorities() && S::Cost::zero().to_bucket().is_some();
        run.ws.open.clear(run.open_list, buckets_possible);
        run.bfs_next = 0;
        if let Some(expansions) = &mut run.expansions {
            expansions.clear();
        }
        run.last_key = None;
        run.pruned = false;
        run.overflow = None;
        run.max_branching = 1;
        run.core.clock.restart(&run.core.stats);
    }

    /// Takes a tiny search's nodes, open list and statistics as this
    /// search's own, as [`begin_iteration`](Self::begin_iteration) would
    /// have left them after the same expansions: the nodes keep their
    /// indices, and the open list's entries are pushed in the order the
    /// tiny search pushed them, so ties break alike.
    fn adopt(&mut self, handover: Handover<S::Node, S::Cost>) {
        let Handover {
            records,
            mut open,
            stats,
            last_f,
        } = handover;
        self.run.core.stats = stats;
        self.empty();
        let space = self.space;
        let run = &mut self.run;
        let store = &mut run.ws.store;
        // The open entries' estimates, whether or not the store keeps them.
        let estimates: Vec<S::Cost> = records.iter().map(|record| record.h).collect();
        for (i, record) in records.into_iter().enumerate() {
            store.node_heap += space.node_heap_bytes(&record.node);
            let number_of = |n: &S::Node| space.node_number(n);
            let stored = if i == 0 {
                store
                    .insert_start(record.node, record.g, number_of)
                    .map(|()| 0)
            } else {
                match store.find_or_insert(record.node, number_of, record.parent, record.g) {
                    Ok(Slot::New(index)) => Ok(index),
                    Ok(Slot::Old(..)) => unreachable!("a tiny search stores a node once"),
                    Err(Refused::Numbering(error)) => Err(error),
                    Err(Refused::Full) => unreachable!("a tiny search is small"),
                }
            };
            let index = match stored {
                Ok(index) => index,
                Err(error) => {
                    run.core.end = Some(End::Failed(error));
                    return;
                }
            };
            store.push_h(record.h);
            store.closed.set(index, record.closed);
            store.dead.set(index, record.dead);
        }
        open.sort_unstable_by_key(|entry| entry.seq);
        for entry in open {
            let h = estimates[entry.index as usize];
            let pushed = push_open(
                &mut run.ws,
                run.algorithm,
                entry.g,
                h,
                entry.index,
                None,
                |node| estimate_again(&mut self.heuristic, node),
            );
            if let Err(end) = pushed {
                run.core.end = Some(end);
                return;
            }
        }
        run.last_key = last_f.and_then(|f| {
            if run.ws.open.use_buckets {
                f.to_bucket().map(Priority::Bucket)
            } else {
                Some(Priority::Cost(f))
            }
        });
    }

    /// After an iteration of restarting weighted A* ended: keep its plan and
    /// start the next one, or end the search (see the module `anytime`).
    /// Any other end (exhausted under the bound, so the best plan is
    /// optimal; a limit; cancellation; an error) ends the search.
    fn next_iteration(&mut self, step_started: Instant) {
        let Some(End::Goal(goal)) = self.run.core.end else {
            return;
        };
        let solution = match self.path_to(goal) {
            Ok(solution) => solution,
            Err(error) => {
                self.run.core.end = Some(End::Failed(error));
                return;
            }
        };
        let admissible = self.heuristic.is_admissible();
        let (expanded, elapsed) = (
            self.run.core.stats.expanded,
            self.run.core.stats.elapsed + step_started.elapsed(),
        );
        let Some(schedule) = self.run.schedule.as_mut() else {
            return;
        };
        if let Next::Restart(algorithm) = schedule.found(solution, expanded, elapsed, admissible) {
            if let Some(start) = self.run.origin.clone() {
                self.run.algorithm = algorithm;
                self.run.core.end = None;
                self.begin_iteration(start);
            }
        }
    }

    /// Empties the store and open list and puts `start` on them; the
    /// statistics go on adding up.
    fn begin_iteration(&mut self, start: S::Node) {
        self.empty();
        let zero = S::Cost::zero();
        self.run.core.stats.generated += 1;
        self.run.core.stats.evaluated += 1;
        let h = if self.run.algorithm.uses_heuristic() {
            match self.heuristic.estimate(&start) {
                Estimate::Value(h) => h,
                Estimate::DeadEnd => {
                    self.run.core.stats.dead_ends = 1;
                    self.run.core.end = Some(End::Exhausted);
                    return;
                }
            }
        } else {
            zero
        };
        let is_goal = self.run.algorithm.is_bfs() && self.space.is_goal(&start);
        let space = self.space;
        if let Err(error) = self
            .run
            .ws
            .store
            .insert_start(start, zero, |n| space.node_number(n))
        {
            self.run.core.end = Some(End::Failed(error));
            return;
        }
        self.run.ws.store.node_heap = space.node_heap_bytes(self.run.ws.store.node(0));
        self.run.ws.store.push_h(h);
        if let Some(dominance) = self.dominance.as_deref_mut() {
            // The start dominates what it dominates; nothing dominates it.
            dominance.is_dominated(self.run.ws.store.node(0), zero);
        }
        if is_goal {
            self.run.core.end = Some(End::Goal(0));
        } else if !self.run.algorithm.is_bfs() {
            let max_memory = self.run.core.limits.max_memory_bytes;
            let heuristic = &mut self.heuristic;
            let pushed = push_open(
                &mut self.run.ws,
                self.run.algorithm,
                zero,
                h,
                0,
                max_memory,
                |node| estimate_again(heuristic, node),
            );
            if let Err(end) = pushed {
                self.run.core.end = Some(end);
            }
        }
    }

    fn open_len(&self) -> usize {
        if self.run.algorithm.is_bfs() {
            self.run.ws.store.len() - self.run.bfs_next as usize
        } else {
            self.run.ws.open.len()
        }
    }

    fn bytes(&self, room: usize) -> (usize, usize) {
        let (held, growth) = self.run.ws.bytes(room);
        (held + self.heuristic.memory_bytes(), growth)
    }

    fn pop(&mut self) -> Option<u32> {
        if self.run.algorithm.is_bfs() {
            let next = self.run.bfs_next;
            if next as usize >= self.run.ws.store.len() {
                return None;
            }
            self.run.bfs_next += 1;
            return Some(next);
        }
        while let Some((key, index)) = self.run.ws.open.pop() {
            if self.run.ws.store.closed.get(index) {
                continue; // a stale entry of a node expanded at a lower cost
            }
            // Compare like with like: a switch from buckets to the heap is no jump.
            if self.run.last_key.is_some_and(|last| {
                matches!(
                    (last, key),
                    (Priority::Bucket(_), Priority::Bucket(_))
                        | (Priority::Cost(_), Priority::Cost(_))
                ) && key > last
            }) {
                self.run.core.stats.expanded_until_last_jump = self.run.core.stats.expanded;
            }
            self.run.last_key = Some(key);
            self.run.ws.store.closed.set(index, true);
            return Some(index);
        }
        None
    }

    // Inlined into the engine's loop, as when it was written there: the
    // driver lives in another module, so in another codegen unit.
    #[inline]
    fn expand_next(&mut self) {
        let Some(index) = self.pop() else {
            self.run.core.end = Some(End::ran_dry(self.run.overflow.take(), self.run.pruned));
            return;
        };
        self.run.core.stats.expanded += 1;
        if let Some(expansions) = &mut self.run.expansions {
            expansions.push(index);
        }
        let record = &self.run.ws.store.records[index as usize];
        let node = record.node.clone();
        // Going back to the parent never helps (costs are non-negative), and
        // checking it saves a hash lookup in reversible spaces.
        let grandparent = (index != 0).then_some(record.parent);
        if !self.run.algorithm.is_bfs() && self.space.is_goal(&node) {
            self.run.core.end = Some(End::Goal(index));
            return;
        }
        let g = self.run.ws.store.g(index);
        let open_before = self.open_len();
        let generated_before = self.run.core.stats.generated;

        let mut expansion = Expansion {
            space: self.space,
            algorithm: self.run.algorithm,
            heuristic: &mut self.heuristic,
            dominance: match self.dominance.as_deref_mut() {
                Some(dominance) if !self.run.algorithm.is_bfs() => {
                    Some(dominance as &mut dyn Dominance<S::Node, S::Cost>)
                }
                _ => None,
            },
            ws: &mut self.run.ws,
            stats: &mut self.run.core.stats,
            pruned: &mut self.run.pruned,
            end: &mut self.run.core.end,
            overflow: &mut self.run.overflow,
            bound: self.run.core.limits.cost_bound,
            below: self.run.schedule.as_ref().and_then(Schedule::bound),
            max_memory: self.run.core.limits.max_memory_bytes,
            deadline: self
                .run
                .deadline
                .filter(|_| self.run.core.clock.each_evaluation),
            guarded: self.run.core.limits.cost_bound.is_some()
                || self.run.core.limits.max_memory_bytes.is_some()
                || self.run.schedule.is_some(),
            parent: &node,
            index,
            grandparent,
            g,
        };
        self.space.successors(&node, |_, child, cost| {
            expansion.successor(child, cost);
        });
        let branching =
            usize::try_from(self.run.core.stats.generated - generated_before).unwrap_or(usize::MAX);
        self.run.max_branching = self.run.max_branching.max(branching);
        let open = self.open_len().max(open_before);
        let stats = &mut self.run.core.stats;
        stats.max_open = stats.max_open.max(open);
    }

    /// The plan to the stored node `goal`, its steps found again from each
    /// parent (the store keeps no actions). Its cost is its steps' sum: the
    /// goal's path cost, unless a node on the path was reached more cheaply
    /// after its successor was (reopening), when the plan is cheaper.
    fn path_to(&self, goal: u32) -> Result<PlanOf<Self>, SearchError> {
        let store = &self.run.ws.store;
        let mut nodes = Vec::new();
        let mut steps = Vec::new();
        let mut index = goal;
        while index != 0 {
            let record = &store.records[index as usize];
            let parent = store.node(record.parent);
            let Some(step) = self.space.action_between(parent, &record.node) else {
                return Err(SearchError::SuccessorsChanged {
                    node: format!("{parent:?}"),
                    successor: format!("{:?}", record.node),
                });
            };
            nodes.push(record.node.clone());
            steps.push(step);
            index = record.parent;
        }
        nodes.push(store.node(0).clone());
        nodes.reverse();
        // Added from the start, as the path costs were.
        let mut cost = S::Cost::zero();
        let actions = steps
            .into_iter()
            .rev()
            .map(|(action, step)| {
                cost = cost.saturating_add(step);
                action
            })
            .collect();
        Ok(Solution {
            actions,
            nodes,
            cost,
        })
    }
}

impl<S, H> Step for Search<'_, S, H>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost>,
{
    type Node = S::Node;
    type Action = S::Action;
    type Cost = S::Cost;

    // Fast expansions (a grid's take tens of nanoseconds) would pay for
    // a clock reading each.
    const PACED_CLOCK: bool = true;

    #[inline]
    fn core(&self) -> &Core<S::Cost> {
        &self.run.core
    }

    #[inline]
    fn core_mut(&mut self) -> &mut Core<S::Cost> {
        &mut self.run.core
    }

    fn prepare(&mut self, started: Instant) {
        if let Some(left) = self.run.core.time_left() {
            self.run.deadline = started.checked_add(left);
            self.heuristic.set_deadline(self.run.deadline);
        }
        if let Some(max) = self.run.core.limits.max_memory_bytes {
            let (held, _) = self.run.ws.bytes(0);
            self.heuristic
                .set_memory_budget(Some(max.saturating_sub(held)));
        }
        if let Some(start) = self.run.start.take() {
            self.begin(start);
        }
    }

    #[inline]
    fn advance(&mut self, started: Instant) -> bool {
        self.expand_next();
        if self.run.core.end.is_some() && self.run.schedule.is_some() {
            self.next_iteration(started);
        }
        true
    }

    fn stored_nodes(&self) -> Option<usize> {
        Some(self.run.ws.store.len())
    }

    fn exceeds_memory(&self, max: usize) -> bool {
        let (now, growth) = self.bytes(self.run.max_branching);
        now + growth > max
    }

    fn settle(&mut self) {
        self.run.core.stats.stored = self.run.ws.store.len();
        self.run.core.stats.estimated_bytes = self.bytes(0).0;
    }

    fn solution(&self, goal: u32) -> Result<PlanOf<Self>, SearchError> {
        self.path_to(goal)
    }

    fn best(&self) -> Option<Solution<S::Node, S::Action, S::Cost>> {
        self.improvements().last().map(|i| i.solution.clone())
    }

    fn dead_ends_are_reliable(&self) -> bool {
        self.heuristic.dead_ends_are_reliable()
    }
}
