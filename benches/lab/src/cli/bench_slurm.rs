//! `searchlab bench SUITE --slurm DIR`: the suite as a Slurm array job
//! ([`crate::slurm`]) instead of runs on this machine.

use std::path::{Path, PathBuf};

use crate::slurm::SlurmJob;
use crate::suite::Suite;
use crate::SuiteError;

/// Array tasks when `--shards` is not given.
const DEFAULT_SHARDS: usize = 4;

/// The `--slurm` flags of `bench`.
#[derive(Debug, Default, clap::Args)]
pub(super) struct SlurmArgs {
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

/// How the array tasks run `bench` again and the merge job runs
/// `report`: what the `bench` that writes the job was given.
#[derive(Debug, Default)]
pub(super) struct Rerun<'a> {
    /// The suite file, if the suite came from one.
    pub(super) suite_file: Option<&'a Path>,
    /// `--pddl`'s domain directories and task files.
    pub(super) pddl: &'a [PathBuf],
    /// `bench`'s other flags for each task (`--configs`, `--jobs`, the
    /// limits ...), as words of its command line.
    pub(super) bench_flags: Vec<String>,
    /// `report`'s flags for the merge job (`--compare A B` ...).
    pub(super) report_flags: Vec<String>,
}

/// Writes (and with `--submit` submits) the array job of `suite`, already
/// loaded and checked, into `dir`, as `slurm` asks. The tasks load the
/// suite again as `rerun` says.
pub(super) fn write_job(
    slurm: &SlurmArgs,
    suite: &Suite,
    dir: &Path,
    rerun: &Rerun<'_>,
) -> Result<(), SuiteError> {
    let runs = suite.runs().len();
    if runs == 0 {
        return Err(SuiteError::Invalid(format!(
            "suite {} has no runs to shard",
            suite.name
        )));
    }
    let wanted = slurm
        .shards
        .map_or(DEFAULT_SHARDS, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let shards = wanted.min(runs);
    if shards < wanted {
        eprintln!("{runs} runs: {shards} array tasks, not {wanted}");
    }
    let mut bench_args: Vec<String> = Vec::new();
    if !rerun.pddl.is_empty() {
        bench_args.push("--pddl".to_owned());
        for path in rerun.pddl {
            bench_args.push(text(&absolute(path)?)?.to_owned());
        }
    }
    bench_args.extend(rerun.bench_flags.iter().cloned());
    let report_args = rerun.report_flags.clone();
    let searchlab = std::env::current_exe()
        .map_err(|e| SuiteError::Slurm(format!("cannot find the searchlab binary to run: {e}")))?;
    let job = SlurmJob {
        dir: absolute(dir)?,
        shards,
        searchlab,
        suite: rerun.suite_file.map(absolute).transpose()?,
        bench_args,
        report_args,
        name: format!("searchlab-{}", suite.name),
        partition: slurm.partition.clone(),
        time_minutes: slurm.slurm_time,
        cpus_per_task: slurm.slurm_cpus,
        memory_mb: slurm.slurm_mem,
    };
    let files = job.write()?;
    println!(
        "suite {}: {runs} runs in {shards} array tasks\nwrote {}\nwrote {}\nwrote {}",
        suite.name,
        files.array.display(),
        files.merge.display(),
        files.submit.display()
    );
    if slurm.submit {
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
