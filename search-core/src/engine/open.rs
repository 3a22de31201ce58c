//! Open lists, chosen by measurement (see BENCHMARKS.md, `grid/*`).
//!
//! Every open list pops in the same order: lowest priority, then highest `g`,
//! then first pushed (FIFO), as Fast Downward's `[f, h]` tie-breaking open
//! list does. (Greedy search pushes every node with `g` zero, so among equal
//! `h` the first pushed goes first.) So the choice below changes speed,
//! never the expansions.
//!
//! - [`BucketQueue`]: for A*, weighted A* and Dijkstra with integer costs.
//!   Priorities are small integers there, so a vector of FIFO buckets indexed
//!   by (priority, priority - g) makes push and pop `O(1)`. On the 1000x1000
//!   grids it made Dijkstra and A* markedly faster than the heap (BENCHMARKS.md).
//!   A priority beyond [`MAX_BUCKETS`] moves the entries into the heap, and
//!   so does a push that would make the buckets outgrow the entries (sparse
//!   priorities each at a large depth): memory stays linear in the entries.
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
///
/// Memory follows the entries, not the priorities and depths seen: a level
/// that empties gives its buckets back, and a push that would make the
/// buckets of all levels together more than [`BucketQueue::slot_budget`]
/// is refused, so that the caller moves to the heap for good. (A heuristic
/// that grows along the path puts each entry at its own priority with its
/// own depth: one bucket per depth at every priority was 16 B x n^2.) The
/// header of each priority up to the highest seen stays, 64 B each: at most
/// [`MAX_BUCKETS`] of them.
#[derive(Clone, Debug, Default)]
pub(crate) struct BucketQueue {
    levels: Vec<Level>,
    /// No level below this holds an entry.
    lowest: usize,
    len: usize,
    /// Bytes of the levels' buckets, deferred lists and spares (not of
    /// `levels` itself).
    bytes: usize,
    /// Buckets (`VecDeque` headers) allocated in every level's `slots` and
    /// in `spare_slots`.
    slots: usize,
    /// Emptied buckets, kept to be reused so memory follows the open list's
    /// size, not the number of priorities seen.
    spare: Vec<VecDeque<u32>>,
    /// The largest bucket vector an emptied level gave back (every bucket
    /// in it without a buffer), for the next level that needs one.
    spare_slots: Vec<VecDeque<u32>>,
    /// The largest deferred list placed so far, emptied, for reuse.
    spare_deferred: Vec<(u32, u32)>,
    /// Entries pushed, and buckets made or stepped over on the way to the
    /// lowest: where priorities are sparse and deep (long edges, a wide
    /// heuristic) each level costs its depth in buckets for a few entries,
    /// and the heap is faster ([`worn`](BucketQueue::worn)).
    pushes: usize,
    work: usize,
}

