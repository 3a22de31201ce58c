//! Bidirectional search (NBS, bidirectional Dijkstra, TTBS) against
//! unidirectional Dijkstra on random graphs with zero-cost edges and
//! cycles, and NBS's bound on expansions against a minimum vertex cover
//! computed here.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use proptest::prelude::*;
use search_core::bidirectional::{
    bidijkstra_fn, bidir_astar_fn, FrontToFront, Meeting, Nbs, SameNode, Side, Stored, Ttbs,
};
use search_core::{
    dijkstra_fn, Consistent, Estimate, FloatCost, FnSpace, Limit, Outcome, SearchError,
    SearchLimits, SearchSpace, Status,
};
use tests::GraphSpace;

/// A random graph with one start and one goal.
#[derive(Clone, Debug)]
struct Problem {
    forward: Vec<Vec<(usize, u32)>>,
    backward: Vec<Vec<(usize, u32)>>,
    start: usize,
    goal: usize,
}

impl Problem {
    fn successors(&self) -> impl Fn(&usize) -> Vec<(usize, u32)> + Copy + '_ {
        |&n: &usize| self.forward[n].clone()
    }

    fn predecessors(&self) -> impl Fn(&usize) -> Vec<(usize, u32)> + Copy + '_ {
        |&n: &usize| self.backward[n].clone()
    }

    /// The cheapest costs from every node to `target` over `edges`.
    fn distances(edges: &[Vec<(usize, u32)>], target: usize) -> Vec<Option<u32>> {
        let adjacency: Vec<(usize, usize, u32)> = edges
            .iter()
            .enumerate()
            .flat_map(|(from, out)| out.iter().map(move |&(to, c)| (from, to, c)))
            .collect();
        GraphSpace::new(edges.len(), &adjacency, &[target]).distances_to_goals()
    }

    /// Cost of the cheapest path from each node to the goal.
    fn to_goal(&self) -> Vec<Option<u32>> {
        Self::distances(&self.forward, self.goal)
    }

    /// Cost of the cheapest path from the start to each node.
    fn distances_from_start(&self) -> Vec<Option<u32>> {
        Self::distances(&self.backward, self.start)
    }

    /// The cost of `path` if each step follows an edge (the cheapest of
    /// parallel ones) from the start to the goal.
    fn cost_of(&self, path: &[usize]) -> Option<u32> {
        if path.first() != Some(&self.start) || path.last() != Some(&self.goal) {
            return None;
        }
        path.windows(2).try_fold(0, |sum, step| {
            let edge = self.forward[step[0]]
                .iter()
                .filter(|&&(to, _)| to == step[1])
                .map(|&(_, c)| c)
                .min()?;
            Some(sum + edge)
        })
    }
}

fn problem(max_nodes: usize) -> impl Strategy<Value = Problem> {
    (2_usize..=max_nodes)
        .prop_flat_map(|n| {
            (
                // Zero costs often: they make ties and zero-cost cycles.
                prop::collection::vec(
                    (0..n, 0..n, prop_oneof![1 => Just(0_u32), 3 => 0_u32..=9]),
                    n..=n * 3,
                ),
                0..n,
                0..n,
            )
        })
        .prop_map(|(edges, start, goal)| {
            let n = edges.len() / 3 + 1;
            let n = edges
                .iter()
                .map(|&(a, b, _)| a.max(b) + 1)
                .chain([n, start + 1, goal + 1])
                .max()
                .unwrap_or(n);
            let mut forward = vec![Vec::new(); n];
            let mut backward = vec![Vec::new(); n];
            for (from, to, cost) in edges {
                forward[from].push((to, cost));
                backward[to].push((from, cost));
            }
            Problem {
                forward,
                backward,
                start,
                goal,
            }
        })
}

/// A front-to-front estimate that is noise: any value from 0 to 9, or a
/// dead end, as `seed` mixes the two nodes.
struct Scrambled(usize);

impl FrontToFront<usize, usize, u32> for Scrambled {
    fn estimate(&mut self, forward: &usize, backward: &usize) -> Estimate<u32> {
        let mixed = (forward * 31 + backward * 17 + self.0) % 11;
        u32::try_from(mixed).map_or(Estimate::DeadEnd, |h| {
            if h == 10 {
                Estimate::DeadEnd
            } else {
                Estimate::Value(h)
            }
        })
    }
}

