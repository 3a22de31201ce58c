//! The open lists of the lean A* and Dijkstra. Entries pop lowest `f`
//! first, then highest `g`, then last pushed.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::ring::Ring;
use super::tied::{Entry, TiedRing};
use super::GaveUp;
use crate::Cost;

/// What the lean loop needs of an open list.
pub(super) trait Queue<C> {
    /// Queues node `number` at priority `f`, reached at cost `g`.
    fn push(&mut self, f: C, g: C, number: u32) -> Result<(), GaveUp>;

    /// The next entry's `g` and node.
    fn pop(&mut self) -> Option<(C, u32)>;
}

/// `cost` as a ring's key, if it is a whole number below 2^64.
#[inline(always)]
fn key_of<C: Cost>(cost: C) -> Option<u64> {
    cost.to_bucket().and_then(|key| u64::try_from(key).ok())
}

/// Dijkstra's open list for integer costs: `f` is `g`.
impl<C: Cost> Queue<C> for Ring<(C, u32)> {
    #[inline(always)]
    fn push(&mut self, f: C, g: C, number: u32) -> Result<(), GaveUp> {
        debug_assert!(f == g, "Dijkstra's priority is the path cost");
        Ring::push(self, key_of(g).ok_or(GaveUp)?, (g, number))
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<(C, u32)> {
        Ring::pop(self)
    }
}

/// A*'s open list (and Dijkstra's for costs that are not integers): the
/// tied ring while priorities are integers no lower than the last
/// popped, a binary heap from the first that is not.
pub(super) enum Open<C> {
    Ring(Box<TiedRing<C>>),
    Heap(BinaryHeap<HeapEntry<C>>),
}

impl<C: Cost> Default for Open<C> {
    fn default() -> Self {
        Self::Ring(Box::default())
    }
}

impl<C: Cost> Queue<C> for Open<C> {
    #[inline(always)]
    fn push(&mut self, f: C, g: C, number: u32) -> Result<(), GaveUp> {
        let entry = Entry { f, g, number };
        if let Self::Ring(ring) = self {
            match key_of(f) {
                Some(key) if key >= ring.last() => return ring.push(key, entry),
                _ => {
                    let entries =
                        ring.drain()
                            .map(|Entry { f, g, number }| HeapEntry { f, g, number });
                    *self = Self::Heap(entries.collect());
                }
            }
        }
        if let Self::Heap(heap) = self {
            heap.push(HeapEntry { f, g, number });
        }
        Ok(())
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<(C, u32)> {
        match self {
            Self::Ring(ring) => ring.pop().map(|e| (e.g, e.number)),
            Self::Heap(heap) => heap.pop().map(|e| (e.g, e.number)),
        }
    }
}

/// A binary-heap entry: lowest `f` first, then highest `g`.
pub(super) struct HeapEntry<C> {
    f: C,
    g: C,
    number: u32,
}

impl<C: Ord> Ord for HeapEntry<C> {
    fn cmp(&self, other: &Self) -> Ordering {
        other.f.cmp(&self.f).then_with(|| self.g.cmp(&other.g))
    }
}

impl<C: Ord> PartialOrd for HeapEntry<C> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<C: Ord> PartialEq for HeapEntry<C> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<C: Ord> Eq for HeapEntry<C> {}

#[cfg(test)]
mod tests {
    use super::super::Rng;
    use super::{HeapEntry, Open, Queue};
    use std::collections::BinaryHeap;

    /// A number below `n` from `rng`.
    fn below(rng: &mut Rng, n: u32) -> u32 {
        u32::try_from(rng.below(u64::from(n))).unwrap()
    }

    /// Pushes and pops in random order, every priority at least the last
    /// popped one (so the tied ring is used) or, with `drop_below`, some
    /// lower (so it hands over to the binary heap): the pops come in the
    /// reference heap's order of `(f, -g)`.
    fn same_order_as_a_heap(seed: u64, drop_below: bool) {
        let mut rng = Rng(seed);
        let mut open = Open::<u32>::default();
        let mut reference = BinaryHeap::new();
        let mut last = 0;
        for number in 0..2_000 {
            if below(&mut rng, 3) == 0 {
                let popped = open.pop();
                let expected = reference.pop().map(|e: HeapEntry<u32>| (e.f, e.g));
                assert_eq!(popped.map(|p| p.0), expected.map(|e| e.1), "seed {seed}");
                if let Some((f, _)) = expected {
                    last = f;
                }
                continue;
            }
            let f = if drop_below && below(&mut rng, 50) == 0 {
                last.saturating_sub(below(&mut rng, 5))
            } else {
                let bits = below(&mut rng, 12);
                last + below(&mut rng, 1 << bits)
            };
            let g = below(&mut rng, f + 1);
            open.push(f, g, number).unwrap();
            reference.push(HeapEntry { f, g, number });
        }
        while let Some(expected) = reference.pop() {
            assert_eq!(open.pop().map(|p| p.0), Some(expected.g), "seed {seed}");
        }
        assert_eq!(open.pop(), None);
    }

    #[test]
    fn the_tied_ring_pops_lowest_f_then_highest_g() {
        for seed in 0..20 {
            same_order_as_a_heap(seed, false);
        }
    }

    #[test]
    fn a_priority_below_the_last_popped_moves_to_the_binary_heap() {
        for seed in 0..20 {
            same_order_as_a_heap(seed, true);
        }
        let mut open = Open::<u32>::default();
        open.push(5, 0, 0).unwrap();
        assert_eq!(open.pop(), Some((0, 0)));
        open.push(3, 1, 1).unwrap();
        assert!(matches!(open, Open::Heap(_)));
        assert_eq!(open.pop(), Some((1, 1)));
    }

    #[test]
    fn priorities_far_above_the_last_keep_their_order() {
        let mut open = Open::<u64>::default();
        open.push(u64::MAX, 1, 0).unwrap();
        open.push(u64::MAX - 1, 3, 2).unwrap();
        open.push(1 << 40, 2, 1).unwrap();
        assert!(matches!(open, Open::Ring(_)));
        assert_eq!(open.pop(), Some((2, 1)));
        assert_eq!(open.pop(), Some((3, 2)));
        assert_eq!(open.pop(), Some((1, 0)));
        assert_eq!(open.pop(), None);
    }
}
