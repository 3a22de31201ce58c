//! Problems to plan: TOML problem files ([`Problem`]) and PDDL tasks
//! ([`PddlTask`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use planners::pddl::{
    parse_domain, parse_problem, solve_files_with, solve_text, validate_text, PddlError,
    PddlOptions, PddlSolution, SolveError,
};
use planners::problem::LoadedProblem;
use planners::{PlanError, PlanReport, Planner, PlannerConfig, PlanningDomain};
use pyo3::prelude::*;

use crate::error;
use crate::interrupt::interruptible;
use crate::options::{Options, PlanArgs, Seconds, Whole};
use crate::result::PlanResult;

/// A problem read from a TOML problem file, atomic or factored (the format
/// is the ``searchlab`` command line's). Load one with :func:`load` or
/// :func:`parse`; plan it with :meth:`Problem.plan` as often as you like.
#[pyclass(module = "searchlab", frozen)]
pub struct Problem {
    loaded: Arc<LoadedProblem>,
}

/// Reads and checks a TOML problem file.
///
/// :param path: the problem file (``str`` or path-like).
/// :returns: the :class:`Problem`.
/// :raises SearchlabError: with the file, line and column of what is
///     wrong, or for a file that cannot be read.
#[pyfunction]
#[expect(
    clippy::needless_pass_by_value,
    reason = "pyo3 converts Python paths into owned values"
)]
pub fn load(py: Python<'_>, path: PathBuf) -> PyResult<Problem> {
    let loaded = py
        .allow_threads(|| planners::problem::load(&path))
        .map_err(error)?;
    Ok(Problem {
        loaded: Arc::new(loaded),
    })
}

/// Checks a TOML problem given as text.
///
/// :param text: the problem, as a problem file holds it.
/// :param file_name: the name errors give (and the problem's name when the
///     text names none).
/// :returns: the :class:`Problem`.
/// :raises SearchlabError: with the line and column of what is wrong.
#[pyfunction]
#[pyo3(signature = (text, file_name = "problem.toml"))]
pub fn parse(text: &str, file_name: &str) -> PyResult<Problem> {
    let loaded = planners::problem::parse(text, file_name).map_err(error)?;
    Ok(Problem {
        loaded: Arc::new(loaded),
    })
}

#[pymethods]
impl Problem {
    /// The problem's name.
    #[getter]
    pub fn name(&self) -> &str {
        self.loaded.name()
    }