/// Whether left node `u` can be matched, rematching others along an
/// augmenting path.
fn augment(
    u: usize,
    adjacent: &[Vec<usize>],
    seen: &mut [bool],
    matched: &mut [Option<usize>],
) -> bool {
    for &v in &adjacent[u] {
        if !seen[v] {
            seen[v] = true;
            if matched[v].is_none_or(|w| augment(w, adjacent, seen, matched)) {
                matched[v] = Some(u);
                return true;
            }
        }
    }
    false
}

/// The size of a maximum matching of the bipartite graph `pairs` (left
/// and right nodes numbered apart), which equals its minimum vertex cover
/// (König), by augmenting paths.
fn minimum_vertex_cover(pairs: &[(usize, usize)], left: usize, right: usize) -> usize {
    let mut adjacent = vec![Vec::new(); left];
    for &(u, v) in pairs {
        adjacent[u].push(v);
    }
    let mut matched: Vec<Option<usize>> = vec![None; right];
    (0..left)
        .filter(|&u| augment(u, &adjacent, &mut vec![false; right], &mut matched))
        .count()
}

/// Heuristics `floor(k * d)` from exact distances `d`: consistent for any
/// `k` in [0, 1]; dead ends where no path exists.
fn scaled(distances: &[Option<u32>], eighths: u32) -> Vec<Estimate<u32>> {
    distances
        .iter()
        .map(|d| d.map_or(Estimate::DeadEnd, |d| Estimate::Value(d * eighths / 8)))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Bidirectional Dijkstra finds Dijkstra's cost, on a real path.
    #[test]
    fn bidirectional_dijkstra_costs_what_dijkstra_costs(p in problem(25)) {
        let expected = dijkstra_fn(p.start, p.successors(), |&n| n == p.goal).unwrap().map(|(_, c)| c);
        let found = bidijkstra_fn(p.start, p.goal, p.successors(), p.predecessors()).unwrap();
        prop_assert_eq!(found.as_ref().map(|(_, c)| *c), expected);
        if let Some((path, cost)) = found {
            prop_assert_eq!(p.cost_of(&path), Some(cost));
        }
        // Costs that are not integers take the binary heap.
        let float = |edges: &Vec<(usize, u32)>| -> Vec<(usize, FloatCost)> {
            edges.iter().map(|&(n, c)| (n, FloatCost::new(f64::from(c) / 2.0))).collect()
        };
        let halves = bidijkstra_fn(
            p.start,
            p.goal,
            |&n: &usize| float(&p.forward[n]),
            |&n: &usize| float(&p.backward[n]),
        )
        .unwrap();
        prop_assert_eq!(halves.map(|(_, c)| c.get()), expected.map(|c| f64::from(c) / 2.0));
    }

    /// NBS with consistent heuristics on both sides finds the optimal cost
    /// and expands at most twice a minimum vertex cover of the pairs whose
    /// lower bound is at most the optimal cost.
    #[test]
    fn nbs_is_optimal_within_twice_the_vertex_cover(
        p in problem(16),
        forward_k in 0_u32..=8,
        backward_k in 0_u32..=8,
    ) {
        let (to_goal, from_start) = (p.to_goal(), p.distances_from_start());
        let (h_forward, h_backward) = (scaled(&to_goal, forward_k), scaled(&from_start, backward_k));
        let forward = FnSpace::new(p.successors(), |&n: &usize| n == p.goal);
        let backward = FnSpace::new(p.predecessors(), |&n: &usize| n == p.start);
        let mut search = Nbs::new(&forward, p.start, &backward, p.goal, SameNode).heuristics(
            Consistent(|n: &usize| h_forward[*n]),
            Consistent(|n: &usize| h_backward[*n]),
        );
        let result = search.run().unwrap();
        let optimal = to_goal[p.start];
        prop_assert_eq!(result.outcome.solution().map(|s| s.cost), optimal);
        let Some(optimal) = optimal else { return Ok(()) };
        let solution = result.outcome.solution().unwrap();
        let path: Vec<usize> = solution.nodes.iter().cloned().map(Side::into_node).collect();
        prop_assert_eq!(p.cost_of(&path), Some(optimal));
        prop_assert_eq!(solution.actions.len() + 1, solution.nodes.len());

        let value = |h: &Estimate<u32>| match h { Estimate::Value(v) => Some(*v), Estimate::DeadEnd => None };
        let n = p.forward.len();
        let mut pairs = Vec::new();
        for u in 0..n {
            let (Some(gu), Some(hu)) = (from_start[u], value(&h_forward[u])) else { continue };
            for v in 0..n {
                let (Some(gv), Some(hv)) = (to_goal[v], value(&h_backward[v])) else { continue };
                if (gu + hu).max(gv + hv).max(gu + gv) <= optimal {
                    pairs.push((u, v));
                }
            }
        }
        let cover = minimum_vertex_cover(&pairs, n, n);
        prop_assert!(
            result.stats.expanded <= 2 * cover as u64,
            "{} expansions, cover {}", result.stats.expanded, cover
        );
        prop_assert_eq!(
            result.stats.expanded,
            search.forward_statistics().expanded + search.backward_statistics().expanded
        );
    }

    /// TTBS, with any front-to-front estimate (dead ends included), finds
    /// a path exactly when one exists, and reports what the path costs.
    #[test]
    fn ttbs_finds_a_path_when_there_is_one(p in problem(25), seed in 0_usize..1000) {
        let expected = dijkstra_fn(p.start, p.successors(), |&n| n == p.goal).unwrap().map(|(_, c)| c);
        let forward = FnSpace::new(p.successors(), |&n: &usize| n == p.goal);
        let backward = FnSpace::new(p.predecessors(), |&n: &usize| n == p.start);
        let mut search = Ttbs::new(&forward, p.start, &backward, p.goal, SameNode, Scrambled(seed));
        let result = search.run().unwrap();
        let solution = result.outcome.solution();
        prop_assert_eq!(solution.is_some(), expected.is_some());
        if let (Some(solution), Some(optimal)) = (solution, expected) {
            let path: Vec<usize> = solution.nodes.iter().cloned().map(Side::into_node).collect();
            prop_assert_eq!(p.cost_of(&path), Some(solution.cost));
            prop_assert!(solution.cost >= optimal);
            prop_assert_eq!(solution.actions.len() + 1, solution.nodes.len());
        }
        prop_assert_eq!(
            result.stats.expanded,
            search.forward_statistics().expanded + search.backward_statistics().expanded
        );

        // Stepping a few expansions at a time ends as one run does.
        let mut stepped = Ttbs::new(&forward, p.start, &backward, p.goal, SameNode, Scrambled(seed));
        while stepped.step(1 + seed as u64 % 3).unwrap() == Status::Running {}
        let again = stepped.run().unwrap();
        prop_assert_eq!(again.outcome, result.outcome);
        prop_assert_eq!(again.stats.counters(), result.stats.counters());
    }

    /// Stepping a few expansions at a time ends as one run does.
    #[test]
    fn stepping_ends_as_running(p in problem(20), budget in 1_u64..4) {
        let forward = FnSpace::new(p.successors(), |&n: &usize| n == p.goal);
        let backward = FnSpace::new(p.predecessors(), |&n: &usize| n == p.start);
        let whole = Nbs::new(&forward, p.start, &backward, p.goal, SameNode).run().unwrap();
        let mut stepped = Nbs::new(&forward, p.start, &backward, p.goal, SameNode);
        while stepped.step(budget).unwrap() == Status::Running {}
        let result = stepped.run().unwrap();
        prop_assert_eq!(result.outcome, whole.outcome);
        prop_assert_eq!(result.stats.counters(), whole.stats.counters());
    }
}

