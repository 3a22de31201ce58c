//! `searchlab report`: the reports of a results file, and with `--check`
//! the cross-check of its answers.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use crate::limits::mebibytes;
use crate::output::{write_outputs, OutputOptions};
use crate::record::{read_jsonl, RunRecord};
use crate::report::{Report, ScoreBounds};
use crate::SuiteError;

use super::flags::{pairs, parse_time_limit};

/// The flags of `searchlab report`.
#[derive(Debug, clap::Args)]
pub(super) struct ReportArgs {
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

/// The scores' ranges: the limits given, else the largest the records
/// carry, else the default suite's.
pub(super) fn score_bounds(
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

/// `report`'s exit code when `--check` finds disagreements or invalid
/// plans.
const EXIT_CHECK_FAILED: u8 = 1;

/// `searchlab report`: its exit code, or what keeps it from running.
pub(super) fn report(args: &ReportArgs) -> Result<ExitCode, SuiteError> {
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
pub(super) fn write_reports(
    records: &[RunRecord],
    out: &Path,
    options: &OutputOptions,
) -> Result<(), SuiteError> {
    for path in write_outputs(records, out, options)? {
        println!("wrote {}", path.display());
    }
    Ok(())
}
