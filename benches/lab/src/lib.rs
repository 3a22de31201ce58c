//! searchlab's experiment library: the comparative benchmark suite behind
//! `searchlab bench`, its records and reports, and the whole `searchlab`
//! command line as [`Lab`], to which a researcher adds heuristics.
//!
//! - [`slurm`]: a suite as a Slurm array job, one task per shard, and the
//!   merge after it.
//! - [`Lab`] ([`cli`]): the program; `Lab::new().heuristic(..).main()` is a
//!   researcher's own `searchlab` with their heuristic in every table.
//! - [`suite`]: problems x configurations under limits; [`defaults`]: the
//!   built-in default suite; [`suite_file`]: suites described in TOML.
//! - [`runner`]: runs a suite in parallel (rayon), one record per run.
//! - [`record`]: the records and their files (JSON lines, CSV, Downward Lab
//!   properties), merging shards; [`provenance`]: the build, machine and
//!   start time each record carries; [`results`]: `bench --out`'s results
//!   file, one line per finished run, resumable, locked while a bench
//!   writes it; [`files`]: output only to regular files or new paths,
//!   results files read under a cap.
//! - [`report`]: coverage, geometric means, scores and comparisons as
//!   console or Markdown tables; [`html`]: the self-contained HTML report;
//!   [`plot`]: SVG plots.
//! - [`cli::plan`]: the `searchlab plan` command (problem files and PDDL
//!   tasks).
//! - [`external`]: Fast Downward and pyperplan as configurations
//!   (`fd-astar-hmax`, `pp-gbfs-ff` ...), run as subprocesses on PDDL tasks
//!   under the same limits, their plans replayed by searchlab.
//!
//! A user heuristic (any [`NamedHeuristic`](planners::heuristics::NamedHeuristic)
//! from the registry of [`planners::heuristics`]) becomes a configuration
//! in a few lines, and runs on every problem whose representation it
//! serves, PDDL tasks included:
//!
//! ```
//! use planners::heuristics::{heuristic, HeuristicFactory, NamedHeuristic, TaskView};
//! use planners::{BoxedHeuristic, Direction};
//! use search_core::{Admissible, Algorithm};
//! use searchlab_lab::report::Report;
//! use searchlab_lab::runner::{run_suite, RunOptions};
//! use searchlab_lab::suite::{Configuration, Suite, SuiteProblem};
//!
//! /// One while the goal does not hold: admissible with unit-or-more costs.
//! struct Open;
//! impl HeuristicFactory for Open {
//!     fn forward<'a, T: TaskView>(&self, task: &'a T, _: &'a T::State, goal: &'a T::Goal)
//!         -> Option<BoxedHeuristic<'a, T::State>> {
//!         Some(Box::new(Admissible(move |s: &T::State| {
//!             u32::from(!task.meets_goal(goal, s))
//!         })))
//!     }
//!     fn regression<'a, T: TaskView>(&self, task: &'a T, start: &'a T::State, _: &'a T::Goal)
//!         -> Option<BoxedHeuristic<'a, T::Subgoal>> {
//!         Some(Box::new(Admissible(move |g: &T::Subgoal| {
//!             u32::from(!task.start_meets(start, g))
//!         })))
//!     }
//! }
//!
//! let mut suite = Suite::new("example");
//! suite.add_problem(SuiteProblem::atomic("reference", "hungry-agent",
//!     state_atomic::problems::hungry_agent().unwrap()));
//! let open = NamedHeuristic::builder("open", "1 until the goal holds").admissible().generic(Open).build();
//! suite.add_config(Configuration::searchlab(Direction::Forward, Algorithm::AStar, open));
//! suite.add_config(Configuration::searchlab(Direction::Forward, Algorithm::AStar, heuristic("hmax").unwrap()));
//! let records = run_suite(&suite, &RunOptions::default()).unwrap();
//! let report = Report::new(&records);
//! assert_eq!(report.coverage("reference", "fwd-astar-open"), 1);
//! assert!(records.iter().all(|r| r.cost == Some(30)));
//! ```

pub mod cli;
pub mod defaults;
pub mod external;
pub mod files;
pub mod html;
#[cfg(unix)]
pub mod isolated;
pub mod limits;
pub mod output;
pub mod pddl_task;
pub mod plot;
pub mod provenance;
pub mod record;
pub mod report;
pub mod results;
pub mod runner;
pub mod slurm;
pub mod suite;
pub mod suite_file;

pub use cli::Lab;

/// The README's example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctest;

use std::path::Path;

/// What can go wrong running or reporting a suite. A run that fails is a
/// record, not an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SuiteError {
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// A results file has a malformed line.
    #[error("{path}:{line}: malformed record: {message}")]
    Json {
        /// The file.
        path: String,
        /// The line, from 1 (0 when writing).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A suite file is malformed.
    #[error("{path}: {message}")]
    SuiteFile {
        /// The file.
        path: String,
        /// What is wrong, with the line where known.
        message: String,
    },
    /// A problem could not be built or loaded.
    #[error("problem {name}: {message}")]
    Problem {
        /// The problem or file.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// Two records of one run differ and nothing said which to keep.
    #[error(
        "run {run} differs between {first} and {second}: \
         say which to keep (searchlab merge --prefer first|last)"
    )]
    Conflict {
        /// The run: configuration, domain and problem.
        run: String,
        /// Where the first record came from.
        first: String,
        /// Where the second came from.
        second: String,
    },
    /// A Slurm job cannot be written or submitted.
    #[error("slurm: {0}")]
    Slurm(String),
    /// Anything else the user asked for that cannot be done.
    #[error("{0}")]
    Invalid(String),
}

impl SuiteError {
    pub(crate) fn io(path: &Path, error: &std::io::Error) -> Self {
        SuiteError::Io {
            path: path.display().to_string(),
            message: error.to_string(),
        }
    }
}
