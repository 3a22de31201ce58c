//! The closure API's engines: A* (Dijkstra is A* without a heuristic) and
//! breadth-first search straight over the caller's closures, with none of
//! the general engine's bookkeeping (statistics, limits, traces, actions).
//!
//! The closures are called directly, so the compiler inlines them into the
//! loop; nodes are stored once, in visit order, with a hash table of their
//! numbers beside them; the open list is a radix heap while priorities are
//! integers that only grow (Dijkstra always, A* with a consistent
//! heuristic), and a binary heap otherwise.
//!
//! Ties on `f` go to the higher `g`, as in the general engine's A*, then
//! to the entry pushed last (the general engine's goes to the first: the
//! cost is the same, the path may be another as cheap). An edge cost that is invalid or makes a path cost overflow gives the
//! problem back ([`GaveUp`]): the general engine reports those.

#![expect(
    clippy::inline_always,
    reason = "the loop's helpers inlined run 14% fewer instructions on the road graph (callgrind)"
)]

use std::cell::Cell;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::hash::{BuildHasher, Hash};

use hashbrown::hash_table::Entry as Slot;
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

use crate::Cost;

/// The lean loop met what it does not report (an invalid edge cost, a
/// path cost that overflows, more than `u32::MAX` nodes); the general
/// engine runs the problem and reports it.
pub(crate) struct GaveUp;

/// Every node seen, numbered in visit order, with `V` (its path cost and
/// parent) beside it.
struct Visited<N, V> {
    nodes: Vec<N>,
    values: Vec<V>,
    numbers: HashTable<u32>,
}

thread_local! {
    /// How many nodes this thread's last search stored: the next one
    /// reserves that many, so that the same search run again (replanning
    /// on the same map) grows no table and no vector. A wrong guess costs
    /// one allocation of the wrong size, and the next search guesses again.
    static LAST_STORED: Cell<usize> = const { Cell::new(0) };
}

/// The most nodes a search reserves room for before it has seen them.
const RESERVE_MAX: usize = 1 << 20;

impl<N: Hash + Eq, V> Visited<N, V> {
    fn new(start: N, value: V) -> Self {
        let expected = LAST_STORED.with(Cell::get).clamp(1, RESERVE_MAX);
        let mut visited = Self {
            nodes: Vec::with_capacity(expected),
            values: Vec::with_capacity(expected),
            numbers: HashTable::with_capacity(expected),
        };
        let _first = visited.insert(start, value);
        visited
    }

    /// `node`'s number and whether it is new (then stored with `value`).
    #[inline(always)]
    fn insert(&mut self, node: N, value: V) -> Result<(u32, bool), GaveUp> {
        let hash = FxBuildHasher.hash_one(&node);
        let nodes = &self.nodes;
        let slot = self.numbers.entry(
            hash,
            |&n| nodes[n as usize] == node,
            |&n| FxBuildHasher.hash_one(&nodes[n as usize]),
        );
        match slot {
            Slot::Occupied(found) => Ok((*found.get(), false)),
            Slot::Vacant(vacant) => {
                let number = u32::try_from(self.nodes.len()).map_err(|_| GaveUp)?;
                vacant.insert(number);
                self.nodes.push(node);
                self.values.push(value);
                Ok((number, true))
            }
        }
    }
}

impl<N, V> Drop for Visited<N, V> {
    fn drop(&mut self) {
        LAST_STORED.with(|last| last.set(self.nodes.len()));
    }
}

impl<N: Clone, V> Visited<N, V> {
    /// The nodes from the start to node `last`, following `parent`.
    fn path(&self, last: u32, parent: impl Fn(&V) -> u32) -> Vec<N> {
        let mut path = Vec::new();
        let mut at = last;
        loop {
            path.push(self.nodes[at as usize].clone());
            if at == 0 {
                break;
            }
            at = parent(&self.values[at as usize]);
        }
        path.reverse();
        path
    }
}

/// Breadth-first search: a path with the fewest edges, the goal tested as
/// nodes are generated (a path one edge longer is never needed).
pub(crate) fn bfs<N, FS, I, FG>(
    start: N,
    mut successors: FS,
    mut is_goal: FG,
) -> Result<Option<Vec<N>>, GaveUp>
where
    N: Hash + Eq + Clone,
    FS: FnMut(&N) -> I,
    I: IntoIterator<Item = N>,
    FG: FnMut(&N) -> bool,
{
    if is_goal(&start) {
        return Ok(Some(vec![start]));
    }
    let mut visited = Visited::new(start, 0_u32);
    let mut next = 0;
    while let Some(node) = visited.nodes.get(next as usize) {
        for child in successors(node) {
            let found = is_goal(&child);
            let (number, new) = visited.insert(child, next)?;
            if found && new {
                return Ok(Some(visited.path(number, |&parent| parent)));
            }
        }
        next += 1;
    }
    Ok(None)
}

