//! Weighted A*: expands nodes in order of `g + floor(w * h)`, `w >= 1`.
//!
//! Bound: with an admissible heuristic the returned cost is at most `w` times
//! the optimum. On the cheapest path there is always an open node `n` with
//! `g(n) = g*(n)`, so the expanded goal satisfies
//! `cost <= g*(n) + w h(n) <= w (g*(n) + h*(n)) = w C*`; rounding `w h` down
//! only lowers the left side. Closed nodes are reopened when a cheaper path
//! appears, as in A*. `w = 1` is A*.

use crate::{Algorithm, Heuristic, ResultOf, Search, SearchError, SearchSpace};

/// Runs weighted A* with `weight >= 1` and a heuristic that must not
/// overestimate for the bound `cost <= weight * optimal` to hold.
///
/// ```
/// use search_core::{weighted_astar, SearchSpace};
///
/// struct Line;
/// impl SearchSpace for Line {
///     type Node = u32;
///     type Action = ();
///     type Cost = u32;
///     fn is_goal(&self, n: &u32) -> bool { *n == 20 }
///     fn successors<F: FnMut((), u32, u32)>(&self, n: &u32, mut emit: F) {
///         emit((), n + 1, 1);
///         emit((), n + 2, 3);
///     }
/// }
///
/// let result = weighted_astar(&Line, 0, |n: &u32| 20u32.saturating_sub(*n) / 2, 2.0).unwrap();
/// assert!(result.outcome.solution().unwrap().cost <= 2 * 20);
/// assert!(weighted_astar(&Line, 0, |_: &u32| 0u32, 0.5).is_err());
/// ```
///
/// # Errors
/// [`SearchError::InvalidWeight`] for a weight below 1 or not finite, and the
/// errors of [`astar`](crate::astar()).
pub fn weighted_astar<S, H>(
    space: &S,
    start: S::Node,
    heuristic: H,
    weight: f64,
) -> Result<ResultOf<S>, SearchError>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost>,
{
    Search::new(space, start)
        .algorithm(Algorithm::WeightedAStar { weight })
        .heuristic(heuristic)
        .run()
}