    /// ``atomic`` or ``factored``.
    #[getter]
    pub fn kind(&self) -> &'static str {
        self.loaded.kind()
    }

    /// The actions' names, in file order.
    #[getter]
    pub fn actions(&self) -> Vec<String> {
        match self.loaded.as_ref() {
            LoadedProblem::Atomic(p) => p.actions.iter().map(|a| a.name.clone()).collect(),
            LoadedProblem::Factored(p) => p
                .domain
                .actions()
                .iter()
                .map(|a| a.name().to_owned())
                .collect(),
        }
    }

    /// Plans the problem.
    ///
    /// :param direction: ``forward`` (the default), ``regression``,
    ///     ``portfolio`` (both at once on two threads; the first answer
    ///     wins) or ``bidirectional`` (one search from both ends that meets
    ///     in the middle; ``astar`` or ``dijkstra``).
    /// :param algorithm: ``astar`` (the default), ``wastar:W``, ``gbfs``,
    ///     ``dijkstra``, ``bfs``, ``rwastar`` (anytime), ``lazygbfs``,
    ///     ``lazytype`` (with type-based exploration) or ``lazyhelpful``
    ///     (helpful successors only).
    /// :param heuristic: a built-in heuristic's name (:func:`heuristics`
    ///     lists them; ``a+b`` alternates for the lazy searches), a Python
    ///     callable (see :func:`heuristic`), or ``None`` for ``hmax`` on
    ///     atomic problems and ``numeric`` on factored ones.
    /// :param max_time: seconds per search; ``None`` for no limit.
    /// :param max_expansions: expansions per search; ``None`` for no limit.
    /// :param max_memory_mb: MiB per search; ``None`` for no limit.
    /// :returns: the :class:`PlanResult`. A limit that stops the search is
    ///     its outcome ``limit``, not an error.
    /// :raises SearchlabError: for a bad name or limit, or a heuristic the
    ///     problem refuses. A Python heuristic's own exception comes out as
    ///     it was raised.
    #[pyo3(signature = (*, direction = "forward", algorithm = "astar", heuristic = None,
        max_time = Some(Seconds(60.0)), max_expansions = None, max_memory_mb = Some(Whole(512))),
        text_signature = "($self, *, direction='forward', algorithm='astar', heuristic=None, \
            max_time=60.0, max_expansions=None, max_memory_mb=512)")]
    #[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
    pub fn plan(
        &self,
        py: Python<'_>,
        direction: &str,
        algorithm: &str,
        heuristic: Option<Bound<'_, PyAny>>,
        max_time: Option<Seconds>,
        max_expansions: Option<Whole>,
        max_memory_mb: Option<Whole>,
    ) -> PyResult<PlanResult> {
        let args = PlanArgs {
            direction,
            algorithm,
            heuristic,
            max_time,
            max_expansions,
            max_memory_mb,
        };
        let default = match self.loaded.as_ref() {
            LoadedProblem::Atomic(_) => "hmax",
            LoadedProblem::Factored(_) => "numeric",
        };
        let options = args.options(default)?;
        let loaded = Arc::clone(&self.loaded);
        let config = options.config.clone();
        let optimal = options.optimal();
        let result = interruptible(py, &options.cancel, move || match loaded.as_ref() {
            LoadedProblem::Atomic(p) => {
                plan_on(&p.name, config, optimal, (&p.actions, &p.start, &p.goal))
            }
            LoadedProblem::Factored(p) => {
                plan_on(&p.name, config, optimal, (&p.domain, &p.start, &p.goal))
            }
        })?;
        finish(&options, result.map_err(error))
    }

    fn __repr__(&self) -> String {
        format!(
            "Problem(name='{}', kind='{}')",
            self.loaded.name(),
            self.loaded.kind()
        )
    }
}

/// Plans one problem of `domain`.
fn plan_on<D: PlanningDomain>(
    name: &str,
    config: PlannerConfig,
    optimal: bool,
    (domain, start, goal): (&D, &D::State, &D::Goal),
) -> Result<PlanResult, PlanError> {
    let config_name = config.name();
    let report: PlanReport<D::ActionId> = Planner::new(config).plan(domain, start, goal)?;
    Ok(PlanResult::from_report(
        name,
        config_name,
        optimal,
        domain,
        &report,
    ))
}

/// A Python heuristic's exception first, then the planner's answer.
fn finish(options: &Options, result: PyResult<PlanResult>) -> PyResult<PlanResult> {
    match options
        .python
        .as_ref()
        .and_then(crate::heuristic::PythonHeuristic::take_failure)
    {
        Some(failure) => Err(failure),
        None => result,
    }
}

/// Where a PDDL task's text is.
enum Source {
    /// Two files, read at each `plan` (errors name them).
    Files { domain: PathBuf, problem: PathBuf },
    /// Text given from Python.
    Text { domain: String, problem: String },
}

/// A PDDL task: a domain and a problem (STRIPS with typing, negative
/// preconditions, equality, action costs and ADL). Load one with
/// :func:`load_pddl` or :func:`pddl_from_text`; plan it with
/// :meth:`PddlTask.plan`.
#[pyclass(module = "searchlab", frozen)]
pub struct PddlTask {
    source: Arc<Source>,
    name: String,
}

/// Reads and parses a PDDL task from its files (grounding waits for
/// :meth:`PddlTask.plan`, which reads the files again).
///
/// :param domain: the domain file (``str`` or path-like).
/// :param problem: the problem file (``str`` or path-like).
/// :returns: the :class:`PddlTask`.
/// :raises SearchlabError: naming the file, line and column of a parse
///     error, or for a file that cannot be read.
#[pyfunction]
pub fn load_pddl(py: Python<'_>, domain: PathBuf, problem: PathBuf) -> PyResult<PddlTask> {
    py.allow_threads(|| check_files(&domain, &problem))
        .map_err(error)?;
    Ok(PddlTask {
        name: problem.display().to_string(),
        source: Arc::new(Source::Files { domain, problem }),
    })
}

