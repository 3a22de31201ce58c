//! Problem files: atomic and factored GOAP problems in TOML, loaded with
//! errors that say `file:line:column: what is wrong`.
//!
//! [`load`] reads a file and [`parse`] reads text; both return a
//! [`LoadedProblem`] (an atomic or a factored problem, ready for a
//! [`Planner`](crate::Planner)) or a [`ProblemError`]. Loading never panics,
//! whatever the input.
//!
#![doc = include_str!("format.md")]

mod atomic;
mod error;
mod expr;
mod factored;
mod source;

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use toml::Spanned;

pub use error::{Location, ProblemError};
use source::{Source, StringMap};

/// A problem read from a file: atomic (`kind = "atomic"`) or factored
/// (`kind = "factored"`).
///
/// ```
/// use planners::problem::{parse, LoadedProblem};
/// let text = "kind = \"atomic\"\natoms = [\"fed\"]\ngoal = [\"fed\"]\n\
///             [[action]]\nname = \"eat\"\ncost = 5\neff = [\"fed\"]\n";
/// let problem = parse(text, "problems/eat.toml").unwrap();
/// assert_eq!(problem.name(), "eat");
/// assert!(matches!(problem, LoadedProblem::Atomic(p) if p.actions.len() == 1));
/// ```
#[derive(Clone, Debug)]
pub enum LoadedProblem {
    /// Atoms in a `u64`: up to 64 of them.
    Atomic(state_atomic::problems::Problem<u64>),
    /// Typed variables.
    Factored(state_factored::problems::Problem),
}

impl LoadedProblem {
    /// The problem's name: the file's `name`, or the file name without its
    /// directory and `.toml`.
    ///
    /// ```
    /// let text = "kind = \"factored\"\nname = \"demo\"\ngoal = []\n[variables]\nx = 1\n\
    ///             [[action]]\nname = \"inc\"\neff = [\"x += 1\"]\n";
    /// assert_eq!(planners::problem::parse(text, "d.toml").unwrap().name(), "demo");
    /// ```
    pub fn name(&self) -> &str {
        match self {
            LoadedProblem::Atomic(p) => &p.name,
            LoadedProblem::Factored(p) => &p.name,
        }
    }

    /// `atomic` or `factored`.
    ///
    /// ```
    /// let text = "kind = \"factored\"\ngoal = []\n[variables]\nx = 1\n\
    ///             [[action]]\nname = \"inc\"\neff = [\"x += 1\"]\n";
    /// assert_eq!(planners::problem::parse(text, "d.toml").unwrap().kind(), "factored");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            LoadedProblem::Atomic(_) => "atomic",
            LoadedProblem::Factored(_) => "factored",
        }
    }
}

/// Reads and checks the problem file at `path`. Errors name the file as
/// `path` displays.
///
/// # Errors
/// [`ProblemError::Io`] if the file cannot be read,
/// [`ProblemError::TooLarge`] if it holds more than
/// [`MAX_INPUT_BYTES`](crate::input::MAX_INPUT_BYTES) (64 MiB), a
/// [`ProblemError::Syntax`] if it is not UTF-8, and every error of
/// [`parse`].
///
/// ```
/// use std::path::Path;
/// let error = planners::problem::load(Path::new("no/such/file.toml")).unwrap_err();
/// assert!(error.to_string().starts_with("no/such/file.toml: cannot read the file"));
/// ```
pub fn load(path: &Path) -> Result<LoadedProblem, ProblemError> {
    let file = path.display().to_string();
    let limit_bytes = crate::input::MAX_INPUT_BYTES;
    let bytes = crate::input::read_capped(path, limit_bytes).map_err(|source| {
        if source.kind() == std::io::ErrorKind::FileTooLarge {
            ProblemError::TooLarge {
                file: file.clone(),
                limit_bytes,
            }
        } else {
            ProblemError::Io {
                file: file.clone(),
                source,
            }
        }
    })?;
    match String::from_utf8(bytes) {
        Ok(text) => parse(&text, &file),
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes());
            let source = Source::new(&text, &file);
            Err(ProblemError::Syntax {
                at: source.location(offset),
                message: "the file is not UTF-8 text".into(),
            })
        }
    }
}

