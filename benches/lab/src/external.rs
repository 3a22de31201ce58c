//! Fast Downward, pyperplan and ENHSP as suite configurations.
//!
//! A peer configuration (`fd-astar-blind`, `pp-gbfs-ff`, `enhsp-opt-hrmax`
//! ...) runs its planner as a subprocess on the PDDL task's two files, under
//! the run's limits, reads the plan's cost, the expansions and the search
//! time from the planner's output, and replays the plan it wrote with
//! searchlab's own validator ([`planners::pddl::validate_text`]).
//!
//! Limits: the time limit is the planner's (`--overall-time-limit` for Fast
//! Downward; none for pyperplan and ENHSP), backed by `timeout`, which kills
//! the whole process group a few seconds later. The memory limit caps the
//! process's address space (`--overall-memory-limit`; `ulimit -v` for
//! pyperplan), or for ENHSP the Java heap (`-Xmx`: the JVM reserves far more
//! address space than it uses, so `ulimit -v` would stop it from starting),
//! where searchlab's caps its estimate of the search's own memory. No peer
//! takes an expansion limit, so a solved run that expanded more than the
//! limit is recorded as having reached it: coverage then compares like with
//! like.
//!
//! ENHSP (the numeric planner) reports its own search time, which leaves out
//! the Java virtual machine's start-up, parsing and grounding: that is the
//! record's search time, its grounding time the translator time, so that
//! time per expansion compares searches, not start-ups.
//!
//! The planners are found in a Python virtual environment made by
//! `scripts/install-peers.sh`: `$SEARCHLAB_PEERS` if set, else `.peers` in
//! the working directory, else `/tmp/peers`. ENHSP also needs Java 17 or
//! newer ([`Peers::in_dir`] says where it looks). Configurations whose
//! planner is not installed are dropped from a suite with a one-line note
//! ([`crate::suite::Suite::retain_available`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use planners::pddl::{PddlError, SolveError};

use crate::limits::RunLimits;
use crate::pddl_task::PddlTask;
use crate::record::RunOutcome;

/// A peer planner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExternalPlanner {
    /// Fast Downward (the compiled planner in `up-fast-downward`).
    FastDownward,
    /// pyperplan (pure Python).
    Pyperplan,
    /// ENHSP, the numeric planner (the jar in `up-enhsp`, run with Java).
    Enhsp,
}

impl ExternalPlanner {
    /// The planner's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            ExternalPlanner::FastDownward => "Fast Downward",
            ExternalPlanner::Pyperplan => "pyperplan",
            ExternalPlanner::Enhsp => "ENHSP",
        }
    }
}

/// One peer configuration: a planner and how it searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExternalSearch {
    /// The configuration's name in a suite, e.g. `fd-astar-hmax`.
    pub name: &'static str,
    /// The planner.
    pub planner: ExternalPlanner,
    /// Fast Downward's `--search` argument, pyperplan's `-s` and `-H`
    /// arguments separated by a space, or ENHSP's `-planner` preset.
    pub search: &'static str,
    /// Whether its plans are optimal (A* with an admissible heuristic), so
    /// that reports may hold its costs against other optimal ones.
    /// pyperplan's A* counts every action as 1, and it refuses tasks with
    /// action costs (`:functions`): on the tasks it solves, its costs are
    /// optimal too.
    pub optimal: bool,
}

/// Every peer configuration a suite accepts.
///
/// `fd-lazy-ff+lmcount` is searchlab's `fwd-lazygbfs-ff+lmcount` in Fast
/// Downward: lazy greedy search alternating between `h_FF` and the landmark
/// count over Zhu/Givan landmarks (with unit costs, as searchlab counts
/// landmarks), preferred operators from both, queued first.
/// `fd-lama-first` is Fast Downward's `lama-first` alias: landmarks by RHW
/// with reasonable orderings, unit costs throughout, no landmark preferred
/// operators.
///
/// Fast Downward's optimal configurations without an LP solver:
/// `fd-astar-lmcut-sss` is A* with LM-cut and atom-centric strong stubborn
/// sets (Röger, Helmert, Seipp and Sievers 2020), on in every state (not
/// wrapped in `limited_pruning`, which would switch them off where they
/// prune little, as searchlab's `-sss` does); `fd-astar-ipdb` A* with iPDB, pattern
/// collections by hill climbing (Haslum et al. 2007) under the canonical
/// heuristic; `fd-astar-cegar` A* with the canonical heuristic over
/// patterns found by counterexample-guided abstraction refinement
/// (Rovner, Sievers and Helmert 2019; its defaults spend up to 100 s
/// looking, less when the patterns stop improving); `fd-ms` A* with
/// merge-and-shrink as the `seq-opt-merge-and-shrink` alias sets it up
/// (bisimulation, SCC-DFP merging, 50,000 abstract states).
///
/// ENHSP's presets (`-planner`): `enhsp-opt-hrmax` is A* with `h^rmax`
/// (`h_max` over the numeric subgoaling relaxation with redundant
/// constraints), `enhsp-opt-blind` A* with the blind heuristic, both
/// breaking ties towards larger g; `enhsp-sat-hmrp` greedy best-first
/// search with the relaxed plan heuristic `h^mrp`, without helpful actions
/// (ENHSP's `sat-hmrp` sets none, so its search prunes nothing).
/// `h^rmax` is admissible where an action's cost is a constant; where it
/// depends on the state (tpp's `(increase (total-cost) (* (price ?g ?m)
/// ...))`) it is not, and `enhsp-opt-hrmax`'s plans may cost more than
/// `enhsp-opt-blind`'s (ENHSP's own Unified Planning engine refuses such
/// tasks for `opt-hrmax`): its claim of optimality holds on the others.
pub const EXTERNAL_SEARCHES: [ExternalSearch; 16] = [
    fd("fd-astar-blind", "astar(blind())").claiming_optimal(),
    fd("fd-astar-hmax", "astar(hmax())").claiming_optimal(),
    fd("fd-astar-lmcut", "astar(lmcut())").claiming_optimal(),
    fd(
        "fd-astar-lmcut-sss",
        "astar(lmcut(), pruning=atom_centric_stubborn_sets())",
    )
    .claiming_optimal(),
    fd("fd-astar-ipdb", "astar(ipdb())").claiming_optimal(),
    fd("fd-astar-cegar", "astar(cpdbs(patterns=multiple_cegar()))").claiming_optimal(),
    fd(
        "fd-ms",
        "astar(merge_and_shrink(shrink_strategy=shrink_bisimulation(greedy=false), \
         merge_strategy=merge_sccs(order_of_sccs=topological, \
         merge_selector=score_based_filtering(scoring_functions=[goal_relevance(), dfp(), \
         total_order()])), label_reduction=exact(before_shrinking=true, \
         before_merging=false), max_states=50k, threshold_before_merge=1))",
    )
    .claiming_optimal(),
    fd("fd-gbfs-ff", "eager_greedy([ff()])"),
    fd(
        "fd-lazy-ff+lmcount",
        "let(hlm, eval_modify_costs(landmark_sum(lm_factory=lm_zg(), pref=true), cost_type=one), \
         let(hff, ff(), lazy_greedy([hff, hlm], preferred=[hff, hlm], \
         preferred_successors_first=true)))",
    ),
    fd(
        "fd-lama-first",
        "let(hlm, eval_modify_costs(landmark_sum(lm_factory=lm_reasonable_orders_hps(lm_rhw()), \
         pref=false), cost_type=one), let(hff, eval_modify_costs(ff(), cost_type=one), \
         lazy_greedy([hff, hlm], preferred=[hff, hlm], cost_type=one, reopen_closed=false)))",
    ),
    pp("pp-astar-blind", "astar blind").claiming_optimal(),
    pp("pp-astar-hmax", "astar hmax").claiming_optimal(),
    pp("pp-gbfs-ff", "gbf hff"),
    enhsp("enhsp-opt-hrmax", "opt-hrmax").claiming_optimal(),
    enhsp("enhsp-opt-blind", "opt-blind").claiming_optimal(),
    enhsp("enhsp-sat-hmrp", "sat-hmrp"),
];

