//! The open list's memory follows the entries it holds (issue 13: the bucket
//! queue kept a bucket per depth at every priority it had seen, about
//! 16 B x n^2 for a heuristic that grows along the path).
//!
//! One test in this binary: the allocator counts the whole process.

use peak_alloc::PeakAlloc;
use search_core::{Algorithm, Limit, Outcome, Search, SearchLimits, SearchSpace};

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

/// The half-line 0, 1, 2, ...: one step right at cost 1, the goal at `goal`.
struct Line {
    goal: u32,
}

impl SearchSpace for Line {
    type Node = u32;
    type Action = ();
    type Cost = u32;

    fn is_goal(&self, n: &u32) -> bool {
        *n == self.goal
    }

    fn successors<F: FnMut((), u32, u32)>(&self, n: &u32, mut emit: F) {
        emit((), n + 1, 1);
    }
}

/// A star: the start (0) has `leaves` successors, leaf `i` at cost `i`, each
/// a goal with estimate `h`; so each leaf has its own priority and the same
/// large depth.
struct Star {
    leaves: u32,
}

impl SearchSpace for Star {
    type Node = u32;
    type Action = ();
    type Cost = u32;

    fn is_goal(&self, n: &u32) -> bool {
        *n > 0
    }

    fn successors<F: FnMut((), u32, u32)>(&self, n: &u32, mut emit: F) {
        if *n == 0 {
            for leaf in 1..=self.leaves {
                emit((), leaf, leaf);
            }
        }
    }
}

/// Runs `search` and returns its result with the peak of the bytes
/// allocated meanwhile (the search's own, the result's, and nothing else:
/// this binary runs one test).
fn peak_bytes<T>(search: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATOR.current_usage();
    ALLOCATOR.reset_peak_usage();
    let result = search();
    (result, ALLOCATOR.peak_usage() - before)
}

#[test]
fn open_list_memory_is_linear_in_stored_nodes() {
    // Along the line the estimate h(n) = n grows with g: node n sits at
    // priority 2n, depth n. Before, every priority kept n buckets: 3,000
    // expansions took 144 MB.
    let goal = 3_000;
    for algorithm in [Algorithm::AStar, Algorithm::WeightedAStar { weight: 1.5 }] {
        for limits in [
            SearchLimits::default(),
            SearchLimits {
                max_memory_bytes: Some(1 << 30),
                ..SearchLimits::default()
            },
        ] {
            let what = format!("{algorithm:?}, memory limit {:?}", limits.max_memory_bytes);
            let (result, peak) = peak_bytes(|| {
                Search::new(&Line { goal }, 0)
                    .algorithm(algorithm)
                    .heuristic(|n: &u32| *n)
                    .limits(limits)
                    .run()
                    .unwrap()
            });
            assert_eq!(result.outcome.solution().unwrap().cost, goal, "{what}");
            let stored = result.stats.stored;
            // A u32 node takes a record, an index entry, an estimate and an
            // open-list entry, and here two priorities' headers (64 B each):
            // a few hundred bytes with the vectors' growth. Quadratic was
            // 48 KB a node.
            let linear = 1024 * stored + (64 << 10);
            assert!(
                peak <= linear,
                "{what}: {peak} B allocated for {stored} nodes"
            );
            assert!(
                result.stats.estimated_bytes <= linear,
                "{what}: estimate {} B for {stored} nodes",
                result.stats.estimated_bytes
            );
        }
    }

    // Each leaf of the star has its own priority, all at depth 3,000: one
    // bucket vector each would take 2,000 x 3,000 x 32 B = 192 MB, and so
    // stop a search that stores 2,001 nodes at a 64 MB memory limit.
    let star = Star { leaves: 2_000 };
    let (result, peak) = peak_bytes(|| {
        Search::new(&star, 0)
            .heuristic(|n: &u32| if *n == 0 { 0 } else { 3_000 })
            .limits(SearchLimits {
                max_memory_bytes: Some(64 << 20),
                ..SearchLimits::default()
            })
            .run()
            .unwrap()
    });
    assert_ne!(
        result.outcome,
        Outcome::LimitReached {
            limit: Limit::Memory,
            best: None,
        }
    );
    assert_eq!(result.outcome.solution().unwrap().cost, 1);
    assert!(
        peak <= 256 * result.stats.stored + (256 << 10),
        "star: {peak} B"
    );
}
