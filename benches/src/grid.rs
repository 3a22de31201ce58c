//! Seeded 4-connected grids for path-finding benches and the demo.

use search_core::{Admissible, Heuristic, SearchSpace};

/// A cell: `(x, y)`.
pub type Cell = (u32, u32);

/// A rectangular 4-connected grid with blocked cells and unit costs; the goal
/// is one cell.
#[derive(Clone, Debug)]
pub struct Grid {
    width: u32,
    height: u32,
    blocked: Vec<bool>,
    /// The goal cell.
    pub goal: Cell,
}

/// `SplitMix64`: a tiny, well-mixed generator, so grids need no `rand`.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (0 when `bound` is 0).
    #[expect(
        clippy::cast_possible_truncation,
        reason = "the result is below a usize bound"
    )]
    pub fn below(&mut self, bound: usize) -> usize {
        if bound == 0 {
            0
        } else {
            (self.next_u64() % bound as u64) as usize
        }
    }

    /// A float in `[0, 1)`.
    #[expect(
        clippy::cast_precision_loss,
        reason = "53 random bits fit an f64 exactly"
    )]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1_u64 << 53) as f64
    }
}

impl Grid {
    /// A `width x height` grid where each cell is blocked with probability
    /// `blocked`, from `seed`; the start `(0, 0)` and the goal (the opposite
    /// corner) are free. Seeds are tried from `seed` upward until the goal is
    /// reachable, so the same arguments always give the same grid.
    ///
    /// ```
    /// use benches::grid::Grid;
    /// let grid = Grid::random(20, 10, 0.25, 7);
    /// assert_eq!(grid.goal, (19, 9));
    /// assert!(!grid.is_blocked((0, 0)));
    /// ```
    ///
    /// # Panics
    /// If `width` or `height` is zero.
    pub fn random(width: u32, height: u32, blocked: f64, seed: u64) -> Self {
        assert!(width > 0 && height > 0, "a grid needs at least one cell");
        let goal = (width - 1, height - 1);
        let mut seed = seed;
        loop {
            let mut rng = SplitMix64::new(seed);
            let cells = (0..width as usize * height as usize)
                .map(|_| rng.next_f64() < blocked)
                .collect();
            let mut grid = Self {
                width,
                height,
                blocked: cells,
                goal,
            };
            grid.set_blocked((0, 0), false);
            grid.set_blocked(goal, false);
            if grid.reaches_goal() {
                return grid;
            }
            seed = seed.wrapping_add(1);
        }
    }

    /// A grid drawn with `#` for blocked cells and `.` for free ones, one row
    /// per line; the goal is the bottom-right cell.
    ///
    /// ```
    /// use benches::grid::Grid;
    /// let grid = Grid::parse("..#\n...");
    /// assert!(grid.is_blocked((2, 0)));
    /// assert_eq!(grid.goal, (2, 1));
    /// ```
    ///
    /// # Panics
    /// If the drawing is empty or its rows differ in length.
    pub fn parse(drawing: &str) -> Self {
        let rows: Vec<&str> = drawing.lines().filter(|l| !l.is_empty()).collect();
        let width = rows.first().map_or(0, |r| r.len());
        assert!(width > 0, "empty grid");
        assert!(rows.iter().all(|r| r.len() == width), "ragged grid");
        let blocked = rows
            .iter()
            .flat_map(|r| r.bytes().map(|b| b == b'#'))
            .collect();
        let (width, height) = (
            u32::try_from(width).expect("grid width fits u32"),
            u32::try_from(rows.len()).expect("grid height fits u32"),
        );
        Self {
            width,
            height,
            blocked,
            goal: (width - 1, height - 1),
        }
    }

    /// Whether a cell is blocked.
    pub fn is_blocked(&self, (x, y): Cell) -> bool {
        self.blocked[(y * self.width + x) as usize]
    }

    fn set_blocked(&mut self, (x, y): Cell, value: bool) {
        self.blocked[(y * self.width + x) as usize] = value;
    }

    /// The free neighbours of a cell, without allocating.
    #[inline]
    pub fn neighbours(&self, (x, y): Cell) -> impl Iterator<Item = Cell> + '_ {
        let candidates = [
            (x.wrapping_add(1), y),
            (x.wrapping_sub(1), y),
            (x, y.wrapping_add(1)),
            (x, y.wrapping_sub(1)),
        ];
        candidates.into_iter().filter(move |&(cx, cy)| {
            cx < self.width && cy < self.height && !self.is_blocked((cx, cy))
        })
    }

    /// The Manhattan distance to the goal: admissible and consistent here.
    pub fn manhattan(&self, (x, y): Cell) -> u32 {
        x.abs_diff(self.goal.0) + y.abs_diff(self.goal.1)
    }

    /// The Manhattan heuristic as a search-core heuristic.
    pub fn heuristic(&self) -> impl Heuristic<Cell, u32> + '_ {
        Admissible(move |cell: &Cell| self.manhattan(*cell))
    }

    fn reaches_goal(&self) -> bool {
        let mut seen = vec![false; self.blocked.len()];
        let mut stack = vec![(0, 0)];
        seen[0] = true;
        while let Some(cell) = stack.pop() {
            if cell == self.goal {
                return true;
            }
            for next in self.neighbours(cell) {
                let i = (next.1 * self.width + next.0) as usize;
                if !seen[i] {
                    seen[i] = true;
                    stack.push(next);
                }
            }
        }
        false
    }
}

impl SearchSpace for Grid {
    type Node = Cell;
    type Action = ();
    type Cost = u32;

    fn is_goal(&self, cell: &Cell) -> bool {
        *cell == self.goal
    }

    #[inline]
    fn successors<F: FnMut((), Cell, u32)>(&self, cell: &Cell, mut emit: F) {
        for next in self.neighbours(*cell) {
            emit((), next, 1);
        }
    }

    /// Cells are numbered row by row, so the engine's node table is a flat
    /// array in which neighbouring cells sit close together.
    fn node_numbers(&self) -> Option<u64> {
        Some(u64::from(self.width) * u64::from(self.height))
    }

    #[inline]
    fn node_number(&self, &(x, y): &Cell) -> u64 {
        u64::from(y) * u64::from(self.width) + u64::from(x)
    }
}

/// A grid searched without its cell numbering: the engine hashes the cells,
/// as it does for any space without one. The grid bench runs both to show
/// what the numbering buys.
///
/// ```
/// use benches::grid::{Grid, Hashed};
/// use search_core::{bfs, SearchSpace};
/// let grid = Grid::random(30, 30, 0.2, 3);
/// assert_eq!(Hashed(&grid).node_numbers(), None);
/// let numbered = bfs(&grid, (0, 0)).unwrap();
/// let hashed = bfs(&Hashed(&grid), (0, 0)).unwrap();
/// assert_eq!(numbered.outcome, hashed.outcome);
/// assert_eq!(numbered.stats.expanded, hashed.stats.expanded);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Hashed<'g>(pub &'g Grid);

impl SearchSpace for Hashed<'_> {
    type Node = Cell;
    type Action = ();
    type Cost = u32;

    fn is_goal(&self, cell: &Cell) -> bool {
        self.0.is_goal(cell)
    }

    #[inline]
    fn successors<F: FnMut((), Cell, u32)>(&self, cell: &Cell, emit: F) {
        self.0.successors(cell, emit);
    }
}
