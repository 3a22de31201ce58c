//! Dijkstra's open list while path costs are integers, and under A*'s
//! [`TiedRing`](super::tied::TiedRing): a ring of buckets, one per key
//! from the last popped up (Dial 1969). A push links the entry into its
//! key's bucket and a pop takes the first filled bucket from a bitmap, so
//! no entry is moved or compared after its push.
//!
//! A bucket holds one key, so its entries pop last pushed first. The ring starts small and doubles
//! when a cost lands beyond it, each bucket's list moving whole, while it
//! has at most [`SPREAD`] buckets per entry it has held (so that a pop
//! scans few empty ones) and at most [`RING_MAX`]. Costs beyond the ring
//! (a road graph's highways) wait in a binary heap, `far`, and a pop
//! takes the first of the ring's and the heap's.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::GaveUp;

/// The end of a bucket's list.
const NONE: u32 = u32::MAX;

/// Buckets at first: few, so that a small search clears little.
const RING_MIN: usize = 256;

/// The most buckets: 256 KiB of list heads.
const RING_MAX: usize = 1 << 16;

/// The most buckets per entry the ring has held.
const SPREAD: usize = 16;

/// Entries `T` by an integer key, lowest first, the last pushed first
/// among equals.
pub(super) struct Ring<T> {
    /// The number of buckets less one (a power of two less one): key `k`
    /// is in bucket `k & mask`.
    mask: u64,
    /// No key in the ring is below `base` or above `base + mask`.
    base: u64,
    /// Each bucket's first entry, or [`NONE`].
    heads: Vec<u32>,
    /// A bit per bucket, set when it has entries.
    filled: Vec<u64>,
    links: Vec<Link<T>>,
    /// The first link free for reuse, or [`NONE`].
    free: u32,
    /// The entries whose key did not fit the ring when pushed, in pop
    /// order (`far_pushed` counts down, so the last pushed is first among
    /// equals).
    far: BinaryHeap<Reverse<(u64, u64, Far<T>)>>,
    /// The lowest key in `far`, `u64::MAX` when it is empty.
    far_min: u64,
    far_pushed: u64,
}

#[derive(Clone, Copy)]
struct Link<T> {
    item: T,
    next: u32,
}

/// An entry of `far`; the key and push order before it decide its place.
struct Far<T>(T);

impl<T> PartialEq for Far<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> Eq for Far<T> {}

