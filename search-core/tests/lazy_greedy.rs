//! Lazy greedy best-first search: plans, limits, determinism, preferred
//! operators and first-in, first-out ties.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use search_core::{
    Admissible, Algorithm, Estimate, Heuristic, LazyGreedy, Limit, Outcome, Search, SearchError,
    SearchLimits, SearchSpace, Status,
};

/// A 20 x 20 grid with a wall; moves cost 1.
struct Grid;

impl SearchSpace for Grid {
    type Node = (i32, i32);
    type Action = char;
    type Cost = u32;
    fn is_goal(&self, n: &(i32, i32)) -> bool {
        *n == (19, 19)
    }
    fn successors<F: FnMut(char, (i32, i32), u32)>(&self, &(x, y): &(i32, i32), mut emit: F) {
        for (a, dx, dy) in [('r', 1, 0), ('l', -1, 0), ('d', 0, 1), ('u', 0, -1)] {
            let (nx, ny) = (x + dx, y + dy);
            let wall = nx == 10 && ny < 18;
            if (0..20).contains(&nx) && (0..20).contains(&ny) && !wall {
                emit(a, (nx, ny), 1);
            }
        }
    }
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "a heuristic takes its node by reference"
)]
fn manhattan(n: &(i32, i32)) -> u32 {
    (19 - n.0).unsigned_abs() + (19 - n.1).unsigned_abs()
}

fn replays(start: (i32, i32), actions: &[char]) -> (i32, i32) {
    actions.iter().fold(start, |(x, y), a| match a {
        'r' => (x + 1, y),
        'l' => (x - 1, y),
        'd' => (x, y + 1),
        _ => (x, y - 1),
    })
}

#[test]
fn finds_a_plan_that_replays() {
    let result = LazyGreedy::new(&Grid, (0, 0), vec![manhattan])
        .run()
        .unwrap();
    let plan = result.outcome.solution().unwrap();
    assert_eq!(replays((0, 0), &plan.actions), (19, 19));
    assert_eq!(plan.cost as usize, plan.actions.len());
    assert_eq!(plan.nodes.len(), plan.actions.len() + 1);
    // Deferred evaluation: the goal is estimated, not expanded.
    assert_eq!(result.stats.evaluated, result.stats.expanded + 1);
    assert!(result.stats.generated > result.stats.expanded);
}

#[test]
fn deterministic_and_stepping_changes_nothing() {
    let run = || {
        LazyGreedy::new(&Grid, (0, 0), vec![manhattan])
            .run()
            .unwrap()
    };
    let (a, b) = (run(), run());
    assert_eq!(a.outcome, b.outcome);
    assert_eq!(a.stats.counters(), b.stats.counters());
    let mut stepped = LazyGreedy::new(&Grid, (0, 0), vec![manhattan]);
    let mut steps = 0;
    while stepped.step(3).unwrap() == Status::Running {
        steps += 1;
    }
    let c = stepped.run().unwrap();
    assert!(steps > 5);
    assert_eq!(a.outcome, c.outcome);
    assert_eq!(a.stats.counters(), c.stats.counters());
}

