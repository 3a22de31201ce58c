//! `searchlab bench SUITE --slurm DIR`: the suite as a Slurm array job
//! ([`crate::slurm`]) instead of runs on this machine.

use std::path::{Path, PathBuf};

use crate::slurm::SlurmJob;
use crate::suite::Suite;
use crate::SuiteError;

use crate::cli::BenchArgs;

/// Array tasks when `--shards` is not given.
const DEFAULT_SHARDS: usize = 4;

/// The `--slurm` flags of `bench`.
#[derive(Debug, Default, clap::Args)]
pub(crate) struct SlurmArgs {
    /// Write the suite as a Slurm array job into DIR instead of running it:
    /// array task K runs shard K (into DIR/shard-K), then a merge job joins
    /// the shards into DIR/results.jsonl and writes the report into DIR.
    /// DIR/submit.sh submits both.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["shard", "out"])]
    pub slurm: Option<PathBuf>,
    /// With --slurm: the number of array tasks, one shard each (default 4,
    /// at most one per run).
    #[arg(long, value_name = "N", requires = "slurm", value_parser = clap::value_parser!(u64).range(1..))]
    pub shards: Option<u64>,
    /// With --slurm: the Slurm partition (default: the cluster's).
    #[arg(long, value_name = "P", requires = "slurm")]
    pub partition: Option<String>,
    /// With --slurm: each array task's time limit in minutes (sbatch
    /// --time; default: the partition's). Not the per-search --max-time.
    #[arg(long, value_name = "MINUTES", requires = "slurm", value_parser = clap::value_parser!(u32).range(1..))]
    pub slurm_time: Option<u32>,
    /// With --slurm: CPUs per array task, and so its worker threads
    /// unless --jobs says otherwise (default: Slurm's, one).
    #[arg(long, value_name = "N", requires = "slurm", value_parser = clap::value_parser!(u32).range(1..))]
    pub slurm_cpus: Option<u32>,
    /// With --slurm: memory per array task in MiB (sbatch --mem; default:
    /// the partition's). Not the per-search --max-memory-mb.
    #[arg(long, value_name = "MIB", requires = "slurm", value_parser = clap::value_parser!(u64).range(1..))]
    pub slurm_mem: Option<u64>,
    /// With --slurm: submit the jobs with sbatch, the merge held until
    /// every array task has succeeded.
    #[arg(long, requires = "slurm")]
    pub submit: bool,
}

/// Writes (and with `--submit` submits) the array job of `suite`, already
/// loaded and checked, into `dir`. The tasks load the suite again from the
/// same arguments.
pub(crate) fn write_job(args: &BenchArgs, suite: &Suite, dir: &Path) -> Result<(), SuiteError> {
    let runs = suite.runs().len();
    if runs == 0 {
        return Err(SuiteError::Invalid(format!(
            "suite {} has no runs to shard",
            suite.name
        )));
    }
    let wanted = args
        .slurm
        .shards
        .map_or(DEFAULT_SHARDS, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let shards = wanted.min(runs);
    if shards < wanted {
        eprintln!("{runs} runs: {shards} array tasks, not {wanted}");
    }
    let mut bench_args: Vec<String> = Vec::new();
    if !args.pddl.is_empty() {
        bench_args.push("--pddl".to_owned());
        for path in &args.pddl {
            bench_args.push(text(&absolute(path)?)?.to_owned());
        }
    }
    if !args.configs.is_empty() {
        bench_args.extend(["--configs".to_owned(), args.configs.join(",")]);
    }
    if let Some(jobs) = args.jobs {
        bench_args.extend(["--jobs".to_owned(), jobs.to_string()]);
    }
    if args.in_process {
        bench_args.push("--in-process".to_owned());
    }
    let limits = &args.limits;
    if let Some(t) = limits.max_time {
        bench_args.extend(["--max-time".to_owned(), t.as_secs_f64().to_string()]);
    }
    if let Some(n) = limits.max_expansions {
        bench_args.extend(["--max-expansions".to_owned(), n.to_string()]);
    }
    if let Some(mb) = limits.max_memory_mb {
        bench_args.extend(["--max-memory-mb".to_owned(), mb.to_string()]);
    }
    // The report scores against the limits the records carry, as
    // `bench --out` does.
    let mut report_args: Vec<String> = Vec::new();
    for pair in args.compare.chunks_exact(2) {
        report_args.extend(["--compare".to_owned(), pair[0].clone(), pair[1].clone()]);
    }
    let searchlab = std::env::current_exe()
        .map_err(|e| SuiteError::Slurm(format!("cannot find the searchlab binary to run: {e}")))?;
    let job = SlurmJob {
        dir: absolute(dir)?,
        shards,
        searchlab,
        suite: args.suite.as_deref().map(absolute).transpose()?,
        bench_args,
        report_args,
        name: format!("searchlab-{}", suite.name),
        partition: args.slurm.partition.clone(),
        time_minutes: args.slurm.slurm_time,
        cpus_per_task: args.slurm.slurm_cpus,
        memory_mb: args.slurm.slurm_mem,
    };
    let files = job.write()?;
    println!(
        "suite {}: {runs} runs in {shards} array tasks\nwrote {}\nwrote {}\nwrote {}",
        suite.name,
        files.array.display(),
        files.merge.display(),
        files.submit.display()
    );
    if args.slurm.submit {
        let submitted = job.submit(Path::new("sbatch")).map_err(|e| match e {
            SuiteError::Slurm(message) => SuiteError::Slurm(format!(
                "{message} (the scripts are written: submit them with {} where Slurm runs)",
                files.submit.display()
            )),
            other => other,
        })?;
        println!(
            "submitted array job {} ({shards} tasks) and merge job {}: results in {}",
            submitted.array,
            submitted.merge,
            job.merged_results().display()
        );
    } else {
        println!("submit with {}", files.submit.display());
    }
    Ok(())
}

fn absolute(path: &Path) -> Result<PathBuf, SuiteError> {
    std::path::absolute(path).map_err(|e| SuiteError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}

fn text(path: &Path) -> Result<&str, SuiteError> {
    path.to_str().ok_or_else(|| {
        SuiteError::Slurm(format!(
            "{} is not UTF-8, which a job script cannot name",
            path.display()
        ))
    })
}
