//! Open lists, chosen by measurement (see BENCHMARKS.md, `grid/*`).
//!
//! Every open list pops in the same order: lowest priority, then highest `g`,
//! then first pushed (FIFO), as Fast Downward's `[f, h]` tie-breaking open
//! list does. So the choice below changes speed, never the expansions.
//!
//! - [`BucketQueue`]: for A*, weighted A* and Dijkstra with integer costs.
//!   Priorities are small integers there, so a vector of FIFO buckets indexed
//!   by (priority, priority - g) makes push and pop `O(1)`. On the 1000x1000
//!   grids it made Dijkstra and A* markedly faster than the heap (BENCHMARKS.md).
//!   A priority beyond [`MAX_BUCKETS`] moves the entries into the heap.
//!   Without a memory limit, entries above the lowest priority wait in one
//!   list per priority and are bucketed when the search gets there (A*'s
//!   detours then cost an append, and none at all if the goal comes first).
//! - A binary heap with lazy deletion for everything else (float costs, greedy
//!   best-first): a node whose path improves is pushed again and the stale
//!   entry is skipped when it surfaces (its node is already closed). This
//!   avoids the position bookkeeping of a decrease-key queue.
//! - A decrease-key queue (`priority-queue`) holds each node once and lowers
//!   its priority in place when its path improves. It is available through
//!   [`OpenListKind::DecreaseKey`] for measurement; it never won (its position
//!   map costs a hash lookup per push and pop).
//! - Breadth-first search needs no open list: nodes are stored in the order
//!   they are found, which is the FIFO order, so a cursor over the store is
//!   the queue.

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, VecDeque};
use std::mem::size_of;

use priority_queue::PriorityQueue;
use rustc_hash::FxHasher;
use std::hash::BuildHasherDefault;

/// Which open list a best-first search uses. Breadth-first search ignores it.
///
/// Every kind pops in the same order, so the choice changes speed and
/// memory, never the expansions; see the module docs of `search_core::open`
/// in the source and BENCHMARKS.md for the measurements.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OpenListKind {
    /// The measured best: buckets for A*, weighted A* and Dijkstra with
    /// integer costs, the binary heap otherwise.
    #[default]
    Auto,
    /// A binary heap with lazy deletion.
    BinaryHeap,
    /// Buckets where priorities are small integers, else the binary heap.
    Buckets,
    /// A decrease-key priority queue.
    DecreaseKey,
}

/// Priorities (and priority - g) at or beyond this use the heap instead.
pub(crate) const MAX_BUCKETS: usize = 1 << 16;

/// A heap entry: the priority, the path cost and push order for
/// tie-breaking, and the node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<C> {
    pub(crate) key: C,
    pub(crate) g: C,
    pub(crate) seq: u32,
    pub(crate) index: u32,
}

impl<C: Ord> Ord for Entry<C> {
    /// The heap pops the greatest entry: lowest key, then highest `g`, then
    /// the first pushed.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .key
            .cmp(&self.key)
            .then_with(|| self.g.cmp(&other.g))
            .then_with(|| other.seq.cmp(&self.seq))
    }
}

impl<C: Ord> PartialOrd for Entry<C> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<C: Ord> PartialEq for Entry<C> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<C: Ord> Eq for Entry<C> {}

/// FIFO buckets indexed by priority, then by priority - g.
#[derive(Clone, Debug, Default)]
pub(crate) struct BucketQueue {
    levels: Vec<Level>,
    /// No level below this holds an entry.
    lowest: usize,
    len: usize,
    bytes: usize,
    /// Emptied buckets, kept to be reused so memory follows the open list's
    /// size, not the number of priorities seen.
    spare: Vec<VecDeque<u32>>,
}

#[derive(Clone, Debug, Default)]
struct Level {
    slots: Vec<VecDeque<u32>>,
    /// `(depth, index)` of entries deferred while the level was above the
    /// lowest, in push order; they move into `slots` when the level becomes
    /// the lowest (see [`BucketQueue::push_deferred`]).
    deferred: Vec<(u32, u32)>,
    lowest: usize,
    len: usize,
}

