//! `searchlab run-one`: one isolated run, the child side of
//! [`crate::isolated`].

use planners::heuristics::Registry;

#[cfg(unix)]
use crate::external::Peers;
#[cfg(unix)]
use crate::suite::{Configuration, Source, Suite, SuiteProblem};
use crate::SuiteError;

/// `searchlab run-one`: the child side of [`crate::isolated`].
#[cfg(unix)]
pub(super) fn run_one_child(heuristics: &Registry) -> Result<(), SuiteError> {
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
    // ends too, rather than run on to its own time limit. The watchdog's
    // stack is small: under a tight address-space limit a default one
    // (2 MiB reserved) may not fit, and then the child goes on without it.
    let parent = std::os::unix::process::parent_id();
    let _watchdog = std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(move || loop {
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
    let no_peers = Peers::none();
    let mut record = crate::runner::run_one(&suite, spec, &no_peers);
    // The process is the run's alone: its peak is the run's, where a run
    // stopped before its search (a grounding limit) measured nothing.
    if record.outcome == crate::record::RunOutcome::Limit && record.memory_measure.is_none() {
        if let Some(peak) = planners::cpu::peak_memory_bytes() {
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
pub(super) fn run_one_child(_: &Registry) -> Result<(), SuiteError> {
    Err(SuiteError::Invalid(
        "run-one: isolated runs need a Unix system".to_owned(),
    ))
}
