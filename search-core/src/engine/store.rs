//! Node storage: each distinct node once, addressed by a compact `u32` index.
//!
//! Each node's record (the node, its parent and its path cost) lives in a
//! chunked vector; a hash table of `u32` indices maps a node to its record.
//! This is the layout inside `indexmap` without its per-entry cached hash and
//! `usize` indices, and without a doubling vector's copy: chunks never move,
//! so growing costs one new chunk, not a transient second copy of everything.
//! The three fields sit side by side because a lookup that finds a node goes
//! on to read its path cost: one cache line instead of two. On the 1000x1000
//! grid bench a `(u32, u32)` node costs a 16-byte record plus 5 bytes per
//! bucket of the table (see BENCHMARKS.md for the measured peak).
//!
//! A space with a dense numbering of its nodes replaces the hash table with
//! a flat one ([`NumberTable`]): one array read per lookup instead of a hash
//! and a probe of two random cache lines.

use std::hash::BuildHasher;
use std::mem::size_of;
use std::ops::{Index, IndexMut};

/// Elements per chunk of a [`Chunked`] vector, after the first: a power of
/// two, so finding an element is a shift and a mask.
const CHUNK_BITS: u32 = 16;
const CHUNK: usize = 1 << CHUNK_BITS;

/// A vector stored in fixed chunks of [`CHUNK`] elements that never move.
/// The first chunk grows like a `Vec`, so small searches stay small.
#[derive(Clone, Debug)]
pub(crate) struct Chunked<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Self {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<T> Chunked<T> {
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Empties the vector, keeping its chunks for reuse.
    pub(crate) fn clear(&mut self) {
        self.chunks.iter_mut().for_each(Vec::clear);
        self.len = 0;
    }

    #[inline]
    pub(crate) fn push(&mut self, value: T) {
        let chunk = self.len >> CHUNK_BITS;
        if chunk < self.chunks.len() {
            self.chunks[chunk].push(value);
        } else {
            self.push_to_new_chunk(value);
        }
        self.len += 1;
    }

    #[cold]
    fn push_to_new_chunk(&mut self, value: T) {
        let capacity = if self.chunks.is_empty() { 0 } else { CHUNK };
        let mut chunk = Vec::with_capacity(capacity);
        chunk.push(value);
        self.chunks.push(chunk);
    }

    pub(crate) fn get(&self, index: usize) -> Option<&T> {
        self.chunks
            .get(index >> CHUNK_BITS)?
            .get(index & (CHUNK - 1))
    }

    /// The elements, chunk by chunk (a flattened iterator costs a branch
    /// per element more).
    pub(crate) fn chunks(&self) -> impl Iterator<Item = &[T]> {
        self.chunks.iter().map(Vec::as_slice)
    }

    /// Elements the chunks hold without allocating (saturating: a vector
    /// of zero-sized values has unbounded capacity).
    pub(crate) fn capacity(&self) -> usize {
        self.chunks
            .iter()
            .fold(0, |sum: usize, chunk| sum.saturating_add(chunk.capacity()))
    }

    /// Allocated bytes.
    pub(crate) fn bytes(&self) -> usize {
        if size_of::<T>() == 0 {
            0
        } else {
            self.capacity() * size_of::<T>()
        }
    }

    /// Bytes the next `room` pushes could allocate (one growth step).
    fn growth(&self, room: usize) -> usize {
        if self.len + room <= self.capacity() {
            return 0;
        }
        let slots = match self.chunks.get(self.len / CHUNK) {
            Some(chunk) if chunk.len() < chunk.capacity() => 0,
            Some(chunk) if self.len < CHUNK => chunk.capacity().max(4),
            // The first chunk starts empty and grows like a `Vec`.
            None if self.len == 0 => 4,
            _ => CHUNK,
        };
        slots * size_of::<T>()
    }
}

impl<T> Index<usize> for Chunked<T> {
    type Output = T;

