//! PDDL tasks for the planner: the bridge from the front end
//! ([`searchlab_pddl`]: reading, grounding, mutexes, packing, IPC plans)
//! to search, and [`solve_files`], which does it all. What the front end
//! offers is re-exported here, so `planners::pddl::parse_domain` and
//! `searchlab_pddl::parse_domain` are the same function.
//!
//! - [`GroundedTask::new`] puts a [`GroundTask`] on a `u64` or a
//!   [`Wide`](state_atomic::Wide) state, or beyond 32,768 facts on a
//!   [`SparseBits`](state_atomic::SparseBits), which holds any number; each
//!   [`Task`] is a [`PlanningDomain`](crate::PlanningDomain). Regression
//!   prunes subgoals with a pair of [`h2_mutexes`].
//! - [`PackedTask`]: the same on finite-domain (SAS+-like) states, below.
//! - [`solve_files`], [`solve_text`]: read, ground and solve; a
//!   [`PddlSolution`] holds the planner's [`PlanReport`]
//!   with what the front end adds (grounding figures, the IPC plan).
//! - [`SolveError`]: the front end's [`PddlError`] or the planner's
//!   [`PlanError`](crate::PlanError).
//!
//! # Derived predicates
//!
//! The front end grounds axioms apart from the operators
//! ([`GroundTask::axioms`]) and evaluates them ([`Axioms`]).
//! Forward search closes the start and every successor under the axioms
//! before the goal test ([`TaskForward`]), and so do plan replay and
//! validation. Heuristics read the operators with the axioms appended as
//! actions of cost 0 (operator ids unchanged; plans never hold axioms),
//! plus, for each derived fact some condition wants false, an action of
//! cost 0 making it false: a relaxation that over-approximates the task,
//! so `h_max` and LM-cut stay admissible and no dead end is false.
//! Regression refuses such a task by name
//! ([`PlanError::DerivedPredicates`](crate::PlanError::DerivedPredicates));
//! a portfolio then answers from forward search. Packing and `h^2`
//! mutexes stay off.
//!
//! # Packed states
//!
//! Searching on one bit per fact wastes the state's words: of a group of
//! facts no two of which hold together (a robot's place, a ball's place) at
//! most one bit is set. [`Packing`] groups the facts into cliques of
//! pairwise `h^2`-mutex facts (a greedy clique cover, largest first) and
//! stores each group as a binary field of `ceil(log2(k + 1))` bits; facts
//! with negative conditions, and facts some operator deletes without
//! requiring them, stay one-bit fields (see [`Packing`] for why). The
//! operators' conditions and effects remain masks over the packed bits,
//! so forward search and regression run on state-atomic's spaces as they
//! are, on fewer words: gripper's task07 has 68 facts (two words) and
//! packs into 43 bits (one).
//!
//! Heuristics see the facts, not the fields: a [`PackedTask`]'s
//! [`PlanningDomain::View`](crate::PlanningDomain::View) is the fact-level
//! task, and each packed state or subgoal is decoded before it is
//! estimated, so every heuristic gives the values (and the search the
//! expansions) it gives unpacked. Plans name the same operators and are
//! checked on the fact-level task.
//!
//! [`solve_files`] packs when the packed state takes fewer words than the
//! facts' ([`PackedGroundedTask::new`] lists the width pairs);
//! [`PddlOptions::packing`] (`searchlab plan --no-packing`) turns it off.
//! Packing needs the `h^2` mutexes, so they are computed in every
//! direction when it is on.
//!
//! ```
//! use planners::pddl::{solve_text, PddlOptions};
//! use planners::{Direction, PlannerConfig};
//!
//! let domain = "(define (domain d) (:requirements :strips :typing) (:types place)
//!   (:predicates (at ?x - place) (road ?x ?y - place))
//!   (:action go :parameters (?x ?y - place) :precondition (and (at ?x) (road ?x ?y))
//!     :effect (and (at ?y) (not (at ?x)))))";
//! let problem = "(define (problem p) (:domain d) (:objects a b c - place)
//!   (:init (at a) (road a b) (road b c)) (:goal (at c)))";
//! for direction in [Direction::Forward, Direction::Regression] {
//!     let config = PlannerConfig { direction, heuristic: planners::heuristics::heuristic("hmax").unwrap(), ..PlannerConfig::default() };
//!     let solution = solve_text(domain, problem, &config, &PddlOptions::default()).unwrap();
//!     assert_eq!(solution.plan_text().unwrap(), "(go a b)\n(go b c)\n; cost = 2 (unit cost)\n");
//! }
//! ```

