//! Peer planners as suite configurations, against stand-ins: small Python
//! scripts laid out like the virtual environment of
//! `scripts/install-peers.sh`, printing what Fast Downward, pyperplan and
//! ENHSP print. They check the subprocess plumbing (arguments, limits,
//! output parsing, plan validation by searchlab) without installing the
//! planners, or Java.

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

/// ENHSP's stand-in, run as the environment's `bin/java`: checks its
/// arguments (`-Xmx` where the run has a memory limit, `-jar`, `-o`, `-f`,
/// `-planner`, `-sp`), writes the
/// plan to `-sp` and prints what ENHSP prints. `sleep` hangs (for the time
/// limit), `syntax` fails as ENHSP's parser does (exit code 0 and
/// `Unsolvable Problem`), `fraction` reports a metric value with a
/// fraction, a numeric task (`:functions`) gets a plan of its own.
const FAKE_ENHSP: &str = r#"
import sys, time
args = sys.argv[1:]
if args[0].startswith("-Xmx"):
    args = args[1:]
assert args[0] == "-jar" and args[1].endswith("up_enhsp/ENHSP/enhsp.jar"), args
problem = open(args[args.index("-f") + 1]).read()
domain = open(args[args.index("-o") + 1]).read()
planner = args[args.index("-planner") + 1]
plan = args[args.index("-sp") + 1]
print("Domain parsed\nProblem parsed\nGrounding..\nGrounding Time: 8")
if "sleep" in problem:
    print("-------------Time: 10s ; Expanded Nodes: 25422 (Avg-Speed 2542.0 n/s); Evaluated States: 161067", flush=True)
    time.sleep(60)
if "syntax" in problem:
    print("line 1:52 no viable alternative at input ':goal'\nGrammar is violated\n\nUnsolvable Problem")
    sys.exit(0)
# counters' instance-1 at its optimal cost, 12: c0 down to 3, c2 up to 5, c3 up to 6.
counters = ["(decrement c0)"] * 3 + ["(increment c2)"] * 3 + ["(increment c3)"] * 6
steps = counters if ":functions" in domain else ["(go a b)", "(go b c)"]
open(plan, "w").write("\n".join(steps) + "\n")
print("h(I):2.0\nProblem Solved\n\nFound Plan:")
for i, step in enumerate(steps):
    print("%d.0: %s" % (i, step))
metric = "%d.5" % len(steps) if "fraction" in problem else "%d.0" % len(steps)
print("\nPlan-Length:%d\nMetric (Search):%s" % (len(steps), metric))
print("Planning Time (msec): 61\nHeuristic Time (msec): 28\nSearch Time (msec): 59")
print("Expanded Nodes:%d\nStates Evaluated:%d" % (3 if planner == "opt-hrmax" else 4, 9))
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
    let enhsp = dir.join("lib/python3.11/site-packages/up_enhsp/ENHSP");
    std::fs::create_dir_all(&enhsp).unwrap();
    std::fs::write(enhsp.join("enhsp.jar"), "").unwrap();
    write_script(
        &dir.join("bin/java"),
        &format!("#!/usr/bin/env python3\n{FAKE_ENHSP}"),
    );
    dir
}

