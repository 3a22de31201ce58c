//! [`petgraph`] graphs as search spaces (feature `petgraph`).

use petgraph::visit::{EdgeRef, IntoEdges, NodeIndexable};

use crate::{Cost, Node, SearchSpace};

/// A petgraph graph as a [`SearchSpace`]: a node's successors are the
/// targets of its edges, each edge's cost is `cost(edge)`, and the goals
/// are the nodes where `is_goal` holds. Actions are edge ids. Nodes are
/// numbered by the graph's own indices ([`NodeIndexable`]), so the engine
/// keeps a flat node table instead of hashing.
///
/// Any graph that yields its edges ([`IntoEdges`]) and indexes its nodes
/// ([`NodeIndexable`]) will do: a reference to a `Graph`, `StableGraph`,
/// `GraphMap` or `Csr`, or a filtered or reversed view of one.
///
/// ```
/// use petgraph::graph::DiGraph;
/// use petgraph::visit::EdgeRef;
/// use search_core::{dijkstra, dijkstra_all, graph::GraphSpace};
///
/// let mut roads = DiGraph::<&str, u32>::new();
/// let [a, b, c, d] = ["a", "b", "c", "d"].map(|town| roads.add_node(town));
/// roads.extend_with_edges([(a, b, 7), (a, c, 9), (b, c, 1), (c, d, 2), (b, d, 8)]);
///
/// let space = GraphSpace::new(&roads, |e| *e.weight(), |&n| n == d);
/// let result = dijkstra(&space, a).unwrap();
/// let path = result.outcome.solution().unwrap();
/// assert_eq!((path.nodes.clone(), path.cost), (vec![a, b, c, d], 10));
///
/// // Every town's distance from a.
/// let reached = dijkstra_all(&space, [a]).unwrap();
/// assert_eq!(reached.cost(&b), Some(7));
/// ```
pub struct GraphSpace<G, FC, FG> {
    graph: G,
    cost: FC,
    is_goal: FG,
}

impl<G: IntoEdges, FC, FG> GraphSpace<G, FC, FG> {
    /// `graph` with edge costs `cost(edge)` and goals where `is_goal`
    /// holds.
    pub fn new<C>(graph: G, cost: FC, is_goal: FG) -> Self
    where
        FC: Fn(G::EdgeRef) -> C,
        FG: Fn(&G::NodeId) -> bool,
    {
        Self {
            graph,
            cost,
            is_goal,
        }
    }

    /// The graph.
    pub fn graph(&self) -> &G {
        &self.graph
    }
}

impl<G, C, FC, FG> SearchSpace for GraphSpace<G, FC, FG>
where
    G: IntoEdges + NodeIndexable,
    G::NodeId: Node,
    G::EdgeId: Clone,
    C: Cost,
    FC: Fn(G::EdgeRef) -> C,
    FG: Fn(&G::NodeId) -> bool,
{
    type Node = G::NodeId;
    type Action = G::EdgeId;
    type Cost = C;

    fn is_goal(&self, node: &G::NodeId) -> bool {
        (self.is_goal)(node)
    }

    fn successors<F: FnMut(G::EdgeId, G::NodeId, C)>(&self, node: &G::NodeId, mut emit: F) {
        for edge in self.graph.edges(*node) {
            emit(edge.id(), edge.target(), (self.cost)(edge));
        }
    }

    fn node_numbers(&self) -> Option<u64> {
        u64::try_from(self.graph.node_bound()).ok()
    }

    fn node_number(&self, node: &G::NodeId) -> u64 {
        u64::try_from(self.graph.to_index(*node)).unwrap_or(u64::MAX)
    }
}
