//! Shared expected-result tables for search-core: hand-made grids and graphs
//! with known optimal costs and fewest-edge counts, run through every
//! algorithm; then errors, limits, stepping, workspace reuse, determinism,
//! reopening, dead ends and trivial starts.

use num_traits::Zero;
use std::fmt::Debug;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use search_core::{
    astar, bfs, dijkstra, greedy, weighted_astar, Admissible, Algorithm, Blind, Cost, Estimate,
    FloatCost, Heuristic, Limit, Outcome, ResultOf, Search, SearchError, SearchLimits,
    SearchResult, SearchSpace, Statistics, Status, Workspace,
};
use tests::{reference, replay, GraphSpace, GridSpace, Numbered, Recording};

/// Weights tried for weighted A*.
const WEIGHTS: [f64; 5] = [1.0, 1.5, 2.0, 3.0, 10.0];

/// Every algorithm, weighted A* with one weight.
const ALGORITHMS: [Algorithm; 5] = [
    Algorithm::AStar,
    Algorithm::WeightedAStar { weight: 2.0 },
    Algorithm::GreedyBestFirst,
    Algorithm::Dijkstra,
    Algorithm::BreadthFirst,
];

fn run<S, H>(
    space: &S,
    start: S::Node,
    algorithm: Algorithm,
    heuristic: H,
    limits: SearchLimits<S::Cost>,
) -> Result<ResultOf<S>, SearchError>
where
    S: SearchSpace,
    H: Heuristic<S::Node, S::Cost>,
{
    Search::new(space, start)
        .algorithm(algorithm)
        .heuristic(heuristic)
        .limits(limits)
        .run()
}

fn solved<S>(result: &ResultOf<S>, what: &str) -> S::Cost
where
    S: SearchSpace,
{
    match &result.outcome {
        Outcome::Solved(plan) => plan.cost,
        other => panic!("{what}: expected a solution, got {}", other.name()),
    }
}

/// Checks that `result` is solved with a path that replays edge by edge, and
/// returns its cost and edge count.
fn valid_plan<S>(space: &S, start: &S::Node, result: &ResultOf<S>, what: &str) -> (S::Cost, usize)
where
    S: SearchSpace,
    S::Action: PartialEq + Debug,
{
    let cost = solved::<S>(result, what);
    let plan = result.outcome.solution().expect("solved");
    if let Err(why) = replay(space, start, plan) {
        panic!("{what}: invalid path: {why}");
    }
    (cost, plan.actions.len())
}

fn within_weight<C: Cost>(cost: C, optimal: C, weight: f64) -> bool {
    cost.to_f64() <= weight * optimal.to_f64() * (1.0 + 1e-12)
}

// ---------------------------------------------------------------------------
// Tables

struct GridCase {
    name: &'static str,
    map: &'static str,
    /// Optimal cost = fewest edges (unit costs); `None` if unsolvable.
    optimal: Option<u32>,
}

const GRIDS: &[GridCase] = &[
    GridCase {
        name: "open 5x5",
        map: "S....
              .....
              .....
              .....
              ....G",
        optimal: Some(8),
    },
    GridCase {
        name: "wall with a gap at the bottom",
        map: "S...#....
              ....#....
              ....#....
              ....#...G
              .........",
        optimal: Some(13),
    },
    GridCase {
        name: "serpentine",
        map: "S#...#...
              .#.#.#.#.
              .#.#.#.#.
              .#.#.#.#.
              ...#...#G",
        optimal: Some(28),
    },
    GridCase {
        name: "two goals, the nearer behind a wall",
        map: "G#.......
              .#.##.##.
              .#.#...#.
              ...#.S.#G",
        optimal: Some(9),
    },
    GridCase {
        name: "corridor",
        map: "S.........G",
        optimal: Some(10),
    },
    GridCase {
        name: "goal walled off",
        map: "S..#G
              ...##
              .....",
        optimal: None,
    },
    GridCase {
        name: "no goal at all",
        map: "S..
              .#.
              ...",
        optimal: None,
    },
];

fn random_grids() -> Vec<(String, GridSpace)> {
    // Seeds whose grids the reference solves; optima checked against it.
    [(4_u64, 250_u64), (6, 350), (10, 350), (1, 250), (2, 350)]
        .iter()
        .map(|&(seed, blocked)| {
            (
                format!("random 30x20, {blocked}/1000 blocked, seed {seed}"),
                GridSpace::random(30, 20, blocked, seed),
            )
        })
        .collect()
}

struct GraphCase<C> {
    name: &'static str,
    graph: GraphSpace<C>,
    start: usize,
    optimal: Option<C>,
    fewest_edges: Option<usize>,
}

fn integer_graphs() -> Vec<GraphCase<u32>> {
    vec![
        GraphCase {
            name: "diamond",
            graph: GraphSpace::new(4, &[(0, 1, 2), (0, 2, 1), (1, 3, 2), (2, 3, 5)], &[3]),
            start: 0,
            optimal: Some(4),
            fewest_edges: Some(2),
        },
        GraphCase {
            name: "long cheap path or one dear edge",
            graph: GraphSpace::new(
                5,
                &[(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 4, 1), (0, 4, 10)],
                &[4],
            ),
            start: 0,
            optimal: Some(4),
            fewest_edges: Some(1),
        },
        GraphCase {
            name: "two goals",
            graph: GraphSpace::new(5, &[(0, 1, 5), (0, 2, 1), (2, 3, 1), (3, 4, 1)], &[1, 4]),
            start: 0,
            optimal: Some(3),
            fewest_edges: Some(1),
        },
        GraphCase {
            name: "zero-cost edges",
            graph: GraphSpace::new(
                4,
                &[(0, 1, 0), (1, 2, 0), (2, 3, 3), (0, 3, 4), (1, 3, 5)],
                &[3],
            ),
            start: 0,
            optimal: Some(3),
            fewest_edges: Some(1),
        },
        GraphCase {
            name: "cycles",
            graph: GraphSpace::new(
                4,
                &[
                    (0, 1, 1),
                    (1, 0, 1),
                    (1, 2, 4),
                    (2, 1, 1),
                    (0, 2, 7),
                    (2, 3, 1),
                    (3, 0, 1),
                ],
                &[3],
            ),
            start: 0,
            optimal: Some(6),
            fewest_edges: Some(2),
        },
        GraphCase {
            name: "parallel edges",
            graph: GraphSpace::new(3, &[(0, 1, 5), (0, 1, 2), (1, 2, 1), (1, 2, 9)], &[2]),
            start: 0,
            optimal: Some(3),
            fewest_edges: Some(2),
        },
        GraphCase {
            name: "start inside a cycle, goal upstream",
            graph: GraphSpace::new(
                6,
                &[
                    (2, 3, 2),
                    (3, 4, 2),
                    (4, 2, 2),
                    (4, 5, 1),
                    (5, 0, 3),
                    (3, 1, 9),
                    (1, 0, 1),
                ],
                &[0],
            ),
            start: 2,
            optimal: Some(8),
            fewest_edges: Some(3),
        },
        GraphCase {
            name: "unreachable goal",
            graph: GraphSpace::new(5, &[(0, 1, 1), (1, 2, 1), (2, 0, 1), (3, 4, 1)], &[4]),
            start: 0,
            optimal: None,
            fewest_edges: None,
        },
    ]
}