#[test]
fn respects_limits_and_cancellation() {
    let limits = SearchLimits {
        max_expansions: Some(5),
        ..SearchLimits::default()
    };
    let result = LazyGreedy::new(&Grid, (0, 0), vec![|_: &(i32, i32)| 0u32])
        .limits(limits)
        .run()
        .unwrap();
    assert_eq!(
        result.outcome,
        Outcome::LimitReached {
            limit: Limit::Expansions,
            best: None,
        }
    );
    assert_eq!(result.stats.expanded, 5);

    let flag = Arc::new(AtomicBool::new(true));
    let limits = SearchLimits {
        cancel: Some(flag),
        ..SearchLimits::default()
    };
    let result = LazyGreedy::new(&Grid, (0, 0), vec![manhattan])
        .limits(limits)
        .run()
        .unwrap();
    assert_eq!(result.outcome, Outcome::Cancelled { best: None });
    assert_eq!(result.stats.evaluated, 0);

    let limits = SearchLimits {
        cost_bound: Some(10),
        ..SearchLimits::default()
    };
    let result = LazyGreedy::new(&Grid, (0, 0), vec![manhattan])
        .limits(limits)
        .run()
        .unwrap();
    assert_eq!(
        result.outcome,
        Outcome::LimitReached {
            limit: Limit::CostBound,
            best: None,
        }
    );

    let limits = SearchLimits {
        max_stored_nodes: Some(7),
        ..SearchLimits::default()
    };
    let result = LazyGreedy::new(&Grid, (0, 0), vec![|_: &(i32, i32)| 0u32])
        .limits(limits)
        .run()
        .unwrap();
    assert_eq!(
        result.outcome,
        Outcome::LimitReached {
            limit: Limit::StoredNodes,
            best: None,
        }
    );
    assert_eq!(result.stats.stored, 7);
}

#[test]
fn a_dead_start_is_exhausted_only_by_a_heuristic_that_promises_it() {
    let dead = |_: &(i32, i32)| Estimate::<u32>::DeadEnd;
    let result = LazyGreedy::new(&Grid, (0, 0), vec![Admissible(dead)])
        .run()
        .unwrap();
    assert_eq!(result.outcome, Outcome::Exhausted);
    assert_eq!(result.stats.dead_ends, 1);
    assert_eq!(result.stats.expanded, 0);
    // A closure promises nothing: its dead ends prove nothing.
    let result = LazyGreedy::new(&Grid, (0, 0), vec![dead]).run().unwrap();
    assert_eq!(result.outcome, Outcome::NoSolutionFound);
}

/// From 0: action 'c' climbs an endless chain 1, 2, 3 ...; action 's' goes
/// to -1 and then -2, the goal. Every estimate is the same.
struct Chain;

impl SearchSpace for Chain {
    type Node = i64;
    type Action = char;
    type Cost = u32;
    fn is_goal(&self, n: &i64) -> bool {
        *n == -2
    }
    fn successors<F: FnMut(char, i64, u32)>(&self, n: &i64, mut emit: F) {
        match *n {
            0 => {
                emit('c', 1, 1);
                emit('s', -1, 1);
            }
            -1 => emit('s', -2, 1),
            n => emit('c', n + 1, 1),
        }
    }
}

#[test]
fn equal_estimates_go_first_in_first_out() {
    let flat = |_: &i64| 1u32;
    let limits = SearchLimits {
        max_expansions: Some(100),
        ..SearchLimits::default()
    };
    let result = LazyGreedy::new(&Chain, 0, vec![flat])
        .limits(limits)
        .run()
        .unwrap();
    assert_eq!(result.outcome.solution().unwrap().actions, ['s', 's']);
    assert!(result.stats.expanded <= 4, "{:?}", result.stats);
}

/// A tree of branching 6 and unbounded depth: a node is its path; the goal
/// is depth 8 reached by action 0 each time.
struct Tree;

impl SearchSpace for Tree {
    type Node = Vec<u8>;
    type Action = u8;
    type Cost = u32;
    fn is_goal(&self, n: &Vec<u8>) -> bool {
        n.len() == 8 && n.iter().all(|&a| a == 0)
    }
    fn successors<F: FnMut(u8, Vec<u8>, u32)>(&self, n: &Vec<u8>, mut emit: F) {
        for a in (0..6).rev() {
            let mut child = n.clone();
            child.push(a);
            emit(a, child, 1);
        }
    }
}

/// Constant estimates, but prefers action 0.
struct PrefersZero {
    asked: u64,
}

impl Heuristic<Vec<u8>, u32> for PrefersZero {
    fn estimate(&mut self, _: &Vec<u8>) -> Estimate<u32> {
        Estimate::Value(1)
    }
    fn is_preferred(&mut self, _: &Vec<u8>, child: &Vec<u8>) -> bool {
        self.asked += 1;
        child.last() == Some(&0) && child.iter().all(|&a| a == 0)
    }
}

