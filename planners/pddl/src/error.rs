//! The crate's one error type.

use std::fmt;

use search_core::Limit;

use crate::GroundingExceeded;

/// A position in a file: line and column, both counted from 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    /// The line, from 1.
    pub line: u32,
    /// The column (in characters), from 1.
    pub column: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// What can go wrong when reading, grounding or solving a PDDL task.
///
/// Every error about a file's content names the file, the line and the
/// column. "No plan exists" is not an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PddlError {
    /// A file that could not be read.
    #[error("{path}: cannot read: {message}")]
    Io {
        /// The file.
        path: String,
        /// What the operating system said.
        message: String,
    },
    /// A file larger than the input limit
    /// ([`MAX_INPUT_BYTES`](crate::input::MAX_INPUT_BYTES)).
    #[error("{path}: {}", crate::input::too_large_message(*.limit_bytes))]
    FileTooLarge {
        /// The file.
        path: String,
        /// The limit.
        limit_bytes: u64,
    },
    /// Text that is not PDDL: unbalanced parentheses, a missing or unexpected
    /// token, a malformed section.
    #[error("{file}:{at}: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// Where.
        at: Location,
        /// What is wrong, in lower case.
        message: String,
    },
    /// A requirement or construct outside the supported subset (ADL:
    /// `:strips`, `:typing`, `:negative-preconditions`, `:equality`,
    /// quantifiers, `or`, `imply`, `when`; `:action-costs`; numeric
    /// fluents in the linear fragment).
    #[error("{file}:{at}: unsupported {construct} (searchlab reads ADL with :action-costs)")]
    Unsupported {
        /// The file.
        file: String,
        /// Where.
        at: Location,
        /// The requirement or construct, e.g. "requirement `:conditional-effects`".
        construct: String,
    },
    /// A name used but never declared.
    #[error("{file}:{at}: undefined {kind} `{name}`")]
    Undefined {
        /// The file.
        file: String,
        /// Where.
        at: Location,
        /// `type`, `predicate`, `function`, `object`, `variable`, `action`.
        kind: &'static str,
        /// The name.
        name: String,
    },
    /// A name declared twice.
    #[error("{file}:{at}: {kind} `{name}` is declared twice")]
    Duplicate {
        /// The file.
        file: String,
        /// Where the second declaration is.
        at: Location,
        /// `type`, `predicate`, `object`, `action`, `variable`.
        kind: &'static str,
        /// The name.
        name: String,
    },
    /// A predicate or action used with the wrong number of arguments.
    #[error("{file}:{at}: `{name}` takes {expected} argument(s), {found} given")]
    Arity {
        /// The file.
        file: String,
        /// Where.
        at: Location,
        /// The predicate or action.
        name: String,
        /// How many it takes.
        expected: usize,
        /// How many were given.
        found: usize,
    },
    /// An argument whose type does not fit the parameter.
    #[error(
        "{file}:{at}: `{object}` is not of type `{expected}` (argument {position} of `{name}`)"
    )]
    WrongType {
        /// The file.
        file: String,
        /// Where.
        at: Location,
        /// The predicate or action.
        name: String,
        /// The argument, from 1.
        position: usize,
        /// The object.
        object: String,
        /// The type the parameter wants.
        expected: String,
    },
    /// A grounded task with more facts than the state type a caller chose
    /// holds (the planner's `Task::new` on a narrow width, say). Its
    /// `GroundedTask` and the solve functions (`planners::pddl`) never
    /// give it: they choose a state that holds every task.
    #[error("the grounded task has {facts} facts; the state type holds {capacity}")]
    TooManyFacts {
        /// The facts left after grounding.
        facts: usize,
        /// The state type's capacity.
        capacity: usize,
    },
    /// A ground task, built by hand, whose goal wants a fact both true and
    /// false.
    #[error("the goal wants fact `{fact}` both true and false")]
    ContradictoryGoal {
        /// The fact.
        fact: String,
    },
    /// Derived predicates whose axioms are not stratified: a derived fact
    /// depends, through axioms, on the negation of a fact that depends on
    /// it.
    #[error("the axioms are not stratifiable: `{fact}` depends on `(not {negated})`, which depends on `{fact}` in turn")]
    NotStratifiable {
        /// The derived fact.
        fact: String,
        /// The fact it needs false.
        negated: String,
    },
    /// Grounding stopped at one of its
    /// [`GroundingLimits`](crate::GroundingLimits): a limit
    /// reached rather than bad input (see [`PddlError::limit`]).
    #[error("grounding exceeded {0}")]
    GroundingExceeded(GroundingExceeded),
    /// Grounding finished within the limits, but the atomic task built
    /// from it would not fit the memory limit beside the grounded task: a
    /// limit reached rather than bad input (see [`PddlError::limit`]).
    #[error(
        "the grounded task and the atomic task built from it would take {} MiB, \
         beyond the memory limit of {} MiB",
        crate::limits::mebibytes(*estimated_bytes),
        crate::limits::mebibytes(*limit_bytes)
    )]
    TaskExceedsMemory {
        /// The limit.
        limit_bytes: usize,
        /// The estimate of both tasks.
        estimated_bytes: usize,
    },
    /// A numeric construct that grounding cannot take: a product of two
    /// changing fluents (not linear), a fluent read before it has a
    /// value, a metric that decreases or is read, a decimal action cost.
    #[error("{context}: {message}")]
    Numeric {
        /// Where: the ground action ("action `move a b`"), "the goal" or
        /// "the metric".
        context: String,
        /// What is wrong.
        message: String,
    },
    /// A plan file step that does not name a ground action of the task.
    #[error("{file}:{at}: {message}")]
    Plan {
        /// The plan file.
        file: String,
        /// Where.
        at: Location,
        /// What is wrong.
        message: String,
    },
}

