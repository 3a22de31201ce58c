//! Property tests for search-core on random graphs with random costs and
//! random admissible (often inconsistent) heuristics.

use std::collections::VecDeque;

use proptest::prelude::*;
use search_core::{
    astar, bfs, dijkstra, greedy, ida_star, weighted_astar, Admissible, Algorithm, Estimate,
    FloatCost, Limit, OpenListKind, Outcome, Search, SearchLimits, Status,
};
use tests::{replay, GraphSpace, Numbered};

/// A random search problem with an admissible heuristic.
#[derive(Clone, Debug)]
struct Problem {
    graph: GraphSpace<u32>,
    start: usize,
    /// The true cheapest cost to a goal times a per-node factor in [0, 1];
    /// a dead end where no goal is reachable.
    heuristic: Vec<Estimate<u32>>,
}

impl Problem {
    fn h(&self) -> Admissible<impl FnMut(&usize) -> Estimate<u32> + Clone + '_> {
        Admissible(|n: &usize| self.heuristic[*n])
    }

    fn optimal(&self) -> Option<u32> {
        self.graph.distances_to_goals()[self.start]
    }
}

const FACTOR_STEPS: u32 = 8;

fn problem() -> impl Strategy<Value = Problem> {
    problem_up_to(40)
}

/// Random problems on at most `nodes` nodes.
fn problem_up_to(nodes: usize) -> impl Strategy<Value = Problem> {
    (1_usize..=nodes)
        .prop_flat_map(|n| {
            (
                prop::collection::vec((0..n, 0..n, 0_u32..=20), n..=n * 4),
                prop::collection::vec(prop::bool::weighted(0.06), n),
                0..n,
                // Extremes often: exact next to zero is what makes a
                // heuristic inconsistent and forces A* to reopen.
                prop::collection::vec(
                    prop_oneof![2 => Just(0), 2 => Just(FACTOR_STEPS), 1 => 0..=FACTOR_STEPS],
                    n,
                ),
            )
        })
        .prop_map(|(edges, goals, start, factors)| {
            let n = goals.len();
            let goal_list: Vec<usize> = (0..n).filter(|&i| goals[i]).collect();
            let graph = GraphSpace::new(n, &edges, &goal_list);
            let heuristic = graph
                .distances_to_goals()
                .iter()
                .zip(&factors)
                .map(|(d, &f)| match d {
                    Some(d) => Estimate::Value(d * f / FACTOR_STEPS),
                    None => Estimate::DeadEnd,
                })
                .collect();
            Problem {
                graph,
                start,
                heuristic,
            }
        })
}

/// Fewest edges from `start` to a goal, by a breadth-first search written
/// here, independent of search-core and of the fixtures' reference.
fn bfs_depth(graph: &GraphSpace<u32>, start: usize) -> Option<usize> {
    let mut depth = vec![usize::MAX; graph.len()];
    let mut queue = VecDeque::from([start]);
    depth[start] = 0;
    while let Some(n) = queue.pop_front() {
        if graph.goals[n] {
            return Some(depth[n]);
        }
        for &(m, _) in &graph.edges[n] {
            if depth[m] == usize::MAX {
                depth[m] = depth[n] + 1;
                queue.push_back(m);
            }
        }
    }
    None
}

/// Nodes reachable from `start`.
fn reachable(graph: &GraphSpace<u32>, start: usize) -> u64 {
    let mut seen = vec![false; graph.len()];
    let mut stack = vec![start];
    seen[start] = true;
    let mut count = 0;
    while let Some(n) = stack.pop() {
        count += 1;
        for &(m, _) in &graph.edges[n] {
            if !seen[m] {
                seen[m] = true;
                stack.push(m);
            }
        }
    }
    count
}

const ALGORITHMS: [Algorithm; 5] = [
    Algorithm::AStar,
    Algorithm::WeightedAStar { weight: 1.5 },
    Algorithm::GreedyBestFirst,
    Algorithm::Dijkstra,
    Algorithm::BreadthFirst,
];