#[test]
fn the_preferred_queue_leads_the_way() {
    let limits = SearchLimits {
        max_expansions: Some(5_000),
        ..SearchLimits::default()
    };
    let mut with =
        LazyGreedy::new(&Tree, Vec::new(), vec![PrefersZero { asked: 0 }]).limits(limits.clone());
    let result = with.run().unwrap();
    assert_eq!(result.outcome.solution().unwrap().actions, [0; 8]);
    assert!(result.stats.expanded <= 20, "{:?}", result.stats);
    assert!(with.heuristics()[0].asked > 0);

    // In the space's order, the preferred child is queued last: the
    // preferred queue still leads, a few more removals later.
    let result = LazyGreedy::new(&Tree, Vec::new(), vec![PrefersZero { asked: 0 }])
        .preferred_first(false)
        .limits(limits.clone())
        .run()
        .unwrap();
    assert_eq!(result.outcome.solution().unwrap().actions, [0; 8]);
    assert!(result.stats.expanded <= 20, "{:?}", result.stats);

    let result = LazyGreedy::new(&Tree, Vec::new(), vec![PrefersZero { asked: 0 }])
        .preferred(false)
        .limits(limits)
        .run()
        .unwrap();
    assert_eq!(
        result.outcome,
        Outcome::LimitReached {
            limit: Limit::Expansions,
            best: None,
        }
    );
}

/// Records every transition it hears of and checks each estimate follows one.
#[derive(Default)]
struct Listener {
    last: Option<((i32, i32), (i32, i32))>,
    estimates: u64,
    wrong: u64,
}

impl Heuristic<(i32, i32), u32> for Listener {
    fn estimate(&mut self, n: &(i32, i32)) -> Estimate<u32> {
        self.estimates += 1;
        match self.last.take() {
            Some((parent, child)) => {
                let d = (parent.0 - child.0).abs() + (parent.1 - child.1).abs();
                if child != *n || d != 1 {
                    self.wrong += 1;
                }
            }
            None if *n != (0, 0) => self.wrong += 1,
            None => {}
        }
        Estimate::Value(manhattan(n))
    }
    fn notify_transition(&mut self, parent: &(i32, i32), child: &(i32, i32)) {
        self.last = Some((*parent, *child));
    }
}

#[test]
fn path_dependent_heuristics_hear_the_parent_first() {
    let mut search = LazyGreedy::new(&Grid, (0, 0), vec![Listener::default()]);
    search.run().unwrap();
    let h = &search.heuristics()[0];
    assert!(h.estimates > 10);
    assert_eq!(h.wrong, 0);
}

#[test]
fn alternation_survives_a_misleading_heuristic() {
    let misleading = |n: &(i32, i32)| (n.0 + n.1).unsigned_abs();
    let good = manhattan;
    let heuristics: Vec<Box<dyn Heuristic<(i32, i32), u32>>> =
        vec![Box::new(misleading), Box::new(good)];
    let result = LazyGreedy::new(&Grid, (0, 0), heuristics).run().unwrap();
    let plan = result.outcome.solution().unwrap();
    assert_eq!(replays((0, 0), &plan.actions), (19, 19));
}

/// 0 -> 1 costs 10, 0 -> 2 -> 1 costs 2; 1 -> 3 (goal) costs 1. The
/// estimate sends the search to 1 first.
struct Detour;

impl SearchSpace for Detour {
    type Node = u8;
    type Action = (u8, u8);
    type Cost = u32;
    fn is_goal(&self, n: &u8) -> bool {
        *n == 3
    }
    fn successors<F: FnMut((u8, u8), u8, u32)>(&self, n: &u8, mut emit: F) {
        let edges: &[(u8, u32)] = match n {
            0 => &[(1, 10), (2, 1)],
            2 => &[(1, 1)],
            1 => &[(3, 1)],
            _ => &[],
        };
        for &(m, c) in edges {
            emit((*n, m), m, c);
        }
    }
}

