//! Every engine tells its heuristic what it may hold under
//! `max_memory_bytes`, and ends at the memory limit when the heuristic's
//! tables would not fit: a heuristic that builds large tables on first use
//! (the landmark count's labels) cannot pass the limit unseen.

use std::cell::Cell;
use std::rc::Rc;

use search_core::{
    Algorithm, Estimate, Heuristic, IdaStar, LazyGreedy, Limit, Search, SearchLimits, SearchSpace,
};

/// A line from 0 to `goal`.
struct Line {
    goal: u64,
}

impl SearchSpace for Line {
    type Node = u64;
    type Action = ();
    type Cost = u64;

    fn is_goal(&self, n: &u64) -> bool {
        *n == self.goal
    }

    fn successors<F: FnMut((), u64, u64)>(&self, n: &u64, mut emit: F) {
        emit((), n + 1, 1);
    }
}

/// Builds a table of `wants` bytes at its first estimate (or, past its
/// budget, stops and reports what it wanted: the same bytes); remembers the
/// first budget it was told.
struct Hoarder {
    wants: usize,
    held: usize,
    told: Rc<Cell<Option<usize>>>,
}

impl Heuristic<u64, u64> for Hoarder {
    fn estimate(&mut self, _: &u64) -> Estimate<u64> {
        self.held = self.wants;
        Estimate::Value(0)
    }
    fn memory_bytes(&self) -> usize {
        self.held
    }
    fn set_memory_budget(&mut self, bytes: Option<usize>) {
        self.told.set(self.told.get().or(bytes));
    }
}

const LIMIT: usize = 1 << 20;

fn limits() -> SearchLimits<u64> {
    SearchLimits {
        max_memory_bytes: Some(LIMIT),
        ..SearchLimits::default()
    }
}

/// Runs every engine with a heuristic wanting `wants` bytes; returns each
/// engine's limit (if one ended it) and the first budget it was told.
fn every_engine(wants: usize) -> Vec<(&'static str, Option<Limit>, Option<usize>)> {
    let line = Line { goal: 20 };
    let told = Rc::new(Cell::new(None));
    let hoarder = || {
        told.set(None);
        Hoarder {
            wants,
            held: 0,
            told: Rc::clone(&told),
        }
    };
    let mut ends = Vec::new();
    for (name, algorithm) in [
        ("A*", Algorithm::AStar),
        ("greedy", Algorithm::GreedyBestFirst),
        ("weighted A*", Algorithm::WeightedAStar { weight: 2.0 }),
    ] {
        let result = Search::new(&line, 0)
            .algorithm(algorithm)
            .heuristic(hoarder())
            .limits(limits())
            .run();
        ends.push((name, result.unwrap().outcome.limit(), told.get()));
    }
    let result = LazyGreedy::new(&line, 0, vec![hoarder()])
        .limits(limits())
        .run();
    ends.push(("lazy greedy", result.unwrap().outcome.limit(), told.get()));
    let result = IdaStar::new(&line, 0, hoarder()).limits(limits()).run();
    ends.push(("IDA*", result.unwrap().outcome.limit(), told.get()));
    ends
}

#[test]
fn a_heuristic_too_large_for_the_limit_ends_every_search_at_it() {
    for (engine, limit, told) in every_engine(2 * LIMIT) {
        assert_eq!(limit, Some(Limit::Memory), "{engine}");
        assert!(
            told.is_some_and(|b| b > 0 && b <= LIMIT),
            "{engine}: {told:?}"
        );
    }
}

#[test]
fn a_heuristic_within_the_limit_lets_every_search_finish() {
    for (engine, limit, told) in every_engine(LIMIT / 4) {
        assert_eq!(limit, None, "{engine}");
        assert!(
            told.is_some_and(|b| b > LIMIT / 4 && b <= LIMIT),
            "{engine}: {told:?}"
        );
    }
}

/// A tree of branching 8: every node new, so the tables only grow.
struct Tree;

impl SearchSpace for Tree {
    type Node = u64;
    type Action = ();
    type Cost = u64;

    fn is_goal(&self, _: &u64) -> bool {
        false
    }

    fn successors<F: FnMut((), u64, u64)>(&self, n: &u64, mut emit: F) {
        for k in 1..=8 {
            emit((), n.wrapping_mul(8).wrapping_add(k), 1);
        }
    }
}

/// Blind, for the tree.
struct Zero;

impl Heuristic<u64, u64> for Zero {
    fn estimate(&mut self, _: &u64) -> Estimate<u64> {
        Estimate::Value(0)
    }
}

/// The memory limit counts what the next step's growth would allocate: a
/// search ends with its estimate at or below the limit, never one table
/// doubling past it (the system, not the search, would then end the run).
#[test]
fn searches_stop_before_a_table_doubles_past_the_limit() {
    let result = LazyGreedy::new(&Tree, 0, vec![Zero])
        .limits(limits())
        .run()
        .unwrap();
    assert_eq!(result.outcome.limit(), Some(Limit::Memory));
    let held = result.stats.estimated_bytes;
    assert!(
        held <= LIMIT,
        "lazy greedy held {held} bytes at a limit of {LIMIT}"
    );
    assert!(held > LIMIT / 8, "it stopped early: {held} of {LIMIT}");
    let result = Search::new(&Tree, 0)
        .algorithm(Algorithm::GreedyBestFirst)
        .heuristic(Zero)
        .limits(limits())
        .run()
        .unwrap();
    assert_eq!(result.outcome.limit(), Some(Limit::Memory));
    assert!(result.stats.estimated_bytes <= LIMIT);
}