mod error;
mod grounded;
mod numeric;
mod packed;
mod task;

use std::path::Path;
use std::time::{Duration, Instant};

use state_atomic::{PruningStats, Subsumption};

pub use error::SolveError;
pub use grounded::{GroundedDomain, GroundedTask, TaskVisitor};
pub use numeric::NumericTask;
pub use packed::{DomainVisitor, PackedGroundedTask, PackedRegression, PackedTask};
pub use searchlab_pddl::{
    decimal_cost, ground, h2_mutexes, h2_mutexes_until, parse_domain, parse_problem, replay,
    Axioms, Comparison, Domain, GroundOperator, GroundTask, GroundingExceeded, GroundingLimits,
    GroundingStats, IpcPlan, LinearCondition, LinearExpr, Location, Mutexes, NumericEffect,
    NumericFluents, OperatorNumeric, Packing, PddlError, PlanStep, Problem, GOAL_ACTION,
    GOAL_REACHED, MAX_ACTION_COST,
};
pub use task::{Task, TaskForward, TaskRegression};

use crate::{Direction, PlanReport, PlanTrace, Planner, PlannerConfig};

/// How [`solve_files`] prepares the task, beyond the planner's
/// configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent switches, each set by name with the rest from `default()`"
)]
pub struct PddlOptions {
    /// Compute `h^2` mutexes and prune regression subgoals with them
    /// (only when the direction includes regression), and give a
    /// heuristic that reads mutex groups (`ipdb`) the groups packing makes
    /// of them.
    pub mutexes: bool,
    /// Regression's subsumption pruning.
    pub subsumption: Subsumption,
    /// Forward search expands only each state's strong stubborn set
    /// (partial-order reduction, see
    /// [`ForwardSpace::stubborn_sets`](state_atomic::ForwardSpace::stubborn_sets));
    /// off by default. Not on tasks with axioms or numeric fluents.
    pub stubborn_sets: bool,
    /// Grounding limits.
    pub grounding: GroundingLimits,
    /// Search on packed states (groups of mutually exclusive facts as
    /// fields, see [`Packing`]) when that takes fewer words than one bit
    /// per fact. Heuristics see the facts either way.
    pub packing: bool,
    /// Record the search's exploration into [`PddlSolution::trace`]
    /// ([`Planner::plan_traced`]); off by default.
    pub trace: bool,
}

impl Default for PddlOptions {
    fn default() -> Self {
        Self {
            mutexes: true,
            subsumption: Subsumption::Parent,
            stubborn_sets: false,
            grounding: GroundingLimits::default(),
            packing: true,
            trace: false,
        }
    }
}

/// How a task was packed ([`PddlOptions::packing`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackingStats {
    /// Groups (fields) of two facts or more.
    pub groups: usize,
    /// Facts in those groups.
    pub grouped_facts: usize,
    /// Fields in all, single facts included.
    pub fields: usize,
    /// Bits of the packed state.
    pub bits: usize,
    /// The width of one bit per fact, in 64-bit words.
    pub fact_words: usize,
}

impl PackingStats {
    /// The figures of `task`.
    pub fn of(task: &PackedGroundedTask) -> Self {
        let packing = task.packing();
        let groups = || packing.groups().filter(|g| g.len() > 1);
        Self {
            groups: groups().count(),
            grouped_facts: groups().map(<[u32]>::len).sum(),
            fields: packing.groups().count(),
            bits: packing.bits(),
            fact_words: task.fact_words(),
        }
    }
}

