//! Node storage: each distinct node once, addressed by a compact `u32` index.
//!
//! Nodes, parents and path costs live in parallel vectors; a hash table of
//! indices maps a node to its slot. This is the layout inside `indexmap`
//! without its per-entry cached hash (8 bytes) and `usize` indices (8 bytes):
//! on the 1000x1000 grid bench a `(u32, u32)` node costs 16 bytes in the
//! vectors plus 5 bytes per bucket of the table, against about 43 for an
//! `IndexMap<N, (u32, C)>` (see BENCHMARKS.md).

use std::hash::BuildHasher;
use std::mem::size_of;

use hashbrown::hash_table::{Entry, HashTable};
use rustc_hash::FxBuildHasher;

/// One bit per node.
#[derive(Clone, Debug, Default)]
pub(crate) struct BitSet(Vec<u64>);

impl BitSet {
    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }

    pub(crate) fn get(&self, i: u32) -> bool {
        self.0
            .get(i as usize / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    pub(crate) fn set(&mut self, i: u32, value: bool) {
        let word = i as usize / 64;
        if word >= self.0.len() {
            if !value {
                return;
            }
            self.0.resize(word + 1, 0);
        }
        if value {
            self.0[word] |= 1 << (i % 64);
        } else {
            self.0[word] &= !(1 << (i % 64));
        }
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

/// The nodes a search has seen, with their best known paths.
#[derive(Clone, Debug)]
pub(crate) struct NodeStore<N, A, C> {
    pub(crate) nodes: Vec<N>,
    pub(crate) parents: Vec<u32>,
    pub(crate) g: Vec<C>,
    /// `actions[i - 1]` reaches node `i`; the start (index 0) has none.
    pub(crate) actions: Vec<A>,
    /// Heuristic values, kept only by algorithms that use one.
    pub(crate) h: Vec<C>,
    pub(crate) closed: BitSet,
    pub(crate) dead: BitSet,
    index: HashTable<u32>,
}

impl<N, A, C> Default for NodeStore<N, A, C> {
    fn default() -> Self {
        Self {
            nodes: Vec::new(),
            parents: Vec::new(),
            g: Vec::new(),
            actions: Vec::new(),
            h: Vec::new(),
            closed: BitSet::default(),
            dead: BitSet::default(),
            index: HashTable::new(),
        }
    }
}

/// Where `find_or_insert` put a node.
pub(crate) enum Slot<A> {
    /// Already stored; the action comes back unused.
    Old(u32, A),
    New(u32),
}

impl<N: std::hash::Hash + Eq, A, C: Copy> NodeStore<N, A, C> {
    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
        self.parents.clear();
        self.g.clear();
        self.actions.clear();
        self.h.clear();
        self.closed.clear();
        self.dead.clear();
        self.index.clear();
    }

    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Stores the start node (index 0).
    pub(crate) fn insert_start(&mut self, node: N, g: C) {
        let hash = FxBuildHasher.hash_one(&node);
        self.index.insert_unique(hash, 0, |_| hash);
        self.nodes.push(node);
        self.parents.push(0);
        self.g.push(g);
    }

    /// Finds `node`, or stores it reached from `parent` by `action` at cost
    /// `g`. `None` when the store holds `u32::MAX` nodes.
    #[inline]
    pub(crate) fn find_or_insert(
        &mut self,
        node: N,
        parent: u32,
        action: A,
        g: C,
    ) -> Option<Slot<A>> {
        if self.index.len() == self.index.capacity() {
            self.grow_index();
        }
        let hash = FxBuildHasher.hash_one(&node);
        let nodes = &self.nodes;
        let entry = self.index.entry(
            hash,
            |&i| nodes[i as usize] == node,
            |&i| FxBuildHasher.hash_one(&nodes[i as usize]),
        );
        match entry {
            Entry::Occupied(found) => Some(Slot::Old(*found.get(), action)),
            Entry::Vacant(vacant) => {
                let index = u32::try_from(self.nodes.len())
                    .ok()
                    .filter(|&i| i < u32::MAX)?;
                vacant.insert(index);
                self.nodes.push(node);
                self.parents.push(parent);
                self.g.push(g);
                self.actions.push(action);
                Some(Slot::New(index))
            }
        }
    }

    /// Doubles the index by inserting the nodes in store order: hashbrown's
    /// own resize rehashes in bucket order, reading the nodes at random.
    #[cold]
    fn grow_index(&mut self) {
        let mut index = HashTable::with_capacity((self.index.capacity() * 2).max(16));
        for (i, node) in (0_u32..).zip(&self.nodes) {
            index.insert_unique(FxBuildHasher.hash_one(node), i, |&j| {
                FxBuildHasher.hash_one(&self.nodes[j as usize])
            });
        }
        self.index = index;
    }

    /// Records a cheaper path to a stored node.
    pub(crate) fn improve(&mut self, index: u32, parent: u32, action: A, g: C) {
        let i = index as usize;
        self.parents[i] = parent;
        self.g[i] = g;
        self.actions[i - 1] = action;
    }

    /// Allocated bytes, and the bytes the next growth could add when `room`
    /// more nodes arrive.
    pub(crate) fn bytes(&self, room: usize) -> (usize, usize) {
        let per_node = size_of::<N>() + size_of::<u32>() + size_of::<C>() + size_of::<A>();
        let capacity = self.nodes.capacity();
        let buckets = bucket_count(self.index.capacity());
        let table = buckets * (size_of::<u32>() + 1);
        let heuristic = self.h.capacity() * size_of::<C>();
        let now = capacity * per_node + heuristic + table + self.closed.bytes() + self.dead.bytes();
        let mut growth = 0;
        if self.nodes.len() + room > capacity {
            growth += capacity.max(4) * per_node;
        }
        if self.index.len() + room > self.index.capacity() {
            growth += table.max(64);
        }
        if !self.h.is_empty() && self.h.len() + room > self.h.capacity() {
            growth += self.h.capacity().max(room).max(4) * size_of::<C>();
        }
        let bits = self.nodes.len() + room;
        growth += self.closed.growth(bits) + self.dead.growth(bits);
        (now, growth)
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
