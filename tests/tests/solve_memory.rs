//! A PDDL run holds its memory limit after grounding too, as the operating
//! system measures it (issue 27): the grounded and atomic tasks, h^2's
//! tables and the heuristic's count toward the limit beside the search's
//! nodes. Before, the search's limit covered its nodes alone, and the atomic
//! task was estimated at half its size: `folding` p01 peaked at 188 MiB
//! under a 100 MiB limit.
//!
//! One test in this binary, so that the process's peak is this run's.

use std::time::Duration;

use planners::heuristics::heuristic;
use planners::pddl::{solve_text, PddlOptions};
use planners::{Direction, PlannerConfig};
use search_core::{Algorithm, Limit, SearchLimits};
use tests::peak_growth;

/// A tour of `places` places that marks every pair it walks: `places`
/// squared facts (wide states) and as many operators.
const DOMAIN: &str = "(define (domain tour)
  (:predicates (at ?x) (walked ?x ?y))
  (:action walk :parameters (?x ?y)
    :precondition (at ?x)
    :effect (and (at ?y) (not (at ?x)) (walked ?x ?y))))";

/// The goal walks every pair of places (so that every fact is relevant):
/// far beyond blind search.
fn problem(places: usize) -> String {
    let objects: Vec<String> = (0..places).map(|k| format!("p{k}")).collect();
    let goal: Vec<String> = (0..places * places)
        .filter(|k| k / places != k % places)
        .map(|k| format!("(walked p{} p{})", k / places, k % places))
        .collect();
    format!(
        "(define (problem tour) (:domain tour) (:objects {}) (:init (at p0)) (:goal (and {})))",
        objects.join(" "),
        goal.join(" ")
    )
}

/// Solves the tour under `max` bytes with blind A* (which fills any
/// memory) in `direction`; returns the limit that stopped it and how far
/// the resident set grew meanwhile.
fn run(direction: Direction, max: usize) -> (Option<Limit>, usize) {
    let config = PlannerConfig {
        direction,
        algorithm: Algorithm::AStar,
        heuristic: heuristic("blind").unwrap(),
        limits: SearchLimits {
            max_memory_bytes: Some(max),
            max_time: Some(Duration::from_secs(120)),
            ..SearchLimits::default()
        },
    };
    peak_growth(
        || match solve_text(DOMAIN, &problem(90), &config, &PddlOptions::default()) {
            Ok(solution) => solution.report.outcome.limit(),
            Err(e) => e.limit(),
        },
    )
}

#[test]
fn a_pddl_run_stays_within_its_memory_limit_after_grounding() {
    // 8,100 facts (states of 128 words) and 8,010 operators: the atomic
    // task alone takes about 65 MiB (estimated at 33 before), a limit of
    // 48 MiB leaves it no room, and one of 96 MiB leaves the search about
    // 30. (Regression takes the same path to its search, slower in a
    // debug build.)
    for (direction, max) in [
        (Direction::Forward, 48 << 20),
        (Direction::Forward, 96 << 20),
    ] {
        let (limit, grew) = run(direction, max);
        assert_eq!(limit, Some(Limit::Memory), "{direction} under {max} bytes");
        if grew == 0 {
            continue; // no /proc: nothing to measure
        }
        assert!(
            grew <= max + (max / 10).max(20 << 20),
            "{direction}: the resident set grew by {} MiB under a limit of {} MiB",
            grew >> 20,
            max >> 20
        );
    }
}