/// What [`solve_files`] found: the planner's [`PlanReport`], and what the
/// PDDL front end adds to it (grounding, mutexes, packing, the IPC plan).
#[derive(Clone, Debug)]
pub struct PddlSolution {
    /// The planner's report. Its plans' actions (the outcome's and the
    /// [`improvements`](PlanReport::improvements)', each validated by
    /// replay) are action indices of the task; its
    /// [`elapsed`](PlanReport::elapsed) is the search's wall time, the
    /// searched task's construction and the heuristic's set-up included
    /// (parsing, grounding and mutexes come before); its
    /// [`notes`](PlanReport::notes) start with the front end's (mutexes
    /// left out for memory) before the planner's.
    pub report: PlanReport<usize>,
    /// Facts and operators before and after dropping; grounding time.
    pub grounding: GroundingStats,
    /// Parsing time (both files).
    pub parse_time: Duration,
    /// The searched state's width in 64-bit words (packed, if packed; on
    /// a [`SparseBits`](state_atomic::SparseBits) state, beyond 32,768
    /// facts, the words its facts span).
    pub words: usize,
    /// How the task was packed, if it was.
    pub packing: Option<PackingStats>,
    /// `h^2` mutex pairs, if computed.
    pub mutex_pairs: Option<usize>,
    /// Time spent computing mutexes.
    pub mutex_time: Duration,
    /// The plan in the IPC format, if solved (validated by replay).
    pub plan: Option<IpcPlan>,
    /// Regression successors pruned because they held a mutex pair.
    pub mutex_pruned: u64,
    /// Regression successors pruned by subsumption.
    pub subsumption_pruned: u64,
    /// What stubborn sets pruned in forward search, when they were on
    /// ([`PddlOptions::stubborn_sets`]).
    pub stubborn_sets: Option<PruningStats>,
    /// CPU time of the planner call on the calling thread (`None` where
    /// the system does not say, and for a portfolio, whose regression runs
    /// on another thread).
    pub search_cpu_time: Option<Duration>,
    /// The exploration of the search that produced the outcome, with fact
    /// and operator names, if [`PddlOptions::trace`] asked for it.
    pub trace: Option<PlanTrace>,
    /// What a cost of 1 in the report stands for: `1 / cost_scale` of the
    /// metric ([`GroundTask::cost_scale`]; 1 but for a numeric task with
    /// decimal costs).
    pub cost_scale: u32,
    /// The process's peak resident memory in bytes once parsing, grounding
    /// and mutexes were done, before the searched task was built
    /// ([`cpu::peak_memory_bytes`](crate::cpu::peak_memory_bytes); `None`
    /// where the system does not say). The whole process's high-water
    /// mark: in a process of its own (the lab's isolated runs), the front
    /// end's, as Fast Downward's translator reports its own peak.
    pub translator_memory: Option<u64>,
}

impl PddlSolution {
    /// The plan as IPC text, if solved.
    pub fn plan_text(&self) -> Option<String> {
        self.plan.as_ref().map(IpcPlan::to_ipc_string)
    }

    /// The time before the search: parsing, grounding and mutexes.
    pub fn translator_time(&self) -> Duration {
        self.parse_time + self.grounding.elapsed + self.mutex_time
    }
}

fn read_file(path: &Path) -> Result<String, PddlError> {
    let path_name = || path.display().to_string();
    crate::input::read_text(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::FileTooLarge {
            PddlError::FileTooLarge {
                path: path_name(),
                limit_bytes: crate::input::MAX_INPUT_BYTES,
            }
        } else {
            PddlError::Io {
                path: path_name(),
                message: e.to_string(),
            }
        }
    })
}

