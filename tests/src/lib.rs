//! Shared fixtures for searchlab's cross-crate tests.
//!
//! - [`GridSpace`]: a 4-connected grid with unit costs, parsed from a string
//!   map or made by a seeded generator, with the [`Manhattan`] heuristic.
//! - [`GraphSpace`]: an explicit adjacency list with edge costs and a goal set.
//! - [`Recording`]: wraps a space and logs which nodes were expanded.
//! - [`replay`] and [`path_is_valid`]: check a returned solution edge by edge.
//! - [`resident`]: the process's resident set, for the memory-limit tests.
//! - [`random_task`]: random small STRIPS tasks for property tests.
//! - [`shuffle`]: PDDL task files with their `:init` facts, objects and
//!   actions in another order.
//! - [`reference`](mod@reference): plain textbook searches, written without search-core, that
//!   give the expected answers.
//!
//! ```
//! use search_core::astar;
//! use tests::{replay, GridSpace};
//!
//! let grid = GridSpace::parse(
//!     "S.#.
//!      ..#G
//!      ....",
//! );
//! let result = astar(&grid, grid.start(), grid.manhattan()).unwrap();
//! let plan = result.outcome.solution().unwrap();
//! assert_eq!(plan.cost, 6);
//! assert_eq!(replay(&grid, &grid.start(), plan), Ok(6));
//! ```

pub mod random_task;
pub mod shuffle;

/// The README's example, run as a doctest so it cannot rot.
#[doc = include_str!("../../README.md")]
pub mod readme {}

/// This crate's README, run as a doctest likewise.
#[doc = include_str!("../README.md")]
pub mod crate_readme {}

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};
use std::fmt::Debug;

use search_core::{Cost, Estimate, Heuristic, SearchSpace, Solution};

/// The process's resident set: its peak (`VmHWM`) and current size
/// (`VmRSS`), in bytes, from `/proc/self/status`; zeros where there is
/// none. The memory-limit tests measure a run by it, as the operating
/// system sees it.
pub fn resident() -> (usize, usize) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<usize>()
                    .ok()
            })
            .map_or(0, |kib| kib << 10)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

/// What `run` returns, and how far the resident set's peak rose above the
/// resident set before it, in bytes (0 where there is no `/proc`). The
/// peak restarts here (Linux); where that fails the peak so far counts
/// too, which only makes a check of the growth stricter.
pub fn peak_growth<T>(run: impl FnOnce() -> T) -> (T, usize) {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let (_, before) = resident();
    let value = run();
    let (peak, _) = resident();
    (value, peak.saturating_sub(before))
}

/// A grid cell, `(x, y)`, with `x` the column and `y` the row.
pub type Cell = (i32, i32);

/// A move between 4-connected grid cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// `y - 1`.
    Up,
    /// `y + 1`.
    Down,
    /// `x - 1`.
    Left,
    /// `x + 1`.
    Right,
}

impl Move {
    /// Every move, in the order [`GridSpace`] emits them.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// The change in `(x, y)`.
    pub fn delta(self) -> Cell {
        match self {
            Move::Up => (0, -1),
            Move::Down => (0, 1),
            Move::Left => (-1, 0),
            Move::Right => (1, 0),
        }
    }
}

/// A small deterministic random number generator, so that generated
/// fixtures are the same on every machine.
pub use benches::grid::SplitMix64;

/// The repository's root (the workspace directory).
pub fn repository_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The STRIPS benchmarks vendored in the repository, `benchmarks/pddl`.
pub fn pddl_benchmarks() -> std::path::PathBuf {
    repository_root().join("benchmarks/pddl")
}

/// The IPC 2023 numeric track, `benchmarks/pddl-numeric`.
pub fn pddl_numeric_benchmarks() -> std::path::PathBuf {
    repository_root().join("benchmarks/pddl-numeric")
}

/// The IPC benchmarks with action costs and ADL, `benchmarks/pddl-ipc`.
pub fn pddl_ipc_benchmarks() -> std::path::PathBuf {
    repository_root().join("benchmarks/pddl-ipc")
}