/// Checks the problem in `text`; `file_name` is the name errors give (and
/// the default problem name, without directory and `.toml`).
///
/// # Errors
/// A [`ProblemError`] with the line and column of the first problem found:
/// TOML syntax, a missing section, an unknown atom or variable, a type
/// mismatch, a malformed condition or effect, a duplicate action, a cost out
/// of range, more than 64 atoms ...
///
/// ```
/// use planners::problem::parse;
/// let text = "kind = \"factored\"\ngoal = [\"gold >= 60\"]\n[variables]\ngold = 20\n\
///             [[action]]\nname = \"mine\"\ncost = 3\neff = [\"gold + 25\"]\n";
/// let error = parse(text, "mine.toml").unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "mine.toml:8:18: malformed effect `gold + 25`: expected a comparison (`==`, `!=`, \
///      `<`, `<=`, `>`, `>=`, `in`) or an assignment (`=`, `+=`, `-=`) after `gold + 25` \
///      (effects add with `+=` and subtract with `-=`)"
/// );
/// ```
pub fn parse(text: &str, file_name: &str) -> Result<LoadedProblem, ProblemError> {
    let source = Source::new(text, file_name);
    let raw: RawProblem = toml::from_str(text).map_err(|e| ProblemError::Syntax {
        at: source.location(e.span().map_or(0, |span| span.start)),
        message: e.message().trim_end().to_owned(),
    })?;
    let Some(kind) = &raw.kind else {
        return Err(source.missing("`kind = \"atomic\"` or `kind = \"factored\"`"));
    };
    let name = raw
        .name
        .as_ref()
        .map_or_else(|| default_name(file_name), |name| name.get_ref().clone());
    match kind.get_ref().as_str() {
        "atomic" => atomic::build(&source, &raw, name).map(LoadedProblem::Atomic),
        "factored" => factored::build(&source, &raw, name).map(LoadedProblem::Factored),
        other => Err(source.invalid(
            &kind.span(),
            format!("unknown kind `{other}`: write \"atomic\" or \"factored\""),
        )),
    }
}

/// The file name without its directories and `.toml`.
fn default_name(file_name: &str) -> String {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    base.strip_suffix(".toml").unwrap_or(base).to_owned()
}

/// The whole file, as TOML gives it, with the place of every string.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProblem {
    kind: Option<Spanned<String>>,
    name: Option<Spanned<String>>,
    atoms: Option<Spanned<Vec<Spanned<String>>>>,
    shared: Option<Spanned<Vec<Spanned<String>>>>,
    variables: Option<Spanned<Entries>>,
    start: Option<Spanned<Vec<Spanned<String>>>>,
    goal: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    action: Vec<Spanned<RawAction>>,
}

/// One `[[action]]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAction {
    name: Spanned<String>,
    cost: Option<Spanned<i64>>,
    #[serde(default)]
    pre: Vec<Spanned<String>>,
    #[serde(default)]
    eff: Vec<Spanned<String>>,
}

/// A table's entries in file order (the `[variables]` table: the schema
/// keeps the order the file gives).
struct Entries(Vec<(Spanned<String>, Spanned<toml::Value>)>);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor;
        impl<'de> Visitor<'de> for EntriesVisitor {
            type Value = Entries;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a table of variables")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<Spanned<String>, _>()? {
                    entries.push(entry);
                }
                // The reader may sort keys; the file's order is the spans'.
                entries.sort_by_key(|(key, _)| key.span().start);
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(EntriesVisitor)
    }
}

impl Source<'_> {
    /// A [`ProblemError::Missing`] at the start of the file.
    fn missing(&self, what: &str) -> ProblemError {
        ProblemError::Missing {
            at: self.location(0),
            what: what.to_owned(),
        }
    }

    /// A condition, effect or start value parsed, with the map from its
    /// bytes to the file's.
    fn expression(
        &self,
        text: &Spanned<String>,
        part: &'static str,
    ) -> Result<(expr::Expr, Expression<'_>), ProblemError> {
        let map = self.string_map(text);
        let at = Expression {
            source: self,
            text: text.get_ref().clone(),
            part,
            map,
        };
        match expr::parse(text.get_ref()) {
            Ok(e) => Ok((e, at)),
            Err(e) => Err(at.malformed(&e.span, e.message)),
        }
    }
}