/// Reads, grounds and solves a PDDL task from two files; the plan comes
/// back in the IPC format, replayed and checked.
///
/// The configuration's time limit bounds the whole call: parsing,
/// grounding and mutexes count toward it and the search gets what remains.
/// Its memory limit bounds grounding's estimated memory, then the
/// grounded and atomic tasks' and the search's together: the search gets
/// what the tasks leave. h^2 mutexes (for regression's pruning and for
/// packing) are left out, with a note, where their tables would not fit.
/// [`PddlOptions::grounding`] may set tighter limits for grounding.
///
/// # Errors
/// [`PddlError`] for a file that cannot be read or is larger than
/// [`MAX_INPUT_BYTES`](crate::input::MAX_INPUT_BYTES), a parse error (located),
/// grounding that exceeds a limit, or an atomic task whose estimated size
/// ([`GroundedTask::bytes`]) exceeds the memory limit (both
/// [`GroundingExceeded`]: [`PddlError::limit`] tells them apart from bad
/// input), or a planner
/// configuration the task refuses. No plan is an outcome, not an error.
pub fn solve_files(
    domain: &Path,
    problem: &Path,
    config: &PlannerConfig,
) -> Result<PddlSolution, SolveError> {
    solve_files_with(domain, problem, config, &PddlOptions::default())
}

/// [`solve_files`] with [`PddlOptions`].
///
/// # Errors
/// As for [`solve_files`].
pub fn solve_files_with(
    domain: &Path,
    problem: &Path,
    config: &PlannerConfig,
    options: &PddlOptions,
) -> Result<PddlSolution, SolveError> {
    let domain_text = read_file(domain)?;
    let problem_text = read_file(problem)?;
    solve_named(
        (&domain.display().to_string(), &domain_text),
        (&problem.display().to_string(), &problem_text),
        config,
        options,
    )
}

/// [`solve_files_with`] on text already read.
///
/// # Errors
/// As for [`solve_files`].
pub fn solve_text(
    domain: &str,
    problem: &str,
    config: &PlannerConfig,
    options: &PddlOptions,
) -> Result<PddlSolution, SolveError> {
    solve_named(("domain", domain), ("problem", problem), config, options)
}

/// Replays IPC plan text (a peer planner's, say) on a PDDL task given as
/// text: parses and grounds the task, then checks every step and the goal
/// (numeric fluents included, with [`replay`]'s PDDL 2.1 semantics).
/// Returns the plan's cost in the task's units (a numeric task's decimal
/// costs scaled by [`GroundTask::cost_scale`]). Names are `(file, text)`
/// pairs, for messages.
///
/// # Errors
/// [`PddlError`] for a task or plan that does not parse or ground, a step
/// that is not a ground operator of the task, a step whose precondition
/// does not hold, or a goal fact left unreached.
///
/// ```
/// use planners::pddl::validate_text;
/// let domain = "(define (domain d) (:predicates (at ?x) (road ?x ?y))
///   (:action go :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y))
///     :effect (and (at ?y) (not (at ?x)))))";
/// let problem = "(define (problem p) (:domain d) (:objects a b c)
///   (:init (at a) (road a b) (road b c)) (:goal (at c)))";
/// let task = (("d.pddl", domain), ("p.pddl", problem));
/// assert_eq!(validate_text(task.0, task.1, ("plan", "(go a b)\n(GO b c)\n")).unwrap(), 2);
/// assert!(validate_text(task.0, task.1, ("plan", "(go b c)\n")).is_err());
/// ```
pub fn validate_text(
    (domain_file, domain_text): (&str, &str),
    (problem_file, problem_text): (&str, &str),
    (plan_file, plan_text): (&str, &str),
) -> Result<u64, SolveError> {
    let domain = parse_domain(domain_file, domain_text)?;
    let problem = parse_problem(&domain, problem_file, problem_text)?;
    let plan = IpcPlan::parse(plan_file, plan_text)?;
    let ground_task = ground(&domain, &problem, GroundingLimits::default())?;
    if ground_task.numeric.is_some() {
        // In the task's units: whole numbers (a numeric task's decimal costs
        // are scaled by its `cost_scale`).
        let scaled = replay(&ground_task, &plan)? * f64::from(ground_task.cost_scale);
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a sum of whole costs from 0, each at most MAX_ACTION_COST"
        )]
        return Ok(scaled.round().max(0.0) as u64);
    }
    GroundedTask::new(&ground_task)?.validate(&plan)
}

