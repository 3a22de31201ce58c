//! The `searchlab` command line, whole, as a library: [`Lab`].
//!
//! - `searchlab` runs the built-in default suite and prints the coverage and
//!   forward-against-regression tables.
//! - `searchlab bench [suite.toml] [--jobs N] [--shard K/N] [--out DIR
//!   [--resume|--overwrite]] [--compare A B]` runs a suite and writes
//!   results and reports. Each finished run is appended to
//!   `DIR/results.jsonl` at once, so an interruption loses no finished run,
//!   and `--resume` completes the experiment; the reports are made from that
//!   file alone, as `report` makes them.
//! - `searchlab bench SUITE --slurm DIR [--shards N] [--submit]` writes
//!   the suite as a Slurm array job (one task per shard) and its merge.
//! - `searchlab merge parts... --out merged.jsonl [--prefer first|last]`
//!   joins shard results.
//! - `searchlab report results.jsonl --out report/` writes the Markdown
//!   and HTML reports, the Lab properties and the SVG plots, scoring
//!   against the limits the records carry.
//! - `searchlab heuristics [--markdown]` lists the heuristics, built-in
//!   and the program's own ([`Lab::heuristic`]).
//! - `searchlab plan problem.toml` solves one problem file;
//!   `searchlab plan domain.pddl problem.pddl [--plan-file F]` one PDDL
//!   task, writing the plan in the IPC format.
//!
//! `plan` and `bench` share the limit flags (`--max-time`,
//! `--max-expansions`, `--max-memory-mb`); `plan` defaults to 60 s and
//! 512 MiB per search, so that a search that never ends cannot take the
//! machine down.

use std::collections::HashSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::defaults::safety_limits;
use crate::external::Peers;
use crate::output::{write_outputs, OutputOptions};
use crate::plan::{
    plan_file_traced, plan_pddl_traced, PlanRequest, Planned, TraceFormat, EXIT_INPUT_ERROR,
};
use crate::record::{merge, read_jsonl, write_file, write_jsonl, Prefer, ResumeKey, RunRecord};
use crate::report::{Report, ScoreBounds};
use crate::results::{Existing, ResultsFile, ResultsLock};
use crate::runner::{
    planned_record, run_suite, run_suite_with, worker_threads, RunOptions, Shard, MAX_JOBS_PER_CORE,
};
use crate::suite::{
    mebibytes, time_limit, Configuration, RunLimits, RunSpec, Source, Suite, SuiteProblem,
};
use crate::SuiteError;
use clap::{Parser, Subcommand};
use planners::heuristics::{NamedHeuristic, Registry, Representation};
use planners::Direction;
use search_core::Algorithm;

/// Compare search strategies over suites of planning problems, or solve one.
///
/// With no command, runs the built-in default suite and prints the coverage
/// and forward-against-regression tables.
#[derive(Debug, Parser)]
#[command(name = "searchlab", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run a suite (the built-in default suite if no file is given).
    Bench(BenchArgs),
    /// Run one isolated run: read it as JSON on standard input, write its
    /// record as JSON on standard output (what `bench` starts as a child).
    #[command(hide = true)]
    RunOne,
    /// Join result files (JSON lines, e.g. the shards of one suite).
    ///
    /// A run found twice is kept once; if its records differ, --prefer says
    /// which to keep (without it, that is an error).
    Merge {
        /// The result files.
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        /// The merged file to write (a new path or a regular file).
        #[arg(long, short)]
        out: PathBuf,
        /// Which of two different records of one run to keep: the one from
        /// the file given first or last.
        #[arg(long, value_enum)]
        prefer: Option<Prefer>,
    },
    /// Write the Markdown and HTML reports, Lab properties and SVG plots
    /// of a result file; with --check, cross-check its answers.
    ///
    /// Exit codes: 0 done (and with --check, no disagreement and no
    /// invalid plan), 1 --check failed, 2 input error.
    Report(ReportArgs),
    /// List the heuristics: built-in and the program's own, with the
    /// representations and directions each serves and whether it is
    /// admissible and consistent.
    Heuristics {
        /// Print the Markdown table of the docs instead.
        #[arg(long)]
        markdown: bool,
    },
    /// Solve one problem file and print the plan and statistics.
    ///
    /// Exit codes: 0 solved, 1 invalid plan (a bug), 2 input error,
    /// 3 unsolvable (proved), 4 limit reached, 5 no plan found (the search
    /// left out states a heuristic called dead ends without proof).
    Plan(PlanArgs),
}