fn float_graphs() -> Vec<GraphCase<FloatCost>> {
    let f = FloatCost::new;
    vec![
        GraphCase {
            name: "float diamond",
            graph: GraphSpace::new(
                4,
                &[
                    (0, 1, f(0.5)),
                    (0, 2, f(0.25)),
                    (1, 3, f(0.5)),
                    (2, 3, f(1.5)),
                ],
                &[3],
            ),
            start: 0,
            optimal: Some(f(1.0)),
            fewest_edges: Some(2),
        },
        GraphCase {
            name: "float long cheap path",
            graph: GraphSpace::new(
                4,
                &[
                    (0, 1, f(0.125)),
                    (1, 2, f(0.125)),
                    (2, 3, f(0.25)),
                    (0, 3, f(0.75)),
                    (0, 2, f(-0.0)),
                ],
                &[3],
            ),
            start: 0,
            optimal: Some(f(0.25)),
            fewest_edges: Some(1),
        },
        GraphCase {
            name: "float unreachable",
            graph: GraphSpace::new(3, &[(0, 1, f(1.0)), (1, 0, f(2.5))], &[2]),
            start: 0,
            optimal: None,
            fewest_edges: None,
        },
    ]
}

// ---------------------------------------------------------------------------
// Table runs

/// Runs one solvable or unsolvable problem through every algorithm with the
/// given admissible heuristics and checks the expected results.
fn check_problem<S, H>(
    name: &str,
    space: &S,
    start: &S::Node,
    optimal: Option<S::Cost>,
    fewest_edges: Option<usize>,
    unit_costs: bool,
    heuristics: &[(&str, H)],
) where
    S: SearchSpace,
    S::Node: Ord,
    S::Action: PartialEq + Debug,
    H: Heuristic<S::Node, S::Cost> + Clone,
{
    // The tables themselves must match the independent reference.
    assert_eq!(
        reference::cheapest_cost(space, start),
        optimal,
        "{name}: table optimum"
    );
    assert_eq!(
        reference::fewest_edges(space, start),
        fewest_edges,
        "{name}: table edge count"
    );
    let (reachable, edges) = reference::reachable(space, start);

    let dijkstra_result = dijkstra(space, start.clone()).unwrap();
    let bfs_result = bfs(space, start.clone()).unwrap();
    let Some(optimal) = optimal else {
        check_exhausted(name, "dijkstra", &dijkstra_result, reachable, edges);
        check_exhausted(name, "bfs", &bfs_result, reachable, edges);
        for (h_name, h) in heuristics {
            let what = format!("{name}, {h_name}");
            let r = astar(space, start.clone(), h.clone()).unwrap();
            check_exhausted(&what, "astar", &r, reachable, edges);
            let r = greedy(space, start.clone(), h.clone()).unwrap();
            check_exhausted(&what, "greedy", &r, reachable, edges);
            for w in WEIGHTS {
                let r = weighted_astar(space, start.clone(), h.clone(), w).unwrap();
                check_exhausted(&format!("{what}, w {w}"), "weighted", &r, reachable, edges);
            }
        }
        return;
    };
    let fewest = fewest_edges.expect("solvable problems have an edge count");

    let (cost, _) = valid_plan(space, start, &dijkstra_result, &format!("{name}: dijkstra"));
    assert_eq!(cost, optimal, "{name}: dijkstra cost");
    assert_eq!(
        dijkstra_result.stats.reopened, 0,
        "{name}: dijkstra reopened"
    );

    let (cost, length) = valid_plan(space, start, &bfs_result, &format!("{name}: bfs"));
    assert_eq!(length, fewest, "{name}: bfs edges");
    assert!(cost >= optimal, "{name}: bfs beat the optimum");
    if unit_costs {
        assert_eq!(cost, optimal, "{name}: bfs cost with unit costs");
    }

    for (h_name, h) in heuristics {
        let what = format!("{name}, {h_name}");
        let r = astar(space, start.clone(), h.clone()).unwrap();
        let (cost, _) = valid_plan(space, start, &r, &format!("{what}: astar"));
        assert_eq!(cost, optimal, "{what}: astar cost");

        for w in WEIGHTS {
            let r = weighted_astar(space, start.clone(), h.clone(), w).unwrap();
            let (cost, _) = valid_plan(space, start, &r, &format!("{what}: wA* {w}"));
            assert!(
                within_weight(cost, optimal, w),
                "{what}: weighted A* w {w} cost {cost} above {w} x {optimal}"
            );
            if w.total_cmp(&1.0).is_eq() {
                assert_eq!(cost, optimal, "{what}: weighted A* with w 1 is A*");
            }
        }

        let r = greedy(space, start.clone(), h.clone()).unwrap();
        let (cost, _) = valid_plan(space, start, &r, &format!("{what}: greedy"));
        assert!(cost >= optimal, "{what}: greedy beat the optimum");
    }
}

/// An exhausted search saw everything reachable, each node expanded once
/// (plus reopenings), and its counters follow Fast Downward's definitions.
fn check_exhausted<N: PartialEq + Debug, A: PartialEq + Debug, C: PartialEq + Debug>(
    problem: &str,
    algorithm: &str,
    result: &SearchResult<N, A, C>,
    reachable: usize,
    edges: usize,
) {
    let s = &result.stats;
    let what = format!("{problem}: {algorithm}");
    assert_eq!(result.outcome, Outcome::Exhausted, "{what}");
    if s.dead_ends > 0 {
        // The heuristic cut parts off; those nodes are stored, not expanded.
        assert!(
            s.expanded - s.reopened < reachable as u64,
            "{what}: expanded"
        );
        assert!(s.stored <= reachable, "{what}: stored");
        return;
    }
    assert_eq!(
        s.expanded - s.reopened,
        reachable as u64,
        "{what}: expanded"
    );
    if matches!(algorithm, "dijkstra" | "bfs" | "greedy") {
        assert_eq!(s.reopened, 0, "{what}: reopened");
    }
    assert_eq!(s.stored, reachable, "{what}: stored");
    assert_eq!(s.evaluated, reachable as u64, "{what}: evaluated");
    // Reopened nodes generate their successors again.
    if s.reopened == 0 {
        assert_eq!(s.generated, 1 + edges as u64, "{what}: generated");
    }
    assert_eq!(
        s.duplicates,
        s.generated - reachable as u64,
        "{what}: duplicates"
    );
}

