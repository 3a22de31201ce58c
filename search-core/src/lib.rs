//! searchlab's search engine: A*, weighted A*, greedy best-first (eager and
//! lazy, with preferred operators), Dijkstra, breadth-first search and
//! restarting weighted A* (anytime) over any node type.
//!
//! The quickest way in is a closure per question: the successors of a node
//! with their edge costs, an estimate of the cost left, and the goal test.
//!
//! ```
//! use search_core::prelude::*;
//!
//! // A 4-connected grid: the cheapest path around the wall.
//! let rows = ["S..#....", "...#.##.", ".#...#G."];
//! let free = |(x, y): (i32, i32)| {
//!     rows.get(y as usize).and_then(|r| r.as_bytes().get(x as usize)).is_some_and(|&c| c != b'#')
//! };
//! let goal = (6_i32, 2_i32);
//! let (path, cost) = astar_fn(
//!     (0, 0),
//!     |&(x, y)| [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
//!         .into_iter()
//!         .filter(|&p| free(p))
//!         .map(|p| (p, 1)),
//!     |&(x, y)| goal.0.abs_diff(x) + goal.1.abs_diff(y),
//!     |&p| p == goal,
//! )
//! .unwrap()
//! .expect("a path");
//! assert_eq!(cost, 14); // down through the gap, up and over the second wall
//! assert_eq!(path.len(), 15);
//! ```
//!
//! [`dijkstra_fn`], [`bfs_fn`], [`greedy_fn`] and [`weighted_astar_fn`] take
//! the same closures; [`FnSpace`] turns them into a [`SearchSpace`] for the
//! [`Search`] builder. Every function runs the one engine below.
//!
//! Also at hand: distances to every reachable node ([`dijkstra_all`],
//! [`bfs_all`], or within a bound), searches from several starts
//! ([`MultiSource`]), memory-bound search ([`IdaStar`]), anytime search
//! ([`Algorithm::RestartingWeightedAStar`]), a [`Grid`] with a dense
//! numbering, and with the feature `petgraph`, any petgraph graph as a
//! space (`graph::GraphSpace`).
//!
//! A state representation implements [`SearchSpace`] (successors with action
//! labels and edge costs, and a goal test); a [`Heuristic`] estimates the
//! remaining cost. Every algorithm returns a [`SearchResult`]: an [`Outcome`]
//! (solved, exhausted, limit reached, cancelled) and [`Statistics`] defined as
//! Fast Downward defines them. A [`Search`] can be stepped a few expansions at
//! a time, limited by [`SearchLimits`], cancelled from another thread,
//! given the buffers of an earlier search ([`Workspace`]), kept between
//! game frames ([`SearchState`]) and asked to record its exploration
//! ([`Search::record_trace`]), which a [`Trace`] writes as text or Graphviz
//! DOT. Nodes are stored once each, found through a hash table, or through
//! a flat table when the space numbers its nodes densely
//! ([`SearchSpace::node_numbers`]).
//!
//! ```
//! use search_core::prelude::*;
//!
//! struct Ring;
//! impl SearchSpace for Ring {
//!     type Node = u32;
//!     type Action = &'static str;
//!     type Cost = u32;
//!     fn is_goal(&self, n: &u32) -> bool { *n == 7 }
//!     fn successors<F: FnMut(&'static str, u32, u32)>(&self, n: &u32, mut emit: F) {
//!         emit("next", (n + 1) % 10, 1);
//!         emit("back", (n + 9) % 10, 1);
//!     }
//! }
//!
//! let result = dijkstra(&Ring, 0).unwrap();
//! let plan = result.outcome.solution().unwrap();
//! assert_eq!(plan.actions, vec!["back", "back", "back"]);
//! assert_eq!(result.stats.expanded, 7);
//! ```

mod algorithm_name;
mod anytime;
mod astar;
mod bfs;
mod closures;
mod cost;
mod dijkstra;
mod dominance;
#[cfg(feature = "petgraph")]
pub mod graph;
mod greedy;
mod grid;
mod heuristic;
mod ida_star;
mod lazy_greedy;
mod lean;
mod limits;
mod multi_source;
mod numbered;
mod open;
mod outcome;
mod reach;
mod search;
mod space;
mod stats;
mod store;
mod tiny;
mod trace;
mod weighted_astar;

pub use anytime::{Improvement, RESTART_WEIGHTS};
pub use astar::astar;
pub use bfs::bfs;
pub use closures::{
    astar_fn, bfs_fn, dijkstra_fn, greedy_fn, weighted_astar_fn, FnSpace, PathResult,
};
pub use cost::{Cost, FloatCost};
pub use dijkstra::dijkstra;
pub use dominance::Dominance;
pub use greedy::greedy;
pub use grid::{Cell, Grid, Moves};
pub use heuristic::{Admissible, Blind, Consistent, Estimate, Heuristic, Viewed};
pub use ida_star::{ida_star, IdaStar};
pub use lazy_greedy::{lazy_greedy, LazyGreedy, DEFAULT_BOOST};
pub use limits::{Limit, SearchLimits};
pub use multi_source::{MultiSource, OnSources, Source};
pub use open::OpenListKind;
pub use outcome::{Outcome, SearchError, SearchResult, Solution};
pub use reach::{bfs_all, bfs_within, dijkstra_all, dijkstra_within, Reached};
pub use search::{Algorithm, ResultOf, Search, SearchState, StateOf, Status, Workspace};
pub use space::{Node, SearchSpace};
pub use stats::Statistics;
pub use tiny::{tiny_accepts, tiny_astar, TinyWorkspace, TINY_MAX_NODES};
pub use trace::{Trace, TracedNode, TRACE_MAX_NODES};
pub use weighted_astar::weighted_astar;

/// The names most programs need. The [`Cost`] trait is left out: generic
/// code imports `search_core::Cost` by path, so that this prelude can be
/// glob-imported next to a state crate's, whose `Cost` is a type.
pub mod prelude {
    pub use crate::{
        astar, astar_fn, bfs, bfs_fn, dijkstra, dijkstra_fn, greedy, greedy_fn, lazy_greedy,
        weighted_astar, weighted_astar_fn, Algorithm, Estimate, FnSpace, Heuristic, LazyGreedy,
        Outcome, Search, SearchLimits, SearchResult, SearchSpace, Solution, Status,
    };
}