/// [`validate_text`] for a plan's metric value: what the plan costs under
/// the task's metric, in the metric's own units (`2283.93` on IPC 2023's
/// tpp, whose costs are scaled to cents for search).
///
/// # Errors
/// As for [`validate_text`].
///
/// ```
/// use planners::pddl::replay_text;
/// let domain = "(define (domain d) (:requirements :numeric-fluents) (:functions (x) (spent))
///   (:action up :parameters () :effect (and (increase (x) 1) (increase (spent) 0.25))))";
/// let problem = "(define (problem p) (:domain d) (:init (= (x) 0) (= (spent) 0))
///   (:goal (>= (x) 2)) (:metric minimize (spent)))";
/// assert_eq!(replay_text(("d", domain), ("p", problem), ("plan", "(up)\n(up)\n")).unwrap(), 0.5);
/// ```
pub fn replay_text(
    (domain_file, domain_text): (&str, &str),
    (problem_file, problem_text): (&str, &str),
    (plan_file, plan_text): (&str, &str),
) -> Result<f64, SolveError> {
    let domain = parse_domain(domain_file, domain_text)?;
    let problem = parse_problem(&domain, problem_file, problem_text)?;
    let plan = IpcPlan::parse(plan_file, plan_text)?;
    let ground_task = ground(&domain, &problem, GroundingLimits::default())?;
    if ground_task.numeric.is_some() {
        return Ok(replay(&ground_task, &plan)?);
    }
    #[expect(clippy::cast_precision_loss, reason = "a plan's cost, far below 2^53")]
    let cost = GroundedTask::new(&ground_task)?.validate(&plan)? as f64;
    Ok(cost)
}

/// A grounding time limit named as the run's, not as what parsing left
/// of it.
fn name_the_runs_time_limit(
    error: PddlError,
    config: &PlannerConfig,
    options: &PddlOptions,
) -> PddlError {
    match error {
        PddlError::GroundingExceeded(GroundingExceeded::Time { limit })
            if Some(limit) != options.grounding.max_time =>
        {
            GroundingExceeded::Time {
                limit: config.limits.max_time.unwrap_or(limit),
            }
            .into()
        }
        e => e,
    }
}

