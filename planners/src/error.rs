//! The crate's one error type.

use search_core::SearchError;
use state_atomic::AtomicError;
use state_factored::FactoredError;

/// What can go wrong when planning. "No plan exists" is not an error: it is
/// [`PlanOutcome::Unsolvable`](crate::PlanOutcome).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// The atomic domain refused the problem.
    #[error(transparent)]
    Atomic(#[from] AtomicError),
    /// The factored domain refused the problem.
    #[error(transparent)]
    Factored(#[from] FactoredError),
    /// The search met bad input (a negative cost, an overflow).
    #[error(transparent)]
    Search(#[from] SearchError),
    /// A name that is not a known direction, heuristic or action (an
    /// unknown algorithm is [`SearchError::UnknownAlgorithm`]).
    #[error("unknown {kind} `{name}` (known: {known})")]
    UnknownName {
        /// What was named: `direction`, `heuristic`, `action`.
        kind: &'static str,
        /// The name given.
        name: String,
        /// The names that exist.
        known: &'static str,
    },
    /// A built-in heuristic this kind of domain does not have.
    #[error("heuristic `{heuristic}` is not available for {domain} domains")]
    UnsupportedHeuristic {
        /// The heuristic's name.
        heuristic: &'static str,
        /// `atomic` or `factored`.
        domain: &'static str,
    },
    /// A plan that does not replay: the first failing step, or the goal not
    /// reached.
    #[error("invalid plan: {0}")]
    Invalid(String),
}
