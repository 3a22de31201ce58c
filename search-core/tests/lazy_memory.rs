//! Lazy greedy search counts what its open list holds: each waiting edge
//! keeps its successor node, and a node with heap memory there must count
//! toward the memory estimate (it did not: a numeric planning task's lazy
//! search passed the process's memory cap at a third of its estimate).
//!
//! One test in this binary: the allocator counts the whole process.

use peak_alloc::PeakAlloc;
use search_core::{LazyGreedy, SearchLimits, SearchSpace};

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

/// A tree of wide nodes: each holds 64 words on the heap and has 20
/// children, all new; no goal.
struct Wide;

impl SearchSpace for Wide {
    type Node = Vec<u64>;
    type Action = u64;
    type Cost = u32;

    fn is_goal(&self, _: &Vec<u64>) -> bool {
        false
    }

    fn successors<F: FnMut(u64, Vec<u64>, u32)>(&self, n: &Vec<u64>, mut emit: F) {
        for child in 0..20 {
            let mut next = n.clone();
            next[0] = next[0] * 20 + child + 1;
            emit(child, next, 1);
        }
    }

    fn node_heap_bytes(&self, n: &Vec<u64>) -> usize {
        n.capacity() * size_of::<u64>()
    }
}

#[test]
fn waiting_edges_count_their_nodes() {
    let before = ALLOCATOR.current_usage();
    ALLOCATOR.reset_peak_usage();
    let result = LazyGreedy::new(&Wide, vec![0; 64], vec![|_: &Vec<u64>| 1_u32])
        .limits(SearchLimits {
            max_expansions: Some(200),
            ..SearchLimits::default()
        })
        .run()
        .unwrap();
    let peak = ALLOCATOR.peak_usage() - before;
    let estimate = result.stats.estimated_bytes;
    // About 3,800 edges wait, 512 bytes of node each: 2 MB that the
    // estimate left out before.
    assert!(result.stats.generated >= 4_000, "{:?}", result.stats);
    assert!(
        estimate * 10 >= peak * 7,
        "estimate {estimate} B, peak {peak} B"
    );
}