#[derive(Debug, Default, clap::Args)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "each is a flag of the command line"
)]
pub(crate) struct BenchArgs {
    /// A suite file (TOML); the built-in default suite if left out.
    pub(crate) suite: Option<PathBuf>,
    /// Worker threads (default: every core); at most one per run and 4 per
    /// core start.
    #[arg(long, short)]
    pub(crate) jobs: Option<usize>,
    /// Run only the K-th of N disjoint slices of the runs (for job arrays).
    #[arg(long, value_name = "K/N")]
    pub(crate) shard: Option<Shard>,
    /// Write results (JSON lines, CSV), Lab properties, the Markdown and
    /// HTML reports and SVG plots into this directory. Each run's record is
    /// appended to results.jsonl (results-K-of-N.jsonl for a shard) as soon
    /// as it ends; the rest is made from that file at the end. The directory
    /// must be empty (for a shard: hold no results of its own) unless
    /// --resume or --overwrite is given; it is created, checked and locked
    /// (results.lock, holding this process's id) before the first run, so
    /// that a second bench on it fails at once. Files are written only
    /// where nothing is or a regular file is.
    #[arg(long, short, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// Complete the experiment in --out DIR after an interruption: runs
    /// recorded there with the same configuration, problem, limits and
    /// searchlab revision are not run again; other records move to
    /// results.superseded.jsonl (results-K-of-N.superseded.jsonl for a
    /// shard).
    #[arg(long, requires = "out", conflicts_with = "overwrite")]
    pub(crate) resume: bool,
    /// Start the results in --out DIR again, replacing the files bench
    /// writes (others stay).
    #[arg(long, requires = "out")]
    pub(crate) overwrite: bool,
    /// Compare configuration B with A instance by instance (repeatable).
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    pub(crate) compare: Vec<String>,
    /// No progress bar.
    #[arg(long)]
    pub(crate) no_progress: bool,
    /// Build the suite from PDDL domain directories (`domain.pddl` and the
    /// tasks beside it) or task files, instead of a suite file.
    #[arg(long, num_args = 1.., value_name = "DIR|TASK", conflicts_with = "suite")]
    pub(crate) pddl: Vec<PathBuf>,
    /// The configurations of a `--pddl` suite, by name (comma-separated:
    /// fwd-astar-hmax, reg-gbfs-ff, fd-astar-lmcut, pp-astar-blind ...).
    #[arg(long, value_delimiter = ',', requires = "pddl")]
    pub(crate) configs: Vec<String>,
    #[command(flatten)]
    pub(crate) limits: LimitArgs,
    /// Run every run in this process. By default each searchlab run on a
    /// PDDL task, and each run with a time or memory limit beyond 60 s or
    /// 512 MiB, is a child process under operating-system memory and time
    /// limits, so that one run cannot take the suite down.
    #[arg(long)]
    pub(crate) in_process: bool,
    #[command(flatten)]
    pub(crate) slurm: crate::slurm_cli::SlurmArgs,
}

/// The limits of each search, shared by `plan` and `bench` so that they
/// cannot drift apart. With `bench` a limit given here replaces the
/// suite's and its configurations' own.
#[derive(Debug, Default, clap::Args)]
#[expect(clippy::struct_field_names, reason = "the names are the flags")]
pub(crate) struct LimitArgs {
    /// Time limit per search in seconds, at most a year (default 60; with
    /// `bench`, the suite's, which defaults to 60).
    #[arg(long, value_name = "SECONDS", value_parser = parse_time_limit)]
    pub(crate) max_time: Option<Duration>,
    /// Expansion limit per search (default none; with `bench`, the
    /// suite's: 100,000 in the built-in suite).
    #[arg(long, value_name = "N")]
    pub(crate) max_expansions: Option<u64>,
    /// Memory limit per search in MiB, on the estimate of what it holds: its
    /// nodes, open list and heuristic's tables, and for PDDL the grounded
    /// and atomic tasks (grounding stops at it too) (default 512; with
    /// `bench`, the suite's: 512, or 2048 for `--pddl`).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) max_memory_mb: Option<u64>,
}

