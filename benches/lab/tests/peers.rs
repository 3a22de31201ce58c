//! Peer planners as suite configurations, against stand-ins: small Python
//! scripts laid out like the virtual environment of
//! `scripts/install-peers.sh`, printing what Fast Downward and pyperplan
//! print. They check the subprocess plumbing (arguments, limits, output
//! parsing, plan validation by searchlab) without installing the planners.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use searchlab_lab::external::{run_external, ExternalSearch, Peers};
use searchlab_lab::record::RunOutcome;
use searchlab_lab::runner::{run_suite, RunOptions};
use searchlab_lab::suite::{Configuration, PddlTask, RunLimits, Suite, SuiteProblem};

const DOMAIN: &str = "(define (domain roads) (:requirements :strips)
  (:predicates (at ?x) (road ?x ?y))
  (:action go :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y))
    :effect (and (at ?y) (not (at ?x)))))";

/// The problem; `marker` (a PDDL comment) tells the stand-ins what to do.
fn task(marker: &str) -> PddlTask {
    PddlTask {
        domain_file: "roads/domain.pddl".to_owned(),
        domain: DOMAIN.to_owned(),
        problem_file: "roads/p1.pddl".to_owned(),
        problem: format!(
            "; {marker}\n(define (problem p1) (:domain roads) (:objects a b c)
              (:init (at a) (road a b) (road b c)) (:goal (at c)))"
        ),
    }
}

/// Fast Downward's stand-in: writes the plan to `--plan-file` and prints
/// the statistics lines the suite reads. `wrong` writes a plan that does not
/// reach the goal, `unsolvable` exits as Fast Downward 23 does when a
/// complete search exhausted the space (11; 12 is an incomplete search's
/// "no solution found").
const FAKE_FD: &str = r#"
import sys
args = sys.argv[1:]
plan = args[args.index("--plan-file") + 1]
problem = open(args[args.index("--search") - 1]).read()
if "unsolvable" in problem:
    print("Completely explored state space -- no solution!")
    sys.exit(11)
steps = ["(go a b)"] if "wrong" in problem else ["(go a b)", "(go b c)"]
open(plan, "w").write("\n".join(steps) + "\n; cost = %d (unit cost)\n" % len(steps))
print("[t=0.001s, 10544 KB] Solution found!")
print("[t=0.001s, 10544 KB] Plan cost: %d" % len(steps))
print("[t=0.001s, 10544 KB] Expanded 3 state(s).")
print("[t=0.001s, 10544 KB] Evaluated 4 state(s).")
print("[t=0.001s, 10544 KB] Generated 5 state(s).")
print("[t=0.001s, 10544 KB] Expanded until last jump: 2 state(s).")
print("[t=0.001s, 10544 KB] Number of registered states: 4")
print("[t=0.001s, 10544 KB] Search time: 0.000500s")
print("Solution found.")
print("Peak memory: 10544 KB")
print("search exit code: 0")
print("seen: " + " ".join(args), file=sys.stderr)
"#;

/// pyperplan's stand-in: writes `problem.soln` and logs as pyperplan does;
/// `sleep` hangs (for the time limit).
const FAKE_PYPERPLAN: &str = r#"
import sys, time
problem = sys.argv[-1]
text = open(problem).read()
if "sleep" in text:
    time.sleep(60)
open(problem + ".soln", "w").write("(go a b)\n(go b c)\n")
print("2026-12-02 19:48:03,572 INFO     7 Nodes expanded", file=sys.stderr)
print("2026-12-02 19:48:03,572 INFO     Search time: 0.0072", file=sys.stderr)
print("2026-12-02 19:48:03,572 INFO     Plan length: 2", file=sys.stderr)
"#;

/// A fresh directory laid out like the peers' virtual environment.
fn fake_peers(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "searchlab-fake-peers-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let driver = dir.join("lib/python3.11/site-packages/up_fast_downward/downward");
    std::fs::create_dir_all(&driver).unwrap();
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::fs::write(driver.join("fast-downward.py"), FAKE_FD).unwrap();
    write_script(&dir.join("bin/python"), "#!/bin/sh\nexec python3 \"$@\"\n");
    write_script(
        &dir.join("bin/pyperplan"),
        &format!("#!/usr/bin/env python3\n{FAKE_PYPERPLAN}"),
    );
    dir
}