/// What A* keeps per node.
#[derive(Clone, Copy)]
struct Reached<C> {
    g: C,
    parent: u32,
}

/// A* from `start`: the cheapest path to a goal if `heuristic` never
/// overestimates.
pub(crate) fn astar<N, C, FS, I, FH, FG>(
    start: N,
    mut successors: FS,
    mut heuristic: FH,
    mut is_goal: FG,
) -> Result<Option<(Vec<N>, C)>, GaveUp>
where
    N: Hash + Eq + Clone,
    C: Cost,
    FS: FnMut(&N) -> I,
    I: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FG: FnMut(&N) -> bool,
{
    let zero = C::zero();
    let mut open = Open::default();
    open.push(heuristic(&start), zero, 0);
    let mut visited = Visited::new(start, Reached { g: zero, parent: 0 });
    while let Some((g, number)) = open.pop() {
        let at = number as usize;
        if g > visited.values[at].g {
            continue; // pushed again since, at a lower cost
        }
        let node = &visited.nodes[at];
        if is_goal(node) {
            return Ok(Some((visited.path(number, |r| r.parent), g)));
        }
        for (child, cost) in successors(node) {
            if !cost.is_valid_edge() {
                return Err(GaveUp);
            }
            let child_g = g.checked_add(&cost).ok_or(GaveUp)?;
            let reached = Reached {
                g: child_g,
                parent: number,
            };
            let (child_number, new) = visited.insert(child, reached)?;
            let old = &mut visited.values[child_number as usize];
            if !new {
                if child_g >= old.g {
                    continue;
                }
                *old = reached;
            }
            let h = heuristic(&visited.nodes[child_number as usize]);
            open.push(
                child_g.checked_add(&h).ok_or(GaveUp)?,
                child_g,
                child_number,
            );
        }
    }
    Ok(None)
}

/// A* and Dijkstra's open list: a radix heap while priorities are
/// integers no lower than the last one popped, a binary heap from the
/// first that is not.
enum Open<C> {
    Radix(Box<RadixHeap<C>>),
    Heap(BinaryHeap<HeapEntry<C>>),
}

impl<C> Default for Open<C> {
    fn default() -> Self {
        Self::Radix(Box::default())
    }
}

