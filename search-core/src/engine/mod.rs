//! The engine every algorithm runs on: the one search loop ([`run`]) with
//! its limits, clock and end state, the eager best-first search that
//! configures it ([`search`]), and what they keep nodes in.

pub(crate) mod algorithm;
pub(crate) mod algorithm_name;
pub(crate) mod anytime;
pub(crate) mod driver;
mod expansion;
pub(crate) mod heap;
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
pub(crate) mod workspace;