/// The domain and problem files of task `task` of IPC domain `domain`
/// under [`pddl_ipc_benchmarks`]: the task's own domain file
/// (`<task>-domain.pddl`) where it has one, else the domain's.
pub fn ipc_task_files(domain: &str, task: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = pddl_ipc_benchmarks().join(domain);
    let own = dir.join(format!("{task}-domain.pddl"));
    let domain_file = if own.exists() {
        own
    } else {
        dir.join("domain.pddl")
    };
    (domain_file, dir.join(format!("{task}.pddl")))
}

/// A 4-connected grid with blocked cells and unit move costs.
///
/// Moves are emitted in the order of [`Move::ALL`]; a move onto a blocked cell
/// or off the grid does not exist.
#[derive(Clone, Debug)]
pub struct GridSpace {
    width: i32,
    height: i32,
    blocked: Vec<bool>,
    start: Cell,
    goals: Vec<Cell>,
}

impl GridSpace {
    /// Parses a map: one line per row, `.` free, `#` blocked, `S` the start
    /// (one), `G` a goal (any number, possibly none). Leading and trailing
    /// whitespace on each line is ignored; blank lines are skipped.
    ///
    /// # Panics
    /// On an unknown character, rows of different lengths, or a missing or
    /// repeated `S` (fixtures are written by hand, so a typo should fail
    /// loudly).
    pub fn parse(map: &str) -> Self {
        let rows: Vec<&str> = map
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let width = rows.first().map_or(0, |r| r.chars().count());
        let mut blocked = Vec::new();
        let mut start = None;
        let mut goals = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            assert_eq!(row.chars().count(), width, "row {y} has another length");
            for (x, c) in row.chars().enumerate() {
                let cell = (to_i32(x), to_i32(y));
                match c {
                    '.' | '#' => {}
                    'S' => {
                        assert!(start.is_none(), "two starts");
                        start = Some(cell);
                    }
                    'G' => goals.push(cell),
                    other => panic!("unknown map character {other:?}"),
                }
                blocked.push(c == '#');
            }
        }
        Self {
            width: to_i32(width),
            height: to_i32(rows.len()),
            blocked,
            start: start.expect("the map has no start `S`"),
            goals,
        }
    }

    /// A `width` x `height` grid with each cell blocked with probability
    /// `blocked_per_mille / 1000`, from a seeded generator. The start is the
    /// top-left corner, the one goal the bottom-right corner; both are free.
    /// A path need not exist.
    pub fn random(width: i32, height: i32, blocked_per_mille: u64, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let cells = usize::try_from(width * height).unwrap_or(0);
        let per_mille = usize::try_from(blocked_per_mille).unwrap_or(usize::MAX);
        let mut blocked: Vec<bool> = (0..cells).map(|_| rng.below(1000) < per_mille).collect();
        let goal = (width - 1, height - 1);
        blocked[0] = false;
        if let Some(last) = blocked.last_mut() {
            *last = false;
        }
        Self {
            width,
            height,
            blocked,
            start: (0, 0),
            goals: vec![goal],
        }
    }

    /// The start cell.
    pub fn start(&self) -> Cell {
        self.start
    }

    /// The goal cells.
    pub fn goals(&self) -> &[Cell] {
        &self.goals
    }

    /// Whether `cell` is on the grid and not blocked.
    pub fn is_free(&self, (x, y): Cell) -> bool {
        (0..self.width).contains(&x)
            && (0..self.height).contains(&y)
            && !self.blocked[usize::try_from(y * self.width + x).unwrap_or(usize::MAX)]
    }

    /// The Manhattan distance to the nearest goal: admissible and consistent
    /// on this grid.
    pub fn manhattan(&self) -> Manhattan {
        Manhattan {
            goals: self.goals.clone(),
        }
    }
}

