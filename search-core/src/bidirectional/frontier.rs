//! One direction of a bidirectional search: the nodes it stored, each
//! once, and its open nodes in NBS's two queues.

use std::cmp::Reverse;
use std::collections::binary_heap::PeekMut;
use std::collections::{BTreeSet, BinaryHeap};
use std::hash::BuildHasher;

use hashbrown::hash_table::Entry as Slot;
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

use crate::{Cost, Node, Statistics};

/// What a direction knows of one stored node.
#[derive(Clone, Debug)]
struct Link<A, C> {
    /// The node it was reached from and how; `None` for the root.
    parent: Option<(u32, A)>,
    g: C,
    h: C,
    place: Place,
}

/// Where a stored node is in the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Open, its `f` above the lower bound so far.
    Waiting,
    /// Open, its `f` within the lower bound.
    Ready,
    /// Expanded.
    Closed,
}

/// A ready node: its `g` and number.
pub(crate) type Ready<C> = (C, u32);

/// A pair to expand: a forward node and a backward one.
pub(crate) type Pair<C> = (Ready<C>, Ready<C>);

/// A waiting entry: `(f, number, g)`, ordered on `f` and then on the
/// number. The `g` it was pushed with tells a stale entry (the node
/// reached more cheaply since, or made ready) from a live one.
type Entry<C> = Reverse<(C, u32, C)>;

/// A B-tree set's bytes per entry, over the entry's own size: its nodes
/// are about two-thirds full, with a pointer per child.
const BTREE_ENTRY: usize = 2;

/// How many of the last layer's deepest nodes [`Frontier::pick`] tries
/// before it takes the least `g` instead.
const DEEPEST_TRIED: usize = 32;

/// How [`Frontier::insert`] took a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Inserted {
    /// First seen: stored under this number.
    New(u32),
    /// Seen before, now reached more cheaply (and open again if it was
    /// closed).
    Cheaper(u32),
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

/// One direction's store and open list.
///
/// The open list is NBS's: nodes wait, ordered on `f`, until the lower
/// bound reaches their `f`; then they are ready, ordered on `g`, and a
/// pair of ready nodes (one per side) whose `g`s add up to at most the
/// bound is expanded: NBS's pair of least `g`s, or, when every ready node
/// of a side lies on the bound's own layer (`f` equal to it, as when the
/// bound has reached the optimal cost), the deepest such node that still
/// pairs, so that the search dives through the last layer toward a
/// meeting as A*'s ties on the higher `g` do, where least `g`s would
/// sweep the whole layer breadth first. A node of that layer has its
/// cheapest `g` (with a consistent heuristic, no open node of the side
/// has a lower `f`), so each node is still expanded once.
#[derive(Clone, Debug)]
pub(crate) struct Frontier<N, A, C> {
    nodes: Vec<N>,
    links: Vec<Link<A, C>>,
    index: HashTable<u32>,
    waiting: BinaryHeap<Entry<C>>,
    /// The ready nodes, `(g, number)`.
    ready: BTreeSet<Ready<C>>,
    /// The ready nodes whose `f` is the bound `layer_bound`.
    layer: BTreeSet<Ready<C>>,
    layer_bound: Option<C>,
    /// Open nodes (waiting or ready, live entries only).
    open: usize,
    /// Heap bytes the stored nodes own, as the space reports them.
    node_heap_bytes: usize,
    pub(crate) stats: Statistics,
}

impl<N: Node, A: Clone, C: Cost> Frontier<N, A, C> {
    pub(crate) fn new() -> Self {
        Self {
            nodes: Vec::new(),
            links: Vec::new(),
            index: HashTable::new(),
            waiting: BinaryHeap::new(),
            ready: BTreeSet::new(),
            layer: BTreeSet::new(),
            layer_bound: None,
            open: 0,
            node_heap_bytes: 0,
            stats: Statistics::default(),
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

    /// `node`'s number if stored, without storing it.
    pub(crate) fn find(&self, node: &N) -> Option<u32> {
        self.stored().find(node)
    }

    /// Stores `node` reached at `g` from `parent`, or lowers its `g`;
    /// `estimate` gives its `h` when it is new. An improved node is open
    /// again (waiting).
    pub(crate) fn insert(
        &mut self,
        node: N,
        parent: Option<(u32, A)>,
        g: C,
        h: C,
        heap_bytes: usize,
    ) -> Inserted {
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
                if g >= link.g {
                    return Inserted::NotCheaper;
                }
                let old = (link.g, number);
                link.g = g;
                link.parent = parent;
                match link.place {
                    Place::Closed => self.stats.reopened += 1,
                    Place::Ready => {
                        self.ready.remove(&old);
                        self.layer.remove(&old);
                        self.open -= 1;
                    }
                    // Its older entry goes stale; this one replaces it.
                    Place::Waiting => self.open -= 1,
                }
                let h = link.h;
                self.push_waiting(number, g, h);
                Inserted::Cheaper(number)
            }
            Slot::Vacant(vacant) => {
                let number = u32::try_from(self.nodes.len()).unwrap_or(u32::MAX);
                vacant.insert(number);
                self.nodes.push(node);
                self.links.push(Link {
                    parent,
                    g,
                    h,
                    place: Place::Waiting,
                });
                self.node_heap_bytes += heap_bytes;
                self.push_waiting(number, g, h);
                Inserted::New(number)
            }
        }
    }