impl BucketQueue {
    fn clear(&mut self) {
        for level in &mut self.levels {
            if level.len > 0 {
                level.slots.iter_mut().for_each(VecDeque::clear);
                level.deferred.clear();
                level.len = 0;
            }
            level.lowest = 0;
        }
        self.lowest = 0;
        self.len = 0;
    }

    /// Pushes `index` at `(key, key - g)`; both must be below [`MAX_BUCKETS`].
    #[inline]
    pub(crate) fn push(&mut self, key: usize, depth: usize, index: u32) {
        if key >= self.levels.len() {
            self.add_levels(key);
        }
        let level = &mut self.levels[key];
        if depth >= level.slots.len() {
            self.bytes += Self::add_slots(level, depth);
        }
        let slot = &mut level.slots[depth];
        if slot.len() == slot.capacity() {
            self.bytes += Self::make_room(slot, &mut self.spare);
        }
        slot.push_back(index);
        level.len += 1;
        level.lowest = level.lowest.min(depth);
        self.lowest = self.lowest.min(key);
        self.len += 1;
    }

    /// Like [`push`](BucketQueue::push), but an entry above the lowest level
    /// is appended to its level's deferred list instead of its bucket. A*'s
    /// detours pile up one level above the one it expands, spread over
    /// every depth; appending them to one list writes memory in order
    /// instead of touching a bucket each, and a level the search never
    /// reaches is never sorted (A* on the 25% grid: 13% of its time was
    /// these pushes). Pop order is unchanged: a level's deferred entries
    /// join the back of their buckets, in push order, before its first pop.
    /// Not used under a memory limit, whose projection
    /// ([`OpenList::bytes`]) does not foresee that later move.
    #[inline]
    pub(crate) fn push_deferred(&mut self, key: usize, depth: usize, index: u32) {
        if key <= self.lowest || depth == 0 {
            self.push(key, depth, index);
            return;
        }
        if key >= self.levels.len() {
            self.add_levels(key);
        }
        let level = &mut self.levels[key];
        if level.deferred.len() == level.deferred.capacity() {
            let before = level.deferred.capacity();
            level.deferred.reserve(1);
            self.bytes += (level.deferred.capacity() - before) * size_of::<(u32, u32)>();
        }
        #[expect(clippy::cast_possible_truncation, reason = "depth < MAX_BUCKETS")]
        level.deferred.push((depth as u32, index));
        level.len += 1;
        self.len += 1;
    }

    /// Moves a level's deferred entries into its buckets, in push order.
    #[cold]
    fn place_deferred(&mut self, key: usize) {
        let Self {
            levels,
            bytes,
            spare,
            ..
        } = self;
        let level = &mut levels[key];
        let mut deferred = std::mem::take(&mut level.deferred);
        for &(depth, index) in &deferred {
            let depth = depth as usize;
            if depth >= level.slots.len() {
                *bytes += Self::add_slots(level, depth);
            }
            let slot = &mut level.slots[depth];
            if slot.len() == slot.capacity() {
                *bytes += Self::make_room(slot, spare);
            }
            slot.push_back(index);
            level.lowest = level.lowest.min(depth);
        }
        deferred.clear();
        level.deferred = deferred;
    }

    // The growth paths below are rare (a new priority, a full bucket) and kept
    // out of line so that a push is a few instructions.

    #[cold]
    fn add_levels(&mut self, key: usize) {
        self.levels.resize_with(key + 1, Level::default);
    }

    /// Adds slots up to `depth`; returns the bytes allocated.
    #[cold]
    fn add_slots(level: &mut Level, depth: usize) -> usize {
        let before = level.slots.capacity();
        level.slots.resize_with(depth + 1, VecDeque::new);
        (level.slots.capacity() - before) * size_of::<VecDeque<u32>>()
    }

    /// Makes room for one more entry in a full bucket, from a spare one if it
    /// has never held any; returns the bytes allocated.
    #[cold]
    fn make_room(slot: &mut VecDeque<u32>, spare: &mut Vec<VecDeque<u32>>) -> usize {
        if slot.capacity() == 0 {
            if let Some(reused) = spare.pop() {
                *slot = reused;
            }
        }
        let before = slot.capacity();
        slot.reserve(1);
        (slot.capacity() - before) * size_of::<u32>()
    }

