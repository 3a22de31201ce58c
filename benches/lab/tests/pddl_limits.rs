//! Grounding stops at its time and memory limits with a clear error, never
//! a crash; the plan command and the suite runner report it as a limit
//! reached, and grounding counts toward the run's time limit.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use planners::heuristics::heuristic;
use planners::pddl::{
    ground, parse_domain, parse_problem, solve_text, GroundingExceeded, GroundingLimits, PddlError,
    PddlOptions,
};
use planners::{Direction, PlannerConfig};
use search_core::{Algorithm, Limit};
use searchlab_lab::cli::plan::{plan_pddl, PlanRequest, EXIT_LIMIT};
use searchlab_lab::record::{MemoryMeasure, RunOutcome};
use searchlab_lab::runner::{run_suite, RunOptions};
use searchlab_lab::suite::{Configuration, PddlTask, RunLimits, Suite, SuiteProblem};

/// A 6-ary predicate that any six objects satisfy: 30 objects give
/// 729 million facts and as many operators, far beyond any memory.
const HUGE_DOMAIN: &str = "(define (domain huge) (:requirements :strips)
  (:predicates (p ?a ?b ?c ?d ?e ?f) (done))
  (:action make :parameters (?a ?b ?c ?d ?e ?f) :precondition (and)
    :effect (p ?a ?b ?c ?d ?e ?f))
  (:action finish :parameters (?a) :precondition (p ?a ?a ?a ?a ?a ?a)
    :effect (done)))";

fn huge_problem(objects: usize) -> String {
    let names: Vec<String> = (1..=objects).map(|i| format!("o{i}")).collect();
    format!(
        "(define (problem huge) (:domain huge) (:objects {}) (:init) (:goal (done)))",
        names.join(" ")
    )
}

/// Grounds the huge task under `limits`; returns the error and how long it
/// took.
fn ground_huge(limits: GroundingLimits) -> (PddlError, Duration) {
    let domain = parse_domain("huge.pddl", HUGE_DOMAIN).unwrap();
    let problem = parse_problem(&domain, "p.pddl", &huge_problem(30)).unwrap();
    let began = Instant::now();
    let error = ground(&domain, &problem, limits).expect_err("grounding must stop");
    (error, began.elapsed())
}

/// A limit stops grounding within this much of it (a loose bound: the
/// checks run every 1,024 steps, a millisecond or so in a debug build).
const LATENCY: Duration = Duration::from_secs(5);

#[test]
fn grounding_stops_at_the_memory_limit() {
    let limits = GroundingLimits {
        max_memory_bytes: Some(32 << 20),
        ..GroundingLimits::default()
    };
    let (error, _) = ground_huge(limits);
    let PddlError::GroundingExceeded(GroundingExceeded::Memory {
        limit_bytes,
        estimated_bytes,
    }) = error
    else {
        panic!("expected the memory limit, got {error}")
    };
    assert_eq!(limit_bytes, 32 << 20);
    // Stopped as soon as it crossed the limit: within one check's worth.
    assert!(estimated_bytes > limit_bytes && estimated_bytes < 2 * limit_bytes);
    assert!(
        error
            .to_string()
            .starts_with("grounding exceeded the memory limit of 32 MiB (estimated "),
        "{error}"
    );
    assert!(
        error.to_string().ends_with(" MiB when it stopped)"),
        "{error}"
    );
    assert_eq!(error.limit(), Some(Limit::Memory));
}

#[test]
fn grounding_stops_at_the_time_limit() {
    let limit = Duration::from_millis(200);
    let limits = GroundingLimits {
        max_time: Some(limit),
        max_memory_bytes: None,
        ..GroundingLimits::default()
    };
    let (error, took) = ground_huge(limits);
    assert_eq!(
        error.to_string(),
        "grounding exceeded the time limit of 0.2 s"
    );
    assert_eq!(error.limit(), Some(Limit::Time));
    assert!(took >= limit && took < limit + LATENCY, "{took:?}");
}

#[test]
fn grounding_stops_at_whichever_limit_comes_first() {
    let limits = GroundingLimits {
        max_time: Some(Duration::from_secs(1)),
        max_memory_bytes: Some(64 << 20),
        ..GroundingLimits::default()
    };
    let (error, took) = ground_huge(limits);
    assert!(
        matches!(error.limit(), Some(Limit::Time | Limit::Memory)),
        "{error}"
    );
    assert!(took < Duration::from_secs(1) + LATENCY, "{took:?}");
    // The step limit, as before, and the default memory limit.
    let steps = GroundingLimits {
        max_steps: 10_000,
        ..GroundingLimits::default()
    };
    let (error, _) = ground_huge(steps);
    assert_eq!(
        error.to_string(),
        "grounding exceeded the limit of 10000 matching steps"
    );
    assert_eq!(GroundingLimits::default().max_memory_bytes, Some(2 << 30));
}

