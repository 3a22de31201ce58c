//! Fixtures for searchlab's criterion benches and cross-crate tests: a
//! seeded grid with a dense node numbering and its hashed twin, and a
//! generated PDDL task of any number of facts.
//!
//! The experiment library and the `searchlab` program are the packages
//! `searchlab-lab` (`benches/lab`) and `searchlab` (`benches/searchlab`).

pub mod grid;
pub mod hall;
pub mod roads;
