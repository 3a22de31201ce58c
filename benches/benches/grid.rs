//! Grid path-finding: searchlab against the `pathfinding` crate, same grids,
//! same heuristic, same group. Every run asserts both report the same cost.
//!
//! `searchlab` searches the grid as it is, with its cell numbering (a flat
//! node table); `searchlab-hashed` searches the same grid without it, so the
//! engine hashes cells as it does for any space without a numbering.

use benches::grid::{Cell, Grid, Hashed};
use criterion::{BenchmarkId, Criterion};
use peak_alloc::PeakAlloc;
use search_core::{Algorithm, OpenListKind, Search, SearchSpace};

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

/// The bench grids: 1000x1000 with 25% and 35% of the cells blocked.
fn grids() -> Vec<(&'static str, Grid)> {
    vec![
        ("1000x1000-25%", Grid::random(1000, 1000, 0.25, 1)),
        ("1000x1000-35%", Grid::random(1000, 1000, 0.35, 1)),
    ]
}

fn searchlab_cost<S>(space: &S, grid: &Grid, algorithm: Algorithm) -> u32
where
    S: SearchSpace<Node = Cell, Cost = u32>,
{
    let result = Search::new(space, (0, 0))
        .algorithm(algorithm)
        .heuristic(grid.heuristic())
        .run()
        .expect("unit costs are valid");
    result
        .outcome
        .solution()
        .expect("the grid is connected")
        .cost
}

fn pathfinding_cost(grid: &Grid, algorithm: Algorithm) -> u32 {
    let start = (0, 0);
    let success = |cell: &Cell| *cell == grid.goal;
    let cost = match algorithm {
        Algorithm::AStar => pathfinding::directed::astar::astar(
            &start,
            |&c| grid.neighbours(c).map(|n| (n, 1_u32)),
            |&c| grid.manhattan(c),
            success,
        )
        .map(|(_, cost)| cost),
        Algorithm::Dijkstra => pathfinding::directed::dijkstra::dijkstra(
            &start,
            |&c| grid.neighbours(c).map(|n| (n, 1_u32)),
            success,
        )
        .map(|(_, cost)| cost),
        _ => pathfinding::directed::bfs::bfs(&start, |&c| grid.neighbours(c), success)
            .map(|path| u32::try_from(path.len() - 1).expect("short path")),
    };
    cost.expect("the grid is connected")
}

fn bench(c: &mut Criterion) {
    let grids = grids();
    for (name, algorithm) in [
        ("grid/astar", Algorithm::AStar),
        ("grid/dijkstra", Algorithm::Dijkstra),
        ("grid/bfs", Algorithm::BreadthFirst),
    ] {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        for (grid_name, grid) in &grids {
            let expected = pathfinding_cost(grid, algorithm);
            assert_eq!(
                searchlab_cost(grid, grid, algorithm),
                expected,
                "{name} {grid_name}"
            );
            assert_eq!(
                searchlab_cost(&Hashed(grid), grid, algorithm),
                expected,
                "{name} {grid_name} hashed"
            );
            group.bench_with_input(BenchmarkId::new("searchlab", grid_name), grid, |b, g| {
                b.iter(|| assert_eq!(searchlab_cost(g, g, algorithm), expected));
            });
            let id = BenchmarkId::new("searchlab-hashed", grid_name);
            group.bench_with_input(id, grid, |b, g| {
                b.iter(|| assert_eq!(searchlab_cost(&Hashed(g), g, algorithm), expected));
            });
            group.bench_with_input(BenchmarkId::new("pathfinding", grid_name), grid, |b, g| {
                b.iter(|| assert_eq!(pathfinding_cost(g, algorithm), expected));
            });
        }
        group.finish();
    }
}

/// The open lists against each other on the 25% grid, A* and Dijkstra.
fn open_lists(c: &mut Criterion) {
    let grid = Grid::random(1000, 1000, 0.25, 1);
    for (name, algorithm) in [
        ("grid/open-list/astar", Algorithm::AStar),
        ("grid/open-list/dijkstra", Algorithm::Dijkstra),
    ] {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        let expected = searchlab_cost(&grid, &grid, algorithm);
        for kind in [
            OpenListKind::Buckets,
            OpenListKind::BinaryHeap,
            OpenListKind::DecreaseKey,
        ] {
            let id = BenchmarkId::from_parameter(format!("{kind:?}"));
            group.bench_with_input(id, &grid, |b, g| {
                b.iter(|| {
                    let result = Search::new(g, (0, 0))
                        .algorithm(algorithm)
                        .open_list(kind)
                        .heuristic(g.heuristic())
                        .run()
                        .expect("unit costs are valid");
                    assert_eq!(result.outcome.solution().map(|s| s.cost), Some(expected));
                });
            });
        }
        group.finish();
    }
}

/// Peak bytes allocated while `run` runs, above what was live before.
fn peak_bytes<T>(run: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOCATOR.current_usage();
    ALLOCATOR.reset_peak_usage();
    let value = run();
    (ALLOCATOR.peak_usage().saturating_sub(before), value)
}

/// Memory of one Dijkstra run on each grid, searchlab (with and without the
/// cell numbering) and `pathfinding` measured by the same counting
/// allocator, per node searchlab stored.
#[expect(clippy::cast_precision_loss, reason = "byte counts far below 2^52")]
fn report_memory() {
    fn dijkstra<S: SearchSpace<Node = Cell, Cost = u32>>(
        space: &S,
    ) -> search_core::SearchResult<Cell, S::Action, u32> {
        Search::new(space, (0, 0))
            .algorithm(Algorithm::Dijkstra)
            .run()
            .expect("unit costs are valid")
    }
    for (name, grid) in grids() {
        let (numbered, result) = peak_bytes(|| dijkstra(&grid));
        let (hashed, hashed_result) = peak_bytes(|| dijkstra(&Hashed(&grid)));
        assert_eq!(result.stats.stored, hashed_result.stats.stored);
        let (theirs, _) = peak_bytes(|| pathfinding_cost(&grid, Algorithm::Dijkstra));
        let stored = result.stats.stored as f64;
        println!(
            "memory grid/dijkstra {name}: stored {} nodes; searchlab peak {numbered} B = {:.1} B/node \
             (engine estimate {:.1} B/node); searchlab-hashed peak {hashed} B = {:.1} B/node \
             (estimate {:.1}); pathfinding peak {theirs} B = {:.1} B/node",
            result.stats.stored,
            numbered as f64 / stored,
            result.stats.estimated_bytes as f64 / stored,
            hashed as f64 / stored,
            hashed_result.stats.estimated_bytes as f64 / stored,
            theirs as f64 / stored,
        );
    }
}

fn main() {
    report_memory();
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion);
    open_lists(&mut criterion);
    criterion.final_summary();
}
