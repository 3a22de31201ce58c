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
//! ([`Algorithm::RestartingWeightedAStar`]), bidirectional search that
//! meets in the middle ([`bidirectional`]: NBS and bidirectional Dijkstra,
//! over two spaces whose nodes may differ, as forward states and regression
//! subgoals do), a [`Grid`] with a dense
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

mod algorithms;
pub mod bidirectional;
mod cost;
mod dominance;
mod engine;
mod heuristic;
mod space;
mod spaces;

pub use algorithms::astar::astar;
pub use algorithms::bfs::bfs;
pub use algorithms::dijkstra::dijkstra;
pub use algorithms::greedy::greedy;
pub use algorithms::ida_star::{ida_star, IdaStar};
pub use algorithms::lazy_greedy::{lazy_greedy, LazyGreedy, DEFAULT_BOOST};
pub use algorithms::multi_source::{MultiSource, OnSources, Source};
pub use algorithms::reach::{bfs_all, bfs_within, dijkstra_all, dijkstra_within, Reached};
pub use algorithms::weighted_astar::weighted_astar;
pub use cost::{Cost, FloatCost};
pub use dominance::Dominance;
pub use engine::algorithm::Algorithm;
pub use engine::anytime::{Improvement, RESTART_WEIGHTS};
pub use engine::driver::Status;
pub use engine::limits::{Limit, SearchLimits};
pub use engine::open::OpenListKind;
pub use engine::outcome::{Outcome, SearchError, SearchResult, Solution};
pub use engine::search::{ResultOf, Search, SearchState, StateOf};
pub use engine::stats::Statistics;
pub use engine::tiny::{
    tiny_accepts, tiny_astar, Handover, TinyAstar, TinyWorkspace, TINY_MAX_NODES,
};
pub use engine::trace::{Trace, TracedNode, TRACE_MAX_NODES};
pub use engine::workspace::Workspace;
pub use heuristic::{Admissible, Blind, Consistent, Estimate, Heuristic, Viewed};
pub use space::{CheapestStep, Node, SearchSpace};
pub use spaces::closures::{
    astar_fn, bfs_fn, dijkstra_fn, greedy_fn, weighted_astar_fn, FnSpace, PathResult,
};
#[cfg(feature = "petgraph")]
pub use spaces::graph;
pub use spaces::grid::{Cell, Grid, Moves};

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