    /// Bytes a push at `(key, depth)` would allocate.
    fn push_growth(&self, key: usize, depth: usize) -> usize {
        let mut bytes = vec_growth(self.levels.capacity(), key + 1) * size_of::<Level>();
        let slots = self
            .levels
            .get(key)
            .map_or(0, |level| level.slots.capacity());
        bytes += vec_growth(slots, depth + 1) * size_of::<VecDeque<u32>>();
        let slot = self
            .levels
            .get(key)
            .and_then(|level| level.slots.get(depth));
        match slot {
            Some(slot) if slot.len() < slot.capacity() => bytes,
            Some(slot) if slot.capacity() > 0 => bytes + slot.capacity() * size_of::<u32>(),
            _ if !self.spare.is_empty() => bytes,
            _ => bytes + 4 * size_of::<u32>(),
        }
    }

    /// Pops the first entry of the lowest bucket, with its priority.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(usize, u32)> {
        if self.len == 0 {
            return None;
        }
        while self.levels[self.lowest].len == 0 {
            self.lowest += 1;
        }
        let key = self.lowest;
        if !self.levels[key].deferred.is_empty() {
            self.place_deferred(key);
        }
        let level = &mut self.levels[key];
        while level.slots[level.lowest].is_empty() {
            level.lowest += 1;
        }
        let index = level.slots[level.lowest].pop_front()?;
        level.len -= 1;
        self.len -= 1;
        if level.len == 0 {
            Self::retire(level, &mut self.spare);
        }
        Some((key, index))
    }

    /// Keeps the buckets of an emptied level as spares for other levels.
    #[cold]
    fn retire(level: &mut Level, spare: &mut Vec<VecDeque<u32>>) {
        level.lowest = usize::MAX;
        let emptied = level.slots.iter_mut().filter(|slot| slot.capacity() > 0);
        spare.extend(emptied.map(std::mem::take));
    }

    /// Takes every entry out in pop order.
    fn drain(&mut self) -> Vec<(usize, u32)> {
        let mut entries = Vec::with_capacity(self.len);
        while let Some(entry) = self.pop() {
            entries.push(entry);
        }
        entries
    }
}

/// Elements a `Vec` of `capacity` adds when resized to `len` (it at least
/// doubles).
fn vec_growth(capacity: usize, len: usize) -> usize {
    if len <= capacity {
        0
    } else {
        len.max(capacity * 2).max(4) - capacity
    }
}

/// A decrease-key rank: the queue pops the greatest, so lowest key, then
/// highest `g`, then first pushed.
type Rank<C> = (Reverse<C>, C, Reverse<u32>);

/// The open list of one search.
#[derive(Clone, Debug)]
pub(crate) struct OpenList<C> {
    pub(crate) heap: BinaryHeap<Entry<C>>,
    pub(crate) buckets: BucketQueue,
    decrease_key: PriorityQueue<u32, Rank<C>, BuildHasherDefault<FxHasher>>,
    pub(crate) use_buckets: bool,
    use_decrease_key: bool,
    seq: u32,
}

impl<C: Ord> Default for OpenList<C> {
    fn default() -> Self {
        Self {
            heap: BinaryHeap::new(),
            buckets: BucketQueue::default(),
            decrease_key: PriorityQueue::with_default_hasher(),
            use_buckets: false,
            use_decrease_key: false,
            seq: 0,
        }
    }
}

impl<C: Ord + Copy> OpenList<C> {
    /// Empties the list and picks its kind; `buckets_possible` says whether
    /// this search's priorities can be buckets.
    pub(crate) fn clear(&mut self, kind: OpenListKind, buckets_possible: bool) {
        self.heap.clear();
        self.buckets.clear();
        self.decrease_key.clear();
        self.use_buckets =
            buckets_possible && matches!(kind, OpenListKind::Auto | OpenListKind::Buckets);
        self.use_decrease_key = kind == OpenListKind::DecreaseKey;
        self.seq = 0;
    }