impl LimitArgs {
    /// The limits given, each of `base`'s where none is.
    fn over(&self, base: RunLimits) -> RunLimits {
        RunLimits {
            max_expansions: self.max_expansions,
            max_time: self.max_time,
            max_memory_bytes: self.max_memory_mb.map(mebibytes),
        }
        .or(base)
    }
}

fn parse_time_limit(s: &str) -> Result<Duration, String> {
    let seconds: f64 = s.parse().map_err(|e| format!("{e}"))?;
    time_limit(seconds)
}

#[derive(Debug, clap::Args)]
struct ReportArgs {
    /// The results (JSON lines).
    results: PathBuf,
    /// The directory to write into (optional with --check).
    #[arg(long, short, required_unless_present = "check")]
    out: Option<PathBuf>,
    /// Cross-check the answers and exit with code 1 if any contradict each
    /// other or a plan is invalid: two configurations that claim optimal
    /// costs (A* with an admissible heuristic, Dijkstra: fwd-astar-lmcut,
    /// fd-astar-lmcut ...) with different costs, a claimed optimum above
    /// another valid plan's cost, or `unsolvable` where another
    /// configuration found a valid plan.
    #[arg(long)]
    check: bool,
    /// Compare configuration B with A instance by instance (repeatable).
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    compare: Vec<String>,
    /// The runs' time limit in seconds, for the time score (default: the
    /// largest the records carry, else 60).
    #[arg(long, value_name = "SECONDS", value_parser = parse_time_limit)]
    time_limit: Option<Duration>,
    /// The runs' memory limit in MiB, for the memory score (default: the
    /// largest the records carry, else 512).
    #[arg(long, value_name = "MIB")]
    memory_limit: Option<u64>,
}

#[derive(Debug, clap::Args)]
struct PlanArgs {
    /// The problem file (TOML), or a PDDL domain file and problem file.
    #[arg(required = true, num_args = 1..=2, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// For PDDL: write the plan (IPC format) here instead of standard
    /// output: a new path or a regular file, emptied before planning (no
    /// stale plan stays); anything else (a pipe, a device, a directory) is
    /// refused, never replaced.
    #[arg(long, value_name = "FILE")]
    plan_file: Option<PathBuf>,
    /// forward, regression or portfolio.
    #[arg(long, short, default_value = "forward")]
    direction: Direction,
    /// astar, wastar:W (W >= 1), gbfs, dijkstra, bfs, rwastar (restarting
    /// weighted A*, anytime) or lazygbfs.
    #[arg(long, short, default_value = "astar", value_parser = parse_algorithm)]
    algorithm: Algorithm,
    /// Anytime search: restarting weighted A* (weights 5, 3, 2, 1), which
    /// lists every cheaper plan it finds on the way; the same as
    /// `--algorithm rwastar`.
    #[arg(long, conflicts_with = "algorithm")]
    anytime: bool,
    /// A heuristic by name (`searchlab heuristics` lists them; default:
    /// hmax for atomic and PDDL problems, numeric for factored ones); for
    /// lazygbfs, names joined with `+` alternate (`ff+lmcount`).
    #[arg(long = "heuristic")]
    heuristic: Option<String>,
    #[command(flatten)]
    limits: LimitArgs,
    /// For PDDL: search on one bit per fact, not on packed states (groups
    /// of mutually exclusive facts as fields); for comparison.
    #[arg(long)]
    no_packing: bool,
    /// Print JSON instead of tables; input errors too, as an object with
    /// an "error" field on standard output (exit code 2).
    #[arg(long)]
    json: bool,
    /// Record the search's exploration and write it as Graphviz DOT
    /// (`dot`: `searchlab plan FILE --trace dot | dot -Tsvg > trace.svg`)
    /// or as an indented tree (`text`). It goes to standard output and the
    /// report to standard error, unless `--trace-out` names a file.
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

fn pairs(flat: &[String]) -> Vec<(String, String)> {
    flat.chunks_exact(2)
        .map(|c| (c[0].clone(), c[1].clone()))
        .collect()
}

/// The `searchlab` program as a value: the whole command line, plus the
/// heuristics a researcher adds. A program of one's own is this small:
///
/// ```no_run
/// use planners::heuristics::{HeuristicFactory, NamedHeuristic, TaskView};
/// use planners::BoxedHeuristic;
/// use search_core::Admissible;
/// use searchlab_lab::Lab;
///
/// /// 1 while some goal condition is unmet: admissible with costs >= 1.
/// struct Open;
/// impl HeuristicFactory for Open {
///     fn forward<'a, T: TaskView>(&self, task: &'a T, _: &'a T::State, goal: &'a T::Goal)
///         -> Option<BoxedHeuristic<'a, T::State>> {
///         Some(Box::new(Admissible(move |s: &T::State| {
///             u32::from(!task.meets_goal(goal, s))
///         })))
///     }
///     fn regression<'a, T: TaskView>(&self, task: &'a T, start: &'a T::State, _: &'a T::Goal)
///         -> Option<BoxedHeuristic<'a, T::Subgoal>> {
///         Some(Box::new(Admissible(move |g: &T::Subgoal| {
///             u32::from(!task.start_meets(start, g))
///         })))
///     }
/// }
///
/// fn main() -> std::process::ExitCode {
///     let open = NamedHeuristic::builder("open", "1 until the goal holds").admissible().generic(Open);
///     Lab::new().heuristic(open.build()).main()
/// }
/// ```
///
/// Its configurations (`fwd-astar-open`, `reg-astar-open`) join the
/// default suite, on every problem whose representation it serves (here:
/// all, PDDL included); suite files, `--configs`, `plan --heuristic` and
/// `searchlab heuristics` know it.
#[derive(Debug)]
pub struct Lab {
    heuristics: Registry,
    /// The first heuristic that could not join the registry, reported when
    /// the program runs.
    refused: Option<String>,
}

impl Default for Lab {
    fn default() -> Self {
        Self {
            heuristics: Registry::builtin(),
            refused: None,
        }
    }
}

impl Lab {
    /// The command line with the built-in heuristics only.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a user heuristic (see [`NamedHeuristic::builder`]). A name or
    /// alias already taken is reported when the program runs, which then
    /// exits with code 2.
    #[must_use]
    pub fn heuristic(mut self, heuristic: NamedHeuristic) -> Self {
        if let Err(e) = self.heuristics.add(heuristic) {
            self.refused.get_or_insert(e.to_string());
        }
        self
    }

