//! `h_add`: the sum over goal literals, each literal costing its cheapest
//! achiever plus the sum of its preconditions. Informative, not admissible:
//! a precondition that several goals share is paid for once per goal.
//!
//! `h_add` is the shared Dijkstra (`costs.rs`) with the sum as its
//! combination rule, so its only own part is that rule. `h_FF` explores with
//! it too, for `h_add`'s best supporters.

/// An action's (or the goal's) cost so far with one more literal at cost
/// `c`: the sum, saturating.
#[inline]
pub(super) fn combine(acc: u64, c: u64) -> u64 {
    acc.saturating_add(c)
}
