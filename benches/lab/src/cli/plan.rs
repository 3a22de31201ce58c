//! `searchlab plan`: solve one problem file and print the plan, its cost and
//! the search statistics, as a table or as JSON; with `--trace`, the
//! search's exploration as text or Graphviz DOT ([`TraceFormat`]).

use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::str::FromStr;
use std::time::Duration;

use planners::heuristics::{heuristic, NamedHeuristic, Registry};
use planners::pddl::{
    decimal_cost, solve_files_with, IpcPlan, PddlOptions, PddlSolution, SolveError,
};
use planners::problem::LoadedProblem;
use planners::{
    Direction, PlanImprovement, PlanOutcome, PlanReport, PlanTrace, Planner, PlannerConfig,
    PlanningDomain,
};
use search_core::{Algorithm, Statistics};
use serde_json::json;

use crate::defaults::safety_limits;
use crate::files::check_output;
use crate::limits::RunLimits;
use crate::record::write_file;
use crate::report::as_f64;

use super::flags::LimitArgs;

/// Exit code: a plan was found (and replays).
pub const EXIT_SOLVED: u8 = 0;
/// Exit code: the planner returned a plan that does not replay (a bug).
pub const EXIT_INVALID_PLAN: u8 = 1;
/// Exit code: bad input (unreadable or malformed file, unknown name,
/// a heuristic or direction the problem does not support).
pub const EXIT_INPUT_ERROR: u8 = 2;
/// Exit code: the search proved that no plan exists.
pub const EXIT_UNSOLVABLE: u8 = 3;
/// Exit code: a limit (or cancellation) stopped the search.
pub const EXIT_LIMIT: u8 = 4;
/// Exit code: the search ran dry without a plan, having left out states a
/// heuristic called dead ends without proof: not a proof that none exists.
pub const EXIT_NO_PLAN_FOUND: u8 = 5;

/// What `searchlab plan` was asked.
#[derive(Clone, Debug, Default)]
pub struct PlanRequest {
    /// Forward, regression, portfolio or bidirectional.
    pub direction: Direction,
    /// The search algorithm.
    pub algorithm: Algorithm,
    /// The heuristic; `None` picks `hmax` for atomic and `numeric` for
    /// factored problems.
    pub heuristic: Option<NamedHeuristic>,
    /// Expansion limit per search.
    pub max_expansions: Option<u64>,
    /// Time limit per search (for a PDDL task, parsing and grounding count
    /// toward it and the search gets what remains).
    pub max_time: Option<Duration>,
    /// Memory limit per search, on the estimate of what it holds: nodes,
    /// open list, heuristic's tables and, for PDDL, the tasks.
    pub max_memory_bytes: Option<usize>,
    /// For PDDL: search on one bit per fact, not on packed states
    /// ([`PddlOptions::packing`] off).
    pub no_packing: bool,
    /// For PDDL: forward search prunes with strong stubborn sets
    /// ([`PddlOptions::stubborn_sets`]).
    pub stubborn_sets: bool,
    /// Print JSON instead of tables.
    pub json: bool,
    /// Record the search's exploration and write it in this format
    /// ([`Planned::trace`]).
    pub trace: Option<TraceFormat>,
    /// The most nodes a trace writes (default
    /// [`TRACE_MAX_NODES`](search_core::TRACE_MAX_NODES)).
    pub trace_max_nodes: Option<usize>,
}

/// How `searchlab plan --trace` writes the search's exploration.
///
/// ```
/// use searchlab_lab::cli::plan::TraceFormat;
/// assert_eq!("dot".parse::<TraceFormat>().unwrap(), TraceFormat::Dot);
/// let error = "svg".parse::<TraceFormat>().unwrap_err();
/// assert_eq!(error, "unknown trace format `svg`: give dot, text or html");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceFormat {
    /// Graphviz DOT ([`PlanTrace::to_dot`]): `dot -Tsvg` draws it.
    Dot,
    /// An indented tree, one node a line ([`PlanTrace::to_text`]).
    Text,
    /// One self-contained HTML page: the tree, and a slider over the
    /// expansions with the open list before each ([`PlanTrace::to_html`]).
    Html,
}

impl FromStr for TraceFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "dot" => Ok(TraceFormat::Dot),
            "text" => Ok(TraceFormat::Text),
            "html" => Ok(TraceFormat::Html),
            _ => Err(format!(
                "unknown trace format `{s}`: give dot, text or html"
            )),
        }
    }
}

impl fmt::Display for TraceFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TraceFormat::Dot => "dot",
            TraceFormat::Text => "text",
            TraceFormat::Html => "html",
        })
    }
}

