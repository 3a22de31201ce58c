//! What the eager engine keeps per node: no action (a plan's actions are
//! found again from each parent's successors), and no estimate where the
//! heuristic is cheap to ask again. Neither may change a search: the same
//! plans and counters, in fewer bytes.

use std::cell::Cell;

use proptest::prelude::*;
use search_core::{Algorithm, Estimate, Heuristic, Search, SearchError, SearchSpace};

/// A directed graph: `edges[n]` lists `(target, cost)`; an edge's action is
/// its number in `n`'s list. Parallel edges of other costs are common.
#[derive(Debug)]
struct Graph {
    edges: Vec<Vec<(u8, u32)>>,
    goal: u8,
}

impl SearchSpace for Graph {
    type Node = u8;
    type Action = usize;
    type Cost = u32;

    fn is_goal(&self, n: &u8) -> bool {
        *n == self.goal
    }

    fn successors<F: FnMut(usize, u8, u32)>(&self, n: &u8, mut emit: F) {
        for (action, &(target, cost)) in self.edges[usize::from(*n)].iter().enumerate() {
            emit(action, target, cost);
        }
    }
}

/// A table of estimates (inconsistent at will), cheap or not as told.
struct Table<'t> {
    h: &'t [u32],
    cheap: bool,
}

impl Heuristic<u8, u32> for Table<'_> {
    fn estimate(&mut self, n: &u8) -> Estimate<u32> {
        Estimate::Value(self.h[usize::from(*n)])
    }
    fn is_cheap(&self) -> bool {
        self.cheap
    }
}

fn graph() -> impl Strategy<Value = (Graph, Vec<u32>)> {
    let nodes = 24_u8;
    let edges = prop::collection::vec(
        prop::collection::vec((0..nodes, 0..5_u32), 0..5),
        usize::from(nodes),
    );
    let h = prop::collection::vec(0..6_u32, usize::from(nodes));
    (edges, h, 1..nodes).prop_map(|(edges, h, goal)| (Graph { edges, goal }, h))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn a_cheap_heuristic_kept_or_asked_again_searches_alike((graph, h) in graph()) {
        for algorithm in [
            Algorithm::AStar,
            Algorithm::GreedyBestFirst,
            Algorithm::WeightedAStar { weight: 2.0 },
        ] {
            let run = |cheap| {
                Search::new(&graph, 0)
                    .algorithm(algorithm)
                    .heuristic(Table { h: &h, cheap })
                    .run()
                    .unwrap()
            };
            let (asked, kept) = (run(true), run(false));
            prop_assert_eq!(&asked.outcome, &kept.outcome);
            let mut counters = asked.stats.clone();
            counters.estimated_bytes = kept.stats.estimated_bytes;
            counters.elapsed = kept.stats.elapsed;
            prop_assert_eq!(&counters, &kept.stats);
            prop_assert!(asked.stats.estimated_bytes < kept.stats.estimated_bytes);
            let Some(plan) = asked.outcome.solution() else {
                continue;
            };
            // Each step is the first of the cheapest edges between its two
            // nodes (the one the search went by), and the steps add up to
            // the plan's cost.
            let mut cost = 0;
            for (step, pair) in plan.actions.iter().zip(plan.nodes.windows(2)) {
                let out = &graph.edges[usize::from(pair[0])];
                let to_next = |e: &&(u8, u32)| e.0 == pair[1];
                let cheapest = out.iter().filter(to_next).map(|e| e.1).min();
                let first = out.iter().position(|e| e.0 == pair[1] && Some(e.1) == cheapest);
                prop_assert_eq!(Some(*step), first);
                cost += out[*step].1;
            }
            prop_assert_eq!(cost, plan.cost);
        }
    }
}

/// 0 -> 1 -> 2 (the goal), but node 1 gives its edge to the goal only the
/// first time it is asked.
struct Forgetful {
    asked: Cell<u32>,
}

impl SearchSpace for Forgetful {
    type Node = u8;
    type Action = char;
    type Cost = u32;

    fn is_goal(&self, n: &u8) -> bool {
        *n == 2
    }

    fn successors<F: FnMut(char, u8, u32)>(&self, n: &u8, mut emit: F) {
        match n {
            0 => emit('a', 1, 1),
            1 => {
                self.asked.set(self.asked.get() + 1);
                if self.asked.get() == 1 {
                    emit('b', 2, 1);
                }
            }
            _ => {}
        }
    }
}

#[test]
fn a_space_whose_successors_change_is_an_error_naming_the_nodes() {
    let space = Forgetful {
        asked: Cell::new(0),
    };
    let error = Search::new(&space, 0).run().unwrap_err();
    assert_eq!(
        error,
        SearchError::SuccessorsChanged {
            node: "1".to_owned(),
            successor: "2".to_owned(),
        }
    );
    assert!(error.to_string().contains("same successors every time"));
}

#[test]
fn a_trace_shows_a_cheap_heuristics_estimates() {
    let graph = Graph {
        edges: vec![vec![(1, 1), (1, 3)], vec![(2, 1)], vec![]],
        goal: 2,
    };
    let h = [2, 1, 0];
    let mut search = Search::new(&graph, 0)
        .heuristic(Table { h: &h, cheap: true })
        .record_trace(true);
    let result = search.run().unwrap();
    assert_eq!(result.outcome.solution().unwrap().actions, [0, 0]);
    let trace = search.trace().unwrap();
    let estimates: Vec<_> = trace.nodes().iter().map(|n| n.h).collect();
    assert_eq!(estimates, [Some(2), Some(1), Some(0)]);
    let actions: Vec<_> = trace.nodes().iter().map(|n| n.action).collect();
    assert_eq!(actions, [None, Some(0), Some(0)]);
}