    fn push_waiting(&mut self, number: u32, g: C, h: C) {
        self.links[number as usize].place = Place::Waiting;
        self.waiting.push(Reverse((g.saturating_add(h), number, g)));
        self.open += 1;
        self.stats.max_open = self.stats.max_open.max(self.open);
    }

    /// Whether no node is open.
    pub(crate) fn is_dry(&self) -> bool {
        self.open == 0
    }

    /// Moves the waiting nodes whose `f` is at most `bound` to the ready
    /// set, and those whose `f` is `bound` to its layer too.
    pub(crate) fn make_ready(&mut self, bound: C) {
        if self.layer_bound != Some(bound) {
            // Every ready node's `f` is below a bound that rose.
            self.layer.clear();
            self.layer_bound = Some(bound);
        }
        while let Some(top) = self.waiting.peek_mut() {
            if top.0 .0 > bound {
                break;
            }
            let Reverse((f, number, g)) = PeekMut::pop(top);
            let link = &mut self.links[number as usize];
            if link.place == Place::Waiting && link.g == g {
                link.place = Place::Ready;
                self.ready.insert((g, number));
                if f == bound {
                    self.layer.insert((g, number));
                }
            }
        }
    }

    /// The smallest `f` among the waiting nodes.
    pub(crate) fn least_waiting_f(&mut self) -> Option<C> {
        while let Some(&Reverse((f, number, g))) = self.waiting.peek() {
            let link = &self.links[number as usize];
            if link.place == Place::Waiting && link.g == g {
                return Some(f);
            }
            self.waiting.pop();
        }
        None
    }

    /// The smallest `g` among the ready nodes.
    pub(crate) fn least_ready_g(&self) -> Option<C> {
        self.ready.first().map(|&(g, _)| g)
    }

    /// The ready node to expand, its `g` at most `pairs` allows: the
    /// deepest of the bound's layer when every ready node is on it, else
    /// (or if none of the deepest few pairs) the one of least `g`.
    pub(crate) fn pick(&self, pairs: impl Fn(C) -> bool) -> Option<Ready<C>> {
        let least = self.ready.first().copied()?;
        if self.layer.len() == self.ready.len() {
            let deepest = self.layer.iter().rev().take(DEEPEST_TRIED);
            if let Some(&found) = deepest
                .take_while(|&&(g, _)| g > least.0)
                .find(|&&(g, _)| pairs(g))
            {
                return Some(found);
            }
        }
        Some(least)
    }

    /// Closes ready node `number` reached at `g`, to expand it.
    pub(crate) fn close(&mut self, (g, number): Ready<C>) {
        self.ready.remove(&(g, number));
        self.layer.remove(&(g, number));
        self.links[number as usize].place = Place::Closed;
        self.open -= 1;
        self.stats.expanded += 1;
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

    /// The engine's estimate of this side's memory: allocated capacity of
    /// the store, its index and the queues, and the nodes' heap bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.nodes.capacity() * size_of::<N>()
            + self.links.capacity() * size_of::<Link<A, C>>()
            + self.index.capacity() * (size_of::<u32>() + 1)
            + self.waiting.capacity() * size_of::<Entry<C>>()
            + (self.ready.len() + self.layer.len()) * BTREE_ENTRY * size_of::<(C, u32)>()
            + self.node_heap_bytes
    }

    /// What storing `branching` more nodes may add to
    /// [`bytes`](Self::bytes): the growth of every structure they would
    /// fill.
    pub(crate) fn growth(&self, branching: usize) -> usize {
        let grows = |len: usize, capacity: usize, each: usize| {
            if len + branching > capacity {
                capacity.max(branching).max(4) * each
            } else {
                0
            }
        };
        let entry = size_of::<Entry<C>>();
        grows(self.nodes.len(), self.nodes.capacity(), size_of::<N>())
            + grows(
                self.links.len(),
                self.links.capacity(),
                size_of::<Link<A, C>>(),
            )
            + grows(
                self.index.len(),
                self.index.capacity(),
                2 * (size_of::<u32>() + 1),
            )
            + grows(self.waiting.len(), self.waiting.capacity(), entry)
            + branching * 2 * BTREE_ENTRY * size_of::<(C, u32)>()
    }
}
