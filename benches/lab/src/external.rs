//! Fast Downward and pyperplan as suite configurations.
//!
//! A peer configuration (`fd-astar-blind`, `pp-gbfs-ff` ...) runs its
//! planner as a subprocess on the PDDL task's two files, under the run's
//! limits, reads the plan's cost, the expansions and the search time from
//! the planner's output, and replays the plan it wrote with searchlab's own
//! validator ([`planners::pddl::validate_text`]).
//!
//! Limits: the time limit is the planner's (`--overall-time-limit` for Fast
//! Downward; none for pyperplan), backed by `timeout`, which kills the whole
//! process group a few seconds later. The memory limit caps the process's
//! address space (`--overall-memory-limit`; `ulimit -v` for pyperplan), where
//! searchlab's caps its estimate of the search's own memory. Neither peer
//! takes an expansion limit, so a solved run that expanded more than the
//! limit is recorded as having reached it: coverage then compares like with
//! like.
//!
//! The planners are found in a Python virtual environment made by
//! `scripts/install-peers.sh`: `$SEARCHLAB_PEERS` if set, else `.peers` in
//! the working directory, else `/tmp/peers`. Configurations whose planner is
//! not installed are dropped from a suite with a one-line note
//! ([`crate::suite::Suite::retain_available`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

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
}

impl ExternalPlanner {
    /// The planner's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            ExternalPlanner::FastDownward => "Fast Downward",
            ExternalPlanner::Pyperplan => "pyperplan",
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
    /// Fast Downward's `--search` argument, or pyperplan's `-s` and `-H`
    /// arguments separated by a space.
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
pub const EXTERNAL_SEARCHES: [ExternalSearch; 9] = [
    fd("fd-astar-blind", "astar(blind())").claiming_optimal(),
    fd("fd-astar-hmax", "astar(hmax())").claiming_optimal(),
    fd("fd-astar-lmcut", "astar(lmcut())").claiming_optimal(),
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
        Self {
            dir: dir.to_owned(),
            fast_downward: driver.filter(|_| python.is_file()).map(|d| (python, d)),
            pyperplan: pyperplan.is_file().then_some(pyperplan),
        }
    }

    /// Whether `planner` is installed.
    pub fn has(&self, planner: ExternalPlanner) -> bool {
        match planner {
            ExternalPlanner::FastDownward => self.fast_downward.is_some(),
            ExternalPlanner::Pyperplan => self.pyperplan.is_some(),
        }
    }
}

/// What a peer's run produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExternalRun {
    /// How it ended.
    pub outcome: RunOutcome,
    /// The limit that stopped it (`time`, `memory`, `expansions`).
    pub limit: Option<String>,
    /// The plan's cost as the planner reports it (pyperplan reports none:
    /// the cost of its plan replayed on the task).
    pub cost: Option<u64>,
    /// The plan's number of steps.
    pub plan_length: Option<usize>,
    /// Expanded states, as the planner counts them.
    pub expanded: u64,
    /// Expanded states before the last f-layer (Fast Downward's A* only).
    pub expanded_until_last_jump: u64,
    /// Generated states (Fast Downward only).
    pub generated: u64,
    /// Evaluated states (Fast Downward only).
    pub evaluated: u64,
    /// Stored (registered) states (Fast Downward only).
    pub stored: u64,
    /// The planner's search time in seconds (its translation excluded).
    pub search_time: f64,
    /// Its translator's wall time in seconds (Fast Downward only).
    pub translator_time: Option<f64>,
    /// The process's peak memory in bytes (Fast Downward only).
    pub peak_memory: u64,
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
    let output = command
        .output()
        .map_err(|e| format!("cannot start {}: {e}", search.planner.name()))?;
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    let code = output.status.code();
    let mut run = match search.planner {
        ExternalPlanner::FastDownward => read_fast_downward(&text, code),
        ExternalPlanner::Pyperplan => read_pyperplan(&text, code),
    };
    if run.outcome == RunOutcome::Solved {
        let plan = std::fs::read_to_string(&plan_file).unwrap_or_default();
        run.plan_length = Some(
            plan.lines()
                .filter(|l| l.trim_start().starts_with('('))
                .count(),
        );
        let replayed = planners::pddl::validate_text(
            (&task.domain_file, &task.domain),
            (&task.problem_file, &task.problem),
            (&plan_file.display().to_string(), &plan),
        );
        if search.planner == ExternalPlanner::Pyperplan {
            // pyperplan reports no cost: its plan's cost is what the plan
            // costs when replayed (its length on unit-cost tasks).
            run.cost = replayed.as_ref().ok().copied();
        }
        run.validation = match (replayed, run.cost) {
            (Ok(c), Some(cost)) if c == cost => Some(Ok(())),
            (Ok(c), cost) => Some(Err(format!(
                "invalid plan: {} reported cost {cost:?}, replayed cost {c}",
                search.planner.name()
            ))),
            (
                Err(
                    e @ (SolveError::Pddl(PddlError::Plan { .. })
                    | SolveError::Planner(planners::PlanError::Invalid(_))),
                ),
                _,
            ) => Some(Err(format!("invalid plan: {e}"))),
            // searchlab could not read or ground the task to replay the
            // plan (a limit, a construct it lacks): unchecked, not invalid.
            (Err(e), _) => {
                run.error = Some(format!("plan not replayed: {e}"));
                None
            }
        };
        if limits.max_expansions.is_some_and(|max| run.expanded > max) {
            run.outcome = RunOutcome::Limit;
            run.limit = Some("expansions".to_owned());
            run.validation = None;
        }
    }
    Ok(run)
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
    // Fast Downward stops itself at the limit; pyperplan has no limit of
    // its own. `timeout` kills the planner's whole process group (Fast
    // Downward runs its translator and search as children).
    let grace = match search.planner {
        ExternalPlanner::FastDownward => 5.0,
        ExternalPlanner::Pyperplan => 0.0,
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
    // `ulimit -v` caps the address space of whatever `exec` starts.
    let ulimit = mib.map_or_else(String::new, |m| format!("ulimit -v {}; ", m * 1024));
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
        Some(c) if TIMED_OUT.contains(&c) => limit("time"),
        _ => (RunOutcome::Error, None),
    };
    if run.outcome == RunOutcome::Error {
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
}