/// A condition, effect or start value being checked: errors inside it get
/// the file's line and column.
struct Expression<'s> {
    source: &'s Source<'s>,
    text: String,
    part: &'static str,
    map: StringMap,
}

impl Expression<'_> {
    fn at(&self, span: &std::ops::Range<usize>) -> Location {
        self.source.location(self.map.offset(span.start))
    }

    fn malformed(&self, span: &std::ops::Range<usize>, message: impl Into<String>) -> ProblemError {
        ProblemError::Malformed {
            at: self.at(span),
            part: self.part,
            expression: self.text.clone(),
            message: message.into(),
        }
    }

    fn mismatch(&self, span: &std::ops::Range<usize>, message: impl Into<String>) -> ProblemError {
        ProblemError::TypeMismatch {
            at: self.at(span),
            message: message.into(),
        }
    }

    fn unknown(&self, kind: &'static str, name: &expr::At<String>) -> ProblemError {
        ProblemError::Unknown {
            at: self.at(&name.span),
            kind,
            name: name.value.clone(),
        }
    }
}

/// Remembers the line where each name was first declared, to report the
/// second.
struct Declared {
    kind: &'static str,
    lines: HashMap<String, usize>,
}

impl Declared {
    fn new(kind: &'static str) -> Self {
        Self {
            kind,
            lines: HashMap::new(),
        }
    }

    fn insert(&mut self, source: &Source<'_>, name: &Spanned<String>) -> Result<(), ProblemError> {
        let at = source.at(&name.span());
        if let Some(&first_line) = self.lines.get(name.get_ref()) {
            return Err(ProblemError::Duplicate {
                at,
                kind: self.kind,
                name: name.get_ref().clone(),
                first_line,
            });
        }
        if !is_identifier(name.get_ref()) {
            return Err(ProblemError::Invalid {
                at,
                message: format!(
                    "{} name `{}` is not letters, digits and `_` starting with a letter or `_`",
                    self.kind,
                    name.get_ref()
                ),
            });
        }
        self.lines.insert(name.get_ref().clone(), at.line);
        Ok(())
    }
}

/// Whether `name` can be written in an expression.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !matches!(name, "true" | "false" | "in")
}

/// An action's cost: 1 if left out, else a whole number that fits a `u32`.
fn cost(source: &Source<'_>, cost: Option<&Spanned<i64>>) -> Result<u32, ProblemError> {
    match cost {
        None => Ok(1),
        Some(c) => u32::try_from(*c.get_ref()).map_err(|_| {
            source.invalid(
                &c.span(),
                format!(
                    "cost {} is not a whole number from 0 to {}",
                    c.get_ref(),
                    u32::MAX
                ),
            )
        }),
    }
}

/// Checks that an action's name is new (actions are named in plans, so any
/// text will do).
fn action_name(
    source: &Source<'_>,
    seen: &mut HashMap<String, usize>,
    name: &Spanned<String>,
) -> Result<(), ProblemError> {
    let at = source.at(&name.span());
    if let Some(&first_line) = seen.get(name.get_ref()) {
        return Err(ProblemError::Duplicate {
            at,
            kind: "action",
            name: name.get_ref().clone(),
            first_line,
        });
    }
    if name.get_ref().is_empty() {
        return Err(ProblemError::Invalid {
            at,
            message: "an action's name must not be empty".into(),
        });
    }
    seen.insert(name.get_ref().clone(), at.line);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_names_drop_directories_and_extension() {
        assert_eq!(default_name("problems/hitman.toml"), "hitman");
        assert_eq!(default_name("C:\\p\\ship.toml"), "ship");
        assert_eq!(default_name("plain"), "plain");
    }

    #[test]
    fn identifiers() {
        assert!(is_identifier("has_food") && is_identifier("_x1"));
        assert!(!is_identifier("") && !is_identifier("1x") && !is_identifier("a b"));
        assert!(!is_identifier("true") && !is_identifier("in"));
    }
}
