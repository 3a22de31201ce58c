//! Dijkstra's open list while path costs are integers: a ring of buckets,
//! one per cost from the last popped up (Dial 1969). A push links the
//! entry into its cost's bucket and a pop takes the first filled bucket
//! from a bitmap, where the radix heap redistributes and sorts entries:
//! the road graph's Dijkstra runs in half the time. (A*'s ties on `f` go
//! to the higher `g`, which a bucket's list would have to be searched
//! for: A* keeps the radix heap.)
//!
//! A bucket holds one cost, so its entries pop last pushed first, as the
//! radix heap's equal priorities do. The ring starts small and doubles
//! when a cost lands beyond it, each bucket's list moving whole, while it
//! has at most [`SPREAD`] buckets per entry it has held (so that a pop
//! scans few empty ones) and at most [`RING_MAX`]. Costs beyond the ring
//! (a road graph's highways) wait in a binary heap, `far`, and a pop
//! takes the first of the ring's and the heap's.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::GaveUp;
use crate::Cost;

/// The end of a bucket's list.
const NONE: u32 = u32::MAX;

/// Buckets at first: few, so that a small search clears little.
const RING_MIN: usize = 256;

/// The most buckets: 256 KiB of list heads.
const RING_MAX: usize = 1 << 16;

/// The most buckets per entry the ring has held.
const SPREAD: usize = 16;

pub(super) struct Ring<C> {
    /// The number of buckets less one (a power of two less one): cost `c`
    /// is in bucket `c & mask`.
    mask: u64,
    /// No cost in the ring is below `base` or above `base + mask`.
    base: u64,
    /// Each bucket's first entry, or [`NONE`].
    heads: Vec<u32>,
    /// A bit per bucket, set when it has entries.
    filled: Vec<u64>,
    links: Vec<Link<C>>,
    /// The first link free for reuse, or [`NONE`].
    free: u32,
    /// The entries whose cost did not fit the ring when pushed, in pop
    /// order (`far_pushed` counts down, so the last pushed is first among
    /// equals).
    far: BinaryHeap<Reverse<(u64, u64, Far<C>)>>,
    /// The lowest cost in `far`, `u64::MAX` when it is empty.
    far_min: u64,
    far_pushed: u64,
}

#[derive(Clone, Copy)]
struct Link<C> {
    g: C,
    number: u32,
    next: u32,
}

/// An entry of `far`; the cost and push order before it decide its place.
struct Far<C>(C, u32);

impl<C> PartialEq for Far<C> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<C> Eq for Far<C> {}

impl<C> PartialOrd for Far<C> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<C> Ord for Far<C> {
    fn cmp(&self, _: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

impl<C: Cost> Default for Ring<C> {
    fn default() -> Self {
        Self::with_buckets(RING_MIN)
    }
}

impl<C: Cost> Ring<C> {
    fn with_buckets(buckets: usize) -> Self {
        Self {
            mask: buckets as u64 - 1,
            base: 0,
            heads: vec![NONE; buckets],
            filled: vec![0; buckets / 64],
            links: Vec::new(),
            free: NONE,
            far: BinaryHeap::new(),
            far_min: u64::MAX,
            far_pushed: u64::MAX,
        }
    }

    /// Queues node `number` reached at cost `g`; [`GaveUp`] when `g` is not
    /// an integer below 2^64 or the ring holds `u32::MAX` entries.
    #[inline(always)]
    pub(super) fn push(&mut self, g: C, number: u32) -> Result<(), GaveUp> {
        let key = g
            .to_bucket()
            .and_then(|key| u64::try_from(key).ok())
            .ok_or(GaveUp)?;
        // A cost below `base` (no search of ours pushes one) wraps to a
        // distance no ring takes, and waits in `far`.
        let ahead = key.wrapping_sub(self.base);
        if ahead > self.mask && !self.grow(ahead) {
            self.push_far(key, g, number);
            return Ok(());
        }
        let bucket = self.bucket(key);
        let link = Link {
            g,
            number,
            next: self.heads[bucket],
        };
        let at = if self.free == NONE {
            let at = u32::try_from(self.links.len()).map_err(|_| GaveUp)?;
            if at == NONE {
                return Err(GaveUp);
            }
            self.links.push(link);
            at
        } else {
            let at = self.free;
            self.free = self.links[at as usize].next;
            self.links[at as usize] = link;
            at
        };
        self.heads[bucket] = at;
        self.filled[bucket / 64] |= 1 << (bucket % 64);
        Ok(())
    }

    /// The cheapest entry's cost and node, the last pushed among equals
    /// (the ring's before `far`'s: an entry went to `far` only before any
    /// of its cost could go to the ring).
    #[inline(always)]
    pub(super) fn pop(&mut self) -> Option<(C, u32)> {
        let from = self.bucket(self.base);
        let mut word = from / 64;
        let mut bits = self.filled[word] & (!0 << (from % 64));
        let mut left = self.filled.len();
        while bits == 0 {
            // Around the ring once; then it is empty.
            if left == 0 {
                return self.pop_far();
            }
            left -= 1;
            word = (word + 1) % self.filled.len();
            bits = self.filled[word];
        }
        let bucket = word * 64 + bits.trailing_zeros() as usize;
        let key = self.base + self.bucket((bucket + self.heads.len() - from) as u64) as u64;
        if key > self.far_min {
            return self.pop_far();
        }
        self.base = key;
        let at = self.heads[bucket];
        let Link { g, number, next } = self.links[at as usize];
        self.heads[bucket] = next;
        if next == NONE {
            self.filled[word] &= !(1 << (bucket % 64));
        }
        self.links[at as usize].next = self.free;
        self.free = at;
        Some((g, number))
    }

    /// The bucket of cost `key`.
    #[inline(always)]
    #[expect(
        clippy::cast_possible_truncation,
        reason = "masked to below the number of buckets, a usize"
    )]
    fn bucket(&self, key: u64) -> usize {
        (key & self.mask) as usize
    }

