//! The benchmark suite: deterministic whatever the number of jobs, shards
//! that merge back into the whole, panics recorded as failures, limits, and
//! the report arithmetic on hand-made result sets.

use std::path::PathBuf;

use planners::heuristics::{heuristic, AtomicFactory, NamedHeuristic};
use planners::{BoxedHeuristic, Direction};
use search_core::{Admissible, Algorithm};
use searchlab_lab::record::{
    merge, read_jsonl, to_csv, to_lab_properties, write_jsonl, RunOutcome, RunRecord,
};
use searchlab_lab::report::{geometric_mean, log_score, Attribute, Report, Score, ScoreBounds};
use searchlab_lab::runner::{run_suite, RunOptions, Shard};
use searchlab_lab::suite::{Configuration, RunLimits, Suite, SuiteProblem};
use searchlab_lab::suite_file::parse_suite;
use state_atomic::{ActionSet, Bits, PartialState, WorldState};

/// An atomic heuristic that panics off the empty state (forward only).
struct Boom;

impl AtomicFactory for Boom {
    fn forward<'a, B: Bits>(
        &self,
        _: &'a ActionSet<B>,
        _: &'a WorldState<B>,
        _: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, WorldState<B>>> {
        Some(Box::new(|s: &WorldState<B>| -> u32 {
            assert!(s.bits().is_zero(), "the heuristic gave up");
            0
        }))
    }

    fn regression<'a, B: Bits>(
        &self,
        _: &'a ActionSet<B>,
        _: &'a WorldState<B>,
        _: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, PartialState<B>>> {
        None
    }
}

/// 1 while the goal does not hold (atomic, forward only): admissible with
/// costs of 1 or more.
struct OpenGoal;

impl AtomicFactory for OpenGoal {
    fn forward<'a, B: Bits>(
        &self,
        _: &'a ActionSet<B>,
        _: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, WorldState<B>>> {
        Some(Box::new(Admissible(move |s: &WorldState<B>| {
            u32::from(!s.satisfies(goal))
        })))
    }

    fn regression<'a, B: Bits>(
        &self,
        _: &'a ActionSet<B>,
        _: &'a WorldState<B>,
        _: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, PartialState<B>>> {
        None
    }
}

/// A suite small enough for debug builds: three atomic problems, one
/// factored, forward and regression A*, GBFS and Dijkstra.
fn tiny_suite() -> Suite {
    let mut suite = Suite::new("tiny");
    suite.limits = RunLimits {
        max_expansions: Some(5_000),
        ..RunLimits::default()
    };
    suite.add_problem(SuiteProblem::atomic(
        "reference",
        "hungry-agent",
        state_atomic::problems::hungry_agent().unwrap(),
    ));
    suite.add_problem(SuiteProblem::atomic(
        "reference",
        "consumed-fact",
        state_atomic::problems::consumed_fact().unwrap(),
    ));
    for seed in [1, 2] {
        suite.add_problem(SuiteProblem::atomic(
            "chains",
            &format!("chains-16-s{seed}"),
            state_atomic::problems::chains(16, seed).unwrap(),
        ));
    }
    suite.add_problem(SuiteProblem::factored(
        "factored",
        "hitman",
        state_factored::problems::hitman().unwrap(),
    ));
    for direction in [Direction::Forward, Direction::Regression] {
        for (algorithm, name) in [
            (Algorithm::AStar, "hmax"),
            (Algorithm::AStar, "numeric"),
            (Algorithm::GreedyBestFirst, "mismatch"),
            (Algorithm::Dijkstra, "blind"),
        ] {
            let heuristic = heuristic(name).unwrap();
            suite.add_config(Configuration::searchlab(direction, algorithm, heuristic));
        }
    }
    suite
}

/// What must not depend on jobs, shards or machines: the run's key, outcome,
/// cost, plan length and counters.
type Deterministic = (
    String,
    String,
    String,
    RunOutcome,
    Option<u64>,
    Option<usize>,
    [u64; 4],
);

fn deterministic(records: &[RunRecord]) -> Vec<Deterministic> {
    records
        .iter()
        .map(|r| {
            (
                r.domain.clone(),
                r.problem.clone(),
                r.config.clone(),
                r.outcome,
                r.cost,
                r.plan_length,
                [
                    r.expanded,
                    r.generated,
                    r.evaluated,
                    r.expanded_until_last_jump,
                ],
            )
        })
        .collect()
}