impl<T> PartialOrd for Far<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Far<T> {
    fn cmp(&self, _: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

impl<T: Copy> Default for Ring<T> {
    fn default() -> Self {
        Self::with_buckets(RING_MIN)
    }
}

impl<T: Copy> Ring<T> {
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

    /// The lowest key popped so far (0 before the first pop): no pop of
    /// ours returns a lower one unless it was pushed since.
    #[inline(always)]
    pub(super) fn last(&self) -> u64 {
        self.base
    }

    /// Queues `item` at `key`; [`GaveUp`] when the ring holds `u32::MAX`
    /// entries.
    #[inline(always)]
    pub(super) fn push(&mut self, key: u64, item: T) -> Result<(), GaveUp> {
        // A key below `base` (no search of ours pushes one) wraps to a
        // distance no ring takes, and waits in `far`.
        let ahead = key.wrapping_sub(self.base);
        if ahead > self.mask && !self.grow(ahead) {
            self.push_far(key, item);
            return Ok(());
        }
        let bucket = self.bucket(key);
        let link = Link {
            item,
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

    /// The lowest entry, the last pushed among equals (the ring's before
    /// `far`'s: an entry went to `far` only before any of its key could go
    /// to the ring).
    #[inline(always)]
    pub(super) fn pop(&mut self) -> Option<T> {
        let Some((bucket, key)) = self.lowest().filter(|&(_, key)| key <= self.far_min) else {
            return self.pop_far();
        };
        self.base = key;
        let at = self.heads[bucket];
        let Link { item, next } = self.links[at as usize];
        self.heads[bucket] = next;
        // Without a branch: whether a bucket empties is a coin toss.
        let emptied = u64::from(next == NONE);
        self.filled[bucket / 64] &= !(emptied << (bucket % 64));
        self.links[at as usize].next = self.free;
        self.free = at;
        Some(item)
    }

    /// Moves every entry of the lowest key to the end of `into`, in pop
    /// order, and gives the key; `None` when the ring is empty.
    pub(super) fn take_lowest(&mut self, into: &mut Vec<T>) -> Option<u64> {
        let ring = self.lowest();
        let key = match ring {
            None if self.far.is_empty() => return None,
            None => self.far_min,
            Some((_, key)) => key.min(self.far_min),
        };
        self.base = self.base.max(key);
        if let Some((bucket, _)) = ring.filter(|&(_, at)| at == key) {
            // A bucket holds one key: its list moves whole.
            let mut at = std::mem::replace(&mut self.heads[bucket], NONE);
            self.filled[bucket / 64] &= !(1 << (bucket % 64));
            while at != NONE {
                let link = &mut self.links[at as usize];
                into.push(link.item);
                let next = std::mem::replace(&mut link.next, self.free);
                self.free = at;
                at = next;
            }
        }
        while self.far_min == key && !self.far.is_empty() {
            into.extend(self.pop_far());
        }
        Some(key)
    }

    /// The ring's lowest filled bucket and its key (not `far`'s).
    #[inline(always)]
    fn lowest(&self) -> Option<(usize, u64)> {
        let from = self.bucket(self.base);
        let mut word = from / 64;
        let mut bits = self.filled[word] & (!0 << (from % 64));
        let mut left = self.filled.len();
        while bits == 0 {
            // Around the ring once; then it is empty.
            if left == 0 {
                return None;
            }
            left -= 1;
            word = (word + 1) % self.filled.len();
            bits = self.filled[word];
        }
        let bucket = word * 64 + bits.trailing_zeros() as usize;
        let key = self.base + self.bucket((bucket + self.heads.len() - from) as u64) as u64;
        Some((bucket, key))
    }

    /// Every entry, in no particular order; the ring is left empty.
    pub(super) fn drain(&mut self) -> Vec<T> {
        let mut items = Vec::with_capacity(self.links.len());
        for &head in &self.heads {
            let mut at = head;
            while at != NONE {
                items.push(self.links[at as usize].item);
                at = self.links[at as usize].next;
            }
        }
        let far = std::mem::take(&mut self.far);
        items.extend(far.into_iter().map(|Reverse((_, _, Far(item)))| item));
        *self = Self::default();
        items
    }

    /// The bucket of key `key`.
    #[inline(always)]
    #[expect(
        clippy::cast_possible_truncation,
        reason = "masked to below the number of buckets, a usize"
    )]
    fn bucket(&self, key: u64) -> usize {
        (key & self.mask) as usize
    }

    #[cold]
    fn push_far(&mut self, key: u64, item: T) {
        self.far_pushed -= 1;
        self.far.push(Reverse((key, self.far_pushed, Far(item))));
        self.far_min = self.far_min.min(key);
    }

    /// Pops `far`'s first.
    #[cold]
    fn pop_far(&mut self) -> Option<T> {
        let Reverse((key, _, Far(item))) = self.far.pop()?;
        // No ring entry is below it.
        self.base = self.base.max(key);
        self.far_min = self.far.peek().map_or(u64::MAX, |Reverse((key, ..))| *key);
        Some(item)
    }

    /// Doubles the ring until key `base + ahead` fits; `false` if it
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
                // A bucket holds one key: its list moves whole.
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

    /// Pushes and pops (one at a time, or a key's entries at once) in
    /// random order against a list searched by hand (lowest key first,
    /// then last pushed). Keys are up to `2^spread_bits` above the last
    /// popped and, one push in `below`, under it. Returns the ring's
    /// number of buckets and whether `far` was used.
    fn pops_in_order(seed: u64, spread_bits: u64, below: u64) -> (usize, bool) {
        let mut random = Rng(seed);
        let mut ring = Ring::<(u64, u32)>::default();
        let mut queued: Vec<(u64, u32)> = Vec::new();
        let (mut last, mut far) = (0, false);
        let first = |queued: &[(u64, u32)]| {
            (0..queued.len()).min_by_key(|&i| (queued[i].0, Reverse(queued[i].1)))
        };
        for number in 0..3_000 {
            if random.below(3) == 0 {
                let expected = first(&queued).map(|at| queued.remove(at));
                if random.below(4) == 0 {
                    let mut taken = Vec::new();
                    let key = ring.take_lowest(&mut taken);
                    assert_eq!(key, expected.map(|e| e.0), "seed {seed}");
                    let mut wanted: Vec<(u64, u32)> = expected.into_iter().collect();
                    while let Some(at) = first(&queued).filter(|&at| Some(queued[at].0) == key) {
                        wanted.push(queued.remove(at));
                    }
                    assert_eq!(taken, wanted, "seed {seed}");
                } else {
                    assert_eq!(ring.pop(), expected, "seed {seed}");
                }
                last = expected.map_or(last, |e| e.0);
                continue;
            }
            let bits = random.below(spread_bits + 1);
            let key = if random.below(below) == 0 {
                last.saturating_sub(random.below(10))
            } else {
                last + random.below(1 << bits)
            };
            ring.push(key, (key, number)).unwrap();
            far |= !ring.far.is_empty();
            queued.push((key, number));
        }
        while let Some(at) = first(&queued) {
            let expected = queued.remove(at);
            assert_eq!(ring.pop(), Some(expected), "seed {seed}");
        }
        assert_eq!(ring.pop(), None);
        assert_eq!(ring.take_lowest(&mut Vec::new()), None);
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
}
