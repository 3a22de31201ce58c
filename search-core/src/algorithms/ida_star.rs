//! IDA* (iterative deepening A*, Korf 1985): depth-first searches bounded
//! by `f = g + h`, each bound the smallest `f` the last one pruned.
//!
//! Memory is the current path and its siblings, not every node seen, so it
//! searches spaces whose frontier would not fit in memory; the price is
//! re-expanding the upper levels in every iteration and, without a closed
//! list, the paths through the same node. A node already on the current
//! path is not entered again (no cycles). With an admissible heuristic the
//! first goal reached is optimal.

use std::time::Instant;

use num_traits::{CheckedAdd, Zero};

use crate::engine::driver::{self, Core, End, Step};
use crate::engine::outcome::edge_error;
use crate::{
    Cost, Estimate, Heuristic, ResultOf, SearchError, SearchLimits, SearchSpace, Solution,
    Statistics, Status,
};

/// A node on the current path with its successors still to try.
struct Frame<S: SearchSpace> {
    node: S::Node,
    /// The action from the previous frame's node; `None` for the start.
    action: Option<S::Action>,
    g: S::Cost,
    expanded: bool,
    children: Vec<(S::Action, S::Node, S::Cost)>,
    next: usize,
}

/// IDA* (iterative deepening A*, Korf 1985), stepped or run to the end:
/// depth-first searches bounded by `f = g + h`, each bound the smallest
/// `f` the last one pruned. Memory is the current path and its siblings,
/// not every node seen; the price is re-expanding the upper levels in
/// every iteration. With an admissible heuristic the first goal reached is
/// optimal.
///
/// ```
/// use search_core::{Admissible, IdaStar, SearchSpace};
///
/// /// The sliding 8-puzzle on 9 cells, 0 the blank.
/// struct Puzzle;
/// impl SearchSpace for Puzzle {
///     type Node = [u8; 9];
///     type Action = char;
///     type Cost = u32;
///     fn is_goal(&self, n: &[u8; 9]) -> bool { *n == [1, 2, 3, 4, 5, 6, 7, 8, 0] }
///     fn successors<F: FnMut(char, [u8; 9], u32)>(&self, n: &[u8; 9], mut emit: F) {
///         let blank = n.iter().position(|&t| t == 0).unwrap();
///         let (row, col) = (blank / 3, blank % 3);
///         for (action, ok, to) in [('u', row > 0, blank.wrapping_sub(3)), ('d', row < 2, blank + 3),
///                                  ('l', col > 0, blank.wrapping_sub(1)), ('r', col < 2, blank + 1)] {
///             if ok {
///                 let mut next = *n;
///                 next.swap(blank, to);
///                 emit(action, next, 1);
///             }
///         }
///     }
/// }
///
/// // Misplaced tiles never overestimate.
/// let misplaced = Admissible(|n: &[u8; 9]| {
///     n.iter().enumerate().filter(|&(i, &t)| t != 0 && t as usize != i + 1).count() as u32
/// });
/// let result = IdaStar::new(&Puzzle, [1, 2, 3, 4, 0, 6, 7, 5, 8], misplaced).run().unwrap();
/// assert_eq!(result.outcome.solution().unwrap().actions, ['d', 'r']);
/// ```
pub struct IdaStar<'s, S: SearchSpace, H> {
    space: &'s S,
    heuristic: H,
    /// The limits, statistics and end the engine's loop keeps.
    core: Core<S::Cost>,
    start: S::Node,
    /// The current path, deepest last.
    path: Vec<Frame<S>>,
    /// This iteration's bound on `f`, and the smallest `f` above it seen.
    bound: S::Cost,
    next_bound: Option<S::Cost>,
    /// Whether the cost bound (a limit) pruned a node.
    pruned: bool,
    began: bool,
}