/// `C::zero()`, callable where `Zero` is not in scope (it is a supertrait of
/// [`Cost`], in scope only through a type parameter's bound).
fn zero<C: Cost>() -> C {
    C::zero()
}

fn checked_sum<C: Cost>(a: C, b: C) -> Option<C> {
    a.checked_add(&b)
}

fn to_i32(n: usize) -> i32 {
    i32::try_from(n).expect("fixture maps are small")
}

impl SearchSpace for GridSpace {
    type Node = Cell;
    type Action = Move;
    type Cost = u32;

    fn is_goal(&self, node: &Cell) -> bool {
        self.goals.contains(node)
    }

    fn successors<F: FnMut(Move, Cell, u32)>(&self, &(x, y): &Cell, mut emit: F) {
        for m in Move::ALL {
            let (dx, dy) = m.delta();
            let next = (x + dx, y + dy);
            if self.is_free(next) {
                emit(m, next, 1);
            }
        }
    }
}

/// The Manhattan distance to the nearest of some goal cells. Admissible and
/// consistent for 4-connected unit-cost grids.
#[derive(Clone, Debug)]
pub struct Manhattan {
    goals: Vec<Cell>,
}

impl Heuristic<Cell, u32> for Manhattan {
    fn estimate(&mut self, &(x, y): &Cell) -> Estimate<u32> {
        self.goals
            .iter()
            .map(|&(gx, gy)| x.abs_diff(gx) + y.abs_diff(gy))
            .min()
            .map_or(Estimate::DeadEnd, Estimate::Value)
    }

    fn is_admissible(&self) -> bool {
        true
    }

    fn is_consistent(&self) -> bool {
        true
    }
}

/// An explicit directed graph: nodes `0..n`, an adjacency list of
/// `(target, cost)` edges and a goal set.
///
/// The action of an edge is its position in its source's adjacency list, so
/// parallel edges with different costs stay distinguishable.
#[derive(Clone, Debug)]
pub struct GraphSpace<C> {
    /// `edges[n]` lists the edges out of `n` as `(target, cost)`.
    pub edges: Vec<Vec<(usize, C)>>,
    /// `goals[n]` says whether `n` is a goal.
    pub goals: Vec<bool>,
}

impl<C: Cost> GraphSpace<C> {
    /// A graph with `edges` (as `(from, to, cost)`) on `nodes` nodes and the
    /// given goals.
    ///
    /// # Panics
    /// If an edge or goal names a node `>= nodes`.
    pub fn new(nodes: usize, edges: &[(usize, usize, C)], goals: &[usize]) -> Self {
        let mut adjacency = vec![Vec::new(); nodes];
        for &(from, to, cost) in edges {
            assert!(to < nodes, "edge target {to} out of range");
            adjacency[from].push((to, cost));
        }
        let mut goal_set = vec![false; nodes];
        for &g in goals {
            goal_set[g] = true;
        }
        Self {
            edges: adjacency,
            goals: goal_set,
        }
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.edges.len()
    }

    /// Whether the graph has no nodes.
    pub fn is_empty(&self) -> bool {
        self.edges.is_empty()
    }

    /// The cheapest cost from each node to any goal (`None` where no goal is
    /// reachable), by Dijkstra's algorithm on the reversed graph.
    pub fn distances_to_goals(&self) -> Vec<Option<C>> {
        let mut reverse = vec![Vec::new(); self.len()];
        for (from, out) in self.edges.iter().enumerate() {
            for &(to, cost) in out {
                reverse[to].push((from, cost));
            }
        }
        let mut dist: Vec<Option<C>> = vec![None; self.len()];
        let mut heap = BinaryHeap::new();
        for (n, &goal) in self.goals.iter().enumerate() {
            if goal {
                dist[n] = Some(C::zero());
                heap.push(Reverse((C::zero(), n)));
            }
        }
        while let Some(Reverse((d, n))) = heap.pop() {
            if dist[n].is_some_and(|best| best < d) {
                continue;
            }
            for &(from, cost) in &reverse[n] {
                let nd = d + cost;
                if dist[from].is_none_or(|best| nd < best) {
                    dist[from] = Some(nd);
                    heap.push(Reverse((nd, from)));
                }
            }
        }
        dist
    }
}

