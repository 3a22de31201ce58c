//! Greedy best-first search on plateaus: ties on `h` go first in, first out,
//! so an action that repeats without end cannot hide a short plan.

use std::cell::RefCell;

use search_core::{
    greedy, Algorithm, Blind, Estimate, FloatCost, Heuristic, OpenListKind, Search, SearchLimits,
    SearchSpace, Status,
};

/// A counter that can be raised forever beside a two-step plan: `count`
/// raises the counter, `a` then `b` reach the goal. Every `count` is
/// emitted first, so a search that prefers deep nodes on ties follows it.
struct Counter;

/// `(counter, steps of the plan taken)`.
type Node = (u32, u8);

impl SearchSpace for Counter {
    type Node = Node;
    type Action = &'static str;
    type Cost = u32;
    fn is_goal(&self, n: &Node) -> bool {
        n.1 == 2
    }
    fn successors<F: FnMut(&'static str, Node, u32)>(&self, &(count, step): &Node, mut emit: F) {
        emit("count", (count + 1, step), 1);
        if step < 2 {
            emit(if step == 0 { "a" } else { "b" }, (count, step + 1), 1);
        }
    }
}

/// Constant on the plateau (every node that is not a goal): `plateau`
/// there, `goal` (not above it) at a goal.
#[derive(Clone, Copy)]
struct Flat {
    plateau: u32,
    goal: u32,
}

impl Heuristic<Node, u32> for Flat {
    fn estimate(&mut self, n: &Node) -> Estimate<u32> {
        Estimate::Value(if Counter.is_goal(n) {
            self.goal
        } else {
            self.plateau
        })
    }
}

/// A small expansion budget: breadth-first over the plateau needs 6.
fn limits() -> SearchLimits<u32> {
    SearchLimits {
        max_expansions: Some(20),
        ..SearchLimits::default()
    }
}

fn kinds() -> [OpenListKind; 4] {
    [
        OpenListKind::Auto,
        OpenListKind::BinaryHeap,
        OpenListKind::Buckets,
        OpenListKind::DecreaseKey,
    ]
}

#[test]
fn greedy_returns_the_short_plan_beside_an_unbounded_counter() {
    let mut flats = vec![];
    for plateau in 0..4 {
        for goal in 0..=plateau {
            flats.push(Flat { plateau, goal });
        }
    }
    for flat in flats {
        for kind in kinds() {
            let result = Search::new(&Counter, (0, 0))
                .algorithm(Algorithm::GreedyBestFirst)
                .open_list(kind)
                .limits(limits())
                .heuristic(flat)
                .run()
                .unwrap();
            let what = format!("plateau {}, goal {}, {kind:?}", flat.plateau, flat.goal);
            let plan = result.outcome.solution().expect(&what);
            assert_eq!(plan.actions, ["a", "b"], "{what}");
            assert_eq!(plan.cost, 2, "{what}");
            assert!(result.stats.expanded <= 10, "{what}: {:?}", result.stats);
        }
    }
    // The one-call function and the blind heuristic, with no limit at all.
    let plan = greedy(&Counter, (0, 0), Blind).unwrap().outcome;
    assert_eq!(plan.solution().unwrap().actions, ["a", "b"]);
}

/// A few nodes with their edges and estimates; records the order in which
/// nodes are expanded.
struct Explicit {
    edges: Vec<Vec<usize>>,
    h: Vec<u32>,
    goal: usize,
    expanded: RefCell<Vec<usize>>,
}

impl SearchSpace for Explicit {
    type Node = usize;
    type Action = usize;
    type Cost = u32;
    fn is_goal(&self, n: &usize) -> bool {
        *n == self.goal
    }
    fn successors<F: FnMut(usize, usize, u32)>(&self, n: &usize, mut emit: F) {
        self.expanded.borrow_mut().push(*n);
        for &child in &self.edges[*n] {
            emit(child, child, 1);
        }
    }
}

