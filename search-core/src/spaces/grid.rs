//! A grid of open and blocked cells with a dense numbering, the space most
//! path-finding starts from.

use std::fmt;

use crate::{Admissible, Heuristic, SearchError, SearchSpace};

/// A cell: `(x, y)`, `x` the column and `y` the row, both from 0.
pub type Cell = (u32, u32);

/// Which neighbours a cell has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Moves {
    /// Up, down, left, right.
    #[default]
    Four,
    /// The four and the diagonals; a diagonal step needs both cells beside
    /// it open (no cutting corners).
    Eight,
}

/// A rectangular grid of open and blocked cells; every step costs 1 (or
/// what [`with_costs`](Grid::with_costs) sets: 10 straight and 14
/// diagonally, say) and the goal is one cell. Cells are numbered row by row
/// ([`SearchSpace::node_numbers`]), so the engine keeps a flat node table
/// instead of hashing.
///
/// ```
/// use search_core::{astar, Grid};
///
/// let (grid, start) = Grid::parse("
///     S..#....
///     ...#.##.
///     .#...#G.
/// ").unwrap();
/// let result = astar(&grid, start.unwrap(), grid.distance()).unwrap();
/// assert_eq!(result.outcome.solution().unwrap().cost, 14);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Grid {
    width: u32,
    height: u32,
    blocked: Vec<bool>,
    moves: Moves,
    /// The cost of a straight step and of a diagonal one.
    costs: (u32, u32),
    goal: Option<Cell>,
}

impl Grid {
    /// An open `width` x `height` grid with four moves and no goal.
    pub fn new(width: u32, height: u32) -> Self {
        let cells = width as usize * height as usize;
        Self {
            width,
            height,
            blocked: vec![false; cells],
            moves: Moves::Four,
            costs: (1, 1),
            goal: None,
        }
    }

    /// Reads a map: one line per row, `.` open, `#` blocked, `S` the start
    /// (open; returned beside the grid), `G` the goal (open); blank lines
    /// and the indentation before each row are skipped.
    ///
    /// # Errors
    /// [`SearchError::InvalidGrid`] naming the line and column of another
    /// character, a second `S` or `G`, or a row of another length.
    pub fn parse(map: &str) -> Result<(Self, Option<Cell>), SearchError> {
        // Each row with its line number and indentation, for locating errors.
        let rows: Vec<(usize, usize, &str)> = map
            .lines()
            .enumerate()
            .map(|(i, line)| {
                let indent = line.chars().count() - line.trim_start().chars().count();
                (i + 1, indent, line.trim())
            })
            .filter(|(_, _, row)| !row.is_empty())
            .collect();
        let width = rows.first().map_or(0, |(_, _, row)| row.chars().count());
        let error = |line, column, why: String| SearchError::InvalidGrid { line, column, why };
        let too_big = || {
            error(
                1,
                1,
                "the grid has more than u32::MAX rows or columns".into(),
            )
        };
        let mut grid = Self::new(
            u32::try_from(width).map_err(|_| too_big())?,
            u32::try_from(rows.len()).map_err(|_| too_big())?,
        );
        let mut start = None;
        for (y, &(line, indent, row)) in (0_u32..).zip(&rows) {
            if row.chars().count() != width {
                let why = format!(
                    "{} cells in this row, {width} in the first",
                    row.chars().count()
                );
                return Err(error(line, 1, why));
            }
            for (x, c) in (0_u32..).zip(row.chars()) {
                let cell = (x, y);
                let column = indent + x as usize + 1;
                match c {
                    '.' => {}
                    '#' => grid.set_blocked(cell, true),
                    'S' if start.is_none() => start = Some(cell),
                    'G' if grid.goal.is_none() => grid.goal = Some(cell),
                    'S' | 'G' => return Err(error(line, column, format!("a second `{c}`"))),
                    _ => {
                        let why = format!(
                            "`{c}` is not a cell (`.` open, `#` blocked, `S` start, `G` goal)"
                        );
                        return Err(error(line, column, why));
                    }
                }
            }
        }
        Ok((grid, start))
    }

    /// Uses `moves` for the neighbours.
    #[must_use]
    pub fn with_moves(mut self, moves: Moves) -> Self {
        self.moves = moves;
        self
    }

    /// Makes a straight step cost `straight` and a diagonal one
    /// `diagonal` (both 1 until set); [`distance`](Grid::distance) follows.
    /// The octile grid of game path-finding is `with_costs(10, 14)`:
    ///
    /// ```
    /// use search_core::{astar, Grid, Moves};
    ///
    /// let (grid, start) = Grid::parse("
    ///     S....
    ///     .....
    ///     ....G
    /// ").unwrap();
    /// let grid = grid.with_moves(Moves::Eight).with_costs(10, 14);
    /// let result = astar(&grid, start.unwrap(), grid.distance()).unwrap();
    /// assert_eq!(result.outcome.solution().unwrap().cost, 2 * 14 + 2 * 10);
    /// ```
    #[must_use]
    pub fn with_costs(mut self, straight: u32, diagonal: u32) -> Self {
        self.costs = (straight, diagonal);
        self
    }