#[test]
fn a_limit_stops_the_search_and_keeps_the_best_path_found() {
    // A long line: thousands of expansions to meet.
    let next = |&n: &u32| (n < 10_000).then_some((n + 1, 1_u32));
    let previous = |&n: &u32| n.checked_sub(1).map(|p| (p, 1_u32));
    let forward = FnSpace::new(next, |&n: &u32| n == 10_000);
    let backward = FnSpace::new(previous, |&n: &u32| n == 0);
    let limits = SearchLimits {
        max_expansions: Some(100),
        ..SearchLimits::default()
    };
    let result = Nbs::new(&forward, 0, &backward, 10_000, SameNode)
        .limits(limits)
        .run()
        .unwrap();
    assert_eq!(result.outcome.limit(), Some(Limit::Expansions));
    assert_eq!(result.stats.expanded, 100);

    let cancel = Arc::new(AtomicBool::new(true));
    let limits = SearchLimits {
        cancel: Some(cancel),
        ..SearchLimits::default()
    };
    let result = Nbs::new(&forward, 0, &backward, 10_000, SameNode)
        .limits(limits)
        .run()
        .unwrap();
    assert!(matches!(result.outcome, Outcome::Cancelled { best: None }));
}

#[test]
fn the_memory_limit_holds() {
    // Both sides branch without end (the backward side's edges need not
    // mirror the forward side's for the limit to hold).
    let next = |&n: &u64| [(n.wrapping_mul(2), 1_u32), (n.wrapping_mul(2) + 1, 1)];
    let previous = |&n: &u64| [(n.wrapping_mul(3), 1_u32), (n.wrapping_mul(3) + 1, 1)];
    let forward = FnSpace::new(next, |_: &u64| false);
    let backward = FnSpace::new(previous, |_: &u64| false);
    let max = 200_000;
    let limits = SearchLimits {
        max_memory_bytes: Some(max),
        ..SearchLimits::default()
    };
    let mut search = Nbs::new(&forward, 1, &backward, 1 << 63, SameNode).limits(limits);
    let result = search.run().unwrap();
    assert_eq!(result.outcome.limit(), Some(Limit::Memory));
    assert!(
        result.stats.estimated_bytes <= max,
        "{}",
        result.stats.estimated_bytes
    );
}

