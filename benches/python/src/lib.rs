//! searchlab's Python bindings: the native module `searchlab._searchlab`
//! behind the pure-Python package `searchlab` (and the Unified Planning
//! engine `up_searchlab`, written in Python on top of it).
//!
//! - [`problem`]: TOML problem files ([`problem::Problem`]) and PDDL tasks
//!   ([`problem::PddlTask`]), planned with options by name.
//! - [`options`]: direction, algorithm, heuristic and limits from Python
//!   arguments.
//! - [`result`]: plans and statistics as Python objects.
//! - [`heuristic`]: a Python callable as a heuristic (slow; for
//!   prototyping).
//! - [`suite`]: suites run through `searchlab-lab`, records as JSON lines.
//!
//! Searches run with the GIL released, on a thread of their own so that
//! Ctrl-C stops them ([`interrupt`]); a Python heuristic takes the GIL back
//! for each estimate. Bad input raises [`SearchlabError`], never a panic.
//!
//! The doc comments of what Python sees (the module, classes, functions,
//! methods and the fields of `get_all` classes) are its docstrings, so they
//! are written as the Python side's are, in reST: ``code`` in double
//! backticks, `:param name:`, `:returns:`, `:raises SearchlabError:`. The
//! rest of the crate's docs are rustdoc's Markdown.

use pyo3::prelude::*;

pub mod heuristic;
mod interrupt;
pub mod options;
pub mod problem;
pub mod result;
pub mod suite;

pyo3::create_exception!(
    searchlab,
    SearchlabError,
    pyo3::exceptions::PyValueError,
    "Bad input to searchlab: a file that cannot be read or does not parse \
     (the message gives the file, line and column), an unknown direction, \
     algorithm or heuristic name, a heuristic that does not serve the \
     problem, an invalid limit, or a plan that does not replay. A \
     ``ValueError``."
);

/// A [`SearchlabError`] carrying `error`'s message.
pub(crate) fn error(error: impl std::fmt::Display) -> PyErr {
    SearchlabError::new_err(error.to_string())
}

/// searchlab's native module: its classes and functions, re-exported by
/// the ``searchlab`` package (see ``help(searchlab)``).
#[pymodule]
fn _searchlab(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("SearchlabError", py.get_type::<SearchlabError>())?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_class::<problem::Problem>()?;
    module.add_class::<problem::PddlTask>()?;
    module.add_class::<result::PlanResult>()?;
    module.add_class::<result::Statistics>()?;
    module.add_function(wrap_pyfunction!(problem::load, module)?)?;
    module.add_function(wrap_pyfunction!(problem::parse, module)?)?;
    module.add_function(wrap_pyfunction!(problem::load_pddl, module)?)?;
    module.add_function(wrap_pyfunction!(problem::pddl_from_text, module)?)?;
    module.add_function(wrap_pyfunction!(problem::validate_pddl, module)?)?;
    module.add_function(wrap_pyfunction!(problem::validate_pddl_text, module)?)?;
    module.add_function(wrap_pyfunction!(options::heuristics, module)?)?;
    module.add_function(wrap_pyfunction!(suite::run_suite_jsonl, module)?)?;
    Ok(())
}