fn graph_heuristics<C: Cost>(
    graph: &GraphSpace<C>,
    scale_down: fn(C) -> C,
) -> Vec<(&'static str, Admissible<Table<C>>)> {
    let exact: Vec<Estimate<C>> = graph
        .distances_to_goals()
        .into_iter()
        .map(|d| d.map_or(Estimate::DeadEnd, Estimate::Value))
        .collect();
    let zero = Estimate::Value(C::zero());
    let shrunk = exact
        .iter()
        .map(|e| match e {
            Estimate::Value(v) => Estimate::Value(scale_down(*v)),
            Estimate::DeadEnd => Estimate::DeadEnd,
        })
        .collect();
    // Exact on even nodes, zero on odd ones: admissible, not consistent.
    let patchy = exact
        .iter()
        .enumerate()
        .map(|(i, e)| if i % 2 == 0 { *e } else { zero })
        .collect();
    vec![
        ("blind", Admissible(Table(vec![zero; graph.len()]))),
        ("exact", Admissible(Table(exact))),
        ("shrunk", Admissible(Table(shrunk))),
        ("patchy", Admissible(Table(patchy))),
    ]
}

/// A heuristic given as a table indexed by node.
#[derive(Clone, Debug)]
struct Table<C>(Vec<Estimate<C>>);

impl<C: Copy> Heuristic<usize, C> for Table<C> {
    fn estimate(&mut self, node: &usize) -> Estimate<C> {
        self.0[*node]
    }
}

#[test]
fn grid_table() {
    for case in GRIDS {
        let grid = GridSpace::parse(case.map);
        let heuristics = [("manhattan", grid.manhattan())];
        let fewest = case.optimal.map(|c| c as usize);
        check_problem(
            case.name,
            &grid,
            &grid.start(),
            case.optimal,
            fewest,
            true,
            &heuristics,
        );
        // The blind heuristic too.
        check_problem(
            case.name,
            &grid,
            &grid.start(),
            case.optimal,
            fewest,
            true,
            &[("blind", Blind)],
        );
    }
}

#[test]
fn random_grid_table() {
    let expected = [Some(52_u32), Some(56), Some(60), None, Some(50)];
    for ((name, grid), optimal) in random_grids().into_iter().zip(expected) {
        let heuristics = [("manhattan", grid.manhattan())];
        let fewest = optimal.map(|c| c as usize);
        check_problem(
            &name,
            &grid,
            &grid.start(),
            optimal,
            fewest,
            true,
            &heuristics,
        );
    }
}

#[test]
fn graph_table() {
    for case in integer_graphs() {
        let heuristics = graph_heuristics(&case.graph, |c| c / 2);
        check_problem(
            case.name,
            &case.graph,
            &case.start,
            case.optimal,
            case.fewest_edges,
            false,
            &heuristics,
        );
    }
}

#[test]
fn float_graph_table() {
    for case in float_graphs() {
        let heuristics = graph_heuristics(&case.graph, |c| FloatCost::new(c.get() * 0.5));
        check_problem(
            case.name,
            &case.graph,
            &case.start,
            case.optimal,
            case.fewest_edges,
            false,
            &heuristics,
        );
    }
}

#[test]
fn all_algorithms_agree_through_the_search_api() {
    // Unit-cost grids: every optimal algorithm reports the same cost and BFS
    // agrees with them, whether run by the free functions or by `Search`.
    for case in GRIDS.iter().filter(|c| c.optimal.is_some()) {
        let grid = GridSpace::parse(case.map);
        for algorithm in [
            Algorithm::AStar,
            Algorithm::WeightedAStar { weight: 1.0 },
            Algorithm::Dijkstra,
            Algorithm::BreadthFirst,
        ] {
            let r = run(
                &grid,
                grid.start(),
                algorithm,
                grid.manhattan(),
                SearchLimits::default(),
            )
            .unwrap();
            let what = format!("{}: {algorithm:?}", case.name);
            assert_eq!(
                Some(valid_plan(&grid, &grid.start(), &r, &what).0),
                case.optimal
            );
        }
    }
}

/// The successors of a trait-API space as a closure for the closure API.
fn successors_of<S: SearchSpace>(
    space: &S,
) -> impl FnMut(&S::Node) -> Vec<(S::Node, S::Cost)> + '_ {
    |node| {
        let mut out = Vec::new();
        space.successors(node, |_, next, cost| out.push((next, cost)));
        out
    }
}

/// The path of a trait-API result, as the closure API returns it.
fn path_of<S: SearchSpace>(result: &ResultOf<S>) -> Option<(Vec<S::Node>, S::Cost)> {
    result
        .outcome
        .solution()
        .map(|plan| (plan.nodes.clone(), plan.cost))
}

/// The cheapest edges along `path` in `space`, if every step is an edge.
fn walk<S: SearchSpace>(space: &S, path: &[S::Node]) -> Option<S::Cost> {
    let mut next = successors_of(space);
    path.windows(2).try_fold(S::Cost::zero(), |sum, pair| {
        let step = next(&pair[0])
            .into_iter()
            .filter(|(node, _)| *node == pair[1])
            .map(|(_, cost)| cost)
            .min()?;
        Some(sum + step)
    })
}

/// The closure functions agree with the trait API on every table's
/// problem: weighted A* and greedy run the same engine and return the same
/// path; A* and Dijkstra (a lean loop that breaks ties among equal `f` and
/// `g` the other way) the same cost on a valid path.
#[test]
fn the_closure_functions_agree_with_the_trait_api() {
    fn check<S>(name: &str, space: &S, start: &S::Node, h: impl Fn(&S::Node) -> S::Cost + Copy)
    where
        S: SearchSpace,
    {
        let goal = |n: &S::Node| space.is_goal(n);
        let trait_api = |algorithm| {
            path_of::<S>(&run(space, start.clone(), algorithm, h, SearchLimits::default()).unwrap())
        };
        let closures = [
            (
                Algorithm::AStar,
                search_core::astar_fn(start.clone(), successors_of(space), h, goal),
            ),
            (
                Algorithm::WeightedAStar { weight: 2.0 },
                search_core::weighted_astar_fn(start.clone(), successors_of(space), h, goal, 2.0),
            ),
            (
                Algorithm::GreedyBestFirst,
                search_core::greedy_fn(start.clone(), successors_of(space), h, goal),
            ),
            (
                Algorithm::Dijkstra,
                search_core::dijkstra_fn(start.clone(), successors_of(space), goal),
            ),
        ];
        for (algorithm, found) in closures {
            let (found, expected) = (found.unwrap(), trait_api(algorithm));
            if matches!(algorithm, Algorithm::AStar | Algorithm::Dijkstra) {
                let cost = found.as_ref().map(|(_, cost)| *cost);
                assert_eq!(cost, expected.map(|p| p.1), "{name}: {algorithm:?}");
                if let Some((path, cost)) = found {
                    assert_eq!(walk(space, &path), Some(cost), "{name}: {algorithm:?}");
                    assert_eq!(path.first(), Some(start), "{name}: {algorithm:?}");
                }
            } else {
                assert_eq!(found, expected, "{name}: {algorithm:?}");
            }
        }
        let mut next = successors_of(space);
        let bfs = search_core::bfs_fn(
            start.clone(),
            |n| next(n).into_iter().map(|(m, _)| m).collect::<Vec<_>>(),
            goal,
        );
        let expected = trait_api(Algorithm::BreadthFirst).map(|(path, _)| path.len());
        let bfs = bfs.unwrap();
        assert_eq!(bfs.as_ref().map(Vec::len), expected, "{name}: bfs");
        if let Some(path) = bfs {
            assert!(walk(space, &path).is_some(), "{name}: bfs");
        }
    }
    for case in GRIDS {
        let grid = GridSpace::parse(case.map);
        // The grid's own Manhattan heuristic, as a closure.
        let goals = grid.goals();
        let h = |&(x, y): &(i32, i32)| {
            let to = |&(gx, gy): &(i32, i32)| gx.abs_diff(x) + gy.abs_diff(y);
            goals.iter().map(to).min().unwrap_or(0)
        };
        check(case.name, &grid, &grid.start(), h);
    }
    for case in integer_graphs() {
        check(case.name, &case.graph, &case.start, |_| 0);
    }
    for case in float_graphs() {
        check(case.name, &case.graph, &case.start, |_| FloatCost::new(0.0));
    }
}

