//! Records that say what produced them (the build, the limits, the
//! machine, when, how long on the clock and on the CPU, the translator's
//! time for PDDL), and the results file they go into as each run ends.

use std::time::Duration;

use searchlab_lab::provenance::Build;
use searchlab_lab::record::{to_lab_properties, Limits, MemoryMeasure, RunRecord};
use searchlab_lab::results::{Existing, ResultsFile};
use searchlab_lab::runner::{planned_record, run_suite, run_suite_with, RunOptions};
use searchlab_lab::suite::{RunLimits, Suite, SuiteProblem};
use searchlab_lab::suite_file::pddl_suite;
use searchlab_lab::SuiteError;

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("searchlab-records-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// gripper task01 and one atomic problem, forward A* with `h_max`.
fn mixed_suite() -> Suite {
    let limits = RunLimits {
        max_time: Some(Duration::from_secs(30)),
        max_memory_bytes: Some(256 << 20),
        max_expansions: Some(100_000),
    };
    let task = tests::pddl_benchmarks().join("gripper/task01.pddl");
    let mut suite = pddl_suite(&[task], &["fwd-astar-hmax".to_owned()], limits).unwrap();
    suite.add_problem(SuiteProblem::atomic(
        "reference",
        "hungry-agent",
        state_atomic::problems::hungry_agent().unwrap(),
    ));
    suite
}

fn options() -> RunOptions {
    RunOptions {
        jobs: Some(1),
        ..RunOptions::default()
    }
}

#[test]
fn every_record_says_what_produced_it() {
    let suite = mixed_suite();
    let records = run_suite(&suite, &options()).unwrap();
    assert_eq!(records.len(), 2);
    let in_git = tests::repository_root().join(".git").exists();
    for r in &records {
        assert!(r.solved(), "{r:?}");
        let build = r.build.as_ref().unwrap();
        assert_eq!(build.version, env!("CARGO_PKG_VERSION"));
        assert_eq!(*build, Build::this());
        if in_git {
            let revision = build.revision.as_deref().unwrap();
            assert!(
                revision.len() == 40 && revision.chars().all(|c| c.is_ascii_hexdigit()),
                "{revision}"
            );
            assert!(build.dirty.is_some());
        }
        assert_eq!(
            r.limits,
            Some(Limits {
                max_time: Some(30.0),
                max_expansions: Some(100_000),
                max_memory_bytes: Some(256 << 20),
            })
        );
        let machine = r.machine.as_ref().unwrap();
        assert!(machine.cores.is_some_and(|c| c >= 1), "{machine:?}");
        // `2026-01-31T12:34:56.789Z`
        let started = r.started.as_deref().unwrap();
        assert_eq!(started.len(), 24, "{started}");
        assert!(
            started.ends_with('Z') && &started[10..11] == "T" && &started[4..5] == "-",
            "{started}"
        );
        assert_eq!(r.memory_measure, Some(MemoryMeasure::SearchEstimate));
        assert!(r.memory > 0);
        if cfg!(target_os = "linux") {
            assert!(machine.hostname.is_some(), "{machine:?}");
            assert!(r.cpu_time.is_some(), "{r:?}");
        }
    }
    let pddl = records.iter().find(|r| r.domain == "gripper").unwrap();
    let atomic = records.iter().find(|r| r.domain == "reference").unwrap();
    let translator = pddl.translator_time.unwrap();
    assert!(translator > 0.0, "{pddl:?}");
    assert_eq!(atomic.translator_time, None);
    if cfg!(target_os = "linux") {
        // The peak before the search: the process's, so at least a page.
        assert!(
            pddl.translator_memory.is_some_and(|b| b >= 4096),
            "{pddl:?}"
        );
    }
    assert_eq!(atomic.translator_memory, None);
    // Downward Lab's times: the total is the translator's and the search's.
    let lab = to_lab_properties(&records);
    let run = &lab[format!("fwd-astar-hmax-gripper-{}", pddl.problem)];
    assert_eq!(run["translator_time"], translator);
    if let Some(peak) = pddl.translator_memory {
        assert_eq!(run["translator_peak_memory"], peak.div_ceil(1024));
    }
    assert_eq!(run["search_time"], pddl.time);
    assert_eq!(run["total_time"], translator + pddl.time);
}

#[test]
fn a_results_file_gets_each_record_as_its_run_ends() {
    let suite = mixed_suite();
    let dir = temp_dir("append");
    let (mut file, _) = ResultsFile::open(&dir, "results", Existing::Refuse, false, &[]).unwrap();
    let path = file.path().to_owned();
    let mut lines_seen = Vec::new();
    let ran = run_suite_with(&suite, &options(), |record| {
        file.append(record)?;
        // On disk before the next run starts.
        lines_seen.push(std::fs::read_to_string(&path).unwrap().lines().count());
        Ok(())
    })
    .unwrap();
    assert_eq!(lines_seen, [1, 2]);
    assert_eq!(file.finish().unwrap(), ran);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failing_writer_stops_the_suite() {
    let suite = mixed_suite();
    let mut calls = 0;
    let error = run_suite_with(&suite, &options(), |_| {
        calls += 1;
        Err(SuiteError::Invalid("disk full".to_owned()))
    })
    .unwrap_err();
    assert_eq!(error.to_string(), "disk full");
    assert_eq!(calls, 1);
}

#[test]
fn resume_keeps_this_experiments_records_and_sets_the_others_aside() {
    let suite = mixed_suite();
    let runs = suite.runs();
    let planned: Vec<RunRecord> = runs.iter().map(|r| planned_record(&suite, *r)).collect();
    let records = run_suite(&suite, &options()).unwrap();
    let dir = temp_dir("resume");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("results.jsonl");
    // The first run's record, numbered as in a smaller suite; the same
    // under other limits, of an older build and without any (an old file);
    // again; and half a line, as a kill leaves it.
    let mut renumbered = records[0].clone();
    renumbered.run = 7;
    let mut other_limits = records[0].clone();
    other_limits.limits = Some(Limits::default());
    let mut older = records[0].clone();
    older.build.as_mut().unwrap().revision = Some("0".repeat(40));
    let mut unknown = records[0].clone();
    unknown.build = None;
    let mut text = String::new();
    for r in [&renumbered, &other_limits, &older, &unknown, &records[0]] {
        text.push_str(&serde_json::to_string(r).unwrap());
        text.push('\n');
    }
    let line = serde_json::to_string(&records[1]).unwrap();
    text.push_str(&line[..line.len() / 2]);
    std::fs::write(&path, &text).unwrap();

    assert!(ResultsFile::open(&dir, "results", Existing::Refuse, false, &planned).is_err());
    let (file, resumed) =
        ResultsFile::open(&dir, "results", Existing::Resume, false, &planned).unwrap();
    assert_eq!(resumed.kept, [records[0].clone()]);
    assert_eq!(resumed.superseded, 4);
    assert!(resumed.torn);
    let skip = resumed.skip();
    assert_eq!(skip.len(), 1);
    assert!(skip.contains(&planned[records[0].run].resume_key().unwrap()));
    // Set aside, not lost.
    let aside = searchlab_lab::record::read_jsonl(&dir.join("results.superseded.jsonl")).unwrap();
    assert_eq!(aside, [other_limits, older, unknown, records[0].clone()]);
    assert_eq!(file.finish().unwrap(), [records[0].clone()]);

    // The run left is the only one run again.
    let (mut file, resumed) =
        ResultsFile::open(&dir, "results", Existing::Resume, false, &planned).unwrap();
    let options = RunOptions {
        skip: resumed.skip(),
        ..options()
    };
    let ran = run_suite_with(&suite, &options, |r| file.append(r)).unwrap();
    assert_eq!(ran.len(), 1);
    assert_eq!(ran[0].run, records[1].run);
    let all = file.finish().unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0], records[0]);
    std::fs::remove_dir_all(&dir).unwrap();
}
