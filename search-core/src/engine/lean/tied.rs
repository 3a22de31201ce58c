//! A*'s open list while priorities are integers that only grow (a
//! consistent heuristic): the ring of buckets by `f` ([`Ring`]) holds the
//! entries, and a pop takes the lowest `f`'s out whole into `run`, sorted
//! by `g`, so that ties on `f` go to the higher `g` without a bucket's
//! list being searched. A push at the run's `f` (a child as good as its
//! parent) joins the run in its place.
//!
//! An entry is placed once; one sort an `f` is all that ties cost (a
//! radix heap moves each entry down its buckets as well).

use super::ring::Ring;
use super::GaveUp;
use crate::Cost;

pub(super) struct TiedRing<C> {
    ring: Ring<Entry<C>>,
    /// The entries of priority `run_f`, sorted by `g` and then push order:
    /// the next to pop is at the end.
    run: Vec<Entry<C>>,
    run_f: u64,
}

/// A queued node: its priority `f` and path cost `g`.
#[derive(Clone, Copy)]
pub(super) struct Entry<C> {
    pub(super) f: C,
    pub(super) g: C,
    pub(super) number: u32,
}

impl<C: Cost> Default for TiedRing<C> {
    fn default() -> Self {
        Self {
            ring: Ring::default(),
            run: Vec::new(),
            run_f: 0,
        }
    }
}

impl<C: Cost> TiedRing<C> {
    /// The lowest priority a push may have: the last popped.
    #[inline(always)]
    pub(super) fn last(&self) -> u64 {
        if self.run.is_empty() {
            self.ring.last()
        } else {
            self.run_f
        }
    }

    /// Queues `entry` at priority `key` (its `f`), at least [`Self::last`].
    #[inline(always)]
    pub(super) fn push(&mut self, key: u64, entry: Entry<C>) -> Result<(), GaveUp> {
        debug_assert!(key >= self.last(), "priorities only grow");
        if key == self.run_f && !self.run.is_empty() {
            // Among equals, the entry pushed last pops first.
            let at = self.run.partition_point(|e| e.g <= entry.g);
            self.run.insert(at, entry);
            return Ok(());
        }
        self.ring.push(key, entry)
    }

    /// The entry of lowest `f`, then highest `g`, then pushed last.
    #[inline(always)]
    pub(super) fn pop(&mut self) -> Option<Entry<C>> {
        if self.run.is_empty() {
            self.refill()?;
        }
        self.run.pop()
    }

    /// Takes the lowest `f`'s entries into the empty run; `None` when
    /// there are none.
    fn refill(&mut self) -> Option<()> {
        self.run_f = self.ring.take_lowest(&mut self.run)?;
        // They come last pushed first: reversed, a stable sort keeps push
        // order among equal `g`.
        self.run.reverse();
        self.run.sort_by_key(|e| e.g);
        Some(())
    }

    /// Every entry, for a binary heap.
    pub(super) fn drain(&mut self) -> impl Iterator<Item = Entry<C>> + '_ {
        let run = std::mem::take(&mut self.run);
        self.ring.drain().into_iter().chain(run)
    }
}
