//! One direction of NBS: the nodes it stored, and its open nodes in NBS's
//! two queues.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use super::store::{grows, Inserted, Store};
use crate::{Cost, Node, Statistics};

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
    store: Store<N, A, C>,
    /// Each stored node's estimate and place, by number.
    h: Vec<C>,
    place: Vec<Place>,
    waiting: BinaryHeap<Entry<C>>,
    /// The ready nodes, `(g, number)`.
    ready: BTreeSet<Ready<C>>,
    /// The ready nodes whose `f` is the bound `layer_bound`.
    layer: BTreeSet<Ready<C>>,
    layer_bound: Option<C>,
    /// Open nodes (waiting or ready, live entries only).
    open: usize,
    pub(crate) stats: Statistics,
}

impl<N: Node, A: Clone, C: Cost> Frontier<N, A, C> {
    pub(crate) fn new() -> Self {
        Self {
            store: Store::new(),
            h: Vec::new(),
            place: Vec::new(),
            waiting: BinaryHeap::new(),
            ready: BTreeSet::new(),
            layer: BTreeSet::new(),
            layer_bound: None,
            open: 0,
            stats: Statistics::default(),
        }
    }

    pub(crate) fn store(&self) -> &Store<N, A, C> {
        &self.store
    }

    pub(crate) fn len(&self) -> usize {
        self.store.len()
    }

    pub(crate) fn node(&self, number: u32) -> &N {
        self.store.node(number)
    }

    /// `node`'s number if stored, without storing it.
    pub(crate) fn find(&self, node: &N) -> Option<u32> {
        self.store.find(node)
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
    ) -> Inserted<C> {
        let inserted = self.store.insert(node, parent, g, heap_bytes, |_| true);
        match inserted {
            Inserted::Cheaper(number, old) => {
                match self.place[number as usize] {
                    Place::Closed => self.stats.reopened += 1,
                    Place::Ready => {
                        self.ready.remove(&(old, number));
                        self.layer.remove(&(old, number));
                        self.open -= 1;
                    }
                    // Its older entry goes stale; this one replaces it.
                    Place::Waiting => self.open -= 1,
                }
                self.push_waiting(number, g);
            }
            Inserted::New(number) => {
                self.h.push(h);
                self.place.push(Place::Waiting);
                self.push_waiting(number, g);
            }
            Inserted::NotCheaper => {}
        }
        inserted
    }

    fn push_waiting(&mut self, number: u32, g: C) {
        self.place[number as usize] = Place::Waiting;
        let h = self.h[number as usize];
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
        while let Some(&Reverse((f, number, g))) = self.waiting.peek() {
            if f > bound {
                break;
            }
            self.waiting.pop();
            if self.is_live(number, g) {
                self.place[number as usize] = Place::Ready;
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
            if self.is_live(number, g) {
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
        self.place[number as usize] = Place::Closed;
        self.open -= 1;
        self.stats.expanded += 1;
    }

    /// The engine's estimate of this side's memory: allocated capacity of
    /// the store, its index and the queues, and the nodes' heap bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.store.bytes()
            + self.h.capacity() * size_of::<C>()
            + self.place.capacity() * size_of::<Place>()
            + self.waiting.capacity() * size_of::<Entry<C>>()
            + (self.ready.len() + self.layer.len()) * BTREE_ENTRY * size_of::<(C, u32)>()
    }

    /// What storing `branching` more nodes may add to
    /// [`bytes`](Self::bytes): the growth of every structure they would
    /// fill.
    pub(crate) fn growth(&self, branching: usize) -> usize {
        self.store.growth(branching)
            + grows(self.h.len(), self.h.capacity(), branching, size_of::<C>())
            + grows(
                self.place.len(),
                self.place.capacity(),
                branching,
                size_of::<Place>(),
            )
            + grows(
                self.waiting.len(),
                self.waiting.capacity(),
                branching,
                size_of::<Entry<C>>(),
            )
            + branching * 2 * BTREE_ENTRY * size_of::<(C, u32)>()
    }

    /// Whether a waiting entry of `number` pushed at `g` is live: the node
    /// is still waiting, at that `g`.
    fn is_live(&self, number: u32, g: C) -> bool {
        self.place[number as usize] == Place::Waiting && self.store.g(number) == g
    }
}
