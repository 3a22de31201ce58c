//! Bidirectional search beside one-way search and the `pathfinding`
//! crate, on the same closures, costs asserted equal. Each group has the
//! functions `bidirectional` (`bidijkstra_fn` or `bidir_astar_fn`),
//! `searchlab` (`dijkstra_fn` or `astar_fn`) and `pathfinding`:
//!
//! - `bidir_grid_*`: the 1000x1000 grids of the `grid` bench (4-connected,
//!   unit costs, 25% and 35% blocked), from one corner to the other
//!   (`corner`) and across the middle, from the free cell nearest
//!   (100, 500) to the one nearest (900, 500) (`across`), and from
//!   (300, 500) to (700, 500) (`middle`, a route the grid's edges do not
//!   cut short for either search); Manhattan
//!   distance as the heuristic (to the goal forward, from the start
//!   backward).
//! - `bidir_road_*`: the road-like graph of the `closures` bench, 300x300
//!   junctions; the straight-line distance as the heuristic.
//!
//! Before timing, each group prints how many nodes each search expanded.
//!
//! `cargo bench -p benches --bench bidirectional`

use benches::grid::{Cell, Grid};
use benches::roads::Roads;
use criterion::Criterion;
use search_core::bidirectional::{Nbs, SameNode};
use search_core::{Algorithm, FnSpace, Search};

/// One group: the three functions on the same problem, after checking
/// that they agree and printing the expansions of searchlab's two.
fn trio<T: PartialEq + std::fmt::Debug>(
    c: &mut Criterion,
    name: &str,
    expansions: (u64, u64),
    mut bidirectional: impl FnMut() -> T,
    mut searchlab: impl FnMut() -> T,
    mut pathfinding: impl FnMut() -> T,
) {
    let answer = searchlab();
    assert_eq!(bidirectional(), answer, "{name}");
    assert_eq!(pathfinding(), answer, "{name}");
    println!(
        "{name}: {} expansions one way, {} bidirectional",
        expansions.0, expansions.1
    );
    let mut group = c.benchmark_group(name);
    group.bench_function("bidirectional", |b| b.iter(&mut bidirectional));
    group.bench_function("searchlab", |b| b.iter(&mut searchlab));
    group.bench_function("pathfinding", |b| b.iter(&mut pathfinding));
    group.finish();
}

/// An estimate of the cost to a node's target.
type Estimate<'h, N> = &'h dyn Fn(&N) -> u32;

/// Expansions of the general engine's one-way search and of NBS, with or
/// without the heuristics (to the goal, to the start), on a graph whose
/// edges go both ways.
fn expansions<N, I>(
    start: N,
    goal: N,
    edges: impl Fn(&N) -> I + Copy,
    heuristics: Option<(Estimate<'_, N>, Estimate<'_, N>)>,
) -> (u64, u64)
where
    N: search_core::Node,
    I: IntoIterator<Item = (N, u32)>,
{
    let (to_goal, to_start) = heuristics.unwrap_or((&|_| 0, &|_| 0));
    let (at_goal, at_start) = (goal.clone(), start.clone());
    let forward = FnSpace::new(edges, move |n: &N| *n == at_goal);
    let backward = FnSpace::new(edges, move |n: &N| *n == at_start);
    let algorithm = if heuristics.is_some() {
        Algorithm::AStar
    } else {
        Algorithm::Dijkstra
    };
    let one_way = Search::new(&forward, start.clone())
        .algorithm(algorithm)
        .heuristic(to_goal)
        .run()
        .expect("valid costs");
    let both = Nbs::new(&forward, start, &backward, goal, SameNode)
        .heuristics(to_goal, to_start)
        .run()
        .expect("valid costs");
    (one_way.stats.expanded, both.stats.expanded)
}

fn grids(c: &mut Criterion) {
    use pathfinding::directed::{astar::astar, dijkstra::dijkstra};
    use search_core::bidirectional::{bidijkstra_fn, bidir_astar_fn};
    use search_core::{astar_fn, dijkstra_fn};
    for (blocked, grid_name) in [(0.25, "1000x1000-25%"), (0.35, "1000x1000-35%")] {
        let grid = Grid::random(1000, 1000, blocked, 1);
        let free_near = |(x, y): Cell| {
            (x..1000)
                .map(|x| (x, y))
                .find(|&cell| !grid.is_blocked(cell))
                .expect("a free cell on the row")
        };
        for (route, start, goal) in [
            ("corner", (0, 0), grid.goal),
            ("across", free_near((100, 500)), free_near((900, 500))),
            ("middle", free_near((300, 500)), free_near((700, 500))),
        ] {
            let name = format!("{route}_{grid_name}");
            let steps = |&cell: &Cell| grid.neighbours(cell).map(|n| (n, 1_u32));
            let distance = |(x, y): Cell, (u, v): Cell| x.abs_diff(u) + y.abs_diff(v);
            let to_goal = |&cell: &Cell| distance(cell, goal);
            let to_start = |&cell: &Cell| distance(cell, start);
            let at_goal = |&cell: &Cell| cell == goal;
            trio(
                c,
                &format!("bidir_grid_dijkstra_{name}"),
                expansions(start, goal, steps, None),
                || {
                    bidijkstra_fn(start, goal, steps, steps)
                        .unwrap()
                        .map(|p| p.1)
                },
                || dijkstra_fn(start, steps, at_goal).unwrap().map(|p| p.1),
                || dijkstra(&start, steps, at_goal).map(|p| p.1),
            );
            trio(
                c,
                &format!("bidir_grid_astar_{name}"),
                expansions(start, goal, steps, Some((&to_goal, &to_start))),
                || {
                    bidir_astar_fn(start, goal, steps, steps, to_goal, to_start)
                        .unwrap()
                        .map(|p| p.1)
                },
                || {
                    astar_fn(start, steps, to_goal, at_goal)
                        .unwrap()
                        .map(|p| p.1)
                },
                || astar(&start, steps, to_goal, at_goal).map(|p| p.1),
            );
        }
    }
}

fn roads(c: &mut Criterion) {
    use pathfinding::directed::{astar::astar, dijkstra::dijkstra};
    use search_core::bidirectional::{bidijkstra_fn, bidir_astar_fn};
    use search_core::{astar_fn, dijkstra_fn};
    let roads = Roads::new(300, 7);
    let goal = roads.goal;
    let streets = |&k: &u32| roads.edges[k as usize].iter().copied();
    let to_goal = |&k: &u32| roads.distance(k);
    let to_start = |&k: &u32| roads.distance_between(0, k);
    let arrived = |&k: &u32| k == goal;
    trio(
        c,
        "bidir_road_dijkstra",
        expansions(0, goal, streets, None),
        || {
            bidijkstra_fn(0, goal, streets, streets)
                .unwrap()
                .map(|p| p.1)
        },
        || dijkstra_fn(0, streets, arrived).unwrap().map(|p| p.1),
        || dijkstra(&0, streets, arrived).map(|p| p.1),
    );
    trio(
        c,
        "bidir_road_astar",
        expansions(0, goal, streets, Some((&to_goal, &to_start))),
        || {
            bidir_astar_fn(0, goal, streets, streets, to_goal, to_start)
                .unwrap()
                .map(|p| p.1)
        },
        || astar_fn(0, streets, to_goal, arrived).unwrap().map(|p| p.1),
        || astar(&0, streets, to_goal, arrived).map(|p| p.1),
    );
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    grids(&mut criterion);
    roads(&mut criterion);
    criterion.final_summary();
}
