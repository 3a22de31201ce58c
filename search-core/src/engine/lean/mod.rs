//! The closure API's engines: A*, Dijkstra (A* without a heuristic) and
//! breadth-first search straight over the caller's closures, with none of
//! the general engine's bookkeeping (statistics, limits, traces, actions).
//!
//! The closures are called directly, so the compiler inlines them into the
//! loop; nodes are stored once, in visit order, with a hash table of their
//! numbers beside them. The open list ([`open`]) is, while priorities are
//! integers, a ring of cost buckets (for A*, while they only grow: a
//! consistent heuristic, with each `f`'s entries sorted on `g` when it is
//! reached); a binary heap otherwise.
//!
//! Ties on `f` go to the higher `g`, as in the general engine's A*, then
//! to the entry pushed last (the general engine's goes to the first: the
//! cost is the same, the path may be another as cheap). An edge cost that
//! is invalid or makes a path cost overflow gives the problem back
//! ([`GaveUp`]): the general engine reports those.

#![expect(
    clippy::inline_always,
    reason = "the loop's helpers inlined run 14% fewer instructions on the road graph (callgrind)"
)]

pub(crate) mod bidirectional;
mod open;
mod ring;
mod tied;

use std::cell::Cell;
use std::hash::{BuildHasher, Hash};

use hashbrown::hash_table::Entry as Slot;
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

use crate::Cost;
use open::{Open, Queue};
use ring::Ring;

