//! Dijkstra's algorithm (uniform-cost search): expands nodes in order of `g`.
//!
//! Optimal for non-negative edge costs, with no heuristic. A node's first
//! expansion is at its cheapest cost, so nothing is ever reopened. Ties on `g`
//! go to the node stored first.

use crate::{Algorithm, ResultOf, Search, SearchError, SearchSpace};

/// Runs Dijkstra's algorithm from `start` to the cheapest goal.
///
/// ```
/// use search_core::{dijkstra, Outcome, SearchSpace};
///
/// /// Two routes from 0 to 3: 0-1-3 costs 2 + 2, 0-2-3 costs 1 + 5.
/// struct Graph;
/// impl SearchSpace for Graph {
///     type Node = u8;
///     type Action = u8;
///     type Cost = u32;
///     fn is_goal(&self, n: &u8) -> bool { *n == 3 }
///     fn successors<F: FnMut(u8, u8, u32)>(&self, n: &u8, mut emit: F) {
///         match n {
///             0 => { emit(1, 1, 2); emit(2, 2, 1); }
///             1 => emit(3, 3, 2),
///             2 => emit(3, 3, 5),
///             _ => {}
///         }
///     }
/// }
///
/// let result = dijkstra(&Graph, 0).unwrap();
/// assert_eq!(result.outcome.solution().unwrap().nodes, vec![0, 1, 3]);
/// assert_eq!(dijkstra(&Graph, 3).unwrap().outcome.solution().unwrap().cost, 0);
/// ```
///
/// # Errors
/// [`SearchError`] for a negative or NaN edge cost or an overflowing path.
pub fn dijkstra<S: SearchSpace>(space: &S, start: S::Node) -> Result<ResultOf<S>, SearchError> {
    Search::new(space, start)
        .algorithm(Algorithm::Dijkstra)
        .run()
}