const fn fd(name: &'static str, search: &'static str) -> ExternalSearch {
    ExternalSearch {
        name,
        planner: ExternalPlanner::FastDownward,
        search,
        optimal: false,
    }
}

const fn pp(name: &'static str, search: &'static str) -> ExternalSearch {
    ExternalSearch {
        name,
        planner: ExternalPlanner::Pyperplan,
        search,
        optimal: false,
    }
}

const fn enhsp(name: &'static str, search: &'static str) -> ExternalSearch {
    ExternalSearch {
        name,
        planner: ExternalPlanner::Enhsp,
        search,
        optimal: false,
    }
}

impl ExternalSearch {
    /// The same search, declared optimal.
    const fn claiming_optimal(self) -> Self {
        Self {
            optimal: true,
            ..self
        }
    }

    /// The peer configuration called `name`.
    ///
    /// ```
    /// use searchlab_lab::external::{ExternalPlanner, ExternalSearch};
    /// let c = ExternalSearch::by_name("fd-astar-lmcut").unwrap();
    /// assert_eq!((c.planner, c.search), (ExternalPlanner::FastDownward, "astar(lmcut())"));
    /// assert!(ExternalSearch::by_name("fd-astar-nothing").is_none());
    /// ```
    pub fn by_name(name: &str) -> Option<Self> {
        EXTERNAL_SEARCHES.into_iter().find(|c| c.name == name)
    }
}

/// Where the peer planners are installed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Peers {
    /// The virtual environment's directory.
    pub dir: PathBuf,
    /// Its Python interpreter and Fast Downward's driver script, if found.
    pub fast_downward: Option<(PathBuf, PathBuf)>,
    /// The `pyperplan` program, if found.
    pub pyperplan: Option<PathBuf>,
    /// The `java` program and ENHSP's jar, if both were found.
    pub enhsp: Option<(PathBuf, PathBuf)>,
    /// ENHSP's jar, if found, whether or not Java was.
    pub enhsp_jar: Option<PathBuf>,
}

impl Peers {
    /// The peers of `$SEARCHLAB_PEERS`, else `.peers`, else `/tmp/peers`
    /// (the first that exists; `.peers` if none does).
    pub fn locate() -> Self {
        if let Some(dir) = std::env::var_os("SEARCHLAB_PEERS") {
            return Self::in_dir(Path::new(&dir));
        }
        let dir = [".peers", "/tmp/peers"]
            .into_iter()
            .map(Path::new)
            .find(|d| d.is_dir())
            .unwrap_or(Path::new(".peers"));
        Self::in_dir(dir)
    }

    /// The peers installed in the virtual environment `dir`. A relative
    /// `dir` is made absolute, since the peers run in a directory of their
    /// own.
    ///
    /// ENHSP is its jar in the `up_enhsp` package and a `java` program:
    /// `dir/bin/java` if there is one (a link picks a Java for the peers
    /// alone), else `$JAVA_HOME/bin/java`, else `java` on the `PATH`.
    ///
    /// ```
    /// let peers = searchlab_lab::external::Peers::in_dir(std::path::Path::new(".peers"));
    /// assert!(peers.dir.is_absolute());
    /// ```
    pub fn in_dir(dir: &Path) -> Self {
        let dir = &std::path::absolute(dir).unwrap_or_else(|_| dir.to_owned());
        let python = dir.join("bin/python");
        let pattern =
            dir.join("lib/python3*/site-packages/up_fast_downward/downward/fast-downward.py");
        let driver = glob::glob(&pattern.to_string_lossy())
            .ok()
            .and_then(|mut paths| paths.find_map(Result::ok));
        let pyperplan = dir.join("bin/pyperplan");
        let jar = dir.join("lib/python3*/site-packages/up_enhsp/ENHSP/enhsp.jar");
        let jar = glob::glob(&jar.to_string_lossy())
            .ok()
            .and_then(|mut paths| paths.find_map(Result::ok));
        let enhsp = jar.as_ref().and_then(|jar| Some((java(dir)?, jar.clone())));
        Self {
            dir: dir.to_owned(),
            fast_downward: driver.filter(|_| python.is_file()).map(|d| (python, d)),
            pyperplan: pyperplan.is_file().then_some(pyperplan),
            enhsp,
            enhsp_jar: jar,
        }
    }

