//! `searchlab bench SUITE --slurm DIR`: the scripts it writes run the suite
//! in shards and merge into the results of one local run (here without
//! Slurm: each array task is the script run with its task id), and
//! `--submit` hands them to `sbatch`, the merge held until the array
//! succeeds. `scripts/slurm-smoke.sh` does the same on a real Slurm.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use searchlab_lab::record::{read_jsonl, RunRecord};

/// `searchlab args` with `PATH` set to `path` if given.
fn searchlab(args: &[&str], path: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_searchlab"));
    command.args(args);
    if let Some(path) = path {
        command.env("PATH", path);
    }
    command.output().unwrap()
}

/// A fresh directory with a space in its name, as users' paths have.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("searchlab slurm-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A suite of the reference problems under two configurations (14 runs).
fn tiny_suite(dir: &Path) -> PathBuf {
    let suite = dir.join("tiny suite.toml");
    std::fs::write(
        &suite,
        "name = \"tiny\"\n\
         [[problems]]\ngenerator = \"reference\"\n\
         [[configs]]\nnames = [\"fwd-astar-hmax\", \"reg-astar-hmax\"]\n",
    )
    .unwrap();
    suite
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// What must not depend on where a run ran: everything but its times.
/// The record without what changes from run to run: times and the start.
fn deterministic(records: Vec<RunRecord>) -> Vec<RunRecord> {
    records
        .into_iter()
        .map(|r| RunRecord {
            time: 0.0,
            cpu_time: None,
            translator_time: None,
            setup_time: None,
            started: None,
            ..r
        })
        .collect()
}

fn run_script(script: &Path, env: &[(&str, &str)]) {
    let out = Command::new("bash")
        .arg(script)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_array_tasks_and_the_merge_give_the_local_results() {
    let dir = temp_dir("array");
    let suite = tiny_suite(&dir);
    let job = dir.join("job");
    let out = searchlab(
        &[
            "bench",
            text(&suite),
            "--slurm",
            text(&job),
            "--shards",
            "3",
        ],
        None,
    );
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("14 runs in 3 array tasks"), "{said}");
    for task in ["1", "2", "3"] {
        run_script(&job.join("array.sbatch"), &[("SLURM_ARRAY_TASK_ID", task)]);
    }
    assert!(job.join("shard-2/results-2-of-3.jsonl").is_file());
    run_script(&job.join("merge.sbatch"), &[]);
    assert!(job.join("report.md").is_file());
    let local = dir.join("local");
    let out = searchlab(
        &[
            "bench",
            text(&suite),
            "--no-progress",
            "--out",
            text(&local),
        ],
        None,
    );
    assert!(out.status.success(), "{out:?}");
    let merged = deterministic(read_jsonl(&job.join("results.jsonl")).unwrap());
    let local = deterministic(read_jsonl(&local.join("results.jsonl")).unwrap());
    assert_eq!(merged.len(), 14);
    assert_eq!(merged, local);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn submit_queues_the_array_then_the_merge_after_it() {
    let dir = temp_dir("submit");
    let suite = tiny_suite(&dir);
    // A stand-in sbatch: logs its arguments, prints a job id (with a
    // cluster name the first time, as --parsable does on a federation).
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = dir.join("sbatch.log");
    let sbatch = bin.join("sbatch");
    std::fs::write(
        &sbatch,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{log}'\n\
             if [ \"$2\" = \"${{2#--dependency}}\" ]; then echo '4242;cluster'; else echo 4243; fi\n",
            log = text(&log)
        ),
    )
    .unwrap();
    std::fs::set_permissions(&sbatch, std::fs::Permissions::from_mode(0o755)).unwrap();
    let job = dir.join("job");
    let out = searchlab(
        &[
            "bench",
            text(&suite),
            "--slurm",
            text(&job),
            "--shards",
            "2",
            "--partition",
            "short",
            "--slurm-time",
            "15",
            "--submit",
        ],
        Some(&bin),
    );
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("submitted array job 4242 (2 tasks) and merge job 4243"),
        "{said}"
    );
    let calls = std::fs::read_to_string(&log).unwrap();
    let job = text(&job);
    assert_eq!(
        calls,
        format!(
            "--parsable {job}/array.sbatch\n\
             --parsable --dependency=afterok:4242 {job}/merge.sbatch\n"
        )
    );
    let array = std::fs::read_to_string(format!("{job}/array.sbatch")).unwrap();
    assert!(array.contains("#SBATCH --partition=short\n#SBATCH --time=15\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn without_sbatch_the_scripts_stay_and_the_error_says_why() {
    let dir = temp_dir("no-sbatch");
    let suite = tiny_suite(&dir);
    let job = dir.join("job");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = searchlab(
        &["bench", text(&suite), "--slurm", text(&job), "--submit"],
        Some(&empty),
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("cannot run sbatch: not found") && said.contains("submit.sh"),
        "{said}"
    );
    for script in ["array.sbatch", "merge.sbatch", "submit.sh"] {
        assert!(job.join(script).is_file(), "{script}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn slurm_flags_need_slurm_and_exclude_one_shard() {
    let refused: [(&str, &[&str]); 4] = [
        ("--slurm", &["bench", "--shards", "3"]),
        ("--slurm", &["bench", "--submit"]),
        ("--shard", &["bench", "--slurm", "x", "--shard", "1/2"]),
        ("--shards", &["bench", "--slurm", "x", "--shards", "0"]),
    ];
    for (flag, args) in refused {
        let out = searchlab(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains(flag), "{args:?}: {said}");
    }
}