/// Buckets a bucket queue may make or step over per entry (plus
/// [`WORK_SLACK`]) before the heap takes over: a 1000x1000 unit grid
/// needs about 2 per entry, a road graph with lengths near 100 thousands.
const WORK_PER_ENTRY: usize = 16;
const WORK_SLACK: usize = 1 << 16;

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
        for key in 0..self.levels.len() {
            let level = &mut self.levels[key];
            if level.len > 0 {
                level.slots.iter_mut().for_each(VecDeque::clear);
                level.deferred.clear();
                level.len = 0;
                self.retire(key);
            }
            self.levels[key].lowest = 0;
        }
        self.lowest = 0;
        self.len = 0;
        self.pushes = 0;
        self.work = 0;
    }

    /// The most buckets all levels may hold after a push at `depth`: four
    /// per entry, room for one level as deep as the push (twice, for the
    /// vector's growth), and 1,024 to spare.
    #[inline]
    fn slot_budget(&self, depth: usize) -> usize {
        4 * self.len + 2 * (depth + 1) + 1024
    }

    /// Pushes `index` at `(key, key - g)`; both must be below [`MAX_BUCKETS`].
    /// Returns false, and pushes nothing, if the buckets would pass
    /// [`slot_budget`](BucketQueue::slot_budget).
    #[inline]
    #[must_use]
    pub(crate) fn push(&mut self, key: usize, depth: usize, index: u32) -> bool {
        if self.worn() {
            return false;
        }
        self.pushes += 1;
        if key >= self.levels.len() {
            self.add_levels(key);
        }
        if depth >= self.levels[key].slots.len() {
            let budget = self.slot_budget(depth);
            if !self.add_slots(key, depth, Some(budget)) {
                return false;
            }
        }
        let level = &mut self.levels[key];
        let slot = &mut level.slots[depth];
        if slot.len() == slot.capacity() {
            self.bytes += Self::make_room(slot, &mut self.spare);
        }
        slot.push_back(index);
        level.len += 1;
        level.lowest = level.lowest.min(depth);
        self.lowest = self.lowest.min(key);
        self.len += 1;
        true
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
    #[must_use]
    pub(crate) fn push_deferred(&mut self, key: usize, depth: usize, index: u32) -> bool {
        if key <= self.lowest || depth == 0 || self.worn() {
            return self.push(key, depth, index);
        }
        self.pushes += 1;
        if key >= self.levels.len() {
            self.add_levels(key);
        }
        let level = &mut self.levels[key];
        if level.deferred.len() == level.deferred.capacity() {
            self.bytes += Self::grow_deferred(&mut level.deferred, &mut self.spare_deferred);
        }
        #[expect(clippy::cast_possible_truncation, reason = "depth < MAX_BUCKETS")]
        level.deferred.push((depth as u32, index));
        level.len += 1;
        self.len += 1;
        true
    }

    /// Moves a level's deferred entries into its buckets, in push order.
    /// Not refused: it adds at most one level's depths past the budget.
    #[cold]
    fn place_deferred(&mut self, key: usize) {
        let mut deferred = std::mem::take(&mut self.levels[key].deferred);
        let deepest = deferred.iter().map(|&(depth, _)| depth).max().unwrap_or(0);
        if deepest as usize >= self.levels[key].slots.len() {
            self.add_slots(key, deepest as usize, None);
        }
        let Self {
            levels,
            bytes,
            spare,
            ..
        } = self;
        let level = &mut levels[key];
        for &(depth, index) in &deferred {
            let depth = depth as usize;
            let slot = &mut level.slots[depth];
            if slot.len() == slot.capacity() {
                *bytes += Self::make_room(slot, spare);
            }
            slot.push_back(index);
            level.lowest = level.lowest.min(depth);
        }
        deferred.clear();
        // Keep the larger of this list and the spare; free the other.
        if deferred.capacity() > self.spare_deferred.capacity() {
            std::mem::swap(&mut deferred, &mut self.spare_deferred);
        }
        self.bytes -= deferred.capacity() * size_of::<(u32, u32)>();
    }

    // The growth paths below are rare (a new priority, a full bucket) and kept
    // out of line so that a push is a few instructions.

    #[cold]
    fn add_levels(&mut self, key: usize) {
        self.levels.resize_with(key + 1, Level::default);
    }

    /// Gives level `key` buckets up to `depth`, from the spare if it has
    /// none; false (and nothing done) if that would pass `budget` buckets.
    #[cold]
    fn add_slots(&mut self, key: usize, depth: usize, budget: Option<usize>) -> bool {
        let level = &mut self.levels[key];
        let spare = level.slots.capacity() == 0 && self.spare_slots.capacity() > 0;
        let before = if spare {
            self.spare_slots.capacity()
        } else {
            level.slots.capacity()
        };
        let added = vec_growth(before, depth + 1);
        if budget.is_some_and(|budget| added > 0 && self.slots + added > budget) {
            return false;
        }
        if spare {
            level.slots = std::mem::take(&mut self.spare_slots);
            level.slots.clear();
        }
        self.work += (depth + 1).saturating_sub(level.slots.len());
        level.slots.resize_with(depth + 1, VecDeque::new);
        let added = level.slots.capacity() - before;
        self.slots += added;
        self.bytes += added * size_of::<VecDeque<u32>>();
        true
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

    /// Makes room in a full deferred list, from the spare if it has none;
    /// returns the bytes allocated.
    #[cold]
    fn grow_deferred(deferred: &mut Vec<(u32, u32)>, spare: &mut Vec<(u32, u32)>) -> usize {
        if deferred.capacity() == 0 && spare.capacity() > 0 {
            std::mem::swap(deferred, spare);
            return 0;
        }
        let before = deferred.capacity();
        deferred.reserve(1);
        (deferred.capacity() - before) * size_of::<(u32, u32)>()
    }

    /// Whether the buckets have cost more than [`WORK_PER_ENTRY`] per
    /// entry: pushes are then refused, and the open list moves to the heap.
    fn worn(&self) -> bool {
        self.work > WORK_PER_ENTRY * self.pushes + WORK_SLACK
    }

    /// Whether [`push`](BucketQueue::push) would take an entry at
    /// `(key, depth)` (both below [`MAX_BUCKETS`]).
    fn accepts(&self, key: usize, depth: usize) -> bool {
        if self.worn() {
            return false;
        }
        let (capacity, len) = match self.levels.get(key) {
            Some(level) if level.slots.capacity() > 0 => {
                (level.slots.capacity(), level.slots.len())
            }
            _ => (self.spare_slots.capacity(), 0),
        };
        let added = if depth < len {
            0
        } else {
            vec_growth(capacity, depth + 1)
        };
        added == 0 || self.slots + added <= self.slot_budget(depth)
    }

    /// Bytes a push at `(key, depth)` would allocate.
    fn push_growth(&self, key: usize, depth: usize) -> usize {
        let mut bytes = vec_growth(self.levels.capacity(), key + 1) * size_of::<Level>();
        let slots = match self.levels.get(key) {
            Some(level) if level.slots.capacity() > 0 => level.slots.capacity(),
            _ => self.spare_slots.capacity(),
        };
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
            self.work += 1;
        }
        let key = self.lowest;
        if !self.levels[key].deferred.is_empty() {
            self.place_deferred(key);
        }
        let level = &mut self.levels[key];
        while level.slots[level.lowest].is_empty() {
            level.lowest += 1;
            self.work += 1;
        }
        let index = level.slots[level.lowest].pop_front()?;
        level.len -= 1;
        self.len -= 1;
        if level.len == 0 {
            self.retire(key);
        }
        Some((key, index))
    }

    /// Gives back the buckets of an emptied level: their buffers to the
    /// spares, and the bucket vector too if it is the largest yet (else it
    /// is freed).
    #[cold]
    fn retire(&mut self, key: usize) {
        let level = &mut self.levels[key];
        level.lowest = usize::MAX;
        let emptied = level.slots.iter_mut().filter(|slot| slot.capacity() > 0);
        self.spare.extend(emptied.map(std::mem::take));
        let mut slots = std::mem::take(&mut level.slots);
        if slots.capacity() > self.spare_slots.capacity() {
            std::mem::swap(&mut slots, &mut self.spare_slots);
        }
        self.slots -= slots.capacity();
        self.bytes -= slots.capacity() * size_of::<VecDeque<u32>>();
    }
}

