//! Pattern databases: the canonical heuristic over a pattern collection
//! that iPDB's hill climbing chooses ([`Ipdb`]).
//!
//! The task is read as finite-domain (SAS+) variables: each declared mutex
//! group ([`ActionSet::set_mutex_groups`](crate::ActionSet::set_mutex_groups);
//! the PDDL front end declares the groups packing finds) is one variable,
//! whose value says which of its atoms holds, or none; every other atom is
//! a binary variable. A pattern is a set of variables; its database holds
//! the cost to the goal of every state of the task projected onto it,
//! found by Dijkstra backward from the abstract goal states (zero-cost
//! actions included). The canonical heuristic adds the databases of
//! patterns that no action changes together and takes the largest such
//! sum (Haslum, Botea, Helmert, Bonet and Koenig, "Domain-Independent
//! Construction of Pattern Database Heuristics for Cost-Optimal
//! Planning", AAAI 2007, which also gives the hill climbing).
//!
//! The hill climbing samples states by random walks from a seeded
//! generator ([`IpdbConfig::seed`]): the same task gives the same patterns
//! and the same estimates on every run, unless the climb is stopped by its
//! time limit ([`IpdbConfig::max_time`], or the search's deadline in the
//! planner), when what it chose depends on the machine's speed.
//!
//! Files: `variables.rs` (the finite-domain view), `projection.rs` (one
//! database), `canonical.rs` (additivity and the canonical sum),
//! `hill_climbing.rs` (iPDB's pattern collection), `ipdb.rs` (the
//! heuristic).
//!
//! When to use it: optimal planning where a few variables interact
//! closely (blocks, logistics-like transport), where its tables, built
//! once before search, pay off over many cheap lookups; LM-cut is the
//! stronger default where delete relaxation captures the task well.

mod canonical;
mod hill_climbing;
mod ipdb;
mod projection;
mod variables;

pub use hill_climbing::IpdbConfig;
pub use ipdb::Ipdb;