    /// Peers that has none installed (runs of searchlab's own need none).
    pub fn none() -> Self {
        Self {
            dir: PathBuf::new(),
            fast_downward: None,
            pyperplan: None,
            enhsp: None,
            enhsp_jar: None,
        }
    }

    /// Whether `planner` is installed.
    pub fn has(&self, planner: ExternalPlanner) -> bool {
        match planner {
            ExternalPlanner::FastDownward => self.fast_downward.is_some(),
            ExternalPlanner::Pyperplan => self.pyperplan.is_some(),
            ExternalPlanner::Enhsp => self.enhsp.is_some(),
        }
    }

    /// Why `planner` is not available, for a note: not installed in the
    /// environment, or (ENHSP) installed without a Java to run it.
    pub fn why_missing(&self, planner: ExternalPlanner) -> Option<String> {
        if self.has(planner) {
            return None;
        }
        Some(
            if planner == ExternalPlanner::Enhsp && self.enhsp_jar.is_some() {
                "ENHSP needs Java 17 or newer: no `java` in the environment's bin/, $JAVA_HOME/bin or \
             the PATH (Debian: apt-get install openjdk-17-jre-headless)"
                .to_owned()
            } else {
                format!("{} not installed in {}", planner.name(), self.dir.display())
            },
        )
    }
}

/// The `java` program for the peers in `dir` (see [`Peers::in_dir`]).
fn java(dir: &Path) -> Option<PathBuf> {
    let own = dir.join("bin/java");
    if own.is_file() {
        return Some(own);
    }
    let home = std::env::var_os("JAVA_HOME").map(|h| Path::new(&h).join("bin/java"));
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|d| d.join("java"));
    home.into_iter().chain(on_path).find(|p| p.is_file())
}

/// What a peer's run produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExternalRun {
    /// How it ended.
    pub outcome: RunOutcome,
    /// The limit that stopped it (`time`, `memory`, `expansions`).
    pub limit: Option<String>,
    /// The plan's cost as the planner reports it (pyperplan reports none:
    /// the cost of its plan replayed on the task; ENHSP reports its metric's
    /// value, the cost when it is a whole number).
    pub cost: Option<u64>,
    /// The value of the task's metric at the plan's end, as ENHSP reports
    /// it (the number of steps when the task has no metric); `None` for
    /// the other peers.
    pub metric: Option<f64>,
    /// The plan's number of steps.
    pub plan_length: Option<usize>,
    /// Expanded states, as the planner counts them.
    pub expanded: u64,
    /// Expanded states before the last f-layer (Fast Downward's A* only).
    pub expanded_until_last_jump: u64,
    /// Generated states (Fast Downward only).
    pub generated: u64,
    /// Evaluated states (Fast Downward and ENHSP).
    pub evaluated: u64,
    /// Stored (registered) states (Fast Downward only).
    pub stored: u64,
    /// The planner's search time in seconds (its translation excluded;
    /// for ENHSP, its own wall clock's, without the Java start-up).
    pub search_time: f64,
    /// Its translator's wall time in seconds (Fast Downward's translator;
    /// ENHSP's grounding).
    pub translator_time: Option<f64>,
    /// The planner process's wall time in seconds, start-up included.
    pub process_time: f64,
    /// The process's peak memory in bytes (Fast Downward only).
    pub peak_memory: u64,
    /// Its translator's peak memory in bytes (Fast Downward only).
    pub translator_memory: Option<u64>,
    /// `Ok` if the plan replays with the reported cost, else why not.
    pub validation: Option<Result<(), String>>,
    /// For an error: the end of the planner's output.
    pub error: Option<String>,
}

/// Runs `search` on `task` under `limits` in a scratch directory, which is
/// removed afterwards.
///
/// # Errors
/// A message when the scratch directory cannot be made or the planner
/// cannot be started (it is not installed, say).
pub fn run_external(
    search: ExternalSearch,
    peers: &Peers,
    task: &PddlTask,
    limits: RunLimits,
) -> Result<ExternalRun, String> {
    let scratch = Scratch::new()?;
    let domain = scratch.write("domain.pddl", &task.domain)?;
    let problem = scratch.write("problem.pddl", &task.problem)?;
    let (mut command, plan_file) = command(search, peers, &scratch.0, &domain, &problem, limits)?;
    let began = Instant::now();
    let output = command
        .output()
        .map_err(|e| format!("cannot start {}: {e}", search.planner.name()))?;
    let process_time = began.elapsed().as_secs_f64();
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    let code = output.status.code();
    let mut run = match search.planner {
        ExternalPlanner::FastDownward => read_fast_downward(&text, code),
        ExternalPlanner::Pyperplan => read_pyperplan(&text, code),
        ExternalPlanner::Enhsp => read_enhsp(&text, code),
    };
    run.process_time = process_time;
    if run.outcome == RunOutcome::Solved {
        let mut plan = std::fs::read_to_string(&plan_file).unwrap_or_default();
        if search.planner == ExternalPlanner::Enhsp && !plan.contains('(') {
            // ENHSP prints the plan as well as saving it: a plan it could
            // not save is read from its output.
            plan = enhsp_plan(&text);
        }
        run.plan_length = Some(
            plan.lines()
                .filter(|l| l.trim_start().starts_with('('))
                .count(),
        );
        let files = (
            (task.domain_file.as_str(), task.domain.as_str()),
            (task.problem_file.as_str(), task.problem.as_str()),
            (plan_file.display().to_string(), plan.as_str()),
        );
        if search.planner == ExternalPlanner::Enhsp {
            let (domain, problem, (plan_name, plan_text)) = files;
            let replayed = planners::pddl::replay_text(domain, problem, (&plan_name, plan_text));
            enhsp_validation(&mut run, replayed);
        } else {
            replay_validation(&mut run, search.planner, &files);
        }
        if limits.max_expansions.is_some_and(|max| run.expanded > max) {
            run.outcome = RunOutcome::Limit;
            run.limit = Some("expansions".to_owned());
            run.validation = None;
        }
    }
    Ok(run)
}