/// Elements a `Vec` of `capacity` adds when resized to `len` (it at least
/// doubles).
pub(crate) fn vec_growth(capacity: usize, len: usize) -> usize {
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
        entry_of: impl FnMut(u32) -> (C, C),
    ) {
        if self.use_buckets {
            match slot {
                Some((key, depth))
                    if key < MAX_BUCKETS
                        && depth < MAX_BUCKETS
                        && self.buckets.push(key, depth, index) =>
                {
                    return;
                }
                _ => self.leave_buckets(entry_of),
            }
        }
        self.push_heap(entry_key, g, index);
    }

    /// Moves every bucketed entry to the heap, for good, and frees the
    /// buckets.
    #[cold]
    fn leave_buckets(&mut self, mut entry_of: impl FnMut(u32) -> (C, C)) {
        self.use_buckets = false;
        self.heap.reserve(self.buckets.len);
        while let Some((_, moved)) = self.buckets.pop() {
            let (key, g) = entry_of(moved);
            self.push_heap(key, g, moved);
        }
        self.buckets = BucketQueue::default();
    }

    /// Bytes a push into `slot` would allocate beyond what
    /// [`bytes`](OpenList::bytes) projects (a bucket push can add many
    /// levels, and leaving the buckets moves every entry to the heap).
    pub(crate) fn push_growth(&self, slot: Option<(usize, usize)>) -> usize {
        if !self.use_buckets {
            return 0;
        }
        match slot {
            Some((key, depth))
                if key < MAX_BUCKETS && depth < MAX_BUCKETS && self.buckets.accepts(key, depth) =>
            {
                self.buckets.push_growth(key, depth)
            }
            _ => {
                let entries = self.heap.len() + self.buckets.len + 1;
                vec_growth(self.heap.capacity(), entries) * size_of::<Entry<C>>()
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `xorshift64*`: deterministic test data without a dependency.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> usize {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            usize::try_from(self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n).unwrap()
        }
    }

    /// Pushes and pops the same entries through the buckets (deferred as the
    /// engine does without a memory limit, or not) and through the heap;
    /// both must pop in the same order, and the buckets must stay within
    /// their budget or have moved to the heap.
    fn same_order_as_the_heap(seed: u64, deferred: bool, max_depth: u64) -> bool {
        let mut rng = Rng(seed);
        let mut buckets = OpenList::<usize>::default();
        buckets.clear(OpenListKind::Buckets, true);
        let mut heap = OpenList::<usize>::default();
        heap.clear(OpenListKind::BinaryHeap, false);
        let mut entries: Vec<(usize, usize)> = Vec::new();
        // High enough for any depth (depth <= priority).
        let mut floor = 30_000;
        for _ in 0..3_000 {
            if rng.below(3) == 0 {
                let popped = buckets.pop().map(|(_, i)| i);
                assert_eq!(popped, heap.pop().map(|(_, i)| i));
                if let Some(i) = popped {
                    floor = entries[i as usize].0;
                }
                continue;
            }
            // Mostly at or just above the last priority popped, some below.
            let key = (floor + rng.below(6)).saturating_sub(1);
            let depth = rng.below(max_depth).min(key);
            let g = key - depth;
            let index = u32::try_from(entries.len()).unwrap();
            entries.push((key, g));
            let entry_of = |i: u32| entries[i as usize];
            let slot = Some((key, depth));
            let pushed =
                deferred && buckets.use_buckets && buckets.buckets.push_deferred(key, depth, index);
            if !pushed {
                buckets.push(key, g, index, slot, entry_of);
            }
            heap.push(key, g, index, None, entry_of);
            if entries.len().is_multiple_of(100) {
                check_counts(&buckets.buckets);
            }
        }
        loop {
            let popped = buckets.pop().map(|(_, i)| i);
            assert_eq!(popped, heap.pop().map(|(_, i)| i));
            if popped.is_none() {
                return buckets.use_buckets;
            }
        }
    }

    /// `slots` and `bytes` agree with what the levels and spares hold.
    fn check_counts(queue: &BucketQueue) {
        let deque = |d: &VecDeque<u32>| d.capacity() * size_of::<u32>();
        let slots = |v: &Vec<VecDeque<u32>>| {
            (
                v.capacity(),
                v.capacity() * size_of::<VecDeque<u32>>() + v.iter().map(deque).sum::<usize>(),
            )
        };
        let deferred = |v: &Vec<(u32, u32)>| v.capacity() * size_of::<(u32, u32)>();
        let (mut count, mut bytes) = slots(&queue.spare_slots);
        bytes += deferred(&queue.spare_deferred) + queue.spare.iter().map(deque).sum::<usize>();
        for level in &queue.levels {
            let (c, b) = slots(&level.slots);
            count += c;
            bytes += b + deferred(&level.deferred);
        }
        assert_eq!((queue.slots, queue.bytes), (count, bytes));
        assert!(queue.slots <= 4 * queue.len + 2 * MAX_BUCKETS);
    }

    #[test]
    fn buckets_pop_in_heap_order() {
        let mut kept = 0;
        for seed in 1..=20 {
            for deferred in [false, true] {
                // Shallow: the buckets hold; deep and sparse: they give up.
                kept += usize::from(same_order_as_the_heap(seed, deferred, 8));
                assert!(!same_order_as_the_heap(seed, deferred, 20_000) || deferred);
            }
        }
        assert_eq!(kept, 40, "shallow depths never leave the buckets");
    }

    /// Sparse, deep priorities (long edges under a wide heuristic: one entry
    /// per level, 10,000 deep) cost each level its depth in buckets for one
    /// entry: the list moves to the heap, popping in the same order. (A*
    /// on a road graph took 35 times the heap's time in buckets.)
    #[test]
    fn sparse_deep_priorities_move_to_the_heap() {
        let mut open = OpenList::<usize>::default();
        open.clear(OpenListKind::Auto, true);
        let entries: Vec<(usize, usize)> = (0..2_000)
            .map(|k| (20_000 + 7 * k, 10_000 + 7 * k))
            .collect();
        for (i, &(key, g)) in entries.iter().enumerate() {
            let index = u32::try_from(i).unwrap();
            open.push(key, g, index, Some((key, key - g)), |j| entries[j as usize]);
            assert_eq!(open.pop().map(|(_, j)| j), Some(index));
        }
        assert!(!open.use_buckets);
    }
}