impl<C: Cost> SearchSpace for GraphSpace<C> {
    type Node = usize;
    type Action = usize;
    type Cost = C;

    fn is_goal(&self, node: &usize) -> bool {
        self.goals[*node]
    }

    fn successors<F: FnMut(usize, usize, C)>(&self, node: &usize, mut emit: F) {
        for (i, &(to, cost)) in self.edges[*node].iter().enumerate() {
            emit(i, to, cost);
        }
    }
}

/// A graph searched through its node numbers: the engine keeps a flat node
/// table instead of hashing (see [`SearchSpace::node_numbers`]). Searches
/// must come out exactly as on the bare graph.
#[derive(Clone, Copy, Debug)]
pub struct Numbered<'g, C>(pub &'g GraphSpace<C>);

impl<C: Cost> SearchSpace for Numbered<'_, C> {
    type Node = usize;
    type Action = usize;
    type Cost = C;

    fn is_goal(&self, node: &usize) -> bool {
        self.0.is_goal(node)
    }

    fn successors<F: FnMut(usize, usize, C)>(&self, node: &usize, emit: F) {
        self.0.successors(node, emit);
    }

    fn node_numbers(&self) -> Option<u64> {
        u64::try_from(self.0.len()).ok()
    }

    fn node_number(&self, node: &usize) -> u64 {
        u64::try_from(*node).unwrap_or(u64::MAX)
    }
}

/// Wraps a space and logs each node whose successors the engine asked for,
/// in order: the expansions, seen from outside the engine.
#[derive(Debug)]
pub struct Recording<S: SearchSpace> {
    /// The wrapped space.
    pub inner: S,
    /// The nodes expanded so far.
    pub expanded: RefCell<Vec<S::Node>>,
}

impl<S: SearchSpace> Recording<S> {
    /// Wraps `inner` with an empty log.
    pub fn new(inner: S) -> Self {
        Self {
            inner,
            expanded: RefCell::new(Vec::new()),
        }
    }
}

impl<S: SearchSpace> SearchSpace for Recording<S> {
    type Node = S::Node;
    type Action = S::Action;
    type Cost = S::Cost;

    fn is_goal(&self, node: &S::Node) -> bool {
        self.inner.is_goal(node)
    }

    fn successors<F: FnMut(S::Action, S::Node, S::Cost)>(&self, node: &S::Node, emit: F) {
        self.expanded.borrow_mut().push(node.clone());
        self.inner.successors(node, emit);
    }
}

/// Replays `solution` in `space` from `start`, edge by edge, and returns the
/// path cost it adds up to.
///
/// Checks that the path starts at `start`, that each `(action, node)` pair is
/// a successor the space really emits from the previous node (the first
/// emitted match gives the edge cost; the fixtures label edges uniquely), that
/// the last node is a goal and that the edge costs sum to `solution.cost`.
///
/// # Errors
/// A message saying which check failed and where.
pub fn replay<S>(
    space: &S,
    start: &S::Node,
    solution: &Solution<S::Node, S::Action, S::Cost>,
) -> Result<S::Cost, String>
where
    S: SearchSpace,
    S::Action: PartialEq + Debug,
{
    let nodes = &solution.nodes;
    if nodes.len() != solution.actions.len() + 1 {
        return Err(format!(
            "{} nodes but {} actions",
            nodes.len(),
            solution.actions.len()
        ));
    }
    if nodes[0] != *start {
        return Err(format!("path starts at {:?}, not at {start:?}", nodes[0]));
    }
    let mut total = zero::<S::Cost>();
    for (i, action) in solution.actions.iter().enumerate() {
        let (from, to) = (&nodes[i], &nodes[i + 1]);
        let mut edge = None;
        space.successors(from, |a, n, c| {
            if edge.is_none() && a == *action && n == *to {
                edge = Some(c);
            }
        });
        let cost = edge.ok_or_else(|| {
            format!("step {i}: {to:?} by {action:?} is not a successor of {from:?}")
        })?;
        total = checked_sum(total, cost).ok_or_else(|| format!("step {i}: path cost overflows"))?;
    }
    let last = &nodes[nodes.len() - 1];
    if !space.is_goal(last) {
        return Err(format!("path ends at {last:?}, which is not a goal"));
    }
    if total != solution.cost {
        return Err(format!(
            "edges sum to {total:?}, solution says {:?}",
            solution.cost
        ));
    }
    Ok(total)
}

