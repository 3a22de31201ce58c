//! The `Grid` space: maps, moves, numbering and errors.

use search_core::{astar, bfs_all, dijkstra_fn, Grid, Moves, SearchError, SearchSpace};

const MAP: &str = "
    S..#....
    ...#.##.
    .#...#G.
";

#[test]
fn four_and_eight_moves_find_their_shortest_paths() {
    let (grid, start) = Grid::parse(MAP).unwrap();
    let start = start.unwrap();
    let four = astar(&grid, start, grid.distance()).unwrap();
    assert_eq!(four.outcome.solution().unwrap().cost, 14);
    let grid = grid.with_moves(Moves::Eight);
    let eight = astar(&grid, start, grid.distance()).unwrap();
    let path = eight.outcome.solution().unwrap();
    assert_eq!(path.cost, 13); // walls block every diagonal that would cut a corner
                               // The same cost from a search of the same neighbours without the numbering.
    let hashed = dijkstra_fn(
        start,
        |&c| grid.neighbours(c).map(|n| (n, 1_u32)).collect::<Vec<_>>(),
        |&c| Some(c) == grid.goal(),
    );
    assert_eq!(hashed.unwrap().unwrap().1, 13);
}

#[test]
fn a_diagonal_step_does_not_cut_a_corner() {
    let (grid, _) = Grid::parse(".#\n#.").unwrap();
    let grid = grid.with_moves(Moves::Eight);
    assert_eq!(grid.neighbours((0, 0)).count(), 0);
    let open = Grid::new(2, 2).with_moves(Moves::Eight);
    let mut around: Vec<_> = open.neighbours((0, 0)).collect();
    around.sort_unstable();
    assert_eq!(around, [(0, 1), (1, 0), (1, 1)]);
}

#[test]
fn cells_are_numbered_row_by_row() {
    let grid = Grid::new(7, 3);
    assert_eq!(grid.node_numbers(), Some(21));
    assert_eq!(grid.node_number(&(2, 1)), 9);
    let reached = bfs_all(&grid, [(0, 0)]).unwrap();
    assert_eq!(reached.len(), 21);
    assert_eq!(reached.cost(&(6, 2)), Some(8));
}

#[test]
fn blocked_and_outside_cells_are_not_open() {
    let mut grid = Grid::new(3, 3);
    grid.set_blocked((1, 1), true);
    grid.set_blocked((5, 5), true); // outside: ignored
    assert!(!grid.is_open((1, 1)));
    assert!(!grid.is_open((3, 0)));
    assert!(grid.is_open((2, 2)));
    let text = format!("{grid:?}");
    assert!(text.contains("...\n.#.\n..."), "{text}");
}

#[test]
fn map_errors_name_the_line_and_column() {
    let cases = [
        ("..\n.x", 2, 2, "`x` is not a cell"),
        ("S.\n.S", 2, 2, "a second `S`"),
        ("...\n..", 2, 1, "2 cells in this row, 3 in the first"),
        ("\n    .G\n    G.", 3, 5, "a second `G`"),
    ];
    for (map, line, column, why) in cases {
        let error = Grid::parse(map).unwrap_err();
        let SearchError::InvalidGrid {
            line: l,
            column: c,
            why: w,
        } = &error
        else {
            panic!("{error}");
        };
        assert_eq!((*l, *c), (line, column), "{map:?}: {error}");
        assert!(w.contains(why), "{map:?}: {error}");
        assert!(error
            .to_string()
            .starts_with(&format!("grid map, line {line}, column {column}")));
    }
}

#[test]
fn an_empty_map_is_an_empty_grid() {
    let (grid, start) = Grid::parse("\n\n").unwrap();
    assert_eq!((grid.width(), grid.height(), start), (0, 0, None));
}

/// Weighted moves: with any straight and diagonal costs (the octile 10/14,
/// a diagonal dearer than two straight steps, one cheaper than a straight
/// step), A* with the grid's distance finds Dijkstra's cost, so the
/// distance never overestimates.
#[test]
fn weighted_moves_keep_the_distance_admissible() {
    let mut state = 7_u64;
    let mut coin = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        state >> 62 == 0
    };
    for trial in 0..6 {
        let mut grid = Grid::new(24, 24)
            .with_moves(Moves::Eight)
            .with_goal((23, 23));
        for y in 0..24 {
            for x in 0..24 {
                if (x, y) != (0, 0) && (x, y) != (23, 23) && coin() {
                    grid.set_blocked((x, y), true);
                }
            }
        }
        for (straight, diagonal) in [(1, 1), (10, 14), (10, 25), (14, 10), (3, 0)] {
            let grid = grid.clone().with_costs(straight, diagonal);
            let best = dijkstra_fn(
                (0, 0),
                |&cell| {
                    let mut next = Vec::new();
                    grid.successors(&cell, |_, to, cost| next.push((to, cost)));
                    next
                },
                |&cell| cell == (23, 23),
            )
            .unwrap()
            .map(|(_, cost)| cost);
            let found = astar(&grid, (0, 0), grid.distance()).unwrap();
            let cost = found.outcome.solution().map(|s| s.cost);
            assert_eq!(cost, best, "trial {trial}, costs {straight}/{diagonal}");
        }
    }
}
