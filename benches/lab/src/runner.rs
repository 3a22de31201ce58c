//! Runs a suite in parallel: one rayon task per run, each under its own
//! limits, panics caught and recorded, every plan validated.

use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use indicatif::{ProgressBar, ProgressStyle};
use planners::pddl::PddlOptions;
use planners::{Direction, PlanOutcome, PlanReport, Planner, PlannerConfig, PlanningDomain};
use search_core::Statistics;

use crate::external::{run_external, ExternalRun, Peers};
use crate::provenance::{rfc3339, Build, Machine};
use crate::record::{MemoryMeasure, ResumeKey, RunOutcome, RunRecord};
use crate::suite::{Configuration, Instance, Method, PddlTask, RunLimits, RunSpec, Suite};
use crate::SuiteError;

/// The `K`-th of `N` disjoint slices of a suite's runs (`1 <= K <= N`).
/// Run `i` belongs to shard `i % N + 1`, so every shard gets a mix of
/// problems.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

impl Shard {
    /// Whether run `run` belongs to this shard.
    pub fn contains(self, run: usize) -> bool {
        run % self.count + 1 == self.index
    }

    /// The file stem of this shard's results (`results-2-of-4`).
    pub fn stem(self) -> String {
        format!("results-{}-of-{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = SuiteError;

    /// Parses `K/N`.
    ///
    /// ```
    /// use searchlab_lab::runner::Shard;
    /// let s: Shard = "2/3".parse().unwrap();
    /// assert_eq!((s.index, s.count), (2, 3));
    /// assert!("0/3".parse::<Shard>().is_err());
    /// assert!("4/3".parse::<Shard>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, SuiteError> {
        let bad = || SuiteError::Invalid(format!("shard `{s}` is not K/N with 1 <= K <= N"));
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// The most worker threads per core: more would only wait for a core, and
/// thousands of threads take seconds to start, or never do.
pub const MAX_JOBS_PER_CORE: usize = 4;

/// The worker threads that run `runs` runs when `jobs` are asked for
/// (`None`: one per core): at least one, at most one per run and
/// [`MAX_JOBS_PER_CORE`] per core.
///
/// ```
/// use searchlab_lab::runner::{worker_threads, MAX_JOBS_PER_CORE};
/// let cores = std::thread::available_parallelism().map_or(1, usize::from);
/// assert_eq!(worker_threads(Some(100_000), 3), 3);
/// assert_eq!(worker_threads(Some(100_000), 1_000_000), MAX_JOBS_PER_CORE * cores);
/// assert_eq!(worker_threads(Some(0), 10), 1);
/// assert_eq!(worker_threads(None, 0), 1);
/// ```
pub fn worker_threads(jobs: Option<usize>, runs: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    jobs.unwrap_or(cores)
        .min(cores.saturating_mul(MAX_JOBS_PER_CORE))
        .min(runs)
        .max(1)
}

/// How to run a suite.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Worker threads; `None` uses every core. At most one per run and
    /// [`MAX_JOBS_PER_CORE`] per core start ([`worker_threads`]).
    pub jobs: Option<usize>,
    /// Only this slice of the runs.
    pub shard: Option<Shard>,
    /// Show a progress bar on standard error (hidden anyway when it is not
    /// a terminal).
    pub progress: bool,
    /// Where the peer planners of `fd-*` and `pp-*` configurations are;
    /// `None` looks for them once ([`Peers::locate`]).
    pub peers: Option<Peers>,
    /// Run searchlab's configurations on PDDL tasks each in a child process
    /// under operating-system limits ([`crate::isolated`]); `None` runs
    /// everything in this process. The `searchlab` program isolates.
    #[cfg(unix)]
    pub isolation: Option<crate::isolated::Isolation>,
    /// Runs not to run again: those whose [`planned_record`] has one of
    /// these keys (`bench --resume`).
    pub skip: HashSet<ResumeKey>,
}

/// Runs `suite` (or the shard of it that `options` names) and returns one
/// record per run, in run order. Expansions, costs and plan lengths do not
/// depend on the number of jobs; times do. Portfolio configurations are the
/// exception: their two searches race on two threads of their own, and
/// which one wins, and so the counters, can change from run to run.
///
/// A run that panics is recorded with outcome [`RunOutcome::Panic`]; a run
/// that the planner refuses with [`RunOutcome::Error`]; neither stops the
/// suite.
///
/// # Errors
/// [`SuiteError::Invalid`] when the thread pool cannot be built.
///
/// ```
/// use searchlab_lab::runner::{run_suite, RunOptions};
/// use searchlab_lab::suite::{Configuration, Suite, SuiteProblem};
/// use planners::{heuristics::heuristic, Direction};
/// use search_core::Algorithm;
///
/// let mut suite = Suite::new("tiny");
/// suite.add_problem(SuiteProblem::atomic("reference", "hungry-agent",
///     state_atomic::problems::hungry_agent().unwrap()));
/// suite.add_config(Configuration::searchlab(Direction::Forward, Algorithm::AStar, heuristic("hmax").unwrap()));
/// let records = run_suite(&suite, &RunOptions { jobs: Some(1), ..RunOptions::default() }).unwrap();
/// assert_eq!(records[0].cost, Some(30));
/// assert!(records[0].solved());
/// ```
pub fn run_suite(suite: &Suite, options: &RunOptions) -> Result<Vec<RunRecord>, SuiteError> {
    run_suite_with(suite, options, |_| Ok(()))
}

/// [`run_suite`], handing each record to `finished` as soon as its run
/// ends, in the order they end, on the calling thread (`bench --out`
/// appends it to the results file there). Once `finished` fails, no further
/// run starts; the runs under way end first.
///
/// # Errors
/// [`SuiteError::Invalid`] when the thread pool cannot be built; the first
/// error of `finished`.
///
/// ```
/// use searchlab_lab::runner::{run_suite_with, RunOptions};
/// use searchlab_lab::suite::{Configuration, Suite, SuiteProblem};
///
/// let mut suite = Suite::new("tiny");
/// suite.add_problem(SuiteProblem::atomic("reference", "hungry-agent",
///     state_atomic::problems::hungry_agent().unwrap()));
/// suite.add_config(Configuration::by_name("fwd-astar-hmax").unwrap());
/// suite.add_config(Configuration::by_name("reg-astar-hmax").unwrap());
/// let mut seen = Vec::new();
/// let records = run_suite_with(&suite, &RunOptions::default(), |r| {
///     seen.push(r.config.clone());
///     Ok(())
/// }).unwrap();
/// assert_eq!((seen.len(), records.len()), (2, 2));
/// ```
pub fn run_suite_with(
    suite: &Suite,
    options: &RunOptions,
    mut finished: impl FnMut(&RunRecord) -> Result<(), SuiteError>,
) -> Result<Vec<RunRecord>, SuiteError> {
    let runs: Vec<RunSpec> = suite
        .runs()
        .into_iter()
        .filter(|r| options.shard.is_none_or(|s| s.contains(r.index)))
        .filter(|r| {
            options.skip.is_empty()
                || planned_record(suite, *r)
                    .resume_key()
                    .is_none_or(|key| !options.skip.contains(&key))
        })
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("searchlab-{i}"))
        .num_threads(worker_threads(options.jobs, runs.len()))
        .build()
        .map_err(|e| SuiteError::Invalid(format!("cannot start the worker threads: {e}")))?;
    let bar = if options.progress {
        let bar = ProgressBar::new(runs.len() as u64);
        if let Ok(style) = ProgressStyle::with_template(
            "[{elapsed_precise}] {bar:30.cyan/blue} {pos}/{len} runs, {msg}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message("0 solved");
        bar
    } else {
        ProgressBar::hidden()
    };
    let peers = options.peers.clone().unwrap_or_else(Peers::locate);
    let order = schedule(suite, &runs);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    let mut records = Vec::with_capacity(runs.len());
    let mut failure = None;
    std::thread::scope(|scope| {
        // Each worker pulls the next run from a shared queue, longest
        // expected first, so that no long run starts last while the other
        // workers idle, and sends its record to this thread.
        let workers = scope.spawn(|| {
            pool.broadcast(|_| {
                let sender = sender.clone();
                while !stop.load(Ordering::Relaxed) {
                    let Some(spec) = order.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    if sender
                        .send(run_isolated_or_not(suite, *spec, &peers, options))
                        .is_err()
                    {
                        break;
                    }
                }
            });
            drop(sender);
        });
        let mut solved = 0;
        for record in receiver {
            if failure.is_none() {
                if let Err(e) = finished(&record) {
                    stop.store(true, Ordering::Relaxed);
                    failure = Some(e);
                }
            }
            if record.solved() {
                solved += 1;
                bar.set_message(format!("{solved} solved"));
            }
            bar.inc(1);
            records.push(record);
        }
        if let Err(panic) = workers.join() {
            std::panic::resume_unwind(panic);
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(e);
    }
    records.sort_by_key(|r| r.run);
    Ok(records)
}

/// The order in which runs start: factored problems first (their searches
/// are the slowest per expansion), then later problems of the suite (the
/// generators list sizes in increasing order) before earlier ones. Only wall
/// time depends on it.
fn schedule(suite: &Suite, runs: &[RunSpec]) -> Vec<RunSpec> {
    // A problem's kind once: a PDDL task's reads its domain.
    let factored: Vec<bool> = suite
        .problems
        .iter()
        .map(|p| {
            p.instance.kind().representation() == planners::heuristics::Representation::Factored
        })
        .collect();
    let mut order = runs.to_vec();
    order.sort_by_key(|r| (!factored[r.problem], std::cmp::Reverse(r.problem), r.config));
    order
}

/// Runs one run: in a child process where `options` asks for isolation,
/// the run is searchlab's, and [`crate::isolated::Isolation::applies`] to
/// it (a PDDL task, or limits beyond the threshold), else here.
fn run_isolated_or_not(
    suite: &Suite,
    spec: RunSpec,
    peers: &Peers,
    options: &RunOptions,
) -> RunRecord {
    let planned = planned_record(suite, spec);
    #[cfg(unix)]
    if let Some(isolation) = &options.isolation {
        let problem = &suite.problems[spec.problem];
        let config = &suite.configs[spec.config];
        let limits = config.limits.unwrap_or(suite.limits);
        let source = match &*problem.instance {
            Instance::Pddl(task) => Some(crate::suite::Source::Pddl(task.clone())),
            _ => problem.source.clone(),
        };
        if let (Method::Searchlab { .. }, Some(source)) = (&config.method, source) {
            if isolation.applies(problem.instance.kind(), limits) {
                let run = crate::isolated::ChildRun {
                    domain: problem.domain.clone(),
                    name: problem.name.clone(),
                    source,
                    config: config.name.clone(),
                    method: config.method_name(),
                    limits,
                };
                return crate::isolated::run_child(isolation, &run, planned);
            }
        }
    }
    #[cfg(not(unix))]
    let _ = options;
    run_planned(suite, spec, planned, peers)
}

/// The record of run `spec` before it runs: which problem and
/// configuration, the limits it gets, this searchlab build and this machine;
/// its [`RunRecord::resume_key`] is the finished record's.
pub fn planned_record(suite: &Suite, spec: RunSpec) -> RunRecord {
    let problem = &suite.problems[spec.problem];
    let config = &suite.configs[spec.config];
    let mut record = RunRecord::new(spec.index, &problem.domain, &problem.name, &config.name);
    record.limits = Some(config.limits.unwrap_or(suite.limits).into());
    record.build = Some(Build::this());
    record.method = Some(config.method_name());
    record.problem_digest = problem.digest.map(|d| format!("{d:016x}"));
    record.machine = Some(Machine::this().clone());
    record
}

/// Runs one problem with one configuration (a peer's from `peers`); never
/// panics.
pub fn run_one(suite: &Suite, spec: RunSpec, peers: &Peers) -> RunRecord {
    run_planned(suite, spec, planned_record(suite, spec), peers)
}

/// [`run_one`], filling in `record`, the run's [`planned_record`].
fn run_planned(suite: &Suite, spec: RunSpec, mut record: RunRecord, peers: &Peers) -> RunRecord {
    let problem = &suite.problems[spec.problem];
    let config = &suite.configs[spec.config];
    let limits = config.limits.unwrap_or(suite.limits);
    record.started = Some(rfc3339(SystemTime::now()));
    let result = catch_unwind(AssertUnwindSafe(|| match &config.method {
        Method::Searchlab { .. } => plan_instance(&problem.instance, config, limits),
        Method::External(search) => match &*problem.instance {
            Instance::Pddl(task) => run_external(*search, peers, task, limits)
                .map(Measured::from)
                .map_err(Refused::from),
            _ => Err(format!("{} plans PDDL tasks only", search.name).into()),
        },
    }));
    match result {
        Ok(Ok(measured)) => measured.fill(&mut record),
        Ok(Err(refused)) => {
            record.outcome = refused.outcome;
            record.error = Some(refused.message);
        }
        Err(payload) => {
            record.outcome = RunOutcome::Panic;
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panicked".to_owned());
            record.error = Some(format!("panic: {message}"));
        }
    }
    record
}

/// What one planner call produced, stripped of the domain's types.
#[derive(Debug)]
struct Measured {
    outcome: RunOutcome,
    limit: Option<String>,
    cost: Option<u64>,
    plan_length: Option<usize>,
    stats: Statistics,
    last_jump: u64,
    winner: Option<Direction>,
    elapsed: Duration,
    cpu_time: Option<Duration>,
    /// A PDDL task's time before its search (parsing, grounding).
    translator_time: Option<Duration>,
    /// The peak memory before the search (bytes).
    translator_memory: Option<u64>,
    /// Time spent making the heuristic (searchlab's runs).
    setup_time: Option<Duration>,
    validation: Option<Result<(), String>>,
    /// A peer's measured process peak, which replaces the estimate.
    peak_memory: Option<u64>,
    /// A peer's whole process, start-up included.
    process_time: Option<Duration>,
    /// The metric's value where it is no whole number: a peer's (ENHSP's),
    /// or searchlab's on a task whose costs it scaled.
    metric: Option<f64>,
    error: Option<String>,
}

impl From<ExternalRun> for Measured {
    fn from(run: ExternalRun) -> Self {
        Self {
            outcome: run.outcome,
            limit: run.limit,
            cost: run.cost,
            plan_length: run.plan_length,
            stats: Statistics {
                expanded: run.expanded,
                generated: run.generated,
                evaluated: run.evaluated,
                stored: usize::try_from(run.stored).unwrap_or(usize::MAX),
                ..Statistics::default()
            },
            elapsed: Duration::from_secs_f64(run.search_time.max(0.0)),
            cpu_time: Some(Duration::from_secs_f64(run.search_time.max(0.0))),
            translator_time: run
                .translator_time
                .map(|t| Duration::from_secs_f64(t.max(0.0))),
            translator_memory: run.translator_memory,
            setup_time: None,
            validation: run.validation,
            last_jump: run.expanded_until_last_jump,
            winner: None,
            peak_memory: Some(run.peak_memory),
            process_time: Some(Duration::from_secs_f64(run.process_time.max(0.0))),
            metric: run.metric,
            error: run.error,
        }
    }
}

impl Measured {
    fn fill(self, record: &mut RunRecord) {
        record.outcome = self.outcome;
        record.limit = self.limit;
        record.cost = self.cost;
        record.plan_length = self.plan_length;
        record.expanded = self.stats.expanded;
        record.generated = self.stats.generated;
        record.evaluated = self.stats.evaluated;
        record.reopened = self.stats.reopened;
        record.expanded_until_last_jump = self.last_jump;
        (record.memory, record.memory_measure) = match self.peak_memory {
            Some(0) => (0, None),
            Some(peak) => (peak, Some(MemoryMeasure::ProcessPeak)),
            None => (
                self.stats.estimated_bytes as u64,
                Some(MemoryMeasure::SearchEstimate),
            ),
        };
        record.stored = self.stats.stored as u64;
        record.error = self.error;
        record.time = self.elapsed.as_secs_f64();
        record.cpu_time = self.cpu_time.map(|t| t.as_secs_f64());
        record.translator_time = self.translator_time.map(|t| t.as_secs_f64());
        record.translator_memory = self.translator_memory;
        record.setup_time = self.setup_time.map(|t| t.as_secs_f64());
        record.process_time = self.process_time.map(|t| t.as_secs_f64());
        record.metric = self.metric.filter(|m| m.is_finite());
        record.winner = self.winner.map(|d| d.to_string());
        match self.validation {
            Some(Ok(())) => record.validated = Some(true),
            Some(Err(message)) => {
                record.validated = Some(false);
                record.error = Some(message);
            }
            None => {}
        }
    }
}

/// A run that ended before a search result: why, and whether the planner
/// named what it does not handle ([`RunOutcome::Unsupported`]) or refused
/// the input ([`RunOutcome::Error`]).
struct Refused {
    outcome: RunOutcome,
    message: String,
}

impl Refused {
    fn new(unsupported: bool, message: String) -> Self {
        let outcome = if unsupported {
            RunOutcome::Unsupported
        } else {
            RunOutcome::Error
        };
        Self { outcome, message }
    }
}

impl From<String> for Refused {
    fn from(message: String) -> Self {
        Self::new(false, message)
    }
}

fn plan_instance(
    instance: &Instance,
    config: &Configuration,
    limits: RunLimits,
) -> Result<Measured, Refused> {
    let planner_config = config
        .planner_config(limits)
        .ok_or_else(|| format!("{} is not a searchlab configuration", config.name))?;
    match instance {
        Instance::Atomic(p) => {
            measure(&Planner::new(planner_config), &p.actions, &p.start, &p.goal)
        }
        Instance::Factored(p) => {
            measure(&Planner::new(planner_config), &p.domain, &p.start, &p.goal)
        }
        Instance::Pddl(task) => measure_pddl(task, &planner_config, &config.pddl_options()),
    }
}

/// Parses, grounds and solves a PDDL task; the time is the planner call's
/// (search and heuristic set-up), the translator time what came before
/// (parsing and grounding). The run's limits bound grounding too (its time
/// counts toward the time limit), and grounding stopped by one is a limit
/// reached whose time is all it took (no translator time: no search came
/// after) and whose memory is grounding's estimate when the memory limit
/// stopped it (else none here; an isolated run records its process's peak).
fn measure_pddl(
    task: &PddlTask,
    config: &PlannerConfig,
    options: &PddlOptions,
) -> Result<Measured, Refused> {
    let began = Instant::now();
    let solved = planners::pddl::solve_text(&task.domain, &task.problem, config, options);
    let solution = match solved {
        Ok(solution) => solution,
        Err(e) => {
            let message = format!("{} / {}: {e}", task.domain_file, task.problem_file);
            let Some(report) = e.limit_report(config.direction, began.elapsed()) else {
                return Err(Refused::new(e.is_unsupported(), message));
            };
            let mut measured = summarize(&report, |_, _| Ok(()));
            measured.setup_time = None;
            match e.estimated_bytes() {
                Some(bytes) => measured.stats.estimated_bytes = bytes,
                // Nothing measured (`Measured::fill`).
                None => measured.peak_memory = Some(0),
            }
            measured.error = Some(message);
            return Ok(measured);
        }
    };
    let translator_time = began.elapsed().saturating_sub(solution.report.elapsed);
    let valid = solution.plan.is_some();
    let mut measured = summarize(&solution.report, |_, _| {
        if valid {
            Ok(())
        } else {
            Err("invalid plan: the PDDL plan did not replay".to_owned())
        }
    });
    measured.cpu_time = solution.search_cpu_time;
    measured.translator_time = Some(translator_time);
    measured.translator_memory = solution.translator_memory;
    if let Some(scaled) = measured.cost.filter(|_| solution.cost_scale > 1) {
        // Costs scaled to whole numbers (a numeric task's decimal costs): in
        // the metric's units, the cost if whole, else the metric's value, as
        // for a peer's.
        let scale = u64::from(solution.cost_scale);
        if scaled % scale == 0 {
            measured.cost = Some(scaled / scale);
        } else {
            #[expect(clippy::cast_precision_loss, reason = "a plan's cost, far below 2^53")]
            let value = scaled as f64 / scale as f64;
            (measured.cost, measured.metric) = (None, Some(value));
        }
    }
    Ok(measured)
}

fn measure<D: PlanningDomain>(
    planner: &Planner<'_, D>,
    domain: &D,
    start: &D::State,
    goal: &D::Goal,
) -> Result<Measured, Refused> {
    let (report, cpu_time) = if planner.config().direction == Direction::Portfolio {
        // Two threads: this thread's CPU time would count one direction.
        (planner.plan(domain, start, goal), None)
    } else {
        planners::cpu::measure(|| planner.plan(domain, start, goal))
    };
    let report = report.map_err(|e| Refused::new(e.is_unsupported(), e.to_string()))?;
    let mut measured = summarize(&report, |actions, cost| {
        match planners::validate(domain, start, goal, actions) {
            Ok(replayed) if replayed == cost => Ok(()),
            Ok(replayed) => Err(format!(
                "invalid plan: reported cost {cost}, replayed cost {replayed}"
            )),
            Err(e) => Err(e.to_string()),
        }
    });
    measured.cpu_time = cpu_time;
    Ok(measured)
}

fn summarize<Id: Copy>(
    report: &PlanReport<Id>,
    validate: impl FnOnce(&[Id], u64) -> Result<(), String>,
) -> Measured {
    let (outcome, limit, cost, plan_length, validation) = match &report.outcome {
        PlanOutcome::Solved(plan) => (
            RunOutcome::Solved,
            None,
            Some(plan.cost),
            Some(plan.actions.len()),
            Some(validate(&plan.actions, plan.cost)),
        ),
        PlanOutcome::Unsolvable => (RunOutcome::Unsolvable, None, None, None, None),
        PlanOutcome::NoPlanFound => (RunOutcome::NoPlanFound, None, None, None, None),
        // An anytime search's best plan so far is kept, but the run is a limit's.
        PlanOutcome::LimitReached { limit, best } => (
            RunOutcome::Limit,
            Some(limit.to_string()),
            best.as_ref().map(|plan| plan.cost),
            best.as_ref().map(|plan| plan.actions.len()),
            best.as_ref().map(|plan| validate(&plan.actions, plan.cost)),
        ),
        PlanOutcome::Cancelled { .. } => (RunOutcome::Cancelled, None, None, None, None),
    };
    let last_jump = report.stats().expanded_until_last_jump;
    let (stats, winner) = match (&report.both, &report.forward, &report.regression) {
        // One search of both sides: nobody won.
        (Some(both), ..) => (both.clone(), None),
        (None, Some(f), Some(r)) => (f.beside(r), Some(report.direction)),
        _ => (report.stats().clone(), None),
    };
    Measured {
        outcome,
        limit,
        cost,
        plan_length,
        stats,
        last_jump,
        winner,
        elapsed: report.elapsed,
        cpu_time: None,
        translator_time: None,
        translator_memory: None,
        setup_time: Some(report.setup_time),
        validation,
        peak_memory: None,
        process_time: None,
        metric: None,
        error: None,
    }
}
