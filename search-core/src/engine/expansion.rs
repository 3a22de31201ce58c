//! One expansion of the eager best-first engine: each successor checked,
//! stored, evaluated and put on the open list.

use std::time::Instant;

use num_traits::{CheckedAdd, Zero};

use crate::engine::driver::End;
use crate::engine::open::MAX_BUCKETS;
use crate::engine::store::{Refused, Slot};
use crate::engine::workspace::Workspace;
use crate::{
    Algorithm, Cost, Dominance, Estimate, Heuristic, Limit, SearchError, SearchSpace, Statistics,
};

/// Puts a node on the open list at its priority. Stops the search when the
/// priority overflows the cost type or the push would cross the memory limit.
/// `estimate` gives a stored node's heuristic value again where the store
/// keeps none (the open list asks for the priorities of its entries when it
/// leaves its buckets).
#[inline]
pub(crate) fn push_open<N: crate::Node, C: Cost>(
    ws: &mut Workspace<N, C>,
    algorithm: Algorithm,
    g: C,
    h: C,
    index: u32,
    max_memory: Option<usize>,
    estimate: impl FnMut(&N) -> C,
) -> Result<(), End> {
    let key = algorithm.priority(g, h);
    let slot = if ws.open.use_buckets {
        key.to_bucket()
            .zip(g.to_bucket())
            .and_then(|(k, g)| Some((k, k.checked_sub(g)?)))
    } else {
        None
    };
    // The common case, a bucket push without a memory limit, stays inline.
    if let Some((key, depth)) = slot {
        if max_memory.is_none()
            && key < MAX_BUCKETS
            && depth < MAX_BUCKETS
            && ws.open.buckets.push_deferred(key, depth, index)
        {
            return Ok(());
        }
    }
    let tie = algorithm.tie_g(g);
    push_open_checked(ws, algorithm, key, tie, index, slot, max_memory, estimate)
}

/// [`push_open`] into the heap, or under a memory limit; `tie` is the `g`
/// that breaks ties ([`Algorithm::tie_g`]).
#[inline(never)]
#[expect(
    clippy::too_many_arguments,
    reason = "push_open's, and how to estimate a moved entry"
)]
fn push_open_checked<N: crate::Node, C: Cost>(
    ws: &mut Workspace<N, C>,
    algorithm: Algorithm,
    key: C,
    tie: C,
    index: u32,
    slot: Option<(usize, usize)>,
    max_memory: Option<usize>,
    mut estimate: impl FnMut(&N) -> C,
) -> Result<(), End> {
    if let Some(max) = max_memory {
        let extra = ws.open.push_growth(slot);
        if extra > 0 && ws.bytes(0).0 + extra > max {
            return Err(End::Limit(Limit::Memory));
        }
    }
    let store = &ws.store;
    ws.open.push(key, tie, index, slot, |moved| {
        let h = if algorithm.uses_heuristic() {
            store
                .h(moved)
                .unwrap_or_else(|| estimate(store.node(moved)))
        } else {
            C::zero()
        };
        let g = store.g(moved);
        (algorithm.priority(g, h), g)
    });
    Ok(())
}

/// A stored node's heuristic value asked again, where the store keeps none:
/// a [cheap](Heuristic::is_cheap) heuristic gives the value it gave before
/// (never a dead end: dead ends are not on the open list).
pub(crate) fn estimate_again<N, C: Zero, H: Heuristic<N, C>>(heuristic: &mut H, node: &N) -> C {
    match heuristic.estimate(node) {
        Estimate::Value(h) => h,
        Estimate::DeadEnd => C::zero(),
    }
}

/// Whether `deadline` has passed; read after each evaluation only when
/// expansions are slow, so kept out of line.
#[cold]
#[inline(never)]
fn has_passed(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|deadline| Instant::now() >= deadline)
}

/// One expansion in progress: what handling a successor needs, borrowed from
/// the [`Search`].
pub(crate) struct Expansion<'e, S: SearchSpace, H> {
    pub(crate) space: &'e S,
    pub(crate) algorithm: Algorithm,
    pub(crate) heuristic: &'e mut H,
    pub(crate) dominance: Option<&'e mut (dyn Dominance<S::Node, S::Cost> + 'e)>,
    pub(crate) ws: &'e mut Workspace<S::Node, S::Cost>,
    pub(crate) stats: &'e mut Statistics,
    pub(crate) pruned: &'e mut bool,
    pub(crate) end: &'e mut Option<End>,
    pub(crate) overflow: &'e mut Option<SearchError>,
    pub(crate) bound: Option<S::Cost>,
    /// Restarting weighted A*'s best plan's cost: only cheaper paths count.
    pub(crate) below: Option<S::Cost>,
    pub(crate) max_memory: Option<usize>,
    /// Whether any of the three limits above is set.
    pub(crate) guarded: bool,
    /// The time limit's deadline, when expansions are slow enough that one
    /// could pass it by much: read after each evaluation.
    pub(crate) deadline: Option<Instant>,
    /// The node being expanded, its index, its parent's and its path cost.
    pub(crate) parent: &'e S::Node,
    pub(crate) index: u32,
    pub(crate) grandparent: Option<u32>,
    pub(crate) g: S::Cost,
}

