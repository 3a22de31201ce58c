//! The closure functions run A* and Dijkstra in a lean loop with no limit
//! on its size (the tiny engine's, uncapped): on graphs far past the tiny
//! engine's 2,048 nodes they return the general engine's costs and valid
//! paths, and bad input still gets the general engine's errors.

use search_core::{astar_fn, dijkstra_fn, Algorithm, FnSpace, Search, SearchError};

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
        assert!(general.stats.stored > 2048, "past the tiny engine's size");
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