impl<C: Cost> Open<C> {
    #[inline(always)]
    fn push(&mut self, f: C, g: C, number: u32) {
        if let Self::Radix(radix) = self {
            match f.to_bucket().and_then(|key| u64::try_from(key).ok()) {
                Some(key) if key >= radix.last && key <= KEY_MAX => {
                    return radix.push(f, g, number);
                }
                _ => *self = Self::Heap(radix.drain_to_heap()),
            }
        }
        if let Self::Heap(heap) = self {
            heap.push(HeapEntry { f, g, number });
        }
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<(C, u32)> {
        match self {
            Self::Radix(radix) => radix.pop(),
            Self::Heap(heap) => heap.pop().map(|e| (e.g, e.number)),
        }
    }
}

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
struct RadixHeap<C> {
    last: u64,
    buckets: [Vec<RadixEntry<C>>; 64],
    /// Bit `i` set when bucket `i` has entries.
    filled: u64,
    run: Vec<RadixEntry<C>>,
}

/// The largest key the radix heap takes; a larger one moves the entries to
/// the binary heap. (Shifting a `u128` mask, as 65 buckets would need,
/// cost 7% more instructions on the road graph.)
const KEY_MAX: u64 = u64::MAX >> 1;

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
    fn push(&mut self, f: C, g: C, number: u32) {
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
    fn pop(&mut self) -> Option<(C, u32)> {
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

    /// The entries, for a binary heap.
    fn drain_to_heap(&mut self) -> BinaryHeap<HeapEntry<C>> {
        let run = std::mem::take(&mut self.run);
        self.buckets
            .iter_mut()
            .flat_map(std::mem::take)
            .chain(run)
            .map(|e| HeapEntry {
                f: e.f,
                g: e.g,
                number: e.number,
            })
            .collect()
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

/// A binary-heap entry: lowest `f` first, then highest `g`.
struct HeapEntry<C> {
    f: C,
    g: C,
    number: u32,
}

impl<C: Ord> Ord for HeapEntry<C> {
    fn cmp(&self, other: &Self) -> Ordering {
        other.f.cmp(&self.f).then_with(|| self.g.cmp(&other.g))
    }
}

impl<C: Ord> PartialOrd for HeapEntry<C> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<C: Ord> PartialEq for HeapEntry<C> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<C: Ord> Eq for HeapEntry<C> {}

#[cfg(test)]
mod tests {
    use super::{astar, bfs, HeapEntry, Open, KEY_MAX, LAST_STORED};
    use std::cell::Cell;
    use std::collections::BinaryHeap;

    /// A small deterministic generator.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u32) -> u32 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            u32::try_from((self.0 >> 33) % u64::from(n)).unwrap()
        }
    }

    /// Pushes and pops in random order, every priority at least the last
    /// popped one (so the radix heap is used) or, with `drop_below`, some
    /// lower (so it hands over to the binary heap): the pops come in the
    /// reference heap's order of `(f, -g)`.
    fn same_order_as_a_heap(seed: u64, drop_below: bool) {
        let mut rng = Rng(seed);
        let mut open = Open::<u32>::default();
        let mut reference = BinaryHeap::new();
        let mut last = 0;
        for number in 0..2_000 {
            if rng.below(3) == 0 {
                let popped = open.pop();
                let expected = reference.pop().map(|e: HeapEntry<u32>| (e.f, e.g));
                assert_eq!(popped.map(|p| p.0), expected.map(|e| e.1), "seed {seed}");
                if let Some((f, _)) = expected {
                    last = f;
                }
                continue;
            }
            let f = if drop_below && rng.below(50) == 0 {
                last.saturating_sub(rng.below(5))
            } else {
                let bits = rng.below(12);
                last + rng.below(1 << bits)
            };
            let g = rng.below(f + 1);
            open.push(f, g, number);
            reference.push(HeapEntry { f, g, number });
        }
        while let Some(expected) = reference.pop() {
            assert_eq!(open.pop().map(|p| p.0), Some(expected.g), "seed {seed}");
        }
        assert_eq!(open.pop(), None);
    }

    #[test]
    fn the_radix_heap_pops_lowest_f_then_highest_g() {
        for seed in 0..20 {
            same_order_as_a_heap(seed, false);
        }
    }

    #[test]
    fn a_priority_below_the_last_popped_moves_to_the_binary_heap() {
        for seed in 0..20 {
            same_order_as_a_heap(seed, true);
        }
        let mut open = Open::<u32>::default();
        open.push(5, 0, 0);
        assert_eq!(open.pop(), Some((0, 0)));
        open.push(3, 1, 1);
        assert!(matches!(open, Open::Heap(_)));
        assert_eq!(open.pop(), Some((1, 1)));
    }

    #[test]
    fn a_priority_above_the_radix_heaps_keys_moves_to_the_binary_heap() {
        let mut open = Open::<u64>::default();
        open.push(KEY_MAX, 1, 0);
        assert!(matches!(open, Open::Radix(_)));
        open.push(KEY_MAX + 1, 2, 1);
        assert!(matches!(open, Open::Heap(_)));
        open.push(KEY_MAX - 1, 3, 2);
        assert_eq!(open.pop(), Some((3, 2)));
        assert_eq!(open.pop(), Some((1, 0)));
        assert_eq!(open.pop(), Some((2, 1)));
        assert_eq!(open.pop(), None);
    }

    /// The neighbours of `n` on a line of the nodes 0..=`last`.
    fn on_line(n: u32, last: u32) -> Vec<(u32, u32)> {
        [n.checked_sub(1), (n < last).then_some(n + 1)]
            .into_iter()
            .flatten()
            .map(|m| (m, 1))
            .collect()
    }

    #[test]
    fn a_search_reserves_what_the_last_one_stored_and_finds_the_same() {
        let steps = |&n: &u32| on_line(n, 100);
        let goal = |&n: &u32| n == 100;
        let first = astar(0, &steps, |_: &u32| 0, &goal).ok().flatten();
        assert_eq!(LAST_STORED.with(Cell::get), 101);
        assert_eq!(astar(0, &steps, |_: &u32| 0, &goal).ok().flatten(), first);
        // Reserving too much (a bigger search before) or too little
        // changes nothing but the allocation.
        LAST_STORED.with(|last| last.set(usize::MAX));
        let small = astar(0, |&n: &u32| on_line(n, 3), |_: &u32| 0, |&n: &u32| n == 3);
        let small = small.ok().flatten();
        assert_eq!(small, Some((vec![0, 1, 2, 3], 3)));
        assert_eq!(LAST_STORED.with(Cell::get), 4);
        assert_eq!(astar(0, &steps, |_: &u32| 0, &goal).ok().flatten(), first);
        let path = bfs(0, |&n: &u32| steps(&n).into_iter().map(|(m, _)| m), &goal)
            .ok()
            .flatten();
        assert_eq!(path.map(|p| p.len()), Some(101));
        assert_eq!(LAST_STORED.with(Cell::get), 101);
    }
}
