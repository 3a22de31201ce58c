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
    graph_of(nodes, 0.15, 0..4)
}

/// A random graph of `nodes` nodes, each a goal with probability `goals`
/// and with `out` edges of cost 0 to 5, and a random heuristic table.
fn graph_of(
    nodes: u16,
    goals: f64,
    out: std::ops::Range<usize>,
) -> impl Strategy<Value = (Graph, Vec<Option<u32>>)> {
    let edges = prop::collection::vec(
        prop::collection::vec((0..nodes, 0..6_u32), out),
        usize::from(nodes),
    );
    let goals = prop::collection::vec(prop::bool::weighted(goals), usize::from(nodes));
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Graphs larger than a tiny search: where it gives up, the general
    /// engine goes on from its nodes and ends as if it had searched alone.
    #[test]
    fn the_general_engine_takes_over_where_tiny_stops(
        (g, h) in graph_of(6000, 0.0004, 1..5),
        max_expansions in prop::option::weighted(0.3, 2000..6000_u64),
    ) {
        let limits = SearchLimits { max_expansions, ..SearchLimits::default() };
        let general = Search::new(&g, 0).heuristic(table(&h)).limits(limits.clone()).run().unwrap();
        let mut ws = TinyWorkspace::default();
        let mut heuristic = table(&h);
        let result = if let Some(result) = tiny_astar(&g, 0, &mut heuristic, &limits, &mut ws) {
            prop_assert!(ws.take_handover().is_none());
            result
        } else {
            let handover = ws.take_handover().unwrap();
            prop_assert!(handover.stored() >= TINY_MAX_NODES);
            prop_assert!(ws.take_handover().is_none());
            Search::new(&g, 0)
                .heuristic(heuristic)
                .limits(limits)
                .take_over(handover)
                .run()
                .unwrap()
        };
        prop_assert_eq!(&result.outcome, &general.outcome);
        prop_assert_eq!(counters(&result.stats), counters(&general.stats));
    }
}

#[test]
fn a_handover_from_elsewhere_is_dropped() {
    // A handover of a search from another start: the search starts afresh.
    let line = Graph {
        edges: (0..3000_u16)
            .map(|n| vec![(0, n + 1, 1)])
            .chain([vec![]])
            .collect(),
        goals: (0..=3000).map(|n| n == 3000).collect(),
    };
    let mut ws = TinyWorkspace::default();
    let limits = SearchLimits::default();
    assert!(tiny_astar(&line, 5, &mut |_: &u16| 0, &limits, &mut ws).is_none());
    let handover = ws.take_handover().unwrap();
    let result = Search::new(&line, 0).take_over(handover).run().unwrap();
    assert_eq!(result.outcome.solution().unwrap().cost, 3000);
    assert_eq!(result.stats.expanded, 3001);
    // Nor does a search that stopped for an overflowing priority leave one.
    assert!(tiny_astar(&line, 0, &mut |_: &u16| u32::MAX, &limits, &mut ws).is_none());
    assert!(ws.take_handover().is_none());
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