/// What `searchlab plan` made of a problem: the text to print, the exit
/// code (see the `EXIT_*` constants) and, when asked for, the trace.
#[derive(Clone, Debug)]
pub struct Planned {
    /// The report (or the IPC plan with the report as comments, for PDDL
    /// without a plan file).
    pub text: String,
    /// The exit code.
    pub code: u8,
    /// The trace in the format asked for ([`PlanRequest::trace`]); `None`
    /// when not asked for, and when planning stopped before a search (bad
    /// input, a grounding limit).
    pub trace: Option<String>,
}

impl Planned {
    /// An input error, as [`error_text`] writes it for `request`.
    fn input_error(request: &PlanRequest, message: &str) -> Self {
        Self {
            text: error_text(request.json, message),
            code: EXIT_INPUT_ERROR,
            trace: None,
        }
    }
}

/// An input error as `searchlab plan` prints it: `error: MESSAGE` on a
/// line, or with `json` a JSON object with the message in its `error`
/// field, so that a caller reading JSON always reads JSON.
///
/// ```
/// use searchlab_lab::cli::plan::error_text;
/// assert_eq!(error_text(false, "no such file"), "error: no such file\n");
/// assert_eq!(error_text(true, "no such file"), "{\"error\":\"no such file\"}\n");
/// ```
pub fn error_text(json: bool, message: &str) -> String {
    if json {
        format!("{}\n", json!({ "error": message }))
    } else {
        format!("error: {message}\n")
    }
}

impl PlanRequest {
    /// The limits asked for.
    pub fn limits(&self) -> RunLimits {
        RunLimits {
            max_expansions: self.max_expansions,
            max_time: self.max_time,
            max_memory_bytes: self.max_memory_bytes,
        }
    }

    /// The planner configuration: the heuristic asked for, or the built-in
    /// `default`.
    fn config(&self, default: &str) -> Result<PlannerConfig, planners::PlanError> {
        let heuristic = match &self.heuristic {
            Some(h) => h.clone(),
            None => heuristic(default)?,
        };
        Ok(PlannerConfig {
            direction: self.direction,
            algorithm: self.algorithm,
            heuristic,
            limits: self.limits().to_search_limits(),
        })
    }

    /// `trace` written in the format asked for, if one was.
    fn write_trace(&self, trace: Option<PlanTrace>) -> Option<String> {
        let (format, mut trace) = (self.trace?, trace?);
        if let Some(max) = self.trace_max_nodes {
            trace.set_max_nodes(max);
        }
        Some(match format {
            TraceFormat::Dot => trace.to_dot(),
            TraceFormat::Text => trace.to_text(),
            TraceFormat::Html => trace.to_html(),
        })
    }
}

/// What the output says first: which problem, its kind, the configuration
/// and its limits.
struct Heading<'h> {
    problem: &'h str,
    kind: &'h str,
    config: &'h str,
    limits: RunLimits,
}

impl Heading<'_> {
    /// The limits in words: `60 s, 512 MiB of memory, 1000 expansions`.
    fn limits_text(&self) -> String {
        let l = &self.limits;
        let parts: Vec<String> = [
            l.max_time.map(|t| format!("{} s", t.as_secs_f64())),
            l.max_memory_bytes
                .map(|b| format!("{} MiB of memory", as_f64(b as u64) / f64::from(1 << 20))),
            l.max_expansions.map(|n| format!("{n} expansions")),
        ]
        .into_iter()
        .flatten()
        .collect();
        if parts.is_empty() {
            "none".to_owned()
        } else {
            parts.join(", ")
        }
    }

    fn limits_json(&self) -> serde_json::Value {
        json!({
            "max_time": self.limits.max_time.map(|t| t.as_secs_f64()),
            "max_memory_bytes": self.limits.max_memory_bytes,
            "max_expansions": self.limits.max_expansions,
        })
    }
}

/// Loads `path`, plans as `request` says and returns the text to print and
/// the exit code (see the `EXIT_*` constants); a trace asked for is left
/// out (see [`plan_file_traced`]).
pub fn plan_file(path: &Path, request: &PlanRequest) -> (String, u8) {
    let planned = plan_file_traced(path, request);
    (planned.text, planned.code)
}

/// [`plan_file`] with the trace, if [`PlanRequest::trace`] asks for one.
///
/// ```
/// use searchlab_lab::cli::plan::{plan_file_traced, PlanRequest, TraceFormat};
/// let problem = tests::repository_root().join("problems/hungry_agent.toml");
/// let request = PlanRequest { trace: Some(TraceFormat::Dot), ..PlanRequest::default() };
/// let planned = plan_file_traced(&problem, &request);
/// assert_eq!(planned.code, 0);
/// assert!(planned.trace.unwrap().contains("label=\"buy_groceries\", color="));
/// ```
pub fn plan_file_traced(path: &Path, request: &PlanRequest) -> Planned {
    let loaded = match planners::problem::load(path) {
        Ok(loaded) => loaded,
        Err(e) => return Planned::input_error(request, &e.to_string()),
    };
    plan_loaded_traced(&loaded, request)
}

