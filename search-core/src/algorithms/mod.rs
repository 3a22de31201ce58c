//! One file per algorithm. The eager best-first family (A*, weighted A*,
//! greedy, Dijkstra, breadth-first) are one-call front doors to the
//! engine's [`Search`](crate::Search); lazy greedy search and IDA* write
//! their own step for the engine's loop; multi-source and one-to-all
//! searches adapt a space for it. Everything here depends on the engine,
//! never the reverse.

pub(crate) mod astar;
pub(crate) mod bfs;
pub(crate) mod dijkstra;
pub(crate) mod greedy;
pub(crate) mod ida_star;
pub(crate) mod lazy_greedy;
pub(crate) mod multi_source;
pub(crate) mod reach;
pub(crate) mod type_based;
pub(crate) mod weighted_astar;
