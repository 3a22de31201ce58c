//! What a Python caller asks of a planner: direction, algorithm, heuristic
//! and limits, by name, checked into a [`PlannerConfig`].

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use planners::heuristics::{heuristic, NamedHeuristic, Registry};
use planners::{Direction, PlannerConfig};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt};
use search_core::{Algorithm, SearchLimits};
use searchlab_lab::suite::{mebibytes, MAX_TIME};

use crate::error;
use crate::heuristic::PythonHeuristic;

/// The keyword arguments of every `plan` method, as given.
pub struct PlanArgs<'py> {
    /// `forward`, `regression` or `portfolio` (and their short names).
    pub direction: &'py str,
    /// An algorithm's name (`astar`, `wastar:2`, `gbfs` ...).
    pub algorithm: &'py str,
    /// A built-in heuristic's name, a Python callable, or `None` for the
    /// problem's default.
    pub heuristic: Option<Bound<'py, PyAny>>,
    /// Seconds per search; `None` for no limit.
    pub max_time: Option<Seconds>,
    /// Expansions per search; `None` for no limit.
    pub max_expansions: Option<Whole>,
    /// MiB per search (the engine's estimate); `None` for no limit.
    pub max_memory_mb: Option<Whole>,
}

/// A number of seconds from Python. A number out of a float's range is a
/// `SearchlabError` (not Python's `OverflowError`), as every bad limit is;
/// what is not a number stays a `TypeError`.
#[derive(Clone, Copy, Debug)]
pub struct Seconds(pub f64);

impl FromPyObject<'_> for Seconds {
    fn extract_bound(value: &Bound<'_, PyAny>) -> PyResult<Self> {
        value.extract().map(Seconds).map_err(|e| {
            if value.is_instance_of::<PyInt>() || value.is_instance_of::<PyFloat>() {
                error(format!(
                    "a time limit is a number of seconds from 0 to a year, not {}",
                    shown(value)
                ))
            } else {
                e
            }
        })
    }
}

/// A whole number from 0 to 2^64 - 1 from Python (a count limit). An `int`
/// out of that range is a `SearchlabError` (not Python's `OverflowError`);
/// what is not an `int` stays a `TypeError`.
#[derive(Clone, Copy, Debug)]
pub struct Whole(pub u64);

impl FromPyObject<'_> for Whole {
    fn extract_bound(value: &Bound<'_, PyAny>) -> PyResult<Self> {
        value.extract().map(Whole).map_err(|e| {
            if value.is_instance_of::<PyInt>() {
                error(format!(
                    "an expansion or memory limit is a whole number from 0 to 2^64 - 1, not {}",
                    shown(value)
                ))
            } else {
                e
            }
        })
    }
}

/// How a value is shown in an error: its `repr`, shortened.
fn shown(value: &Bound<'_, PyAny>) -> String {
    let text = value
        .repr()
        .map_or_else(|_| "an unprintable value".to_owned(), |r| r.to_string());
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text,
    }
}

/// A checked configuration, and the Python heuristic in it, if any (whose
/// error the caller raises after the search).
pub struct Options {
    /// The planner's configuration.
    pub config: PlannerConfig,
    /// The Python heuristic, when one was given.
    pub python: Option<PythonHeuristic>,
    /// The searches' cancellation flag (`config.limits.cancel`): raised by
    /// Ctrl-C and by a Python heuristic that raises.
    pub cancel: Arc<AtomicBool>,
}

impl Options {
    /// Whether a solved plan is optimal by construction: A* with an
    /// admissible heuristic, or Dijkstra, in any direction.
    pub fn optimal(&self) -> bool {
        match self.config.algorithm {
            Algorithm::AStar => self.config.heuristic.info().admissible,
            Algorithm::Dijkstra => true,
            _ => false,
        }
    }
}

impl PlanArgs<'_> {
    /// Checks the arguments; `default` names the heuristic used when none
    /// is given.
    ///
    /// # Errors
    /// [`SearchlabError`](crate::SearchlabError) for an unknown direction,
    /// algorithm or heuristic name, a heuristic that is neither a name nor
    /// callable, or a limit that is negative or not finite.
    pub fn options(&self, default: &str) -> PyResult<Options> {
        let direction: Direction = self.direction.parse().map_err(error)?;
        let algorithm: Algorithm = self.algorithm.parse().map_err(error)?;
        let (heuristic, python) = match &self.heuristic {
            None => (heuristic(default).map_err(error)?, None),
            Some(h) => {
                if let Ok(name) = h.extract::<String>() {
                    (named(&name)?, None)
                } else if h.is_callable() {
                    let python = PythonHeuristic::new(h)?;
                    (python.named(), Some(python))
                } else {
                    return Err(error(format!(
                        "a heuristic is a name (`searchlab.heuristics()` lists them) or a \
                         callable, not {}",
                        h.get_type().name()?
                    )));
                }
            }
        };
        let max_time = self
            .max_time
            .map(|Seconds(seconds)| {
                // 0 is allowed here (a search that stops at once), unlike
                // on the command line; the longest limit is the same.
                if (0.0..=MAX_TIME.as_secs_f64()).contains(&seconds) {
                    Ok(Duration::from_secs_f64(seconds))
                } else {
                    Err(error(format!(
                        "max_time must be a number of seconds from 0 to a year, not {seconds}"
                    )))
                }
            })
            .transpose()?;
        let max_expansions = self.max_expansions.map(|Whole(n)| n);
        // As the command line: a limit beyond memory is no limit.
        let max_memory_bytes = self.max_memory_mb.map(|Whole(mb)| mebibytes(mb));
        // A Python heuristic that raises stops the search with its flag;
        // Ctrl-C raises the same one.
        let cancel = python.as_ref().map_or_else(
            || Arc::new(AtomicBool::new(false)),
            |p| Arc::clone(p.stop()),
        );
        let limits = SearchLimits {
            max_expansions,
            max_time,
            max_memory_bytes,
            cancel: Some(Arc::clone(&cancel)),
            ..SearchLimits::default()
        };
        Ok(Options {
            config: PlannerConfig {
                direction,
                algorithm,
                heuristic,
                limits,
            },
            python,
            cancel,
        })
    }
}

/// The built-in heuristic called `name`, or the alternation `a+b` of
/// several (for lazy greedy search).
fn named(name: &str) -> PyResult<NamedHeuristic> {
    if name.contains('+') {
        let parts = name
            .split('+')
            .map(|part| heuristic(part.trim()).map_err(error))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(NamedHeuristic::alternation(&parts))
    } else {
        heuristic(name).map_err(error)
    }
}

/// The built-in heuristics, the names ``plan(heuristic=...)`` takes.
///
/// :returns: one ``dict`` per heuristic: ``name``, ``aliases``,
///     ``description``, ``admissible``, ``consistent``, ``directions``
///     and ``representations``.
#[pyfunction]
pub fn heuristics(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    Registry::builtin()
        .iter()
        .map(|h| {
            let info = h.info();
            let dict = PyDict::new(py);
            dict.set_item("name", &info.name)?;
            dict.set_item("aliases", &info.aliases)?;
            dict.set_item("description", &info.description)?;
            dict.set_item("admissible", info.admissible)?;
            dict.set_item("consistent", info.consistent)?;
            dict.set_item("directions", info.directions.to_string())?;
            let representations: Vec<String> = info
                .representations
                .iter()
                .map(ToString::to_string)
                .collect();
            dict.set_item("representations", representations)?;
            Ok(dict)
        })
        .collect()
}
