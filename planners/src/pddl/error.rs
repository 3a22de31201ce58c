//! What solving a PDDL task can fail with: the front end's
//! [`PddlError`], or the planner's [`PlanError`].

use std::time::Duration;

use search_core::Limit;
use searchlab_pddl::{GroundingExceeded, Location, PddlError};

use crate::{Direction, PlanError, PlanOutcome, PlanReport};

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

    /// Whether the task uses what searchlab does not read (a construct of
    /// PDDL it refuses by name) or the configuration does not serve it
    /// ([`PlanError::is_unsupported`]), rather than being malformed.
    ///
    /// ```
    /// use planners::pddl::{parse_domain, SolveError};
    /// let text = "(define (domain d) (:durative-action a :parameters () :duration (= ?duration 1)))";
    /// let error = SolveError::from(parse_domain("d.pddl", text).unwrap_err());
    /// assert!(error.is_unsupported());
    /// ```
    pub fn is_unsupported(&self) -> bool {
        match self {
            SolveError::Pddl(error) => matches!(error, PddlError::Unsupported { .. }),
            SolveError::Planner(error) => error.is_unsupported(),
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

    /// What a run that a limit stopped before its search (while reading
    /// or grounding, see [`limit`](Self::limit)) reports: the limit
    /// reached, in `direction`, with no search statistics and `elapsed`
    /// the time it took. `None` for an error that is no limit. The one
    /// place where such an error becomes an outcome, for every caller that
    /// reports a run (`searchlab plan`, the lab's records, Python).
    ///
    /// ```
    /// use planners::pddl::{GroundingExceeded, SolveError};
    /// use planners::{Direction, PlanOutcome};
    /// use std::time::Duration;
    /// let error = SolveError::from(GroundingExceeded::Steps { limit: 10 });
    /// let report = error.limit_report(Direction::Forward, Duration::from_secs(1)).unwrap();
    /// assert!(matches!(report.outcome, PlanOutcome::LimitReached { best: None, .. }));
    /// assert_eq!(report.stats().expanded, 0);
    /// ```
    pub fn limit_report(
        &self,
        direction: Direction,
        elapsed: Duration,
    ) -> Option<PlanReport<usize>> {
        Some(PlanReport {
            outcome: PlanOutcome::LimitReached {
                limit: self.limit()?,
                best: None,
            },
            direction,
            forward: None,
            regression: None,
            both: None,
            elapsed,
            setup_time: Duration::ZERO,
            improvements: Vec::new(),
            notes: Vec::new(),
        })
    }

    /// The estimated bytes when the memory limit stopped grounding, or
    /// refused the atomic task built from it.
    pub fn estimated_bytes(&self) -> Option<usize> {
        match self {
            SolveError::Pddl(
                PddlError::GroundingExceeded(GroundingExceeded::Memory {
                    estimated_bytes, ..
                })
                | PddlError::TaskExceedsMemory {
                    estimated_bytes, ..
                },
            ) => Some(*estimated_bytes),
            _ => None,
        }
    }
}
