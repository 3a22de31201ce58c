//! Limits that stop a search early.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Resource limits and a cancellation flag; every field defaults to "none".
///
/// A search that hits a limit stops before its next expansion and reports
/// [`Outcome::LimitReached`](crate::Outcome) naming it, with its statistics.
///
/// - `max_expansions`: expansions, exactly.
/// - `max_stored_nodes`: stored nodes; checked before each expansion, so the
///   store may exceed it by at most one expansion's successors.
/// - `max_memory_bytes`: the engine's estimate of its own memory (allocated
///   capacity of its node store, hash index and open list, and the heap
///   memory of the stored nodes as the space reports it through
///   [`SearchSpace::node_heap_bytes`](crate::SearchSpace::node_heap_bytes)).
///   Before each expansion and each stored successor the search checks
///   whether the next growth of any structure could cross the limit and
///   stops instead, so the estimate never exceeds it. The heuristic's
///   tables count too ([`Heuristic::memory_bytes`](crate::Heuristic::memory_bytes)),
///   and it is told what it may hold
///   ([`Heuristic::set_memory_budget`](crate::Heuristic::set_memory_budget)).
/// - `max_time`: time spent inside the search's steps. The clock is read
///   about every millisecond of search (every expansion, and every
///   heuristic evaluation within it, when expansions take longer), and the
///   heuristic is told the deadline
///   ([`Heuristic::set_deadline`](crate::Heuristic::set_deadline)), so the
///   search passes the limit by at most about a millisecond, or one
///   evaluation when evaluations are slower (and do not heed the deadline).
/// - `cost_bound`: nodes whose `g` (or `g + h` with an admissible heuristic)
///   exceeds the bound are pruned; if pruning emptied the open list the
///   outcome is the cost-bound limit, not "exhausted".
/// - `cancel`: a flag another thread may raise; checked before each expansion.
///
/// ```
/// use std::time::Duration;
/// use search_core::SearchLimits;
/// let limits = SearchLimits::<u32> {
///     max_expansions: Some(10_000),
///     max_time: Some(Duration::from_millis(50)),
///     ..SearchLimits::default()
/// };
/// assert!(limits.cost_bound.is_none());
/// ```
#[derive(Clone, Debug)]
pub struct SearchLimits<C> {
    /// Stop after this many expansions.
    pub max_expansions: Option<u64>,
    /// Stop when this many nodes are stored.
    pub max_stored_nodes: Option<usize>,
    /// Stop before the engine's memory estimate would exceed this.
    pub max_memory_bytes: Option<usize>,
    /// Stop after this much search time.
    pub max_time: Option<Duration>,
    /// Prune paths costlier than this.
    pub cost_bound: Option<C>,
    /// Stop when another thread sets this flag.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl<C> Default for SearchLimits<C> {
    fn default() -> Self {
        Self {
            max_expansions: None,
            max_stored_nodes: None,
            max_memory_bytes: None,
            max_time: None,
            cost_bound: None,
            cancel: None,
        }
    }
}

impl<C> SearchLimits<C> {
    /// Whether any limit checked before an expansion is set; a search
    /// without one skips the checks.
    pub(crate) fn checks_expansions(&self) -> bool {
        self.cancel.is_some()
            || self.max_expansions.is_some()
            || self.max_stored_nodes.is_some()
            || self.max_memory_bytes.is_some()
            || self.max_time.is_some()
    }

    pub(crate) fn is_cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }
}

/// Which limit stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// `max_expansions`.
    Expansions,
    /// `max_stored_nodes`, or the engine's own ceiling of `u32::MAX` nodes.
    StoredNodes,
    /// `max_memory_bytes`.
    Memory,
    /// `max_time`.
    Time,
    /// `cost_bound` pruned every remaining path.
    CostBound,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limit::Expansions => "expansions",
            Limit::StoredNodes => "stored nodes",
            Limit::Memory => "memory",
            Limit::Time => "time",
            Limit::CostBound => "cost bound",
        })
    }
}
