//! The plan command on numeric PDDL: a decimal metric is shown in the
//! metric's units, not in the scaled whole numbers searched with.

use searchlab_lab::cli::plan::{plan_pddl, PlanRequest, EXIT_SOLVED};

const DOMAIN: &str = "(define (domain walk)
  (:requirements :numeric-fluents)
  (:functions (steps) (spent))
  (:action step :parameters ()
    :precondition (<= (steps) 5)
    :effect (and (increase (steps) 1) (increase (spent) 1.25))))";

const PROBLEM: &str = "(define (problem two) (:domain walk)
  (:init (= (steps) 0) (= (spent) 0))
  (:goal (>= (steps) 2))
  (:metric minimize (spent)))";

#[test]
fn a_decimal_metric_is_shown_in_its_units() {
    let dir = std::env::temp_dir().join(format!("searchlab-plan-numeric-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (domain, problem) = (dir.join("domain.pddl"), dir.join("problem.pddl"));
    std::fs::write(&domain, DOMAIN).unwrap();
    std::fs::write(&problem, PROBLEM).unwrap();
    let (text, code) = plan_pddl(&domain, &problem, &PlanRequest::default(), None);
    assert_eq!(code, EXIT_SOLVED, "{text}");
    assert!(text.contains("; cost      2.5\n"), "{text}");
    assert!(!text.contains("250"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