fn write_script(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn search(name: &str) -> ExternalSearch {
    ExternalSearch::by_name(name).unwrap()
}

#[test]
fn fast_downward_runs_are_read_and_their_plans_validated() {
    let peers = Peers::in_dir(&fake_peers("fd"));
    assert!(peers.fast_downward.is_some());
    let run = run_external(
        search("fd-astar-hmax"),
        &peers,
        &task("ok"),
        RunLimits::default(),
    )
    .unwrap();
    assert_eq!(run.outcome, RunOutcome::Solved, "{run:?}");
    assert_eq!((run.cost, run.plan_length), (Some(2), Some(2)));
    assert_eq!(
        (run.expanded, run.evaluated, run.generated, run.stored),
        (3, 4, 5, 4)
    );
    assert_eq!(run.peak_memory, 10544 * 1024);
    assert_eq!(run.validation, Some(Ok(())));

    let wrong = run_external(
        search("fd-astar-hmax"),
        &peers,
        &task("wrong"),
        RunLimits::default(),
    )
    .unwrap();
    let message = wrong.validation.unwrap().unwrap_err();
    assert!(message.contains("invalid plan"), "{message}");

    let unsolvable = run_external(
        search("fd-astar-blind"),
        &peers,
        &task("unsolvable"),
        RunLimits::default(),
    )
    .unwrap();
    assert_eq!(unsolvable.outcome, RunOutcome::Unsolvable);

    // No expansion limit reaches Fast Downward: a run that needed more is
    // recorded as having reached it.
    let limits = RunLimits {
        max_expansions: Some(2),
        ..RunLimits::default()
    };
    let over = run_external(search("fd-astar-hmax"), &peers, &task("ok"), limits).unwrap();
    assert_eq!(
        (over.outcome, over.limit.as_deref()),
        (RunOutcome::Limit, Some("expansions"))
    );
}

#[test]
fn pyperplan_runs_are_read_and_stopped_at_the_time_limit() {
    let peers = Peers::in_dir(&fake_peers("pp"));
    let run = run_external(
        search("pp-gbfs-ff"),
        &peers,
        &task("ok"),
        RunLimits::default(),
    )
    .unwrap();
    assert_eq!(run.outcome, RunOutcome::Solved, "{run:?}");
    assert_eq!((run.cost, run.expanded), (Some(2), 7));
    assert_eq!(run.validation, Some(Ok(())));

    let limits = RunLimits {
        max_time: Some(Duration::from_secs(1)),
        ..RunLimits::default()
    };
    let began = Instant::now();
    let slow = run_external(search("pp-astar-blind"), &peers, &task("sleep"), limits).unwrap();
    assert_eq!(
        (slow.outcome, slow.limit.as_deref()),
        (RunOutcome::Limit, Some("time"))
    );
    assert!(
        began.elapsed() < Duration::from_secs(20),
        "{:?}",
        began.elapsed()
    );
}

#[test]
fn missing_peers_are_skipped_with_a_note_and_the_rest_run() {
    let mut suite = Suite::new("peers");
    suite.add_problem(SuiteProblem::pddl("roads", "p1", task("ok")));
    for name in ["fwd-astar-hmax", "fd-astar-lmcut", "pp-astar-hmax"] {
        suite.add_config(Configuration::by_name(name).unwrap());
    }
    let nowhere = Peers::in_dir(Path::new("/nonexistent/searchlab-peers"));
    let note = suite.retain_available(&nowhere).unwrap();
    assert!(note.contains("fd-astar-lmcut, pp-astar-hmax"), "{note}");
    assert!(
        note.contains("Fast Downward and pyperplan not installed"),
        "{note}"
    );
    assert_eq!(suite.config_names(), ["fwd-astar-hmax"]);
    let records = run_suite(&suite, &RunOptions::default()).unwrap();
    assert!(records[0].solved());
    assert!(suite.retain_available(&nowhere).is_none());

    // Peer configurations apply to PDDL tasks only.
    let mut mixed = Suite::new("mixed");
    mixed.add_problem(SuiteProblem::atomic(
        "reference",
        "hungry-agent",
        state_atomic::problems::hungry_agent().unwrap(),
    ));
    mixed.add_config(Configuration::by_name("fd-astar-blind").unwrap());
    assert!(mixed.runs().is_empty());
}

#[test]
fn a_suite_runs_peers_from_its_options_and_records_their_figures() {
    let mut suite = Suite::new("peers");
    suite.add_problem(SuiteProblem::pddl("roads", "p1", task("ok")));
    for name in ["fd-astar-hmax", "pp-astar-blind", "fwd-astar-hmax"] {
        suite.add_config(Configuration::by_name(name).unwrap());
    }
    let options = RunOptions {
        jobs: Some(1),
        peers: Some(Peers::in_dir(&fake_peers("suite"))),
        ..RunOptions::default()
    };
    let records = run_suite(&suite, &options).unwrap();
    assert!(
        records.iter().all(|r| r.solved() && r.cost == Some(2)),
        "{records:?}"
    );
    let fd = &records[0];
    assert_eq!(
        (fd.expanded, fd.stored, fd.expanded_until_last_jump),
        (3, 4, 2)
    );
    assert_eq!((fd.memory, fd.cpu_time), (10544 * 1024, Some(0.0005)));
    assert_eq!(
        (records[1].expanded, records[1].cpu_time),
        (7, Some(0.0072))
    );
}

/// A peer's plan on a task searchlab cannot ground to replay (a construct it
/// lacks, a grounding limit) is unchecked, not invalid: the run keeps the
/// peer's answer and says why it was not replayed.
#[test]
fn a_plan_searchlab_cannot_replay_is_unchecked_not_invalid() {
    let peers = Peers::in_dir(&fake_peers("unchecked"));
    let mut unreadable = task("ok");
    unreadable.domain = DOMAIN.replace(":strips", ":strips :timed-initial-literals");
    let run = run_external(
        search("fd-astar-hmax"),
        &peers,
        &unreadable,
        RunLimits::default(),
    )
    .unwrap();
    assert_eq!(run.outcome, RunOutcome::Solved);
    assert_eq!(run.validation, None);
    let why = run.error.unwrap();
    assert!(why.starts_with("plan not replayed: "), "{why}");
}
