//! Type-based exploration's open list (Xie, Müller, Holte and Imai, "Type-Based
//! Exploration with Multiple Search Queues for Satisficing Planning", AAAI
//! 2014; Fast Downward's `type_based` open list).
//!
//! Entries are grouped by a type, here the pair of a heuristic's estimate
//! and the path cost. A pop takes a bucket at random, every type alike,
//! then an entry of it at random. Taking turns with the heuristic's queue
//! in a greedy search, it spends some expansions on regions the heuristic
//! ranks low, which gets greedy search off the plateaus and out of the
//! misleading regions where a heuristic's best values lie.

use std::collections::BTreeMap;
use std::mem::size_of;

/// Entries (`u32` slots) in buckets by type `T`.
pub(crate) struct TypeBuckets<T> {
    /// Bucket `i`'s type.
    types: Vec<T>,
    buckets: Vec<Vec<u32>>,
    /// Each type's bucket.
    bucket_of: BTreeMap<T, usize>,
    len: usize,
    /// xorshift64's state: the choice is random but the same every run.
    random: u64,
}

impl<T: Ord + Copy> TypeBuckets<T> {
    pub(crate) fn new() -> Self {
        Self {
            types: Vec::new(),
            buckets: Vec::new(),
            bucket_of: BTreeMap::new(),
            len: 0,
            random: 0x9e37_79b9_7f4a_7c15,
        }
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn push(&mut self, ty: T, slot: u32) {
        let bucket = *self.bucket_of.entry(ty).or_insert_with(|| {
            self.types.push(ty);
            self.buckets.push(Vec::new());
            self.buckets.len() - 1
        });
        self.buckets[bucket].push(slot);
        self.len += 1;
    }

    /// A random bucket's random entry; `None` when empty.
    pub(crate) fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        let bucket = self.below(self.buckets.len());
        let at = self.below(self.buckets[bucket].len());
        let slot = self.buckets[bucket].swap_remove(at);
        self.len -= 1;
        if self.buckets[bucket].is_empty() {
            // The last bucket takes the emptied one's place.
            let ty = self.types.swap_remove(bucket);
            self.buckets.swap_remove(bucket);
            self.bucket_of.remove(&ty);
            if let Some(moved) = self.types.get(bucket) {
                self.bucket_of.insert(*moved, bucket);
            }
        }
        Some(slot)
    }

    /// Bytes held: the slots' and types' capacity, and the map's entries.
    pub(crate) fn bytes(&self) -> usize {
        let slots: usize = self.buckets.iter().map(Vec::capacity).sum();
        slots * size_of::<u32>()
            + self.buckets.capacity() * size_of::<Vec<u32>>()
            + self.types.capacity() * size_of::<T>()
            + self.bucket_of.len() * Self::MAP_ENTRY
    }

    /// Bytes `more` pushes may add at most: each a new type (its bucket,
    /// type and map entry), its slot and its bucket's first growth.
    pub(crate) fn growth(more: usize) -> usize {
        more * (size_of::<Vec<u32>>() + size_of::<T>() + Self::MAP_ENTRY + 4 * size_of::<u32>())
    }

    /// A map entry's bytes, roughly: the pair and a share of its node.
    const MAP_ENTRY: usize = size_of::<(T, usize)>() + size_of::<usize>();

    /// A number below `n` (at least 1), from the next random bits.
    fn below(&mut self, n: usize) -> usize {
        self.random ^= self.random << 13;
        self.random ^= self.random >> 7;
        self.random ^= self.random << 17;
        // `n` is a vector's length: it fits a u64, and the rest is below it.
        usize::try_from(self.random % n as u64).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::TypeBuckets;

    #[test]
    fn every_entry_comes_out_once_and_types_are_chosen_alike() {
        let mut open = TypeBuckets::new();
        // One type with 900 entries, nine with 10 each.
        for slot in 0..900 {
            open.push((0_u32, 0_u32), slot);
        }
        for ty in 1..10 {
            for k in 0..10 {
                open.push((ty, ty), 1000 + ty * 10 + k);
            }
        }
        assert_eq!(open.len(), 990);
        // A bucket is chosen alike whatever its size: within the first 50
        // pops, the big type gives about a tenth, not nine tenths.
        let first: Vec<u32> = (0..50).filter_map(|_| open.pop()).collect();
        let big = first.iter().filter(|&&s| s < 900).count();
        assert!(big < 20, "{big} of 50 from the big type");
        let mut all = first;
        while let Some(slot) = open.pop() {
            all.push(slot);
        }
        assert!(open.is_empty() && open.pop().is_none());
        all.sort_unstable();
        let mut expected: Vec<u32> = (0..900).collect();
        expected.extend((1..10).flat_map(|ty| (0..10).map(move |k| 1000 + ty * 10 + k)));
        expected.sort_unstable();
        assert_eq!(all, expected);
    }

    #[test]
    fn the_same_pushes_pop_in_the_same_order() {
        let run = || {
            let mut open = TypeBuckets::new();
            for slot in 0..200_u32 {
                open.push((slot % 7, slot % 3), slot);
            }
            std::iter::from_fn(|| open.pop()).collect::<Vec<u32>>()
        };
        assert_eq!(run(), run());
    }
}