/// A task's domain, problem and plan as `(file, text)` pairs.
type TaskFiles<'a> = ((&'a str, &'a str), (&'a str, &'a str), (String, &'a str));

/// A Fast Downward or pyperplan plan replayed: valid when searchlab's
/// validator agrees with the cost the planner reported (pyperplan reports
/// none: its cost is the replayed one).
fn replay_validation(run: &mut ExternalRun, planner: ExternalPlanner, files: &TaskFiles<'_>) {
    let replayed = planners::pddl::validate_text(files.0, files.1, (&files.2 .0, files.2 .1));
    if planner == ExternalPlanner::Pyperplan {
        // pyperplan reports no cost: its plan's cost is what the plan
        // costs when replayed (its length on unit-cost tasks).
        run.cost = replayed.as_ref().ok().copied();
    }
    run.validation = match (replayed, run.cost) {
        (Ok(c), Some(cost)) if c == cost => Some(Ok(())),
        (Ok(c), cost) => Some(Err(format!(
            "invalid plan: {} reported cost {cost:?}, replayed cost {c}",
            planner.name()
        ))),
        (Err(e), _) if is_invalid_plan(&e) => Some(Err(format!("invalid plan: {e}"))),
        // searchlab could not read or ground the task to replay the
        // plan (a limit, a construct it lacks): unchecked, not invalid.
        (Err(e), _) => {
            unchecked(run, &e);
            None
        }
    };
}

/// Whether replaying a plan failed because the plan is wrong (a step that
/// is no action or does not apply, a goal not reached), not because the
/// task could not be read or grounded.
fn is_invalid_plan(e: &SolveError) -> bool {
    matches!(
        e,
        SolveError::Pddl(PddlError::Plan { .. })
            | SolveError::Planner(planners::PlanError::Invalid(_))
    )
}

/// Records that a plan could not be replayed, and why: unchecked, not
/// invalid.
fn unchecked(run: &mut ExternalRun, e: &SolveError) {
    let why = format!("plan not replayed: {e}");
    run.error = Some(match run.error.take() {
        Some(earlier) => format!("{why}; {earlier}"),
        None => why,
    });
}

/// ENHSP's plan replayed with searchlab's PDDL 2.1 semantics: the record's
/// cost is the plan's replayed metric value (a whole number; else the value
/// goes to `metric`), so that costs compare across planners. Where ENHSP's
/// own value differs (it leaves `total-time` out of a metric, so
/// zenotravel's reads as the plan's length), the record says so; the plan
/// is not invalid for that.
fn enhsp_validation(run: &mut ExternalRun, replayed: Result<f64, SolveError>) {
    let value = match replayed {
        Ok(value) => value,
        Err(e) if is_invalid_plan(&e) => {
            run.validation = Some(Err(format!("invalid plan: {e}")));
            return;
        }
        Err(e) => {
            unchecked(run, &e);
            return;
        }
    };
    run.validation = Some(Ok(()));
    match run.metric {
        Some(reported) if (reported - value).abs() > 1e-6 * value.abs().max(1.0) => {
            run.error = Some(format!(
                "ENHSP reports metric value {reported}, the plan's replayed value is {value}"
            ));
        }
        // The replay settles the cost that a fractional reported value
        // could not give: the parse's note about it no longer holds.
        Some(_) => run.error = None,
        None => {}
    }
    let whole = value.round();
    if (value - whole).abs() <= 1e-9 * value.abs().max(1.0) && whole >= 0.0 {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a whole number from 0"
        )]
        let cost = whole as u64;
        run.cost = Some(cost);
        run.metric = None;
    } else {
        run.cost = None;
        run.metric = Some(value);
    }
}

/// The command line of `search` and the file its plan is written to.
fn command(
    search: ExternalSearch,
    peers: &Peers,
    dir: &Path,
    domain: &Path,
    problem: &Path,
    limits: RunLimits,
) -> Result<(Command, PathBuf), String> {
    let missing = || {
        format!(
            "{} is not installed in {}",
            search.planner.name(),
            peers.dir.display()
        )
    };
    let seconds = limits.max_time.map(|t| t.as_secs_f64().ceil().max(1.0));
    let mib = limits.max_memory_bytes.map(|b| (b >> 20).max(1));
    // Fast Downward stops itself at the limit; pyperplan and ENHSP have no
    // limit of their own. `timeout` kills the planner's whole process group
    // (Fast Downward runs its translator and search as children).
    let grace = match search.planner {
        ExternalPlanner::FastDownward => 5.0,
        ExternalPlanner::Pyperplan | ExternalPlanner::Enhsp => 0.0,
    };
    let mut command = match seconds {
        Some(s) => {
            let mut c = Command::new("timeout");
            c.arg("--kill-after=5").arg(format!("{}", s + grace));
            c
        }
        None => Command::new("sh"),
    };
    if seconds.is_some() {
        command.arg("sh");
    }
    // `ulimit -v` caps the address space of whatever `exec` starts; ENHSP's
    // cap is its heap's (`-Xmx`).
    let ulimit = mib
        .filter(|_| search.planner != ExternalPlanner::Enhsp)
        .map_or_else(String::new, |m| format!("ulimit -v {}; ", m * 1024));
    command
        .arg("-c")
        .arg(format!("{ulimit}exec \"$0\" \"$@\""))
        .current_dir(dir);
    let plan = match search.planner {
        ExternalPlanner::FastDownward => {
            let (python, driver) = peers.fast_downward.as_ref().ok_or_else(missing)?;
            let plan = dir.join("plan");
            command
                .arg(python)
                .arg(driver)
                .arg("--plan-file")
                .arg(&plan)
                .arg("--sas-file")
                .arg(dir.join("output.sas"));
            if let Some(s) = seconds {
                command.arg("--overall-time-limit").arg(format!("{s}s"));
            }
            if let Some(m) = mib {
                command.arg("--overall-memory-limit").arg(format!("{m}M"));
            }
            command
                .arg(domain)
                .arg(problem)
                .arg("--search")
                .arg(search.search);
            plan
        }
        ExternalPlanner::Pyperplan => {
            let program = peers.pyperplan.as_ref().ok_or_else(missing)?;
            let (algorithm, heuristic) = search
                .search
                .split_once(' ')
                .unwrap_or((search.search, "blind"));
            command
                .arg(program)
                .args(["-s", algorithm, "-H", heuristic])
                .arg(domain)
                .arg(problem);
            let mut plan = problem.as_os_str().to_owned();
            plan.push(".soln");
            PathBuf::from(plan)
        }
        ExternalPlanner::Enhsp => {
            let (java, jar) = peers.enhsp.as_ref().ok_or_else(|| match &peers.enhsp_jar {
                Some(_) => peers
                    .why_missing(ExternalPlanner::Enhsp)
                    .unwrap_or_else(missing),
                None => missing(),
            })?;
            let plan = dir.join("plan");
            command.arg(java);
            if let Some(m) = mib {
                command.arg(format!("-Xmx{m}m"));
            }
            command
                .arg("-jar")
                .arg(jar)
                .arg("-o")
                .arg(domain)
                .arg("-f")
                .arg(problem)
                .args(["-planner", search.search])
                .arg("-sp")
                .arg(&plan);
            plan
        }
    };
    Ok((command, plan))
}

