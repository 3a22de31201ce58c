//! petgraph graphs as search spaces, against the same graphs searched
//! through closures.

use petgraph::graph::DiGraph;
use petgraph::graphmap::DiGraphMap;
use petgraph::stable_graph::StableDiGraph;
use petgraph::visit::EdgeRef;
use proptest::prelude::*;
use search_core::graph::GraphSpace;
use search_core::{astar, dijkstra, dijkstra_all, dijkstra_fn, Blind, SearchSpace};

fn edges() -> impl Strategy<Value = (usize, Vec<(usize, usize, u32)>)> {
    (1_usize..=20).prop_flat_map(|n| {
        (
            Just(n),
            prop::collection::vec((0..n, 0..n, 0_u32..=9), 0..=n * 3),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// On a `Graph`, Dijkstra and one-to-all give the costs of the same
    /// edges searched through closures.
    #[test]
    fn a_graph_searches_as_its_edges_do((n, list) in edges(), goal in 0_usize..20) {
        let goal = goal % n;
        let mut graph = DiGraph::<(), u32>::new();
        let nodes: Vec<_> = (0..n).map(|_| graph.add_node(())).collect();
        for &(a, b, c) in &list {
            graph.add_edge(nodes[a], nodes[b], c);
        }
        let space = GraphSpace::new(&graph, |e| *e.weight(), |&v| v == nodes[goal]);
        let adjacency = |&v: &usize| list.iter().filter(|e| e.0 == v).map(|e| (e.1, e.2)).collect::<Vec<_>>();
        let expected = dijkstra_fn(0, adjacency, |&v| v == goal).unwrap().map(|(_, cost)| cost);
        let found = dijkstra(&space, nodes[0]).unwrap();
        prop_assert_eq!(found.outcome.solution().map(|s| s.cost), expected);
        let all = dijkstra_all(&space, [nodes[0]]).unwrap();
        prop_assert_eq!(all.cost(&nodes[goal]), expected);
    }
}

/// A `StableGraph` with removed nodes numbers its nodes with holes; the
/// flat table takes them.
#[test]
fn a_stable_graph_with_holes_and_a_graph_map() {
    let mut graph = StableDiGraph::<u8, u32>::new();
    let v: Vec<_> = (0..6).map(|i| graph.add_node(i)).collect();
    for (a, b, c) in [
        (0, 1, 1),
        (1, 2, 1),
        (0, 3, 5),
        (3, 5, 1),
        (2, 5, 1),
        (0, 4, 1),
    ] {
        graph.add_edge(v[a], v[b], c);
    }
    graph.remove_node(v[4]);
    let space = GraphSpace::new(&graph, |e| *e.weight(), |&n| n == v[5]);
    assert_eq!(space.node_numbers(), Some(6));
    let result = astar(&space, v[0], Blind).unwrap();
    let path = result.outcome.solution().unwrap();
    assert_eq!(path.cost, 3);
    assert_eq!(path.nodes, [v[0], v[1], v[2], v[5]]);

    let mut map = DiGraphMap::<&str, u32>::new();
    map.add_edge("home", "shop", 4);
    map.add_edge("home", "park", 1);
    map.add_edge("park", "shop", 1);
    let space = GraphSpace::new(&map, |e: (&str, &str, &u32)| *e.weight(), |&n| n == "shop");
    let result = dijkstra(&space, "home").unwrap();
    assert_eq!(
        result.outcome.solution().unwrap().nodes,
        ["home", "park", "shop"]
    );
}