// ---------------------------------------------------------------------------
// Errors

/// A graph over named nodes, so that error messages can be checked for the
/// node's name. The action is the target's name.
struct Named<C> {
    edges: Vec<(&'static str, &'static str, C)>,
    goal: &'static str,
}

impl<C: Cost> SearchSpace for Named<C> {
    type Node = &'static str;
    type Action = &'static str;
    type Cost = C;

    fn is_goal(&self, node: &&'static str) -> bool {
        *node == self.goal
    }

    fn successors<F: FnMut(&'static str, &'static str, C)>(
        &self,
        node: &&'static str,
        mut emit: F,
    ) {
        for &(from, to, cost) in &self.edges {
            if from == *node {
                emit(to, to, cost);
            }
        }
    }
}

/// `start -> junction` at cost `first`, then `junction -> goal` at `second`.
fn named<C: Cost>(first: C, second: C) -> Named<C> {
    Named {
        edges: vec![("start", "junction", first), ("junction", "goal", second)],
        goal: "goal",
    }
}

fn expect_error<S>(space: &S, start: S::Node, algorithm: Algorithm) -> SearchError
where
    S: SearchSpace,
    S::Action: Debug,
{
    let mut search = Search::new(space, start).algorithm(algorithm);
    let first = search.run().expect_err("the search must fail");
    // Asking again gives the same error, and stepping reports it too.
    assert_eq!(search.run().expect_err("still failed"), first);
    assert_eq!(search.step(1).expect_err("still failed"), first);
    first
}

fn check_invalid_cost<C: Cost>(good: C, bad: C) {
    let space = named(good, bad);
    for algorithm in ALGORITHMS {
        let error = expect_error(&space, "start", algorithm);
        let what = format!("{algorithm:?} with cost {bad:?}");
        match &error {
            SearchError::InvalidCost { node, cost } => {
                assert_eq!(node, &format!("{:?}", "junction"), "{what}");
                assert_eq!(cost, &format!("{bad:?}"), "{what}");
            }
            other => panic!("{what}: expected InvalidCost, got {other:?}"),
        }
        let message = error.to_string();
        assert!(message.contains("\"junction\""), "{what}: {message}");
    }
}

#[test]
fn negative_integer_cost_is_an_error_naming_the_node() {
    check_invalid_cost(1, -3_i32);
    check_invalid_cost(0, i32::MIN);
}

#[test]
fn nan_and_negative_float_costs_are_errors_naming_the_node() {
    let one = FloatCost::new(1.0);
    check_invalid_cost(one, FloatCost::new(f64::NAN));
    check_invalid_cost(one, FloatCost::new(-0.5));
    check_invalid_cost(one, FloatCost::new(f64::NEG_INFINITY));
}

#[test]
fn invalid_cost_on_a_grid_names_the_cell() {
    /// A grid whose moves out of (2, 1) cost -1.
    struct Bad(GridSpace);
    impl SearchSpace for Bad {
        type Node = (i32, i32);
        type Action = tests::Move;
        type Cost = i64;
        fn is_goal(&self, n: &(i32, i32)) -> bool {
            self.0.is_goal(n)
        }
        fn successors<F: FnMut(tests::Move, (i32, i32), i64)>(&self, n: &(i32, i32), mut emit: F) {
            let cost = if *n == (2, 1) { -1 } else { 1 };
            self.0.successors(n, |m, c, _| emit(m, c, cost));
        }
    }
    let space = Bad(GridSpace::parse(
        "S....
         .....
         ....G",
    ));
    for algorithm in [Algorithm::Dijkstra, Algorithm::BreadthFirst] {
        let message = expect_error(&space, (0, 0), algorithm).to_string();
        assert!(message.contains("(2, 1)"), "{algorithm:?}: {message}");
    }
}

/// A chain 0 -> 1 -> ... -> 5 (the goal) with a numbering that breaks.
struct BadNumbers {
    numbers: u64,
    number: fn(usize) -> u64,
}

impl SearchSpace for BadNumbers {
    type Node = usize;
    type Action = ();
    type Cost = u32;
    fn is_goal(&self, n: &usize) -> bool {
        *n == 5
    }
    fn successors<F: FnMut((), usize, u32)>(&self, n: &usize, mut emit: F) {
        if *n < 5 {
            emit((), n + 1, 1);
        }
    }
    fn node_numbers(&self) -> Option<u64> {
        Some(self.numbers)
    }
    fn node_number(&self, n: &usize) -> u64 {
        (self.number)(*n)
    }
}

#[test]
fn a_node_number_out_of_range_is_an_error_naming_the_node() {
    let space = BadNumbers {
        numbers: 3,
        number: |n| n as u64,
    };
    for algorithm in ALGORITHMS {
        let error = expect_error(&space, 0, algorithm);
        assert_eq!(
            error,
            SearchError::NodeNumberOutOfRange {
                node: "3".into(),
                number: 3,
                numbers: 3
            },
            "{algorithm:?}"
        );
        assert!(error.to_string().contains("node 3 has number 3"), "{error}");
    }
    // The start too.
    let error = expect_error(&space, 4, Algorithm::AStar);
    assert!(matches!(
        error,
        SearchError::NodeNumberOutOfRange { number: 4, .. }
    ));
}

#[test]
fn two_nodes_with_one_number_are_an_error_naming_both() {
    let space = BadNumbers {
        numbers: 6,
        number: |n| (n / 2) as u64,
    };
    for algorithm in ALGORITHMS {
        let error = expect_error(&space, 0, algorithm);
        assert_eq!(
            error,
            SearchError::NodeNumberShared {
                node: "1".into(),
                other: "0".into(),
                number: 0
            },
            "{algorithm:?}"
        );
    }
    // A numbering with room for every node works, and so does one beyond
    // what the table serves (2^32), which the engine hashes instead.
    for numbers in [6, u64::MAX] {
        let space = BadNumbers {
            numbers,
            number: |n| n as u64,
        };
        let plan = bfs(&space, 0).unwrap().outcome.into_solution().unwrap();
        assert_eq!(plan.nodes, vec![0, 1, 2, 3, 4, 5]);
    }
}