/// `timeout`'s exit codes when it stopped the command.
const TIMED_OUT: [i32; 2] = [124, 137];

/// Reads Fast Downward's output and exit code (its driver's codes: 0 plan
/// found, 10-12 unsolvable, 20-24 out of memory or time).
fn read_fast_downward(text: &str, code: Option<i32>) -> ExternalRun {
    let mut run = ExternalRun {
        expanded: last_value::<u64>(text, "Expanded ", " state").unwrap_or(0),
        expanded_until_last_jump: last_value::<u64>(text, "Expanded until last jump: ", " state")
            .unwrap_or(0),
        generated: last_value::<u64>(text, "Generated ", " state").unwrap_or(0),
        evaluated: last_value::<u64>(text, "Evaluated ", " state").unwrap_or(0),
        stored: last_value::<u64>(text, "Number of registered states: ", "").unwrap_or(0),
        peak_memory: last_value::<u64>(text, "Peak memory: ", " KB").unwrap_or(0) * 1024,
        translator_memory: last_value::<u64>(text, "Translator peak memory: ", " KB")
            .map(|kib| kib * 1024),
        search_time: last_value::<f64>(text, "] Search time: ", "s").unwrap_or(0.0),
        // The translator's last words: `Done! [0.020s CPU, 0.022s wall-clock]`.
        translator_time: text
            .lines()
            .rev()
            .find(|line| line.starts_with("Done! ["))
            .and_then(|line| last_value::<f64>(line, "CPU, ", "s wall-clock")),
        ..ExternalRun::default()
    };
    let limit = |name: &str| (RunOutcome::Limit, Some(name.to_owned()));
    (run.outcome, run.limit) = match code {
        Some(0..=3) if text.contains("Solution found") => {
            run.cost = last_value::<u64>(text, "Plan cost: ", "");
            (RunOutcome::Solved, None)
        }
        // 10 and 11: proved (translator, search); 12: a search that is
        // not complete ran dry.
        Some(10 | 11) => (RunOutcome::Unsolvable, None),
        Some(12) => (RunOutcome::NoPlanFound, None),
        Some(20 | 22 | 24) => limit("memory"),
        Some(21 | 23) => limit("time"),
        // 34: a configuration that does not handle the task (LM-cut or
        // stubborn sets on conditional effects).
        Some(34) => (RunOutcome::Unsupported, None),
        Some(c) if TIMED_OUT.contains(&c) => limit("time"),
        _ => (RunOutcome::Error, None),
    };
    if matches!(run.outcome, RunOutcome::Error | RunOutcome::Unsupported) {
        run.error = Some(error_text("Fast Downward", text, code));
    }
    run
}

/// Reads pyperplan's log and exit code.
fn read_pyperplan(text: &str, code: Option<i32>) -> ExternalRun {
    let mut run = ExternalRun {
        expanded: last_value::<u64>(text, "INFO     ", " Nodes expanded").unwrap_or(0),
        search_time: last_value::<f64>(text, "Search time: ", "").unwrap_or(0.0),
        ..ExternalRun::default()
    };
    (run.outcome, run.limit) = match code {
        Some(c) if TIMED_OUT.contains(&c) => (RunOutcome::Limit, Some("time".to_owned())),
        _ if text.contains("MemoryError") => (RunOutcome::Limit, Some("memory".to_owned())),
        Some(0) if text.contains("Plan length: ") => (RunOutcome::Solved, None),
        Some(0) if text.contains("No solution could be found") => (RunOutcome::Unsolvable, None),
        _ => (RunOutcome::Error, None),
    };
    if run.outcome == RunOutcome::Error {
        run.error = Some(error_text("pyperplan", text, code));
    }
    run
}

