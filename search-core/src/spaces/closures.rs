//! One-call searches over closures, in the style of the `pathfinding`
//! crate: give a start, the successors of a node (with edge costs), and a
//! goal test; get the path and its cost. A*, Dijkstra and breadth-first
//! search run in a lean loop straight over the closures, 1.35x to 2.47x
//! `pathfinding`'s speed on grids, roads and puzzles (`BENCHMARKS.md`); the
//! rest, and bad costs (reported as errors), in [`Search`]. Among paths of equal
//! cost, A* and Dijkstra may return another than [`Search`]'s: both break
//! ties on `f` toward the higher `g`, then the lean loop toward the node
//! pushed last and [`Search`] toward the first.
//!
//! [`FnSpace`] makes the same closures a [`SearchSpace`] for the
//! [`Search`] builder, to add limits, stepping or statistics.

use std::cell::RefCell;
use std::marker::PhantomData;

use crate::{
    Algorithm, Blind, Cost, Heuristic, Node, Outcome, Search, SearchError, SearchResult,
    SearchSpace,
};

/// A search space made of two closures: the successors of a node, each
/// with its edge cost, and the goal test. Its actions are `()`: a
/// solution's [`nodes`](crate::Solution::nodes) are the path.
///
/// ```
/// use search_core::{Algorithm, FnSpace, Search, SearchLimits};
///
/// // Reach 100 from 1 by +1 (cost 1) or *2 (cost 2).
/// let space = FnSpace::new(|&n: &u32| [(n + 1, 1), (n * 2, 2)], |&n: &u32| n == 100);
/// let result = Search::new(&space, 1)
///     .algorithm(Algorithm::Dijkstra)
///     .limits(SearchLimits { max_expansions: Some(10_000), ..SearchLimits::default() })
///     .run()
///     .unwrap();
/// let path = result.outcome.solution().unwrap();
/// assert_eq!((path.nodes.first(), path.nodes.last()), (Some(&1), Some(&100)));
/// assert_eq!(path.cost, 13); // 1, 2, 3, 6, 12, 24, 25, 50, 100
/// println!("{} expansions", result.stats.expanded);
/// ```
pub struct FnSpace<N, C, FS, FG> {
    // The engine asks through `&self`; the closures may be `FnMut`.
    successors: RefCell<FS>,
    is_goal: RefCell<FG>,
    nodes: PhantomData<fn(&N) -> C>,
}

impl<N, C, FS, FG> FnSpace<N, C, FS, FG> {
    /// The space whose node `n` leads to `successors(n)`, each `(node,
    /// cost)`, and whose goals are the nodes where `is_goal` holds.
    pub fn new(successors: FS, is_goal: FG) -> Self {
        Self {
            successors: RefCell::new(successors),
            is_goal: RefCell::new(is_goal),
            nodes: PhantomData,
        }
    }
}

impl<N, C, FS, I, FG> SearchSpace for FnSpace<N, C, FS, FG>
where
    N: Node,
    C: Cost,
    FS: FnMut(&N) -> I,
    I: IntoIterator<Item = (N, C)>,
    FG: FnMut(&N) -> bool,
{
    type Node = N;
    type Action = ();
    type Cost = C;

    fn is_goal(&self, node: &N) -> bool {
        (self.is_goal.borrow_mut())(node)
    }

    fn successors<F: FnMut((), N, C)>(&self, node: &N, mut emit: F) {
        for (next, cost) in (self.successors.borrow_mut())(node) {
            emit((), next, cost);
        }
    }
}

/// The path (start and goal included) and its cost, or `None` if no goal
/// is reachable.
pub type PathResult<N, C> = Result<Option<(Vec<N>, C)>, SearchError>;

fn path<N, C>(result: SearchResult<N, (), C>) -> Option<(Vec<N>, C)> {
    match result.outcome {
        Outcome::Solved(solution) => Some((solution.nodes, solution.cost)),
        _ => None,
    }
}

