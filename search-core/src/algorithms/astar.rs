//! A*: expands nodes in order of `f = g + h`.
//!
//! With an admissible heuristic the first goal expanded is optimal. An
//! inconsistent but admissible heuristic can find a cheaper path to a node
//! already expanded; A* then reopens it (counted in
//! [`Statistics::reopened`](crate::Statistics)) so the cost stays optimal.
//! Ties on `f` go to the larger `g`, then to the node stored first.

use crate::{Algorithm, Heuristic, ResultOf, Search, SearchError, SearchSpace};

/// Runs A* from `start` with `heuristic`, which must not overestimate the
/// cheapest remaining cost for the result to be optimal.
///
/// ```
/// use search_core::{astar, SearchSpace};
///
/// struct Grid;
/// impl SearchSpace for Grid {
///     type Node = (i32, i32);
///     type Action = ();
///     type Cost = u32;
///     fn is_goal(&self, n: &(i32, i32)) -> bool { *n == (5, 5) }
///     fn successors<F: FnMut((), (i32, i32), u32)>(&self, &(x, y): &(i32, i32), mut emit: F) {
///         for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
///             if (0..=5).contains(&(x + dx)) && (0..=5).contains(&(y + dy)) {
///                 emit((), (x + dx, y + dy), 1);
///             }
///         }
///     }
/// }
///
/// let manhattan = |&(x, y): &(i32, i32)| (5 - x + 5 - y) as u32;
/// let result = astar(&Grid, (0, 0), manhattan).unwrap();
/// assert_eq!(result.outcome.solution().unwrap().cost, 10);
/// ```
///
/// # Errors
/// [`SearchError`] for a negative or NaN edge cost or an overflowing path.
pub fn astar<S, H>(space: &S, start: S::Node, heuristic: H) -> Result<ResultOf<S>, SearchError>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost>,
{
    Search::new(space, start)
        .algorithm(Algorithm::AStar)
        .heuristic(heuristic)
        .run()
}