    /// The heuristics this program knows: the built-in ones and the user's.
    pub fn heuristics(&self) -> &Registry {
        &self.heuristics
    }

    /// Runs the command line of this process and returns its exit code.
    pub fn main(self) -> ExitCode {
        self.run(std::env::args_os())
    }

    /// Runs the command line `args` (the program's name first) and returns
    /// its exit code: 0 done (or solved), 2 bad input, and for `plan` the
    /// codes [`crate::plan`] lists.
    ///
    /// ```
    /// use searchlab_lab::Lab;
    /// assert_eq!(Lab::new().run(["searchlab", "--no-such-flag"]), std::process::ExitCode::from(2));
    /// ```
    pub fn run<I, T>(self, args: I) -> ExitCode
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        let cli = match Cli::try_parse_from(&args) {
            Ok(cli) => cli,
            Err(e) if e.use_stderr() && wants_json_plan(&args) => {
                let message = e.render().to_string();
                let message = message.trim().trim_start_matches("error: ");
                print!("{}", crate::plan::error_text(true, message));
                return ExitCode::from(EXIT_INPUT_ERROR);
            }
            Err(e) => {
                let _ = e.print();
                return if e.use_stderr() {
                    ExitCode::from(EXIT_INPUT_ERROR)
                } else {
                    ExitCode::SUCCESS // --help, --version
                };
            }
        };
        if let Some(refused) = &self.refused {
            eprintln!("error: {refused}");
            return ExitCode::from(EXIT_INPUT_ERROR);
        }
        let result = match cli.command {
            None => bench(&BenchArgs::default(), &self.heuristics),
            Some(Command::Bench(args)) => bench(&args, &self.heuristics),
            Some(Command::Merge { parts, out, prefer }) => merge_files(&parts, &out, prefer),
            Some(Command::Report(args)) => match report(&args) {
                Ok(code) => return code,
                Err(e) => Err(e),
            },
            Some(Command::RunOne) => run_one_child(&self.heuristics),
            Some(Command::Plan(args)) => return plan(&args, &self.heuristics),
            Some(Command::Heuristics { markdown }) => {
                list_heuristics(&self.heuristics, markdown);
                Ok(())
            }
        };
        match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(EXIT_INPUT_ERROR)
            }
        }
    }
}

/// Whether `args` ask for `plan --json`, so that even an error of the
/// command line itself comes as JSON.
fn wants_json_plan(args: &[OsString]) -> bool {
    args.get(1).is_some_and(|a| a == "plan") && args.iter().skip(2).any(|a| a == "--json")
}