fn run<N, C, FS, I, FG, H>(
    start: N,
    successors: FS,
    heuristic: H,
    is_goal: FG,
    algorithm: Algorithm,
) -> PathResult<N, C>
where
    N: Node,
    C: Cost,
    FS: FnMut(&N) -> I,
    I: IntoIterator<Item = (N, C)>,
    FG: FnMut(&N) -> bool,
    H: Heuristic<N, C>,
{
    let space = FnSpace::new(successors, is_goal);
    let result = Search::new(&space, start)
        .algorithm(algorithm)
        .heuristic(heuristic)
        .run()?;
    Ok(path(result))
}

/// A* in the lean loop; on an invalid cost or an overflow, which the lean
/// loop does not report, the general engine runs and reports it.
fn lean_astar<N, C, FS, I, FH, FG>(
    start: N,
    mut successors: FS,
    mut heuristic: FH,
    mut is_goal: FG,
) -> PathResult<N, C>
where
    N: Node,
    C: Cost,
    FS: FnMut(&N) -> I,
    I: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FG: FnMut(&N) -> bool,
{
    match crate::engine::lean::astar(start.clone(), &mut successors, &mut heuristic, &mut is_goal) {
        Ok(found) => Ok(found),
        Err(crate::engine::lean::GaveUp) => {
            run(start, successors, heuristic, is_goal, Algorithm::AStar)
        }
    }
}

/// A* over closures: the cheapest path from `start` to a node where
/// `is_goal` holds, if `heuristic` never overestimates. `heuristic` is
/// called once for each node the search stores: a cheaper path found to
/// a node later keeps its estimate.
///
/// A 4-connected grid with walls, as in the `pathfinding` crate's examples:
///
/// ```
/// let walls = ["....#", ".##.#", "...#.", "#...."];
/// let open = |(x, y): (i32, i32)| {
///     walls.get(y as usize).and_then(|row| row.as_bytes().get(x as usize)) == Some(&b'.')
/// };
/// let goal = (4_i32, 3_i32);
/// let (path, cost) = search_core::astar_fn(
///     (0, 0),
///     |&(x, y)| [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
///         .into_iter()
///         .filter(|&p| open(p))
///         .map(|p| (p, 1)),
///     |&(x, y)| goal.0.abs_diff(x) + goal.1.abs_diff(y),
///     |&p| p == goal,
/// )
/// .unwrap()
/// .expect("a path");
/// assert_eq!(cost, 7);
/// assert_eq!(path.len(), 8);
/// ```
///
/// # Errors
/// [`SearchError`] for a negative or NaN edge cost or a path cost that
/// overflows the cost type.
pub fn astar_fn<N, C, FS, I, FH, FG>(
    start: N,
    successors: FS,
    heuristic: FH,
    is_goal: FG,
) -> PathResult<N, C>
where
    N: Node,
    C: Cost,
    FS: FnMut(&N) -> I,
    I: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FG: FnMut(&N) -> bool,
{
    lean_astar(start, successors, heuristic, is_goal)
}

/// Weighted A* over closures: a path at most `weight` times the cheapest
/// (with a heuristic that never overestimates), usually found with fewer
/// expansions.
///
/// ```
/// let (_, cost) = search_core::weighted_astar_fn(
///     0_i32,
///     |&n| [(n + 1, 1_u32), (n + 5, 4)],
///     |&n| (20 - n).max(0) as u32,
///     |&n| n == 20,
///     2.0,
/// )
/// .unwrap()
/// .unwrap();
/// assert!(cost <= 2 * 16);
/// ```
///
/// # Errors
/// As [`astar_fn`], and [`SearchError::InvalidWeight`] for a weight below
/// 1 or not finite.
pub fn weighted_astar_fn<N, C, FS, I, FH, FG>(
    start: N,
    successors: FS,
    heuristic: FH,
    is_goal: FG,
    weight: f64,
) -> PathResult<N, C>
where
    N: Node,
    C: Cost,
    FS: FnMut(&N) -> I,
    I: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FG: FnMut(&N) -> bool,
{
    let algorithm = Algorithm::WeightedAStar { weight };
    run(start, successors, heuristic, is_goal, algorithm)
}

