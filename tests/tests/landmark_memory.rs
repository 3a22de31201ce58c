//! Landmark generation holds the memory limit: its labels and orderings,
//! which grow with the square of a long chain's length, count toward
//! `max_memory_bytes` while they are built, and the landmark graph counts
//! after. Before, a run under 8 MiB built 48 MiB of orderings before
//! the search could look.
//!
//! One test in this binary, so that the process's peak is this run's.

use std::time::Duration;

use planners::heuristics::heuristic;
use planners::pddl::{solve_text, PddlOptions};
use planners::{Direction, PlannerConfig};
use search_core::{Algorithm, Limit, SearchLimits};
use tests::peak_growth;

/// A walk along a line of places: every place before the last is a
/// landmark ordered before every later one.
const DOMAIN: &str = "(define (domain line)
  (:predicates (at ?x) (next ?x ?y))
  (:action step :parameters (?x ?y)
    :precondition (and (at ?x) (next ?x ?y))
    :effect (and (at ?y) (not (at ?x)))))";

fn problem(places: usize) -> String {
    let objects: Vec<String> = (0..places).map(|k| format!("p{k}")).collect();
    let next: Vec<String> = (1..places)
        .map(|k| format!("(next p{} p{k})", k - 1))
        .collect();
    format!(
        "(define (problem line) (:domain line) (:objects {}) (:init (at p0) {}) (:goal (at p{})))",
        objects.join(" "),
        next.join(" "),
        places - 1
    )
}

/// Greedy search with the landmark count on the line under `max` bytes:
/// the limit that stopped it (if one did), the plan's cost (if it found
/// one) and how far the resident set grew meanwhile.
fn run(places: usize, max: usize) -> (Option<Limit>, Option<u64>, usize) {
    let config = PlannerConfig {
        direction: Direction::Forward,
        algorithm: Algorithm::GreedyBestFirst,
        heuristic: heuristic("lmcount").unwrap(),
        limits: SearchLimits {
            max_memory_bytes: Some(max),
            max_time: Some(Duration::from_secs(120)),
            ..SearchLimits::default()
        },
    };
    let (solved, grew) =
        peak_growth(|| solve_text(DOMAIN, &problem(places), &config, &PddlOptions::default()));
    match solved {
        Ok(solution) => (
            solution.report.outcome.limit(),
            solution.report.outcome.plan().map(|plan| plan.cost),
            grew,
        ),
        Err(e) => (e.limit(), None, grew),
    }
}

#[test]
fn landmark_generation_stays_within_the_memory_limit() {
    // 2,000 places: about 2,000,000 orderings (48 MiB) and as many
    // labelled literals; the search itself is 1,999 steps. Unheeded, the
    // labels and orderings grew the resident set by 64 MiB under 8.
    let places = 2000;
    let (limit, cost, _) = run(places, 256 << 20);
    assert_eq!((limit, cost), (None, Some(1999)));
    let max = 8 << 20;
    let (limit, cost, grew) = run(places, max);
    assert_eq!((limit, cost), (Some(Limit::Memory), None), "under 8 MiB");
    assert!(
        grew <= max + (20 << 20),
        "the resident set grew by {} MiB under a limit of 8 MiB",
        grew >> 20
    );
}
