//! One-to-all and multi-source searches against repeated single-target
//! searches on random graphs.

use proptest::prelude::*;
use search_core::{
    bfs_all, bfs_fn, bfs_within, dijkstra, dijkstra_all, dijkstra_fn, dijkstra_within, FnSpace,
    MultiSource, Reached, SearchSpace,
};

/// A random directed graph: `edges[n]` lists `(target, cost)`.
#[derive(Clone, Debug)]
struct Graph {
    edges: Vec<Vec<(usize, u32)>>,
    starts: Vec<usize>,
}

fn graph() -> impl Strategy<Value = Graph> {
    (1_usize..=25)
        .prop_flat_map(|n| {
            (
                prop::collection::vec((0..n, 0..n, 0_u32..=9), 0..=n * 3),
                prop::collection::vec(0..n, 1..=3),
                Just(n),
            )
        })
        .prop_map(|(edges, starts, n)| {
            let mut adjacency = vec![Vec::new(); n];
            for (from, to, cost) in edges {
                adjacency[from].push((to, cost));
            }
            Graph {
                edges: adjacency,
                starts,
            }
        })
}

impl Graph {
    fn space(&self) -> impl SearchSpace<Node = usize, Action = (), Cost = u32> + '_ {
        FnSpace::new(move |&n: &usize| self.edges[n].clone(), |_: &usize| false)
    }

    /// The cheapest cost from any start to `target`, one search per start.
    fn cheapest(&self, target: usize) -> Option<u32> {
        self.starts
            .iter()
            .filter_map(|&s| {
                dijkstra_fn(s, |&n| self.edges[n].clone(), |&n| n == target)
                    .unwrap()
                    .map(|(_, cost)| cost)
            })
            .min()
    }

    /// The fewest edges from any start to `target`, one search per start.
    fn fewest(&self, target: usize) -> Option<u64> {
        self.starts
            .iter()
            .filter_map(|&s| {
                let next = |&n: &usize| self.edges[n].iter().map(|&(m, _)| m).collect::<Vec<_>>();
                bfs_fn(s, next, |&n| n == target).unwrap()
            })
            .map(|path| path.len() as u64 - 1)
            .min()
    }

    /// Checks that `reached`'s path to every node starts at a start, follows
    /// edges and costs what `reached` says (`cost_of` prices an edge).
    fn check_paths<C: Copy + PartialEq + std::fmt::Debug + std::ops::Add<Output = C>>(
        &self,
        reached: &Reached<usize, C>,
        zero: C,
        cost_of: impl Fn(u32) -> C,
    ) {
        for (&node, cost) in reached.iter() {
            let path = reached.path_to(&node).unwrap();
            assert!(self.starts.contains(&path[0]), "{path:?}");
            assert_eq!(path.last(), Some(&node));
            let mut total = zero;
            for pair in path.windows(2) {
                // The cheapest edge between the two (parallel edges exist).
                let edge = self.edges[pair[0]]
                    .iter()
                    .filter(|&&(m, _)| m == pair[1])
                    .map(|&(_, c)| c)
                    .min()
                    .expect("an edge of the graph");
                total = total + cost_of(edge);
            }
            assert_eq!(total, cost, "path {path:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// One-to-all Dijkstra equals a Dijkstra search per target and start.
    #[test]
    fn dijkstra_all_agrees_with_single_target_searches(g in graph()) {
        let space = g.space();
        let reached = dijkstra_all(&space, g.starts.clone()).unwrap();
        for target in 0..g.edges.len() {
            prop_assert_eq!(reached.cost(&target), g.cheapest(target), "node {}", target);
        }
        g.check_paths(&reached, 0, |c| c);
    }

    /// One-to-all BFS equals a BFS per target and start.
    #[test]
    fn bfs_all_agrees_with_single_target_searches(g in graph()) {
        let space = g.space();
        let reached = bfs_all(&space, g.starts.clone()).unwrap();
        for target in 0..g.edges.len() {
            prop_assert_eq!(reached.cost(&target), g.fewest(target), "node {}", target);
        }
        g.check_paths(&reached, 0, |_| 1);
    }

    /// Within a bound, exactly the nodes whose best cost is within it.
    #[test]
    fn within_a_bound_keeps_exactly_the_nodes_within_it(g in graph(), bound in 0_u32..=20, edges in 0_u64..=4) {
        let space = g.space();
        let near = dijkstra_within(&space, g.starts.clone(), bound).unwrap();
        let close = bfs_within(&space, g.starts.clone(), edges).unwrap();
        for target in 0..g.edges.len() {
            let expected = g.cheapest(target).filter(|&c| c <= bound);
            prop_assert_eq!(near.cost(&target), expected, "node {}", target);
            let expected = g.fewest(target).filter(|&e| e <= edges);
            prop_assert_eq!(close.cost(&target), expected, "node {}", target);
        }
    }

    /// A multi-source point-to-point search finds the best start's path.
    #[test]
    fn a_multi_source_search_finds_the_best_start(g in graph(), target in 0_usize..25) {
        let target = target % g.edges.len();
        let space = FnSpace::new(|&n: &usize| g.edges[n].clone(), |&n: &usize| n == target);
        let sources = MultiSource::new(&space, g.starts.clone());
        let result = dijkstra(&sources, sources.start()).unwrap();
        let found = result.outcome.into_solution().map(|s| sources.solution(s));
        prop_assert_eq!(found.as_ref().map(|s| s.cost), g.cheapest(target));
        if let Some(path) = found {
            prop_assert!(g.starts.contains(&path.nodes[0]));
            prop_assert_eq!(path.nodes.last(), Some(&target));
            prop_assert_eq!(path.actions.len() + 1, path.nodes.len());
        }
    }
}

#[test]
fn no_starts_reach_nothing() {
    let g = Graph {
        edges: vec![vec![(0, 1)]],
        starts: Vec::new(),
    };
    let reached = dijkstra_all(&g.space(), Vec::new()).unwrap();
    assert!(reached.is_empty());
    assert_eq!(reached.cost(&0), None);
    assert_eq!(reached.path_to(&0), None);
}
