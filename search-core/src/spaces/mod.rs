//! Ready-made search spaces: closures, a grid, and petgraph graphs.

pub(crate) mod closures;
#[cfg(feature = "petgraph")]
pub mod graph;
pub(crate) mod grid;
