//! The loader's error type: every problem says where it is.

use std::fmt;

/// A place in a problem file: the file's name, the line and the column
/// (both from 1; the column counts characters, not bytes).
///
/// Displays as `file:line:column`, the form editors and terminals link to.
///
/// ```
/// use planners::problem::Location;
/// let at = Location { file: "ship.toml".into(), line: 3, column: 9 };
/// assert_eq!(at.to_string(), "ship.toml:3:9");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// The file name as given to [`load`](super::load) or
    /// [`parse`](super::parse).
    pub file: String,
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in characters.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// What is wrong with a problem file, and where.
///
/// Every variant but [`Io`](ProblemError::Io) and
/// [`TooLarge`](ProblemError::TooLarge) carries a [`Location`], and displays
/// as `file:line:column: what is wrong`.
///
/// ```
/// use planners::problem::{parse, ProblemError};
/// let text = "kind = \"atomic\"\natoms = [\"fed\"]\ngoal = [\"fead\"]\n\
///             [[action]]\nname = \"eat\"\neff = [\"fed\"]\n";
/// let error = parse(text, "eat.toml").unwrap_err();
/// assert!(matches!(error, ProblemError::Unknown { .. }));
/// assert_eq!(error.to_string(), "eat.toml:3:10: unknown atom `fead`");
/// assert_eq!(error.location().unwrap().line, 3);
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProblemError {
    /// The file could not be read (or is not UTF-8 text).
    #[error("{file}: cannot read the file: {source}")]
    Io {
        /// The file's name.
        file: String,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// A file larger than the input limit
    /// ([`MAX_INPUT_BYTES`](crate::input::MAX_INPUT_BYTES)).
    #[error("{file}: {}", crate::input::too_large_message(*.limit_bytes))]
    TooLarge {
        /// The file's name.
        file: String,
        /// The limit.
        limit_bytes: u64,
    },
    /// Not valid TOML, or a value of the wrong TOML type, or a key the
    /// format does not know.
    #[error("{at}: {message}")]
    Syntax {
        /// Where.
        at: Location,
        /// What the TOML reader said.
        message: String,
    },
    /// A required section or key is absent (`kind`, `goal`, `atoms`,
    /// `[variables]`, `[[action]]`).
    #[error("{at}: missing {what}")]
    Missing {
        /// Where (the start of the file, or the table that lacks it).
        at: Location,
        /// What is missing, as it would be written.
        what: String,
    },
    /// A name that is not declared: an atom or a variable.
    #[error("{at}: unknown {kind} `{name}`")]
    Unknown {
        /// Where the name is used.
        at: Location,
        /// `atom` or `variable`.
        kind: &'static str,
        /// The name as written.
        name: String,
    },
    /// A value or an operation that does not fit the variable's type
    /// (`gold >= "lots"`, `location < "shop"`, `has_weapon += 1`).
    #[error("{at}: type mismatch: {message}")]
    TypeMismatch {
        /// Where: the value or the operator.
        at: Location,
        /// What does not fit.
        message: String,
    },
    /// A condition or effect that does not parse.
    #[error("{at}: malformed {part} `{expression}`: {message}")]
    Malformed {
        /// Where in the expression the problem is.
        at: Location,
        /// `condition`, `effect` or `start value`.
        part: &'static str,
        /// The expression as written.
        expression: String,
        /// What is wrong.
        message: String,
    },
    /// An action, atom or variable declared twice.
    #[error("{at}: {kind} `{name}` is declared twice (first on line {first_line})")]
    Duplicate {
        /// Where the second declaration is.
        at: Location,
        /// `action`, `atom` or `variable`.
        kind: &'static str,
        /// The name.
        name: String,
        /// The line of the first declaration.
        first_line: usize,
    },
    /// Anything else the problem cannot have: a cost out of range, a 65th
    /// atom, an action that requires both values of an atom, an unknown
    /// `kind`, a section of the other kind of problem.
    #[error("{at}: {message}")]
    Invalid {
        /// Where.
        at: Location,
        /// What is wrong.
        message: String,
    },
}

impl ProblemError {
    /// Where the error is, if it is in the file's text (every variant but
    /// [`Io`](ProblemError::Io) and [`TooLarge`](ProblemError::TooLarge)).
    ///
    /// ```
    /// use planners::problem::parse;
    /// let error = parse("kind = [", "broken.toml").unwrap_err();
    /// assert_eq!(error.location().unwrap().file, "broken.toml");
    /// ```
    pub fn location(&self) -> Option<&Location> {
        match self {
            ProblemError::Io { .. } | ProblemError::TooLarge { .. } => None,
            ProblemError::Syntax { at, .. }
            | ProblemError::Missing { at, .. }
            | ProblemError::Unknown { at, .. }
            | ProblemError::TypeMismatch { at, .. }
            | ProblemError::Malformed { at, .. }
            | ProblemError::Duplicate { at, .. }
            | ProblemError::Invalid { at, .. } => Some(at),
        }
    }
}