impl<S, H> Expansion<'_, S, H>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost>,
{
    #[inline]
    pub(crate) fn successor(&mut self, child: S::Node, cost: S::Cost) {
        self.stats.generated += 1;
        if self.end.is_some() {
            return;
        }
        let child_g = match self.g.checked_add(&cost) {
            Some(child_g) if cost.is_valid_edge() => child_g,
            _ => return self.reject_edge(cost),
        };
        // One test for the two limits a successor can meet, usually neither.
        if self.guarded && !self.within_limits(child_g, &child) {
            return;
        }
        if self
            .grandparent
            .is_some_and(|i| *self.ws.store.node(i) == child)
        {
            self.stats.duplicates += 1;
            return;
        }
        let space = self.space;
        let slot =
            self.ws
                .store
                .find_or_insert(child, |n| space.node_number(n), self.index, child_g);
        if let Ok(Slot::New(child)) = slot {
            let store = &mut self.ws.store;
            store.node_heap += space.node_heap_bytes(store.node(child));
        }
        let found = match slot {
            Ok(Slot::New(child)) if self.skips(child, child_g) => {
                if self.algorithm.uses_heuristic() {
                    self.ws.store.push_h(S::Cost::zero()); // a place, not a value
                }
                return;
            }
            Ok(Slot::New(child)) => self.first_visit(child),
            Ok(Slot::Old(child)) => self.revisit(child, child_g),
            Err(refused) => return self.refuse(refused),
        };
        let Some((child, h)) = found else {
            return;
        };
        if (self.bound.is_some() || self.below.is_some())
            && self.algorithm.uses_heuristic()
            && self.heuristic.is_admissible()
            && child_g.checked_add(&h).is_none_or(|f| self.beyond_bound(f))
        {
            self.mark_pruned(child_g.checked_add(&h));
            return;
        }
        let heuristic = &mut *self.heuristic;
        let pushed = push_open(
            self.ws,
            self.algorithm,
            child_g,
            h,
            child,
            self.max_memory,
            |node| estimate_again(heuristic, node),
        );
        if let Err(stop) = pushed {
            *self.end = Some(stop);
        }
    }

    /// Whether a path of `cost` (or one through a node, at least `cost`) is
    /// pruned: above the cost bound, or not below the best plan's cost.
    #[inline]
    fn beyond_bound(&self, cost: S::Cost) -> bool {
        self.bound.is_some_and(|b| cost > b) || self.below.is_some_and(|b| cost >= b)
    }

    /// Notes that the cost bound pruned a path of `cost` (`None`: past the
    /// cost type), unless restarting weighted A*'s best plan prunes it too:
    /// that plan is the answer for everything at or above its cost, so only
    /// the caller's bound makes "exhausted" untrue.
    #[cold]
    fn mark_pruned(&mut self, cost: Option<S::Cost>) {
        let below_best = match (cost, self.below) {
            (Some(cost), Some(best)) => cost < best,
            (_, None) => true,
            (None, Some(_)) => false,
        };
        if below_best {
            *self.pruned = true;
        }
    }

    /// Ends the search on a node the store could not take.
    #[cold]
    fn refuse(&mut self, refused: Refused) {
        *self.end = Some(match refused {
            Refused::Full => End::Limit(Limit::StoredNodes),
            Refused::Numbering(error) => End::Failed(error),
        });
    }

    /// Ends the search on a negative or NaN edge cost. An edge whose path
    /// cost passes the cost type is left out (another plan may fit), and
    /// the first such is the error if the search finds none.
    #[cold]
    fn reject_edge(&mut self, cost: S::Cost) {
        let node = format!("{:?}", self.parent);
        if cost.is_valid_edge() {
            if self.bound.is_some() || self.below.is_some() {
                // A bound is below every path cost past the type.
                return self.mark_pruned(None);
            }
            if self.overflow.is_none() {
                *self.overflow = Some(SearchError::CostOverflow {
                    node,
                    path_cost: self.g.to_string(),
                    action_cost: cost.to_string(),
                    cost_type: std::any::type_name::<S::Cost>(),
                    max: S::Cost::largest().to_string(),
                });
            }
            return;
        }
        *self.end = Some(End::Failed(SearchError::InvalidCost {
            node,
            cost: format!("{cost:?}"),
        }));
    }