/// Plans a loaded problem; see [`plan_file`].
pub fn plan_loaded(loaded: &LoadedProblem, request: &PlanRequest) -> (String, u8) {
    let planned = plan_loaded_traced(loaded, request);
    (planned.text, planned.code)
}

/// Plans a loaded problem; see [`plan_file_traced`].
pub fn plan_loaded_traced(loaded: &LoadedProblem, request: &PlanRequest) -> Planned {
    let default = match loaded {
        LoadedProblem::Atomic(_) => "hmax",
        LoadedProblem::Factored(_) => "numeric",
    };
    let config = match request.config(default) {
        Ok(config) => config,
        Err(e) => return Planned::input_error(request, &e.to_string()),
    };
    let config_name = config.name();
    let heading = |problem, kind| Heading {
        problem,
        kind,
        config: &config_name,
        limits: request.limits(),
    };
    match loaded {
        LoadedProblem::Atomic(p) => solve(
            &heading(&p.name, "atomic"),
            config,
            (&p.actions, &p.start, &p.goal),
            request,
        ),
        LoadedProblem::Factored(p) => solve(
            &heading(&p.name, "factored"),
            config,
            (&p.domain, &p.start, &p.goal),
            request,
        ),
    }
}

fn solve<D: PlanningDomain>(
    heading: &Heading<'_>,
    config: PlannerConfig,
    (domain, start, goal): (&D, &D::State, &D::Goal),
    request: &PlanRequest,
) -> Planned {
    let planner = Planner::new(config);
    let result = if request.trace.is_some() {
        planner.plan_traced(domain, start, goal)
    } else {
        planner
            .plan(domain, start, goal)
            .map(|report| (report, None))
    };
    let (report, trace) = match result {
        Ok(found) => found,
        Err(e) => return Planned::input_error(request, &format!("{}: {e}", heading.problem)),
    };
    let validation = report.plan().map(|plan| {
        planners::validate(domain, start, goal, &plan.actions).map_err(|e| e.to_string())
    });
    let code = match (&report.outcome, &validation) {
        (PlanOutcome::Solved(_), Some(Ok(_))) => EXIT_SOLVED,
        (PlanOutcome::Solved(_), _) => EXIT_INVALID_PLAN,
        (PlanOutcome::Unsolvable, _) => EXIT_UNSOLVABLE,
        (PlanOutcome::NoPlanFound, _) => EXIT_NO_PLAN_FOUND,
        (PlanOutcome::LimitReached { .. } | PlanOutcome::Cancelled { .. }, _) => EXIT_LIMIT,
    };
    let names: Vec<&str> = report.plan().map(|p| p.names(domain)).unwrap_or_default();
    let text = if request.json {
        let value = to_json(heading, &report, &names, validation.as_ref());
        format!("{value}\n")
    } else {
        to_text(heading, &report, &names, validation.as_ref(), true, 1)
    };
    Planned {
        text,
        code,
        trace: request.write_trace(trace),
    }
}

/// Makes way for this run's plan file: refuses one that is an input file
/// (it would be overwritten) or is not a regular file (a pipe, a device, a
/// directory: never removed nor replaced), and empties an old one, so that
/// after the run the file holds this run's plan, is empty, or does not
/// exist.
fn clear_plan_file(plan_file: &Path, inputs: &[&Path]) -> Result<(), String> {
    if let Ok(plan) = plan_file.canonicalize() {
        if let Some(input) = inputs
            .iter()
            .find(|i| i.canonicalize().is_ok_and(|i| i == plan))
        {
            return Err(format!(
                "the plan file {} is an input file ({}); give another",
                plan_file.display(),
                input.display()
            ));
        }
    }
    check_output(plan_file).map_err(|e| format!("--plan-file {e}"))?;
    if !plan_file.exists() {
        return Ok(());
    }
    // Emptied in place, never unlinked: a link or its hard links stay.
    std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(plan_file)
        .map(drop)
        .map_err(|e| {
            format!(
                "cannot empty the old plan file {}: {e}",
                plan_file.display()
            )
        })
}

/// Solves a PDDL task (STRIPS, see [`planners::pddl`]) as `request` says.
/// The plan, in the IPC format, goes to `plan_file`, with the statistics in
/// the returned text; without a plan file the returned text is the plan
/// followed by the statistics as `;` comments, so that it is itself a valid
/// IPC plan file. Returns the text and the exit code (see the `EXIT_*`
/// constants).
///
/// A plan file is emptied before planning starts: afterwards it holds this
/// task's plan, or nothing. One that is the domain or problem file (by
/// another name too), or is not a regular file (a named pipe, a device, a
/// directory), is an input error: nothing at its path is removed or
/// replaced.
pub fn plan_pddl(
    domain: &Path,
    problem: &Path,
    request: &PlanRequest,
    plan_file: Option<&Path>,
) -> (String, u8) {
    let planned = plan_pddl_traced(domain, problem, request, plan_file);
    (planned.text, planned.code)
}

