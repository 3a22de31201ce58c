//! Isolated runs: each searchlab run on a PDDL task, and each run with
//! limits beyond the threshold, is a child process under an address-space
//! limit and a kill deadline, so that a run that runs out of memory, loops
//! or crashes ends only itself.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use searchlab_lab::defaults::generate;
use searchlab_lab::isolated::{run_child, ChildRun, Isolation};
use searchlab_lab::limits::RunLimits;
use searchlab_lab::pddl_task::PddlTask;
use searchlab_lab::record::{RunOutcome, RunRecord};
use searchlab_lab::runner::{run_suite, RunOptions};
use searchlab_lab::suite::{Configuration, Source, Suite, SuiteProblem};

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn searchlab() -> Isolation {
    Isolation::new(PathBuf::from(env!("CARGO_BIN_EXE_searchlab")))
}

fn blocks() -> PddlTask {
    let dir = repository().join("benchmarks/pddl/blocks");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    PddlTask {
        domain_file: "domain.pddl".to_owned(),
        domain: read("domain.pddl"),
        problem_file: "task01.pddl".to_owned(),
        problem: read("task01.pddl"),
    }
}

/// A 6-ary predicate over 30 objects: grounding wants gigabytes.
fn huge() -> PddlTask {
    let objects: Vec<String> = (1..=30).map(|i| format!("o{i}")).collect();
    PddlTask {
        domain_file: "huge.pddl".to_owned(),
        domain: "(define (domain huge) (:requirements :strips)
          (:predicates (p ?a ?b ?c ?d ?e ?f) (done))
          (:action make :parameters (?a ?b ?c ?d ?e ?f) :precondition (and)
            :effect (p ?a ?b ?c ?d ?e ?f))
          (:action finish :parameters (?a) :precondition (p ?a ?a ?a ?a ?a ?a)
            :effect (done)))"
            .to_owned(),
        problem_file: "huge-p.pddl".to_owned(),
        problem: format!(
            "(define (problem huge) (:domain huge) (:objects {}) (:init) (:goal (done)))",
            objects.join(" ")
        ),
    }
}

fn child_run(task: PddlTask, limits: RunLimits) -> ChildRun {
    ChildRun {
        domain: "d".to_owned(),
        name: "p".to_owned(),
        source: Source::Pddl(task),
        config: "my-name".to_owned(),
        method: "fwd-astar-hmax".to_owned(),
        limits,
    }
}

fn planned(run: usize) -> RunRecord {
    RunRecord::new(run, "d", "p", "my-name")
}

fn limits(seconds: u64, mib: usize) -> RunLimits {
    RunLimits {
        max_time: Some(Duration::from_secs(seconds)),
        max_memory_bytes: Some(mib << 20),
        max_expansions: None,
    }
}

/// A memory limit, in MiB, that leaves the child 40 MiB beside its own
/// program: an address-space limit counts the program's mapped code, which
/// in a debug build passed 40 MiB. The file, debug information included,
/// is larger than what the process maps.
fn tight_mib() -> usize {
    let program = std::fs::metadata(env!("CARGO_BIN_EXE_searchlab")).map_or(0, |m| m.len());
    usize::try_from(program >> 20).unwrap_or(0) + 40
}

#[test]
fn an_isolated_run_records_what_an_in_process_run_records() {
    let record = run_child(
        &searchlab(),
        &child_run(blocks(), limits(30, 512)),
        planned(7),
    );
    assert_eq!(record.outcome, RunOutcome::Solved, "{:?}", record.error);
    assert_eq!(record.validated, Some(true));
    assert_eq!((record.run, record.config.as_str()), (7, "my-name"));

    let mut suite = Suite::new("same");
    let task = blocks();
    suite.add_problem(SuiteProblem::pddl("d", "p", task));
    suite.add_config(Configuration::by_name("fwd-astar-hmax").unwrap());
    suite.limits = limits(30, 512);
    let here = &run_suite(&suite, &RunOptions::default()).unwrap()[0];
    assert_eq!(
        (record.cost, record.expanded, record.generated),
        (here.cost, here.expanded, here.generated)
    );
}

/// With no slack, the operating system's limit is the run's limit, which
/// the process reaches before the grounding's estimate does: the child
/// dies for want of memory, and the record says so.
#[test]
fn the_operating_system_enforces_the_memory_limit() {
    let tight = Isolation {
        memory_slack: 0,
        ..searchlab()
    };
    let record = run_child(
        &tight,
        &child_run(huge(), limits(60, tight_mib())),
        planned(0),
    );
    assert_eq!(
        record.outcome,
        RunOutcome::OutOfMemory,
        "{:?}",
        record.error
    );
    let error = record.error.unwrap_or_default();
    assert!(error.contains("memory allocation of"), "{error}");
}

