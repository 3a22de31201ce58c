//! What happened during a search.

use std::time::Duration;

/// Counters filled in by the engine exactly where each event happens.
///
/// The definitions follow Fast Downward's, so figures compare across tools:
///
/// - `expanded`: nodes taken from the open list and expanded (their
///   successors generated). A reopened node counts each time. Stale open-list
///   entries that are skipped do not count. A goal node found at expansion is
///   counted, as Fast Downward counts the goal state.
/// - `generated`: successors produced by expansions, duplicates included, plus
///   the start node.
/// - `evaluated`: distinct nodes whose heuristic value was computed, the start
///   included; computed once per node and remembered. Without a heuristic
///   (Dijkstra, BFS) every newly stored node counts, as Fast Downward counts
///   evaluations of its blind heuristic.
/// - `duplicates`: generated successors that were already stored.
/// - `reopened`: expanded nodes put back on the open list because a cheaper
///   path to them appeared (only A* and weighted A* reopen).
/// - `dead_ends`: nodes the heuristic called dead ends.
/// - `dominated`: stored nodes skipped because a [`Dominance`](crate::Dominance)
///   pruner called them dominated (and not accepted later); they are not
///   evaluated.
/// - `expanded_until_last_jump`: expansions before the last increase of the
///   open list's priority (the final f-layer for A*), Fast Downward's
///   "expansions until last jump"; it factors out tie-breaking.
/// - `max_open`: the largest open list, stale entries included.
/// - `stored`: nodes in the store at the end.
/// - `estimated_bytes`: allocated capacity of the store, index and open list,
///   and the heap memory the stored nodes own
///   ([`SearchSpace::node_heap_bytes`](crate::SearchSpace::node_heap_bytes)).
/// - `elapsed`: time spent inside the search's steps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[allow(missing_docs)] // each field is documented above
pub struct Statistics {
    pub expanded: u64,
    pub generated: u64,
    pub evaluated: u64,
    pub duplicates: u64,
    pub reopened: u64,
    pub dead_ends: u64,
    pub dominated: u64,
    pub expanded_until_last_jump: u64,
    pub max_open: usize,
    pub stored: usize,
    pub estimated_bytes: usize,
    pub elapsed: Duration,
}

impl Statistics {
    /// The counters that do not depend on timing, for determinism checks.
    pub fn counters(&self) -> [u64; 7] {
        [
            self.expanded,
            self.generated,
            self.evaluated,
            self.duplicates,
            self.reopened,
            self.dead_ends,
            self.expanded_until_last_jump,
        ]
    }

    /// Two searches' statistics together, as of two searches that ran at
    /// once (a portfolio's, a bidirectional search's sides): counts and
    /// bytes add up, the time is the longer, and the expansions until the
    /// last jump are this one's.
    ///
    /// ```
    /// use search_core::Statistics;
    /// let a = Statistics { expanded: 3, stored: 5, ..Statistics::default() };
    /// let b = Statistics { expanded: 4, stored: 1, ..Statistics::default() };
    /// assert_eq!(a.beside(&b).expanded, 7);
    /// assert_eq!(a.beside(&b).stored, 6);
    /// ```
    #[must_use]
    pub fn beside(&self, other: &Statistics) -> Statistics {
        Statistics {
            expanded: self.expanded + other.expanded,
            generated: self.generated + other.generated,
            evaluated: self.evaluated + other.evaluated,
            duplicates: self.duplicates + other.duplicates,
            reopened: self.reopened + other.reopened,
            dead_ends: self.dead_ends + other.dead_ends,
            dominated: self.dominated + other.dominated,
            expanded_until_last_jump: self.expanded_until_last_jump,
            max_open: self.max_open + other.max_open,
            stored: self.stored + other.stored,
            estimated_bytes: self.estimated_bytes + other.estimated_bytes,
            elapsed: self.elapsed.max(other.elapsed),
        }
    }
}
