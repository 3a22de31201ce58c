//! Bidirectional searches over closures, in the style of
//! [`astar_fn`](crate::astar_fn): the successors and the predecessors of a
//! node, each with the cost of the edge between them.

use super::{Nbs, SameNode, Side};
use crate::{Blind, Cost, FnSpace, Heuristic, Node, Outcome, PathResult};

/// Bidirectional Dijkstra over closures: the cheapest path from `start` to
/// `goal`, searched from both ends until they meet.
///
/// `successors(n)` gives the nodes `n` leads to and `predecessors(n)` the
/// nodes that lead to `n`, each with the cost of that edge (on a graph
/// whose edges go both ways at the same cost, pass the same closure
/// twice). Edge costs must be non-negative.
///
/// ```
/// use search_core::bidirectional::bidijkstra_fn;
///
/// // A ring of 100 nodes: forward +1 costs 1, -1 costs 3.
/// let next = |&n: &u32| [((n + 1) % 100, 1_u32), ((n + 99) % 100, 3)];
/// let previous = |&n: &u32| [((n + 99) % 100, 1_u32), ((n + 1) % 100, 3)];
/// let (path, cost) = bidijkstra_fn(0, 90, next, previous).unwrap().expect("a path");
/// assert_eq!(cost, 30); // ten steps back
/// assert_eq!(path.first(), Some(&0));
/// assert_eq!(path.last(), Some(&90));
/// ```
///
/// # Errors
/// [`SearchError`](crate::SearchError) for a negative or NaN edge cost, or
/// a path cost that overflows the cost type.
pub fn bidijkstra_fn<N, C, FS, IS, FP, IP>(
    start: N,
    goal: N,
    successors: FS,
    predecessors: FP,
) -> PathResult<N, C>
where
    N: Node,
    C: Cost,
    FS: FnMut(&N) -> IS,
    IS: IntoIterator<Item = (N, C)>,
    FP: FnMut(&N) -> IP,
    IP: IntoIterator<Item = (N, C)>,
{
    let (mut successors, mut predecessors) = (successors, predecessors);
    let lean = crate::engine::lean::bidirectional::bidijkstra(
        start.clone(),
        goal.clone(),
        &mut successors,
        &mut predecessors,
    );
    match lean {
        Ok(found) => Ok(found),
        // An invalid cost or an overflow: the general engine reports it.
        Err(crate::engine::lean::GaveUp) => {
            run(start, goal, successors, predecessors, Blind, Blind)
        }
    }
}

/// Bidirectional A* (NBS) over closures: the cheapest path from `start` to
/// `goal`, searched from both ends, each guided by its own estimate.
///
/// `successors` and `predecessors` as for [`bidijkstra_fn`];
/// `to_goal(n)` estimates the cost from `n` to `goal` and `to_start(n)`
/// the cost from `start` to `n`. Neither may overestimate; if neither
/// drops by more than an edge's cost along it (consistent), NBS expands
/// at most twice the nodes every front-to-end bidirectional search must.
///
/// ```
/// use search_core::bidirectional::bidir_astar_fn;
///
/// let steps = |&(x, y): &(i32, i32)| [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)].map(|p| (p, 1_u32));
/// let (start, goal) = ((0, 0), (6, -4));
/// let manhattan = |a: (i32, i32), b: (i32, i32)| a.0.abs_diff(b.0) + a.1.abs_diff(b.1);
/// let (path, cost) = bidir_astar_fn(
///     start,
///     goal,
///     steps,
///     steps,
///     |&n| manhattan(n, goal),
///     |&n| manhattan(start, n),
/// )
/// .unwrap()
/// .expect("a path");
/// assert_eq!(cost, 10);
/// assert_eq!(path.len(), 11);
/// ```
///
/// # Errors
/// As [`bidijkstra_fn`].
pub fn bidir_astar_fn<N, C, FS, IS, FP, IP, HG, HS>(
    start: N,
    goal: N,
    successors: FS,
    predecessors: FP,
    to_goal: HG,
    to_start: HS,
) -> PathResult<N, C>
where
    N: Node,
    C: Cost,
    FS: FnMut(&N) -> IS,
    IS: IntoIterator<Item = (N, C)>,
    FP: FnMut(&N) -> IP,
    IP: IntoIterator<Item = (N, C)>,
    HG: FnMut(&N) -> C,
    HS: FnMut(&N) -> C,
{
    run(start, goal, successors, predecessors, to_goal, to_start)
}

fn run<N, C, FS, IS, FP, IP, HG, HS>(
    start: N,
    goal: N,
    successors: FS,
    predecessors: FP,
    to_goal: HG,
    to_start: HS,
) -> PathResult<N, C>
where
    N: Node,
    C: Cost,
    FS: FnMut(&N) -> IS,
    IS: IntoIterator<Item = (N, C)>,
    FP: FnMut(&N) -> IP,
    IP: IntoIterator<Item = (N, C)>,
    HG: Heuristic<N, C>,
    HS: Heuristic<N, C>,
{
    // The spaces' own goal tests are the two roots; meetings find the rest.
    let (at_goal, at_start) = (goal.clone(), start.clone());
    let forward = FnSpace::new(successors, move |n: &N| *n == at_goal);
    let backward = FnSpace::new(predecessors, move |n: &N| *n == at_start);
    let result = Nbs::new(&forward, start, &backward, goal, SameNode)
        .heuristics(to_goal, to_start)
        .run()?;
    Ok(match result.outcome {
        Outcome::Solved(solution) => Some((
            solution.nodes.into_iter().map(Side::into_node).collect(),
            solution.cost,
        )),
        _ => None,
    })
}
