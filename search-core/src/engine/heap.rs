//! A binary max-heap of open-list entries whose push and pop inline into
//! the search loop.
//!
//! `std`'s `BinaryHeap::push` stays a call: its entry arrives through the
//! stack, written a field at a time and read back as one 16-byte word,
//! which the processor cannot forward (a stall of about a dozen cycles,
//! measured with `perf` as most of a tiny search's push). Inlined, the entry
//! goes from registers to the heap (`#[inline]` alone left it a call). The
//! order is the entries' `Ord`, a total order, so the pops are
//! `BinaryHeap`'s.
//!
//! The tiny engine's open list only: on the general engine's heaps of a
//! million entries `std`'s heap, whose moves skip bounds checks, was faster
//! (Dijkstra on the 1000x1000 grid, `cargo bench -p benches --bench grid --
//! open-list/dijkstra/BinaryHeap`: about 95 ms against 110 ms).

use crate::engine::open::Entry;

/// Open-list entries, greatest first ([`Entry`]'s order).
#[derive(Clone, Debug)]
pub(crate) struct Heap<C>(Vec<Entry<C>>);

impl<C> Default for Heap<C> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<C: Ord + Copy> Heap<C> {
    /// Adds `entry`: a hole moves up from the end to its place. Always
    /// inlined: a call takes the entry through memory (see the module).
    #[expect(clippy::inline_always, reason = "measured: `#[inline]` left it a call")]
    #[inline(always)]
    pub(crate) fn push(&mut self, entry: Entry<C>) {
        let hole = self.0.len();
        self.0.push(entry);
        self.sift_up(hole, entry);
    }

    /// Removes and returns the greatest entry: the last entry fills the
    /// hole at the top, which moves down to its place. (`std`'s heap moves
    /// the hole to a leaf first and the entry up from there, fewer
    /// comparisons on a deep heap; on a tiny search's it was slower.)
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<Entry<C>> {
        let last = self.0.pop()?;
        let Some(&top) = self.0.first() else {
            return Some(last);
        };
        let len = self.0.len();
        let mut hole = 0;
        loop {
            let left = 2 * hole + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len && self.0[right] > self.0[left] {
                right
            } else {
                left
            };
            if self.0[child] <= last {
                break;
            }
            self.0[hole] = self.0[child];
            hole = child;
        }
        self.0[hole] = last;
        Some(top)
    }

    /// Moves the hole at `hole` up to where `entry` belongs and puts it
    /// there.
    #[inline]
    fn sift_up(&mut self, mut hole: usize, entry: Entry<C>) {
        while hole > 0 {
            let parent = (hole - 1) / 2;
            if self.0[parent] >= entry {
                break;
            }
            self.0[hole] = self.0[parent];
            hole = parent;
        }
        self.0[hole] = entry;
    }
}

impl<C> Heap<C> {
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    pub(crate) fn capacity(&self) -> usize {
        self.0.capacity()
    }

    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }

    /// The entries, in no particular order, leaving the heap empty.
    pub(crate) fn take_entries(&mut self) -> Vec<Entry<C>> {
        std::mem::take(&mut self.0)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BinaryHeap;

    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Pushes and pops in any interleaving give `BinaryHeap`'s pops.
        #[test]
        fn pops_as_binary_heap_does(ops in proptest::collection::vec((any::<bool>(), 0u32..6, 0u32..4), 0..200)) {
            let (mut heap, mut std_heap) = (Heap::default(), BinaryHeap::new());
            for (seq, (push, key, g)) in (0u32..).zip(ops) {
                if push {
                    let entry = Entry { key, g, seq, index: seq };
                    heap.push(entry);
                    std_heap.push(entry);
                } else {
                    let (a, b) = (heap.pop(), std_heap.pop());
                    prop_assert_eq!(a.map(|e| e.index), b.map(|e| e.index));
                }
                prop_assert_eq!(heap.len(), std_heap.len());
            }
            while let Some(b) = std_heap.pop() {
                prop_assert_eq!(heap.pop().map(|e| e.index), Some(b.index));
            }
            prop_assert!(heap.pop().is_none());
        }
    }
}
