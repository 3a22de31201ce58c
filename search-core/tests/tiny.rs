//! The tiny-problem engine against the general engine's A*: on random
//! graphs with random (inconsistent, dead-end-reporting) heuristics and
//! expansion limits, the same outcome, plan and counters.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use proptest::prelude::*;
use search_core::{
    tiny_astar, Estimate, Outcome, Search, SearchLimits, SearchSpace, Statistics, Status,
    TinyAstar, TinyWorkspace, TINY_MAX_NODES,
};

/// A directed graph: `edges[n]` lists `(action, target, cost)`.
#[derive(Debug)]
struct Graph {
    edges: Vec<Vec<(u16, u16, u32)>>,
    goals: Vec<bool>,
}

impl SearchSpace for Graph {
    type Node = u16;
    type Action = u16;
    type Cost = u32;

    fn is_goal(&self, n: &u16) -> bool {
        self.goals[*n as usize]
    }

    fn successors<F: FnMut(u16, u16, u32)>(&self, n: &u16, mut emit: F) {
        for &(action, target, cost) in &self.edges[*n as usize] {
            emit(action, target, cost);
        }
    }
}

fn graph(nodes: u16) -> impl Strategy<Value = (Graph, Vec<Option<u32>>)> {
    let edges = prop::collection::vec(
        prop::collection::vec((0..nodes, 0..6_u32), 0..4),
        usize::from(nodes),
    );
    let goals = prop::collection::vec(prop::bool::weighted(0.15), usize::from(nodes));
    let h = prop::collection::vec(prop::option::weighted(0.9, 0..8_u32), usize::from(nodes));
    (edges, goals, h).prop_map(|(edges, goals, h)| {
        let edges = edges
            .into_iter()
            .map(|out| {
                out.into_iter()
                    .zip(0_u16..)
                    .map(|((t, c), i)| (i, t, c))
                    .collect()
            })
            .collect();
        (Graph { edges, goals }, h)
    })
}

/// The counters both engines fill in the same way.
fn counters(stats: &Statistics) -> ([u64; 7], usize) {
    (stats.counters(), stats.max_open)
}

fn table(h: &[Option<u32>]) -> impl FnMut(&u16) -> Estimate<u32> + '_ {
    |n: &u16| h[*n as usize].map_or(Estimate::DeadEnd, Estimate::Value)
}

proptest! {
    #[test]
    fn tiny_matches_general_astar(
        (g, h) in graph(24),
        max_expansions in prop::option::of(0..30_u64),
    ) {
        let limits = SearchLimits { max_expansions, ..SearchLimits::default() };
        let general = Search::new(&g, 0).heuristic(table(&h)).limits(limits.clone()).run().unwrap();
        let mut ws = TinyWorkspace::default();
        // Twice, so the second run uses kept buffers.
        for _ in 0..2 {
            let tiny = tiny_astar(&g, 0, &mut table(&h), &limits, &mut ws).unwrap();
            prop_assert_eq!(&tiny.outcome, &general.outcome);
            prop_assert_eq!(counters(&tiny.stats), counters(&general.stats));
        }
    }

    #[test]
    fn tiny_stepped_in_slices_matches_one_run(
        (g, h) in graph(24),
        slices in prop::collection::vec(1..5_u64, 1..40),
    ) {
        let limits = SearchLimits::default();
        let mut ws = TinyWorkspace::default();
        let whole = tiny_astar(&g, 0, &mut table(&h), &limits, &mut ws).unwrap();
        let mut heuristic = table(&h);
        let mut search = TinyAstar::new(&g, 0, &mut heuristic, &limits, &mut ws).unwrap();
        let mut finished = false;
        for &slice in slices.iter().cycle().take(1000) {
            let before = search.statistics().expanded;
            let status = search.step(slice).unwrap();
            prop_assert!(search.statistics().expanded - before <= slice);
            if status == Status::Finished {
                finished = true;
                break;
            }
        }
        prop_assert!(finished);
        let stepped = search.into_result().unwrap();
        prop_assert_eq!(&stepped.outcome, &whole.outcome);
        prop_assert_eq!(counters(&stepped.stats), counters(&whole.stats));
    }
}

#[test]
fn a_raised_cancel_flag_cancels() {
    let g = Graph {
        edges: vec![vec![(0, 1, 1)], vec![]],
        goals: vec![false, true],
    };
    let limits = SearchLimits {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..SearchLimits::default()
    };
    let result = tiny_astar(
        &g,
        0,
        &mut |_: &u16| 0_u32,
        &limits,
        &mut TinyWorkspace::default(),
    )
    .unwrap();
    assert_eq!(result.outcome, Outcome::Cancelled { best: None });
}

#[test]
fn large_problems_and_overflows_are_handed_over() {
    /// A line longer than a tiny search stores.
    struct Line;
    impl SearchSpace for Line {
        type Node = u32;
        type Action = ();
        type Cost = u32;
        fn is_goal(&self, n: &u32) -> bool {
            *n == 10 * u32::try_from(TINY_MAX_NODES).unwrap()
        }
        fn successors<F: FnMut((), u32, u32)>(&self, n: &u32, mut emit: F) {
            emit((), n + 1, 1);
        }
    }
    let limits = SearchLimits::default();
    let mut ws = TinyWorkspace::default();
    assert!(tiny_astar(&Line, 0, &mut |_: &u32| 0_u32, &limits, &mut ws).is_none());
    // The general engine reports an overflowing priority; tiny hands it over.
    let g = Graph {
        edges: vec![vec![(0, 1, 1)], vec![]],
        goals: vec![false, true],
    };
    assert!(tiny_astar(
        &g,
        0,
        &mut |_: &u16| u32::MAX,
        &limits,
        &mut TinyWorkspace::default()
    )
    .is_none());
    let time = SearchLimits {
        max_time: Some(std::time::Duration::from_secs(1)),
        ..SearchLimits::default()
    };
    assert!(tiny_astar(
        &g,
        0,
        &mut |_: &u16| 0_u32,
        &time,
        &mut TinyWorkspace::default()
    )
    .is_none());
}
