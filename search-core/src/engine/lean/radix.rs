//! The radix heap: A*'s open list while priorities are integers that
//! only grow.

use crate::Cost;

/// A monotone priority queue of integer keys (Ahuja, Mehlhorn, Orlin and
/// Tarjan 1990): bucket `i` holds the keys that first differ from `last`
/// in bit `i - 1`, so a refill sorts only the lowest non-empty bucket, and
/// each entry moves down at most 63 times. Keys are at most [`KEY_MAX`],
/// so 64 buckets do and one `u64` marks the filled ones.
///
/// Pops come from `run`, the lowest keys sorted (lowest key, then highest
/// `g`, at the end). A refill makes a small bucket the run whole, so that
/// sparse keys (a road graph's lengths) do not cost a redistribution a
/// pop; a large one gives its lowest key's entries.
pub(super) struct RadixHeap<C> {
    pub(super) last: u64,
    buckets: [Vec<RadixEntry<C>>; 64],
    /// Bit `i` set when bucket `i` has entries.
    filled: u64,
    run: Vec<RadixEntry<C>>,
}

/// The largest key the radix heap takes; a larger one moves the entries to
/// the binary heap. (Shifting a `u128` mask, as 65 buckets would need,
/// cost 7% more instructions on the road graph.)
pub(super) const KEY_MAX: u64 = u64::MAX >> 1;

/// The largest bucket a refill sorts whole into the run.
const RUN_MAX: usize = 16;

impl<C> Default for RadixHeap<C> {
    fn default() -> Self {
        Self {
            last: 0,
            buckets: std::array::from_fn(|_| Vec::new()),
            filled: 0,
            run: Vec::new(),
        }
    }
}

impl<C: Cost> RadixHeap<C> {
    #[inline(always)]
    fn place(&mut self, entry: RadixEntry<C>) {
        let bucket = (u64::BITS - (entry.key() ^ self.last).leading_zeros()) as usize;
        self.buckets[bucket].push(entry);
        self.filled |= 1 << bucket;
    }

    #[inline(always)]
    pub(super) fn push(&mut self, f: C, g: C, number: u32) {
        let entry = RadixEntry { f, g, number };
        match self.run.first() {
            Some(highest) if entry.f <= highest.f => {
                // Among equals, the entry pushed last pops first.
                let at = self.run.partition_point(|e| e.pops_after(&entry));
                self.run.insert(at, entry);
            }
            _ => self.place(entry),
        }
    }

    #[inline(always)]
    pub(super) fn pop(&mut self) -> Option<(C, u32)> {
        if self.run.is_empty() {
            self.refill()?;
        }
        self.run.pop().map(|e| (e.g, e.number))
    }

    /// Fills the empty run from the lowest non-empty bucket; `None` when
    /// every bucket is empty.
    fn refill(&mut self) -> Option<()> {
        let lowest = self.filled.trailing_zeros() as usize;
        let mut moving = std::mem::take(self.buckets.get_mut(lowest)?);
        self.filled &= !(1 << lowest);
        self.last = moving.iter().map(RadixEntry::key).min()?;
        // The sorts are stable: among equals, the entry pushed last pops
        // first.
        if lowest == 0 {
            std::mem::swap(&mut self.run, &mut moving);
            self.run.sort_by_key(|e| e.g);
        } else if moving.len() <= RUN_MAX {
            std::mem::swap(&mut self.run, &mut moving);
            self.run.sort_by(|a, b| b.f.cmp(&a.f).then(a.g.cmp(&b.g)));
        } else {
            for entry in moving.drain(..) {
                self.place(entry);
            }
            std::mem::swap(&mut self.run, &mut self.buckets[0]);
            self.filled &= !1;
            // Bucket 0 holds the keys equal to `last`: one `f`.
            self.run.sort_by_key(|e| e.g);
        }
        // Keep the allocation for the next time this bucket fills.
        self.buckets[lowest] = moving;
        Some(())
    }

    /// Every entry, `(f, g, number)`, for a binary heap.
    pub(super) fn drain(&mut self) -> impl Iterator<Item = (C, C, u32)> + '_ {
        let run = std::mem::take(&mut self.run);
        self.buckets
            .iter_mut()
            .flat_map(std::mem::take)
            .chain(run)
            .map(|e| (e.f, e.g, e.number))
    }
}

#[derive(Clone, Copy)]
struct RadixEntry<C> {
    f: C,
    g: C,
    number: u32,
}

impl<C: Cost> RadixEntry<C> {
    /// Whether `self` pops after `other` (or with it, pushed earlier).
    #[inline(always)]
    fn pops_after(&self, other: &Self) -> bool {
        (self.f, other.g) >= (other.f, self.g)
    }

    /// `f` as a number; the radix heap holds only entries whose `f` is one.
    #[inline(always)]
    fn key(&self) -> u64 {
        self.f
            .to_bucket()
            .and_then(|key| u64::try_from(key).ok())
            .unwrap_or(KEY_MAX)
    }
}