#[test]
fn overflow_is_cost_overflow() {
    // 200 + 100 does not fit in a u8.
    let space = named(200_u8, 100);
    for algorithm in ALGORITHMS {
        match expect_error(&space, "start", algorithm) {
            SearchError::CostOverflow { node, .. } => assert_eq!(node, "\"junction\""),
            other => panic!("{algorithm:?}: expected CostOverflow, got {other:?}"),
        }
    }
    // f64::MAX + f64::MAX is not finite.
    let space = named(FloatCost::new(f64::MAX), FloatCost::new(f64::MAX));
    for algorithm in ALGORITHMS {
        let error = expect_error(&space, "start", algorithm);
        assert!(
            matches!(error, SearchError::CostOverflow { .. }),
            "{algorithm:?}: {error:?}"
        );
        assert!(error.to_string().contains("\"junction\""));
    }
}

#[test]
fn weight_below_one_is_invalid() {
    let grid = GridSpace::parse("S..G");
    for weight in [0.999, 0.5, 0.0, -1.0, f64::NAN, f64::INFINITY] {
        let error = weighted_astar(&grid, grid.start(), grid.manhattan(), weight)
            .expect_err("invalid weight");
        match error {
            SearchError::InvalidWeight { weight: w } => {
                assert!(w.total_cmp(&weight).is_eq(), "{w} != {weight}");
            }
            other => panic!("weight {weight}: expected InvalidWeight, got {other:?}"),
        }
        let mut search = Search::new(&grid, grid.start())
            .algorithm(Algorithm::WeightedAStar { weight })
            .heuristic(grid.manhattan());
        assert!(matches!(
            search.step(1),
            Err(SearchError::InvalidWeight { .. })
        ));
    }
    assert!(weighted_astar(&grid, grid.start(), grid.manhattan(), 1.0).is_ok());
}

// ---------------------------------------------------------------------------
// Limits

/// Solvable, optimum 52.
fn big_grid() -> GridSpace {
    GridSpace::random(30, 20, 250, 4)
}

/// The integer plane, without goals: a search on it only ends by a limit.
/// Counts expansions so another thread can tell the search is under way.
struct Plane {
    expansions: Arc<AtomicU64>,
}

impl SearchSpace for Plane {
    type Node = (i64, i64);
    type Action = u8;
    type Cost = u64;

    fn is_goal(&self, _: &(i64, i64)) -> bool {
        false
    }

    fn successors<F: FnMut(u8, (i64, i64), u64)>(&self, &(x, y): &(i64, i64), mut emit: F) {
        self.expansions.fetch_add(1, Ordering::Relaxed);
        emit(0, (x + 1, y), 1);
        emit(1, (x - 1, y), 1);
        emit(2, (x, y + 1), 1);
        emit(3, (x, y - 1), 1);
    }
}

fn plane() -> Plane {
    Plane {
        expansions: Arc::new(AtomicU64::new(0)),
    }
}

#[test]
fn max_expansions_is_exact() {
    let grid = big_grid();
    for algorithm in ALGORITHMS {
        let full = run(
            &grid,
            grid.start(),
            algorithm,
            grid.manhattan(),
            SearchLimits::default(),
        )
        .unwrap();
        let needed = full.stats.expanded;
        assert!(needed > 5, "{algorithm:?}");
        for max in [0, 1, 2, 5, needed - 1, needed, needed + 1] {
            let limits = SearchLimits {
                max_expansions: Some(max),
                ..SearchLimits::default()
            };
            let r = run(&grid, grid.start(), algorithm, grid.manhattan(), limits).unwrap();
            if max >= needed {
                assert!(full.outcome.solution().is_some());
                assert_eq!(r.outcome, full.outcome, "{algorithm:?} max {max}");
                assert_eq!(r.stats.counters(), full.stats.counters());
            } else {
                assert_eq!(
                    r.outcome,
                    Outcome::LimitReached {
                        limit: Limit::Expansions,
                        best: None,
                    },
                    "{algorithm:?} max {max}"
                );
                assert_eq!(r.stats.expanded, max, "{algorithm:?} max {max}");
                assert!(r.stats.generated > 0);
            }
        }
    }
}

#[test]
fn max_expansions_on_an_unsolvable_grid() {
    let (_, grid) = &random_grids()[3];
    for algorithm in ALGORITHMS {
        let full = run(
            grid,
            grid.start(),
            algorithm,
            Blind,
            SearchLimits::default(),
        )
        .unwrap();
        assert_eq!(full.outcome, Outcome::Exhausted);
        assert_eq!(
            full.stats.expanded, 414,
            "{algorithm:?}: every reachable cell"
        );
        for max in [0, 1, 413] {
            let limits = SearchLimits {
                max_expansions: Some(max),
                ..SearchLimits::default()
            };
            let r = run(grid, grid.start(), algorithm, Blind, limits).unwrap();
            assert_eq!(
                r.outcome,
                Outcome::LimitReached {
                    limit: Limit::Expansions,
                    best: None,
                }
            );
            assert_eq!(r.stats.expanded, max, "{algorithm:?}");
        }
        // One expansion to spare: the proof of exhaustion fits. (With no
        // spare at all the engine reports the limit before noticing that the
        // open list is empty, which is not wrong, only cautious.)
        let limits = SearchLimits {
            max_expansions: Some(415),
            ..SearchLimits::default()
        };
        let r = run(grid, grid.start(), algorithm, Blind, limits).unwrap();
        assert_eq!(r.outcome, Outcome::Exhausted, "{algorithm:?}");
        assert_eq!(r.stats.counters(), full.stats.counters());
    }
}

#[test]
fn max_stored_nodes_stops_within_one_expansion() {
    let grid = big_grid();
    for algorithm in ALGORITHMS {
        for max in [1, 2, 10, 100] {
            let limits = SearchLimits {
                max_stored_nodes: Some(max),
                ..SearchLimits::default()
            };
            let r = run(&grid, grid.start(), algorithm, grid.manhattan(), limits).unwrap();
            let what = format!("{algorithm:?} max {max}");
            assert_eq!(
                r.outcome,
                Outcome::LimitReached {
                    limit: Limit::StoredNodes,
                    best: None,
                },
                "{what}"
            );
            assert!(r.stats.stored >= max, "{what}: stored {}", r.stats.stored);
            // Four moves at most per expansion.
            assert!(
                r.stats.stored < max + 4,
                "{what}: stored {}",
                r.stats.stored
            );
            assert!(r.stats.expanded > 0 || max == 1, "{what}");
        }
    }
}

/// The memory estimate of a search that has stored only its start.
fn start_footprint<S: SearchSpace>(space: &S, start: S::Node, algorithm: Algorithm) -> usize {
    let mut search = Search::new(space, start).algorithm(algorithm);
    search.step(0).unwrap();
    search.statistics().estimated_bytes
}

