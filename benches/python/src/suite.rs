//! Suites: the built-in default suite or a suite file, run through
//! `searchlab-lab`, the records back as JSON lines (the `searchlab`
//! package turns them into dicts or a pandas `DataFrame`).

use std::fmt::Write as _;
use std::path::PathBuf;

use pyo3::prelude::*;
use searchlab_lab::defaults::default_suite;
use searchlab_lab::runner::{run_suite, RunOptions};
use searchlab_lab::suite::Configuration;
use searchlab_lab::suite_file::load_suite;

use crate::error;

/// Runs a suite and returns its records as JSON lines (:func:`run_suite`
/// returns them as dicts).
///
/// :param path: a suite file (TOML, as ``searchlab bench suite.toml``
///     reads); ``None`` runs the built-in default suite.
/// :param configs: configuration names (``fwd-astar-hmax`` ...) to run
///     instead of the suite's.
/// :param problems: only the suite's problems with these names.
/// :param jobs: worker threads; ``None`` uses every core.
/// :returns: one JSON object per line, in run order (the fields of
///     ``searchlab bench --out``'s ``results.jsonl``).
/// :raises SearchlabError: for a suite file that cannot be read or is
///     malformed, an unknown configuration name, or a problem list that
///     matches nothing.
#[pyfunction]
#[pyo3(signature = (path = None, *, configs = None, problems = None, jobs = None))]
pub fn run_suite_jsonl(
    py: Python<'_>,
    path: Option<PathBuf>,
    configs: Option<Vec<String>>,
    problems: Option<Vec<String>>,
    jobs: Option<usize>,
) -> PyResult<String> {
    py.allow_threads(move || {
        let mut suite = match &path {
            Some(path) => load_suite(path),
            None => default_suite(),
        }
        .map_err(|e| e.to_string())?;
        if configs.as_ref().is_some_and(Vec::is_empty) {
            return Err(
                "configs is empty: give at least one configuration name, or None for the suite's"
                    .to_owned(),
            );
        }
        if problems.as_ref().is_some_and(Vec::is_empty) {
            return Err(
                "problems is empty: give at least one problem name, or None for all".to_owned(),
            );
        }
        if let Some(names) = configs {
            suite.configs = names
                .iter()
                .map(|name| Configuration::by_name(name))
                .collect::<Result<_, _>>()
                .map_err(|e| e.to_string())?;
        }
        if let Some(names) = problems {
            suite.problems.retain(|p| names.contains(&p.name));
            if suite.problems.is_empty() {
                return Err(format!(
                    "no problem of suite `{}` is called {}",
                    suite.name,
                    names.join(", ")
                ));
            }
        }
        let options = RunOptions {
            jobs,
            ..RunOptions::default()
        };
        let records = run_suite(&suite, &options).map_err(|e| e.to_string())?;
        let mut lines = String::new();
        for record in &records {
            let line = serde_json::to_string(record).map_err(|e| e.to_string())?;
            let _ = writeln!(lines, "{line}");
        }
        Ok(lines)
    })
    .map_err(error)
}