#[test]
fn reopening_finds_the_cheaper_path_only_when_asked() {
    // 1 looks like a dead end until reached from 2, so the cheaper path to
    // it is found after it was stored; 3 is the goal.
    let h = |n: &u8| match n {
        0 | 2 => 1u32,
        1 => 5,
        _ => 0,
    };
    let plain = LazyGreedy::new(&Detour, 0, vec![h]).run().unwrap();
    let reopening = LazyGreedy::new(&Detour, 0, vec![h])
        .reopen_closed(true)
        .run()
        .unwrap();
    assert_eq!(plain.outcome.solution().unwrap().cost, 11);
    assert_eq!(plain.stats.reopened, 0);
    // Both edges from 0 wait with h(0) = 1, 1 first (first in); 1 is then
    // expanded and 3 queued at h(1) = 5, behind 2 (h 1), which reopens 1;
    // the edge to 3 then takes 1's cheaper path.
    assert_eq!(reopening.outcome.solution().unwrap().cost, 3);
    assert_eq!(reopening.stats.reopened, 1);
}

#[test]
fn search_refuses_the_lazy_algorithm() {
    let error = Search::new(&Grid, (0, 0))
        .algorithm(Algorithm::LazyGreedy)
        .run()
        .unwrap_err();
    assert_eq!(error, SearchError::NeedsLazyGreedy);
}

#[test]
fn negative_costs_are_refused() {
    struct Bad;
    impl SearchSpace for Bad {
        type Node = u8;
        type Action = ();
        type Cost = i32;
        fn is_goal(&self, _: &u8) -> bool {
            false
        }
        fn successors<F: FnMut((), u8, i32)>(&self, n: &u8, mut emit: F) {
            emit((), n + 1, -1);
        }
    }
    let error = LazyGreedy::new(&Bad, 0, vec![|_: &u8| 0])
        .run()
        .unwrap_err();
    assert!(matches!(error, SearchError::InvalidCost { .. }), "{error}");
}

/// A trap and a way out: from the start, a binary tree of depth 12 where
/// every node is estimated 1 and none is the goal, and a chain of five
/// steps estimated 100 that ends at the goal (estimated 0).
struct Trap;

/// A node: `(branch, depth, index)`; branch 0 is the start, 1 the tree, 2
/// the chain.
type TrapNode = (u8, u8, u32);

impl SearchSpace for Trap {
    type Node = TrapNode;
    type Action = u8;
    type Cost = u32;
    fn is_goal(&self, n: &TrapNode) -> bool {
        *n == (2, 5, 0)
    }
    fn successors<F: FnMut(u8, TrapNode, u32)>(
        &self,
        &(branch, depth, index): &TrapNode,
        mut emit: F,
    ) {
        match branch {
            0 => {
                emit(0, (1, 1, 0), 1);
                emit(1, (2, 1, 0), 1);
            }
            1 if depth < 12 => {
                emit(0, (1, depth + 1, 2 * index), 1);
                emit(1, (1, depth + 1, 2 * index + 1), 1);
            }
            2 if depth < 5 => emit(0, (2, depth + 1, 0), 1),
            _ => {}
        }
    }
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "a heuristic takes its node by reference"
)]
fn trap_estimate(&(branch, depth, _): &TrapNode) -> u32 {
    match branch {
        1 => 1,
        2 if depth == 5 => 0,
        2 => 100,
        _ => 50,
    }
}