#[test]
fn memory_estimate_never_exceeds_the_limit() {
    let grid = big_grid();
    // A star: the start has 500 successors, one of them leads to the goal.
    let mut edges: Vec<(usize, usize, u32)> = (1..=500).map(|i| (0, i, 1)).collect();
    edges.push((500, 501, 1));
    let star = GraphSpace::new(502, &edges, &[501]);
    let limits_to_try = [
        0,
        16,
        100,
        200,
        500,
        1_000,
        2_000,
        4_000,
        10_000,
        30_000,
        100_000,
        1 << 24,
    ];
    for algorithm in ALGORITHMS {
        let grid_full = run(
            &grid,
            grid.start(),
            algorithm,
            grid.manhattan(),
            SearchLimits::default(),
        )
        .unwrap();
        let star_full = run(&star, 0, algorithm, Blind, SearchLimits::default()).unwrap();
        let grid_floor = start_footprint(&grid, grid.start(), algorithm);
        let star_floor = start_footprint(&star, 0, algorithm);
        let numbered_floor = start_footprint(&Numbered(&star), 0, algorithm);
        for max in limits_to_try {
            let limits = SearchLimits {
                max_memory_bytes: Some(max),
                ..SearchLimits::default()
            };
            let r = run(
                &grid,
                grid.start(),
                algorithm,
                grid.manhattan(),
                limits.clone(),
            )
            .unwrap();
            check_memory(
                &r,
                max,
                grid_floor,
                &grid_full.outcome,
                &format!("grid, {algorithm:?}"),
            );
            let r = run(&star, 0, algorithm, Blind, limits.clone()).unwrap();
            check_memory(
                &r,
                max,
                star_floor,
                &star_full.outcome,
                &format!("star, {algorithm:?}"),
            );
            // Numbered, the star's node table arrives a page at a time.
            let r = run(&Numbered(&star), 0, algorithm, Blind, limits).unwrap();
            check_memory(
                &r,
                max,
                numbered_floor,
                &star_full.outcome,
                &format!("numbered star, {algorithm:?}"),
            );
        }
        // A generous limit changes nothing.
        let limits = SearchLimits {
            max_memory_bytes: Some(1 << 30),
            ..SearchLimits::default()
        };
        let r = run(&grid, grid.start(), algorithm, grid.manhattan(), limits).unwrap();
        assert_eq!(r.outcome, grid_full.outcome);
        assert_eq!(r.stats.counters(), grid_full.stats.counters());
    }
}

/// Below the start's own footprint the search can only refuse to expand;
/// from there on the estimate stays within the limit.
fn check_memory<N, A, C>(
    r: &SearchResult<N, A, C>,
    max: usize,
    floor: usize,
    full: &Outcome<N, A, C>,
    what: &str,
) where
    N: PartialEq + Debug,
    A: PartialEq + Debug,
    C: PartialEq + Debug,
{
    let what = format!("{what}, max {max} (start alone {floor})");
    if max < floor {
        assert_eq!(
            r.outcome,
            Outcome::LimitReached {
                limit: Limit::Memory,
                best: None,
            },
            "{what}"
        );
        assert_eq!(r.stats.expanded, 0, "{what}");
        return;
    }
    assert!(
        r.stats.estimated_bytes <= max,
        "{what}: estimate {} above the limit",
        r.stats.estimated_bytes
    );
    if r.outcome.limit() != Some(Limit::Memory) {
        assert_eq!(&r.outcome, full, "{what}");
    }
}

#[test]
fn max_time_stops_an_endless_search() {
    let space = plane();
    let limits = SearchLimits {
        max_time: Some(Duration::ZERO),
        ..SearchLimits::default()
    };
    let r = run(&space, (0, 0), Algorithm::Dijkstra, Blind, limits).unwrap();
    assert_eq!(
        r.outcome,
        Outcome::LimitReached {
            limit: Limit::Time,
            best: None,
        }
    );
    assert_eq!(r.stats.expanded, 0);

    for algorithm in ALGORITHMS {
        let limit = Duration::from_millis(30);
        let limits = SearchLimits {
            max_time: Some(limit),
            ..SearchLimits::default()
        };
        let clock = Instant::now();
        let r = run(&space, (0, 0), algorithm, |_: &(i64, i64)| 0_u64, limits).unwrap();
        let wall = clock.elapsed();
        assert_eq!(
            r.outcome,
            Outcome::LimitReached {
                limit: Limit::Time,
                best: None,
            },
            "{algorithm:?}"
        );
        assert!(
            r.stats.elapsed >= limit,
            "{algorithm:?}: {:?}",
            r.stats.elapsed
        );
        assert!(
            wall < Duration::from_secs(5),
            "{algorithm:?}: took {wall:?}"
        );
        assert!(r.stats.expanded > 0 && r.stats.stored > 0);
    }
}

#[test]
fn cost_bound_prunes_and_says_so() {
    let case = &integer_graphs()[0]; // diamond, optimum 4
    let graph = &case.graph;
    let exact = graph_heuristics(graph, |c| c)[1].1.clone();
    for algorithm in ALGORITHMS {
        for bound in [0, 1, 3] {
            let limits = SearchLimits {
                cost_bound: Some(bound),
                ..SearchLimits::default()
            };
            let r = run(graph, 0, algorithm, exact.clone(), limits).unwrap();
            assert_eq!(
                r.outcome,
                Outcome::LimitReached {
                    limit: Limit::CostBound,
                    best: None,
                },
                "{algorithm:?} bound {bound}"
            );
        }
        for bound in [4, 5, 100] {
            let limits = SearchLimits {
                cost_bound: Some(bound),
                ..SearchLimits::default()
            };
            let r = run(graph, 0, algorithm, exact.clone(), limits).unwrap();
            let cost = valid_plan(graph, &0, &r, &format!("{algorithm:?} bound {bound}")).0;
            assert!(cost <= bound, "{algorithm:?} bound {bound}: cost {cost}");
            if matches!(algorithm, Algorithm::AStar | Algorithm::Dijkstra) {
                assert_eq!(cost, 4);
            }
        }
    }
    // Unsolvable: a bound above every path cost proves nothing is pruned, so
    // the search is exhausted; a bound that prunes cannot claim that.
    let unsolvable = &integer_graphs()[7].graph;
    for algorithm in ALGORITHMS {
        let limits = SearchLimits {
            cost_bound: Some(1_000),
            ..SearchLimits::default()
        };
        let r = run(unsolvable, 0, algorithm, Blind, limits).unwrap();
        assert_eq!(r.outcome, Outcome::Exhausted, "{algorithm:?}");
        assert_eq!(r.stats.expanded, 3, "{algorithm:?}");
        let limits = SearchLimits {
            cost_bound: Some(1),
            ..SearchLimits::default()
        };
        let r = run(unsolvable, 0, algorithm, Blind, limits).unwrap();
        assert_eq!(
            r.outcome,
            Outcome::LimitReached {
                limit: Limit::CostBound,
                best: None,
            },
            "{algorithm:?}"
        );
        assert!(r.stats.expanded >= 1);
    }
}