/// The built-in default suite, with A* on each of the user's heuristics
/// (those of `heuristics` that are not built in) in each direction it
/// serves.
fn default_suite_with(heuristics: &Registry) -> Result<Suite, SuiteError> {
    let mut suite = crate::defaults::default_suite()?;
    let builtin = Registry::builtin();
    for heuristic in heuristics.iter().filter(|h| builtin.get(h.name()).is_err()) {
        for direction in [Direction::Forward, Direction::Regression] {
            if Representation::ALL
                .into_iter()
                .any(|r| heuristic.supports(r, direction))
            {
                let astar =
                    Configuration::searchlab(direction, Algorithm::AStar, heuristic.clone());
                suite.add_config(astar);
            }
        }
    }
    Ok(suite)
}

/// `searchlab heuristics`: every heuristic this program knows, as a table
/// (or the Markdown table of the docs).
fn list_heuristics(heuristics: &Registry, markdown: bool) {
    if markdown {
        print!("{}", heuristics.markdown_table());
        return;
    }
    let yes = |b: bool| if b { "yes" } else { "-" };
    println!(
        "{:<22}{:<20}{:<12}{:<12}{:<12}description",
        "name", "representations", "directions", "admissible", "consistent"
    );
    for h in heuristics.iter() {
        let info = h.info();
        let representations: Vec<String> = info
            .representations
            .iter()
            .map(ToString::to_string)
            .collect();
        println!(
            "{:<22}{:<20}{:<12}{:<12}{:<12}{}",
            info.name,
            representations.join(", "),
            info.directions.to_string(),
            yes(info.admissible),
            yes(info.consistent),
            info.description
        );
        if !info.aliases.is_empty() {
            println!("{:<22}aliases: {}", "", info.aliases.join(", "));
        }
    }
}

/// `searchlab run-one`: the child side of [`crate::isolated`].
#[cfg(unix)]
fn run_one_child(heuristics: &Registry) -> Result<(), SuiteError> {
    use std::io::Read;
    // A run carries at most a domain and a problem of the input cap each.
    let cap = 2 * planners::input::MAX_INPUT_BYTES + (1 << 20);
    let mut input = String::new();
    std::io::stdin()
        .take(cap + 1)
        .read_to_string(&mut input)
        .map_err(|e| SuiteError::Invalid(format!("run-one: cannot read the run: {e}")))?;
    if input.len() as u64 > cap {
        return Err(SuiteError::Invalid(format!(
            "run-one: the run is larger than {} MiB",
            cap >> 20
        )));
    }
    // A child whose parent died (killed, so it could not kill its children)
    // ends too, rather than run on to its own time limit.
    let parent = std::os::unix::process::parent_id();
    std::thread::spawn(move || loop {
        std::thread::sleep(std::time::Duration::from_millis(100));
        if std::os::unix::process::parent_id() != parent {
            std::process::exit(3);
        }
    });
    let run: crate::isolated::ChildRun = serde_json::from_str(&input)
        .map_err(|e| SuiteError::Invalid(format!("run-one: not a run: {e}")))?;
    let mut config = Configuration::by_name_among(&run.method, heuristics)?;
    config.name = run.config;
    config.limits = Some(run.limits);
    let mut problem = match run.source {
        Source::Pddl(task) => SuiteProblem::pddl(&run.domain, &run.name, task),
        Source::Generated { family, size, seed } => crate::defaults::generate(&family, size, seed)?,
        Source::Reference { name } => crate::defaults::reference_problems()?
            .into_iter()
            .find(|p| p.name == name)
            .ok_or_else(|| {
                SuiteError::Invalid(format!("run-one: no reference problem `{name}`"))
            })?,
        Source::File { path } => crate::suite_file::load_problem(&path, None)?,
    };
    problem.domain = run.domain;
    problem.name = run.name;
    let mut suite = Suite::new("run-one");
    suite.add_problem(problem);
    suite.add_config(config);
    let spec = crate::suite::RunSpec {
        index: 0,
        problem: 0,
        config: 0,
    };
    // Only searchlab's own runs are isolated: no peer is needed.
    let no_peers = Peers {
        dir: PathBuf::new(),
        fast_downward: None,
        pyperplan: None,
    };
    let mut record = crate::runner::run_one(&suite, spec, &no_peers);
    // The process is the run's alone: its peak is the run's, where a run
    // stopped before its search (a grounding limit) measured nothing.
    if record.outcome == crate::record::RunOutcome::Limit && record.memory_measure.is_none() {
        if let Some(peak) = crate::plan::peak_memory_bytes() {
            record.memory = peak;
            record.memory_measure = Some(crate::record::MemoryMeasure::ProcessPeak);
        }
    }
    let line = serde_json::to_string(&record)
        .map_err(|e| SuiteError::Invalid(format!("run-one: cannot write the record: {e}")))?;
    println!("{line}");
    Ok(())
}