/// [`plan_pddl`] with the trace, if [`PlanRequest::trace`] asks for one:
/// states and subgoals name their facts, steps their ground operators.
pub fn plan_pddl_traced(
    domain: &Path,
    problem: &Path,
    request: &PlanRequest,
    plan_file: Option<&Path>,
) -> Planned {
    let (text, code, trace) = solve_pddl(domain, problem, request, plan_file);
    Planned {
        text,
        code,
        trace: request.write_trace(trace),
    }
}

/// [`plan_pddl_traced`] with the trace not yet written.
fn solve_pddl(
    domain: &Path,
    problem: &Path,
    request: &PlanRequest,
    plan_file: Option<&Path>,
) -> (String, u8, Option<PlanTrace>) {
    if let Some(path) = plan_file {
        if let Err(message) = clear_plan_file(path, &[domain, problem]) {
            return (error_text(request.json, &message), EXIT_INPUT_ERROR, None);
        }
    }
    let config = match request.config("hmax") {
        Ok(config) => config,
        Err(e) => {
            return (
                error_text(request.json, &e.to_string()),
                EXIT_INPUT_ERROR,
                None,
            )
        }
    };
    let name = problem.display().to_string();
    let config_name = config.name();
    let heading = Heading {
        problem: &name,
        kind: "pddl",
        config: &config_name,
        limits: request.limits(),
    };
    // The time limit counts grounding too; see `solve_files_with`.
    let options = PddlOptions {
        packing: !request.no_packing,
        stubborn_sets: request.stubborn_sets,
        trace: request.trace.is_some(),
        ..PddlOptions::default()
    };
    let began = std::time::Instant::now();
    let solution = match solve_files_with(domain, problem, &config, &options) {
        Ok(solution) => solution,
        Err(e) => {
            let Some(report) = e.limit_report(config.direction, began.elapsed()) else {
                return (
                    error_text(request.json, &e.to_string()),
                    EXIT_INPUT_ERROR,
                    None,
                );
            };
            let text = grounding_limit_text(&heading, &report, &e, request.json);
            return (text, EXIT_LIMIT, None);
        }
    };
    let code = match &solution.report.outcome {
        // `solve_files_with` replays every plan it returns.
        PlanOutcome::Solved(_) => EXIT_SOLVED,
        PlanOutcome::Unsolvable => EXIT_UNSOLVABLE,
        PlanOutcome::NoPlanFound => EXIT_NO_PLAN_FOUND,
        PlanOutcome::LimitReached { .. } | PlanOutcome::Cancelled { .. } => EXIT_LIMIT,
    };
    let mut text = if request.json {
        pddl_json(&heading, &solution)
    } else {
        pddl_text(&heading, &solution)
    };
    let plan_text = solution.plan_text().unwrap_or_default();
    let trace = solution.trace;
    let (text, code) = match plan_file {
        Some(path) if solution.plan.is_some() => {
            if let Err(e) = write_file(path, plan_text.as_bytes()) {
                let message = format!("cannot write the plan: {e}");
                return (error_text(request.json, &message), EXIT_INPUT_ERROR, None);
            }
            if !request.json {
                let _ = writeln!(text, "\nplan written to {}", path.display());
            }
            (text, code)
        }
        Some(_) => (text, code),
        None if request.json => (text, code),
        None => {
            let mut out = plan_text;
            for line in text.lines() {
                let _ = writeln!(out, "; {line}");
            }
            (out, code)
        }
    };
    (text, code, trace)
}

/// What `plan` says of a task that a limit stopped while parsing or
/// grounding (`error`, reported as `report`): the time and memory it took
/// are all before a search.
fn grounding_limit_text(
    heading: &Heading<'_>,
    report: &PlanReport<usize>,
    error: &SolveError,
    json: bool,
) -> String {
    let (limit, elapsed) = (report.outcome.limit(), report.elapsed);
    let limit = limit.map(|l| l.to_string()).unwrap_or_default();
    let peak = planners::cpu::peak_memory_bytes();
    let (name, config) = (heading.problem, heading.config);
    if json {
        let value = json!({
            "problem": name,
            "kind": "pddl",
            "config": config,
            "limits": heading.limits_json(),
            "outcome": "limit",
            "limit": limit,
            "error": error.to_string(),
            "time": elapsed.as_secs_f64(),
            "peak_memory": peak,
        });
        return format!("{value}\n");
    }
    let mut text = format!(
        "problem   {name} (pddl)\nconfig    {config}\nlimits    {}\n\
         outcome   limit reached ({limit}): {error}\ntime      {elapsed:.2?} (parsing and grounding)\n",
        heading.limits_text()
    );
    if let Some(bytes) = peak {
        let _ = writeln!(text, "peak memory (KiB) {}", bytes.div_ceil(1024));
    }
    text
}