/// The lean loop met what it does not report (an invalid edge cost, a
/// path cost that overflows, more than `u32::MAX` nodes); the general
/// engine runs the problem and reports it.
#[derive(Debug)]
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
        let parent = visited.values[next as usize] as usize;
        for child in successors(node) {
            if child == visited.nodes[parent] {
                continue; // the way back: seen, and no goal
            }
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

/// What A* keeps per node: its path cost, parent and estimate.
#[derive(Clone, Copy)]
struct Reached<C, H> {
    g: C,
    parent: u32,
    h: H,
}

/// What the loop keeps of a node's heuristic estimate: A* keeps the
/// value, so that a cheaper path to a node does not call the caller's
/// heuristic again (a fifth of the calls on the road graph); Dijkstra
/// keeps nothing.
trait KeptEstimate<C>: Copy {
    fn keep(h: C) -> Self;
    fn value(self) -> C;
}

impl<C: Cost> KeptEstimate<C> for C {
    #[inline(always)]
    fn keep(h: C) -> Self {
        h
    }

    #[inline(always)]
    fn value(self) -> C {
        self
    }
}

/// Dijkstra's estimate: always zero, so not stored.
#[derive(Clone, Copy)]
struct NoEstimate;

impl<C: Cost> KeptEstimate<C> for NoEstimate {
    #[inline(always)]
    fn keep(_: C) -> Self {
        Self
    }

    #[inline(always)]
    fn value(self) -> C {
        C::zero()
    }
}

/// A* from `start`: the cheapest path to a goal if `heuristic` never
/// overestimates.
pub(crate) fn astar<N, C, FS, I, FH, FG>(
    start: N,
    successors: FS,
    heuristic: FH,
    is_goal: FG,
) -> Result<Option<(Vec<N>, C)>, GaveUp>
where
    N: Hash + Eq + Clone,
    C: Cost,
    FS: FnMut(&N) -> I,
    I: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FG: FnMut(&N) -> bool,
{
    best_first::<_, _, _, _, _, _, C>(start, successors, heuristic, is_goal, Open::default())
}

/// Dijkstra's algorithm from `start`: the cheapest path to a goal.
pub(crate) fn dijkstra<N, C, FS, I, FG>(
    start: N,
    successors: FS,
    is_goal: FG,
) -> Result<Option<(Vec<N>, C)>, GaveUp>
where
    N: Hash + Eq + Clone,
    C: Cost,
    FS: FnMut(&N) -> I,
    I: IntoIterator<Item = (N, C)>,
    FG: FnMut(&N) -> bool,
{
    let blind = |_: &N| C::zero();
    if C::zero().to_bucket().is_some() {
        best_first::<_, _, _, _, _, _, NoEstimate>(
            start,
            successors,
            blind,
            is_goal,
            Ring::<(C, u32)>::default(),
        )
    } else {
        best_first::<_, _, _, _, _, _, NoEstimate>(
            start,
            successors,
            blind,
            is_goal,
            Open::default(),
        )
    }
}

/// The loop A* and Dijkstra share, with the open list each starts with
/// and what each keeps of a node's estimate (`H`).
fn best_first<N, C, FS, I, FH, FG, H>(
    start: N,
    mut successors: FS,
    mut heuristic: FH,
    mut is_goal: FG,
    mut open: impl Queue<C>,
) -> Result<Option<(Vec<N>, C)>, GaveUp>
where
    N: Hash + Eq + Clone,
    C: Cost,
    FS: FnMut(&N) -> I,
    I: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FG: FnMut(&N) -> bool,
    H: KeptEstimate<C>,
{
    let zero = C::zero();
    let h = heuristic(&start);
    open.push(h, zero, 0)?;
    let first = Reached {
        g: zero,
        parent: 0,
        h: H::keep(h),
    };
    let mut visited = Visited::new(start, first);
    while let Some((g, number)) = open.pop() {
        let at = number as usize;
        if g > visited.values[at].g {
            continue; // pushed again since, at a lower cost
        }
        let node = &visited.nodes[at];
        if is_goal(node) {
            return Ok(Some((visited.path(number, |r| r.parent), g)));
        }
        // The way back to the parent is hashed like any child: skipping it
        // (as BFS does) costs a branch that mispredicts more often than the
        // lookup it saves (callgrind's branch simulation, road graph).
        for (child, cost) in successors(node) {
            if !cost.is_valid_edge() {
                return Err(GaveUp);
            }
            let child_g = g.checked_add(&cost).ok_or(GaveUp)?;
            // The estimate is filled in below if the child is new.
            let reached = Reached {
                g: child_g,
                parent: number,
                h: H::keep(zero),
            };
            let (child_number, new) = visited.insert(child, reached)?;
            let old = &mut visited.values[child_number as usize];
            let h = if new {
                let h = heuristic(&visited.nodes[child_number as usize]);
                old.h = H::keep(h);
                h
            } else {
                if child_g >= old.g {
                    continue;
                }
                old.g = child_g;
                old.parent = number;
                old.h.value()
            };
            open.push(
                child_g.checked_add(&h).ok_or(GaveUp)?,
                child_g,
                child_number,
            )?;
        }
    }
    Ok(None)
}

/// A small deterministic generator for the open lists' tests.
#[cfg(test)]
struct Rng(u64);

#[cfg(test)]
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        (self.0 >> 33) % n
    }
}

#[cfg(test)]
mod tests {
    use super::{astar, bfs, LAST_STORED};
    use std::cell::Cell;

    /// The neighbours of `n` on a line of the nodes 0..=`last`.
    fn on_line(n: u32, last: u32) -> Vec<(u32, u32)> {
        [n.checked_sub(1), (n < last).then_some(n + 1)]
            .into_iter()
            .flatten()
            .map(|m| (m, 1))
            .collect()
    }

    #[test]
    fn a_cheaper_path_to_a_node_keeps_its_estimate() {
        // 2 is reached at cost 5, then at 2 through 1, before its expansion.
        let edges = |&n: &u32| match n {
            0 => vec![(1, 1), (2, 5)],
            1 => vec![(2, 1)],
            2 => vec![(3, 1)],
            _ => vec![],
        };
        let mut calls = [0; 4];
        let h = |&n: &u32| {
            calls[n as usize] += 1;
            0
        };
        let found = astar(0, edges, h, |&n: &u32| n == 3).ok().flatten();
        assert_eq!(found, Some((vec![0, 1, 2, 3], 3)));
        assert_eq!(calls, [1, 1, 1, 1]);
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