#[test]
fn a_run_past_its_time_is_killed_and_recorded() {
    let dir = std::env::temp_dir().join(format!("searchlab-isolated-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sleeper = dir.join("sleeper.sh");
    std::fs::write(&sleeper, "#!/bin/sh\necho started >&2\nexec sleep 60\n").unwrap();
    std::fs::set_permissions(
        &sleeper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let isolation = Isolation {
        grace: Duration::from_millis(200),
        ..Isolation::new(sleeper)
    };
    let mut run = child_run(blocks(), limits(1, 512));
    run.limits.max_time = Some(Duration::from_millis(300));
    let began = Instant::now();
    let record = run_child(&isolation, &run, planned(0));
    assert!(began.elapsed() < Duration::from_secs(10));
    assert_eq!(record.outcome, RunOutcome::OutOfTime);
    assert!(record.error.unwrap_or_default().contains("started"));
}

#[test]
fn a_crash_is_recorded_with_what_the_child_printed() {
    let dir = std::env::temp_dir().join(format!("searchlab-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let crasher = dir.join("crasher.sh");
    std::fs::write(
        &crasher,
        "#!/bin/sh\necho 'thread main overflowed its stack' >&2\nkill -SEGV $$\n",
    )
    .unwrap();
    std::fs::set_permissions(
        &crasher,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let record = run_child(
        &Isolation::new(crasher),
        &child_run(blocks(), limits(5, 512)),
        planned(0),
    );
    assert_eq!(record.outcome, RunOutcome::Crashed);
    let error = record.error.unwrap_or_default();
    assert!(
        error.contains("signal 11") && error.contains("overflowed"),
        "{error}"
    );
}

/// One run dies for want of memory; the suite records it and goes on.
#[test]
fn the_suite_goes_on_past_a_run_that_dies() {
    let mut suite = Suite::new("isolated");
    suite.add_problem(SuiteProblem::pddl("huge", "huge", huge()));
    suite.add_problem(SuiteProblem::pddl("blocks", "task01", blocks()));
    suite.add_config(Configuration::by_name("fwd-astar-hmax").unwrap());
    suite.limits = limits(60, tight_mib());
    let options = RunOptions {
        jobs: Some(1),
        isolation: Some(Isolation {
            memory_slack: 0,
            ..searchlab()
        }),
        ..RunOptions::default()
    };
    let records = run_suite(&suite, &options).unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].outcome, RunOutcome::OutOfMemory);
    assert_eq!(
        records[1].outcome,
        RunOutcome::Solved,
        "{:?}",
        records[1].error
    );
}

fn crasher() -> Isolation {
    let dir = std::env::temp_dir().join(format!("searchlab-route-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("crasher.sh");
    std::fs::write(&path, "#!/bin/sh\necho child >&2\nkill -SEGV $$\n").unwrap();
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    Isolation::new(path)
}

/// Generated, reference and file problems run in a child when their limits are
/// beyond the threshold (60 s, 512 MiB), and here within it.
#[test]
fn runs_with_limits_beyond_the_threshold_run_in_a_child() {
    let mut suite = Suite::new("threshold");
    suite.add_problem(generate("atomic-chains", 16, 1).unwrap());
    suite.add_problem(
        searchlab_lab::defaults::reference_problems()
            .unwrap()
            .remove(0),
    );
    let file = repository().join("problems/hitman.toml");
    suite.add_problem(searchlab_lab::suite_file::load_problem(&file, None).unwrap());
    suite.add_config(Configuration::by_name("fwd-astar-hmax").unwrap());
    suite.add_config(Configuration::by_name("reg-astar-numeric").unwrap());
    let in_process = RunOptions {
        jobs: Some(1),
        ..RunOptions::default()
    };
    let expected = run_suite(&suite, &in_process).unwrap();
    let with = |isolation: Isolation| RunOptions {
        jobs: Some(1),
        isolation: Some(isolation),
        ..RunOptions::default()
    };

    // Within the threshold: in this process, the crashing program unused.
    suite.limits = limits(60, 512);
    let within = run_suite(&suite, &with(crasher())).unwrap();
    assert!(within.iter().all(|r| r.outcome == RunOutcome::Solved));

    // Beyond it: in a child (the crashing one crashes) ...
    suite.limits = limits(60, 1024);
    let crashed = run_suite(&suite, &with(crasher())).unwrap();
    assert!(
        crashed.iter().all(|r| r.outcome == RunOutcome::Crashed),
        "{crashed:?}"
    );
    // ... and the real program's child makes each problem again and finds
    // what this process finds.
    let isolated = run_suite(&suite, &with(searchlab())).unwrap();
    assert_eq!(isolated.len(), 4, "{isolated:#?}"); // numeric applies to the factored file only
    for (a, b) in isolated.iter().zip(&expected) {
        assert_eq!(a.outcome, RunOutcome::Solved, "{:?}", a.error);
        assert_eq!(
            (&a.problem, a.cost, a.expanded, a.generated),
            (&b.problem, b.cost, b.expanded, b.generated)
        );
    }
}

/// `run-one` reads a bounded run from standard input and refuses anything
/// else as an input error.
#[test]
fn run_one_refuses_what_is_not_a_run() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let run_one = |input: &[u8]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_searchlab"))
            .arg("run-one")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The child may stop reading early; a broken pipe is its answer.
        let _ = child.stdin.take().unwrap().write_all(input);
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run_one(b"");
    assert_eq!(code, Some(2), "{err}");
    let (code, err) = run_one(b"{\"domain\": 1}");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not a run"), "{err}");
    let (code, err) = run_one(&vec![b' '; 130 << 20]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("larger than"), "{err}");
}

/// A run that a limit stops while grounding records how long it ran and
/// its process's peak memory, not a time and memory of 0.
#[test]
fn a_grounding_limit_records_the_time_and_memory_it_took() {
    let mut run = child_run(huge(), limits(60, 512));
    run.limits.max_time = Some(Duration::from_millis(500));
    let record = run_child(&searchlab(), &run, planned(0));
    assert_eq!(record.outcome, RunOutcome::Limit, "{:?}", record.error);
    assert_eq!(record.limit.as_deref(), Some("time"));
    assert!((0.45..10.0).contains(&record.time), "{record:?}");
    assert_eq!(record.translator_time, None);
    assert!(record.memory > 1 << 20, "{record:?}");
    assert_eq!(
        record.memory_measure,
        Some(searchlab_lab::record::MemoryMeasure::ProcessPeak)
    );
}