/// A cost scaled by `scale` as the metric's value.
fn metric_value(cost: u64, scale: u32) -> f64 {
    #[expect(clippy::cast_precision_loss, reason = "a plan's cost, far below 2^53")]
    let value = cost as f64 / f64::from(scale);
    value
}

/// A solved task's step names and its validation (`solve_files_with`
/// replays every plan it returns).
fn replayed_plan(solution: &PddlSolution) -> (Vec<&str>, Option<Result<u64, String>>) {
    let names = solution
        .plan
        .as_ref()
        .map(IpcPlan::names)
        .unwrap_or_default();
    (names, solution.plan.as_ref().map(|p| Ok(p.cost())))
}

/// `searchlab plan --json` for a PDDL task: the common fields plus the
/// grounding's counts and the peak memory.
fn pddl_json(heading: &Heading<'_>, solution: &PddlSolution) -> String {
    let (names, validation) = replayed_plan(solution);
    let mut value = to_json(heading, &solution.report, &names, validation.as_ref());
    if let Some(plan) = solution.report.plan().filter(|_| solution.cost_scale > 1) {
        // A numeric task's decimal costs, scaled for search: in the metric's units.
        value["cost"] = json!(metric_value(plan.cost, solution.cost_scale));
    }
    value["grounding"] = json!({
        "facts": solution.grounding.facts,
        "operators": solution.grounding.operators,
        "conditional_operators": solution.grounding.conditional_operators,
        "reachable_facts": solution.grounding.reachable_facts,
        "reachable_operators": solution.grounding.reachable_operators,
        "words": solution.words,
        "parse_time": solution.parse_time.as_secs_f64(),
        "ground_time": solution.grounding.elapsed.as_secs_f64(),
        "mutex_pairs": solution.mutex_pairs,
        "mutex_pruned": solution.mutex_pruned,
        "stubborn_sets": solution.stubborn_sets.map(|s| json!({
            "expansions": s.expansions,
            "applicable": s.applicable,
            "pruned": s.pruned,
            "switched_off": s.switched_off,
        })),
        "packing": solution.packing.as_ref().map(|p| json!({
            "groups": p.groups,
            "grouped_facts": p.grouped_facts,
            "fields": p.fields,
            "bits": p.bits,
            "fact_words": p.fact_words,
        })),
    });
    value["peak_memory"] = json!(planners::cpu::peak_memory_bytes());
    format!("{value}\n")
}

/// The statistics table of a PDDL task, with the grounding's counts.
fn pddl_text(heading: &Heading<'_>, solution: &PddlSolution) -> String {
    let (names, validation) = replayed_plan(solution);
    let mut text = to_text(
        heading,
        &solution.report,
        &names,
        validation.as_ref(),
        false,
        solution.cost_scale,
    );
    let g = &solution.grounding;
    let _ = writeln!(
        text,
        "{:<26}{:>12}\n{:<26}{:>12}\n{:<26}{:>12}\n{:<26}{:>12}",
        "facts (reachable)",
        format!("{} ({})", g.facts, g.reachable_facts),
        "operators (reachable)",
        format!("{} ({})", g.operators, g.reachable_operators),
        "state words",
        solution.words,
        "parse + ground time",
        format!("{:.2?}", solution.parse_time + g.elapsed),
    );
    if g.conditional_operators > 0 {
        let _ = writeln!(
            text,
            "{:<26}{:>12}",
            "conditional (not split)", g.conditional_operators
        );
    }
    if let Some(p) = &solution.packing {
        let _ = writeln!(
            text,
            "{:<26}{:>12}\n{:<26}{:>12}",
            "packed groups (facts)",
            format!("{} ({})", p.groups, p.grouped_facts),
            "packed bits (fact words)",
            format!("{} ({})", p.bits, p.fact_words),
        );
    }
    if let Some(pairs) = solution.mutex_pairs {
        let _ = writeln!(
            text,
            "{:<26}{pairs:>12}\n{:<26}{:>12}",
            "h^2 mutex pairs", "mutex-pruned subgoals", solution.mutex_pruned
        );
    }
    if let Some(s) = solution.stubborn_sets {
        let _ = writeln!(
            text,
            "{:<26}{:>12}",
            "stubborn-pruned (of)",
            format!("{} ({})", s.pruned, s.applicable),
        );
        if s.switched_off {
            let _ = writeln!(text, "{:<26}{:>12}", "stubborn sets", "switched off");
        }
    }
    if let Some(bytes) = planners::cpu::peak_memory_bytes() {
        let _ = writeln!(
            text,
            "{:<26}{:>12}",
            "peak memory (KiB)",
            bytes.div_ceil(1024)
        );
    }
    text
}

