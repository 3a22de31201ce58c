//! The closure functions run A*, Dijkstra and breadth-first search in a
//! lean loop of their own: on large grids and random graphs (inconsistent
//! heuristics and float costs included) they return the general engine's
//! costs and valid paths, and bad input still gets its errors.

use search_core::{
    astar_fn, bfs_fn, dijkstra_fn, Algorithm, FloatCost, FnSpace, Search, SearchError,
};

/// A `side` x `side` 4-connected grid with a cost per cell entered
/// (1 to 9), from a seed.
struct Weights {
    side: i64,
    cost: Vec<u32>,
}

impl Weights {
    fn new(side: i64, seed: u64) -> Self {
        let mut state = seed;
        let cost = (0..side * side)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                u32::try_from(state >> 60).unwrap() % 9 + 1
            })
            .collect();
        Self { side, cost }
    }

    fn next(&self, (x, y): (i64, i64)) -> Vec<((i64, i64), u32)> {
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .into_iter()
            .map(|(dx, dy)| (x + dx, y + dy))
            .filter(|&(nx, ny)| nx >= 0 && ny >= 0 && nx < self.side && ny < self.side)
            .map(|(nx, ny)| {
                let index = usize::try_from(ny * self.side + nx).unwrap();
                ((nx, ny), self.cost[index])
            })
            .collect()
    }

    /// The cost of `path` if every step is an edge.
    fn walk(&self, path: &[(i64, i64)]) -> Option<u32> {
        path.windows(2)
            .map(|pair| {
                self.next(pair[0])
                    .into_iter()
                    .find(|&(n, _)| n == pair[1])
                    .map(|(_, c)| c)
            })
            .sum()
    }
}

#[test]
fn closure_searches_past_the_tiny_size_match_the_general_engine() {
    for seed in 1..=3 {
        let grid = Weights::new(80, seed);
        let goal = (79, 79);
        let manhattan =
            |&(x, y): &(i64, i64)| u32::try_from((goal.0 - x).abs() + (goal.1 - y).abs()).unwrap();
        let space = FnSpace::new(|n: &(i64, i64)| grid.next(*n), |n: &(i64, i64)| *n == goal);
        let general = Search::new(&space, (0, 0))
            .algorithm(Algorithm::Dijkstra)
            .run()
            .unwrap();
        assert!(general.stats.stored > 2048, "a large search");
        let best = general.outcome.solution().unwrap().cost;
        let (path, cost) = astar_fn((0, 0), |n| grid.next(*n), manhattan, |n| *n == goal)
            .unwrap()
            .unwrap();
        assert_eq!(
            (cost, grid.walk(&path)),
            (best, Some(best)),
            "A*, seed {seed}"
        );
        let (path, cost) = dijkstra_fn((0, 0), |n| grid.next(*n), |n| *n == goal)
            .unwrap()
            .unwrap();
        assert_eq!(
            (cost, grid.walk(&path)),
            (best, Some(best)),
            "Dijkstra, seed {seed}"
        );
        let walled = astar_fn((0, 0), |n| grid.next(*n), manhattan, |_| false).unwrap();
        assert_eq!(walled, None, "no goal: every cell expanded, no path");
    }
}

#[test]
fn bad_costs_get_the_general_engines_errors() {
    let negative = dijkstra_fn(0_i32, |&n| [(n + 1, -1_i32)], |&n| n == 3);
    assert!(
        matches!(negative, Err(SearchError::InvalidCost { .. })),
        "{negative:?}"
    );
    let overflow = astar_fn(0_u8, |&n| [(n.wrapping_add(1), 200_u8)], |_| 0, |&n| n == 3);
    assert!(
        matches!(overflow, Err(SearchError::CostOverflow { .. })),
        "{overflow:?}"
    );
}

/// Costs scaled from units to hundreds of thousands take Dijkstra's open
/// list from a small ring of buckets through a grown one to the far
/// entries' heap, and float costs to the binary heap: the cheapest path throughout.
#[test]
fn dijkstra_finds_the_cheapest_path_at_every_cost_scale() {
    for seed in 0..100 {
        let graph = random_graph(60, seed);
        let space = FnSpace::new(|&n: &usize| graph[n].clone(), |&n: &usize| n == 59);
        let best = Search::new(&space, 0)
            .algorithm(Algorithm::Dijkstra)
            .run()
            .unwrap()
            .outcome
            .solution()
            .map(|s| u64::from(s.cost));
        for scale in [1_u64, 300, 5_000, 200_000] {
            let next = |&n: &usize| {
                graph[n]
                    .iter()
                    .map(move |&(to, cost)| (to, u64::from(cost) * scale))
            };
            let found = dijkstra_fn(0, next, |&n| n == 59).unwrap();
            assert_eq!(
                found.map(|p| p.1),
                best.map(|b| b * scale),
                "seed {seed}, x{scale}"
            );
        }
        let float = |&n: &usize| {
            graph[n]
                .iter()
                .map(|&(to, cost)| (to, FloatCost::new(f64::from(cost) / 8.0)))
                .collect::<Vec<_>>()
        };
        let found = dijkstra_fn(0, float, |&n| n == 59).unwrap();
        #[expect(clippy::cast_precision_loss, reason = "small costs")]
        let expected = best.map(|b| FloatCost::new(b as f64 / 8.0));
        assert_eq!(found.map(|p| p.1), expected, "seed {seed}, float");
    }
}