fn options(jobs: usize) -> RunOptions {
    RunOptions {
        jobs: Some(jobs),
        ..RunOptions::default()
    }
}

#[test]
fn applicable_runs_only() {
    let suite = tiny_suite();
    // 4 atomic problems x 6 configs (not numeric) + 1 factored x 8 (hmax is
    // the numeric h_max there).
    assert_eq!(suite.runs().len(), 4 * 6 + 8);
    let indices: Vec<usize> = suite.runs().iter().map(|r| r.index).collect();
    assert_eq!(indices, (0..32).collect::<Vec<_>>());
}

#[test]
fn same_results_whatever_the_number_of_jobs() {
    let suite = tiny_suite();
    let one = run_suite(&suite, &options(1)).unwrap();
    let two = run_suite(&suite, &options(2)).unwrap();
    let three = run_suite(&suite, &options(3)).unwrap();
    assert_eq!(one.len(), suite.runs().len());
    assert_eq!(deterministic(&one), deterministic(&two));
    assert_eq!(deterministic(&one), deterministic(&three));
    // Records come back in run order, whatever order they ran in.
    assert!(one.iter().enumerate().all(|(i, r)| r.run == i));
    // Known optima, and every solved plan replayed.
    for r in &one {
        assert!(
            r.outcome != RunOutcome::Solved || r.validated == Some(true),
            "{r:?}"
        );
        if r.solved() && (r.config.contains("astar") || r.config.contains("dijkstra")) {
            match r.problem.as_str() {
                "hungry-agent" => assert_eq!(r.cost, Some(30), "{r:?}"),
                "consumed-fact" => assert_eq!(r.cost, Some(7), "{r:?}"),
                "hitman" => assert_eq!(r.cost, Some(15), "{r:?}"),
                _ => {}
            }
        }
    }
    assert!(one.iter().filter(|r| r.solved()).count() >= 20);
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "searchlab-suite-test-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn shards_are_disjoint_and_merge_into_the_whole() {
    let suite = tiny_suite();
    let whole = run_suite(&suite, &options(2)).unwrap();
    let dir = temp_dir("shards");
    let mut files = Vec::new();
    let mut sizes = Vec::new();
    for k in 1..=3 {
        let shard: Shard = format!("{k}/3").parse().unwrap();
        let part = run_suite(
            &suite,
            &RunOptions {
                jobs: Some(1),
                shard: Some(shard),
                ..RunOptions::default()
            },
        )
        .unwrap();
        assert!(part.iter().all(|r| shard.contains(r.run)));
        sizes.push(part.len());
        let file = dir.join(format!("part-{k}.jsonl"));
        write_jsonl(&file, &part).unwrap();
        files.push(file);
    }
    assert_eq!(sizes.iter().sum::<usize>(), whole.len());
    // Read back from the files, in a scrambled order, plus one duplicate.
    let mut parts: Vec<(String, Vec<RunRecord>)> = files
        .iter()
        .rev()
        .map(|f| (f.display().to_string(), read_jsonl(f).unwrap()))
        .collect();
    parts.push(("again".to_owned(), vec![parts[0].1[0].clone()]));
    let merged = merge(parts, None).unwrap();
    assert_eq!((merged.identical, merged.conflicts), (1, 0));
    assert_eq!(deterministic(&merged.records), deterministic(&whole));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_panicking_configuration_is_a_failed_run_not_a_failed_suite() {
    let mut suite = tiny_suite();
    let boom = NamedHeuristic::builder("boom", "panics")
        .forward_only()
        .atomic(Boom)
        .build();
    suite.add_config(Configuration::searchlab(
        Direction::Forward,
        Algorithm::AStar,
        boom,
    ));
    let records = run_suite(&suite, &options(2)).unwrap();
    let boom: Vec<&RunRecord> = records
        .iter()
        .filter(|r| r.config == "fwd-astar-boom")
        .collect();
    // Atomic problems only: the heuristic has no factored factory.
    assert_eq!(boom.len(), 4);
    let panicked: Vec<&&RunRecord> = boom
        .iter()
        .filter(|r| r.outcome == RunOutcome::Panic)
        .collect();
    assert!(!panicked.is_empty());
    assert!(panicked.iter().all(|r| r
        .error
        .as_deref()
        .unwrap()
        .contains("the heuristic gave up")));
    // The rest of the suite ran as before.
    let others: Vec<RunRecord> = records
        .iter()
        .filter(|r| r.config != "fwd-astar-boom")
        .cloned()
        .collect();
    let plain = run_suite(&tiny_suite(), &options(2)).unwrap();
    assert_eq!(deterministic(&others), deterministic(&plain),);
    let report = Report::new(&records);
    assert!(report
        .warnings()
        .iter()
        .any(|w| w.starts_with("PANIC: fwd-astar-boom")));
}

#[test]
fn a_custom_heuristic_lands_in_the_same_tables() {
    let mut suite = tiny_suite();
    let open = NamedHeuristic::builder("open", "1 until the goal holds")
        .admissible()
        .forward_only()
        .atomic(OpenGoal)
        .build();
    suite.add_config(Configuration::searchlab(
        Direction::Forward,
        Algorithm::AStar,
        open,
    ));
    let records = run_suite(&suite, &options(2)).unwrap();
    let report = Report::new(&records);
    assert_eq!(report.coverage("reference", "fwd-astar-open"), 2);
    let c = report.compare("fwd-astar-hmax", "fwd-astar-open");
    assert!(c.common >= 3);
    assert!(c.cost_differs.is_empty(), "{c:?}");
    // h_max is at least as informed: the open-goal count expands no fewer.
    assert_eq!(c.b_fewer, 0);
}

#[test]
fn memory_limit_stops_a_run() {
    let mut suite = tiny_suite();
    suite.limits.max_memory_bytes = Some(1);
    let records = run_suite(&suite, &options(2)).unwrap();
    let chains: Vec<&RunRecord> = records.iter().filter(|r| r.domain == "chains").collect();
    assert!(
        chains
            .iter()
            .all(|r| r.outcome == RunOutcome::Limit && r.limit.as_deref() == Some("memory")),
        "{chains:?}"
    );
}

fn record(
    domain: &str,
    problem: &str,
    config: &str,
    expanded: Option<u64>,
    time: f64,
) -> RunRecord {
    let mut r = RunRecord::new(0, domain, problem, config);
    if let Some(e) = expanded {
        r.outcome = RunOutcome::Solved;
        r.validated = Some(true);
        r.expanded = e;
        r.expanded_until_last_jump = e / 2;
        r.cost = Some(10);
        r.plan_length = Some(3);
    } else {
        r.outcome = RunOutcome::Limit;
        r.limit = Some("expansions".to_owned());
        r.expanded = 1_000_000;
    }
    r.generated = r.expanded * 3;
    r.time = time;
    r.memory = 4_000_000;
    r
}

/// Two domains, two configurations; A solves p1, p2, q1; B solves p1, p3,
/// q1, q2.
fn hand_made() -> Vec<RunRecord> {
    vec![
        record("d", "p1", "A", Some(100), 0.001),
        record("d", "p2", "A", Some(1_000), 0.5),
        record("d", "p3", "A", None, 2.0),
        record("e", "q1", "A", Some(10), 0.02),
        record("e", "q2", "A", None, 2.0),
        record("d", "p1", "B", Some(400), 0.004),
        record("d", "p2", "B", None, 2.0),
        record("d", "p3", "B", Some(50), 0.1),
        record("e", "q1", "B", Some(40), 0.08),
        record("e", "q2", "B", Some(5), 0.01),
    ]
}

#[test]
fn geometric_means_scores_and_coverage_on_a_hand_made_set() {
    assert!((geometric_mean(&[1.0, 10.0, 100.0]).unwrap() - 10.0).abs() < 1e-9);
    assert!((log_score(1e3, 100.0, 1e6) - 0.75).abs() < 1e-12);
    assert!((log_score(50.0, 100.0, 1e6) - 1.0).abs() < 1e-12);

    let records = hand_made();
    let report = Report::new(&records);
    assert_eq!(report.configs(), ["A", "B"]);
    assert_eq!(report.domains(), [("d".to_owned(), 3), ("e".to_owned(), 2)]);
    assert_eq!(report.coverage("d", "A"), 2);
    assert_eq!(report.coverage("d", "B"), 2);
    assert_eq!(report.coverage("e", "B"), 2);
    assert_eq!(report.commonly_solved("d", report.configs()), ["p1"]);
    assert_eq!(report.commonly_solved("e", report.configs()), ["q1"]);

    let coverage = report.coverage_table();
    assert_eq!(coverage.rows.last().unwrap(), &["Sum (5)", "3", "4"]);

    // Expansions over the commonly solved p1 and q1: A sqrt(100*10), B sqrt(400*40).
    let expansions = report.attribute_table(Attribute::Expansions);
    assert_eq!(expansions.rows[0], ["d (1)", "100", "400"]);
    assert_eq!(expansions.rows[2], ["All (2)", "31.62", "126"]);
    // Times clamped to 0.01: A sqrt(0.01*0.02), B sqrt(0.01*0.08).
    let times = report.attribute_table(Attribute::Time);
    assert_eq!(times.rows[2], ["All (2)", "0.01414", "0.02828"]);
    let cost = report.attribute_table(Attribute::Cost);
    assert_eq!(cost.rows[2], ["All (2)", "20", "20"]);

    // Expansion scores: 100 -> 1, 1000 -> 0.75, 10 -> 1; unsolved 0.
    let scores = report.score_table(Score::Expansions, ScoreBounds::default());
    assert_eq!(scores.rows[0][1], "1.75");
    let b_d = 1.0 - (4.0f64).ln() / (1e4f64).ln() + 1.0;
    assert_eq!(scores.rows[0][2], format!("{b_d:.2}"));

    // B against A: p1 4x, q1 4x; p2 only A, p3 and q2 only B.
    let c = report.compare("A", "B");
    assert_eq!(c.common, 2);
    assert!((c.expansions_ratio.unwrap() - 4.0).abs() < 1e-9);
    assert!((c.last_jump_ratio.unwrap() - 4.0).abs() < 1e-9);
    assert_eq!((c.a_fewer, c.b_fewer, c.equal), (2, 0, 0));
    assert_eq!(c.only_a, ["d/p2"]);
    assert_eq!(c.only_b, ["d/p3", "e/q2"]);
    let table = report.compare_table("A", "B");
    assert_eq!(
        table.rows[0],
        ["d", "p1", "100", "400", "4.00", "0.001000", "0.004000", "1.00"]
    );
    assert_eq!(table.rows[1][3], "limit");
}

#[test]
fn invalid_plans_are_flagged_everywhere() {
    let mut records = hand_made();
    records[0].validated = Some(false);
    records[0].error = Some("invalid plan: step 2 (eat): precondition has_food fails".to_owned());
    let report = Report::new(&records);
    assert_eq!(report.coverage("d", "A"), 1);
    assert!(report.warnings()[0].starts_with("INVALID PLAN: A on d/p1"));
    assert!(report.console_summary().contains("!! INVALID PLAN"));
    assert!(report
        .markdown("t", ScoreBounds::default(), &[])
        .contains("**INVALID PLAN"));
    let lab = to_lab_properties(&records);
    assert_eq!(lab["A-d-p1"]["error"], "invalid-plan");
    assert_eq!(lab["A-d-p1"]["coverage"], 0);
}

#[test]
fn lab_properties_and_csv() {
    let records = hand_made();
    let lab = to_lab_properties(&records);
    let run = &lab["B-e-q2"];
    assert_eq!(run["algorithm"], "B");
    assert_eq!(run["domain"], "e");
    assert_eq!(run["problem"], "q2");
    assert_eq!(run["coverage"], 1);
    assert_eq!(run["cost"], 10);
    assert_eq!(run["expansions"], 5);
    assert_eq!(run["expansions_until_last_jump"], 2);
    assert_eq!(run["memory"], 3907); // KiB
    assert_eq!(lab["A-e-q2"]["error"], "search-out-of-expansions");
    assert!(lab["A-e-q2"].get("cost").is_none());

    let mut odd = records[0].clone();
    odd.problem = "a,b".to_owned();
    odd.error = Some("say \"hi\"".to_owned());
    let csv = to_csv(&[odd]);
    let line = csv.lines().nth(1).unwrap();
    assert!(line.starts_with("0,d,\"a,b\",A,solved,,10,3,100,300,"));
    // Then the sixteen columns of what produced the record (and the
    // heuristic's setup time, a peer's process time and metric, the
    // translator's peak memory): none here.
    let end = format!(",true,,\"say \"\"hi\"\"\"{}", ",".repeat(16));
    assert!(line.ends_with(&end), "{line}");
    assert_eq!(
        searchlab_lab::record::CSV_HEADER.split(',').count(),
        20 + 16
    );
}

#[test]
fn suite_files() {
    let text = r#"
name = "files"
[limits]
max_expansions = 1000
[[problems]]
generator = "reference"
[[problems]]
generator = "factored-chains"
sizes = [1]
[[configs]]
directions = ["forward", "regression"]
algorithm = "astar"
heuristics = ["hmax", "numeric"]
[[configs]]
name = "quick"
direction = "forward"
algorithm = "gbfs"
heuristic = "mismatch"
max_expansions = 10
"#;
    let suite = parse_suite(text, "s.toml", std::path::Path::new(".")).unwrap();
    assert_eq!(suite.problems.len(), 8);
    assert_eq!(suite.limits.max_expansions, Some(1000));
    let quick = suite.configs.iter().find(|c| c.name == "quick").unwrap();
    assert_eq!(quick.limits.unwrap().max_expansions, Some(10));

    let error = parse_suite(
        "[[problems]]\ngenerator = \"nope\"\nsizes = [1]\n",
        "s.toml",
        std::path::Path::new("."),
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("unknown generator `nope`"), "{error}");
    let error = parse_suite(
        "name = \"x\"\n[[problems]]\ngenerator = 3\n",
        "s.toml",
        std::path::Path::new("."),
    )
    .unwrap_err()
    .to_string();
    assert!(error.starts_with("s.toml: line 3:"), "{error}");
    let error = parse_suite(
        "[[problems]]\ngenerator = \"reference\"\n[[configs]]\nheuristic = \"hmaxx\"\n",
        "s.toml",
        std::path::Path::new("."),
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("unknown heuristic `hmaxx`"), "{error}");
}

#[test]
fn problem_files_in_a_suite() {
    let dir = tests::repository_root();
    let text = "[[problems]]\nfiles = [\"problems/hungry_agent.toml\", \"problems/hitman.toml\"]\n\
                [[configs]]\nheuristics = [\"hmax\", \"numeric\"]\n";
    let suite = parse_suite(text, "s.toml", &dir).unwrap();
    assert_eq!(suite.problems.len(), 2);
    assert_eq!(suite.problems[0].domain, "problems");
    let records = run_suite(&suite, &options(2)).unwrap();
    // hmax on both problems (the numeric h_max on the hitman), numeric on
    // the hitman only.
    let costs: Vec<Option<u64>> = records.iter().map(|r| r.cost).collect();
    assert_eq!(costs, [Some(30), Some(15), Some(15)]);
    let error = parse_suite(
        "[[problems]]\nfiles = [\"no/such/*.toml\"]\n",
        "s.toml",
        &dir,
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("matches no file"), "{error}");
}

const CHAIN_DOMAIN: &str = "(define (domain chain)
  (:requirements :strips)
  (:predicates (at ?x) (link ?x ?y))
  (:action move
    :parameters (?from ?to)
    :precondition (and (at ?from) (link ?from ?to))
    :effect (and (at ?to) (not (at ?from)))))";

