//! Breadth-first search: finds a path with the fewest edges.
//!
//! Uses a FIFO queue and tests for the goal when a node is generated, so the
//! last layer is never expanded. Edge costs are still checked and summed into
//! the reported cost, which need not be the cheapest.

use crate::{Algorithm, ResultOf, Search, SearchError, SearchSpace};

/// Runs breadth-first search from `start` to the goal with the fewest edges.
///
/// ```
/// use search_core::{bfs, SearchSpace};
///
/// /// 0 -> 1 -> 2 -> 3 cheaply, or 0 -> 3 directly at cost 10.
/// struct Graph;
/// impl SearchSpace for Graph {
///     type Node = u8;
///     type Action = ();
///     type Cost = u32;
///     fn is_goal(&self, n: &u8) -> bool { *n == 3 }
///     fn successors<F: FnMut((), u8, u32)>(&self, n: &u8, mut emit: F) {
///         if *n < 3 { emit((), n + 1, 1); }
///         if *n == 0 { emit((), 3, 10); }
///     }
/// }
///
/// let plan = bfs(&Graph, 0).unwrap().outcome.into_solution().unwrap();
/// assert_eq!(plan.nodes, vec![0, 3]);
/// assert_eq!(plan.cost, 10);
/// ```
///
/// # Errors
/// [`SearchError`] for a negative or NaN edge cost or an overflowing path.
pub fn bfs<S: SearchSpace>(space: &S, start: S::Node) -> Result<ResultOf<S>, SearchError> {
    Search::new(space, start)
        .algorithm(Algorithm::BreadthFirst)
        .run()
}
