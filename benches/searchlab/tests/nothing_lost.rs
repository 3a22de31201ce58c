//! Nothing lost: `bench --out` appends each finished run to results.jsonl at
//! once, so that a kill leaves every finished run in a valid file and
//! `--resume` completes the experiment as if nothing had happened; it
//! refuses a directory that holds results unless told what to do with
//! them, and one it cannot write before the first run; `report` scores
//! against the limits the records carry.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::searchlab;
use serde_json::Value;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "searchlab-nothing-lost-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Twelve runs of a few tenths of a second each in a debug build, with
/// deterministic outcomes: Dijkstra stopped by the expansion limit, A*
/// solving.
const SLOW_SUITE: &str = "\
[limits]
max_expansions = 15000

[[problems]]
generator = \"atomic-toggles\"
sizes = [40]
seeds = [1, 2, 3, 4, 5, 6]

[[configs]]
names = [\"fwd-dijkstra-blind\", \"fwd-astar-hmax\"]
";

fn slow_suite(dir: &Path) -> PathBuf {
    let path = dir.join("slow.toml");
    std::fs::write(&path, SLOW_SUITE).unwrap();
    path
}

/// Every line of `path` as JSON (the test fails on a malformed one).
fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{e}: {line:?} in {}", path.display()))
        })
        .collect()
}

/// What must not change between runs: the outcome, cost and expansions of
/// each problem and configuration.
fn deterministic(records: &[Value]) -> BTreeMap<(String, String), (Value, Value, Value)> {
    records
        .iter()
        .map(|r| {
            (
                (
                    r["problem"].as_str().unwrap().to_owned(),
                    r["config"].as_str().unwrap().to_owned(),
                ),
                (
                    r["outcome"].clone(),
                    r["cost"].clone(),
                    r["expanded"].clone(),
                ),
            )
        })
        .collect()
}