impl<'s, S, H> IdaStar<'s, S, H>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost>,
{
    /// IDA* over `space` from `start` with `heuristic` and no limits.
    pub fn new(space: &'s S, start: S::Node, heuristic: H) -> Self {
        Self {
            space,
            heuristic,
            core: Core::default(),
            start,
            path: Vec::new(),
            bound: S::Cost::zero(),
            next_bound: None,
            pruned: false,
            began: false,
        }
    }

    /// Sets the limits: expansions (over all iterations), time,
    /// cancellation, a cost bound, and memory (the path with its siblings
    /// and the heuristic's tables); the stored-node limit does not apply
    /// (nothing is stored beyond the path).
    #[must_use]
    pub fn limits(mut self, limits: SearchLimits<S::Cost>) -> Self {
        self.core.limits = limits;
        self
    }

    /// The statistics so far (`expanded` counts every iteration's
    /// expansions; `max_open` is the deepest path).
    pub fn statistics(&self) -> &Statistics {
        &self.core.stats
    }

    /// Advances the search by at most `expansions` expansions.
    ///
    /// # Errors
    /// [`SearchError::InvalidCost`] for a negative or NaN edge cost and
    /// [`SearchError::CostOverflow`] when a path cost passes the cost type's
    /// largest value (a path cost plus its estimate saturates there).
    pub fn step(&mut self, expansions: u64) -> Result<Status, SearchError> {
        driver::step(self, expansions)
    }

    /// Runs the search to its end. May be called again; it returns the same
    /// result.
    ///
    /// # Errors
    /// As for [`step`](Self::step).
    pub fn run(&mut self) -> Result<ResultOf<S>, SearchError> {
        driver::run(self)
    }

    /// The first iteration's bound is the start's estimate.
    fn begin(&mut self) {
        self.core.stats.generated = 1;
        self.core.stats.evaluated = 1;
        match self.heuristic.estimate(&self.start) {
            Estimate::Value(h) => {
                self.bound = h;
                self.restart();
            }
            Estimate::DeadEnd => {
                self.core.stats.dead_ends = 1;
                self.core.end = Some(End::Exhausted);
            }
        }
    }

    /// Starts an iteration at the current bound.
    fn restart(&mut self) {
        self.next_bound = None;
        self.path.clear();
        self.enter(None, self.start.clone(), S::Cost::zero());
    }

    /// Puts `node` on the path, ending the search if it is a goal.
    fn enter(&mut self, action: Option<S::Action>, node: S::Node, g: S::Cost) {
        if self.space.is_goal(&node) {
            // The goal is the path's last node; the index goes unread.
            self.core.end = Some(End::Goal(0));
        }
        self.path.push(Frame {
            node,
            action,
            g,
            expanded: false,
            children: Vec::new(),
            next: 0,
        });
        self.core.stats.max_open = self.core.stats.max_open.max(self.path.len());
    }

    /// One move of the depth-first search: expand the deepest node, enter
    /// its next child within the bound, or backtrack. Returns whether it
    /// expanded a node.
    fn walk(&mut self) -> bool {
        let Some(top) = self.path.last() else {
            self.next_iteration();
            return false;
        };
        if top.expanded {
            self.try_next_child();
            return false;
        }
        self.expand();
        true
    }

    /// Generates the deepest node's successors.
    fn expand(&mut self) {
        self.core.stats.expanded += 1;
        let Some(top) = self.path.last_mut() else {
            return;
        };
        let mut children = Vec::new();
        self.space.successors(&top.node, |action, node, cost| {
            children.push((action, node, cost));
        });
        self.core.stats.generated += children.len() as u64;
        top.children = children;
        top.expanded = true;
    }