fn solve_named(
    (domain_file, domain_text): (&str, &str),
    (problem_file, problem_text): (&str, &str),
    config: &PlannerConfig,
    options: &PddlOptions,
) -> Result<PddlSolution, SolveError> {
    let began = Instant::now();
    let domain = parse_domain(domain_file, domain_text)?;
    let problem = parse_problem(&domain, problem_file, problem_text)?;
    let parse_time = began.elapsed();
    // The planner's time limit is the whole call's: grounding gets what
    // parsing left, and the search what grounding left.
    let remaining = || {
        config
            .limits
            .max_time
            .map(|limit| limit.saturating_sub(began.elapsed()))
    };
    let grounding = grounding_limits(config, options, remaining());
    let ground_task = ground(&domain, &problem, grounding)
        .map_err(|e| name_the_runs_time_limit(e, config, options))?;
    if ground_task.numeric.is_some() {
        return solve_numeric_task(ground_task, config, options, parse_time, remaining());
    }
    // The grounded task, held through the search, counts toward the limit.
    let (ground_bytes, limit) = (ground_task.heap_bytes(), grounding.max_memory_bytes);
    let fact_words = task_words(&ground_task, ground_bytes, limit)?;
    // Axioms and conditional effects leave packing and mutexes off: the
    // operators' preconditions and effects alone do not say which states
    // are reachable (and regression refuses the task).
    let has_axioms = !ground_task.axioms.is_empty();
    let has_conditional = ground_task.has_conditional_effects();
    let plain = !has_axioms && !has_conditional;
    let wants_mutexes = options.mutexes && config.direction != Direction::Forward && plain;
    // A heuristic that reads variables gets the packing's groups, packed
    // or not.
    let wants_groups = options.mutexes && config.heuristic.info().mutex_groups && plain;
    let may_pack =
        options.packing && plain && packing_fits(&ground_task, ground_bytes, fact_words, limit);
    let began = Instant::now();
    let (mutexes, mut notes) = if wants_mutexes || may_pack || wants_groups {
        let deadline = remaining().and_then(|left| began.checked_add(left));
        find_mutexes(&ground_task, (ground_bytes, fact_words), limit, deadline).ok_or(
            GroundingExceeded::Time {
                limit: config.limits.max_time.unwrap_or_default(),
            },
        )?
    } else {
        (None, Vec::new())
    };
    let mutex_time = began.elapsed();
    let translator_memory = crate::cpu::peak_memory_bytes();
    let packed = match (&mutexes, may_pack) {
        (Some(mutexes), true) => {
            PackedGroundedTask::new(&ground_task, Packing::new(&ground_task, mutexes))?
        }
        _ => None,
    };
    // The memory limit holds for the search and what it runs beside: the
    // grounded task and the atomic one count toward it, and the search
    // gets what they leave (none: it stops at once, at the memory limit).
    let search_config = |task_bytes: usize| {
        let mut search_config = config.clone();
        search_config.limits.max_time = remaining();
        search_config.limits.max_memory_bytes = config
            .limits
            .max_memory_bytes
            .map(|limit| limit.saturating_sub(ground_bytes + task_bytes));
        search_config
    };
    let groups = mutexes
        .as_ref()
        .filter(|_| wants_groups && packed.is_none());
    let pruning = mutexes.as_ref().filter(|_| wants_mutexes);
    let began = Instant::now();
    let (words, packing, (run, cpu)) = if let Some(mut task) = packed {
        task.set_subsumption(options.subsumption);
        task.set_stubborn_sets(options.stubborn_sets);
        if let Some(mutexes) = pruning {
            task.set_mutexes(mutexes);
        }
        let config = search_config(task.heap_bytes());
        let solve = Solve::new(&config, options.trace);
        let stats = PackingStats::of(&task);
        let run = crate::cpu::measure(|| task.visit(solve));
        (task.words(), Some(stats), run)
    } else {
        let task = unpacked(&ground_task, options, groups, pruning)?;
        let config = search_config(task.heap_bytes());
        let solve = Solve::new(&config, options.trace);
        let run = crate::cpu::measure(|| task.visit_domain(solve));
        (task.words(), None, run)
    };
    let mut run = run?;
    let why = unpruned(has_axioms, has_conditional);
    notes.extend(stubborn_sets_off(options, why));
    notes.append(&mut run.report.notes);
    run.report.notes = notes;
    run.report.elapsed = began.elapsed();
    let search_cpu_time = cpu.filter(|_| config.direction != Direction::Portfolio);
    Ok(PddlSolution {
        report: run.report,
        grounding: ground_task.stats,
        parse_time,
        words,
        packing,
        mutex_pairs: mutexes.as_ref().map(Mutexes::pairs),
        mutex_time,
        plan: run.plan,
        mutex_pruned: run.mutex_pruned,
        subsumption_pruned: run.subsumption_pruned,
        stubborn_sets: run.stubborn_sets,
        search_cpu_time,
        trace: run.trace,
        cost_scale: 1,
        translator_memory,
    })
}

/// The task searched unpacked, with the groups packing would make of
/// `groups` for heuristics that read them, and regression pruning with
/// `pruning`.
fn unpacked(
    ground: &GroundTask,
    options: &PddlOptions,
    groups: Option<&Mutexes>,
    pruning: Option<&Mutexes>,
) -> Result<GroundedTask, SolveError> {
    let mut task = GroundedTask::new(ground)?;
    if let Some(found) = groups {
        task.set_mutex_groups(&Packing::new(ground, found))?;
    }
    task.set_subsumption(options.subsumption);
    task.set_stubborn_sets(options.stubborn_sets);
    if let Some(mutexes) = pruning {
        task.set_mutexes(mutexes);
    }
    Ok(task)
}