#[test]
fn a_killed_bench_keeps_its_finished_runs_and_resume_completes_it() {
    let dir = temp_dir("kill");
    let suite = slow_suite(&dir);
    let whole = dir.join("whole");
    let (code, _, err) = searchlab(&[
        "bench",
        text(&suite),
        "--no-progress",
        "--jobs",
        "2",
        "--out",
        text(&whole),
    ]);
    assert_eq!(code, 0, "{err}");
    let expected = records(&whole.join("results.jsonl"));
    assert_eq!(expected.len(), 12);

    // Killed (SIGKILL: no chance to clean up) once a run is recorded.
    let out = dir.join("killed");
    let results = out.join("results.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(["bench", text(&suite), "--no-progress", "--jobs", "1"])
        .args(["--out", text(&out)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let began = Instant::now();
    while std::fs::read_to_string(&results).map_or(true, |t| t.lines().next().is_none()) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "searchlab ended before recording a run"
        );
        assert!(began.elapsed() < Duration::from_secs(60), "no run recorded");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let survived = records(&results);
    assert!(
        !survived.is_empty() && survived.len() < expected.len(),
        "{} of {} runs recorded when killed",
        survived.len(),
        expected.len()
    );

    // Without --resume the directory is refused, and left as it is.
    let args = [
        "bench",
        text(&suite),
        "--no-progress",
        "--jobs",
        "1",
        "--out",
        text(&out),
    ];
    let (code, _, err) = searchlab(&args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--resume"), "{err}");
    assert_eq!(records(&results), survived);

    let (code, _, err) = searchlab(&[&args[..], &["--resume"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("{} of 12 runs recorded", survived.len())),
        "{err}"
    );
    let resumed = records(&results);
    assert_eq!(resumed.len(), expected.len());
    assert_eq!(deterministic(&resumed), deterministic(&expected));
    // The runs recorded before the kill were not run again.
    for record in &survived {
        assert!(resumed.contains(record), "{record} was run again");
    }
    // The report is made from the whole file.
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 12);
    assert!(report.contains("fwd-dijkstra-blind"), "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A suite of two quick runs.
fn tiny_suite(dir: &Path) -> PathBuf {
    let path = dir.join("tiny.toml");
    std::fs::write(
        &path,
        "[[problems]]\ngenerator = \"reference\"\n[[configs]]\nnames = [\"fwd-astar-hmax\"]\n",
    )
    .unwrap();
    path
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn bench_refuses_a_non_empty_out_unless_told_to_resume_or_overwrite() {
    let dir = temp_dir("non-empty");
    let suite = tiny_suite(&dir);
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let bench = |extra: &[&str]| {
        let args = [
            &["bench", text(&suite), "--no-progress", "--out", text(&out)],
            extra,
        ]
        .concat();
        searchlab(&args)
    };
    let (code, stdout, err) = bench(&[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not empty"), "{err}");
    assert!(
        err.contains("--resume") && err.contains("--overwrite"),
        "{err}"
    );
    assert!(stdout.is_empty(), "ran anyway: {stdout}");
    assert_eq!(listing(&out), ["notes.txt"]);

    let (code, _, err) = bench(&["--overwrite"]);
    assert_eq!(code, 0, "{err}");
    let first = records(&out.join("results.jsonl"));
    assert!(!first.is_empty());
    assert!(listing(&out).contains(&"notes.txt".to_owned()));

    // Again: refused; resumed with nothing left to run; overwritten.
    let (code, _, err) = bench(&[]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = bench(&["--resume"]);
    assert_eq!(code, 0, "{err}");
    let n = first.len();
    assert!(err.contains(&format!("{n} of {n} runs recorded")), "{err}");
    assert_eq!(records(&out.join("results.jsonl")), first);
    let (code, _, err) = bench(&["--overwrite"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(records(&out.join("results.jsonl")).len(), n);
    assert_ne!(records(&out.join("results.jsonl")), first);

    // They need --out, and exclude each other.
    let (code, _, _) = searchlab(&["bench", text(&suite), "--resume"]);
    assert_eq!(code, 2);
    let (code, _, _) = bench(&["--resume", "--overwrite"]);
    assert_eq!(code, 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_refuses_an_out_it_cannot_write_before_the_first_run() {
    let dir = temp_dir("unwritable");
    let suite = slow_suite(&dir);
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    let out = file.join("out");
    let began = Instant::now();
    let (code, stdout, err) =
        searchlab(&["bench", text(&suite), "--no-progress", "--out", text(&out)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(text(&file)), "{err}");
    // Refused before running: no run's summary, and quicker than the runs.
    assert!(stdout.is_empty(), "ran anyway: {stdout}");
    assert!(
        began.elapsed() < Duration::from_secs(2),
        "{:?}",
        began.elapsed()
    );
    // An --out that is a file is not a directory, and the message says so.
    let (code, _, err) = searchlab(&["bench", text(&suite), "--no-progress", "--out", text(&file)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a directory"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_share_a_directory_but_not_their_results() {
    let dir = temp_dir("shards");
    let suite = tiny_suite(&dir);
    let out = dir.join("out");
    let shard = |k: &str, extra: &[&str]| {
        let args = [
            &[
                "bench",
                text(&suite),
                "--no-progress",
                "--shard",
                k,
                "--out",
                text(&out),
            ],
            extra,
        ]
        .concat();
        searchlab(&args)
    };
    let (code, _, err) = shard("1/2", &[]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = shard("2/2", &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.join("results-1-of-2.jsonl").exists());
    assert!(out.join("results-2-of-2.jsonl").exists());
    let (code, _, err) = shard("2/2", &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("results-2-of-2.jsonl already holds results"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

const RECORD: &str = r#"{"run":0,"domain":"d","problem":"p","config":"A","outcome":"solved","limit":null,"cost":3,"plan_length":3,"expanded":10,"generated":20,"evaluated":10,"reopened":0,"expanded_until_last_jump":0,"time":5.0,"cpu_time":null,"memory":100000000,"stored":5,"validated":true,"winner":null,"error":null,"limits":{"max_time":10.0,"max_expansions":null,"max_memory_bytes":1073741824}}"#;

#[test]
fn report_scores_against_the_limits_in_the_records() {
    let dir = temp_dir("report-limits");
    let results = dir.join("results.jsonl");
    std::fs::write(&results, format!("{RECORD}\n")).unwrap();
    let report = |name: &str, flags: &[&str]| {
        let out = dir.join(name);
        let args = [&["report", text(&results), "--out", text(&out)], flags].concat();
        let (code, stdout, err) = searchlab(&args);
        assert_eq!(code, 0, "{err}");
        (
            stdout,
            std::fs::read_to_string(out.join("report.md")).unwrap(),
        )
    };
    let (stdout, recorded) = report("recorded", &[]);
    assert!(
        stdout.contains("time limit of 10 s and a memory limit of 1024 MiB"),
        "{stdout}"
    );
    let (_, given) = report("given", &["--time-limit", "10", "--memory-limit", "1024"]);
    let (_, other) = report("other", &["--time-limit", "60", "--memory-limit", "512"]);
    assert_eq!(recorded, given);
    assert_ne!(recorded, other);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A resumed experiment re-runs a problem whose file changed (and a
/// configuration that now plans otherwise), and keeps what still holds.
#[test]
fn resume_re_runs_a_problem_whose_file_changed() {
    let dir = temp_dir("edited");
    let problems = dir.join("p");
    std::fs::create_dir_all(&problems).unwrap();
    let hungry = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../problems/hungry_agent.toml"),
    )
    .unwrap();
    std::fs::write(problems.join("hungry.toml"), &hungry).unwrap();
    let suite = dir.join("suite.toml");
    std::fs::write(
        &suite,
        "[[problems]]\nfiles = [\"p/*.toml\"]\n\n[[problems]]\ngenerator = \"atomic-chains\"\nsizes = [16]\n\n[[configs]]\nnames = [\"fwd-astar-hmax\"]\n",
    )
    .unwrap();
    let out = dir.join("out");
    let (code, _, err) = searchlab(&["bench", text(&suite), "--no-progress", "--out", text(&out)]);
    assert_eq!(code, 0, "{err}");
    let cost = |name: &str| {
        records(&out.join("results.jsonl"))
            .into_iter()
            .find(|r| r["problem"] == name)
            .map(|r| r["cost"].clone())
    };
    assert_eq!(cost("hungry-agent"), Some(Value::from(30)));

    // Eating costs 6 now: the optimal plan costs 31.
    let edited = hungry.replace("name = \"eat\"\ncost = 5", "name = \"eat\"\ncost = 6");
    assert_ne!(edited, hungry);
    std::fs::write(problems.join("hungry.toml"), edited).unwrap();
    let (code, stdout, err) = searchlab(&[
        "bench",
        text(&suite),
        "--no-progress",
        "--out",
        text(&out),
        "--resume",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(cost("hungry-agent"), Some(Value::from(31)), "{stdout}{err}");
    // The generated problem did not change: its record was kept.
    assert!(
        format!("{stdout}{err}").contains("1 recorded before"),
        "{stdout}{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--resume` keeps the fields of a record it does not know, and a whole
/// last record without its newline (rewriting the file so that the next
/// record starts a line of its own).
#[test]
fn resume_keeps_unknown_fields_and_a_last_record_without_newline() {
    let dir = temp_dir("resume-unknown");
    let suite = tiny_suite(&dir);
    let out = dir.join("out");
    let results = out.join("results.jsonl");
    let bench = |extra: &[&str]| {
        let args = [
            &["bench", text(&suite), "--no-progress", "--out", text(&out)],
            extra,
        ]
        .concat();
        searchlab(&args)
    };
    let (code, _, err) = bench(&[]);
    assert_eq!(code, 0, "{err}");
    let mut first = records(&results);
    let n = first.len();
    assert!(n >= 2);
    first[0]["future"] = serde_json::json!({"peak": [1, 2.5]});
    let lines: Vec<String> = first.iter().map(Value::to_string).collect();
    std::fs::write(&results, lines.join("\n")).unwrap();

    let (code, _, err) = bench(&["--resume"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(&format!("{n} of {n} runs recorded")), "{err}");
    assert!(!err.contains("unfinished"), "{err}");
    let resumed = std::fs::read_to_string(&results).unwrap();
    assert!(resumed.ends_with('\n'), "{resumed}");
    assert_eq!(records(&results), first);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One `--out` takes one bench at a time: a second fails at once, naming
/// the directory and the first's process; a lock left by a killed bench is
/// taken over.
#[test]
fn a_second_bench_on_one_out_fails_at_once_and_a_stale_lock_is_taken_over() {
    let dir = temp_dir("lock");
    let suite = slow_suite(&dir);
    let out = dir.join("out");
    let results = out.join("results.jsonl");
    let args = [
        "bench",
        text(&suite),
        "--no-progress",
        "--jobs",
        "1",
        "--out",
        text(&out),
    ];
    let mut first = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let began = Instant::now();
    while !results.exists() {
        assert!(first.try_wait().unwrap().is_none(), "the first bench ended");
        assert!(began.elapsed() < Duration::from_secs(60), "no results file");
        std::thread::sleep(Duration::from_millis(5));
    }
    for extra in [&[][..], &["--resume"], &["--overwrite"]] {
        let began = Instant::now();
        let (code, stdout, err) = searchlab(&[&args[..], extra].concat());
        assert_eq!(code, 2, "{extra:?}: {stdout}{err}");
        assert!(
            err.contains(&format!("{} is in use by another bench", out.display()))
                && err.contains(&format!("process {}", first.id())),
            "{extra:?}: {err}"
        );
        assert!(stdout.is_empty(), "ran anyway: {stdout}");
        assert!(began.elapsed() < Duration::from_secs(5));
    }
    assert!(first.try_wait().unwrap().is_none(), "the first bench ended");
    // Killed: it cannot remove its lock.
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(out.join("results.lock").exists());
    let (code, _, err) = searchlab(&[&args[..], &["--resume"]].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!(records(&results).len(), 12);
    assert!(!out.join("results.lock").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A lock of another host cannot be checked and holds; one of this very
/// Slurm job (requeued on another node) is taken over.
#[test]
fn a_lock_of_another_host_holds_unless_it_is_this_slurm_jobs() {
    let dir = temp_dir("lock-host");
    let suite = tiny_suite(&dir);
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let lock = out.join("results.lock");
    std::fs::write(&lock, "4242 node-elsewhere 777\n").unwrap();
    let bench = |job: &str| {
        Command::new(env!("CARGO_BIN_EXE_searchlab"))
            .args(["bench", text(&suite), "--no-progress", "--resume"])
            .args(["--out", text(&out)])
            .env("SLURM_JOB_ID", job)
            .output()
            .unwrap()
    };
    let other = bench("778");
    let err = String::from_utf8_lossy(&other.stderr);
    assert_eq!(other.status.code(), Some(2), "{err}");
    assert!(err.contains("process 4242 on node-elsewhere"), "{err}");
    assert!(lock.exists());
    let same = bench("777");
    let err = String::from_utf8_lossy(&same.stderr);
    assert_eq!(same.status.code(), Some(0), "{err}");
    assert!(!lock.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