    /// Enters the deepest node's next child whose `f` is within the bound,
    /// or backtracks when none is left.
    fn try_next_child(&mut self) {
        let Some(top) = self.path.last_mut() else {
            return;
        };
        let Some((action, child, cost)) = top.children.get(top.next).cloned() else {
            self.path.pop();
            return;
        };
        top.next += 1;
        let (parent, g) = (top.node.clone(), top.g);
        let Some(child_g) = g.checked_add(&cost).filter(|_| cost.is_valid_edge()) else {
            self.core.end = Some(End::Failed(edge_error(&parent, g, cost)));
            return;
        };
        if self.path.iter().any(|frame| frame.node == child) {
            self.core.stats.duplicates += 1;
            return;
        }
        if self.core.limits.cost_bound.is_some_and(|b| child_g > b) {
            self.pruned = true;
            return;
        }
        self.core.stats.evaluated += 1;
        self.heuristic.notify_transition(&parent, &child);
        let h = match self.heuristic.estimate(&child) {
            Estimate::Value(h) => h,
            Estimate::DeadEnd => {
                self.core.stats.dead_ends += 1;
                return;
            }
        };
        let f = child_g.saturating_add(h);
        if f > self.bound {
            if self.next_bound.is_none_or(|next| f < next) {
                self.next_bound = Some(f);
            }
            return;
        }
        self.enter(Some(action), child, child_g);
    }

    /// After an iteration found no goal: the next bound, or the end.
    fn next_iteration(&mut self) {
        match self.next_bound {
            Some(bound) => {
                self.core.stats.expanded_until_last_jump = self.core.stats.expanded;
                self.bound = bound;
                self.restart();
            }
            None => self.core.end = Some(End::ran_dry(None, self.pruned)),
        }
    }

    /// The bytes the path and its frames' successors hold.
    fn path_bytes(&self) -> usize {
        let child = std::mem::size_of::<(S::Action, S::Node, S::Cost)>();
        self.path.capacity() * std::mem::size_of::<Frame<S>>()
            + self
                .path
                .iter()
                .map(|frame| frame.children.capacity() * child)
                .sum::<usize>()
    }
}

impl<S, H> Step for IdaStar<'_, S, H>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost>,
{
    type Node = S::Node;
    type Action = S::Action;
    type Cost = S::Cost;

    // Each step clones a node's successors; a clock reading costs little.
    const PACED_CLOCK: bool = false;

    fn core(&self) -> &Core<S::Cost> {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core<S::Cost> {
        &mut self.core
    }

    fn prepare(&mut self, started: Instant) {
        if let Some(left) = self.core.time_left() {
            self.heuristic.set_deadline(started.checked_add(left));
        }
        if let Some(max) = self.core.limits.max_memory_bytes {
            self.heuristic
                .set_memory_budget(Some(max.saturating_sub(self.path_bytes())));
        }
        if !self.began {
            self.began = true;
            self.begin();
        }
    }

    fn advance(&mut self, _started: Instant) -> bool {
        self.walk()
    }

    /// Nothing is stored beyond the path.
    fn stored_nodes(&self) -> Option<usize> {
        None
    }

    fn exceeds_memory(&self, max: usize) -> bool {
        self.path_bytes() + self.heuristic.memory_bytes() > max
    }

    fn solution(&self, _goal: u32) -> Result<Solution<S::Node, S::Action, S::Cost>, SearchError> {
        Ok(Solution {
            actions: self
                .path
                .iter()
                .filter_map(|frame| frame.action.clone())
                .collect(),
            nodes: self.path.iter().map(|frame| frame.node.clone()).collect(),
            cost: self.path.last().map_or_else(S::Cost::zero, |frame| frame.g),
        })
    }

    fn dead_ends_are_reliable(&self) -> bool {
        self.heuristic.dead_ends_are_reliable()
    }
}

/// Runs IDA* from `start` with `heuristic` (see [`IdaStar`]).
///
/// # Errors
/// As [`IdaStar::step`].
pub fn ida_star<S, H>(space: &S, start: S::Node, heuristic: H) -> Result<ResultOf<S>, SearchError>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost>,
{
    IdaStar::new(space, start, heuristic).run()
}