/// The note that stubborn sets, asked for, are off, and why (`None`:
/// they are not off).
fn stubborn_sets_off(options: &PddlOptions, why: Option<&str>) -> Option<String> {
    why.filter(|_| options.stubborn_sets)
        .map(|why| format!("stubborn sets are off: {why}"))
}

/// Why stubborn sets cannot prune a STRIPS or ADL task, if they cannot.
fn unpruned(has_axioms: bool, has_conditional: bool) -> Option<&'static str> {
    if has_axioms {
        Some("the task has derived predicates (axioms)")
    } else {
        has_conditional.then_some("the task has conditional effects")
    }
}

/// A numeric task planned on the factored state ([`NumericTask`]), with
/// what the time limit left after parsing and grounding.
fn solve_numeric_task(
    ground_task: GroundTask,
    config: &PlannerConfig,
    options: &PddlOptions,
    parse_time: Duration,
    remaining: Option<Duration>,
) -> Result<PddlSolution, SolveError> {
    let mut search_config = config.clone();
    search_config.limits.max_time = remaining;
    search_config.limits.max_memory_bytes = config
        .limits
        .max_memory_bytes
        .map(|limit| limit.saturating_sub(ground_task.heap_bytes()));
    let translator_memory = crate::cpu::peak_memory_bytes();
    let (run, cpu) =
        crate::cpu::measure(|| numeric::solve_numeric(&ground_task, &search_config, options.trace));
    let mut run = run?;
    run.report.elapsed = run.elapsed;
    let why = Some("numeric tasks plan on the factored state");
    run.report.notes.extend(stubborn_sets_off(options, why));
    Ok(PddlSolution {
        report: run.report,
        grounding: ground_task.stats,
        parse_time,
        words: 0,
        packing: None,
        mutex_pairs: None,
        mutex_time: Duration::ZERO,
        plan: run.plan,
        mutex_pruned: 0,
        subsumption_pruned: 0,
        stubborn_sets: None,
        search_cpu_time: cpu.filter(|_| config.direction != Direction::Portfolio),
        trace: run.trace,
        cost_scale: ground_task.cost_scale,
        translator_memory,
    })
}

/// `ground`'s h^2 mutexes, or `None` past `deadline`. Their tables must
/// fit beside the grounded task (`ground_bytes`) and the atomic one (on
/// `fact_words` words) within `max_memory_bytes`: where they would not,
/// the task goes without mutexes (so unpacked), with a note, rather than
/// past the limit.
fn find_mutexes(
    ground: &GroundTask,
    (ground_bytes, fact_words): (usize, usize),
    max_memory_bytes: Option<usize>,
    deadline: Option<Instant>,
) -> Option<(Option<Mutexes>, Vec<String>)> {
    let tables = Mutexes::bytes_to_find(ground.facts.len());
    let held = ground_bytes + tables;
    if exceeds_memory(ground, held, fact_words, max_memory_bytes).is_some() {
        let note = format!(
            "no h^2 mutexes (so no packing): their tables ({} MiB) would not fit the memory limit beside the task",
            tables >> 20
        );
        return Some((None, vec![note]));
    }
    Some((Some(h2_mutexes_until(ground, deadline)?), Vec::new()))
}

/// The width in words of the state that holds `ground`'s facts (beyond
/// the fixed widths, the words a [`SparseBits`](state_atomic::SparseBits)
/// state's facts span), once its atomic task is known to fit
/// `max_memory_bytes`: the task is built whole before the search can count
/// it, so its estimate is checked first.
fn task_words(
    ground: &GroundTask,
    ground_bytes: usize,
    max_memory_bytes: Option<usize>,
) -> Result<usize, PddlError> {
    let facts = ground.facts.len();
    let words = GroundedTask::words_for(facts).unwrap_or(facts.div_ceil(64));
    match exceeds_memory(ground, ground_bytes, words, max_memory_bytes) {
        Some(exceeded) => Err(exceeded),
        None => Ok(words),
    }
}

