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