/// Reads ENHSP's output and exit code.
///
/// ENHSP exits with 0 whatever happened: a task it cannot parse or ground
/// prints `Grammar is violated` or a Java exception and then `Unsolvable
/// Problem`, which is therefore no proof. Only its search's own verdict,
/// `Problem unsolvable`, is one (its presets prune nothing a relaxation
/// does not prove a dead end).
fn read_enhsp(text: &str, code: Option<i32>) -> ExternalRun {
    let millis = |label: &str| last_value::<f64>(text, label, "").map(|ms| ms / 1000.0);
    let mut run = ExternalRun {
        // The last count: the closing statistics, or for a run stopped at
        // a limit its last progress line.
        expanded: last_number_after(text, "Expanded Nodes:").unwrap_or(0),
        evaluated: last_value::<u64>(text, "States Evaluated:", "")
            .or_else(|| last_number_after(text, "Evaluated States:"))
            .unwrap_or(0),
        search_time: millis("Search Time (msec):").unwrap_or(0.0),
        translator_time: millis("Grounding Time:"),
        ..ExternalRun::default()
    };
    let failed = syntax_error(text)
        || text.lines().any(|l| {
            let l = l.trim_start();
            (l.starts_with("java.") || l.starts_with("Exception in thread"))
                && !l.starts_with("java.lang.OutOfMemoryError")
        });
    let limit = |name: &str| (RunOutcome::Limit, Some(name.to_owned()));
    (run.outcome, run.limit) = match code {
        Some(c) if TIMED_OUT.contains(&c) => limit("time"),
        _ if text.contains("java.lang.OutOfMemoryError") => limit("memory"),
        Some(0) if !failed && text.contains("Problem Solved") && text.contains("Found Plan:") => {
            run.metric = last_value::<f64>(text, "Metric (Search):", "");
            (RunOutcome::Solved, None)
        }
        Some(0) if !failed && text.lines().any(|l| l.trim() == "Problem unsolvable") => {
            (RunOutcome::Unsolvable, None)
        }
        _ => (RunOutcome::Error, None),
    };
    if run.outcome == RunOutcome::Solved {
        match run.metric {
            Some(m) if m >= 0.0 && m.fract() == 0.0 && m < 2f64.powi(53) => {
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "a whole number in u64's range, checked above"
                )]
                let cost = m as u64;
                run.cost = Some(cost);
            }
            Some(m) => {
                run.error = Some(format!(
                    "ENHSP's plan has metric value {m}, not a whole number: \
                     the record's cost is left empty"
                ));
            }
            None => run.error = Some("ENHSP reported no metric value".to_owned()),
        }
    }
    if run.outcome == RunOutcome::Error {
        run.error = Some(enhsp_error(text, code));
    }
    run
}

/// Why ENHSP failed: its parser's first complaint, or the exception it
/// threw, else the end of its output.
fn enhsp_error(text: &str, code: Option<i32>) -> String {
    let parse = text
        .lines()
        .find(|l| l.starts_with("line ") && l.contains(':'))
        .filter(|_| syntax_error(text));
    let exception = text.lines().map(str::trim).find(|l| {
        (l.starts_with("java.") || l.starts_with("Exception in thread")) && l.contains(':')
    });
    match parse.or(exception) {
        Some(why) => format!("ENHSP failed: {why}"),
        None => error_text("ENHSP", text, code),
    }
}

/// Whether ENHSP's parser refused the task (it goes on after `Grammar is
/// violated`, and stops after `Some Syntax Error`).
fn syntax_error(text: &str) -> bool {
    text.contains("Grammar is violated") || text.contains("Some Syntax Error")
}

/// The plan ENHSP printed after `Found Plan:` (lines `0.0: (action args)`),
/// as an IPC plan file's text.
fn enhsp_plan(text: &str) -> String {
    text.lines()
        .skip_while(|l| !l.starts_with("Found Plan:"))
        .skip(1)
        .take_while(|l| !l.starts_with("Plan-Length:"))
        .filter_map(|l| l.find('(').map(|at| format!("{}\n", l[at..].trim_end())))
        .collect()
}

/// The whole number right after the last `label` in `text`.
fn last_number_after(text: &str, label: &str) -> Option<u64> {
    text.rmatch_indices(label).find_map(|(at, _)| {
        let rest = text[at + label.len()..].trim_start();
        let end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        rest[..end].parse().ok()
    })
}

fn error_text(planner: &str, text: &str, code: Option<i32>) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let tail = lines[lines.len().saturating_sub(3)..].join(" | ");
    let mut message = format!("{planner} failed");
    if let Some(c) = code {
        let _ = write!(message, " with exit code {c}");
    }
    let _ = write!(message, ": {tail}");
    message
}

/// The value between `before` and `after` (`after` empty: the end of the
/// line) on the last line where that text parses as a `T`.
fn last_value<T: std::str::FromStr>(text: &str, before: &str, after: &str) -> Option<T> {
    text.lines().rev().find_map(|line| {
        let start = line.find(before)? + before.len();
        let rest = &line[start..];
        let end = if after.is_empty() {
            rest.len()
        } else {
            rest.find(after)?
        };
        rest[..end].trim().parse().ok()
    })
}

