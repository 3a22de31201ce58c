//! `searchlab bench`: run a suite (the built-in default suite if no file
//! is given) and write its results and reports.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use planners::heuristics::{Registry, Representation};
use planners::Direction;
use search_core::Algorithm;

use crate::external::Peers;
use crate::limits::RunLimits;
use crate::output::OutputOptions;
use crate::record::{ResumeKey, RunRecord};
use crate::report::Report;
use crate::results::{Existing, ResultsFile, ResultsLock};
use crate::runner::{
    planned_record, run_suite, run_suite_with, worker_threads, RunOptions, Shard, MAX_JOBS_PER_CORE,
};
use crate::suite::{Configuration, RunSpec, Suite};
use crate::SuiteError;

use super::bench_slurm::{write_job, Rerun, SlurmArgs};
use super::flags::{pairs, LimitArgs};
use super::report_command::{score_bounds, write_reports};

#[derive(Debug, Default, clap::Args)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "each is a flag of the command line"
)]
pub(super) struct BenchArgs {
    /// A suite file (TOML); the built-in default suite if left out.
    pub(super) suite: Option<PathBuf>,
    /// Worker threads (default: every core); at most one per run and 4 per
    /// core start.
    #[arg(long, short)]
    pub(super) jobs: Option<usize>,
    /// Run only the K-th of N disjoint slices of the runs (for job arrays).
    #[arg(long, value_name = "K/N")]
    pub(super) shard: Option<Shard>,
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
    pub(super) out: Option<PathBuf>,
    /// Complete the experiment in --out DIR after an interruption: runs
    /// recorded there with the same configuration, problem, limits and
    /// searchlab revision are not run again; other records move to
    /// results.superseded.jsonl (results-K-of-N.superseded.jsonl for a
    /// shard).
    #[arg(long, requires = "out", conflicts_with = "overwrite")]
    pub(super) resume: bool,
    /// Start the results in --out DIR again, replacing the files bench
    /// writes (others stay).
    #[arg(long, requires = "out")]
    pub(super) overwrite: bool,
    /// Compare configuration B with A instance by instance (repeatable).
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    pub(super) compare: Vec<String>,
    /// No progress bar.
    #[arg(long)]
    pub(super) no_progress: bool,
    /// Build the suite from PDDL domain directories (`domain.pddl` and the
    /// tasks beside it) or task files, instead of a suite file.
    #[arg(long, num_args = 1.., value_name = "DIR|TASK", conflicts_with = "suite")]
    pub(super) pddl: Vec<PathBuf>,
    /// The configurations to run, by name (comma-separated:
    /// fwd-astar-hmax, reg-gbfs-ff, fd-astar-lmcut, pp-astar-blind ...):
    /// a `--pddl` suite's, or in place of a suite file's own.
    #[arg(long, value_delimiter = ',')]
    pub(super) configs: Vec<String>,
    #[command(flatten)]
    pub(super) limits: LimitArgs,
    /// Run every run in this process. By default each searchlab run on a
    /// PDDL task, and each run with a time or memory limit beyond 60 s or
    /// 512 MiB, is a child process under operating-system memory and time
    /// limits, so that one run cannot take the suite down.
    #[arg(long)]
    pub(super) in_process: bool,
    #[command(flatten)]
    pub(super) slurm: SlurmArgs,
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

/// The suite `bench` runs: `--pddl`'s, a suite file's or the default one,
/// with the user's `heuristics` among the configurations a suite can name
/// (and in the default suite).
fn bench_suite(args: &BenchArgs, heuristics: &Registry) -> Result<Suite, SuiteError> {
    if !args.pddl.is_empty() {
        let limits = RunLimits {
            max_time: Some(Duration::from_secs(60)),
            max_memory_bytes: Some(2048 << 20),
            max_expansions: None,
        };
        return crate::suite_file::pddl_suite_with(&args.pddl, &args.configs, limits, heuristics);
    }
    let mut suite = match &args.suite {
        Some(path) => crate::suite_file::load_suite_with(path, heuristics)?,
        None => default_suite_with(heuristics)?,
    };
    if !args.configs.is_empty() {
        suite.configs = args
            .configs
            .iter()
            .map(|name| Configuration::by_name_among(name, heuristics))
            .collect::<Result<_, _>>()?;
    }
    Ok(suite)
}

/// `searchlab bench`, with the user's `heuristics` among the
/// configurations a suite can name (and in the default suite).
pub(super) fn bench(args: &BenchArgs, heuristics: &Registry) -> Result<(), SuiteError> {
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
        return write_job(&args.slurm, &suite, dir, &rerun(args));
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

/// What the array tasks of `bench --slurm` run again: `args` without the
/// `--slurm` flags, and `report`'s `--compare` pairs.
fn rerun(args: &BenchArgs) -> Rerun<'_> {
    let mut bench_flags: Vec<String> = Vec::new();
    if !args.configs.is_empty() {
        bench_flags.extend(["--configs".to_owned(), args.configs.join(",")]);
    }
    if let Some(jobs) = args.jobs {
        bench_flags.extend(["--jobs".to_owned(), jobs.to_string()]);
    }
    if args.in_process {
        bench_flags.push("--in-process".to_owned());
    }
    let limits = &args.limits;
    if let Some(t) = limits.max_time {
        bench_flags.extend(["--max-time".to_owned(), t.as_secs_f64().to_string()]);
    }
    if let Some(n) = limits.max_expansions {
        bench_flags.extend(["--max-expansions".to_owned(), n.to_string()]);
    }
    if let Some(mb) = limits.max_memory_mb {
        bench_flags.extend(["--max-memory-mb".to_owned(), mb.to_string()]);
    }
    // The report scores against the limits the records carry, as
    // `bench --out` does.
    let mut report_flags: Vec<String> = Vec::new();
    for pair in args.compare.chunks_exact(2) {
        report_flags.extend(["--compare".to_owned(), pair[0].clone(), pair[1].clone()]);
    }
    Rerun {
        suite_file: args.suite.as_deref(),
        pddl: &args.pddl,
        bench_flags,
        report_flags,
    }
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
