//! Atomic GOAP world states for searchlab: up to 64 named boolean atoms in a
//! `u64` (or `N * 64` in a [`Wide<N>`], any number in a [`SparseBits`]),
//! actions with preconditions, effects and costs, and search spaces for
//! [`search_core`] in both directions.
//!
//! - [`AtomRegistry`]: atom names to bit positions, shared and private atoms.
//! - [`WorldState`] (complete) and [`PartialState`] (`values` + `care`):
//!   `satisfies`, `apply`, `regress`, merging an agent's view.
//! - [`ActionSet`] with a builder: `actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true)`.
//! - [`ForwardSpace`] and [`RegressionSpace`] implement
//!   [`SearchSpace`](search_core::SearchSpace), so every search-core
//!   algorithm runs on them; forward search can prune with strong
//!   stubborn sets ([`ForwardSpace::stubborn_sets`]).
//! - Heuristics: [`Mismatch`] (classic, inadmissible in general),
//!   [`AdmissibleMismatch`], and `h_max`, `h_add` and `h_FF`
//!   ([`RelaxedForward`], [`RelaxedRegression`]), and LM-cut ([`LmCut`];
//!   [`LmCutRegression`] toward the start), pattern databases ([`Ipdb`],
//!   forward); any closure works too.
//! - [`SubgoalIndex`] and [`StateIndex`]: where a bidirectional search's
//!   forward states and regression subgoals meet, without a check per item.
//!
//! ```
//! use search_core::prelude::*;
//! use state_atomic::prelude::*;
//!
//! let mut actions = ActionSet::<u64>::new();
//! actions.add_action("go_to_restaurant", 30).pre("has_restaurant", true).eff("has_food", true);
//! actions.add_action("buy_groceries", 15).pre("has_supermarket", true).eff("has_groceries", true);
//! actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
//! actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
//! let start = actions.state(["has_restaurant", "has_supermarket"]).unwrap();
//! let goal = actions.partial([("fed", true)]).unwrap();
//!
//! // Forward A* with `h_max`.
//! let space = ForwardSpace::new(&actions, goal).unwrap();
//! let result = astar(&space, start, RelaxedForward::h_max(&actions, goal)).unwrap();
//! let plan = result.outcome.into_solution().unwrap();
//! assert_eq!(actions.names(&plan.actions), ["buy_groceries", "cook", "eat"]);
//! assert_eq!(plan.cost, 30);
//!
//! // Regression A*: the same cost; the plan replays forward.
//! let space = RegressionSpace::new(&actions, start, goal).unwrap();
//! let result = astar(&space, goal, RelaxedRegression::h_max(&actions, start)).unwrap();
//! let solution = result.outcome.into_solution().unwrap();
//! let plan = RegressionSpace::<u64>::execution_order(&solution.actions);
//! assert_eq!(actions.validate(start, &goal, &plan).unwrap(), 30);
//! ```

mod action;
mod bits;
mod error;
mod forward;
pub mod landmarks;
mod lmcut;
mod meeting;
mod mismatch;
mod pdb;
pub mod problems;
mod registry;
mod regression;
mod relaxed;
mod sparse;
mod state;
mod stubborn;

pub use action::{Action, ActionBuilder, ActionId, ActionSet, CostFn, When};
pub use bits::{Bits, Wide};
pub use error::AtomicError;
pub use forward::{Applicability, ForwardSpace};

/// The heap bytes `v` holds at its capacity (its elements' own heap aside).
pub(crate) fn vec_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}
pub use lmcut::{LmCut, LmCutRegression};
pub use meeting::{AtomicMeeting, StateIndex, SubgoalIndex};
pub use mismatch::{AdmissibleMismatch, Mismatch};
pub use pdb::{Ipdb, IpdbConfig};
pub use registry::{Atom, AtomRegistry, Named};
pub use regression::{RegressionSpace, Subsumption};
pub use relaxed::{
    RelaxedBetween, RelaxedForward, RelaxedKind, RelaxedRegression, SmallHMax,
    SMALL_HMAX_MAX_ACTIONS,
};
pub use sparse::SparseBits;
pub use state::{PartialState, WorldState};
pub use stubborn::{PruningStats, PruningTally};

/// The names most programs need.
pub mod prelude {
    pub use crate::{
        ActionId, ActionSet, AdmissibleMismatch, AtomRegistry, AtomicError, ForwardSpace, Ipdb,
        LmCut, LmCutRegression, Mismatch, PartialState, RegressionSpace, RelaxedForward,
        RelaxedKind, RelaxedRegression, SparseBits, Wide, WorldState,
    };
}

/// The README's example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctest;
