//! searchlab's search engine: A*, weighted A*, greedy best-first (eager and
//! lazy, with preferred operators), Dijkstra, breadth-first search and
//! restarting weighted A* (anytime) over any node type.
//!
//! A state representation implements [`SearchSpace`] (successors with action
//! labels and edge costs, and a goal test); a [`Heuristic`] estimates the
//! remaining cost. Every algorithm returns a [`SearchResult`]: an [`Outcome`]
//! (solved, exhausted, limit reached, cancelled) and [`Statistics`] defined as
//! Fast Downward defines them. A [`Search`] can be stepped a few expansions at
//! a time, limited by [`SearchLimits`], cancelled from another thread and
//! given the buffers of an earlier search ([`Workspace`]), and asked to record
//! its exploration ([`Search::record_trace`]), which a [`Trace`] writes as
//! text or Graphviz DOT. Nodes are stored once each, found through a hash
//! table, or through a flat table when the space numbers its nodes densely
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
mod cost;
mod dijkstra;
mod dominance;
mod greedy;
mod heuristic;
mod lazy_greedy;
mod limits;
mod numbered;
mod open;
mod outcome;
mod search;
mod space;
mod stats;
mod store;
mod trace;
mod weighted_astar;

pub use anytime::{Improvement, RESTART_WEIGHTS};
pub use astar::astar;
pub use bfs::bfs;
pub use cost::{Cost, FloatCost};
pub use dijkstra::dijkstra;
pub use dominance::Dominance;
pub use greedy::greedy;
pub use heuristic::{Admissible, Blind, Consistent, Estimate, Heuristic};
pub use lazy_greedy::{lazy_greedy, LazyGreedy, DEFAULT_BOOST};
pub use limits::{Limit, SearchLimits};
pub use open::OpenListKind;
pub use outcome::{Outcome, SearchError, SearchResult, Solution};
pub use search::{Algorithm, ResultOf, Search, SearchState, Status, Workspace};
pub use space::{Node, SearchSpace};
pub use stats::Statistics;
pub use trace::{Trace, TracedNode, TRACE_MAX_NODES};
pub use weighted_astar::weighted_astar;

/// The names most programs need. The [`Cost`] trait is left out: generic
/// code imports `search_core::Cost` by path, so that this prelude can be
/// glob-imported next to a state crate's, whose `Cost` is a type.
pub mod prelude {
    pub use crate::{
        astar, bfs, dijkstra, greedy, lazy_greedy, weighted_astar, Algorithm, Estimate, Heuristic,
        LazyGreedy, Outcome, Search, SearchLimits, SearchSpace, Status,
    };
}