    /// Makes `goal` the goal.
    #[must_use]
    pub fn with_goal(mut self, goal: Cell) -> Self {
        self.goal = Some(goal);
        self
    }

    /// The width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The goal, if set.
    pub fn goal(&self) -> Option<Cell> {
        self.goal
    }

    /// Blocks or opens `cell` (a cell outside the grid is left alone).
    pub fn set_blocked(&mut self, cell: Cell, blocked: bool) {
        if let Some(i) = self.index(cell) {
            self.blocked[i] = blocked;
        }
    }

    /// Whether `cell` is inside the grid and open.
    pub fn is_open(&self, cell: Cell) -> bool {
        self.index(cell).is_some_and(|i| !self.blocked[i])
    }

    /// The open neighbours of `cell`.
    pub fn neighbours(&self, (x, y): Cell) -> impl Iterator<Item = Cell> + '_ {
        const STEPS: [(i64, i64); 8] = [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ];
        let steps = match self.moves {
            Moves::Four => &STEPS[..4],
            Moves::Eight => &STEPS[..],
        };
        steps.iter().filter_map(move |&(dx, dy)| {
            let to = |v: u32, d: i64| u32::try_from(i64::from(v) + d).ok();
            let next = (to(x, dx)?, to(y, dy)?);
            let diagonal_clear =
                dx == 0 || dy == 0 || (self.is_open((next.0, y)) && self.is_open((x, next.1)));
            (self.is_open(next) && diagonal_clear).then_some(next)
        })
    }

    /// The cost to the goal with no walls, which never overestimates:
    /// Manhattan with four moves; with eight, the octile distance (the
    /// diagonal steps first, then straight ones; Chebyshev when both cost
    /// the same); 0 with no goal. Costs past `u32::MAX` saturate there.
    pub fn distance(&self) -> impl Heuristic<Cell, u32> + Clone + '_ {
        let (straight, diagonal) = self.costs;
        // A diagonal dearer than two straight steps is never needed, nor a
        // straight step dearer than a diagonal (two diagonals zigzag).
        let (straight, diagonal) = (
            straight.min(diagonal),
            diagonal.min(straight.saturating_mul(2)),
        );
        Admissible(move |&(x, y): &Cell| {
            self.goal.map_or(0, |(gx, gy)| {
                let (dx, dy) = (gx.abs_diff(x), gy.abs_diff(y));
                match self.moves {
                    Moves::Four => straight.saturating_mul(dx.saturating_add(dy)),
                    Moves::Eight => {
                        let (diagonals, straights) = (dx.min(dy), dx.abs_diff(dy));
                        diagonal
                            .saturating_mul(diagonals)
                            .saturating_add(straight.saturating_mul(straights))
                    }
                }
            })
        })
    }

    fn index(&self, (x, y): Cell) -> Option<usize> {
        (x < self.width && y < self.height).then(|| y as usize * self.width as usize + x as usize)
    }
}

impl SearchSpace for Grid {
    type Node = Cell;
    /// The step `(dx, dy)`.
    type Action = (i8, i8);
    type Cost = u32;

    fn is_goal(&self, cell: &Cell) -> bool {
        self.goal == Some(*cell)
    }

    fn successors<F: FnMut((i8, i8), Cell, u32)>(&self, &(x, y): &Cell, mut emit: F) {
        for next in self.neighbours((x, y)) {
            // Steps are -1, 0 or 1.
            let step = |to: u32, from: u32| i8::from(to > from) - i8::from(to < from);
            let cost = if next.0 != x && next.1 != y {
                self.costs.1
            } else {
                self.costs.0
            };
            emit((step(next.0, x), step(next.1, y)), next, cost);
        }
    }

    fn node_numbers(&self) -> Option<u64> {
        Some(u64::from(self.width) * u64::from(self.height))
    }

    fn node_number(&self, &(x, y): &Cell) -> u64 {
        u64::from(y) * u64::from(self.width) + u64::from(x)
    }
}

impl fmt::Debug for Grid {
    /// The map, as [`Grid::parse`] reads it (without a start).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Grid {}x{} ({:?} moves costing {} straight, {} diagonally)",
            self.width, self.height, self.moves, self.costs.0, self.costs.1
        )?;
        for y in 0..self.height {
            for x in 0..self.width {
                let c = match (self.goal == Some((x, y)), self.is_open((x, y))) {
                    (true, _) => 'G',
                    (false, true) => '.',
                    (false, false) => '#',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
