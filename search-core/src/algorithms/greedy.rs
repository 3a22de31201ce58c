//! Greedy best-first search: expands nodes in order of `h` alone.
//!
//! Fast and without any cost guarantee. Closed nodes are never reopened; a
//! cheaper path to an open node updates its parent so the plan returned is
//! the cheapest one the search saw to each node it expanded. Ties on `h` go to
//! the node stored first (first in, first out), as in Fast Downward's eager
//! greedy search: a plateau of equal `h` is searched breadth-first, so a
//! finite one is searched to its end and an infinite one (an action that
//! repeats without end) cannot hide a plan a few steps away. Preferring the
//! larger `g`, as A* does, would dive down such a plateau forever.

use crate::{Algorithm, Heuristic, ResultOf, Search, SearchError, SearchSpace};

/// Runs greedy best-first search from `start` guided by `heuristic` (any
/// estimate; admissibility buys nothing here).
///
/// ```
/// use search_core::{greedy, SearchSpace};
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
/// let result = greedy(&Line, 0, |n: &i32| (7 - n).unsigned_abs()).unwrap();
/// assert_eq!(result.stats.expanded, 8); // straight there
/// ```
///
/// # Errors
/// [`SearchError`] for a negative or NaN edge cost or an overflowing path.
pub fn greedy<S, H>(space: &S, start: S::Node, heuristic: H) -> Result<ResultOf<S>, SearchError>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost>,
{
    Search::new(space, start)
        .algorithm(Algorithm::GreedyBestFirst)
        .heuristic(heuristic)
        .run()
}