#[cfg(not(unix))]
fn run_one_child(_: &Registry) -> Result<(), SuiteError> {
    Err(SuiteError::Invalid(
        "run-one: isolated runs need a Unix system".to_owned(),
    ))
}

/// The suite `bench` runs: `--pddl`'s, a suite file's or the default one,
/// with the user's `heuristics` among the configurations a suite can name
/// (and in the default suite).
fn bench_suite(args: &BenchArgs, heuristics: &Registry) -> Result<Suite, SuiteError> {
    Ok(if !args.pddl.is_empty() {
        let limits = RunLimits {
            max_time: Some(Duration::from_secs(60)),
            max_memory_bytes: Some(2048 << 20),
            max_expansions: None,
        };
        crate::suite_file::pddl_suite_with(&args.pddl, &args.configs, limits, heuristics)?
    } else if let Some(path) = &args.suite {
        crate::suite_file::load_suite_with(path, heuristics)?
    } else {
        default_suite_with(heuristics)?
    })
}

/// `searchlab bench`, with the user's `heuristics` among the
/// configurations a suite can name (and in the default suite).
fn bench(args: &BenchArgs, heuristics: &Registry) -> Result<(), SuiteError> {
    let mut suite = bench_suite(args, heuristics)?;
    override_limits(&mut suite, &args.limits);
    let peers = Peers::locate();
    let missing_peers = suite.retain_available(&peers);
    for note in missing_peers.into_iter().chain(suite.skip_notes()) {
        eprintln!("{note}");
    }
    let compare = pairs(&args.compare);
    check_compared(&suite, &compare)?;
    if let Some(dir) = &args.slurm.slurm {
        return crate::slurm_cli::write_job(args, &suite, dir);
    }
    let mine: Vec<RunSpec> = suite
        .runs()
        .into_iter()
        .filter(|r| args.shard.is_none_or(|s| s.contains(r.index)))
        .collect();
    eprintln!(
        "suite {}: {} problems x {} configurations = {} runs{}",
        suite.name,
        suite.problems.len(),
        suite.configs.len(),
        suite.runs().len(),
        args.shard
            .map(|s| format!(", shard {}/{}: {} runs", s.index, s.count, mine.len()))
            .unwrap_or_default()
    );
    let stem = args.shard.map_or_else(|| "results".to_owned(), Shard::stem);
    // The results file is locked and opened (and the directory checked)
    // before the first run, and each record goes into it as its run ends;
    // the lock holds until the reports are written.
    let (results, skip, _lock) = match &args.out {
        Some(out) => open_results(args, out, &suite, &mine, &stem)?,
        None => (None, HashSet::new(), None),
    };
    let jobs = jobs_to_start(args.jobs, mine.len());
    let options = RunOptions {
        jobs: args.jobs,
        shard: args.shard,
        progress: !args.no_progress,
        peers: Some(peers),
        skip,
        #[cfg(unix)]
        isolation: if args.in_process {
            None
        } else {
            crate::isolated::Isolation::this_program().ok()
        },
    };
    let began = Instant::now();
    let (records, ran) = if let Some(mut file) = results {
        let ran = run_suite_with(&suite, &options, |record| file.append(record))?.len();
        (file.finish()?, ran)
    } else {
        let records = run_suite(&suite, &options)?;
        let ran = records.len();
        (records, ran)
    };
    let wall = began.elapsed();
    let report = Report::new(&records);
    println!("{}", report.console_summary());
    for (a, b) in &compare {
        println!("{}", report.compare_table(a, b).to_console());
    }
    let solved = records.iter().filter(|r| r.solved()).count();
    println!(
        "{} runs{}, {solved} solved, wall time {:.2} s, {} jobs",
        records.len(),
        if ran < records.len() {
            format!(" ({} recorded before)", records.len() - ran)
        } else {
            String::new()
        },
        wall.as_secs_f64(),
        jobs
    );
    if let Some(out) = &args.out {
        println!("wrote {}", out.join(format!("{stem}.jsonl")).display());
        if args.shard.is_some() {
            // Shards may share DIR: the reports are the whole experiment's.
            println!("(the reports: `searchlab merge` the shards, then `searchlab report`)");
            return Ok(());
        }
        let options = OutputOptions {
            title: format!("searchlab suite `{}`", suite.name),
            bounds: score_bounds(&records, None, None),
            compare,
            stem,
        };
        write_reports(&records, out, &options)?;
    } else if args.suite.is_none() {
        println!(
            "(searchlab bench --out DIR also writes results, the Markdown and HTML reports and SVG plots)"
        );
    }
    Ok(())
}