/// Whether [`replay`] accepts `solution`.
pub fn path_is_valid<S>(
    space: &S,
    start: &S::Node,
    solution: &Solution<S::Node, S::Action, S::Cost>,
) -> bool
where
    S: SearchSpace,
    S::Action: PartialEq + Debug,
{
    replay(space, start, solution).is_ok()
}

/// Textbook searches written without search-core, for expected answers.
pub mod reference {
    use super::{zero, BinaryHeap, HashMap, HashSet, Reverse, SearchSpace, VecDeque};

    /// The cheapest cost from `start` to any goal (Dijkstra), or `None` if no
    /// goal is reachable.
    pub fn cheapest_cost<S: SearchSpace>(space: &S, start: &S::Node) -> Option<S::Cost>
    where
        S::Node: Ord,
    {
        let mut best: HashMap<S::Node, S::Cost> = HashMap::new();
        let mut heap = BinaryHeap::new();
        best.insert(start.clone(), zero::<S::Cost>());
        heap.push(Reverse((zero::<S::Cost>(), start.clone())));
        while let Some(Reverse((g, node))) = heap.pop() {
            if best.get(&node).is_some_and(|&b| b < g) {
                continue;
            }
            if space.is_goal(&node) {
                return Some(g);
            }
            space.successors(&node, |_, next, cost| {
                let ng = g + cost;
                if best.get(&next).is_none_or(|&b| ng < b) {
                    best.insert(next.clone(), ng);
                    heap.push(Reverse((ng, next)));
                }
            });
        }
        None
    }

    /// The fewest edges from `start` to any goal (breadth-first), or `None`
    /// if no goal is reachable.
    pub fn fewest_edges<S: SearchSpace>(space: &S, start: &S::Node) -> Option<usize> {
        let mut depth: HashMap<S::Node, usize> = HashMap::new();
        let mut queue = VecDeque::new();
        depth.insert(start.clone(), 0);
        queue.push_back(start.clone());
        while let Some(node) = queue.pop_front() {
            let d = depth[&node];
            if space.is_goal(&node) {
                return Some(d);
            }
            space.successors(&node, |_, next, _| {
                if !depth.contains_key(&next) {
                    depth.insert(next.clone(), d + 1);
                    queue.push_back(next);
                }
            });
        }
        None
    }

    /// The reachable part of the space from `start` (start included): the
    /// number of nodes and the number of edges out of them.
    pub fn reachable<S: SearchSpace>(space: &S, start: &S::Node) -> (usize, usize) {
        let mut seen: HashSet<S::Node> = HashSet::new();
        let mut queue = VecDeque::new();
        let mut edges = 0;
        seen.insert(start.clone());
        queue.push_back(start.clone());
        while let Some(node) = queue.pop_front() {
            space.successors(&node, |_, next, _| {
                edges += 1;
                if seen.insert(next.clone()) {
                    queue.push_back(next);
                }
            });
        }
        (seen.len(), edges)
    }
}