proptest! {
    // About one random problem in fifty makes A* reopen a node, so the
    // optimality checks get more cases; they take well under a second.
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn astar_and_dijkstra_find_the_optimum(p in problem()) {
        let optimal = p.optimal();
        let d = dijkstra(&p.graph, p.start).unwrap();
        let a = astar(&p.graph, p.start, p.h()).unwrap();
        if let Some(optimal) = optimal {
                for (name, r) in [("dijkstra", &d), ("astar", &a)] {
                    let plan = r.outcome.solution();
                    prop_assert!(plan.is_some(), "{} did not solve", name);
                    let plan = plan.unwrap();
                    prop_assert_eq!(plan.cost, optimal, "{}", name);
                    prop_assert_eq!(replay(&p.graph, &p.start, plan), Ok(optimal));
                }
        } else {
                prop_assert_eq!(&d.outcome, &Outcome::Exhausted);
                prop_assert_eq!(&a.outcome, &Outcome::Exhausted);
                // Dijkstra has no dead ends: it expands everything reachable.
                prop_assert_eq!(d.stats.expanded, reachable(&p.graph, p.start));
        }
        prop_assert_eq!(d.stats.reopened, 0);
    }

    #[test]
    fn float_costs_agree_too(p in problem()) {
        // Quarters are exact in binary, so every path sums exactly.
        let edges: Vec<Vec<(usize, FloatCost)>> = p
            .graph
            .edges
            .iter()
            .map(|out| {
                out.iter()
                    .map(|&(m, c)| (m, FloatCost::new(f64::from(c) / 4.0)))
                    .collect()
            })
            .collect();
        let graph = GraphSpace { edges, goals: p.graph.goals.clone() };
        let h = |n: &usize| match p.heuristic[*n] {
            Estimate::Value(v) => Estimate::Value(FloatCost::new(f64::from(v) / 4.0)),
            Estimate::DeadEnd => Estimate::DeadEnd,
        };
        let d = dijkstra(&graph, p.start).unwrap();
        let a = astar(&graph, p.start, Admissible(h)).unwrap();
        let expected = p.optimal().map(|c| FloatCost::new(f64::from(c) / 4.0));
        prop_assert_eq!(d.outcome.solution().map(|s| s.cost), expected);
        prop_assert_eq!(a.outcome.solution().map(|s| s.cost), expected);
        for r in [&d, &a] {
            if let Some(plan) = r.outcome.solution() {
                prop_assert_eq!(replay(&graph, &p.start, plan), Ok(plan.cost));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn bfs_finds_the_fewest_edges(p in problem()) {
        let r = bfs(&p.graph, p.start).unwrap();
        if let Some(depth) = bfs_depth(&p.graph, p.start) {
                let plan = r.outcome.solution();
                prop_assert!(plan.is_some());
                let plan = plan.unwrap();
                prop_assert_eq!(plan.actions.len(), depth);
                prop_assert!(replay(&p.graph, &p.start, plan).is_ok());
                prop_assert!(Some(plan.cost) >= p.optimal());
        } else {
                prop_assert_eq!(&r.outcome, &Outcome::Exhausted);
                prop_assert_eq!(r.stats.expanded, reachable(&p.graph, p.start));
        }
    }

    #[test]
    fn every_path_replays_and_weighted_astar_keeps_its_bound(
        p in problem(),
        weight in 1.0_f64..6.0,
    ) {
        let optimal = p.optimal();
        let results = [
            ("weighted", weighted_astar(&p.graph, p.start, p.h(), weight).unwrap()),
            ("greedy", greedy(&p.graph, p.start, p.h()).unwrap()),
        ];
        for (name, r) in results {
            match (optimal, r.outcome.solution()) {
                (Some(optimal), Some(plan)) => {
                    let replayed = replay(&p.graph, &p.start, plan);
                    prop_assert_eq!(replayed, Ok(plan.cost), "{}", name);
                    prop_assert!(plan.cost >= optimal, "{}", name);
                    if name == "weighted" {
                        prop_assert!(
                            f64::from(plan.cost) <= weight * f64::from(optimal),
                            "cost {} above {} x {}", plan.cost, weight, optimal
                        );
                    }
                }
                (None, None) => prop_assert_eq!(&r.outcome, &Outcome::Exhausted),
                (optimal, _) => prop_assert!(
                    false, "{}: optimum {:?}, outcome {:?}", name, optimal, r.outcome
                ),
            }
        }
    }

    #[test]
    fn limits_are_honoured(
        p in problem(),
        max_expansions in 0_u64..30,
        max_stored in 1_usize..30,
        algorithm in prop::sample::select(ALGORITHMS.to_vec()),
    ) {
        let max_degree = p.graph.edges.iter().map(Vec::len).max().unwrap_or(0);
        let unlimited = Search::new(&p.graph, p.start)
            .algorithm(algorithm)
            .heuristic(p.h())
            .run()
            .unwrap();

        let limits = SearchLimits { max_expansions: Some(max_expansions), ..SearchLimits::default() };
        let r = Search::new(&p.graph, p.start)
            .algorithm(algorithm)
            .heuristic(p.h())
            .limits(limits)
            .run()
            .unwrap();
        prop_assert!(r.stats.expanded <= max_expansions);
        if r.outcome.limit() == Some(Limit::Expansions) {
            prop_assert_eq!(r.stats.expanded, max_expansions);
            prop_assert!(unlimited.stats.expanded >= max_expansions);
        } else {
            // Within the limit the search runs exactly as without one.
            prop_assert_eq!(&r.outcome, &unlimited.outcome);
            prop_assert_eq!(r.stats.counters(), unlimited.stats.counters());
        }

        let limits = SearchLimits { max_stored_nodes: Some(max_stored), ..SearchLimits::default() };
        let r = Search::new(&p.graph, p.start)
            .algorithm(algorithm)
            .heuristic(p.h())
            .limits(limits)
            .run()
            .unwrap();
        prop_assert!(r.stats.stored < max_stored + max_degree.max(1));
        if r.outcome.limit() == Some(Limit::StoredNodes) {
            prop_assert!(r.stats.stored >= max_stored);
        } else {
            prop_assert_eq!(&r.outcome, &unlimited.outcome);
        }
    }

    #[test]
    fn the_same_input_gives_the_same_statistics(
        p in problem(),
        algorithm in prop::sample::select(ALGORITHMS.to_vec()),
        step in 1_u64..10,
    ) {
        let first = Search::new(&p.graph, p.start)
            .algorithm(algorithm)
            .heuristic(p.h())
            .run()
            .unwrap();
        let second = Search::new(&p.graph, p.start)
            .algorithm(algorithm)
            .heuristic(p.h())
            .run()
            .unwrap();
        prop_assert_eq!(first.stats.counters(), second.stats.counters());
        prop_assert_eq!(&first.outcome, &second.outcome);
        prop_assert_eq!(first.stats.max_open, second.stats.max_open);
        prop_assert_eq!(first.stats.stored, second.stats.stored);

        // Stepped a few expansions at a time, the search does the same.
        let mut search = Search::new(&p.graph, p.start)
            .algorithm(algorithm)
            .heuristic(p.h());
        while search.step(step).unwrap() == Status::Running {}
        let stepped = search.run().unwrap();
        prop_assert_eq!(first.stats.counters(), stepped.stats.counters());
        prop_assert_eq!(&first.outcome, &stepped.outcome);

        // And so does a search given the workspace of another.
        let other = (p.start + 1) % p.graph.len();
        let mut warm = Search::new(&p.graph, other).algorithm(algorithm).heuristic(p.h());
        warm.run().unwrap();
        let mut reused = Search::new(&p.graph, p.start)
            .algorithm(algorithm)
            .heuristic(p.h())
            .workspace(warm.into_workspace());
        let reused = reused.run().unwrap();
        prop_assert_eq!(first.stats.counters(), reused.stats.counters());
        prop_assert_eq!(&first.outcome, &reused.outcome);
    }

    #[test]
    fn every_open_list_expands_the_same_nodes(
        p in problem(),
        algorithm in prop::sample::select(ALGORITHMS.to_vec()),
    ) {
        let run = |kind| {
            Search::new(&p.graph, p.start)
                .algorithm(algorithm)
                .open_list(kind)
                .heuristic(p.h())
                .run()
                .unwrap()
        };
        let auto = run(OpenListKind::Auto);
        for kind in [OpenListKind::BinaryHeap, OpenListKind::Buckets, OpenListKind::DecreaseKey] {
            let other = run(kind);
            prop_assert_eq!(auto.stats.counters(), other.stats.counters(), "{:?}", kind);
            prop_assert_eq!(&auto.outcome, &other.outcome, "{:?}", kind);
        }
    }

    #[test]
    fn a_numbered_space_searches_as_a_hashed_one(
        p in problem(),
        q in problem(),
        algorithm in prop::sample::select(ALGORITHMS.to_vec()),
    ) {
        let numbered = Numbered(&p.graph);
        let run = |workspace| {
            Search::new(&numbered, p.start)
                .algorithm(algorithm)
                .heuristic(p.h())
                .workspace(workspace)
                .run()
                .unwrap()
        };
        let hashed = Search::new(&p.graph, p.start)
            .algorithm(algorithm)
            .heuristic(p.h())
            .run()
            .unwrap();
        let fresh = run(search_core::Workspace::default());
        prop_assert_eq!(hashed.stats.counters(), fresh.stats.counters());
        prop_assert_eq!(hashed.stats.max_open, fresh.stats.max_open);
        prop_assert_eq!(hashed.stats.stored, fresh.stats.stored);
        prop_assert_eq!(&hashed.outcome, &fresh.outcome);

        // The table keeps entries of earlier searches, of this graph and of
        // another numbered or hashed one; they must not leak into this one.
        for (graph, start) in [(&q.graph, q.start), (&p.graph, (p.start + 1) % p.graph.len())] {
            let space = Numbered(graph);
            let mut warm = Search::new(&space, start).algorithm(algorithm);
            warm.run().unwrap();
            let reused = run(warm.into_workspace());
            prop_assert_eq!(hashed.stats.counters(), reused.stats.counters());
            prop_assert_eq!(&hashed.outcome, &reused.outcome);
        }
        let mut warm = Search::new(&q.graph, q.start).algorithm(algorithm);
        warm.run().unwrap();
        let reused = run(warm.into_workspace());
        prop_assert_eq!(hashed.stats.counters(), reused.stats.counters());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Restarting weighted A* ends with the optimum, with an admissible
    /// heuristic (A* under the bound proves it) and with an inadmissible
    /// one (the last weight repeats until nothing cheaper is left); every
    /// plan it reports is valid and cheaper than the one before.
    #[test]
    fn restarting_weighted_astar_improves_to_the_optimum(p in problem(), scale in 1_u32..=4) {
        let inadmissible = |n: &usize| match p.heuristic[*n] {
            Estimate::Value(v) => Estimate::Value(v * scale),
            Estimate::DeadEnd => Estimate::DeadEnd,
        };
        let admissible = Search::new(&p.graph, p.start)
            .algorithm(Algorithm::RestartingWeightedAStar)
            .heuristic(p.h());
        let scaled = Search::new(&p.graph, p.start)
            .algorithm(Algorithm::RestartingWeightedAStar)
            .heuristic(inadmissible);
        let runs = [
            ("admissible", improvements_and_result(admissible)),
            ("scaled", improvements_and_result(scaled)),
        ];
        for (name, (costs, result)) in runs {
            prop_assert_eq!(result.outcome.solution().map(|s| s.cost), p.optimal(), "{}", name);
            prop_assert!(costs.windows(2).all(|w| w[1] < w[0]), "{}: {:?}", name, costs);
            prop_assert_eq!(costs.last().copied(), p.optimal(), "{}", name);
            if let Some(plan) = result.outcome.solution() {
                prop_assert_eq!(replay(&p.graph, &p.start, plan), Ok(plan.cost));
            } else if name == "admissible" {
                prop_assert_eq!(&result.outcome, &Outcome::Exhausted);
            } else {
                // The scaled closure promises nothing of its dead ends.
                let dry = if result.stats.dead_ends > 0 { Outcome::NoSolutionFound } else { Outcome::Exhausted };
                prop_assert_eq!(&result.outcome, &dry);
            }
        }
    }
}

/// Steps `search` to its end one expansion at a time, checking that the
/// improvements only ever grow; returns their costs and the result.
fn improvements_and_result<H>(
    mut search: Search<'_, GraphSpace<u32>, H>,
) -> (Vec<u32>, search_core::SearchResult<usize, usize, u32>)
where
    H: search_core::Heuristic<usize, u32>,
{
    let mut seen = 0;
    while search.step(1).unwrap() == Status::Running {
        let now = search.improvements().len();
        assert!(now >= seen, "an improvement disappeared");
        seen = now;
    }
    for improvement in search.improvements() {
        assert!(improvement.expanded <= search.statistics().expanded);
    }
    let costs = search
        .improvements()
        .iter()
        .map(|i| i.solution.cost)
        .collect();
    (costs, search.run().unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// IDA* finds the optimum with an admissible (often inconsistent)
    /// heuristic, and says so when no goal is reachable. Small graphs: it
    /// has no closed list, so it walks every simple path within a bound.
    #[test]
    fn ida_star_finds_the_optimum(p in problem_up_to(10)) {
        let result = ida_star(&p.graph, p.start, p.h()).unwrap();
        if let Some(optimal) = p.optimal() {
            let plan = result.outcome.solution();
            prop_assert!(plan.is_some(), "ida* did not solve: {}", result.outcome.name());
            let plan = plan.unwrap();
            prop_assert_eq!(plan.cost, optimal);
            prop_assert!(replay(&p.graph, &p.start, plan).is_ok());
        } else {
            prop_assert_eq!(result.outcome, Outcome::Exhausted);
        }
    }
}