#[test]
fn type_based_exploration_finds_the_way_out_of_a_plateau() {
    let run = |types: bool| {
        let result = LazyGreedy::new(&Trap, (0, 0, 0), vec![trap_estimate])
            .type_based(types)
            .run()
            .unwrap();
        let plan = result.outcome.solution().expect("a plan").clone();
        (plan.actions.len(), result.stats.expanded)
    };
    let (greedy_steps, greedy) = run(false);
    let (typed_steps, typed) = run(true);
    assert_eq!((greedy_steps, typed_steps), (5, 5));
    // Greedy search empties the tree first (its 4,095 inner nodes); type-
    // based exploration takes the chain's types in turn with the tree's.
    assert!(greedy > 4_000, "{greedy}");
    assert!(typed < 200, "{typed}");
    assert_eq!(run(true), (typed_steps, typed), "the same on every run");
}

#[test]
fn type_based_exploration_keeps_plans_valid_and_runs_deterministic() {
    let run = || {
        let result = LazyGreedy::new(&Grid, (0, 0), vec![manhattan])
            .type_based(true)
            .run()
            .unwrap();
        let plan = result.outcome.solution().unwrap().clone();
        assert_eq!(replays((0, 0), &plan.actions), (19, 19));
        (plan.actions, result.stats.expanded, result.stats.evaluated)
    };
    assert_eq!(run(), run());
}

/// The grid with cells as vectors of 64 numbers (x, y, then padding): a
/// space whose nodes own heap memory, which makes its successors again
/// from an action when asked to (`remakes`).
struct WideGrid {
    remakes: bool,
}

impl WideGrid {
    fn step(n: &[i32], a: char) -> Option<Vec<i32>> {
        let (dx, dy) = match a {
            'r' => (1, 0),
            'l' => (-1, 0),
            'd' => (0, 1),
            _ => (0, -1),
        };
        let (nx, ny) = (n[0] + dx, n[1] + dy);
        let wall = nx == 10 && ny < 18;
        ((0..20).contains(&nx) && (0..20).contains(&ny) && !wall).then(|| {
            let mut next = n.to_vec();
            next[0] = nx;
            next[1] = ny;
            next
        })
    }
}

impl SearchSpace for WideGrid {
    type Node = Vec<i32>;
    type Action = char;
    type Cost = u32;
    fn is_goal(&self, n: &Vec<i32>) -> bool {
        n[..2] == [19, 19]
    }
    fn successors<F: FnMut(char, Vec<i32>, u32)>(&self, n: &Vec<i32>, mut emit: F) {
        for a in ['r', 'l', 'd', 'u'] {
            if let Some(next) = Self::step(n, a) {
                emit(a, next, 1);
            }
        }
    }
    fn node_heap_bytes(&self, n: &Vec<i32>) -> usize {
        n.capacity() * 4
    }
    fn makes_successors(&self) -> bool {
        self.remakes
    }
    fn successor(&self, n: &Vec<i32>, a: &char) -> Option<Vec<i32>> {
        Self::step(n, *a)
    }
}

#[test]
fn edges_without_nodes_search_alike_in_less_memory() {
    let h = |n: &Vec<i32>| (19 - n[0]).unsigned_abs() + (19 - n[1]).unsigned_abs();
    let start = vec![0; 64];
    for (preferred, reopen, type_based) in [
        (false, false, false),
        (true, true, false),
        (false, true, true),
    ] {
        let run = |remakes: bool| {
            let space = WideGrid { remakes };
            LazyGreedy::new(&space, start.clone(), vec![h])
                .preferred(preferred)
                .reopen_closed(reopen)
                .type_based(type_based)
                .run()
                .unwrap()
        };
        let (kept, remade) = (run(false), run(true));
        assert_eq!(kept.outcome, remade.outcome);
        assert_eq!(kept.stats.counters(), remade.stats.counters());
        assert_eq!(kept.stats.max_open, remade.stats.max_open);
        assert!(
            remade.stats.estimated_bytes < kept.stats.estimated_bytes,
            "{} against {}",
            remade.stats.estimated_bytes,
            kept.stats.estimated_bytes
        );
    }
}