fn chain_problem(n: usize) -> String {
    let objects: Vec<String> = (0..=n).map(|i| format!("c{i}")).collect();
    let links: Vec<String> = (0..n).map(|i| format!("(link c{i} c{})", i + 1)).collect();
    format!(
        "(define (problem chain-{n}) (:domain chain) (:objects {}) (:init (at c0) {}) (:goal (at c{n})))",
        objects.join(" "),
        links.join(" ")
    )
}

#[test]
fn pddl_tasks_in_a_suite() {
    let dir = temp_dir("pddl");
    std::fs::create_dir_all(dir.join("chain")).unwrap();
    std::fs::write(dir.join("chain/domain.pddl"), CHAIN_DOMAIN).unwrap();
    for n in [3, 5] {
        std::fs::write(dir.join(format!("chain/p{n}.pddl")), chain_problem(n)).unwrap();
    }
    std::fs::write(dir.join("chain/broken.pddl"), "(define (problem").unwrap();
    // Timed initial literals: a construct searchlab does not read.
    let timed = chain_problem(3).replacen("(:init", "(:init (at 5 (done))", 1);
    std::fs::write(dir.join("chain/timed.pddl"), timed).unwrap();
    let text = "[[problems]]\npddl_domain = \"chain/domain.pddl\"\npddl_problems = [\"chain/p*.pddl\", \"chain/broken.pddl\", \"chain/timed.pddl\"]\n\
                [[configs]]\ndirections = [\"forward\", \"regression\"]\nheuristics = [\"hmax\", \"numeric\"]\n";
    let suite = parse_suite(text, "s.toml", &dir).unwrap();
    assert_eq!(suite.problems.len(), 4);
    assert_eq!(suite.problems[0].domain, "chain");
    // numeric is factored only: 4 problems x 2 directions.
    let records = run_suite(&suite, &options(2)).unwrap();
    assert_eq!(records.len(), 8);
    let outcome = |problem: &str, config: &str| {
        records
            .iter()
            .find(|r| r.problem == problem && r.config == config)
            .map(|r| (r.outcome, r.cost))
            .unwrap()
    };
    for config in ["fwd-astar-hmax", "reg-astar-hmax"] {
        assert_eq!(outcome("p3", config), (RunOutcome::Solved, Some(3)));
        assert_eq!(outcome("p5", config), (RunOutcome::Solved, Some(5)));
        assert_eq!(outcome("broken", config).0, RunOutcome::Error);
        // Refused by name: expected, not a failure.
        assert_eq!(outcome("timed", config).0, RunOutcome::Unsupported);
    }
    assert!(records
        .iter()
        .filter(|r| r.solved())
        .all(|r| r.validated == Some(true)));
    let report = Report::new(&records);
    let warnings = report.warnings();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings.iter().all(|w| w.contains("broken")),
        "{warnings:?}"
    );
    let causes = report.unsolved_table();
    assert!(
        causes
            .rows
            .iter()
            .any(|row| row[1] == "unsupported: unsupported timed initial literal"),
        "{:?}",
        causes.rows
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pddl_suites_from_directories_and_configurations_by_name() {
    let dir = temp_dir("pddl-dirs");
    std::fs::create_dir_all(dir.join("chain")).unwrap();
    std::fs::write(dir.join("chain/domain.pddl"), CHAIN_DOMAIN).unwrap();
    for n in [2, 4] {
        std::fs::write(dir.join(format!("chain/p{n}.pddl")), chain_problem(n)).unwrap();
    }
    std::fs::create_dir_all(dir.join("other")).unwrap();
    std::fs::write(dir.join("other/domain.pddl"), CHAIN_DOMAIN).unwrap();
    std::fs::write(dir.join("other/p3.pddl"), chain_problem(3)).unwrap();
    let configs = ["fwd-astar-hmax", "reg-gbfs-ff", "fd-astar-blind"].map(str::to_owned);
    let suite = searchlab_lab::suite_file::pddl_suite(
        &[dir.join("chain"), dir.join("other/p3.pddl")],
        &configs,
        RunLimits::default(),
    )
    .unwrap();
    let names: Vec<&str> = suite.problems.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["p2", "p4", "p3"]);
    assert_eq!(suite.config_names(), configs);
    let default =
        searchlab_lab::suite_file::pddl_suite(&[dir.join("chain")], &[], RunLimits::default());
    assert_eq!(
        default.unwrap().configs.len(),
        searchlab_lab::suite_file::DEFAULT_PDDL_CONFIGS.len()
    );

    let error = |paths: &[PathBuf], configs: &[String]| {
        searchlab_lab::suite_file::pddl_suite(paths, configs, RunLimits::default())
            .unwrap_err()
            .to_string()
    };
    assert!(error(std::slice::from_ref(&dir), &[]).contains("no task files"));
    std::fs::create_dir_all(dir.join("lonely")).unwrap();
    std::fs::write(dir.join("lonely/p1.pddl"), chain_problem(1)).unwrap();
    assert!(error(&[dir.join("lonely")], &[]).contains("no domain file"));
    assert!(error(&[dir.join("nothing")], &[]).contains("no such directory or file"));
    assert!(error(&[dir.join("chain")], &["fwd-astar-hmx".to_owned()]).contains("hmx"));
    // A task given twice, in its directory and on its own.
    let twice = error(&[dir.join("chain"), dir.join("chain/p2.pddl")], &[]);
    assert!(twice.contains("`chain/p2` is listed twice"), "{twice}");

    // A suite file names configurations, a peer's among them, with limits.
    let text =
        "[[problems]]\npddl_domain = \"chain/domain.pddl\"\npddl_problems = [\"chain/p*.pddl\"]\n\
                [[configs]]\nnames = [\"reg-astar-hmax\", \"pp-astar-hmax\"]\nmax_time = 5.0\n";
    let suite = parse_suite(text, "s.toml", &dir).unwrap();
    assert_eq!(suite.config_names(), ["reg-astar-hmax", "pp-astar-hmax"]);
    assert_eq!(
        suite.configs[1].limits.and_then(|l| l.max_time),
        Some(std::time::Duration::from_secs(5))
    );
    let mixed = "[[problems]]\ngenerator = \"reference\"\n[[configs]]\nnames = [\"fwd-astar-hmax\"]\nheuristic = \"ff\"\n";
    assert!(parse_suite(mixed, "s.toml", &dir)
        .unwrap_err()
        .to_string()
        .contains("names"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_shipped_peer_suite_loads() {
    let path = tests::repository_root().join("benches/suites/pddl-peers.toml");
    let suite = searchlab_lab::suite_file::load_suite(&path).unwrap();
    assert_eq!(suite.problems.len(), 15 + 6 + 6 + 8);
    assert_eq!(suite.configs.len(), 6);
    assert_eq!(suite.runs().len(), 35 * 6);
}

/// The numeric suites: the ten IPC 2023 numeric domains' 20 tasks each,
/// ENHSP's configurations beside searchlab's, 60 s and 2 GiB per run.
#[test]
fn the_shipped_numeric_suites_load() {
    use searchlab_lab::external::ExternalPlanner;
    use searchlab_lab::suite::Method;
    for (file, configs) in [
        (
            "numeric-opt.toml",
            &[
                "fwd-astar-hrmax",
                "fwd-astar-counting",
                "fwd-astar-blind",
                "reg-astar-hrmax",
                "reg-astar-blind",
                "enhsp-opt-hrmax",
                "enhsp-opt-blind",
            ][..],
        ),
        (
            "numeric-sat.toml",
            &[
                "fwd-lazygbfs-hmrp",
                "fwd-lazyhelpful-hmrp",
                "enhsp-sat-hmrp",
            ][..],
        ),
    ] {
        let path = tests::repository_root().join("benches/suites").join(file);
        let suite = searchlab_lab::suite_file::load_suite(&path).unwrap();
        assert_eq!(suite.config_names(), configs, "{file}");
        let domains: std::collections::BTreeSet<&str> =
            suite.problems.iter().map(|p| p.domain.as_str()).collect();
        assert_eq!(domains.len(), 10, "{file}");
        assert_eq!(suite.problems.len(), 200, "{file}");
        assert!(suite.problems.iter().any(|p| p.name == "instance-20"));
        assert_eq!(suite.runs().len(), 200 * configs.len(), "{file}");
        assert_eq!(
            suite.limits.max_time,
            Some(std::time::Duration::from_secs(60))
        );
        assert_eq!(suite.limits.max_memory_bytes, Some(2048 << 20));
        for config in &suite.configs {
            assert_eq!(config.claims_optimal(), file == "numeric-opt.toml");
            if let Method::External(search) = &config.method {
                assert_eq!(search.planner, ExternalPlanner::Enhsp);
            }
        }
    }
}

/// The field sample: each of the 57 domains' five tasks once, with its
/// own domain file by Fast Downward's names (`p01-domain.pddl`,
/// `domain_p01.pddl`, `domain-p01.pddl`, airport's `p01-domain.pddl` for
/// `p01-airport1-p1.pddl`), none mistaken for a task.
#[test]
fn the_shipped_ipc_sample_suite_loads_every_task_with_its_domain() {
    let path = tests::repository_root().join("benches/suites/ipc-sample.toml");
    let suite = searchlab_lab::suite_file::load_suite(&path).unwrap();
    let domains: std::collections::BTreeSet<&str> =
        suite.problems.iter().map(|p| p.domain.as_str()).collect();
    assert_eq!(domains.len(), 57);
    for domain in &domains {
        let tasks = suite
            .problems
            .iter()
            .filter(|p| p.domain == *domain)
            .count();
        assert_eq!(tasks, 5, "{domain}");
    }
    assert_eq!(suite.configs.len(), 4);
}

#[test]
fn comparisons_with_pyperplan_leave_out_the_last_jump() {
    let mut pp = record("d", "p1", "pp-astar-blind", Some(100), 1.0);
    pp.expanded_until_last_jump = 0;
    let records = vec![
        pp,
        record("d", "p1", "fwd-astar-blind", Some(100), 0.1),
        record("d", "p1", "fd-astar-blind", Some(100), 0.2),
    ];
    let report = Report::new(&records);
    assert_eq!(
        report
            .compare("pp-astar-blind", "fwd-astar-blind")
            .last_jump_ratio,
        None
    );
    assert_eq!(
        report
            .compare("fd-astar-blind", "fwd-astar-blind")
            .last_jump_ratio,
        Some(1.0)
    );
    let table = report
        .compare_table("pp-astar-blind", "fwd-astar-blind")
        .to_console();
    assert!(!table.contains("last jump"), "{table}");
}

#[test]
fn runs_record_their_cpu_time_except_portfolios() {
    let mut suite = Suite::new("cpu");
    suite.add_problem(SuiteProblem::atomic(
        "chains",
        "chains-16-s1",
        state_atomic::problems::chains(16, 1).unwrap(),
    ));
    for name in ["fwd-astar-hmax", "portfolio-astar-hmax"] {
        suite.add_config(Configuration::by_name(name).unwrap());
    }
    let records = run_suite(&suite, &options(1)).unwrap();
    if planners::cpu::thread_time().is_some() {
        let cpu = records[0].cpu_time.unwrap();
        // One thread cannot run longer than the wall clock that timed it.
        assert!(
            cpu >= 0.0 && cpu <= records[0].time + 2e-3,
            "{:?}",
            records[0]
        );
    }
    assert_eq!(records[1].cpu_time, None);
}

#[test]
fn a_task_with_a_domain_file_of_its_own_uses_it() {
    let openstacks = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../benchmarks/pddl-ipc/openstacks-opt08-strips");
    let suite = searchlab_lab::suite_file::pddl_suite(
        &[openstacks],
        &["fwd-astar-blind".to_owned()],
        RunLimits::default(),
    )
    .unwrap();
    // p01 .. p06, and none of the pNN-domain.pddl files as a task.
    assert_eq!(suite.problems.len(), 6);
    for problem in &suite.problems {
        let searchlab_lab::suite::Instance::Pddl(task) = &*problem.instance else {
            panic!("{} is not a PDDL task", problem.name);
        };
        assert!(
            task.domain_file
                .ends_with(&format!("{}-domain.pddl", problem.name)),
            "{}: {}",
            problem.name,
            task.domain_file
        );
    }
}

#[test]
fn a_suite_file_without_pddl_domain_pairs_each_task_with_its_domain() {
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/pddl-ipc");
    let text = "[[problems]]\npddl_problems = [\"parcprinter-08-strips/p0[12]*.pddl\", \"pegsol-08-strips/p01.pddl\"]\n\
                [[configs]]\nnames = [\"fwd-astar-blind\"]\n";
    let suite = parse_suite(text, "s.toml", &base).unwrap();
    // p01.pddl, p02.pddl (their -domain files are not tasks) and pegsol's p01.
    let names: Vec<(&str, &str)> = suite
        .problems
        .iter()
        .map(|p| (p.domain.as_str(), p.name.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("parcprinter-08-strips", "p01"),
            ("parcprinter-08-strips", "p02"),
            ("pegsol-08-strips", "p01")
        ]
    );
    let domain_file = |i: usize| match &*suite.problems[i].instance {
        searchlab_lab::suite::Instance::Pddl(task) => task.domain_file.clone(),
        _ => panic!("not PDDL"),
    };
    assert!(domain_file(0).ends_with("p01-domain.pddl"));
    assert!(domain_file(2).ends_with("pegsol-08-strips/domain.pddl"));
}
