//! One-to-all searches: every node reachable from the starts (or within a
//! bound), with its cheapest cost or fewest edges and its parent on such a
//! path. Dijkstra's algorithm and breadth-first search run to exhaustion
//! in the same engine, through adapters that hide the goals.

use std::collections::HashMap;

use rustc_hash::FxBuildHasher;

use crate::{Algorithm, MultiSource, Search, SearchError, SearchLimits, SearchSpace, Source};

/// Every node a one-to-all search reached, with its cost (the cheapest, or
/// the fewest edges) and its parent on such a path.
///
/// ```
/// use search_core::{dijkstra_all, FnSpace};
///
/// let edges: &[&[(usize, u32)]] = &[&[(1, 4), (2, 1)], &[(3, 1)], &[(1, 2), (3, 5)], &[]];
/// let graph = FnSpace::new(|&n: &usize| edges[n].iter().copied(), |_: &usize| false);
/// let reached = dijkstra_all(&graph, [0]).unwrap();
/// assert_eq!(reached.cost(&3), Some(4));
/// assert_eq!(reached.parent(&3), Some(&1));
/// assert_eq!(reached.path_to(&3), Some(vec![0, 2, 1, 3]));
/// assert_eq!(reached.len(), 4);
/// ```
#[derive(Clone, Debug)]
pub struct Reached<N, C> {
    /// Node, cost and parent's index in this list (`None` for a start).
    nodes: Vec<(N, C, Option<u32>)>,
    index: HashMap<N, u32, FxBuildHasher>,
}

impl<N: crate::Node, C: Copy> Reached<N, C> {
    /// How many nodes were reached (the starts included).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether nothing was reached (no starts).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Whether `node` was reached.
    pub fn contains(&self, node: &N) -> bool {
        self.index.contains_key(node)
    }

    /// The cost of reaching `node` (zero for a start), if reached.
    pub fn cost(&self, node: &N) -> Option<C> {
        let &i = self.index.get(node)?;
        Some(self.nodes[i as usize].1)
    }

    /// `node`'s parent on a best path, if reached and not a start.
    pub fn parent(&self, node: &N) -> Option<&N> {
        let &i = self.index.get(node)?;
        let parent = self.nodes[i as usize].2?;
        Some(&self.nodes[parent as usize].0)
    }

    /// A best path from a start to `node`, if reached.
    pub fn path_to(&self, node: &N) -> Option<Vec<N>> {
        let mut at = Some(*self.index.get(node)?);
        let mut path = Vec::new();
        while let Some(i) = at {
            let (node, _, parent) = &self.nodes[i as usize];
            path.push(node.clone());
            at = *parent;
        }
        path.reverse();
        Some(path)
    }

    /// Every node reached with its cost, in the order the search found
    /// them (for Dijkstra's algorithm, not by cost).
    pub fn iter(&self) -> impl Iterator<Item = (&N, C)> {
        self.nodes.iter().map(|(node, cost, _)| (node, *cost))
    }
}

/// The cheapest cost to every node reachable from `starts`, by Dijkstra's
/// algorithm (the space's goals are ignored).
///
/// # Errors
/// [`SearchError`] for a negative or NaN edge cost or an overflowing path.
pub fn dijkstra_all<S: SearchSpace>(
    space: &S,
    starts: impl IntoIterator<Item = S::Node>,
) -> Result<Reached<S::Node, S::Cost>, SearchError> {
    reach(
        &Everywhere(MultiSource::new(space, starts)),
        Algorithm::Dijkstra,
        None,
    )
}

/// [`dijkstra_all`] limited to the nodes whose cheapest cost is at most
/// `bound` (a game's "everything within 30 seconds' walk").
///
/// ```
/// use search_core::{dijkstra_within, FnSpace};
///
/// let line = FnSpace::new(|&n: &i32| [(n - 1, 2_u32), (n + 1, 3)], |_: &i32| false);
/// let near = dijkstra_within(&line, [0], 6).unwrap();
/// assert_eq!(near.len(), 6); // -3..=2
/// assert_eq!(near.cost(&2), Some(6));
/// assert!(!near.contains(&3));
/// ```
///
/// # Errors
/// As [`dijkstra_all`].
pub fn dijkstra_within<S: SearchSpace>(
    space: &S,
    starts: impl IntoIterator<Item = S::Node>,
    bound: S::Cost,
) -> Result<Reached<S::Node, S::Cost>, SearchError> {
    let space = Everywhere(MultiSource::new(space, starts));
    reach(&space, Algorithm::Dijkstra, Some(bound))
}

