//! Open lists.
//!
//! - Best-first algorithms use a binary heap with lazy deletion: a node whose
//!   path improves is pushed again and the stale entry is skipped when it
//!   surfaces (its node is already closed). Pushing is `O(log n)` with no
//!   position bookkeeping, which measured faster than a decrease-key queue
//!   (see BENCHMARKS.md, `grid/*`).
//! - BFS uses a FIFO queue: every edge counts one, so the queue order is the
//!   depth order and no priorities are needed.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};
use std::mem::size_of;

/// A heap entry: the priority, the path cost (for tie-breaking) and the node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<C> {
    pub(crate) key: C,
    pub(crate) g: C,
    pub(crate) index: u32,
}

impl<C: Ord> Ord for Entry<C> {
    /// The heap pops the greatest entry: lowest key, then highest `g`, then
    /// the earliest-stored node.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .key
            .cmp(&self.key)
            .then_with(|| self.g.cmp(&other.g))
            .then_with(|| other.index.cmp(&self.index))
    }
}

impl<C: Ord> PartialOrd for Entry<C> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<C: Ord> PartialEq for Entry<C> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<C: Ord> Eq for Entry<C> {}

/// The open lists the algorithms choose from.
#[derive(Clone, Debug)]
pub(crate) struct OpenList<C> {
    pub(crate) heap: BinaryHeap<Entry<C>>,
    pub(crate) fifo: VecDeque<u32>,
}

impl<C> Default for OpenList<C> {
    fn default() -> Self {
        Self {
            heap: BinaryHeap::new(),
            fifo: VecDeque::new(),
        }
    }
}

impl<C: Ord> OpenList<C> {
    pub(crate) fn clear(&mut self) {
        self.heap.clear();
        self.fifo.clear();
    }

    pub(crate) fn len(&self) -> usize {
        self.heap.len() + self.fifo.len()
    }

    /// Allocated bytes, and the bytes the next growth could add when `room`
    /// more entries arrive.
    pub(crate) fn bytes(&self, room: usize) -> (usize, usize) {
        let heap = self.heap.capacity() * size_of::<Entry<C>>();
        let fifo = self.fifo.capacity() * size_of::<u32>();
        let mut growth = 0;
        if self.heap.len() + room > self.heap.capacity() {
            growth += heap.max(64);
        }
        if self.fifo.len() + room > self.fifo.capacity() {
            growth += fifo.max(64);
        }
        (heap + fifo, growth)
    }
}
