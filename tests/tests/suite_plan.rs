//! `searchlab plan`: the plan, its cost and statistics, JSON output, and
//! exit codes that tell solved, unsolvable, limit reached and bad input
//! apart.

use std::path::{Path, PathBuf};

use benches::plan::{
    plan_file, plan_loaded, PlanRequest, EXIT_INPUT_ERROR, EXIT_LIMIT, EXIT_SOLVED, EXIT_UNSOLVABLE,
};
use planners::problem::parse;
use planners::{Direction, HeuristicName};
use search_core::Algorithm;

fn problems() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../problems")
}

#[test]
fn solves_a_problem_file_in_every_direction() {
    for direction in [
        Direction::Forward,
        Direction::Regression,
        Direction::Portfolio,
    ] {
        let request = PlanRequest {
            direction,
            ..PlanRequest::default()
        };
        let (text, code) = plan_file(&problems().join("hungry_agent.toml"), &request);
        assert_eq!(code, EXIT_SOLVED, "{text}");
        assert!(text.contains("cost      30"), "{text}");
        assert!(text.contains("1. buy_groceries"), "{text}");
        assert!(text.contains("validated yes"), "{text}");
    }
    let (text, code) = plan_file(&problems().join("hitman.toml"), &PlanRequest::default());
    assert_eq!(code, EXIT_SOLVED, "{text}");
    assert!(text.contains("config    fwd-astar-numeric"), "{text}");
    assert!(text.contains("cost      15"), "{text}");
}

#[test]
fn json_output() {
    let request = PlanRequest {
        json: true,
        ..PlanRequest::default()
    };
    let (text, code) = plan_file(&problems().join("consumed_fact.toml"), &request);
    assert_eq!(code, EXIT_SOLVED);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["cost"], 7);
    assert_eq!(value["outcome"], "solved");
    assert_eq!(value["validated"], true);
    assert_eq!(
        value["plan"].as_array().map(|plan| plan.len() as u64),
        value["plan_length"].as_u64()
    );
    assert!(value["forward"]["expanded"].as_u64().unwrap() > 0);
    assert!(value["regression"].is_null());
}

const UNSOLVABLE: &str = "kind = \"atomic\"\natoms = [\"a\", \"b\"]\ngoal = [\"b\"]\n\
                          [[action]]\nname = \"make_a\"\neff = [\"a\"]\n";

#[test]
fn exit_codes() {
    let loaded = parse(UNSOLVABLE, "unsolvable.toml").unwrap();
    for direction in [Direction::Forward, Direction::Regression] {
        let request = PlanRequest {
            direction,
            algorithm: Algorithm::BreadthFirst,
            heuristic: Some(HeuristicName::Blind),
            ..PlanRequest::default()
        };
        let (text, code) = plan_loaded(&loaded, &request);
        assert_eq!(code, EXIT_UNSOLVABLE, "{text}");
        assert!(text.contains("outcome   unsolvable"), "{text}");
    }

    let chains = parse(
        &std::fs::read_to_string(problems().join("hungry_agent.toml")).unwrap(),
        "hungry_agent.toml",
    )
    .unwrap();
    let limited = PlanRequest {
        heuristic: Some(HeuristicName::Blind),
        max_expansions: Some(1),
        ..PlanRequest::default()
    };
    let (text, code) = plan_loaded(&chains, &limited);
    assert_eq!(code, EXIT_LIMIT, "{text}");
    assert!(text.contains("limit reached (expansions)"), "{text}");

    let (text, code) = plan_file(Path::new("no/such/problem.toml"), &PlanRequest::default());
    assert_eq!(code, EXIT_INPUT_ERROR);
    assert!(text.contains("no/such/problem.toml"), "{text}");

    let wrong = PlanRequest {
        heuristic: Some(HeuristicName::HMax),
        ..PlanRequest::default()
    };
    let (text, code) = plan_file(&problems().join("hitman.toml"), &wrong);
    assert_eq!(code, EXIT_INPUT_ERROR);
    assert!(
        text.contains("`hmax` is not available for factored"),
        "{text}"
    );

    let malformed = parse(
        "kind = \"atomic\"\natoms = [\"a\"]\ngoal = [\"zz\"]\n",
        "bad.toml",
    );
    assert!(malformed.is_err());
}