#[test]
fn the_planner_limits_bound_grounding() {
    let problem = huge_problem(30);
    for (limits, expected) in [
        (
            search_core::SearchLimits {
                max_time: Some(Duration::from_millis(300)),
                ..Default::default()
            },
            Limit::Time,
        ),
        (
            search_core::SearchLimits {
                max_memory_bytes: Some(32 << 20),
                ..Default::default()
            },
            Limit::Memory,
        ),
    ] {
        let config = PlannerConfig {
            limits,
            ..PlannerConfig::default()
        };
        let error = solve_text(HUGE_DOMAIN, &problem, &config, &PddlOptions::default())
            .expect_err("grounding must stop");
        assert_eq!(error.limit(), Some(expected), "{error}");
        assert!(
            error.to_string().starts_with("grounding exceeded"),
            "{error}"
        );
    }
    // A small task under the same limits is solved: the search gets the
    // time grounding left.
    let config = PlannerConfig {
        limits: search_core::SearchLimits {
            max_time: Some(Duration::from_secs(30)),
            max_memory_bytes: Some(32 << 20),
            ..Default::default()
        },
        ..PlannerConfig::default()
    };
    let solution = solve_text(
        HUGE_DOMAIN,
        &huge_problem(2),
        &config,
        &PddlOptions::default(),
    )
    .unwrap();
    assert_eq!(solution.plan.map(|p| p.cost()), Some(2));
}

/// A fresh directory under the system's temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "searchlab-pddl-limits-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn plan_reports_a_grounding_limit_as_a_limit() {
    let dir = temp_dir("plan");
    let (domain, problem) = (dir.join("domain.pddl"), dir.join("huge.pddl"));
    std::fs::write(&domain, HUGE_DOMAIN).unwrap();
    std::fs::write(&problem, huge_problem(30)).unwrap();
    let request = PlanRequest {
        max_time: Some(Duration::from_millis(500)),
        ..PlanRequest::default()
    };
    let (text, code) = plan_pddl(&domain, &problem, &request, None);
    assert_eq!(code, EXIT_LIMIT, "{text}");
    assert!(
        text.contains("grounding exceeded the time limit of 0.5 s"),
        "{text}"
    );
    let json = PlanRequest {
        json: true,
        ..request
    };
    let (text, code) = plan_pddl(&domain, &problem, &json, None);
    assert_eq!(code, EXIT_LIMIT, "{text}");
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["outcome"], "limit");
    assert_eq!(value["limit"], "time");
    // The time and memory grounding took, not zero.
    let time = value["time"].as_f64().unwrap_or_default();
    assert!((0.45..10.0).contains(&time), "{value}");
    assert!(
        value["peak_memory"].as_u64().unwrap_or_default() > 1 << 20,
        "{value}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_suite_records_a_grounding_limit_as_a_limit() {
    let mut suite = Suite::new("huge");
    suite.limits = RunLimits {
        max_time: Some(Duration::from_secs(60)),
        max_memory_bytes: Some(32 << 20),
        max_expansions: None,
    };
    let task = |objects| PddlTask {
        domain_file: "domain.pddl".into(),
        domain: HUGE_DOMAIN.into(),
        problem_file: format!("huge{objects}.pddl"),
        problem: huge_problem(objects),
    };
    suite.add_problem(SuiteProblem::pddl("huge", "huge30", task(30)));
    suite.add_problem(SuiteProblem::pddl("huge", "huge2", task(2)));
    suite.add_config(Configuration::searchlab(
        Direction::Forward,
        Algorithm::AStar,
        heuristic("hmax").unwrap(),
    ));
    let records = run_suite(
        &suite,
        &RunOptions {
            jobs: Some(1),
            ..RunOptions::default()
        },
    )
    .unwrap();
    let huge = &records[0];
    assert_eq!(huge.outcome, RunOutcome::Limit, "{huge:?}");
    assert_eq!(huge.limit.as_deref(), Some("memory"));
    // The time it ran and grounding's estimate when it stopped, not zero.
    assert!(huge.time > 0.0, "{huge:?}");
    assert!(huge.memory >= 32 << 20, "{huge:?}");
    assert_eq!(huge.memory_measure, Some(MemoryMeasure::SearchEstimate));
    assert!(
        huge.error
            .as_deref()
            .is_some_and(|e| e.contains("grounding exceeded the memory limit of 32 MiB")),
        "{huge:?}"
    );
    // The rest of the suite runs on.
    assert!(records[1].solved(), "{:?}", records[1]);
}

/// A run that the time limit stops while grounding records the time it
/// ran (all of it before a search), in its record and in the reports.
#[test]
fn the_suite_records_the_time_a_grounding_limit_took() {
    let mut suite = Suite::new("huge");
    suite.limits = RunLimits {
        max_time: Some(Duration::from_millis(500)),
        max_memory_bytes: Some(512 << 20),
        max_expansions: None,
    };
    suite.add_problem(SuiteProblem::pddl(
        "huge",
        "huge30",
        PddlTask {
            domain_file: "domain.pddl".into(),
            domain: HUGE_DOMAIN.into(),
            problem_file: "huge30.pddl".into(),
            problem: huge_problem(30),
        },
    ));
    suite.add_config(Configuration::searchlab(
        Direction::Forward,
        Algorithm::AStar,
        heuristic("hmax").unwrap(),
    ));
    let options = RunOptions {
        jobs: Some(1),
        ..RunOptions::default()
    };
    let records = run_suite(&suite, &options).unwrap();
    let huge = &records[0];
    assert_eq!(huge.limit.as_deref(), Some("time"), "{huge:?}");
    assert!((0.45..10.0).contains(&huge.time), "{huge:?}");
    assert_eq!(huge.translator_time, None);
    let properties = searchlab_lab::record::to_lab_properties(&records);
    let run = properties.as_object().unwrap().values().next().unwrap();
    assert_eq!(run["total_time"], run["search_time"]);
    assert!(
        run["total_time"].as_f64().unwrap_or_default() >= 0.45,
        "{run}"
    );
}