fn outcome_text<Id>(outcome: &PlanOutcome<Id>) -> String {
    match outcome {
        PlanOutcome::LimitReached { limit, best: None } => format!("limit reached ({limit})"),
        PlanOutcome::LimitReached {
            limit,
            best: Some(_),
        } => {
            format!("limit reached ({limit}); the plan below is the best found, not proven optimal")
        }
        PlanOutcome::Cancelled { best: Some(_) } => {
            "cancelled; the plan below is the best found, not proven optimal".to_owned()
        }
        other => other.name().to_owned(),
    }
}

fn stats_json(stats: Option<&Statistics>) -> serde_json::Value {
    stats.map_or(serde_json::Value::Null, |s| {
        json!({
            "expanded": s.expanded,
            "generated": s.generated,
            "evaluated": s.evaluated,
            "duplicates": s.duplicates,
            "reopened": s.reopened,
            "dead_ends": s.dead_ends,
            "expanded_until_last_jump": s.expanded_until_last_jump,
            "max_open": s.max_open,
            "stored": s.stored,
            "estimated_bytes": s.estimated_bytes,
            "time": s.elapsed.as_secs_f64(),
        })
    })
}

fn to_json<Id>(
    heading: &Heading<'_>,
    report: &PlanReport<Id>,
    names: &[&str],
    validation: Option<&Result<u64, String>>,
) -> serde_json::Value {
    json!({
        "problem": heading.problem,
        "kind": heading.kind,
        "config": heading.config,
        "limits": heading.limits_json(),
        "outcome": report.outcome.name(),
        "limit": report.outcome.limit().map(|l| l.to_string()),
        "cost": report.plan().map(|p| p.cost),
        "plan": report.plan().map(|_| names),
        "plan_length": report.plan().map(|_| names.len()),
        "validated": validation.map(Result::is_ok),
        "validation_error": validation.and_then(|v| v.as_ref().err()),
        "direction": report.direction.to_string(),
        "forward": stats_json(report.forward.as_ref()),
        "regression": stats_json(report.regression.as_ref()),
        "both": stats_json(report.both.as_ref()),
        "time": report.elapsed.as_secs_f64(),
        "setup_time": report.setup_time.as_secs_f64(),
        "improvements": improvements_json(&report.improvements),
        "notes": report.notes,
    })
}

/// An anytime search's plans on the way, as JSON.
fn improvements_json<Id>(improvements: &[PlanImprovement<Id>]) -> serde_json::Value {
    improvements
        .iter()
        .map(|i| {
            json!({
                "cost": i.plan.cost,
                "length": i.plan.actions.len(),
                "weight": i.weight,
                "expanded": i.expanded,
                "time": i.elapsed.as_secs_f64(),
            })
        })
        .collect()
}

/// An anytime search's plans on the way, one line each.
fn improvements_text<Id>(out: &mut String, improvements: &[PlanImprovement<Id>]) {
    if improvements.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "
plans found on the way (each cheaper than the last)"
    );
    for (n, i) in improvements.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {:>3}. cost {:<8} length {:<6} weight {:<4} after {} expansions, {:.2?}",
            n + 1,
            i.plan.cost,
            i.plan.actions.len(),
            i.weight,
            i.expanded,
            i.elapsed
        );
    }
}

