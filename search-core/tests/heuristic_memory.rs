//! A heuristic's own tables count toward the memory limit
//! (`Heuristic::memory_bytes`), in the eager engine and in lazy search.

use search_core::{
    Algorithm, Estimate, Heuristic, LazyGreedy, Limit, Outcome, Search, SearchLimits, SearchSpace,
};

/// An endless line: from `n` to `n + 1`.
struct Line;

impl SearchSpace for Line {
    type Node = u64;
    type Action = ();
    type Cost = u32;
    fn is_goal(&self, _: &u64) -> bool {
        false
    }
    fn successors<F: FnMut((), u64, u32)>(&self, n: &u64, mut emit: F) {
        emit((), n + 1, 1);
    }
}

/// Keeps a kilobyte per node it estimates, as a path-dependent heuristic
/// keeps its table per state (each in its own allocation, so it grows
/// smoothly: the engine reads the heuristic's memory at each check and
/// cannot foresee a table doubling).
#[derive(Default)]
struct Hoarder {
    kept: Vec<Vec<u8>>,
}

impl Heuristic<u64, u32> for Hoarder {
    fn estimate(&mut self, _: &u64) -> Estimate<u32> {
        self.kept.push(vec![0; 1024]);
        Estimate::Value(1)
    }
    fn memory_bytes(&self) -> usize {
        self.kept.len() * 1024
    }
}

const LIMIT: usize = 1 << 20;

fn limits() -> SearchLimits<u32> {
    SearchLimits {
        max_memory_bytes: Some(LIMIT),
        ..SearchLimits::default()
    }
}

#[test]
fn the_eager_engine_counts_the_heuristic() {
    let mut search = Search::new(&Line, 0)
        .algorithm(Algorithm::GreedyBestFirst)
        .heuristic(Hoarder::default())
        .limits(limits());
    let result = search.run().unwrap();
    assert_eq!(
        result.outcome,
        Outcome::LimitReached {
            limit: Limit::Memory,
            best: None,
        }
    );
    let kept = search.heuristic_ref().memory_bytes();
    assert!(kept <= LIMIT, "the heuristic holds {kept} bytes");
    assert!(kept > LIMIT / 2, "the search stopped early: {kept} bytes");
    assert!(result.stats.estimated_bytes >= kept);
    // At most the last expansion's child past the limit.
    assert!(result.stats.estimated_bytes <= LIMIT + 1024);
}

#[test]
fn lazy_search_counts_the_heuristics() {
    let mut search = LazyGreedy::new(&Line, 0, vec![Hoarder::default()]).limits(limits());
    let result = search.run().unwrap();
    assert_eq!(
        result.outcome,
        Outcome::LimitReached {
            limit: Limit::Memory,
            best: None,
        }
    );
    let kept = search.heuristics()[0].memory_bytes();
    assert!(kept > LIMIT / 2, "the search stopped early: {kept} bytes");
    assert!(result.stats.estimated_bytes >= kept);
    assert!(result.stats.estimated_bytes <= LIMIT + 1024);
}
