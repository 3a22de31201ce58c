//! Plans and statistics as Python objects.

use planners::pddl::PddlSolution;
use planners::{PlanOutcome, PlanReport, PlanningDomain};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// One search's statistics: counts of what the engine did, its memory and
/// its time.
#[pyclass(module = "searchlab", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Statistics {
    /// Nodes expanded.
    pub expanded: u64,
    /// Successors generated.
    pub generated: u64,
    /// Heuristic evaluations.
    pub evaluated: u64,
    /// Successors already seen at no better cost.
    pub duplicates: u64,
    /// Closed nodes reopened with a cheaper path.
    pub reopened: u64,
    /// Nodes the heuristic called dead ends.
    pub dead_ends: u64,
    /// Expansions before the last f-layer (A*).
    pub expanded_until_last_jump: u64,
    /// The largest open list.
    pub max_open: usize,
    /// Nodes stored.
    pub stored: usize,
    /// The engine's estimate of its memory, in bytes.
    pub estimated_bytes: usize,
    /// The search's wall time in seconds.
    pub time: f64,
}

impl From<&search_core::Statistics> for Statistics {
    fn from(s: &search_core::Statistics) -> Self {
        Self {
            expanded: s.expanded,
            generated: s.generated,
            evaluated: s.evaluated,
            duplicates: s.duplicates,
            reopened: s.reopened,
            dead_ends: s.dead_ends,
            expanded_until_last_jump: s.expanded_until_last_jump,
            max_open: s.max_open,
            stored: s.stored,
            estimated_bytes: s.estimated_bytes,
            time: s.elapsed.as_secs_f64(),
        }
    }
}

#[pymethods]
impl Statistics {
    /// The statistics as a dict.
    ///
    /// :returns: a ``dict`` from each field's name to its value.
    pub fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("expanded", self.expanded)?;
        dict.set_item("generated", self.generated)?;
        dict.set_item("evaluated", self.evaluated)?;
        dict.set_item("duplicates", self.duplicates)?;
        dict.set_item("reopened", self.reopened)?;
        dict.set_item("dead_ends", self.dead_ends)?;
        dict.set_item("expanded_until_last_jump", self.expanded_until_last_jump)?;
        dict.set_item("max_open", self.max_open)?;
        dict.set_item("stored", self.stored)?;
        dict.set_item("estimated_bytes", self.estimated_bytes)?;
        dict.set_item("time", self.time)?;
        Ok(dict)
    }

    fn __repr__(&self) -> String {
        format!(
            "Statistics(expanded={}, generated={}, evaluated={}, time={:.6})",
            self.expanded, self.generated, self.evaluated, self.time
        )
    }
}

/// What planning found: the outcome, the plan (action names in execution
/// order) and its cost, and the statistics of each search. Returned by
/// :meth:`Problem.plan`, :meth:`PddlTask.plan` and :func:`plan`.
#[pyclass(module = "searchlab", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PlanResult {
    /// The problem's name (a PDDL task's problem file).
    pub problem: String,
    /// The configuration's name, as in the suite's tables:
    /// ``fwd-astar-hmax``.
    pub config: String,
    /// ``solved``, ``unsolvable`` (the search space was exhausted:
    /// proved), ``no_plan_found`` (it ran dry having left out states a
    /// heuristic called dead ends without proof), ``limit`` (a limit
    /// stopped the search: see ``limit``) or ``cancelled``.
    pub outcome: String,
    /// The limit that stopped the search (``time``, ``memory``,
    /// ``expansions`` ...), if one did.
    pub limit: Option<String>,
    /// The plan's actions, in execution order (PDDL:
    /// ``pick ball1 rooma left``), if solved.
    pub plan: Option<Vec<String>>,
    /// The plan's cost, if solved.
    pub cost: Option<u64>,
    /// Whether the plan is optimal by construction (A* with an admissible
    /// heuristic, or Dijkstra).
    pub optimal: bool,
    /// The direction whose search answered (for a portfolio, the winner).
    pub direction: String,
    /// The answering search's statistics.
    pub stats: Statistics,
    /// The forward search's statistics, if it ran.
    pub forward: Option<Statistics>,
    /// The regression search's statistics, if it ran.
    pub regression: Option<Statistics>,
    /// Wall time of the planner call in seconds (for PDDL, without parsing
    /// and grounding: see ``translator_time``).
    pub time: f64,
    /// Seconds spent making the heuristic, part of ``time``.
    pub setup_time: f64,
    /// For a PDDL task: seconds spent parsing and grounding.
    pub translator_time: Option<f64>,
    /// What the planner did otherwise than asked (a portfolio that
    /// searched forward only, say).
    pub notes: Vec<String>,
}

#[pymethods]
impl PlanResult {
    /// Whether the search finished with a plan. An anytime search that a
    /// limit stopped may hold a plan too (``outcome`` ``limit``, ``plan``
    /// and ``cost`` set): the best it found, not known to be optimal.
    #[getter]
    pub fn solved(&self) -> bool {
        self.outcome == "solved"
    }