#[test]
fn cancellation_before_the_search() {
    let grid = big_grid();
    for algorithm in ALGORITHMS {
        let flag = Arc::new(AtomicBool::new(true));
        let limits = SearchLimits {
            cancel: Some(Arc::clone(&flag)),
            ..SearchLimits::default()
        };
        let r = run(&grid, grid.start(), algorithm, grid.manhattan(), limits).unwrap();
        assert_eq!(
            r.outcome,
            Outcome::Cancelled { best: None },
            "{algorithm:?}"
        );
        assert_eq!(r.stats.expanded, 0);
        assert_eq!(r.stats.stored, 1);
    }
}

#[test]
fn cancellation_from_another_thread_while_searching() {
    for algorithm in ALGORITHMS {
        let space = plane();
        let flag = Arc::new(AtomicBool::new(false));
        let canceller = {
            let flag = Arc::clone(&flag);
            let expansions = Arc::clone(&space.expansions);
            thread::spawn(move || {
                while expansions.load(Ordering::Relaxed) < 500 {
                    thread::yield_now();
                }
                flag.store(true, Ordering::Relaxed);
            })
        };
        let limits = SearchLimits {
            cancel: Some(flag),
            // A safety net: a search that ignores the flag fails, not hangs.
            max_time: Some(Duration::from_secs(20)),
            ..SearchLimits::default()
        };
        let r = run(&space, (0, 0), algorithm, |_: &(i64, i64)| 0_u64, limits).unwrap();
        canceller.join().unwrap();
        assert_eq!(
            r.outcome,
            Outcome::Cancelled { best: None },
            "{algorithm:?}"
        );
        assert!(r.stats.expanded >= 500, "{algorithm:?}");
        assert!(r.stats.stored > 500 && r.stats.generated > 500);
    }
}

#[test]
fn cancellation_between_steps() {
    let space = plane();
    let flag = Arc::new(AtomicBool::new(false));
    let mut search = Search::new(&space, (0, 0))
        .algorithm(Algorithm::Dijkstra)
        .limits(SearchLimits {
            cancel: Some(Arc::clone(&flag)),
            ..SearchLimits::default()
        });
    assert_eq!(search.step(100).unwrap(), Status::Running);
    assert_eq!(search.step(100).unwrap(), Status::Running);
    flag.store(true, Ordering::Relaxed);
    assert_eq!(search.step(100).unwrap(), Status::Finished);
    let r = search.run().unwrap();
    assert_eq!(r.outcome, Outcome::Cancelled { best: None });
    assert_eq!(r.stats.expanded, 200);
}

// ---------------------------------------------------------------------------
// Stepping, reuse, determinism

fn full_comparison<S: SearchSpace>(a: &ResultOf<S>, b: &ResultOf<S>, what: &str)
where
    S::Node: Debug,
    S::Action: PartialEq + Debug,
{
    assert_eq!(a.outcome, b.outcome, "{what}: outcome");
    assert_eq!(a.stats.counters(), b.stats.counters(), "{what}: counters");
    assert_eq!(a.stats.max_open, b.stats.max_open, "{what}: max open");
    assert_eq!(a.stats.stored, b.stats.stored, "{what}: stored");
}

#[test]
fn stepping_gives_the_same_result_as_running() {
    let grids: Vec<GridSpace> = GRIDS
        .iter()
        .map(|c| GridSpace::parse(c.map))
        .chain(random_grids().into_iter().map(|(_, g)| g))
        .collect();
    for grid in &grids {
        for algorithm in ALGORITHMS {
            let whole = run(
                grid,
                grid.start(),
                algorithm,
                grid.manhattan(),
                SearchLimits::default(),
            )
            .unwrap();
            for n in [1, 3, 7, 64] {
                let mut search = Search::new(grid, grid.start())
                    .algorithm(algorithm)
                    .heuristic(grid.manhattan());
                let mut steps = 0_u64;
                loop {
                    let before = search.statistics().expanded;
                    let status = search.step(n).unwrap();
                    steps += 1;
                    if status == Status::Finished {
                        break;
                    }
                    assert_eq!(
                        search.statistics().expanded,
                        before + n,
                        "{algorithm:?} n {n}"
                    );
                }
                let stepped = search.run().unwrap();
                full_comparison::<GridSpace>(&whole, &stepped, &format!("{algorithm:?} n {n}"));
                assert!(steps >= whole.stats.expanded / n);
                // Running a finished search again changes nothing.
                let again = search.run().unwrap();
                full_comparison::<GridSpace>(&stepped, &again, "again");
            }
        }
    }
}

#[test]
fn step_zero_does_nothing_but_start() {
    let grid = big_grid();
    let mut search = Search::new(&grid, grid.start()).heuristic(grid.manhattan());
    assert_eq!(search.step(0).unwrap(), Status::Running);
    assert_eq!(search.statistics().expanded, 0);
    assert_eq!(search.statistics().generated, 1);
    assert_eq!(search.run().unwrap().outcome.solution().unwrap().cost, 52);
}

#[test]
fn reused_workspace_gives_identical_results() {
    let grids: Vec<GridSpace> = GRIDS
        .iter()
        .map(|c| GridSpace::parse(c.map))
        .chain(random_grids().into_iter().map(|(_, g)| g))
        .collect();
    for algorithm in ALGORITHMS {
        let mut workspace = Workspace::default();
        // Every grid in turn with one recycled workspace, twice round, with
        // a search abandoned half-way in between.
        for round in 0..2 {
            for grid in &grids {
                let fresh = run(
                    grid,
                    grid.start(),
                    algorithm,
                    grid.manhattan(),
                    SearchLimits::default(),
                )
                .unwrap();
                let mut search = Search::new(grid, grid.start())
                    .algorithm(algorithm)
                    .heuristic(grid.manhattan())
                    .workspace(workspace);
                let reused = search.run().unwrap();
                full_comparison::<GridSpace>(
                    &fresh,
                    &reused,
                    &format!("{algorithm:?} round {round}"),
                );
                workspace = search.into_workspace();

                let mut abandoned = Search::new(grid, grid.start())
                    .algorithm(algorithm)
                    .heuristic(grid.manhattan())
                    .workspace(workspace);
                let _ = abandoned.step(3).unwrap();
                workspace = abandoned.into_workspace();
            }
        }
    }
}

#[test]
fn statistics_are_deterministic() {
    let grid = big_grid();
    let graphs = integer_graphs();
    for algorithm in ALGORITHMS {
        let first = run(
            &grid,
            grid.start(),
            algorithm,
            grid.manhattan(),
            SearchLimits::default(),
        )
        .unwrap();
        for _ in 0..3 {
            let again = run(
                &grid,
                grid.start(),
                algorithm,
                grid.manhattan(),
                SearchLimits::default(),
            )
            .unwrap();
            full_comparison::<GridSpace>(&first, &again, &format!("{algorithm:?}"));
        }
        for case in &graphs {
            let h = graph_heuristics(&case.graph, |c| c / 2)[3].1.clone();
            let first = run(
                &case.graph,
                case.start,
                algorithm,
                h.clone(),
                SearchLimits::default(),
            )
            .unwrap();
            let again = run(
                &case.graph,
                case.start,
                algorithm,
                h,
                SearchLimits::default(),
            )
            .unwrap();
            full_comparison::<GraphSpace<u32>>(&first, &again, case.name);
        }
    }
}

