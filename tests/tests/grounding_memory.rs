//! Grounding holds its memory limit as the operating system measures it
//! (issue 27: ADL grounding peaked at 164 MiB under a 100 MiB limit and at
//! 988 MiB under 512: its estimate left out the allocator's share of each
//! small list, and the variants of a schema while they became operators).
//!
//! One test in this binary, so that the process's peak is this grounding's.

use planners::pddl::PddlError;
use planners::pddl::{ground, parse_domain, parse_problem, GroundingExceeded, GroundingLimits};
use tests::peak_growth;

/// One action whose effect on each of `items` objects is conditional:
/// compiled to STRIPS it splits into 2^items variants (split without
/// bound: by default grounding keeps such effects conditional).
const DOMAIN: &str = "(define (domain switches)
  (:requirements :adl :typing)
  (:types item)
  (:predicates (on ?x - item) (done ?x - item))
  (:action switch :parameters (?x - item) :effect (on ?x))
  (:action sweep :parameters ()
    :effect (forall (?x - item) (when (on ?x) (done ?x)))))";

fn problem(items: usize) -> String {
    let objects: Vec<String> = (0..items).map(|k| format!("i{k}")).collect();
    let goal: Vec<String> = objects.iter().map(|o| format!("(done {o})")).collect();
    format!(
        "(define (problem many) (:domain switches) (:objects {} - item) (:init) (:goal (and {})))",
        objects.join(" "),
        goal.join(" ")
    )
}

#[test]
fn adl_grounding_stays_within_its_memory_limit() {
    let domain = parse_domain("switches.pddl", DOMAIN).unwrap();
    let problem = parse_problem(&domain, "many.pddl", &problem(22)).unwrap();
    let max = 48 << 20;
    let limits = GroundingLimits {
        max_memory_bytes: Some(max),
        max_variants: usize::MAX,
        ..GroundingLimits::default()
    };
    let (result, grew) = peak_growth(|| ground(&domain, &problem, limits));
    assert!(
        matches!(
            result,
            Err(PddlError::GroundingExceeded(
                GroundingExceeded::Memory { .. }
            ))
        ),
        "{:?}",
        result.map(|task| task.operators.len())
    );
    if grew == 0 {
        return; // no /proc: nothing to measure
    }
    assert!(
        grew <= max + max / 10,
        "grounding grew the resident set by {} MiB under a limit of {} MiB",
        grew >> 20,
        max >> 20
    );
}
