//! The Downward Lab properties export holds what Lab's reports need: one
//! entry per run, even when two runs' Lab ids spell the same, and the runs
//! that searchlab warns about marked as Lab's unexplained errors.
//! `scripts/lab-check.sh` checks the same file with Lab itself.

use searchlab_lab::record::{to_lab_properties, RunOutcome, RunRecord};
use searchlab_lab::report::Report;

fn solved(domain: &str, problem: &str, config: &str) -> RunRecord {
    let mut r = RunRecord::new(0, domain, problem, config);
    r.outcome = RunOutcome::Solved;
    r.validated = Some(true);
    r.cost = Some(3);
    r.plan_length = Some(3);
    r
}

/// Lab keys a run by its id's parts joined with `-`, so `a` / `b-x` and
/// `a-b` / `x` spell the same key; a JSON object keeps one of them, and
/// Lab's coverage would lose a solved run.
#[test]
fn runs_whose_lab_ids_spell_the_same_are_all_kept() {
    let records = [solved("a", "b-x", "c"), solved("a-b", "x", "c")];
    let lab = to_lab_properties(&records);
    let runs = lab.as_object().unwrap();
    assert_eq!(runs.len(), 2, "{lab:#}");
    let mut tasks: Vec<(&str, &str)> = runs
        .values()
        .map(|run| {
            assert_eq!(run["algorithm"], "c");
            assert_eq!(run["coverage"], 1);
            (
                run["domain"].as_str().unwrap(),
                run["problem"].as_str().unwrap(),
            )
        })
        .collect();
    tasks.sort_unstable();
    assert_eq!(tasks, [("a", "b-x"), ("a-b", "x")]);
    // The first keeps Lab's own key.
    assert_eq!(lab["c-a-b-x"]["domain"], "a");
}

/// Lab lists runs with `unexplained_errors` in its report's first section,
/// as searchlab's report warns of invalid plans, panics and refused runs;
/// solved, unsolvable and limited runs have none.
#[test]
fn runs_searchlab_warns_about_are_unexplained_errors_for_lab() {
    let mut invalid = solved("d", "p1", "A");
    invalid.validated = Some(false);
    invalid.error = Some("invalid plan: step 2 fails".to_owned());
    let mut panicked = RunRecord::new(1, "d", "p2", "A");
    panicked.outcome = RunOutcome::Panic;
    panicked.error = Some("index out of bounds".to_owned());
    let mut refused = RunRecord::new(2, "d", "p3", "A");
    refused.error = Some("regression does not support negative preconditions".to_owned());
    let mut limited = RunRecord::new(3, "d", "p4", "A");
    limited.outcome = RunOutcome::Limit;
    limited.limit = Some("expansions".to_owned());
    let mut unsolvable = RunRecord::new(4, "d", "p5", "A");
    unsolvable.outcome = RunOutcome::Unsolvable;
    let records = [
        invalid,
        panicked,
        refused,
        limited,
        unsolvable,
        solved("d", "p6", "A"),
    ];
    let lab = to_lab_properties(&records);
    let unexplained = |problem: &str| lab[format!("A-d-{problem}")]["unexplained_errors"].clone();
    assert_eq!(
        unexplained("p1"),
        serde_json::json!(["invalid-plan: invalid plan: step 2 fails"])
    );
    assert_eq!(
        unexplained("p2"),
        serde_json::json!(["search-critical-error: index out of bounds"])
    );
    assert_eq!(
        unexplained("p3"),
        serde_json::json!([
            "search-input-error: regression does not support negative preconditions"
        ])
    );
    for problem in ["p4", "p5", "p6"] {
        assert!(unexplained(problem).is_null(), "{problem}: {lab:#}");
    }
    let flagged = lab
        .as_object()
        .unwrap()
        .values()
        .filter(|run| run.get("unexplained_errors").is_some())
        .count();
    assert_eq!(flagged, Report::new(&records).warnings().len());
}

/// The suite that `scripts/lab-check.sh` runs loads, with configurations
/// that apply to some kinds of problem only (so Lab sees tasks without a
/// run of every algorithm).
#[test]
fn the_shipped_lab_check_suite_loads() {
    let path = tests::repository_root().join("benches/suites/lab-check.toml");
    let suite = searchlab_lab::suite_file::load_suite(&path).unwrap();
    assert_eq!(suite.problems.len(), 27);
    assert_eq!(suite.configs.len(), 8);
    assert_eq!(suite.runs().len(), 162);
}