// ---------------------------------------------------------------------------
// Reopening, dead ends, trivial starts

#[test]
fn astar_reopens_with_an_inconsistent_admissible_heuristic() {
    // s=0, a=1, n=2, g=3. s->a 1, s->n 3, a->n 1, n->g 3: optimum s a n g = 5.
    // h(a) = 4 is exact, h(n) = 0 underestimates: admissible, inconsistent
    // (h(a) > c(a, n) + h(n)). A* closes n at g 3 first, then finds g 2.
    let graph = GraphSpace::new(4, &[(0, 1, 1), (0, 2, 3), (1, 2, 1), (2, 3, 3)], &[3]);
    let h = Admissible(Table(vec![
        Estimate::Value(0_u32),
        Estimate::Value(4),
        Estimate::Value(0),
        Estimate::Value(0),
    ]));
    for algorithm in [Algorithm::AStar, Algorithm::WeightedAStar { weight: 1.0 }] {
        let space = Recording::new(graph.clone());
        let r = run(&space, 0, algorithm, h.clone(), SearchLimits::default()).unwrap();
        let plan = r.outcome.solution().expect("solved");
        assert_eq!(plan.cost, 5, "{algorithm:?}");
        assert_eq!(plan.nodes, vec![0, 1, 2, 3]);
        assert!(r.stats.reopened > 0, "{algorithm:?}");
        assert_eq!(r.stats.reopened, 1);
        // Expanded 0, 2, 1, 2; then the plan's steps are found again from
        // its parents, the last first.
        assert_eq!(*space.expanded.borrow(), vec![0, 2, 1, 2, 2, 1, 0]);
        assert_eq!(r.stats.expanded, 5, "the goal counts as expanded");
        assert_eq!(replay(&graph, &0, plan), Ok(5));
    }
    let r = dijkstra(&graph, 0).unwrap();
    assert_eq!(r.stats.reopened, 0);
    assert_eq!(r.outcome.solution().unwrap().cost, 5);
}

#[test]
fn dead_ends_are_counted_and_never_expanded() {
    // 0 -> 1 -> 4 -> 1 is a trap; 2 -> 1 also enters it. 0 -> 2 -> 3 reaches
    // the goal. The heuristic knows 1 and 4 are dead ends.
    let graph = GraphSpace::new(
        5,
        &[
            (0, 1, 1),
            (1, 4, 1),
            (4, 1, 1),
            (0, 2, 3),
            (2, 1, 1),
            (2, 3, 1),
        ],
        &[3],
    );
    let h = |n: &usize| match n {
        1 | 4 => Estimate::DeadEnd,
        _ => Estimate::Value(0_u32),
    };
    for algorithm in [
        Algorithm::AStar,
        Algorithm::WeightedAStar { weight: 2.0 },
        Algorithm::GreedyBestFirst,
    ] {
        let space = Recording::new(graph.clone());
        let r = run(&space, 0, algorithm, h, SearchLimits::default()).unwrap();
        let plan = r.outcome.solution().expect("solved");
        assert_eq!(plan.nodes, vec![0, 2, 3], "{algorithm:?}");
        assert_eq!(plan.cost, 4);
        let expanded = space.expanded.borrow();
        assert!(
            !expanded.contains(&1) && !expanded.contains(&4),
            "{algorithm:?}"
        );
        assert_eq!(r.stats.dead_ends, 1, "{algorithm:?}: node 1, once");
        assert_eq!(r.stats.expanded, 3, "{algorithm:?}: 0, 2 and the goal");
        assert_eq!(r.stats.duplicates, 1, "{algorithm:?}: 2 -> 1");
    }

    // Every way to the goal runs through a dead end: exhausted, if the
    // heuristic promises its dead ends (an admissible one does); a closure
    // that promises nothing proves nothing.
    let trapped = GraphSpace::new(3, &[(0, 1, 1), (1, 2, 1)], &[2]);
    for algorithm in [Algorithm::AStar, Algorithm::GreedyBestFirst] {
        let space = Recording::new(trapped.clone());
        let r = run(&space, 0, algorithm, Admissible(h), SearchLimits::default()).unwrap();
        assert_eq!(r.outcome, Outcome::Exhausted);
        assert_eq!(r.stats.dead_ends, 1);
        assert_eq!(r.stats.expanded, 1);
        assert_eq!(*space.expanded.borrow(), vec![0]);
        let r = run(&trapped, 0, algorithm, h, SearchLimits::default()).unwrap();
        assert_eq!(r.outcome, Outcome::NoSolutionFound);
    }

    // A start that is a dead end is never expanded.
    let space = Recording::new(trapped);
    let r = run(
        &space,
        1,
        Algorithm::AStar,
        Admissible(h),
        SearchLimits::default(),
    )
    .unwrap();
    assert_eq!(r.outcome, Outcome::Exhausted);
    assert_eq!(r.stats.dead_ends, 1);
    assert_eq!(r.stats.expanded, 0);
    assert!(space.expanded.borrow().is_empty());
}

#[test]
fn a_start_that_is_a_goal() {
    let grid = GridSpace::parse(
        "S.G
         ...",
    );
    // Start on the goal: the map's `S` cannot share a cell with `G`.
    let start = grid.goals()[0];
    for algorithm in ALGORITHMS {
        let r = run(
            &grid,
            start,
            algorithm,
            grid.manhattan(),
            SearchLimits::default(),
        );
        let r = r.unwrap();
        let plan = r.outcome.solution().expect("solved");
        assert_eq!(plan.cost, 0, "{algorithm:?}");
        assert!(plan.actions.is_empty(), "{algorithm:?}");
        assert_eq!(plan.nodes, vec![start], "{algorithm:?}");
        let expected = u64::from(algorithm != Algorithm::BreadthFirst);
        assert_eq!(r.stats.expanded, expected, "{algorithm:?}");
        assert_eq!(r.stats.generated, 1, "{algorithm:?}");
        assert_eq!(r.stats.stored, 1, "{algorithm:?}");
    }
    let floats = &float_graphs()[0].graph;
    let r = astar(floats, 3, |_: &usize| FloatCost::new(0.0)).unwrap();
    assert_eq!(r.outcome.solution().unwrap().cost, FloatCost::new(0.0));
}

#[test]
fn statistics_of_a_small_search() {
    // The diamond with Dijkstra: expand 0 (f 0), 2 (1), 1 (2), then 3 at 4.
    let graph = &integer_graphs()[0].graph;
    let r = dijkstra(graph, 0).unwrap();
    let expected = Statistics {
        expanded: 4,
        generated: 5,
        evaluated: 4,
        duplicates: 1,
        reopened: 0,
        dead_ends: 0,
        dominated: 0,
        max_open: r.stats.max_open,
        stored: 4,
        estimated_bytes: r.stats.estimated_bytes,
        elapsed: r.stats.elapsed,
        expanded_until_last_jump: r.stats.expanded_until_last_jump,
    };
    assert_eq!(r.stats, expected);
    assert_eq!(r.stats.max_open, 2);
    assert!(r.stats.estimated_bytes > 0);
}
