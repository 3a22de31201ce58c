//! Bidirectional Dijkstra in the lean loop: a Dijkstra search from each
//! end, the side with the lower next cost expanding first, until the two
//! next costs add up to the cheapest meeting found (no path through a
//! node neither side has expanded can be cheaper).
//!
//! Both sides store their nodes in one table, each node with its cost and
//! parent from either end: one lookup stores a node and tells whether the
//! other side has reached it.

use std::hash::Hash;

use super::open::{Open, Queue};
use super::ring::Ring;
use super::{GaveUp, Visited};
use crate::Cost;

const FORWARD: usize = 0;
const BACKWARD: usize = 1;

/// A node's cost and parent from the start (`FORWARD`) and from the goal
/// (`BACKWARD`); the cost type's largest value where a side has not
/// reached it.
#[derive(Clone, Copy)]
struct Both<C> {
    g: [C; 2],
    parent: [u32; 2],
}

/// The cheapest meeting found: its cost and node.
type Meeting<C> = Option<(C, u32)>;

/// The cheapest path from `start` to `goal`, searched from both ends.
pub(crate) fn bidijkstra<N, C, FS, IS, FP, IP>(
    start: N,
    goal: N,
    successors: FS,
    predecessors: FP,
) -> Result<Option<(Vec<N>, C)>, GaveUp>
where
    N: Hash + Eq + Clone,
    C: Cost,
    FS: FnMut(&N) -> IS,
    IS: IntoIterator<Item = (N, C)>,
    FP: FnMut(&N) -> IP,
    IP: IntoIterator<Item = (N, C)>,
{
    if C::zero().to_bucket().is_some() {
        search(
            start,
            goal,
            successors,
            predecessors,
            Ring::<(C, u32)>::default,
        )
    } else {
        search(start, goal, successors, predecessors, Open::default)
    }
}

fn search<N, C, FS, IS, FP, IP, Q>(
    start: N,
    goal: N,
    mut successors: FS,
    mut predecessors: FP,
    open: impl Fn() -> Q,
) -> Result<Option<(Vec<N>, C)>, GaveUp>
where
    N: Hash + Eq + Clone,
    C: Cost,
    FS: FnMut(&N) -> IS,
    IS: IntoIterator<Item = (N, C)>,
    FP: FnMut(&N) -> IP,
    IP: IntoIterator<Item = (N, C)>,
    Q: Queue<C>,
{
    let (zero, far) = (C::zero(), C::largest());
    let mut visited = Visited::new(
        start,
        Both {
            g: [zero, far],
            parent: [0, 0],
        },
    );
    let (goal_number, new) = visited.insert(
        goal,
        Both {
            g: [far, zero],
            parent: [0, 0],
        },
    )?;
    if !new {
        return Ok(Some((visited.path(0, |_| 0), zero)));
    }
    visited.values[goal_number as usize].parent[BACKWARD] = goal_number;
    let roots = [0, goal_number];
    let mut queues = [open(), open()];
    queues[FORWARD].push(zero, zero, 0)?;
    queues[BACKWARD].push(zero, zero, goal_number)?;
    let mut tops: [Option<(C, u32)>; 2] = [None, None];
    let mut best: Meeting<C> = None;
    // A side that runs dry ends the search: every path through it was met.
    while let (Some((f, f_number)), Some((b, b_number))) = (
        top(&mut queues[FORWARD], &mut tops[FORWARD], &visited, FORWARD),
        top(
            &mut queues[BACKWARD],
            &mut tops[BACKWARD],
            &visited,
            BACKWARD,
        ),
    ) {
        if best.is_some_and(|(cost, _)| f.saturating_add(b) >= cost) {
            break;
        }
        let (side, number, g) = if f <= b {
            (FORWARD, f_number, f)
        } else {
            (BACKWARD, b_number, b)
        };
        tops[side] = None;
        if side == FORWARD {
            expand(
                &mut visited,
                &mut queues[side],
                side,
                (number, g),
                &mut successors,
                &mut best,
            )?;
        } else {
            expand(
                &mut visited,
                &mut queues[side],
                side,
                (number, g),
                &mut predecessors,
                &mut best,
            )?;
        }
    }
    let Some((cost, meeting)) = best else {
        return Ok(None);
    };
    let mut path = walk(&visited, meeting, FORWARD, roots[FORWARD]);
    path.reverse();
    let back = walk(&visited, meeting, BACKWARD, roots[BACKWARD]);
    path.extend(back.into_iter().skip(1));
    Ok(Some((path, cost)))
}

/// The least `g` that `side` has still to expand, and its node: the
/// queue's least live entry (one that no cheaper push made stale), held
/// in `held` until expanded.
#[inline(always)]
fn top<N, C: Cost, Q: Queue<C>>(
    queue: &mut Q,
    held: &mut Option<(C, u32)>,
    visited: &Visited<N, Both<C>>,
    side: usize,
) -> Option<(C, u32)> {
    while held.is_none() {
        let (g, number) = queue.pop()?;
        if g <= visited.values[number as usize].g[side] {
            *held = Some((g, number));
        }
    }
    *held
}

/// Expands node `number` on `side` at cost `g`: stores its neighbours or
/// lowers their cost from this side, and keeps the cheapest meeting with
/// the other side.
#[inline(always)]
fn expand<N, C, Q, F, I>(
    visited: &mut Visited<N, Both<C>>,
    queue: &mut Q,
    side: usize,
    (number, g): (u32, C),
    next: &mut F,
    best: &mut Meeting<C>,
) -> Result<(), GaveUp>
where
    N: Hash + Eq,
    C: Cost,
    Q: Queue<C>,
    F: FnMut(&N) -> I,
    I: IntoIterator<Item = (N, C)>,
{
    let far = C::largest();
    for (child, cost) in next(&visited.nodes[number as usize]) {
        if !cost.is_valid_edge() {
            return Err(GaveUp);
        }
        let child_g = g.checked_add(&cost).ok_or(GaveUp)?;
        let mut reached = Both {
            g: [far, far],
            parent: [0, 0],
        };
        reached.g[side] = child_g;
        reached.parent[side] = number;
        let (child_number, new) = visited.insert(child, reached)?;
        let both = &mut visited.values[child_number as usize];
        if !new {
            if child_g >= both.g[side] {
                continue;
            }
            both.g[side] = child_g;
            both.parent[side] = number;
        }
        queue.push(child_g, child_g, child_number)?;
        let other = both.g[1 - side];
        if other < far {
            let cost = child_g.saturating_add(other);
            if best.is_none_or(|(least, _)| cost < least) {
                *best = Some((cost, child_number));
            }
        }
    }
    Ok(())
}

/// The nodes from `from` to `root` along `side`'s parents.
fn walk<N: Clone, C>(visited: &Visited<N, Both<C>>, from: u32, side: usize, root: u32) -> Vec<N> {
    let mut nodes = vec![visited.nodes[from as usize].clone()];
    let mut at = from;
    while at != root {
        at = visited.values[at as usize].parent[side];
        nodes.push(visited.nodes[at as usize].clone());
    }
    nodes
}