/// A row of the statistics table: its label and how to read it.
type Row = (&'static str, fn(&Statistics) -> String);

/// The statistics table of `report`; costs are in units of
/// `1 / cost_scale` (a numeric task's decimal costs scaled for search) and
/// shown in the metric's.
fn to_text<Id>(
    heading: &Heading<'_>,
    report: &PlanReport<Id>,
    names: &[&str],
    validation: Option<&Result<u64, String>>,
    list_plan: bool,
    cost_scale: u32,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "problem   {} ({})", heading.problem, heading.kind);
    let _ = writeln!(out, "config    {}", heading.config);
    let _ = writeln!(out, "limits    {}", heading.limits_text());
    let _ = writeln!(out, "outcome   {}", outcome_text(&report.outcome));
    if let Some(plan) = report.plan() {
        let _ = writeln!(out, "cost      {}", decimal_cost(plan.cost, cost_scale));
        let _ = writeln!(out, "length    {}", names.len());
        match validation {
            Some(Ok(_)) => {
                let _ = writeln!(out, "validated yes (replays from the start to the goal)");
            }
            Some(Err(e)) => {
                let _ = writeln!(out, "validated NO: {e}");
            }
            None => {}
        }
        if list_plan {
            let _ = writeln!(out, "\nplan");
            for (i, action) in names.iter().enumerate() {
                let _ = writeln!(out, "  {:>3}. {action}", i + 1);
            }
        }
    }
    for note in &report.notes {
        let _ = writeln!(out, "note      {note}");
    }
    improvements_text(&mut out, &report.improvements);
    if report.direction == Direction::Portfolio
        || (report.both.is_none() && report.forward.is_some() && report.regression.is_some())
    {
        let _ = writeln!(out, "\nportfolio winner: {}", report.direction);
    }
    let columns: Vec<(&str, &Statistics)> = [
        ("forward", report.forward.as_ref()),
        ("regression", report.regression.as_ref()),
        ("both", report.both.as_ref()),
    ]
    .into_iter()
    .filter_map(|(n, s)| s.map(|s| (n, s)))
    .collect();
    let _ = write!(out, "\n{:<26}", "statistics");
    for (n, _) in &columns {
        let _ = write!(out, "{n:>12}");
    }
    out.push('\n');
    let rows: [Row; 10] = [
        ("expanded", |s| s.expanded.to_string()),
        ("generated", |s| s.generated.to_string()),
        ("evaluated", |s| s.evaluated.to_string()),
        ("duplicates", |s| s.duplicates.to_string()),
        ("reopened", |s| s.reopened.to_string()),
        ("dead ends", |s| s.dead_ends.to_string()),
        ("expanded until last jump", |s| {
            s.expanded_until_last_jump.to_string()
        }),
        ("largest open list", |s| s.max_open.to_string()),
        ("stored nodes", |s| s.stored.to_string()),
        ("memory estimate (KiB)", |s| {
            s.estimated_bytes.div_ceil(1024).to_string()
        }),
    ];
    for (label, get) in rows {
        let _ = write!(out, "{label:<26}");
        for (_, s) in &columns {
            let _ = write!(out, "{:>12}", get(s));
        }
        out.push('\n');
    }
    let _ = write!(out, "{:<26}", "search time");
    for (_, s) in &columns {
        let _ = write!(out, "{:>12}", format!("{:.2?}", s.elapsed));
    }
    let _ = writeln!(
        out,
        "\n{:<26}{:>12}\n{:<26}{:>12}",
        "heuristic setup time",
        format!("{:.2?}", report.setup_time),
        "total time",
        format!("{:.2?}", report.elapsed)
    );
    out
}

/// The flags of `searchlab plan`.
#[derive(Debug, clap::Args)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "command-line flags, each a switch of its own"
)]
pub(super) struct PlanArgs {
    /// The problem file (TOML), or a PDDL domain file and problem file.
    #[arg(required = true, num_args = 1..=2, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// For PDDL: write the plan (IPC format) here instead of standard
    /// output: a new path or a regular file, emptied before planning (no
    /// stale plan stays); anything else (a pipe, a device, a directory) is
    /// refused, never replaced.
    #[arg(long, value_name = "FILE")]
    plan_file: Option<PathBuf>,
    /// forward, regression, portfolio (both at once, the first answer
    /// wins) or bidirectional (one search from both ends that meets in the
    /// middle: NBS with astar, bidirectional Dijkstra with dijkstra, TTBS
    /// (front to front, each side aiming at the other's best node) with gbfs).
    #[arg(long, short, default_value = "forward")]
    direction: Direction,
    /// astar, wastar:W (W >= 1), gbfs, dijkstra, bfs, rwastar (restarting
    /// weighted A*, anytime), lazygbfs, lazytype (lazy greedy search with
    /// type-based exploration) or lazyhelpful (lazy greedy search that
    /// keeps only helpful successors, as ENHSP's `-ha true`; incomplete).
    #[arg(long, short, default_value = "astar", value_parser = parse_algorithm)]
    algorithm: Algorithm,
    /// Anytime search: restarting weighted A* (weights 5, 3, 2, 1), which
    /// lists every cheaper plan it finds on the way; the same as
    /// `--algorithm rwastar`.
    #[arg(long, conflicts_with = "algorithm")]
    anytime: bool,
    /// A heuristic by name (`searchlab heuristics` lists them; default:
    /// hmax for atomic and PDDL problems, numeric for factored ones); for
    /// the lazy searches, names joined with `+` alternate (`ff+lmcount`).
    #[arg(long = "heuristic")]
    heuristic: Option<String>,
    #[command(flatten)]
    limits: LimitArgs,
    /// For PDDL: search on one bit per fact, not on packed states (groups
    /// of mutually exclusive facts as fields); for comparison.
    #[arg(long)]
    no_packing: bool,
    /// For PDDL, forward search: expand only each state's strong stubborn
    /// set (atom-centric partial-order reduction, as Fast Downward's
    /// `pruning=atom_centric_stubborn_sets()`); the optimal cost stays,
    /// and pruning switches itself off where it prunes little.
    #[arg(long)]
    stubborn_sets: bool,
    /// Print JSON instead of tables; input errors too, as an object with
    /// an "error" field on standard output (exit code 2).
    #[arg(long)]
    json: bool,
    /// Record the search's exploration and write it as Graphviz DOT
    /// (`dot`: `searchlab plan FILE --trace dot | dot -Tsvg > trace.svg`),
    /// as an indented tree (`text`) or as one HTML page to open in a
    /// browser, no Graphviz needed (`html`: the tree, and a slider over the
    /// expansions with the open list before each). It goes to standard
    /// output and the report to standard error, unless `--trace-out` names
    /// a file.
    #[arg(long, value_name = "FORMAT")]
    trace: Option<TraceFormat>,
    /// Write the trace to this file instead of standard output (a new path
    /// or a regular file).
    #[arg(long, value_name = "PATH", requires = "trace")]
    trace_out: Option<PathBuf>,
    /// The most nodes the trace writes (the plan's path always whole;
    /// default 500).
    #[arg(long, value_name = "N", requires = "trace")]
    trace_max_nodes: Option<usize>,
}