impl From<GroundingExceeded> for PddlError {
    fn from(exceeded: GroundingExceeded) -> Self {
        PddlError::GroundingExceeded(exceeded)
    }
}

impl PddlError {
    /// The limit an error stands for: grounding that stopped at a time,
    /// memory or step limit is a limit reached, not bad input. `None` for
    /// every other error.
    ///
    /// ```
    /// use searchlab_pddl::{GroundingExceeded, PddlError};
    /// use search_core::Limit;
    /// let error = PddlError::from(GroundingExceeded::Time { limit: std::time::Duration::from_secs(2) });
    /// assert_eq!(error.to_string(), "grounding exceeded the time limit of 2 s");
    /// assert_eq!(error.limit(), Some(Limit::Time));
    /// let error = PddlError::TaskExceedsMemory { limit_bytes: 48 << 20, estimated_bytes: 65 << 20 };
    /// assert_eq!(
    ///     error.to_string(),
    ///     "the grounded task and the atomic task built from it would take 65 MiB, \
    ///      beyond the memory limit of 48 MiB"
    /// );
    /// assert_eq!(error.limit(), Some(Limit::Memory));
    /// ```
    pub fn limit(&self) -> Option<Limit> {
        match self {
            PddlError::GroundingExceeded(exceeded) => Some(exceeded.as_limit()),
            PddlError::TaskExceedsMemory { .. } => Some(Limit::Memory),
            _ => None,
        }
    }

    /// The location of an error about a file's content.
    ///
    /// ```
    /// use searchlab_pddl::{parse_domain, Location};
    /// let error = parse_domain("d.pddl", "(define (domain d)\n  (:predicates (p)").unwrap_err();
    /// assert_eq!(error.location(), Some(Location { line: 1, column: 1 }));
    /// ```
    pub fn location(&self) -> Option<Location> {
        match self {
            PddlError::Syntax { at, .. }
            | PddlError::Unsupported { at, .. }
            | PddlError::Undefined { at, .. }
            | PddlError::Duplicate { at, .. }
            | PddlError::Arity { at, .. }
            | PddlError::WrongType { at, .. }
            | PddlError::Plan { at, .. } => Some(*at),
            PddlError::Io { .. }
            | PddlError::FileTooLarge { .. }
            | PddlError::TooManyFacts { .. }
            | PddlError::ContradictoryGoal { .. }
            | PddlError::NotStratifiable { .. }
            | PddlError::Numeric { .. }
            | PddlError::GroundingExceeded(_)
            | PddlError::TaskExceedsMemory { .. } => None,
        }
    }
}