/// Refuses a `--compare` pair that names a configuration the suite lacks.
fn check_compared(suite: &Suite, compare: &[(String, String)]) -> Result<(), SuiteError> {
    for name in compare.iter().flat_map(|(a, b)| [a, b]) {
        if !suite.configs.iter().any(|c| &c.name == name) {
            return Err(SuiteError::Invalid(format!(
                "--compare: no configuration `{name}` in the suite (it has: {})",
                suite.config_names().join(", ")
            )));
        }
    }
    Ok(())
}

/// The worker threads that run `runs` runs for `--jobs asked`
/// ([`worker_threads`]), with a note when the cores cap them.
fn jobs_to_start(asked: Option<usize>, runs: usize) -> usize {
    let jobs = worker_threads(asked, runs);
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    if let Some(asked) = asked.filter(|&n| n > cores.saturating_mul(MAX_JOBS_PER_CORE)) {
        eprintln!(
            "note: {jobs} worker threads, not {asked}: at most {MAX_JOBS_PER_CORE} per core \
             ({cores} cores)"
        );
    }
    jobs
}

/// The lock, kept until the reports are written, with what
/// [`open_results`] returns.
type OpenedResults = (Option<ResultsFile>, HashSet<ResumeKey>, Option<ResultsLock>);

/// Locks and opens `bench --out DIR`'s results file for the runs `mine`
/// (refusing, resuming or overwriting what is there) and returns it with
/// the runs that need not run again and the lock.
fn open_results(
    args: &BenchArgs,
    out: &Path,
    suite: &Suite,
    mine: &[RunSpec],
    stem: &str,
) -> Result<OpenedResults, SuiteError> {
    let lock = ResultsLock::acquire(out, stem)?;
    let existing = if args.resume {
        Existing::Resume
    } else if args.overwrite {
        Existing::Overwrite
    } else {
        Existing::Refuse
    };
    let planned: Vec<RunRecord> = mine.iter().map(|r| planned_record(suite, *r)).collect();
    let (file, resumed) = ResultsFile::open(out, stem, existing, args.shard.is_some(), &planned)?;
    if args.resume {
        let mut notes = String::new();
        if resumed.superseded > 0 {
            notes = format!(
                ", {} records of other builds, limits or runs moved to {stem}.superseded.jsonl",
                resumed.superseded
            );
        }
        if resumed.torn {
            notes.push_str(", an unfinished last line dropped");
        }
        eprintln!(
            "resuming {}: {} of {} runs recorded{notes}",
            file.path().display(),
            resumed.kept.len(),
            mine.len(),
        );
    }
    Ok((Some(file), resumed.skip(), Some(lock)))
}

/// The command line's limits replace the suite's and every
/// configuration's own.
fn override_limits(suite: &mut Suite, limits: &LimitArgs) {
    suite.limits = limits.over(suite.limits);
    for config in &mut suite.configs {
        if let Some(own) = &mut config.limits {
            *own = limits.over(*own);
        }
    }
}

/// The scores' ranges: the limits given, else the largest the records
/// carry, else the default suite's.
fn score_bounds(
    records: &[RunRecord],
    time_limit: Option<Duration>,
    memory_limit_mib: Option<u64>,
) -> ScoreBounds {
    let default = ScoreBounds::default();
    let recorded = records.iter().filter_map(|r| r.limits);
    let time = recorded.clone().filter_map(|l| l.max_time).reduce(f64::max);
    let memory = recorded.filter_map(|l| l.max_memory_bytes).max();
    ScoreBounds {
        time_limit: time_limit
            .map(|t| t.as_secs_f64())
            .or(time)
            .unwrap_or(default.time_limit),
        memory_limit: memory_limit_mib
            .map(|mb| mebibytes(mb) as u64)
            .or(memory)
            .map_or(default.memory_limit, crate::report::as_f64),
    }
}

