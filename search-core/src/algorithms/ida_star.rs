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

use crate::{
    Cost, Estimate, Heuristic, Limit, Outcome, ResultOf, SearchError, SearchLimits, SearchResult,
    SearchSpace, Solution, Statistics, Status,
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

/// How the search ended.
enum End {
    Goal,
    Exhausted,
    Limit(Limit),
    Cancelled,
    Failed(SearchError),
}

/// IDA*, stepped or run to the end; see the [module docs](self).
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
    limits: SearchLimits<S::Cost>,
    start: S::Node,
    /// The current path, deepest last.
    path: Vec<Frame<S>>,
    /// This iteration's bound on `f`, and the smallest `f` above it seen.
    bound: S::Cost,
    next_bound: Option<S::Cost>,
    /// Whether the cost bound (a limit) pruned a node.
    pruned: bool,
    stats: Statistics,
    began: bool,
    end: Option<End>,
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
            limits: SearchLimits::default(),
            start,
            path: Vec::new(),
            bound: S::Cost::zero(),
            next_bound: None,
            pruned: false,
            stats: Statistics::default(),
            began: false,
            end: None,
        }
    }

    /// Sets the limits: expansions (over all iterations), time,
    /// cancellation, a cost bound, and memory (the path with its siblings
    /// and the heuristic's tables); the stored-node limit does not apply
    /// (nothing is stored beyond the path).
    #[must_use]
    pub fn limits(mut self, limits: SearchLimits<S::Cost>) -> Self {
        self.limits = limits;
        self
    }

    /// The statistics so far (`expanded` counts every iteration's
    /// expansions; `max_open` is the deepest path).
    pub fn statistics(&self) -> &Statistics {
        &self.stats
    }

    /// Advances the search by at most `expansions` expansions.
    ///
    /// # Errors
    /// [`SearchError::InvalidCost`] for a negative or NaN edge cost and
    /// [`SearchError::CostOverflow`] when a path cost passes the cost type's
    /// largest value (a path cost plus its estimate saturates there).
    pub fn step(&mut self, expansions: u64) -> Result<Status, SearchError> {
        let started = Instant::now();
        if let Some(max) = self.limits.max_time {
            let deadline = started.checked_add(max.saturating_sub(self.stats.elapsed));
            self.heuristic.set_deadline(deadline);
        }
        if let Some(max) = self.limits.max_memory_bytes {
            self.heuristic
                .set_memory_budget(Some(max.saturating_sub(self.path_bytes())));
        }
        if !self.began {
            self.began = true;
            self.begin();
        }
        let mut budget = expansions;
        while self.end.is_none() && budget > 0 {
            if let Some(end) = self.check_limits(started) {
                self.end = Some(end);
                break;
            }
            if self.advance() {
                budget -= 1;
            }
        }
        self.stats.elapsed += started.elapsed();
        match &self.end {
            None => Ok(Status::Running),
            Some(End::Failed(error)) => Err(error.clone()),
            Some(_) => Ok(Status::Finished),
        }
    }

    /// Runs the search to its end. May be called again; it returns the same
    /// result.
    ///
    /// # Errors
    /// As for [`step`](Self::step).
    pub fn run(&mut self) -> Result<ResultOf<S>, SearchError> {
        while self.step(u64::MAX)? == Status::Running {}
        let outcome = match &self.end {
            Some(End::Goal) => Outcome::Solved(self.solution()),
            Some(End::Limit(limit)) => Outcome::LimitReached {
                limit: *limit,
                best: None,
            },
            Some(End::Cancelled) => Outcome::Cancelled { best: None },
            _ => Outcome::ran_dry(
                self.stats.dead_ends,
                self.heuristic.dead_ends_are_reliable(),
            ),
        };
        Ok(SearchResult {
            outcome,
            stats: self.stats.clone(),
        })
    }

    /// The first iteration's bound is the start's estimate.
    fn begin(&mut self) {
        self.stats.generated = 1;
        self.stats.evaluated = 1;
        match self.heuristic.estimate(&self.start) {
            Estimate::Value(h) => {
                self.bound = h;
                self.restart();
            }
            Estimate::DeadEnd => {
                self.stats.dead_ends = 1;
                self.end = Some(End::Exhausted);
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
            self.end = Some(End::Goal);
        }
        self.path.push(Frame {
            node,
            action,
            g,
            expanded: false,
            children: Vec::new(),
            next: 0,
        });
        self.stats.max_open = self.stats.max_open.max(self.path.len());
    }

    /// One move of the depth-first search: expand the deepest node, enter
    /// its next child within the bound, or backtrack. Returns whether it
    /// expanded a node.
    fn advance(&mut self) -> bool {
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
        self.stats.expanded += 1;
        let Some(top) = self.path.last_mut() else {
            return;
        };
        let mut children = Vec::new();
        self.space.successors(&top.node, |action, node, cost| {
            children.push((action, node, cost));
        });
        self.stats.generated += children.len() as u64;
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
            self.end = Some(End::Failed(edge_error(&parent, g, cost)));
            return;
        };
        if self.path.iter().any(|frame| frame.node == child) {
            self.stats.duplicates += 1;
            return;
        }
        if self.limits.cost_bound.is_some_and(|b| child_g > b) {
            self.pruned = true;
            return;
        }
        self.stats.evaluated += 1;
        self.heuristic.notify_transition(&parent, &child);
        let h = match self.heuristic.estimate(&child) {
            Estimate::Value(h) => h,
            Estimate::DeadEnd => {
                self.stats.dead_ends += 1;
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
                self.stats.expanded_until_last_jump = self.stats.expanded;
                self.bound = bound;
                self.restart();
            }
            None if self.pruned => self.end = Some(End::Limit(Limit::CostBound)),
            None => self.end = Some(End::Exhausted),
        }
    }

    fn check_limits(&self, started: Instant) -> Option<End> {
        let limits = &self.limits;
        if limits.is_cancelled() {
            return Some(End::Cancelled);
        }
        if limits
            .max_expansions
            .is_some_and(|m| self.stats.expanded >= m)
        {
            return Some(End::Limit(Limit::Expansions));
        }
        let time = self.stats.elapsed + started.elapsed();
        if limits.max_time.is_some_and(|m| time >= m) {
            return Some(End::Limit(Limit::Time));
        }
        if limits
            .max_memory_bytes
            .is_some_and(|m| self.path_bytes() + self.heuristic.memory_bytes() > m)
        {
            return Some(End::Limit(Limit::Memory));
        }
        None
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

    fn solution(&self) -> Solution<S::Node, S::Action, S::Cost> {
        Solution {
            actions: self
                .path
                .iter()
                .filter_map(|frame| frame.action.clone())
                .collect(),
            nodes: self.path.iter().map(|frame| frame.node.clone()).collect(),
            cost: self.path.last().map_or_else(S::Cost::zero, |frame| frame.g),
        }
    }
}

/// The error for an edge of cost `cost` out of `node` at path cost `g`.
#[cold]
fn edge_error<N: std::fmt::Debug, C: Cost>(node: &N, g: C, cost: C) -> SearchError {
    let node = format!("{node:?}");
    if cost.is_valid_edge() {
        SearchError::CostOverflow {
            node,
            path_cost: g.to_string(),
            action_cost: cost.to_string(),
            cost_type: std::any::type_name::<C>(),
            max: C::largest().to_string(),
        }
    } else {
        SearchError::InvalidCost {
            node,
            cost: format!("{cost:?}"),
        }
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
