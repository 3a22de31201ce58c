//! The `searchlab` program's command line: the limit flags `plan` and `bench`
//! share and their defaults, out-of-range values refused as input errors
//! (exit code 2) rather than panics, and `report` and `merge` refusing what
//! they cannot report on honestly.

mod common;

use common::searchlab;
use std::path::{Path, PathBuf};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("searchlab-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The help of the limit flags, whitespace collapsed: from `--max-time` to
/// the end of `--max-memory-mb`'s line.
fn limits_help(command: &str) -> String {
    let (code, help, _) = searchlab(&[command, "--help"]);
    assert_eq!(code, 0);
    let words: Vec<&str> = help.split_whitespace().collect();
    let help = words.join(" ");
    let start = help.find("--max-time").unwrap_or_else(|| panic!("{help}"));
    let memory = start
        + help[start..]
            .find("--max-memory-mb")
            .unwrap_or_else(|| panic!("{help}"));
    let end = memory + help[memory..].find(" -").unwrap_or(help.len() - memory);
    help[start..end].to_owned()
}

#[test]
fn plan_and_bench_share_the_limit_flags_and_plan_states_its_defaults() {
    let plan = limits_help("plan");
    assert_eq!(plan, limits_help("bench"));
    for flag in ["--max-time", "--max-expansions", "--max-memory-mb"] {
        assert!(plan.contains(flag), "{plan}");
    }
    assert!(plan.contains("default 60"), "{plan}");
    assert!(plan.contains("default 512"), "{plan}");

    let problem = repository().join("problems/hungry_agent.toml");
    let (code, out, err) = searchlab(&["plan", text(&problem)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("limits    60 s, 512 MiB of memory"), "{out}");

    // `x += 1` towards `x < 0` grows until a limit stops it (blind: the
    // numeric heuristic sees that x never falls).
    let dir = temp_dir("runaway");
    let runaway = dir.join("runaway.toml");
    std::fs::write(
        &runaway,
        "kind = \"factored\"\ngoal = [\"x < 0\"]\n[variables]\nx = 0\n\
         [[action]]\nname = \"inc\"\neff = [\"x += 1\"]\n",
    )
    .unwrap();
    let (code, out, err) = searchlab(&[
        "plan",
        text(&runaway),
        "--heuristic",
        "blind",
        "--max-memory-mb",
        "1",
    ]);
    assert_eq!(code, 4, "{out}{err}");
    assert!(out.contains("limit reached (memory)"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn out_of_range_time_limits_are_input_errors_not_panics() {
    let dir = temp_dir("max-time");
    let suite = dir.join("tiny.toml");
    std::fs::write(
        &suite,
        "[[problems]]\ngenerator = \"reference\"\n[[configs]]\nheuristic = \"hmax\"\n",
    )
    .unwrap();
    let problem = repository().join("problems/hungry_agent.toml");
    for bad in ["1e20", "nan", "inf", "-1", "0"] {
        let flag = format!("--max-time={bad}");
        for args in [
            vec!["plan", text(&problem), &flag],
            vec!["bench", text(&suite), "--no-progress", &flag],
        ] {
            let (code, out, err) = searchlab(&args);
            assert_eq!(code, 2, "{args:?}: {out}{err}");
            assert!(
                err.contains("positive number of seconds"),
                "{args:?}: {err}"
            );
        }
    }
    // The same goes for a suite file's.
    std::fs::write(
        &suite,
        "[limits]\nmax_time = 1e20\n[[problems]]\ngenerator = \"reference\"\n\
         [[configs]]\nheuristic = \"hmax\"\n",
    )
    .unwrap();
    let (code, _, err) = searchlab(&["bench", text(&suite), "--no-progress"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 2: max_time"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

const RECORD: &str = r#"{"run":0,"domain":"d","problem":"p","config":"A","outcome":"solved","limit":null,"cost":3,"plan_length":3,"expanded":10,"generated":20,"evaluated":10,"reopened":0,"expanded_until_last_jump":0,"time":TIME,"cpu_time":null,"memory":1000,"stored":5,"validated":true,"winner":null,"error":null}"#;

#[test]
fn report_refuses_impossible_times_and_limits() {
    let dir = temp_dir("report");
    let results = dir.join("r.jsonl");
    let out = dir.join("out");
    std::fs::write(&results, RECORD.replace("TIME", "1e305") + "\n").unwrap();
    let (code, _, err) = searchlab(&["report", text(&results), "--out", text(&out)]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("r.jsonl:1: malformed record: time 1e305"),
        "{err}"
    );

    std::fs::write(&results, RECORD.replace("TIME", "0.5") + "\n").unwrap();
    for bad in ["nan", "inf", "-1", "1e20"] {
        let flag = format!("--time-limit={bad}");
        let (code, _, err) = searchlab(&["report", text(&results), "--out", text(&out), &flag]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("positive number of seconds"), "{bad}: {err}");
    }
    let (code, _, err) = searchlab(&["report", text(&results), "--out", text(&out)]);
    assert_eq!(code, 0, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_refuses_conflicting_runs_unless_told_which_wins() {
    let dir = temp_dir("merge");
    let (a, b, merged) = (
        dir.join("a.jsonl"),
        dir.join("b.jsonl"),
        dir.join("m.jsonl"),
    );
    std::fs::write(&a, RECORD.replace("TIME", "0.5") + "\n").unwrap();
    std::fs::write(&b, RECORD.replace("TIME", "0.7") + "\n").unwrap();
    let (code, _, err) = searchlab(&["merge", text(&a), text(&b), "--out", text(&merged)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("run A on d/p differs between"), "{err}");
    assert!(
        err.contains("a.jsonl and") && err.contains("b.jsonl"),
        "{err}"
    );
    assert!(!merged.exists());

    let (code, out, err) = searchlab(&[
        "merge",
        text(&a),
        text(&b),
        "--out",
        text(&merged),
        "--prefer",
        "last",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 conflicting"), "{out}");
    let written = std::fs::read_to_string(&merged).unwrap();
    assert!(written.contains("\"time\":0.7"), "{written}");

    // Identical duplicates are no conflict.
    let (code, out, err) = searchlab(&["merge", text(&a), text(&a), "--out", text(&merged)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 runs"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A named pipe at `path`, with no reader or writer: opening it blocks.
#[cfg(unix)]
fn fifo(path: &Path) -> PathBuf {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
    path.to_owned()
}

#[cfg(unix)]
fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// `searchlab args` within ten seconds: an output it blocks on fails here.
fn quick(args: &[&str]) -> (i32, String, String) {
    common::searchlab_within(args, std::time::Duration::from_secs(10))
        .unwrap_or_else(|| panic!("searchlab {args:?} hangs"))
}

/// `--plan-file`, `--trace-out` and every `--out` file write only to a
/// regular file or a new path: a named pipe, a link to a device, a link to
/// nothing are refused (exit 2) and left as they are, never removed or
/// replaced, and never opened (a pipe would block).
#[cfg(unix)]
#[test]
fn outputs_never_replace_what_is_not_a_regular_file() {
    use std::os::unix::fs::symlink;
    let dir = temp_dir("outputs");
    let gripper = repository().join("benchmarks/pddl/gripper");
    let (domain, task) = (gripper.join("domain.pddl"), gripper.join("task01.pddl"));
    let hungry = repository().join("problems/hungry_agent.toml");
    let pipe = fifo(&dir.join("pipe"));
    let device = dir.join("device");
    symlink("/dev/null", &device).unwrap();
    let nowhere = dir.join("nowhere");
    symlink(dir.join("no-such-dir/plan"), &nowhere).unwrap();
    let plan = |out: &Path| quick(&["plan", text(&domain), text(&task), "--plan-file", text(out)]);
    for (out, what) in [
        (&pipe, "a named pipe"),
        (&device, "a character device"),
        (&nowhere, "a symbolic link to nothing"),
        (&dir, "a directory"),
    ] {
        let (code, stdout, err) = plan(out);
        assert_eq!(code, 2, "{}: {stdout}{err}", out.display());
        assert!(
            err.contains(&format!("not a regular file but {what}")),
            "{err}"
        );
    }
    assert!(is_fifo(&pipe));
    assert_eq!(std::fs::read_link(&device).unwrap(), Path::new("/dev/null"));
    assert!(std::fs::symlink_metadata(&nowhere).unwrap().is_symlink());

    // A link to a regular file is written through and stays a link.
    let target = dir.join("target.plan");
    std::fs::write(&target, "(stale)\n").unwrap();
    let link = dir.join("link.plan");
    symlink(&target, &link).unwrap();
    let (code, _, err) = plan(&link);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    let written = std::fs::read_to_string(&target).unwrap();
    assert!(
        written.contains("(pick") && !written.contains("stale"),
        "{written}"
    );

    let (code, _, err) = quick(&[
        "plan",
        text(&hungry),
        "--trace",
        "dot",
        "--trace-out",
        text(&pipe),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a regular file but a named pipe"), "{err}");

    let results = dir.join("r.jsonl");
    std::fs::write(&results, RECORD.replace("TIME", "0.5") + "\n").unwrap();
    let (code, _, err) = quick(&["merge", text(&results), "--out", text(&pipe)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a regular file but a named pipe"), "{err}");

    let report = dir.join("report");
    std::fs::create_dir_all(&report).unwrap();
    fifo(&report.join("report.md"));
    let (code, _, err) = quick(&["report", text(&results), "--out", text(&report)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("report.md: not a regular file"), "{err}");

    let bench = dir.join("bench");
    std::fs::create_dir_all(&bench).unwrap();
    fifo(&bench.join("results.jsonl"));
    let suite = dir.join("tiny.toml");
    std::fs::write(
        &suite,
        "[[problems]]\ngenerator = \"reference\"\n[[configs]]\nnames = [\"fwd-astar-hmax\"]\n",
    )
    .unwrap();
    let (code, _, err) = quick(&[
        "bench",
        text(&suite),
        "--no-progress",
        "--overwrite",
        "--out",
        text(&bench),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("results.jsonl: not a regular file"), "{err}");
    assert!(is_fifo(&pipe) && is_fifo(&report.join("report.md")));
    assert!(is_fifo(&bench.join("results.jsonl")));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Inputs are read under the 64 MiB cap (`report` and `merge` too, which
/// read results files), and a named pipe is refused, not waited on.
#[cfg(unix)]
#[test]
fn inputs_are_capped_and_pipes_refused_without_blocking() {
    let dir = temp_dir("inputs");
    let out = dir.join("out");
    for args in [
        vec!["report", "/dev/zero", "--out", text(&out)],
        vec!["merge", "/dev/zero", "--out", text(&out)],
    ] {
        let (code, _, err) = quick(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("/dev/zero:1: malformed record: the line is longer than 64 MiB"),
            "{err}"
        );
    }
    let pipe = fifo(&dir.join("pipe"));
    let domain = repository().join("benchmarks/pddl/gripper/domain.pddl");
    for args in [
        vec!["plan", text(&pipe)],
        vec!["plan", text(&domain), text(&pipe)],
        vec!["plan", text(&pipe), text(&domain)],
        vec!["bench", text(&pipe), "--no-progress"],
        vec!["report", text(&pipe), "--out", text(&out)],
        vec!["merge", text(&pipe), "--out", text(&out)],
    ] {
        let (code, _, err) = quick(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("not a regular file but a named pipe"),
            "{args:?}: {err}"
        );
    }
    assert!(is_fifo(&pipe));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--jobs` beyond the runs or the cores starts no more threads than are
/// useful: a huge number neither hangs nor fails.
#[test]
fn jobs_are_capped_at_the_runs_and_the_cores() {
    let (code, help, _) = searchlab(&["bench", "--help"]);
    assert_eq!(code, 0);
    assert!(help.contains("at most one per run and 4 per"), "{help}");
    let dir = temp_dir("jobs");
    std::fs::copy(
        repository().join("problems/hungry_agent.toml"),
        dir.join("hungry.toml"),
    )
    .unwrap();
    let suite = dir.join("one-run.toml");
    std::fs::write(
        &suite,
        "[[problems]]\nfiles = [\"hungry.toml\"]\n[[configs]]\nnames = [\"fwd-astar-hmax\"]\n",
    )
    .unwrap();
    for jobs in ["5000", "100000"] {
        let began = std::time::Instant::now();
        let (code, out, err) = quick(&["bench", text(&suite), "--no-progress", "--jobs", jobs]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("1 solved") && out.contains(", 1 jobs"),
            "{out}"
        );
        assert!(
            began.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            began.elapsed()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `merge` keeps the fields of a record it does not know (a newer
/// searchlab's, or added by hand), and a last record without its newline.
#[test]
fn merge_keeps_unknown_fields_and_a_last_line_without_newline() {
    let dir = temp_dir("merge-unknown");
    let (a, merged) = (dir.join("a.jsonl"), dir.join("m.jsonl"));
    let extra = RECORD
        .replace("TIME", "0.5")
        .replace("\"run\":0,", "\"run\":0,\"future\":{\"peak\":[1,2.5]},");
    let second = RECORD.replace("TIME", "0.25").replace("\"A\"", "\"B\"");
    // No newline after the second record.
    std::fs::write(&a, format!("{extra}\n{second}")).unwrap();
    let (code, out, err) = searchlab(&["merge", text(&a), "--out", text(&merged)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2 runs"), "{out}");
    let written = std::fs::read_to_string(&merged).unwrap();
    let first: serde_json::Value = serde_json::from_str(written.lines().next().unwrap()).unwrap();
    assert_eq!(
        first["future"],
        serde_json::json!({"peak": [1, 2.5]}),
        "{written}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With `--json`, `plan`'s input errors are JSON too: an object with an
/// `error` field on standard output, exit code 2.
#[test]
fn plan_json_input_errors_are_json() {
    let dir = temp_dir("json-errors");
    let hungry = repository().join("problems/hungry_agent.toml");
    let gripper = repository().join("benchmarks/pddl/gripper");
    let missing = dir.join("missing.toml");
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "kind = \"atomic\"\n[[action]\n").unwrap();
    let trace_dir = dir.join("a-dir");
    std::fs::create_dir_all(&trace_dir).unwrap();
    for (args, says) in [
        (vec!["plan", text(&missing), "--json"], "missing.toml"),
        (vec!["plan", text(&bad), "--json"], "bad.toml"),
        (
            vec!["plan", text(&hungry), "--json", "--heuristic", "no-such"],
            "no-such",
        ),
        (
            vec!["plan", text(&hungry), "--json", "--direction", "sideways"],
            "sideways",
        ),
        (
            vec!["plan", text(&gripper.join("task01.pddl")), "--json"],
            "is PDDL",
        ),
        (
            vec![
                "plan",
                text(&gripper.join("domain.pddl")),
                text(&missing),
                "--json",
            ],
            "missing.toml",
        ),
        (
            vec![
                "plan",
                text(&hungry),
                "--json",
                "--trace",
                "dot",
                "--trace-out",
                text(&trace_dir),
            ],
            "a directory",
        ),
    ] {
        let (code, out, err) = searchlab(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        let value: serde_json::Value =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out:?} {err:?}"));
        let error = value["error"].as_str().unwrap_or_default();
        assert!(error.contains(says), "{args:?}: {value}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A PDDL task of more than 32,768 facts plans like any other, in both
/// directions: on a state of any width, beyond the widest fixed one. The
/// memory limit leaves out the h^2 tables of so many facts.
#[test]
fn plan_solves_a_pddl_task_beyond_the_widest_fixed_state() {
    let dir = temp_dir("hall");
    let (domain, problem) = benches::hall::hall(32_800, 10);
    let (domain_file, problem_file) = (dir.join("domain.pddl"), dir.join("hall.pddl"));
    std::fs::write(&domain_file, domain).unwrap();
    std::fs::write(&problem_file, problem).unwrap();
    for direction in ["forward", "regression"] {
        let (code, out, err) = searchlab(&[
            "plan",
            text(&domain_file),
            text(&problem_file),
            "--direction",
            direction,
            "--heuristic",
            "lmcut",
            "--max-memory-mb",
            "256",
        ]);
        assert_eq!(code, 0, "{direction}: {err}");
        let cost = format!("; cost      {}\n", benches::hall::HALL_OPTIMUM);
        assert!(out.contains(&cost), "{direction}: {out}");
        assert!(out.contains("; validated yes"), "{direction}: {out}");
        assert!(out.contains("(slide r2 r6)"), "{direction}: {out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--configs` runs the named configurations in place of a suite file's
/// own, and names one it does not know.
#[test]
fn configs_replace_a_suite_files_own() {
    let dir = temp_dir("configs");
    let suite = dir.join("tiny.toml");
    std::fs::write(
        &suite,
        "[[problems]]\ngenerator = \"reference\"\n[[configs]]\nheuristic = \"hmax\"\n",
    )
    .unwrap();
    let out = dir.join("out");
    let (code, text_out, err) = searchlab(&[
        "bench",
        text(&suite),
        "--no-progress",
        "--configs",
        "fwd-gbfs-mismatch,bid-ttbs-mismatch",
        "--out",
        text(&out),
    ]);
    assert_eq!(code, 0, "{text_out}{err}");
    let records = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    let configs: std::collections::BTreeSet<&str> = records
        .lines()
        .filter_map(|line| line.split("\"config\":\"").nth(1))
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert_eq!(
        configs.into_iter().collect::<Vec<_>>(),
        ["bid-ttbs-mismatch", "fwd-gbfs-mismatch"]
    );
    let (code, _, err) = searchlab(&[
        "bench",
        text(&suite),
        "--no-progress",
        "--configs",
        "fwd-nope-hmax",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nope"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
