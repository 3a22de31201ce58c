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
//!
//! One file per command (`bench`, `merge`, `report_command`, `heuristics`,
//! [`plan`], the hidden `run_one`), and `bench --slurm`'s job writer in
//! `bench_slurm`; the flags several commands share are in `flags`. The
//! commands take the shared flags and the library, never this file, and
//! no two import each other: `bench` hands its runs to `bench_slurm` and
//! its records to `report_command`'s writer, one way.

mod bench;
mod bench_slurm;
mod flags;
mod heuristics;
mod merge;
pub mod plan;
mod report_command;
mod run_one;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use planners::heuristics::{NamedHeuristic, Registry};

use crate::record::Prefer;
use bench::{bench, BenchArgs};
use heuristics::list_heuristics;
use merge::merge_files;
use plan::{error_text, plan, PlanArgs, EXIT_INPUT_ERROR};
use report_command::{report, ReportArgs};
use run_one::run_one_child;

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
    /// codes [`plan`] lists.
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
                print!("{}", error_text(true, message));
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
