//! The nodes one side of a bidirectional search has stored: each once,
//! numbered in the order stored, with its cheapest `g` and the parent it
//! was reached from. The algorithms keep their open lists beside it.

use std::hash::BuildHasher;

use hashbrown::hash_table::Entry as Slot;
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

use crate::{Cost, Node};

/// How a stored node was reached.
#[derive(Clone, Debug)]
struct Link<A, C> {
    /// The node it was reached from and how; `None` for the root.
    parent: Option<(u32, A)>,
    g: C,
}

/// How [`Store::insert`] took a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Inserted<C> {
    /// First seen: stored under this number.
    New(u32),
    /// Seen before, now reached more cheaply: its number and its old `g`.
    Cheaper(u32, C),
    /// Seen before at the same cost or cheaper.
    NotCheaper,
}

/// The nodes one side of a bidirectional search has stored, numbered in
/// the order it stored them (its root is 0). A [`Meeting`](super::Meeting)
/// finds the other side's nodes here.
pub struct Stored<'a, N> {
    nodes: &'a [N],
    index: &'a HashTable<u32>,
}

impl<N: Node> Stored<'_, N> {
    /// The number of `node`, if this side stored it.
    pub fn find(&self, node: &N) -> Option<u32> {
        let hash = FxBuildHasher.hash_one(node);
        self.index
            .find(hash, |&n| &self.nodes[n as usize] == node)
            .copied()
    }

    /// The node stored under `number`.
    pub fn get(&self, number: u32) -> Option<&N> {
        self.nodes.get(number as usize)
    }

    /// Every stored node with its number, in the order stored (a meeting
    /// that scans instead of keeping an index).
    pub fn iter(&self) -> impl Iterator<Item = (u32, &N)> {
        (0..).zip(self.nodes)
    }

    /// How many nodes this side stored.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether this side stored nothing yet.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// One side's stored nodes, their `g`s and parents, and the hash index
/// that finds a node's number.
#[derive(Clone, Debug)]
pub(crate) struct Store<N, A, C> {
    nodes: Vec<N>,
    links: Vec<Link<A, C>>,
    index: HashTable<u32>,
    /// Heap bytes the stored nodes own, as the space reports them.
    node_heap_bytes: usize,
}

impl<N: Node, A: Clone, C: Cost> Store<N, A, C> {
    pub(crate) fn new() -> Self {
        Self {
            nodes: Vec::new(),
            links: Vec::new(),
            index: HashTable::new(),
            node_heap_bytes: 0,
        }
    }

    /// The stored nodes, for the other side's meeting test.
    pub(crate) fn stored(&self) -> Stored<'_, N> {
        Stored {
            nodes: &self.nodes,
            index: &self.index,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    pub(crate) fn node(&self, number: u32) -> &N {
        &self.nodes[number as usize]
    }

    pub(crate) fn g(&self, number: u32) -> C {
        self.links[number as usize].g
    }

    /// The node `number` was reached from, if it is not the root.
    pub(crate) fn parent(&self, number: u32) -> Option<u32> {
        self.links[number as usize].parent.as_ref().map(|&(p, _)| p)
    }

    /// `node`'s number if stored, without storing it.
    pub(crate) fn find(&self, node: &N) -> Option<u32> {
        self.stored().find(node)
    }

    /// Stores `node` reached at `g` from `parent` (it owns `heap_bytes`),
    /// or, if `g` is lower than its own and `improve` allows it for its
    /// number, lowers its `g` and takes the new parent.
    pub(crate) fn insert(
        &mut self,
        node: N,
        parent: Option<(u32, A)>,
        g: C,
        heap_bytes: usize,
        improve: impl FnOnce(u32) -> bool,
    ) -> Inserted<C> {
        let hash = FxBuildHasher.hash_one(&node);
        let nodes = &self.nodes;
        let slot = self.index.entry(
            hash,
            |&n| nodes[n as usize] == node,
            |&n| FxBuildHasher.hash_one(&nodes[n as usize]),
        );
        match slot {
            Slot::Occupied(found) => {
                let number = *found.get();
                let link = &mut self.links[number as usize];
                if g >= link.g || !improve(number) {
                    return Inserted::NotCheaper;
                }
                let old = link.g;
                link.g = g;
                link.parent = parent;
                Inserted::Cheaper(number, old)
            }
            Slot::Vacant(vacant) => {
                let number = u32::try_from(self.nodes.len()).unwrap_or(u32::MAX);
                vacant.insert(number);
                self.nodes.push(node);
                self.links.push(Link { parent, g });
                self.node_heap_bytes += heap_bytes;
                Inserted::New(number)
            }
        }
    }

    /// The path from the root to `number`: its nodes and the actions
    /// between them, root first.
    pub(crate) fn path(&self, number: u32) -> (Vec<N>, Vec<A>) {
        let (mut nodes, mut actions) = (Vec::new(), Vec::new());
        let mut at = number;
        loop {
            nodes.push(self.nodes[at as usize].clone());
            match &self.links[at as usize].parent {
                Some((parent, action)) => {
                    actions.push(action.clone());
                    at = *parent;
                }
                None => break,
            }
        }
        nodes.reverse();
        actions.reverse();
        (nodes, actions)
    }

    /// Allocated capacity of the nodes, links and index, and the nodes'
    /// heap bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.nodes.capacity() * size_of::<N>()
            + self.links.capacity() * size_of::<Link<A, C>>()
            + self.index.capacity() * (size_of::<u32>() + 1)
            + self.node_heap_bytes
    }

    /// What storing `branching` more nodes may add to
    /// [`bytes`](Self::bytes).
    pub(crate) fn growth(&self, branching: usize) -> usize {
        grows(
            self.nodes.len(),
            self.nodes.capacity(),
            branching,
            size_of::<N>(),
        ) + grows(
            self.links.len(),
            self.links.capacity(),
            branching,
            size_of::<Link<A, C>>(),
        ) + grows(
            self.index.len(),
            self.index.capacity(),
            branching,
            2 * (size_of::<u32>() + 1),
        )
    }
}

/// What a collection of `len` of `capacity` entries of `each` bytes may
/// add when `branching` more are pushed: a doubling, if they do not fit.
pub(crate) fn grows(len: usize, capacity: usize, branching: usize, each: usize) -> usize {
    if len + branching > capacity {
        capacity.max(branching).max(4) * each
    } else {
        0
    }
}
