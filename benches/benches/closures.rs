//! The closure API (`astar_fn`, `dijkstra_fn`, `bfs_fn`) against the
//! `pathfinding` crate on its own kind of problems: the same closures for
//! both, the same costs asserted. Each group `closure_*` has the functions
//! `searchlab` and `pathfinding`:
//!
//! - `closure_grid8_*`: an 8-connected 200x200 grid, 20% blocked, moves
//!   costing 10 straight and 14 diagonally, the octile distance as the
//!   heuristic; `closure_grid4_bfs` the same grid 4-connected.
//! - `closure_road_*`: a road-like sparse graph of 10,000 junctions (a
//!   jittered lattice with some streets missing and a few highways),
//!   lengths as costs, the straight-line distance as the heuristic.
//! - `closure_puzzle8_*`: the 8-puzzle from a state 26 moves from solved,
//!   the Manhattan distance as the heuristic.
//!
//! `cargo bench -p benches --bench closures`

use benches::grid::{Cell, Grid, SplitMix64};
use benches::roads::Roads;
use criterion::Criterion;

const SIDE: u32 = 200;

/// The 8 neighbours of a free cell, with their costs: diagonal moves need
/// both cells beside them free (no cutting corners).
fn grid8(grid: &Grid, (x, y): Cell) -> impl Iterator<Item = (Cell, u32)> + '_ {
    let free = move |dx: i32, dy: i32| {
        let (nx, ny) = (x.wrapping_add_signed(dx), y.wrapping_add_signed(dy));
        (nx < SIDE && ny < SIDE && !grid.is_blocked((nx, ny))).then_some((nx, ny))
    };
    [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ]
    .into_iter()
    .filter_map(move |(dx, dy)| {
        let next = free(dx, dy)?;
        if dx != 0 && dy != 0 {
            free(dx, 0)?;
            free(0, dy)?;
            Some((next, 14))
        } else {
            Some((next, 10))
        }
    })
}

fn octile((x, y): Cell, (gx, gy): Cell) -> u32 {
    let (dx, dy) = (x.abs_diff(gx), y.abs_diff(gy));
    10 * dx.max(dy) + 4 * dx.min(dy)
}

/// An 8-puzzle state: tile `i`'s place in nibble `i` (tile 0 the blank).
type Puzzle = u64;

const SOLVED: Puzzle = 0x0008_7654_3210;

fn place(state: Puzzle, tile: u64) -> u64 {
    state >> (4 * tile) & 0xf
}

fn puzzle_moves(state: Puzzle) -> impl Iterator<Item = Puzzle> {
    let blank = place(state, 0);
    let (row, col) = (blank / 3, blank % 3);
    let targets = [
        (row > 0).then(|| blank - 3),
        (row < 2).then(|| blank + 3),
        (col > 0).then(|| blank - 1),
        (col < 2).then(|| blank + 1),
    ];
    targets.into_iter().flatten().map(move |to| {
        let tile = (1..9)
            .find(|&t| place(state, t) == to)
            .expect("a tile there");
        let cleared = state & !(0xf << (4 * tile)) & !0xf;
        cleared | blank << (4 * tile) | to
    })
}

fn manhattan(state: Puzzle) -> u32 {
    (1..9)
        .map(|t| {
            let (at, home) = (place(state, t), place(SOLVED, t));
            u32::try_from((at / 3).abs_diff(home / 3) + (at % 3).abs_diff(home % 3)).expect("small")
        })
        .sum()
}

/// A state `depth` moves from solved by an optimal path (a random walk,
/// retried until A* says so).
fn scrambled(depth: u32, seed: u64) -> Puzzle {
    let mut rng = SplitMix64::new(seed);
    loop {
        let mut state = SOLVED;
        for _ in 0..3 * depth {
            let moves: Vec<Puzzle> = puzzle_moves(state).collect();
            state = moves[rng.below(moves.len())];
        }
        let optimal = pathfinding::directed::astar::astar(
            &state,
            |&s| puzzle_moves(s).map(|n| (n, 1_u32)),
            |&s| manhattan(s),
            |&s| s == SOLVED,
        );
        if optimal.is_some_and(|(_, cost)| cost == depth) {
            return state;
        }
    }
}

