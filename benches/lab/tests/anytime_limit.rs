//! An anytime search that a limit stops after its first plan reports the
//! limit (outcome, JSON, record, exit code) and keeps that plan.

use std::path::Path;

use planners::heuristics::heuristic;
use planners::Direction;
use search_core::Algorithm;
use searchlab_lab::cli::plan::{plan_file, PlanRequest, EXIT_LIMIT, EXIT_SOLVED};

/// Ten steps at cost 1 (the optimum, 10) or a teleport at cost 25, which
/// weight 5 takes first.
fn problem() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/teleport_line.toml"
    ))
}

fn request(direction: Direction, max_expansions: Option<u64>) -> PlanRequest {
    PlanRequest {
        direction,
        algorithm: Algorithm::RestartingWeightedAStar,
        heuristic: Some(heuristic("hmax").unwrap()),
        max_expansions,
        json: true,
        ..PlanRequest::default()
    }
}

#[test]
fn a_limit_after_the_first_plan_is_reported_with_that_plan() {
    for direction in [Direction::Forward, Direction::Regression] {
        let (text, code) = plan_file(problem(), &request(direction, None));
        assert_eq!(code, EXIT_SOLVED, "{text}");
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["outcome"], "solved", "{text}");
        assert_eq!(value["cost"], 10, "{text}");

        let (text, code) = plan_file(problem(), &request(direction, Some(4)));
        assert_eq!(code, EXIT_LIMIT, "{direction}: {text}");
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["outcome"], "limit", "{text}");
        assert_eq!(value["limit"], "expansions", "{text}");
        assert_eq!(value["cost"], 25, "{text}");
        assert_eq!(value["plan"], serde_json::json!(["teleport"]), "{text}");
        assert_eq!(value["validated"], true, "{text}");

        let text_request = PlanRequest {
            json: false,
            ..request(direction, Some(4))
        };
        let (text, code) = plan_file(problem(), &text_request);
        assert_eq!(code, EXIT_LIMIT, "{text}");
        assert!(text.contains("limit reached (expansions)"), "{text}");
        assert!(text.contains("not proven optimal"), "{text}");
    }
}