#[test]
fn a_space_that_does_not_make_what_it_emitted_is_an_error() {
    /// Says it makes successors, and makes none.
    struct Forgetful;
    impl SearchSpace for Forgetful {
        type Node = u8;
        type Action = ();
        type Cost = u32;
        fn is_goal(&self, n: &u8) -> bool {
            *n == 3
        }
        fn successors<F: FnMut((), u8, u32)>(&self, n: &u8, mut emit: F) {
            emit((), n + 1, 1);
        }
        fn makes_successors(&self) -> bool {
            true
        }
    }
    let error = LazyGreedy::new(&Forgetful, 0, vec![|_: &u8| 0_u32])
        .run()
        .unwrap_err();
    assert_eq!(
        error,
        SearchError::SuccessorNotMade {
            node: "0".to_owned()
        }
    );
}

/// Prefers moving right, wherever that leads.
struct Rightward;

impl Heuristic<(i32, i32), u32> for Rightward {
    fn estimate(&mut self, n: &(i32, i32)) -> Estimate<u32> {
        Estimate::Value(manhattan(n))
    }
    fn is_preferred(&mut self, parent: &(i32, i32), child: &(i32, i32)) -> bool {
        child.0 > parent.0
    }
}

/// Prefers moving left, and at the left edge the way back right.
struct Leftward;
impl Heuristic<(i32, i32), u32> for Leftward {
    fn estimate(&mut self, n: &(i32, i32)) -> Estimate<u32> {
        Estimate::Value(manhattan(n))
    }
    fn is_preferred(&mut self, parent: &(i32, i32), child: &(i32, i32)) -> bool {
        child.0 < parent.0 || (parent.0 == 0 && child.0 == 1)
    }
}

#[test]
fn helpful_actions_pruning_is_no_proof_of_unsolvability() {
    // Along the top row, only the rightward move is kept; the wall stops
    // it at x = 9, where nothing is preferred and every move is kept.
    let pruned = LazyGreedy::new(&Grid, (0, 0), vec![Rightward])
        .helpful_only(true)
        .run()
        .unwrap();
    let plan = pruned.outcome.solution().expect("a plan around the wall");
    assert_eq!(plan.nodes.last(), Some(&(19, 19)));
    assert_eq!(plan.actions[..9], ['r'; 9]);

    // Preferred: leftward moves, and at the left edge the way back right,
    // so the search walks to (0, 0) and back onto a node it has seen.
    let lost = LazyGreedy::new(&Grid, (5, 0), vec![Leftward])
        .helpful_only(true)
        .run()
        .unwrap();
    assert!(
        matches!(lost.outcome, Outcome::NoSolutionFound),
        "{:?}",
        lost.outcome
    );
    let found = LazyGreedy::new(&Grid, (5, 0), vec![Leftward])
        .run()
        .unwrap();
    assert!(found.outcome.solution().is_some());
}

/// From 0 toward 5 by +1, with an action that stays put.
struct Stay;

impl SearchSpace for Stay {
    type Node = i32;
    type Action = char;
    type Cost = u32;
    fn is_goal(&self, n: &i32) -> bool {
        *n == 5
    }
    fn successors<F: FnMut(char, i32, u32)>(&self, n: &i32, mut emit: F) {
        emit('s', *n, 1);
        emit('+', n + 1, 1);
    }
}

/// Prefers staying put.
struct StayPreferred;

impl Heuristic<i32, u32> for StayPreferred {
    fn estimate(&mut self, n: &i32) -> Estimate<u32> {
        Estimate::Value(u32::try_from(5 - n).unwrap_or(0))
    }
    fn is_preferred(&mut self, parent: &i32, child: &i32) -> bool {
        parent == child
    }
}

#[test]
fn a_preferred_successor_that_is_its_parent_is_no_way_forward() {
    // Were staying put helpful, pruning would keep only it and run dry.
    let result = LazyGreedy::new(&Stay, 0, vec![StayPreferred])
        .helpful_only(true)
        .run()
        .unwrap();
    assert_eq!(result.outcome.solution().unwrap().actions, ['+'; 5]);
}