    #[inline]
    fn index(&self, index: usize) -> &T {
        &self.chunks[index >> CHUNK_BITS][index & (CHUNK - 1)]
    }
}

impl<T> IndexMut<usize> for Chunked<T> {
    #[inline]
    fn index_mut(&mut self, index: usize) -> &mut T {
        &mut self.chunks[index >> CHUNK_BITS][index & (CHUNK - 1)]
    }
}

use hashbrown::hash_table::{Entry, HashTable};
use rustc_hash::FxBuildHasher;

use crate::engine::numbered::{NumberTable, MAX_NUMBERS};
use crate::SearchError;

/// One bit per node.
#[derive(Clone, Debug, Default)]
pub(crate) struct BitSet(Vec<u64>);

impl BitSet {
    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }

    #[inline]
    pub(crate) fn get(&self, i: u32) -> bool {
        self.0
            .get(i as usize / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    #[inline]
    pub(crate) fn set(&mut self, i: u32, value: bool) {
        let word = i as usize / 64;
        if word >= self.0.len() {
            if !value {
                return;
            }
            self.grow(word);
        }
        if value {
            self.0[word] |= 1 << (i % 64);
        } else {
            self.0[word] &= !(1 << (i % 64));
        }
    }

    #[cold]
    fn grow(&mut self, word: usize) {
        self.0.resize(word + 1, 0);
    }

    pub(crate) fn bytes(&self) -> usize {
        self.0.capacity() * 8
    }

    /// The bytes the next growth could add once indices below `bits` are set.
    pub(crate) fn growth(&self, bits: usize) -> usize {
        let (words, capacity) = (bits.div_ceil(64), self.0.capacity());
        if words <= capacity {
            0
        } else {
            ((capacity * 2).max(words).max(4) - capacity) * 8
        }
    }
}

/// A stored node with its best known path: the parent's index and the cost.
#[derive(Clone, Debug)]
pub(crate) struct Record<N, C> {
    pub(crate) node: N,
    pub(crate) parent: u32,
    pub(crate) g: C,
}

/// The nodes a search has seen, with their best known paths.
///
/// No action is kept per node: the plan's actions are found again from each
/// parent ([`SearchSpace::action_between`](crate::SearchSpace::action_between)),
/// which costs the plan's length in expansions instead of 4 bytes or more
/// per node.
#[derive(Clone, Debug)]
pub(crate) struct NodeStore<N, C> {
    pub(crate) records: Chunked<Record<N, C>>,
    /// Heuristic values, kept only by algorithms that use one and only for
    /// heuristics that are not [cheap](crate::Heuristic::is_cheap) to ask
    /// again.
    pub(crate) h: Chunked<C>,
    keeps_h: bool,
    pub(crate) closed: BitSet,
    pub(crate) dead: BitSet,
    /// Nodes a dominance pruner skipped.
    pub(crate) dominated: BitSet,
    index: HashTable<u32>,
    /// The flat table that replaces `index` when the space numbers its nodes.
    numbered: Option<NumberTable>,
    /// Heap bytes the stored nodes own
    /// ([`SearchSpace::node_heap_bytes`](crate::SearchSpace::node_heap_bytes)).
    pub(crate) node_heap: usize,
}

impl<N, C> Default for NodeStore<N, C> {
    fn default() -> Self {
        Self {
            records: Chunked::default(),
            h: Chunked::default(),
            keeps_h: false,
            closed: BitSet::default(),
            dead: BitSet::default(),
            dominated: BitSet::default(),
            index: HashTable::new(),
            numbered: None,
            node_heap: 0,
        }
    }
}

/// Where `find_or_insert` put a node.
pub(crate) enum Slot {
    /// Already stored.
    Old(u32),
    New(u32),
}

/// Why `find_or_insert` did not store a node.
#[derive(Debug)]
pub(crate) enum Refused {
    /// The store holds `u32::MAX` nodes.
    Full,
    /// The space's numbering is broken.
    Numbering(SearchError),
}

impl<N: crate::Node, C: Copy> NodeStore<N, C> {
    /// Empties the store for a search of a space with `numbers` node
    /// numbers (`None`: hash the nodes), keeping its buffers; it keeps
    /// heuristic values if `keeps_h`.
    pub(crate) fn clear(&mut self, numbers: Option<u64>, keeps_h: bool) {
        self.records.clear();
        self.h.clear();
        self.keeps_h = keeps_h;
        self.closed.clear();
        self.dead.clear();
        self.dominated.clear();
        self.index.clear();
        self.node_heap = 0;
        match numbers.filter(|&n| n <= MAX_NUMBERS) {
            Some(n) => self.numbered.get_or_insert_default().set_numbers(n),
            None => self.numbered = None,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.records.len()
    }

    /// The node stored at `index`.
    #[inline]
    pub(crate) fn node(&self, index: u32) -> &N {
        &self.records[index as usize].node
    }

    /// The path cost of the node at `index`.
    #[inline]
    pub(crate) fn g(&self, index: u32) -> C {
        self.records[index as usize].g
    }

    /// Keeps the heuristic value of the node stored last, if the store
    /// keeps values.
    #[inline]
    pub(crate) fn push_h(&mut self, h: C) {
        if self.keeps_h {
            self.h.push(h);
        }
    }

    /// The kept heuristic value of the node at `index`, if kept.
    #[inline]
    pub(crate) fn h(&self, index: u32) -> Option<C> {
        self.h.get(index as usize).copied()
    }

    /// Replaces the kept heuristic value of the node at `index`.
    #[inline]
    pub(crate) fn set_h(&mut self, index: u32, h: C) {
        if self.keeps_h {
            self.h[index as usize] = h;
        }
    }

    /// Stores the start node (index 0) of an empty store; `number_of` is the
    /// space's numbering, used if it has one.
    pub(crate) fn insert_start(
        &mut self,
        node: N,
        g: C,
        number_of: impl Fn(&N) -> u64,
    ) -> Result<(), SearchError> {
        if let Some(table) = &mut self.numbered {
            let number = number_of(&node);
            let numbers = table.numbers();
            let Some(slot) = table.slot(number) else {
                return Err(out_of_range(&node, number, numbers));
            };
            *slot = 1;
        } else {
            let hash = FxBuildHasher.hash_one(&node);
            self.index.insert_unique(hash, 0, |_| hash);
        }
        self.records.push(Record { node, parent: 0, g });
        Ok(())
    }

    /// Finds `node`, or stores it reached from `parent` at cost `g`;
    /// `number_of` is the space's numbering, used if it has one.
    #[inline]
    pub(crate) fn find_or_insert(
        &mut self,
        node: N,
        number_of: impl Fn(&N) -> u64,
        parent: u32,
        g: C,
    ) -> Result<Slot, Refused> {
        if self.numbered.is_some() {
            return self.find_or_insert_numbered(node, number_of, parent, g);
        }
        if self.index.len() == self.index.capacity() {
            self.grow_index();
        }
        let hash = FxBuildHasher.hash_one(&node);
        let records = &self.records;
        let entry = self.index.entry(
            hash,
            |&i| records[i as usize].node == node,
            |&i| FxBuildHasher.hash_one(&records[i as usize].node),
        );
        match entry {
            Entry::Occupied(found) => Ok(Slot::Old(*found.get())),
            Entry::Vacant(vacant) => {
                let index = next_index(self.records.len()).ok_or(Refused::Full)?;
                vacant.insert(index);
                self.records.push(Record { node, parent, g });
                Ok(Slot::New(index))
            }
        }
    }

    /// [`find_or_insert`](Self::find_or_insert) through the flat table. An
    /// entry counts only if it points at a record of this search holding
    /// `node`; anything else is left over from an earlier search, unless the
    /// record it points at has the same number, which the numbering forbids.
    #[inline]
    fn find_or_insert_numbered(
        &mut self,
        node: N,
        number_of: impl Fn(&N) -> u64,
        parent: u32,
        g: C,
    ) -> Result<Slot, Refused> {
        let Some(table) = &mut self.numbered else {
            unreachable!("called only with a table");
        };
        let number = number_of(&node);
        let numbers = table.numbers();
        let Some(slot) = table.slot(number) else {
            return Err(Refused::Numbering(out_of_range(&node, number, numbers)));
        };
        if let Some(stored) = slot
            .checked_sub(1)
            .and_then(|i| self.records.get(i as usize))
        {
            if stored.node == node {
                return Ok(Slot::Old(*slot - 1));
            }
            if number_of(&stored.node) == number {
                return Err(Refused::Numbering(shared(&node, &stored.node, number)));
            }
        }
        let index = next_index(self.records.len()).ok_or(Refused::Full)?;
        *slot = index + 1;
        self.records.push(Record { node, parent, g });
        Ok(Slot::New(index))
    }

    /// Doubles the index by inserting the nodes in store order: hashbrown's
    /// own resize rehashes in bucket order, reading the nodes at random.
    #[cold]
    fn grow_index(&mut self) {
        let mut index = HashTable::with_capacity(next_index_capacity(self.index.capacity()));
        let mut i = 0_u32;
        for chunk in self.records.chunks() {
            for record in chunk {
                index.insert_unique(FxBuildHasher.hash_one(&record.node), i, |&j| {
                    FxBuildHasher.hash_one(&self.records[j as usize].node)
                });
                i += 1;
            }
        }
        self.index = index;
    }

    /// Records a cheaper path to a stored node.
    pub(crate) fn improve(&mut self, index: u32, parent: u32, g: C) {
        let record = &mut self.records[index as usize];
        record.parent = parent;
        record.g = g;
    }

    /// Allocated bytes (the nodes' own heap included), and the bytes the
    /// next growth could add when `room` more nodes arrive (their own heap
    /// not included).
    pub(crate) fn bytes(&self, room: usize) -> (usize, usize) {
        let vectors = self.records.bytes() + self.h.bytes();
        let table = table_bytes(self.index.capacity())
            + self.numbered.as_ref().map_or(0, NumberTable::bytes);
        let bits = self.closed.bytes() + self.dead.bytes() + self.dominated.bytes();
        let now = vectors + table + bits + self.node_heap;
        let mut growth = self.records.growth(room);
        if self.keeps_h {
            growth += self.h.growth(room);
        }
        if let Some(numbered) = &self.numbered {
            growth += numbered.growth(room);
        } else if self.index.len() + room > self.index.capacity() {
            // The doubled table is built while the old one is still alive.
            growth += table_bytes(next_index_capacity(self.index.capacity()));
        }
        let bits = self.records.len() + room;
        growth += self.closed.growth(bits) + self.dead.growth(bits) + self.dominated.growth(bits);
        (now, growth)
    }
}

/// The index of the next record, unless the store is full (`u32::MAX` is
/// kept free, so an index plus one still fits a `u32`).
#[inline]
fn next_index(len: usize) -> Option<u32> {
    u32::try_from(len).ok().filter(|&i| i < u32::MAX)
}

#[cold]
fn out_of_range<N: crate::Node>(node: &N, number: u64, numbers: u64) -> SearchError {
    SearchError::NodeNumberOutOfRange {
        node: format!("{node:?}"),
        number,
        numbers,
    }
}

#[cold]
fn shared<N: crate::Node>(node: &N, other: &N, number: u64) -> SearchError {
    SearchError::NodeNumberShared {
        node: format!("{node:?}"),
        other: format!("{other:?}"),
        number,
    }
}

/// The capacity the index grows to from `capacity`.
fn next_index_capacity(capacity: usize) -> usize {
    (capacity * 2).max(16)
}

/// Bytes of an index table of this capacity: a `u32` and a control byte per
/// bucket, and one trailing group of 16 control bytes.
fn table_bytes(capacity: usize) -> usize {
    match bucket_count(capacity) {
        0 => 0,
        buckets => buckets * (size_of::<u32>() + 1) + 16,
    }
}

/// Buckets hashbrown allocates for a table of this capacity (7/8 load).
fn bucket_count(capacity: usize) -> usize {
    match capacity {
        0 => 0,
        1..=3 => 4,
        4..=7 => 8,
        _ => (capacity * 8 / 7).next_power_of_two(),
    }
}

#[cfg(test)]
mod tests {
    use super::Chunked;

    /// The projected growth is what the next push allocates: the first
    /// chunk grows like a `Vec` from nothing, later chunks come whole.
    #[test]
    fn growth_projects_the_next_allocation() {
        let mut values = Chunked::<u32>::default();
        assert_eq!(values.growth(1), 4 * 4);
        values.push(1);
        assert_eq!(values.bytes(), 4 * 4);
        assert_eq!(values.growth(1), 0);
        for i in 0..3 {
            values.push(i);
        }
        assert_eq!(values.growth(1), 4 * 4);
    }
}