/// Parses a PDDL task given as text.
///
/// :param domain: the domain's text.
/// :param problem: the problem's text.
/// :returns: the :class:`PddlTask`.
/// :raises SearchlabError: with the line and column of a parse error in
///     ``domain`` or ``problem``, as the message names them.
#[pyfunction]
pub fn pddl_from_text(domain: String, problem: String) -> PyResult<PddlTask> {
    let parsed = parse_domain("domain", &domain).map_err(error)?;
    let name = parse_problem(&parsed, "problem", &problem)
        .map_err(error)?
        .name()
        .to_owned();
    Ok(PddlTask {
        name,
        source: Arc::new(Source::Text { domain, problem }),
    })
}

/// The text of the file at `path`, under its path's name (the name its
/// errors give).
fn read_named(path: &Path) -> Result<(String, String), PddlError> {
    let name = path.display().to_string();
    match planners::input::read_text(path) {
        Ok(text) => Ok((name, text)),
        Err(e) => Err(PddlError::Io {
            path: name,
            message: e.to_string(),
        }),
    }
}

/// Checks that both files read and parse.
fn check_files(domain: &Path, problem: &Path) -> Result<(), PddlError> {
    let (domain, problem) = (read_named(domain)?, read_named(problem)?);
    check_text((&domain.0, &domain.1), (&problem.0, &problem.1))
}

/// Checks that both texts parse.
fn check_text(domain: (&str, &str), problem: (&str, &str)) -> Result<(), PddlError> {
    let parsed = parse_domain(domain.0, domain.1)?;
    parse_problem(&parsed, problem.0, problem.1)?;
    Ok(())
}

/// Replays a plan on a PDDL task, all three read from files, and returns
/// the plan's cost.
///
/// :param domain: the domain file (``str`` or path-like).
/// :param problem: the problem file (``str`` or path-like).
/// :param plan: the plan file, as IPC planners write it: one
///     ``(action arg ...)`` per line, ``;`` starting a comment.
/// :returns: the plan's cost (its number of steps for a task without
///     action costs).
/// :raises SearchlabError: for a file that cannot be read, a task or plan
///     that does not parse or ground, a step that is not an action of the
///     task or does not apply, or a goal left unreached; located in the
///     file by its path and the line and column.
#[pyfunction]
#[expect(
    clippy::needless_pass_by_value,
    reason = "pyo3 converts Python paths into owned values"
)]
pub fn validate_pddl(
    py: Python<'_>,
    domain: PathBuf,
    problem: PathBuf,
    plan: PathBuf,
) -> PyResult<u64> {
    py.allow_threads(|| {
        let (domain, problem, plan) = (
            read_named(&domain)?,
            read_named(&problem)?,
            read_named(&plan)?,
        );
        validate_text(
            (&domain.0, &domain.1),
            (&problem.0, &problem.1),
            (&plan.0, &plan.1),
        )
    })
    .map_err(error)
}

/// Replays a plan on a PDDL task given as text, as :func:`validate_pddl`
/// does on files, and returns the plan's cost.
///
/// :param domain: the domain's text.
/// :param problem: the problem's text.
/// :param plan: the plan's text: one ``(action arg ...)`` per line, ``;``
///     starting a comment.
/// :returns: the plan's cost (its number of steps for a task without
///     action costs).
/// :raises SearchlabError: for a task or plan that does not parse or
///     ground, a step that is not an action of the task or does not apply,
///     or a goal left unreached; located by the line and column in
///     ``domain``, ``problem`` or ``plan``, as the message names them.
#[pyfunction]
pub fn validate_pddl_text(
    py: Python<'_>,
    domain: &str,
    problem: &str,
    plan: &str,
) -> PyResult<u64> {
    py.allow_threads(|| validate_text(("domain", domain), ("problem", problem), ("plan", plan)))
        .map_err(error)
}

