//! The engine every algorithm runs on: the best-first search loop, its
//! limits and end state, and what it keeps nodes in.

pub(crate) mod algorithm;
pub(crate) mod algorithm_name;
pub(crate) mod anytime;
mod expansion;
pub(crate) mod lean;
pub(crate) mod limits;
pub(crate) mod numbered;
pub(crate) mod open;
pub(crate) mod outcome;
pub(crate) mod search;
pub(crate) mod stats;
pub(crate) mod store;
pub(crate) mod tiny;
pub(crate) mod trace;