/// A numeric task of the IPC 2023 numeric track, as the suites hold it;
/// `marker` as in [`task`].
fn numeric_task(marker: &str) -> PddlTask {
    let dir = tests::repository_root().join("benchmarks/pddl-numeric/counters");
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    PddlTask {
        domain_file: dir.join("domain.pddl").display().to_string(),
        domain: read(&dir.join("domain.pddl")),
        problem_file: dir.join("instances/instance-1.pddl").display().to_string(),
        problem: format!(
            "; {marker}\n{}",
            read(&dir.join("instances/instance-1.pddl"))
        ),
    }
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
    unreadable.domain = DOMAIN.replace(
        "(:predicates",
        "(:constraints (always (at a))) (:predicates",
    );
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

#[test]
fn enhsp_runs_are_read_and_their_plans_validated_where_searchlab_can() {
    let peers = Peers::in_dir(&fake_peers("enhsp"));
    assert!(peers.enhsp.is_some());
    let limits = RunLimits {
        max_memory_bytes: Some(512 << 20),
        ..RunLimits::default()
    };
    let run = run_external(search("enhsp-opt-hrmax"), &peers, &task("ok"), limits).unwrap();
    assert_eq!(run.outcome, RunOutcome::Solved, "{run:?}");
    assert_eq!((run.cost, run.plan_length), (Some(2), Some(2)));
    assert_eq!((run.expanded, run.evaluated), (3, 9));
    assert!((run.search_time - 0.059).abs() < 1e-9);
    assert_eq!(run.translator_time, Some(0.008));
    assert!(run.process_time >= run.search_time);
    assert_eq!(run.validation, Some(Ok(())));

    // A numeric task's plan is replayed with PDDL 2.1's semantics; its cost
    // is the replayed metric value.
    let numeric = run_external(
        search("enhsp-sat-hmrp"),
        &peers,
        &numeric_task("ok"),
        limits,
    )
    .unwrap();
    assert_eq!(numeric.outcome, RunOutcome::Solved, "{numeric:?}");
    assert_eq!((numeric.cost, numeric.plan_length), (Some(12), Some(12)));
    assert_eq!((numeric.validation, numeric.error), (Some(Ok(())), None));
    // A metric value ENHSP reports otherwise than the replay is noted (ENHSP
    // leaves `total-time` out of zenotravel's metric); the plan is valid.
    let fraction = run_external(
        search("enhsp-opt-hrmax"),
        &peers,
        &numeric_task("fraction"),
        limits,
    )
    .unwrap();
    assert_eq!(fraction.outcome, RunOutcome::Solved, "{fraction:?}");
    assert_eq!((fraction.cost, fraction.metric), (Some(12), None));
    assert_eq!(fraction.validation, Some(Ok(())));
    let why = fraction.error.unwrap();
    assert!(
        why.contains("ENHSP reports metric value 12.5, the plan's replayed value is 12"),
        "{why}"
    );

    let refused = run_external(search("enhsp-opt-blind"), &peers, &task("syntax"), limits).unwrap();
    assert_eq!(refused.outcome, RunOutcome::Error);
    assert!(refused.error.unwrap().contains("no viable alternative"));

    let limits = RunLimits {
        max_time: Some(Duration::from_secs(1)),
        ..limits
    };
    let began = Instant::now();
    let slow = run_external(search("enhsp-opt-hrmax"), &peers, &task("sleep"), limits).unwrap();
    assert_eq!(
        (slow.outcome, slow.limit.as_deref(), slow.expanded),
        (RunOutcome::Limit, Some("time"), 25422)
    );
    assert!(
        began.elapsed() < Duration::from_secs(20),
        "{:?}",
        began.elapsed()
    );
}

/// A suite over numeric tasks: searchlab plans them on the factored state
/// beside ENHSP, at the same optimal cost; a heuristic of the atomic state
/// alone (`ff`) does not apply to them, and the report goes on.
#[test]
fn a_numeric_suite_runs_searchlab_beside_enhsp() {
    let mut suite = Suite::new("numeric");
    suite.add_problem(SuiteProblem::pddl(
        "counters",
        "instance-1",
        numeric_task("ok"),
    ));
    for name in [
        "fwd-astar-hrmax",
        "fwd-lazygbfs-hmrp",
        "fwd-lazygbfs-ff",
        "enhsp-opt-hrmax",
    ] {
        suite.add_config(Configuration::by_name(name).unwrap());
    }
    let options = RunOptions {
        jobs: Some(1),
        peers: Some(Peers::in_dir(&fake_peers("numeric-suite"))),
        ..RunOptions::default()
    };
    let records = run_suite(&suite, &options).unwrap();
    let names: Vec<&str> = records.iter().map(|r| r.config.as_str()).collect();
    assert_eq!(
        names,
        ["fwd-astar-hrmax", "fwd-lazygbfs-hmrp", "enhsp-opt-hrmax"]
    );
    let by_name = |name: &str| records.iter().find(|r| r.config == name).unwrap();
    let optimal = by_name("fwd-astar-hrmax");
    assert_eq!(
        (optimal.cost, optimal.validated),
        (Some(12), Some(true)),
        "{optimal:?}"
    );
    let greedy = by_name("fwd-lazygbfs-hmrp");
    assert_eq!(
        (greedy.solved(), greedy.validated),
        (true, Some(true)),
        "{greedy:?}"
    );
    let enhsp = records
        .iter()
        .find(|r| r.config == "enhsp-opt-hrmax")
        .unwrap();
    assert!(enhsp.solved(), "{enhsp:?}");
    assert_eq!((enhsp.cost, enhsp.validated), (Some(12), Some(true)));
    assert_eq!((enhsp.metric, enhsp.time), (None, 0.059));
    assert!(enhsp.process_time.unwrap() >= enhsp.time);
    assert!(records
        .iter()
        .all(|r| r.config.starts_with("enhsp") || r.process_time.is_none()));
    let report = searchlab_lab::report::Report::new(&records);
    let table = report.coverage_table().to_console();
    assert!(table.contains("enhsp-opt-hrmax"), "{table}");
}

#[test]
fn enhsp_without_java_is_skipped_with_a_note_that_says_so() {
    let dir = fake_peers("no-java");
    std::fs::remove_file(dir.join("bin/java")).unwrap();
    let mut peers = Peers::in_dir(&dir);
    // Whatever this machine has: no Java was found.
    peers.enhsp = None;
    let mut suite = Suite::new("peers");
    suite.add_problem(SuiteProblem::pddl("roads", "p1", task("ok")));
    for name in ["fwd-astar-hmax", "enhsp-opt-hrmax", "enhsp-sat-hmrp"] {
        suite.add_config(Configuration::by_name(name).unwrap());
    }
    let note = suite.retain_available(&peers).unwrap();
    assert!(note.contains("enhsp-opt-hrmax, enhsp-sat-hmrp"), "{note}");
    assert!(note.contains("openjdk-17-jre-headless"), "{note}");
    assert_eq!(suite.config_names(), ["fwd-astar-hmax"]);

    let nowhere = Peers::in_dir(Path::new("/nonexistent/searchlab-peers"));
    let mut suite = Suite::new("peers");
    suite.add_config(Configuration::by_name("enhsp-opt-blind").unwrap());
    let note = suite.retain_available(&nowhere).unwrap();
    assert!(note.contains("ENHSP not installed"), "{note}");
}