impl Explicit {
    /// The nodes `search` expands until it ends, in order: the nodes whose
    /// successors it asked for before it writes the plan (which asks again
    /// for the plan's nodes).
    fn expansions<H: Heuristic<usize, u32>>(&self, search: &mut Search<'_, Self, H>) -> Vec<usize> {
        self.expanded.borrow_mut().clear();
        while search.step(1_000).unwrap() == Status::Running {}
        self.expanded.take()
    }
}

#[test]
fn ties_on_h_go_first_in_first_out() {
    // 0 -> 1, 2, 3; 1 -> 4; 2 -> 5; 3 -> 6; 6 -> 7 (the goal). Node 2 is
    // worse (h 6) than its siblings (h 5), so it waits.
    let space = Explicit {
        edges: vec![
            vec![1, 2, 3],
            vec![4],
            vec![5],
            vec![6],
            vec![],
            vec![],
            vec![7],
            vec![],
        ],
        h: vec![9, 5, 6, 5, 5, 5, 5, 0],
        goal: 7,
        expanded: RefCell::new(Vec::new()),
    };
    let h = |n: &usize| space.h[*n];
    let unlimited = SearchLimits::default();
    let bounded = SearchLimits {
        max_memory_bytes: Some(1 << 30),
        ..SearchLimits::default()
    };
    for kind in kinds() {
        for limits in [unlimited.clone(), bounded.clone()] {
            let mut search = Search::new(&space, 0)
                .algorithm(Algorithm::GreedyBestFirst)
                .open_list(kind)
                .limits(limits)
                .heuristic(h);
            let expanded = space.expansions(&mut search);
            let result = search.run().unwrap();
            assert_eq!(result.outcome.solution().unwrap().actions, [3, 6, 7]);
            // First in, first out among h 5: 1 and 3 (pushed by 0) before
            // 4 and 6 (pushed later); a deeper-first order would be 1, 4, 3.
            // The goal is expanded, not recorded (the search stops there).
            assert_eq!(expanded, [0, 1, 3, 4, 6], "{kind:?}");
        }
    }
}

#[test]
fn float_costs_tie_first_in_first_out_too() {
    struct FloatCounter;
    impl SearchSpace for FloatCounter {
        type Node = Node;
        type Action = &'static str;
        type Cost = FloatCost;
        fn is_goal(&self, n: &Node) -> bool {
            Counter.is_goal(n)
        }
        fn successors<F: FnMut(&'static str, Node, FloatCost)>(&self, n: &Node, mut emit: F) {
            Counter.successors(n, |a, m, c| emit(a, m, FloatCost::from(f64::from(c) / 2.0)));
        }
    }
    let result = Search::new(&FloatCounter, (0, 0))
        .algorithm(Algorithm::GreedyBestFirst)
        .limits(SearchLimits {
            max_expansions: Some(20),
            ..SearchLimits::default()
        })
        .heuristic(Blind)
        .run()
        .unwrap();
    let plan = result.outcome.solution().unwrap();
    assert_eq!(plan.actions, ["a", "b"]);
    assert_eq!(plan.cost, FloatCost::from(1.0));
}

#[test]
fn astar_still_breaks_ties_toward_the_deeper_node() {
    // 0 -> 1, 2; 1 -> 3; 3 -> 4 (the goal); 2 is a dead end. Every node
    // on the open list has f = 3.
    let space = Explicit {
        edges: vec![vec![1, 2], vec![3], vec![], vec![4], vec![]],
        h: vec![3, 2, 2, 1, 0],
        goal: 4,
        expanded: RefCell::new(Vec::new()),
    };
    let h = |n: &usize| space.h[*n];
    for kind in kinds() {
        let mut search = Search::new(&space, 0)
            .algorithm(Algorithm::AStar)
            .open_list(kind)
            .heuristic(h);
        let expanded = space.expansions(&mut search);
        let result = search.run().unwrap();
        assert_eq!(result.outcome.solution().unwrap().cost, 3);
        // 3 (g 2) was pushed after 2 (g 1) but is deeper, so it goes first,
        // and so does the goal (g 3): 2 is never expanded.
        assert_eq!(expanded, [0, 1, 3], "{kind:?}");
    }
}