fn parse_algorithm(s: &str) -> Result<Algorithm, String> {
    crate::suite::parse_algorithm(s).map_err(|e| e.to_string())
}

/// `searchlab plan`, with the user's `heuristics` among those `--heuristic`
/// can name.
pub(super) fn plan(args: &PlanArgs, heuristics: &Registry) -> ExitCode {
    let limits = args.limits.over(safety_limits());
    let heuristic = match args
        .heuristic
        .as_deref()
        .map(|h| heuristics.get(h))
        .transpose()
    {
        Ok(heuristic) => heuristic,
        Err(e) => {
            let text = error_text(args.json, &e.to_string());
            if args.json {
                print!("{text}");
            } else {
                eprint!("{text}");
            }
            return ExitCode::from(EXIT_INPUT_ERROR);
        }
    };
    let request = PlanRequest {
        direction: args.direction,
        algorithm: if args.anytime {
            Algorithm::RestartingWeightedAStar
        } else {
            args.algorithm
        },
        heuristic,
        max_expansions: limits.max_expansions,
        max_time: limits.max_time,
        max_memory_bytes: limits.max_memory_bytes,
        no_packing: args.no_packing,
        stubborn_sets: args.stubborn_sets,
        json: args.json,
        trace: args.trace,
        trace_max_nodes: args.trace_max_nodes,
    };
    let input_error = |message: String| Planned {
        text: error_text(args.json, &message),
        code: EXIT_INPUT_ERROR,
        trace: None,
    };
    // A trace file is refused before planning, not after.
    let refused_trace = args
        .trace_out
        .as_deref()
        .and_then(|path| crate::files::check_output(path).err());
    let planned = match (refused_trace, args.files.as_slice()) {
        (Some(e), _) => input_error(format!("--trace-out {e}")),
        (None, [domain, problem]) => {
            plan_pddl_traced(domain, problem, &request, args.plan_file.as_deref())
        }
        (None, [problem]) if problem.extension().is_some_and(|e| e == "pddl") => {
            input_error(format!(
                "{} is PDDL: give the domain and the problem file \
                 (searchlab plan domain.pddl problem.pddl)",
                problem.display()
            ))
        }
        (None, [problem]) if args.plan_file.is_none() => plan_file_traced(problem, &request),
        _ => input_error(
            "--plan-file is for PDDL tasks (searchlab plan domain.pddl problem.pddl)".to_owned(),
        ),
    };
    let Planned {
        mut text,
        mut code,
        trace,
    } = planned;
    // Notes about the trace go to standard error, so that standard output
    // stays a report, a JSON value or an IPC plan file.
    match (trace, &args.trace_out) {
        (Some(trace), Some(path)) => match write_file(path, trace.as_bytes()) {
            Ok(()) => eprintln!("trace written to {}", path.display()),
            Err(e) => {
                text = error_text(args.json, &format!("cannot write the trace: {e}"));
                code = EXIT_INPUT_ERROR;
            }
        },
        (Some(trace), None) => {
            // The trace is standard output, for a pipe into `dot`.
            print!("{trace}");
            eprint!("{text}");
            return ExitCode::from(code);
        }
        (None, _) if args.trace.is_some() && code != EXIT_INPUT_ERROR => {
            eprintln!("note: no trace to write: planning stopped before a search");
        }
        (None, _) => {}
    }
    // With --json an input error is a JSON value too, where the answer
    // would be.
    if code == EXIT_INPUT_ERROR && !args.json {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    ExitCode::from(code)
}