/// The fewest edges to every node reachable from `starts`, by
/// breadth-first search (edge costs and goals are ignored).
///
/// ```
/// use search_core::{bfs_all, FnSpace};
///
/// // A knight on a 5x5 board.
/// let knight = FnSpace::new(
///     |&(x, y): &(i32, i32)| {
///         [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
///             .map(|(dx, dy)| (x + dx, y + dy))
///             .into_iter()
///             .filter(|&(x, y)| (0..5).contains(&x) && (0..5).contains(&y))
///             .map(|cell| (cell, 1_u32))
///     },
///     |_: &(i32, i32)| false,
/// );
/// let moves = bfs_all(&knight, [(0, 0)]).unwrap();
/// assert_eq!(moves.len(), 25);
/// assert_eq!(moves.cost(&(4, 4)), Some(4));
/// ```
///
/// # Errors
/// Only for a broken node numbering ([`SearchSpace::node_number`]).
pub fn bfs_all<S: SearchSpace>(
    space: &S,
    starts: impl IntoIterator<Item = S::Node>,
) -> Result<Reached<S::Node, u64>, SearchError> {
    let space = Everywhere(Edges(MultiSource::new(space, starts)));
    reach(&space, Algorithm::BreadthFirst, None)
}

/// [`bfs_all`] limited to the nodes at most `max_edges` edges from a start.
///
/// # Errors
/// As [`bfs_all`].
pub fn bfs_within<S: SearchSpace>(
    space: &S,
    starts: impl IntoIterator<Item = S::Node>,
    max_edges: u64,
) -> Result<Reached<S::Node, u64>, SearchError> {
    let space = Everywhere(Edges(MultiSource::new(space, starts)));
    reach(&space, Algorithm::BreadthFirst, Some(max_edges))
}

/// Runs `algorithm` over `space` from its root to exhaustion (nodes beyond
/// `bound` are not stored) and collects what it stored.
fn reach<N, S>(
    space: &S,
    algorithm: Algorithm,
    bound: Option<S::Cost>,
) -> Result<Reached<N, S::Cost>, SearchError>
where
    N: crate::Node,
    S: SearchSpace<Node = Source<N>>,
{
    let limits = SearchLimits {
        cost_bound: bound,
        ..SearchLimits::default()
    };
    let mut search = Search::new(space, Source::Root)
        .algorithm(algorithm)
        .limits(limits);
    search.run()?;
    // Store index 0 is the root: the starts are its children.
    let mut nodes = Vec::new();
    let mut index = HashMap::with_hasher(FxBuildHasher);
    for (stored, cost, parent) in search.stored().skip(1) {
        if let Source::Node(node) = stored {
            let parent = parent.checked_sub(1);
            index.insert(node.clone(), u32::try_from(nodes.len()).unwrap_or(u32::MAX));
            nodes.push((node.clone(), cost, parent));
        }
    }
    Ok(Reached { nodes, index })
}

/// A space with no goals: a search of it runs until nothing is left.
struct Everywhere<S>(S);

impl<S: SearchSpace> SearchSpace for Everywhere<S> {
    type Node = S::Node;
    type Action = S::Action;
    type Cost = S::Cost;

    fn is_goal(&self, _: &Self::Node) -> bool {
        false
    }

    fn successors<F: FnMut(S::Action, S::Node, S::Cost)>(&self, node: &S::Node, emit: F) {
        self.0.successors(node, emit);
    }

    fn action_between(&self, parent: &S::Node, child: &S::Node) -> Option<(S::Action, S::Cost)> {
        self.0.action_between(parent, child)
    }

    fn node_numbers(&self) -> Option<u64> {
        self.0.node_numbers()
    }

    fn node_number(&self, node: &S::Node) -> u64 {
        self.0.node_number(node)
    }

    fn node_heap_bytes(&self, node: &S::Node) -> usize {
        self.0.node_heap_bytes(node)
    }
}

/// A space whose edges all cost 1 (the root's steps to the starts 0), so
/// path costs count edges.
struct Edges<S>(S);

impl<N: crate::Node, S: SearchSpace<Node = Source<N>>> SearchSpace for Edges<S> {
    type Node = S::Node;
    type Action = S::Action;
    type Cost = u64;

    fn is_goal(&self, node: &Self::Node) -> bool {
        self.0.is_goal(node)
    }

    fn successors<F: FnMut(S::Action, S::Node, u64)>(&self, node: &S::Node, mut emit: F) {
        let step = u64::from(matches!(node, Source::Node(_)));
        self.0
            .successors(node, |action, next, _| emit(action, next, step));
    }

    fn node_numbers(&self) -> Option<u64> {
        self.0.node_numbers()
    }

    fn node_number(&self, node: &S::Node) -> u64 {
        self.0.node_number(node)
    }

    fn node_heap_bytes(&self, node: &S::Node) -> usize {
        self.0.node_heap_bytes(node)
    }
}