/// A random directed graph: `n` nodes, edges of cost 0 to 19.
fn random_graph(n: usize, seed: u64) -> Vec<Vec<(usize, u32)>> {
    let mut state = seed;
    let mut next = |bound: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from((state >> 33) % bound).unwrap()
    };
    (0..n)
        .map(|_| {
            (0..next(4))
                .map(|_| (next(n as u64), u32::try_from(next(20)).unwrap()))
                .collect()
        })
        .collect()
}

/// The cost of `path` in `graph`, taking the cheapest edge between each
/// pair, if every step is an edge.
fn walk(graph: &[Vec<(usize, u32)>], path: &[usize]) -> Option<u32> {
    path.windows(2)
        .map(|pair| {
            graph[pair[0]]
                .iter()
                .filter(|&&(to, _)| to == pair[1])
                .map(|&(_, cost)| cost)
                .min()
        })
        .sum()
}

#[test]
fn astar_with_an_inconsistent_heuristic_and_float_costs_finds_the_cheapest_path() {
    for seed in 0..200 {
        let graph = random_graph(40, seed);
        let goal = 39;
        // Exact distances to the goal (Bellman-Ford on the reversed edges).
        let mut to_goal = [u32::MAX; 40];
        to_goal[goal] = 0;
        for _ in 0..40 {
            for (from, edges) in graph.iter().enumerate() {
                for &(to, cost) in edges {
                    if to_goal[to] != u32::MAX {
                        to_goal[from] = to_goal[from].min(to_goal[to] + cost);
                    }
                }
            }
        }
        // Admissible, and inconsistent: a node's estimate is its distance
        // or a fraction of it, by the node's parity.
        let h = |&n: &usize| match to_goal[n] {
            u32::MAX => 0,
            d if n % 2 == 0 => d,
            d => d / 3,
        };
        let next = |&n: &usize| graph[n].clone();
        let best = (to_goal[0] != u32::MAX).then_some(to_goal[0]);
        let astar = astar_fn(0, next, h, |&n| n == goal).unwrap();
        let dijkstra = dijkstra_fn(0, next, |&n| n == goal).unwrap();
        for (name, found) in [("A*", astar), ("Dijkstra", dijkstra)] {
            assert_eq!(found.as_ref().map(|p| p.1), best, "{name}, seed {seed}");
            if let Some((path, cost)) = found {
                assert_eq!(walk(&graph, &path), Some(cost), "{name}, seed {seed}");
            }
        }
        let float = |&n: &usize| {
            graph[n]
                .iter()
                .map(|&(to, cost)| (to, FloatCost::new(f64::from(cost) / 4.0)))
                .collect::<Vec<_>>()
        };
        let float_h = |n: &usize| FloatCost::new(f64::from(h(n)) / 4.0);
        let found = astar_fn(0, float, float_h, |&n| n == goal).unwrap();
        assert_eq!(
            found.map(|p| p.1),
            best.map(|b| FloatCost::new(f64::from(b) / 4.0)),
            "float costs, seed {seed}"
        );
    }
}

#[test]
fn bfs_finds_the_fewest_edges_as_the_general_engine_does() {
    for seed in 0..200 {
        let graph = random_graph(40, seed);
        let next = |&n: &usize| graph[n].iter().map(|&(to, _)| to).collect::<Vec<_>>();
        let space = FnSpace::new(
            |&n: &usize| {
                graph[n]
                    .iter()
                    .map(|&(to, _)| (to, 1_u32))
                    .collect::<Vec<_>>()
            },
            |&n: &usize| n == 39,
        );
        let general = Search::new(&space, 0)
            .algorithm(Algorithm::BreadthFirst)
            .run()
            .unwrap();
        let expected = general.outcome.solution().map(|s| s.nodes.len());
        let path = bfs_fn(0, next, |&n| n == 39).unwrap();
        assert_eq!(path.as_ref().map(Vec::len), expected, "seed {seed}");
        if let Some(path) = path {
            assert!(walk(&graph, &path).is_some(), "a walk, seed {seed}");
            assert_eq!((path.first(), path.last()), (Some(&0), Some(&39)));
        }
    }
    assert_eq!(
        bfs_fn(7_u8, |&n| [n + 1], |&n| n == 7).unwrap(),
        Some(vec![7])
    );
}