/// A scratch directory of one run, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Self, String> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "searchlab-peer-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot make the scratch directory {}: {e}", dir.display()))?;
        Ok(Self(dir))
    }

    fn write(&self, name: &str, text: &str) -> Result<PathBuf, String> {
        let path = self.0.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The end of Fast Downward 26.6's translator and search output on
    /// blocks task04 with `astar(blind())`.
    const FD_SOLVED: &str = "\
Translator peak memory: 27316 KB
Writing output... [0.000s CPU, 0.001s wall-clock]
Done! [0.020s CPU, 0.022s wall-clock]
translate exit code: 0
[t=0.003958s, 10544 KB] f = 12, 586 evaluated, 459 expanded
[t=0.003958s, 10544 KB] Solution found!
[t=0.003958s, 10544 KB] Actual search time: 0.000000s
[t=0.003958s, 10544 KB] Plan length: 12 step(s).
[t=0.003958s, 10544 KB] Plan cost: 12
[t=0.003958s, 10544 KB] Expanded 467 state(s).
[t=0.003958s, 10544 KB] Reopened 0 state(s).
[t=0.003958s, 10544 KB] Evaluated 594 state(s).
[t=0.003958s, 10544 KB] Generated 1305 state(s).
[t=0.003958s, 10544 KB] Expanded until last jump: 459 state(s).
[t=0.003958s, 10544 KB] Number of registered states: 594
[t=0.003958s, 10544 KB] Search time: 0.003958s
[t=0.003958s, 10544 KB] Total time: 0.003958s
Solution found.
Peak memory: 10544 KB
search exit code: 0
";

    #[test]
    fn fast_downward_solved() {
        let run = read_fast_downward(FD_SOLVED, Some(0));
        assert_eq!(run.outcome, RunOutcome::Solved);
        assert_eq!(run.cost, Some(12));
        assert_eq!(
            (run.expanded, run.evaluated, run.generated),
            (467, 594, 1305)
        );
        assert_eq!((run.stored, run.expanded_until_last_jump), (594, 459));
        assert!((run.search_time - 0.003_958).abs() < 1e-9);
        assert_eq!(run.translator_time, Some(0.022));
        assert_eq!(run.translator_memory, Some(27316 * 1024));
        assert_eq!(run.peak_memory, 10544 * 1024);
    }

    #[test]
    fn fast_downward_limits_and_failures() {
        let time = "[t=1.6s, 61192 KB] f = 13, 877318 evaluated, 343323 expanded\n\
            Peak memory: 61192 KB\ncaught signal 24 -- exiting\nTime limit has been reached.\n";
        let run = read_fast_downward(time, Some(23));
        assert_eq!(
            (run.outcome, run.limit.as_deref()),
            (RunOutcome::Limit, Some("time"))
        );
        let run = read_fast_downward("Memory limit has been reached.\n", Some(22));
        assert_eq!(run.limit.as_deref(), Some("memory"));
        assert_eq!(
            read_fast_downward("", Some(124)).limit.as_deref(),
            Some("time")
        );
        let exhausted = "Completely explored state space -- no solution!\n";
        let run = read_fast_downward(exhausted, Some(11));
        assert_eq!(run.outcome, RunOutcome::Unsolvable);
        // An incomplete search's dry run proves nothing.
        let run = read_fast_downward(exhausted, Some(12));
        assert_eq!(run.outcome, RunOutcome::NoPlanFound);
        let run = read_fast_downward("translate: error\nTraceback\nValueError: x\n", Some(1));
        assert_eq!(run.outcome, RunOutcome::Error);
        assert!(run
            .error
            .unwrap()
            .contains("exit code 1: translate: error | Traceback | ValueError: x"));
        // 34: the configuration does not handle the task, and says so.
        let refused = "This configuration does not support conditional effects \
            (operator destroy_road a b)!\nTerminating.\nTried to use unsupported feature.\n";
        let run = read_fast_downward(refused, Some(34));
        assert_eq!(run.outcome, RunOutcome::Unsupported);
        assert!(run
            .error
            .unwrap()
            .contains("does not support conditional effects"));
    }

    #[test]
    fn pyperplan_outcomes() {
        let solved = "2026-12-02 19:48:03,572 INFO     16 Nodes expanded\n\
            2026-12-02 19:48:03,572 INFO     Search time: 0.0072\n\
            2026-12-02 19:48:03,572 INFO     Plan length: 12\n";
        let run = read_pyperplan(solved, Some(0));
        assert_eq!(run.outcome, RunOutcome::Solved);
        assert_eq!(run.expanded, 16);
        assert!((run.search_time - 0.0072).abs() < 1e-9);
        let unsolvable = "INFO     5 Nodes expanded\nINFO     Search time: 0.00026\n\
            WARNING  No solution could be found\n";
        assert_eq!(
            read_pyperplan(unsolvable, Some(0)).outcome,
            RunOutcome::Unsolvable
        );
        assert_eq!(read_pyperplan("", Some(124)).limit.as_deref(), Some("time"));
        assert_eq!(
            read_pyperplan("MemoryError\n", Some(1)).limit.as_deref(),
            Some("memory")
        );
        assert_eq!(read_pyperplan("boom\n", Some(2)).outcome, RunOutcome::Error);
    }

    /// ENHSP's output, captured (`tests/fixtures/enhsp/README.md` says how).
    fn enhsp_output(name: &str) -> &'static str {
        match name {
            "opt-hrmax-solved" => include_str!("../tests/fixtures/enhsp/opt-hrmax-solved.txt"),
            "sat-hmrp-solved" => include_str!("../tests/fixtures/enhsp/sat-hmrp-solved.txt"),
            "opt-hrmax-timeout" => include_str!("../tests/fixtures/enhsp/opt-hrmax-timeout.txt"),
            "opt-hrmax-unsolvable" => {
                include_str!("../tests/fixtures/enhsp/opt-hrmax-unsolvable.txt")
            }
            "grammar-violated" => include_str!("../tests/fixtures/enhsp/grammar-violated.txt"),
            "syntax-error" => include_str!("../tests/fixtures/enhsp/syntax-error.txt"),
            "out-of-memory" => include_str!("../tests/fixtures/enhsp/out-of-memory.txt"),
            _ => unreachable!("no fixture {name}"),
        }
    }

    #[test]
    fn enhsp_solved() {
        let run = read_enhsp(enhsp_output("opt-hrmax-solved"), Some(0));
        assert_eq!(run.outcome, RunOutcome::Solved);
        assert_eq!((run.cost, run.metric), (Some(12), Some(12.0)));
        assert_eq!((run.expanded, run.evaluated), (317, 779));
        assert!((run.search_time - 0.059).abs() < 1e-9);
        assert_eq!(run.translator_time, Some(0.008));
        assert_eq!(run.error, None);

        let run = read_enhsp(enhsp_output("sat-hmrp-solved"), Some(0));
        assert_eq!(run.outcome, RunOutcome::Solved);
        assert_eq!((run.cost, run.expanded, run.evaluated), (Some(12), 13, 79));
        assert!((run.search_time - 0.110).abs() < 1e-9);
    }

    #[test]
    fn enhsp_plan_from_its_output() {
        let plan = enhsp_plan(enhsp_output("opt-hrmax-solved"));
        assert_eq!(plan.lines().count(), 12);
        assert!(plan.starts_with("(increment c3)\n(decrement c0)\n"));
        assert!(plan.ends_with("(increment c2)\n"));
        assert_eq!(enhsp_plan(enhsp_output("opt-hrmax-timeout")), "");
    }

    #[test]
    fn enhsp_limits() {
        // Killed by `timeout`: the last progress line's counts.
        let run = read_enhsp(enhsp_output("opt-hrmax-timeout"), Some(124));
        assert_eq!(
            (run.outcome, run.limit.as_deref()),
            (RunOutcome::Limit, Some("time"))
        );
        assert_eq!((run.expanded, run.evaluated), (180_676, 871_053));
        assert_eq!(run.cost, None);
        let run = read_enhsp(enhsp_output("out-of-memory"), Some(1));
        assert_eq!(
            (run.outcome, run.limit.as_deref()),
            (RunOutcome::Limit, Some("memory"))
        );
        assert_eq!(run.error, None);
    }

    #[test]
    fn enhsp_unsolvable_and_failures() {
        let run = read_enhsp(enhsp_output("opt-hrmax-unsolvable"), Some(0));
        assert_eq!(run.outcome, RunOutcome::Unsolvable);
        assert_eq!((run.cost, run.expanded), (None, 3));
        // A task ENHSP cannot parse ends in `Unsolvable Problem` with exit
        // code 0: an error, not a proof.
        let run = read_enhsp(enhsp_output("grammar-violated"), Some(0));
        assert_eq!(run.outcome, RunOutcome::Error);
        let error = run.error.unwrap();
        assert_eq!(
            error,
            "ENHSP failed: line 1:52 no viable alternative at input ':goal'"
        );
        let run = read_enhsp(enhsp_output("syntax-error"), Some(255));
        assert_eq!(run.outcome, RunOutcome::Error);
        assert!(run
            .error
            .unwrap()
            .contains("line 16:25 mismatched input '-'"));
        // A crash without a parser's word: the exception.
        let crash = "Problem parsed\nException in thread \"main\" java.lang.IllegalStateException: x\n\tat main.main(main.java:31)\n";
        let run = read_enhsp(crash, Some(1));
        assert_eq!(run.outcome, RunOutcome::Error);
        assert!(run.error.unwrap().contains("IllegalStateException: x"));
        assert_eq!(read_enhsp("", None).outcome, RunOutcome::Error);
        assert!(read_enhsp("boom\n", Some(2))
            .error
            .unwrap()
            .contains("exit code 2: boom"));
    }

    #[test]
    fn enhsp_metric_values_that_are_not_costs() {
        let text = enhsp_output("opt-hrmax-solved")
            .replace("Metric (Search):12.0", "Metric (Search):12.5");
        let run = read_enhsp(&text, Some(0));
        assert_eq!((run.outcome, run.cost), (RunOutcome::Solved, None));
        assert_eq!(run.metric, Some(12.5));
        assert!(run.error.unwrap().contains("not a whole number"));
    }

    #[test]
    fn a_replayed_fractional_metric_is_the_record_without_an_error() {
        let text = enhsp_output("opt-hrmax-solved")
            .replace("Metric (Search):12.0", "Metric (Search):12.5");
        let mut run = read_enhsp(&text, Some(0));
        assert!(run.error.is_some());
        enhsp_validation(&mut run, Ok(12.5));
        assert_eq!((run.cost, run.metric, run.error), (None, Some(12.5), None));
        // A replay that disagrees still says so.
        let mut run = read_enhsp(&text, Some(0));
        enhsp_validation(&mut run, Ok(13.0));
        assert_eq!((run.cost, run.metric), (Some(13), None));
        assert!(run.error.unwrap().contains("replayed value is 13"));
    }

    #[test]
    fn enhsp_configurations() {
        let names: Vec<&str> = EXTERNAL_SEARCHES
            .iter()
            .filter(|s| s.planner == ExternalPlanner::Enhsp)
            .map(|s| s.name)
            .collect();
        assert_eq!(
            names,
            ["enhsp-opt-hrmax", "enhsp-opt-blind", "enhsp-sat-hmrp"]
        );
        let opt = ExternalSearch::by_name("enhsp-opt-hrmax").unwrap();
        assert_eq!((opt.search, opt.optimal), ("opt-hrmax", true));
        assert!(ExternalSearch::by_name("enhsp-opt-blind").unwrap().optimal);
        assert!(!ExternalSearch::by_name("enhsp-sat-hmrp").unwrap().optimal);
    }

    #[test]
    fn enhsp_command_line() {
        let peers = Peers {
            enhsp: Some(("/usr/bin/java".into(), "/peers/enhsp.jar".into())),
            ..Peers::none()
        };
        let limits = RunLimits {
            max_time: Some(std::time::Duration::from_secs(60)),
            max_memory_bytes: Some(2 << 30),
            ..RunLimits::default()
        };
        let dir = Path::new("/scratch");
        let (command, plan) = command(
            ExternalSearch::by_name("enhsp-sat-hmrp").unwrap(),
            &peers,
            dir,
            &dir.join("domain.pddl"),
            &dir.join("problem.pddl"),
            limits,
        )
        .unwrap();
        let args: Vec<String> = command
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(command.get_program(), "timeout");
        assert_eq!(
            args,
            [
                "--kill-after=5",
                "60",
                "sh",
                "-c",
                "exec \"$0\" \"$@\"",
                "/usr/bin/java",
                "-Xmx2048m",
                "-jar",
                "/peers/enhsp.jar",
                "-o",
                "/scratch/domain.pddl",
                "-f",
                "/scratch/problem.pddl",
                "-planner",
                "sat-hmrp",
                "-sp",
                "/scratch/plan",
            ]
        );
        assert_eq!(plan, dir.join("plan"));
        let error = command_error(&Peers::none());
        assert!(error.contains("ENHSP is not installed"), "{error}");
        let error = command_error(&Peers {
            enhsp_jar: Some("/peers/enhsp.jar".into()),
            ..Peers::none()
        });
        assert!(error.contains("openjdk-17-jre-headless"), "{error}");
    }

    fn command_error(peers: &Peers) -> String {
        let dir = Path::new("/scratch");
        let search = ExternalSearch::by_name("enhsp-opt-blind").unwrap();
        command(search, peers, dir, dir, dir, RunLimits::default()).unwrap_err()
    }
}