/// One group: the two functions on the same problem, after checking they
/// agree.
fn pair<T: PartialEq + std::fmt::Debug>(
    c: &mut Criterion,
    name: &str,
    mut searchlab: impl FnMut() -> T,
    mut pathfinding: impl FnMut() -> T,
) {
    assert_eq!(searchlab(), pathfinding(), "{name}");
    let mut group = c.benchmark_group(name);
    group.bench_function("searchlab", |b| b.iter(&mut searchlab));
    group.bench_function("pathfinding", |b| b.iter(&mut pathfinding));
    group.finish();
}

fn grids(c: &mut Criterion) {
    use pathfinding::directed::{astar::astar, bfs::bfs, dijkstra::dijkstra};
    use search_core::{astar_fn, bfs_fn, dijkstra_fn};
    let grid = Grid::random(SIDE, SIDE, 0.2, 5);
    let (start, goal) = ((0, 0), grid.goal);
    let moves = |&cell: &Cell| grid8(&grid, cell);
    let h = |&cell: &Cell| octile(cell, goal);
    let at_goal = |&cell: &Cell| cell == goal;
    pair(
        c,
        "closure_grid8_astar",
        || astar_fn(start, moves, h, at_goal).unwrap().map(|p| p.1),
        || astar(&start, moves, h, at_goal).map(|p| p.1),
    );
    pair(
        c,
        "closure_grid8_dijkstra",
        || dijkstra_fn(start, moves, at_goal).unwrap().map(|p| p.1),
        || dijkstra(&start, moves, at_goal).map(|p| p.1),
    );
    let steps = |&cell: &Cell| grid.neighbours(cell);
    pair(
        c,
        "closure_grid4_bfs",
        || bfs_fn(start, steps, at_goal).unwrap().map(|p| p.len()),
        || bfs(&start, steps, at_goal).map(|p| p.len()),
    );
}

fn roads(c: &mut Criterion) {
    use pathfinding::directed::{astar::astar, dijkstra::dijkstra};
    use search_core::{astar_fn, dijkstra_fn};
    let roads = Roads::new(100, 7);
    let streets = |&k: &u32| roads.edges[k as usize].iter().copied();
    let straight = |&k: &u32| roads.distance(k);
    let arrived = |&k: &u32| k == roads.goal;
    let cost = astar(&0, streets, straight, arrived).map(|p| p.1);
    assert!(cost.is_some());
    assert_eq!(dijkstra(&0, streets, arrived).map(|p| p.1), cost);
    pair(
        c,
        "closure_road_astar",
        || {
            astar_fn(0, streets, straight, arrived)
                .unwrap()
                .map(|p| p.1)
        },
        || astar(&0, streets, straight, arrived).map(|p| p.1),
    );
    pair(
        c,
        "closure_road_dijkstra",
        || dijkstra_fn(0, streets, arrived).unwrap().map(|p| p.1),
        || dijkstra(&0, streets, arrived).map(|p| p.1),
    );
}

fn puzzles(c: &mut Criterion) {
    use pathfinding::directed::{astar::astar, bfs::bfs};
    use search_core::{astar_fn, bfs_fn};
    let puzzle = scrambled(26, 11);
    let slides = |&s: &Puzzle| puzzle_moves(s).map(|n| (n, 1_u32));
    let tiles = |&s: &Puzzle| manhattan(s);
    let solved = |&s: &Puzzle| s == SOLVED;
    pair(
        c,
        "closure_puzzle8_astar",
        || {
            astar_fn(puzzle, slides, tiles, solved)
                .unwrap()
                .map(|p| p.1)
        },
        || astar(&puzzle, slides, tiles, solved).map(|p| p.1),
    );
    let neighbours = |&s: &Puzzle| puzzle_moves(s);
    assert_eq!(bfs(&puzzle, neighbours, solved).map(|p| p.len()), Some(27));
    pair(
        c,
        "closure_puzzle8_bfs",
        || bfs_fn(puzzle, neighbours, solved).unwrap().map(|p| p.len()),
        || bfs(&puzzle, neighbours, solved).map(|p| p.len()),
    );
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    grids(&mut criterion);
    roads(&mut criterion);
    puzzles(&mut criterion);
    criterion.final_summary();
}