/// Greedy best-first search over closures: expands the node that looks
/// closest to a goal; any path, fast.
///
/// ```
/// let (path, _) = search_core::greedy_fn(
///     1_u64,
///     |&n| [(n + 1, 1_u64), (n * 3, 1)],
///     |&n| 81_u64.abs_diff(n),
///     |&n| n == 81,
/// )
/// .unwrap()
/// .unwrap();
/// assert_eq!(path.last(), Some(&81));
/// ```
///
/// # Errors
/// As [`astar_fn`].
pub fn greedy_fn<N, C, FS, I, FH, FG>(
    start: N,
    successors: FS,
    heuristic: FH,
    is_goal: FG,
) -> PathResult<N, C>
where
    N: Node,
    C: Cost,
    FS: FnMut(&N) -> I,
    I: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FG: FnMut(&N) -> bool,
{
    run(
        start,
        successors,
        heuristic,
        is_goal,
        Algorithm::GreedyBestFirst,
    )
}

/// Dijkstra's algorithm over closures: the cheapest path to a goal.
///
/// A weighted graph as an adjacency list:
///
/// ```
/// let edges: &[&[(usize, u32)]] = &[&[(1, 7), (2, 9), (5, 14)], &[(2, 10), (3, 15)],
///     &[(3, 11), (5, 2)], &[(4, 6)], &[], &[(4, 9)]];
/// let (path, cost) = search_core::dijkstra_fn(0, |&n| edges[n].iter().copied(), |&n| n == 4)
///     .unwrap()
///     .expect("a path");
/// assert_eq!((path, cost), (vec![0, 2, 5, 4], 20));
/// ```
///
/// # Errors
/// As [`astar_fn`].
pub fn dijkstra_fn<N, C, FS, I, FG>(start: N, successors: FS, is_goal: FG) -> PathResult<N, C>
where
    N: Node,
    C: Cost,
    FS: FnMut(&N) -> I,
    I: IntoIterator<Item = (N, C)>,
    FG: FnMut(&N) -> bool,
{
    let (mut successors, mut is_goal) = (successors, is_goal);
    match crate::engine::lean::dijkstra(start.clone(), &mut successors, &mut is_goal) {
        Ok(found) => Ok(found),
        Err(crate::engine::lean::GaveUp) => {
            run(start, successors, Blind, is_goal, Algorithm::Dijkstra)
        }
    }
}

/// Breadth-first search over closures: a path with the fewest edges.
///
/// ```
/// let path = search_core::bfs_fn(1_u32, |&n| [n + 1, n * 2], |&n| n == 10)
///     .unwrap()
///     .expect("a path");
/// assert_eq!(path, [1, 2, 4, 5, 10]);
/// ```
///
/// # Errors
/// [`SearchError::CostOverflow`] if the path has more than `u64::MAX`
/// edges (it cannot in practice).
pub fn bfs_fn<N, FS, I, FG>(
    start: N,
    mut successors: FS,
    mut is_goal: FG,
) -> Result<Option<Vec<N>>, SearchError>
where
    N: Node,
    FS: FnMut(&N) -> I,
    I: IntoIterator<Item = N>,
    FG: FnMut(&N) -> bool,
{
    if let Ok(found) = crate::engine::lean::bfs(start.clone(), &mut successors, &mut is_goal) {
        return Ok(found);
    }
    let steps = |n: &N| successors(n).into_iter().map(|next| (next, 1_u64));
    let found = run(start, steps, Blind, is_goal, Algorithm::BreadthFirst)?;
    Ok(found.map(|(path, _)| path))
}
