//! Fact landmarks and the landmark count heuristic.
//!
//! [`LandmarkGraph`] finds the literals every plan makes true, with their
//! orderings, by Zhu and Givan's label propagation over the relaxed
//! planning graph (`graph.rs`); [`LandmarkCount`] counts the ones a path
//! still has to make true, as LAMA does (`count.rs`).

mod count;
mod graph;

pub use count::LandmarkCount;
pub use graph::{Allowance, Landmark, LandmarkGraph, Ordering, Stopped};
