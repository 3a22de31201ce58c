//! What solving a PDDL task can fail with: the front end's
//! [`PddlError`], or the planner's [`PlanError`].

use search_core::Limit;
use searchlab_pddl::{GroundingExceeded, Location, PddlError};

use crate::PlanError;

/// What can go wrong when reading, grounding, solving or validating a
/// PDDL task: the front end's error (reading, grounding, a plan file's
/// step) or the planner's (a configuration the task refuses, a plan that
/// does not replay). "No plan exists" is not an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// Reading, grounding or a plan file refused the task.
    #[error(transparent)]
    Pddl(#[from] PddlError),
    /// The planner refused the task.
    #[error(transparent)]
    Planner(#[from] PlanError),
}

impl From<GroundingExceeded> for SolveError {
    fn from(exceeded: GroundingExceeded) -> Self {
        SolveError::Pddl(exceeded.into())
    }
}

impl From<state_atomic::AtomicError> for SolveError {
    fn from(error: state_atomic::AtomicError) -> Self {
        SolveError::Planner(error.into())
    }
}

impl SolveError {
    /// The limit an error stands for ([`PddlError::limit`]): grounding
    /// that stopped at a time, memory or step limit is a limit reached,
    /// not bad input. `None` for every other error.
    ///
    /// ```
    /// use planners::pddl::{PddlError, SolveError};
    /// use search_core::Limit;
    /// let error = SolveError::from(PddlError::TaskExceedsMemory { limit_bytes: 1, estimated_bytes: 2 });
    /// assert_eq!(error.limit(), Some(Limit::Memory));
    /// ```
    pub fn limit(&self) -> Option<Limit> {
        match self {
            SolveError::Pddl(error) => error.limit(),
            SolveError::Planner(_) => None,
        }
    }

    /// The location of an error about a file's content
    /// ([`PddlError::location`]).
    pub fn location(&self) -> Option<Location> {
        match self {
            SolveError::Pddl(error) => error.location(),
            SolveError::Planner(_) => None,
        }
    }
}