/// Plans with `config`, validates the plan by replaying it and checks that
/// the replayed cost is the reported one; returns the plan's cost and length.
///
/// # Panics
/// When planning fails, finds no plan, or the plan does not replay.
pub fn plan_and_validate<D: planners::PlanningDomain>(
    domain: &D,
    start: &D::State,
    goal: &D::Goal,
    config: planners::PlannerConfig,
) -> (u64, usize) {
    let what = config.name();
    let report = planners::Planner::new(config)
        .plan(domain, start, goal)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let plan = report
        .plan()
        .unwrap_or_else(|| panic!("{what}: {:?}", report.outcome));
    let cost = planners::validate(domain, start, goal, &plan.actions)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(
        cost, plan.cost,
        "{what}: the reported cost differs from the replayed one"
    );
    (plan.cost, plan.len())
}

/// The built-in heuristic `name`, for tests.
///
/// # Panics
/// On a name that is not a built-in heuristic's.
pub fn heuristic(name: &str) -> planners::heuristics::NamedHeuristic {
    planners::heuristics::heuristic(name).unwrap_or_else(|e| panic!("{e}"))
}

/// A planner configuration with the default limits.
pub fn planner_config(
    direction: planners::Direction,
    algorithm: search_core::Algorithm,
    heuristic: planners::heuristics::NamedHeuristic,
) -> planners::PlannerConfig {
    planners::PlannerConfig {
        direction,
        algorithm,
        heuristic,
        ..planners::PlannerConfig::default()
    }
}

#[cfg(test)]
mod unit {
    use super::*;
    use search_core::FloatCost;

    #[test]
    fn grid_parses_and_references_agree() {
        let grid = GridSpace::parse(
            "S..
             ##.
             G..",
        );
        assert_eq!(grid.start(), (0, 0));
        assert_eq!(grid.goals(), &[(0, 2)]);
        assert!(!grid.is_free((0, 1)));
        assert!(!grid.is_free((3, 0)));
        assert_eq!(reference::cheapest_cost(&grid, &grid.start()), Some(6));
        assert_eq!(reference::fewest_edges(&grid, &grid.start()), Some(6));
        assert_eq!(reference::reachable(&grid, &grid.start()).0, 7);
    }

    #[test]
    fn random_grids_are_deterministic() {
        let a = GridSpace::random(20, 10, 300, 7);
        let b = GridSpace::random(20, 10, 300, 7);
        assert_eq!(a.blocked, b.blocked);
        assert!(a.is_free((0, 0)) && a.is_free((19, 9)));
        assert_ne!(a.blocked, GridSpace::random(20, 10, 300, 8).blocked);
    }

    #[test]
    fn reverse_dijkstra_gives_distances_to_goal() {
        let g = GraphSpace::new(4, &[(0, 1, 2), (1, 3, 2), (0, 3, 5), (2, 0, 1)], &[3]);
        assert_eq!(
            g.distances_to_goals(),
            vec![Some(4), Some(2), Some(5), Some(0)]
        );
        let f = GraphSpace::new(
            3,
            &[(0, 1, FloatCost::new(0.5)), (1, 2, FloatCost::new(0.25))],
            &[2],
        );
        assert_eq!(f.distances_to_goals()[0], Some(FloatCost::new(0.75)));
    }

    #[test]
    fn replay_rejects_bad_paths() {
        let g = GraphSpace::new(3, &[(0, 1, 2), (1, 2, 3), (0, 2, 9)], &[2]);
        let good = Solution {
            actions: vec![0, 0],
            nodes: vec![0, 1, 2],
            cost: 5,
        };
        assert_eq!(replay(&g, &0, &good), Ok(5));
        let wrong_cost = Solution {
            cost: 4,
            ..good.clone()
        };
        assert!(!path_is_valid(&g, &0, &wrong_cost));
        let wrong_action = Solution {
            actions: vec![1, 0],
            ..good.clone()
        };
        assert!(!path_is_valid(&g, &0, &wrong_action));
        let not_goal = Solution {
            actions: vec![0],
            nodes: vec![0, 1],
            cost: 2,
        };
        assert!(!path_is_valid(&g, &0, &not_goal));
        assert!(!path_is_valid(&g, &1, &good));
    }
}