    /// The result as a dict (statistics as dicts too).
    ///
    /// :returns: a ``dict`` from each field's name to its value.
    pub fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("problem", &self.problem)?;
        dict.set_item("config", &self.config)?;
        dict.set_item("outcome", &self.outcome)?;
        dict.set_item("limit", &self.limit)?;
        dict.set_item("plan", &self.plan)?;
        dict.set_item("cost", self.cost)?;
        dict.set_item("optimal", self.optimal)?;
        dict.set_item("direction", &self.direction)?;
        dict.set_item("stats", self.stats.to_dict(py)?)?;
        let optional = |s: &Option<Statistics>| s.as_ref().map(|s| s.to_dict(py)).transpose();
        dict.set_item("forward", optional(&self.forward)?)?;
        dict.set_item("regression", optional(&self.regression)?)?;
        dict.set_item("time", self.time)?;
        dict.set_item("setup_time", self.setup_time)?;
        dict.set_item("translator_time", self.translator_time)?;
        dict.set_item("notes", &self.notes)?;
        Ok(dict)
    }

    fn __repr__(&self) -> String {
        let limit = self
            .limit
            .as_deref()
            .map_or_else(|| "None".to_owned(), py_str);
        let head = format!(
            "PlanResult(outcome={}, limit={limit}",
            py_str(&self.outcome)
        );
        match (&self.plan, self.cost) {
            (Some(plan), Some(cost)) => {
                let steps: Vec<String> = plan.iter().map(|step| py_str(step)).collect();
                format!(
                    "{head}, cost={cost}, plan=[{}], config={})",
                    steps.join(", "),
                    py_str(&self.config)
                )
            }
            _ => format!("{head}, config={})", py_str(&self.config)),
        }
    }
}

/// `text` as a Python string literal, as `repr` shows it.
fn py_str(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// The outcome's name and the limit that stopped the search, if one did.
fn outcome_names<Id>(outcome: &PlanOutcome<Id>) -> (String, Option<String>) {
    let limit = outcome.limit().map(|limit| limit.to_string());
    (outcome.name().to_owned(), limit)
}

impl PlanResult {
    /// The result of planning `problem` on `domain` with `config`.
    pub fn from_report<D: PlanningDomain>(
        problem: &str,
        config: String,
        optimal: bool,
        domain: &D,
        report: &PlanReport<D::ActionId>,
    ) -> Self {
        let (outcome, limit) = outcome_names(&report.outcome);
        let optimal = optimal && matches!(report.outcome, PlanOutcome::Solved(_));
        let plan = report.plan();
        Self {
            problem: problem.to_owned(),
            config,
            outcome,
            limit,
            plan: plan.map(|p| p.names(domain).into_iter().map(str::to_owned).collect()),
            cost: plan.map(|p| p.cost),
            optimal,
            direction: report.direction.to_string(),
            stats: report.stats().into(),
            forward: report.forward.as_ref().map(Into::into),
            regression: report.regression.as_ref().map(Into::into),
            time: report.elapsed.as_secs_f64(),
            setup_time: report.setup_time.as_secs_f64(),
            translator_time: None,
            notes: report.notes.clone(),
        }
    }

    /// The result of a PDDL task's [`PddlSolution`]: its planner's report,
    /// with the plan's names from the IPC plan and the translator's time.
    pub fn from_pddl(
        problem: &str,
        config: String,
        optimal: bool,
        solution: &PddlSolution,
    ) -> Self {
        let report = &solution.report;
        let (outcome, limit) = outcome_names(&report.outcome);
        let optimal = optimal && matches!(report.outcome, PlanOutcome::Solved(_));
        let plan = solution.plan.as_ref();
        Self {
            problem: problem.to_owned(),
            config,
            outcome,
            limit,
            plan: plan.map(|p| p.names().into_iter().map(str::to_owned).collect()),
            cost: plan.map(planners::pddl::IpcPlan::cost),
            optimal,
            direction: report.direction.to_string(),
            stats: report.stats().into(),
            forward: report.forward.as_ref().map(Into::into),
            regression: report.regression.as_ref().map(Into::into),
            time: report.elapsed.as_secs_f64(),
            setup_time: report.setup_time.as_secs_f64(),
            translator_time: Some(solution.translator_time().as_secs_f64()),
            notes: Vec::new(),
        }
    }

    /// A PDDL task whose grounding a limit stopped, as
    /// [`SolveError::limit_report`](planners::pddl::SolveError::limit_report)
    /// reports it: the limit, without a search.
    pub fn grounding_limit(problem: &str, config: String, report: &PlanReport<usize>) -> Self {
        let (outcome, limit) = outcome_names(&report.outcome);
        Self {
            problem: problem.to_owned(),
            config,
            outcome,
            limit,
            plan: None,
            cost: None,
            optimal: false,
            direction: String::new(),
            stats: (&search_core::Statistics::default()).into(),
            forward: None,
            regression: None,
            time: 0.0,
            setup_time: 0.0,
            translator_time: None,
            notes: Vec::new(),
        }
    }
}