    /// Checks the cost bound and the memory limit for a successor `child`
    /// at `child_g`; false (and the search marked) if it must not be stored.
    #[inline(never)]
    fn within_limits(&mut self, child_g: S::Cost, child: &S::Node) -> bool {
        if self.beyond_bound(child_g) {
            self.mark_pruned(Some(child_g));
            return false;
        }
        // One expansion may bring more successors than any before it, so the
        // check before the expansion cannot see every growth.
        if let Some(max) = self.max_memory {
            let (now, growth) = self.ws.bytes(1);
            let heap = self.space.node_heap_bytes(child);
            if now + growth + heap > max {
                *self.end = Some(End::Limit(Limit::Memory));
                return false;
            }
        }
        true
    }

    /// A node stored for the first time: evaluate it. Returns the node and
    /// its heuristic value if it goes on the open list.
    #[inline]
    fn first_visit(&mut self, child: u32) -> Option<(u32, S::Cost)> {
        self.stats.evaluated += 1;
        let store = &mut self.ws.store;
        if self.algorithm.is_bfs() {
            if self.space.is_goal(store.node(child)) {
                *self.end = Some(End::Goal(child));
            }
            return None; // the store's order is the queue
        }
        if !self.algorithm.uses_heuristic() {
            return Some((child, S::Cost::zero()));
        }
        let h = self.evaluate(child);
        self.ws.store.push_h(h.unwrap_or_else(S::Cost::zero));
        Some((child, h?))
    }

    /// The heuristic value of a stored node; `None` (and the node marked) for
    /// a dead end. Callers count the evaluation.
    #[inline]
    fn evaluate(&mut self, child: u32) -> Option<S::Cost> {
        let store = &mut self.ws.store;
        self.heuristic
            .notify_transition(self.parent, store.node(child));
        let estimate = self.heuristic.estimate(store.node(child));
        if self.deadline.is_some() && has_passed(self.deadline) {
            *self.end = Some(End::Limit(Limit::Time));
        }
        match estimate {
            Estimate::Value(h) => Some(h),
            Estimate::DeadEnd => {
                self.stats.dead_ends += 1;
                store.dead.set(child, true);
                store.closed.set(child, true);
                None
            }
        }
    }

    /// Whether the dominance pruner skips a node stored at `g` (and if so,
    /// marks and counts it).
    #[inline]
    fn skips(&mut self, child: u32, g: S::Cost) -> bool {
        let Some(dominance) = self.dominance.as_deref_mut() else {
            return false;
        };
        let store = &mut self.ws.store;
        if !dominance.is_dominated(store.node(child), g) {
            return false;
        }
        if !store.dominated.get(child) {
            self.stats.dominated += 1;
            store.dominated.set(child, true);
        }
        true
    }

    /// A node seen before, reached again at `child_g`: keep the cheaper path
    /// and reopen it if the algorithm does. Returns the node and its
    /// heuristic value if it goes back on the open list.
    #[inline]
    fn revisit(&mut self, child: u32, child_g: S::Cost) -> Option<(u32, S::Cost)> {
        self.stats.duplicates += 1;
        let store = &mut self.ws.store;
        if self.algorithm.is_bfs() || store.dead.get(child) || child_g >= store.g(child) {
            return None;
        }
        if store.dominated.get(child) {
            store.improve(child, self.index, child_g);
            if self.skips(child, child_g) {
                return None;
            }
            // Accepted at the cheaper cost: its first evaluation.
            self.stats.dominated -= 1;
            self.ws.store.dominated.set(child, false);
            self.stats.evaluated += 1;
            if !self.algorithm.uses_heuristic() {
                return Some((child, S::Cost::zero()));
            }
            let h = self.evaluate(child)?;
            self.ws.store.set_h(child, h);
            return Some((child, h));
        }
        if store.closed.get(child) {
            if !self.algorithm.reopens() {
                return None;
            }
            self.stats.reopened += 1;
            store.closed.set(child, false);
        }
        store.improve(child, self.index, child_g);
        match self.algorithm {
            Algorithm::GreedyBestFirst => None, // its priority, h, did not change
            Algorithm::Dijkstra => Some((child, S::Cost::zero())),
            _ => match store.h(child) {
                Some(h) => Some((child, h)),
                None => Some((
                    child,
                    estimate_again(&mut *self.heuristic, store.node(child)),
                )),
            },
        }
    }
}