#[test]
fn no_path_is_exhaustion_and_a_bad_cost_an_error() {
    // A line 0..=3 with 5 beyond reach.
    let found = bidijkstra_fn(
        0_u32,
        5,
        |&n| (n < 3).then_some((n + 1, 1_u32)),
        |&n| (1..=3).contains(&n).then(|| (n - 1, 1_u32)),
    );
    assert_eq!(found.unwrap(), None);
    let error = bidijkstra_fn(0_i32, 5, |&n| [(n + 1, -1_i32)], |&n| [(n - 1, 1_i32)]).unwrap_err();
    assert!(matches!(error, SearchError::InvalidCost { .. }), "{error}");
    // Start and goal the same: the empty path.
    let found = bidir_astar_fn(
        4_u32,
        4,
        |&n| [(n + 1, 1_u32)],
        |&n| [(n + 1, 1_u32)],
        |_| 0,
        |_| 0,
    );
    assert_eq!(found.unwrap(), Some((vec![4], 0)));
}

/// Forward nodes are complete assignments of 6 switches; backward nodes
/// are partial ones (`(care, values)`), met when the assignment agrees on
/// every switch the partial one cares about, as a forward state meets a
/// regression subgoal.
struct Switches;

/// Flip one switch at a cost of its number plus one.
impl SearchSpace for Switches {
    type Node = u8;
    type Action = u8;
    type Cost = u32;
    fn is_goal(&self, _: &u8) -> bool {
        false
    }
    fn successors<F: FnMut(u8, u8, u32)>(&self, n: &u8, mut emit: F) {
        for s in 0..6 {
            emit(s, n ^ (1 << s), u32::from(s) + 1);
        }
    }
}

/// Regression over partial assignments: the flip of switch `s` leads to a
/// partial assignment with `s` set to `v` from one with `s` set to `!v`
/// (or not cared about).
struct Regression {
    start: u8,
}

impl SearchSpace for Regression {
    type Node = (u8, u8);
    type Action = u8;
    type Cost = u32;
    fn is_goal(&self, &(care, values): &(u8, u8)) -> bool {
        self.start & care == values
    }
    fn successors<F: FnMut(u8, (u8, u8), u32)>(&self, &(care, values): &(u8, u8), mut emit: F) {
        for s in 0..6 {
            let bit = 1 << s;
            if care & bit != 0 {
                emit(s, (care, values ^ bit), u32::from(s) + 1);
            }
        }
    }
}

/// Meets by scanning: enough for this test.
struct Satisfies;

impl Meeting<u8, (u8, u8)> for Satisfies {
    fn forward_meets(&self, node: &u8, backward: Stored<'_, (u8, u8)>, mut met: impl FnMut(u32)) {
        for (number, &(care, values)) in backward.iter() {
            if node & care == values {
                met(number);
            }
        }
    }
    fn backward_meets(
        &self,
        &(care, values): &(u8, u8),
        forward: Stored<'_, u8>,
        mut met: impl FnMut(u32),
    ) {
        for (number, state) in forward.iter() {
            if state & care == values {
                met(number);
            }
        }
    }
}

#[test]
fn sides_of_different_node_types_meet_where_a_state_satisfies_a_subgoal() {
    let start = 0b00_0000;
    // Switches 0 and 5 on; the rest free: the cheapest plan flips both.
    let goal = (0b10_0001, 0b10_0001);
    let result = Nbs::new(&Switches, start, &Regression { start }, goal, Satisfies)
        .run()
        .unwrap();
    let solution = result.outcome.solution().unwrap();
    assert_eq!(solution.cost, 1 + 6);
    let mut flips = solution.actions.clone();
    flips.sort_unstable();
    assert_eq!(flips, vec![0, 5]);
    assert!(matches!(solution.nodes[0], Side::Forward(0)));
    // The path ends at the goal, or at a forward state that satisfies it.
    let (care, values) = goal;
    match solution.nodes.last() {
        Some(Side::Backward(last)) => assert_eq!(*last, goal),
        Some(Side::Forward(last)) => assert_eq!(last & care, values),
        None => panic!("an empty path"),
    }
}