#[pymethods]
impl PddlTask {
    /// The problem's name: the problem file's path, or the name in its
    /// ``(define (problem NAME) ...)`` for a task given as text.
    #[getter]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Grounds and plans the task (parsing and grounding count toward
    /// ``max_time``).
    ///
    /// :param direction: ``forward`` (the default), ``regression``,
    ///     ``portfolio`` (both at once on two threads; the first answer
    ///     wins) or ``bidirectional`` (one search from both ends that meets
    ///     in the middle; ``astar`` or ``dijkstra``).
    /// :param algorithm: ``astar`` (the default), ``wastar:W``, ``gbfs``,
    ///     ``dijkstra``, ``bfs``, ``rwastar`` (anytime), ``lazygbfs``,
    ///     ``lazytype`` (with type-based exploration) or ``lazyhelpful``
    ///     (helpful successors only).
    /// :param heuristic: a built-in heuristic's name (:func:`heuristics`
    ///     lists them; ``a+b`` alternates for the lazy searches), a Python
    ///     callable (see :func:`heuristic`), or ``None`` for ``hmax``.
    /// :param max_time: seconds per search; ``None`` for no limit.
    /// :param max_expansions: expansions per search; ``None`` for no limit.
    /// :param max_memory_mb: MiB per search; ``None`` for no limit.
    /// :param packing: search on packed states (groups of mutually
    ///     exclusive facts as fields) when that takes fewer words.
    /// :returns: the :class:`PlanResult`. A limit that stops grounding or
    ///     the search is its outcome ``limit``, not an error.
    /// :raises SearchlabError: for a bad name or limit, a task that cannot
    ///     be grounded, or a heuristic the task refuses. A Python
    ///     heuristic's own exception comes out as it was raised.
    #[pyo3(signature = (*, direction = "forward", algorithm = "astar", heuristic = None,
        max_time = Some(Seconds(60.0)), max_expansions = None, max_memory_mb = Some(Whole(512)), packing = true),
        text_signature = "($self, *, direction='forward', algorithm='astar', heuristic=None, \
            max_time=60.0, max_expansions=None, max_memory_mb=512, packing=True)")]
    #[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
    pub fn plan(
        &self,
        py: Python<'_>,
        direction: &str,
        algorithm: &str,
        heuristic: Option<Bound<'_, PyAny>>,
        max_time: Option<Seconds>,
        max_expansions: Option<Whole>,
        max_memory_mb: Option<Whole>,
        packing: bool,
    ) -> PyResult<PlanResult> {
        let args = PlanArgs {
            direction,
            algorithm,
            heuristic,
            max_time,
            max_expansions,
            max_memory_mb,
        };
        let options = args.options("hmax")?;
        let source = Arc::clone(&self.source);
        let config = options.config.clone();
        let config_name = config.name();
        let optimal = options.optimal();
        let pddl = PddlOptions {
            packing,
            ..PddlOptions::default()
        };
        let began = std::time::Instant::now();
        let direction = config.direction;
        let solved: Result<PddlSolution, SolveError> =
            interruptible(py, &options.cancel, move || match source.as_ref() {
                Source::Files { domain, problem } => {
                    solve_files_with(domain, problem, &config, &pddl)
                }
                Source::Text { domain, problem } => solve_text(domain, problem, &config, &pddl),
            })?;
        let result = match solved {
            Ok(solution) => Ok(PlanResult::from_pddl(
                &self.name,
                config_name,
                optimal,
                &solution,
            )),
            Err(e) => match e.limit_report(direction, began.elapsed()) {
                Some(report) => Ok(PlanResult::grounding_limit(
                    &self.name,
                    config_name,
                    &report,
                )),
                None => Err(error(e)),
            },
        };
        finish(&options, result)
    }

    fn __repr__(&self) -> String {
        format!("PddlTask(name='{}')", self.name)
    }
}
