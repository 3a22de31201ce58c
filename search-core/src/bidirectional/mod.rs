//! Bidirectional search: one search forward from the start, one backward
//! from the goal, until they meet.
//!
//! # Meeting
//! The backward side searches the reversed edges: its successors of a node
//! are the node's predecessors, each with the cost of the edge between
//! them. Its nodes may be of another type than the forward side's: in
//! planning they are regression subgoals (partial states). A [`Meeting`]
//! says when a forward node `f` meets a backward node `b`: every path from
//! `b` to the goal also leads from `f`. On a graph that is equality
//! ([`SameNode`]); in planning, `f` satisfies `b`. Each forward node is
//! checked against the backward nodes stored, open or expanded, when it
//! is stored; each backward node against the forward nodes stored when it
//! is expanded (once per expansion, not per successor; no meeting is
//! missed, see [`Nbs`]). Every meeting is a solution: the start's path to
//! `f`, then `b`'s path to the goal. A node that its own space calls a goal
//! (forward) or that the start meets (backward) is a solution alone.
//!
//! # The stopping rule
//! Finding a meeting does not prove it the cheapest. [`Nbs`] keeps a
//! lower bound `C` on every solution not yet found, the least
//! `lb(u, v) = max(g_F(u) + h_F(u), g_B(v) + h_B(v), g_F(u) + g_B(v))`
//! over pairs of open nodes `u` forward and `v` backward (`h_F` estimates
//! the cost to the goal, `h_B` the cost back from the start), and expands
//! a pair whose bound is `C`: NBS's pair of least `g`s, except that a side
//! whose open nodes all lie on `C`'s own layer (`f = C`, as when `C` has
//! reached the optimal cost) gives its deepest node that still pairs, so
//! that the search dives through that layer toward a meeting as A*'s ties
//! on the higher `g` do (with a perfect heuristic, least `g`s would sweep
//! the whole last layer breadth first). It stops when `C` reaches the
//! cheapest solution found, or when either side has no open node left:
//! every path from the start to the goal passes an open node of each
//! side, or was met.
//!
//! # The guarantee
//! With admissible heuristics the solution is optimal. With consistent
//! ones, NBS (Chen, Holte, Zilles and Sturtevant, IJCAI 2017) expands at
//! most twice as many nodes as a minimum vertex cover of the pairs that
//! any front-to-end bidirectional search must expand (those with
//! `lb(u, v) < C*`), and no such algorithm can promise less in the worst
//! case. The dive keeps the bound over the pairs with `lb(u, v) <= C*`
//! (each expanded pair has a bound of at most `C*`, and each node is
//! expanded once, so the pairs form a matching); the tests check it
//! against a minimum vertex cover computed by brute force. Without
//! heuristics it is bidirectional Dijkstra.
//!
//! On a graph, [`bidijkstra_fn`] and [`bidir_astar_fn`] take closures as
//! [`astar_fn`](crate::astar_fn) does:
//!
//! ```
//! use search_core::bidirectional::bidijkstra_fn;
//!
//! // A 30x30 grid with a wall at x = 15 open only at y = 29.
//! let open = |(x, y): (i32, i32)| (0..30).contains(&x) && (0..30).contains(&y) && (x != 15 || y == 29);
//! let steps = move |&(x, y): &(i32, i32)| {
//!     [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)].into_iter().filter(move |&p| open(p)).map(|p| (p, 1_u32))
//! };
//! // The grid's edges go both ways: the predecessors are the successors.
//! let (path, cost) = bidijkstra_fn((0, 0), (29, 0), steps, steps).unwrap().expect("a path");
//! assert_eq!(cost, 29 + 2 * 29);
//! assert_eq!(path.len(), 88);
//! ```
//!
//! A planner runs it over its forward states and regression subgoals
//! (`planners`' `Direction::Bidirectional`, `searchlab plan --direction
//! bidirectional`, configurations `bid-nbs-<heuristic>` and
//! `bid-ttbs-<heuristic>`), meeting where a state satisfies a subgoal; `state_atomic::AtomicMeeting` indexes both
//! sides of a GOAP task so that the test does not compare against each
//! stored node in turn, and its example plans one.
//!
//! # Front to front: TTBS
//! [`Ttbs`] is the satisficing counterpart (Kuroiwa and Fukunaga, IJCAI
//! 2020): two greedy searches whose heuristic is front to front
//! ([`FrontToFront`]): a forward node is estimated toward the backward
//! side's best open node, a backward node from the forward side's. The
//! targets move as the sides advance, so the frontiers head for each other
//! and meet in the middle, where two front-to-end searches each aim at the
//! far end and tend to pass each other (the sides then behave as a
//! portfolio of two one-way searches). It gives the first meeting found
//! with no promise on its cost.
//!
//! # When it pays
//! Front-to-end bidirectional search expands fewer nodes than one-way
//! search when the heuristic is weak (blind, or `h_max` on long plans):
//! two searches of half the depth. With a strong heuristic A* alone often
//! expands fewer, since NBS must raise its lower bound on both sides
//! (Barker and Korf, AAAI 2015, explain why); `BENCHMARKS.md` has the
//! figures for graphs and for planning tasks.

mod closures;
mod frontier;
mod half;
mod meeting;
mod nbs;
mod store;
mod ttbs;

pub use closures::{bidijkstra_fn, bidir_astar_fn};
pub use meeting::{Meeting, SameNode};
pub use nbs::{BidirectionalResult, Nbs};
pub use store::Stored;
pub use ttbs::{front_to_front_fn, FrontToFront, FrontToFrontFn, Ttbs};

/// A node of a bidirectional solution, tagged with the side that stored
/// it: the forward path to the meeting point, then the backward path on
/// to the goal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Side<F, B> {
    /// Stored by the forward search.
    Forward(F),
    /// Stored by the backward search.
    Backward(B),
}

impl<N> Side<N, N> {
    /// The node, whichever side stored it (both sides' nodes are of one
    /// type, as on a graph).
    pub fn into_node(self) -> N {
        match self {
            Side::Forward(node) | Side::Backward(node) => node,
        }
    }
}