/// Whether packing `ground` (on `fact_words` words) may save words and
/// fit `max_memory_bytes`: not on a task of one word; a packed task holds
/// its packed actions beside the fact-level ones, which take no more.
fn packing_fits(
    ground: &GroundTask,
    ground_bytes: usize,
    fact_words: usize,
    max_memory_bytes: Option<usize>,
) -> bool {
    let fact_task_bytes = GroundedTask::bytes(ground, fact_words);
    fact_words > 1
        && exceeds_memory(
            ground,
            ground_bytes + fact_task_bytes,
            fact_words,
            max_memory_bytes,
        )
        .is_none()
}

/// The error, if `ground`'s atomic actions on `words` words, beside
/// `held` bytes (the grounded task's, say), would take more than the
/// memory limit.
fn exceeds_memory(
    ground: &GroundTask,
    held: usize,
    words: usize,
    max_memory_bytes: Option<usize>,
) -> Option<PddlError> {
    let estimated_bytes = held + GroundedTask::bytes(ground, words);
    max_memory_bytes
        .filter(|&limit_bytes| estimated_bytes > limit_bytes)
        .map(|limit_bytes| PddlError::TaskExceedsMemory {
            limit_bytes,
            estimated_bytes,
        })
}

/// Grounding's limits: the options' where tighter than the run's, and
/// the time `remaining` of the run.
fn grounding_limits(
    config: &PlannerConfig,
    options: &PddlOptions,
    remaining: Option<Duration>,
) -> GroundingLimits {
    GroundingLimits {
        max_time: tighter(options.grounding.max_time, remaining),
        max_memory_bytes: tighter(
            options.grounding.max_memory_bytes,
            config.limits.max_memory_bytes,
        ),
        ..options.grounding
    }
}

/// The tighter of two optional limits.
fn tighter<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// One planner run on a task of any width.
#[derive(Clone, Copy)]
struct Solve<'c> {
    config: &'c PlannerConfig,
    trace: bool,
}

impl<'c> Solve<'c> {
    fn new(config: &'c PlannerConfig, trace: bool) -> Self {
        Self { config, trace }
    }
}

/// A planner run on a grounded task: the report with plans on the task's
/// action indices, and what the task adds.
struct Run {
    report: PlanReport<usize>,
    plan: Option<IpcPlan>,
    mutex_pruned: u64,
    subsumption_pruned: u64,
    stubborn_sets: Option<PruningStats>,
    trace: Option<PlanTrace>,
}

impl DomainVisitor for Solve<'_> {
    type Output = Result<Run, SolveError>;

    fn visit<D: GroundedDomain>(self, task: &D) -> Self::Output {
        let planner = Planner::new(self.config.clone());
        let (start, goal) = (task.start_state(), task.goal_state());
        let (report, trace) = if self.trace {
            planner.plan_traced(task, &start, &goal)?
        } else {
            (planner.plan(task, &start, &goal)?, None)
        };
        for found in &report.improvements {
            task.validate_ipc(&task.to_ipc(&found.plan.actions))?;
        }
        // A plan kept from a search a limit stopped is replayed like a solved one.
        let plan = match report.outcome.plan() {
            Some(p) => {
                let ipc = task.to_ipc(&p.actions);
                task.validate_ipc(&ipc)?;
                Some(ipc)
            }
            None => None,
        };
        Ok(Run {
            report: report.map_actions(|a| task.fact_action(a)),
            plan,
            mutex_pruned: task.mutex_pruned(),
            subsumption_pruned: task.subsumption_pruned(),
            stubborn_sets: task.stubborn_sets(),
            trace,
        })
    }
}
