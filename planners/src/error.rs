//! The crate's one error type.

use search_core::SearchError;
use state_atomic::AtomicError;
use state_factored::FactoredError;

use crate::heuristics::Representation;
use crate::Direction;

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
        known: String,
    },
    /// A heuristic that does not serve this kind of task in this direction
    /// (see `searchlab heuristics`), or whose factory declined the task.
    #[error("heuristic `{heuristic}` is not available for {direction} search on {representation} problems (`searchlab heuristics` lists what each serves)")]
    UnsupportedHeuristic {
        /// The heuristic's name.
        heuristic: String,
        /// The task's representation.
        representation: Representation,
        /// The direction asked for.
        direction: Direction,
    },
    /// An alternation of heuristics (`ff+lmcount`) where one heuristic is
    /// needed: only lazy greedy search alternates.
    #[error("heuristic `{heuristic}` alternates between several heuristics, which only lazy greedy search (lazygbfs) does")]
    Alternation {
        /// The alternation's name.
        heuristic: String,
    },
    /// Bidirectional search was asked of an algorithm it has no form of.
    #[error("{algorithm} search has no bidirectional form; bidirectional search runs nbs (astar), dijkstra or ttbs (gbfs)")]
    NotBidirectional {
        /// The algorithm's name.
        algorithm: String,
    },
    /// Front-to-front search (TTBS) was asked with a heuristic that has no
    /// form between a state and a subgoal, or on a domain without one.
    #[error("heuristic '{heuristic}' has no front-to-front form on this domain; bidirectional greedy search (ttbs) takes hmax, hadd, ff, mismatch or blind on atomic and PDDL tasks")]
    NoFrontToFront {
        /// The heuristic's name.
        heuristic: String,
    },
    /// An algorithm that cannot be sliced across ticks
    /// ([`PlanJob`](crate::PlanJob)).
    #[error("{algorithm} search cannot be sliced across ticks (its own engine runs to the end); use gbfs or astar")]
    NotSliced {
        /// The algorithm's name.
        algorithm: String,
    },
    /// A heuristic that cannot join a registry.
    #[error("cannot register heuristic `{name}`: {why}")]
    HeuristicRefused {
        /// Its name.
        name: String,
        /// Why not.
        why: String,
    },
    /// Regression asked of a task with derived predicates (PDDL axioms),
    /// which only forward search plans on.
    #[error("regression cannot plan with derived predicates ({predicates}); search forward")]
    DerivedPredicates {
        /// The derived predicates, comma-separated.
        predicates: String,
    },
    /// A plan that does not replay: the first failing step, or the goal not
    /// reached.
    #[error("invalid plan: {0}")]
    Invalid(String),
}

impl PlanError {
    /// Whether the planner refused the task by name because it does not
    /// handle it (a heuristic or direction that does not serve it:
    /// regression through what it cannot regress, derived predicates,
    /// state-dependent costs), rather than because the input is wrong. A
    /// suite counts such runs as unsupported, not as errors.
    ///
    /// ```
    /// use planners::PlanError;
    /// let refused = PlanError::DerivedPredicates { predicates: "above".into() };
    /// assert!(refused.is_unsupported());
    /// assert!(!PlanError::Invalid("step 1".into()).is_unsupported());
    /// ```
    pub fn is_unsupported(&self) -> bool {
        matches!(
            self,
            PlanError::UnsupportedHeuristic { .. }
                | PlanError::DerivedPredicates { .. }
                | PlanError::Factored(FactoredError::NotRegressable { .. })
                | PlanError::Atomic(
                    AtomicError::StateDependentCost { .. } | AtomicError::ConditionalEffects { .. }
                )
        )
    }
}