    pub(crate) fn len(&self) -> usize {
        self.heap.len() + self.buckets.len + self.decrease_key.len()
    }

    /// Pushes an entry; `slot` is its `(key, key - g)` bucket when it has one.
    /// An entry without a bucket moves every entry to the heap for good;
    /// `entry_of` rebuilds heap entries from bucketed ones.
    #[inline]
    pub(crate) fn push(
        &mut self,
        entry_key: C,
        g: C,
        index: u32,
        slot: Option<(usize, usize)>,
        entry_of: impl Fn(u32) -> (C, C),
    ) {
        if self.use_buckets {
            match slot {
                Some((key, depth)) if key < MAX_BUCKETS && depth < MAX_BUCKETS => {
                    self.buckets.push(key, depth, index);
                    return;
                }
                _ => self.leave_buckets(entry_of),
            }
        }
        self.push_heap(entry_key, g, index);
    }

    /// Moves every bucketed entry to the heap, for good.
    #[cold]
    fn leave_buckets(&mut self, entry_of: impl Fn(u32) -> (C, C)) {
        self.use_buckets = false;
        for (_, moved) in self.buckets.drain() {
            let (key, g) = entry_of(moved);
            self.push_heap(key, g, moved);
        }
    }

    /// Bytes a push into `slot` would allocate beyond what
    /// [`bytes`](OpenList::bytes) projects (a bucket push can add many levels).
    pub(crate) fn push_growth(&self, slot: Option<(usize, usize)>) -> usize {
        match slot {
            Some((key, depth)) if self.use_buckets && key < MAX_BUCKETS && depth < MAX_BUCKETS => {
                self.buckets.push_growth(key, depth)
            }
            _ => 0,
        }
    }

    fn push_heap(&mut self, key: C, g: C, index: u32) {
        let seq = self.seq;
        self.seq = self.seq.wrapping_add(1);
        if self.use_decrease_key {
            // A node already queued gets its new (better) rank in place.
            self.decrease_key
                .push(index, (Reverse(key), g, Reverse(seq)));
        } else {
            self.heap.push(Entry { key, g, seq, index });
        }
    }

    /// Pops the next entry: its priority (as a bucket or a cost) and node.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(Priority<C>, u32)> {
        if self.use_buckets {
            self.buckets
                .pop()
                .map(|(key, index)| (Priority::Bucket(key), index))
        } else if self.use_decrease_key {
            self.decrease_key
                .pop()
                .map(|(index, (Reverse(key), _, _))| (Priority::Cost(key), index))
        } else {
            self.heap
                .pop()
                .map(|entry| (Priority::Cost(entry.key), entry.index))
        }
    }

    /// Allocated bytes, and the bytes the next growth could add when `room`
    /// more entries arrive.
    pub(crate) fn bytes(&self, room: usize) -> (usize, usize) {
        let heap = self.heap.capacity() * size_of::<Entry<C>>();
        let buckets = self.buckets.bytes
            + self.buckets.levels.capacity() * size_of::<Level>()
            + self.buckets.spare.capacity() * size_of::<VecDeque<u32>>();
        // The queue's map and heap: an index, a rank and bookkeeping each.
        let per_entry = size_of::<u32>() + size_of::<Rank<C>>() + 3 * size_of::<usize>();
        let decrease_key = self.decrease_key.capacity() * per_entry;
        let mut growth = 0;
        if self.heap.len() + room > self.heap.capacity() {
            growth += heap.max(64);
        }
        if self.use_decrease_key && self.decrease_key.len() + room > self.decrease_key.capacity() {
            growth += (2 * decrease_key).max(64 * per_entry);
        }
        if self.use_buckets {
            // A new bucket holds 4 entries at first; a full one doubles.
            growth += room * (size_of::<VecDeque<u32>>() + 4 * size_of::<u32>());
        }
        (heap + buckets + decrease_key, growth)
    }
}

/// The priority of a popped entry, for the last-jump statistic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Priority<C> {
    Bucket(usize),
    Cost(C),
}