    #[cold]
    fn push_far(&mut self, key: u64, g: C, number: u32) {
        self.far_pushed -= 1;
        self.far
            .push(Reverse((key, self.far_pushed, Far(g, number))));
        self.far_min = self.far_min.min(key);
    }

    /// Pops `far`'s first.
    #[cold]
    fn pop_far(&mut self) -> Option<(C, u32)> {
        let Reverse((key, _, Far(g, number))) = self.far.pop()?;
        // No ring entry is below it.
        self.base = self.base.max(key);
        self.far_min = self.far.peek().map_or(u64::MAX, |Reverse((key, ..))| *key);
        Some((g, number))
    }

    /// Doubles the ring until cost `base + ahead` fits; `false` if it
    /// would pass [`RING_MAX`] buckets or [`SPREAD`] per entry held.
    #[cold]
    fn grow(&mut self, ahead: u64) -> bool {
        let most = (SPREAD * self.links.len()).clamp(RING_MIN, RING_MAX);
        let mut size = self.heads.len();
        while size as u64 <= ahead {
            size *= 2;
            if size > most {
                return false;
            }
        }
        let mut grown = Self::with_buckets(size);
        let from = self.bucket(self.base);
        for (bucket, &head) in self.heads.iter().enumerate() {
            if head != NONE {
                // A bucket holds one cost: its list moves whole.
                let key = self.base + self.bucket((bucket + self.heads.len() - from) as u64) as u64;
                let moved = grown.bucket(key);
                grown.heads[moved] = head;
                grown.filled[moved / 64] |= 1 << (moved % 64);
            }
        }
        grown.base = self.base;
        grown.links = std::mem::take(&mut self.links);
        grown.free = self.free;
        grown.far = std::mem::take(&mut self.far);
        grown.far_min = self.far_min;
        grown.far_pushed = self.far_pushed;
        *self = grown;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::Rng;
    use super::{Ring, RING_MAX, RING_MIN};
    use std::cmp::Reverse;

    /// Pushes and pops in random order against a list searched by hand
    /// (cheapest first, then last pushed). Costs are up to `2^spread_bits`
    /// above the last popped and, one push in `below`, under it.
    /// Returns the ring's number of buckets and whether `far` was used.
    fn pops_in_order(seed: u64, spread_bits: u64, below: u64) -> (usize, bool) {
        let mut random = Rng(seed);
        let mut ring = Ring::<u64>::default();
        let mut queued: Vec<(u64, u64, u32)> = Vec::new();
        let (mut last, mut far) = (0, false);
        let first = |queued: &[(u64, u64, u32)]| {
            (0..queued.len())
                .min_by_key(|&i| (queued[i].0, Reverse(queued[i].1), Reverse(queued[i].2)))
        };
        for number in 0..3_000 {
            if random.below(3) == 0 {
                let expected = first(&queued).map(|at| queued.remove(at));
                assert_eq!(ring.pop(), expected.map(|e| (e.1, e.2)), "seed {seed}");
                last = expected.map_or(last, |e| e.0);
                continue;
            }
            let bits = random.below(spread_bits + 1);
            let f = if random.below(below) == 0 {
                last.saturating_sub(random.below(10))
            } else {
                last + random.below(1 << bits)
            };
            let g = f;
            ring.push(g, number).unwrap();
            far |= !ring.far.is_empty();
            queued.push((f, g, number));
        }
        while let Some(at) = first(&queued) {
            let expected = queued.remove(at);
            assert_eq!(ring.pop(), Some((expected.1, expected.2)), "seed {seed}");
        }
        assert_eq!(ring.pop(), None);
        (ring.heads.len(), far)
    }

    #[test]
    fn a_small_spread_stays_in_the_first_ring() {
        for seed in 0..10 {
            let used = pops_in_order(seed, 7, u64::MAX);
            assert_eq!(used, (RING_MIN, false), "seed {seed}");
        }
    }

    #[test]
    fn a_wider_spread_grows_the_ring() {
        for seed in 0..10 {
            let (buckets, _) = pops_in_order(seed, 12, u64::MAX);
            assert!(buckets > RING_MIN, "seed {seed}: {buckets} buckets");
        }
    }

    #[test]
    fn priorities_beyond_the_largest_ring_or_below_the_last_wait_in_far() {
        for seed in 0..10 {
            let (buckets, far) = pops_in_order(seed, 40, u64::MAX);
            assert!(buckets <= RING_MAX && far, "seed {seed}");
            assert!(pops_in_order(seed, 9, 20).1, "seed {seed}");
        }
    }

    #[test]
    fn a_priority_that_is_not_an_integer_is_given_back() {
        let mut ring = Ring::<crate::FloatCost>::default();
        let cost = crate::FloatCost::new(1.5);
        assert!(ring.push(cost, 0).is_err());
        assert_eq!(ring.pop(), None);
    }
}