fn merge_files(parts: &[PathBuf], out: &Path, prefer: Option<Prefer>) -> Result<(), SuiteError> {
    let mut sets = Vec::new();
    for part in parts {
        sets.push((part.display().to_string(), read_jsonl(part)?));
    }
    let merged = merge(sets, prefer)?;
    write_jsonl(out, &merged.records)?;
    let mut dropped = Vec::new();
    if merged.identical > 0 {
        dropped.push(format!("{} identical duplicates dropped", merged.identical));
    }
    if merged.conflicts > 0 {
        dropped.push(format!(
            "{} conflicting records dropped, keeping the {} file's",
            merged.conflicts,
            if prefer == Some(Prefer::Last) {
                "last"
            } else {
                "first"
            }
        ));
    }
    println!(
        "merged {} files: {} runs into {}{}",
        parts.len(),
        merged.records.len(),
        out.display(),
        if dropped.is_empty() {
            String::new()
        } else {
            format!(" ({})", dropped.join(", "))
        }
    );
    Ok(())
}

/// `report`'s exit code when `--check` finds disagreements or invalid
/// plans.
const EXIT_CHECK_FAILED: u8 = 1;

fn report(args: &ReportArgs) -> Result<ExitCode, SuiteError> {
    let mut records = read_jsonl(&args.results)?;
    crate::record::refuse_duplicates(&records, &args.results.display().to_string())?;
    // In run order, as `bench` reports them; a file written as runs ended
    // may hold them in any order.
    records.sort_by(|a, b| a.run.cmp(&b.run).then_with(|| a.key().cmp(&b.key())));
    let bounds = score_bounds(&records, args.time_limit, args.memory_limit);
    let source = match (args.time_limit, args.memory_limit) {
        (Some(_), Some(_)) => "as given",
        _ if records.iter().any(|r| r.limits.is_some()) => "the records' limits",
        _ => "the default suite's, the records carry none",
    };
    println!(
        "scores up to a time limit of {} s and a memory limit of {} MiB ({source})",
        bounds.time_limit,
        bounds.memory_limit / f64::from(1 << 20)
    );
    let report = Report::new(&records);
    let compare = pairs(&args.compare);
    for (a, b) in &compare {
        for name in [a, b] {
            if !report.configs().contains(name) {
                return Err(SuiteError::Invalid(format!(
                    "--compare: no configuration `{name}` in {}",
                    args.results.display()
                )));
            }
        }
    }
    println!("{}", report.console_summary());
    if let Some(out) = &args.out {
        let options = OutputOptions {
            title: format!("searchlab results `{}`", args.results.display()),
            bounds,
            compare,
            stem: String::new(),
        };
        write_reports(&records, out, &options)?;
    }
    if !args.check {
        return Ok(ExitCode::SUCCESS);
    }
    match report.check() {
        Ok(passed) => {
            println!("{passed}");
            Ok(ExitCode::SUCCESS)
        }
        Err(failed) => {
            eprintln!("{failed}");
            Ok(ExitCode::from(EXIT_CHECK_FAILED))
        }
    }
}

/// Writes what `bench` and `report` make of `records` (read from a results
/// file) into `out`, naming each file written.
fn write_reports(
    records: &[RunRecord],
    out: &Path,
    options: &OutputOptions,
) -> Result<(), SuiteError> {
    for path in write_outputs(records, out, options)? {
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn plan(args: &PlanArgs, heuristics: &Registry) -> ExitCode {
    let limits = args.limits.over(safety_limits());
    let heuristic = match args
        .heuristic
        .as_deref()
        .map(|h| heuristics.get(h))
        .transpose()
    {
        Ok(heuristic) => heuristic,
        Err(e) => {
            let text = crate::plan::error_text(args.json, &e.to_string());
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
        json: args.json,
        trace: args.trace,
        trace_max_nodes: args.trace_max_nodes,
    };
    let input_error = |message: String| Planned {
        text: crate::plan::error_text(args.json, &message),
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
                text = crate::plan::error_text(args.json, &format!("cannot write the trace: {e}"));
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