#[test]
fn ttbs_meets_where_a_state_satisfies_a_subgoal() {
    let start = 0b00_0000;
    let goal = (0b10_0001, 0b10_0001);
    // The switches still to flip toward the subgoal.
    let unmet =
        search_core::bidirectional::front_to_front_fn(|state: &u8, &(care, values): &(u8, u8)| {
            ((state & care) ^ values).count_ones()
        });
    let regression = Regression { start };
    let mut search = Ttbs::new(&Switches, start, &regression, goal, Satisfies, unmet);
    let solution = search.run().unwrap().outcome.solution().unwrap().clone();
    // Greedy: a plan, not the cheapest; its flips reach the subgoal.
    let state = solution
        .actions
        .iter()
        .fold(start, |state, s| state ^ (1 << s));
    assert_eq!(state & goal.0, goal.1);
    let cost: u32 = solution.actions.iter().map(|&s| u32::from(s) + 1).sum();
    assert_eq!(solution.cost, cost);
    assert!(
        search.statistics().expanded <= 4,
        "{}",
        search.statistics().expanded
    );
}

#[test]
fn ttbs_honours_the_cost_bound_and_the_expansion_limit() {
    // A line 0..=30 both ways: the only path costs 30.
    let forward = FnSpace::new(
        |&n: &u32| (n < 30).then(|| (n + 1, 1_u32)),
        |&n: &u32| n == 30,
    );
    let backward = FnSpace::new(
        |&n: &u32| n.checked_sub(1).map(|p| (p, 1_u32)),
        |&n: &u32| n == 0,
    );
    let distance = search_core::bidirectional::front_to_front_fn(|a: &u32, b: &u32| b.abs_diff(*a));
    let bounded = SearchLimits {
        cost_bound: Some(29),
        ..SearchLimits::default()
    };
    let result = Ttbs::new(&forward, 0, &backward, 30, SameNode, distance)
        .limits(bounded)
        .run()
        .unwrap();
    assert!(matches!(
        result.outcome,
        Outcome::LimitReached {
            limit: Limit::CostBound,
            best: None
        }
    ));
    let few = SearchLimits {
        max_expansions: Some(4),
        ..SearchLimits::default()
    };
    let result = Ttbs::new(&forward, 0, &backward, 30, SameNode, distance)
        .limits(few)
        .run()
        .unwrap();
    assert!(matches!(
        result.outcome,
        Outcome::LimitReached {
            limit: Limit::Expansions,
            best: None
        }
    ));
    assert_eq!(result.stats.expanded, 4);
    let result = Ttbs::new(&forward, 0, &backward, 30, SameNode, distance)
        .run()
        .unwrap();
    assert_eq!(result.outcome.solution().map(|s| s.cost), Some(30));
    // Each side walked about half the line.
    assert!(result.stats.expanded <= 32, "{}", result.stats.expanded);
}

#[test]
fn nbs_returns_no_solution_past_the_cost_bound() {
    // A line 0..=20: each side's nodes stay within a bound of 15, but the
    // only solution, joined in the middle, costs 20.
    let forward = FnSpace::new(
        |&n: &u32| (n < 20).then(|| (n + 1, 1_u32)),
        |&n: &u32| n == 20,
    );
    let backward = FnSpace::new(
        |&n: &u32| n.checked_sub(1).map(|p| (p, 1_u32)),
        |&n: &u32| n == 0,
    );
    let bounded = |bound| SearchLimits {
        cost_bound: Some(bound),
        ..SearchLimits::default()
    };
    let result = Nbs::new(&forward, 0, &backward, 20, SameNode)
        .limits(bounded(15))
        .run()
        .unwrap();
    assert!(
        matches!(
            result.outcome,
            Outcome::LimitReached {
                limit: Limit::CostBound,
                best: None
            }
        ),
        "{:?}",
        result.outcome
    );
    let result = Nbs::new(&forward, 0, &backward, 20, SameNode)
        .limits(bounded(20))
        .run()
        .unwrap();
    assert_eq!(result.outcome.solution().map(|s| s.cost), Some(20));
}
