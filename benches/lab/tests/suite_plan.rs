//! `searchlab plan`: the plan, its cost and statistics, JSON output, and
//! exit codes that tell solved, unsolvable, limit reached and bad input
//! apart.

use std::path::{Path, PathBuf};

use planners::heuristics::heuristic;
use planners::pddl::IpcPlan;
use planners::problem::parse;
use planners::Direction;
use search_core::Algorithm;
use searchlab_lab::cli::plan::{
    plan_file, plan_loaded, plan_pddl, PlanRequest, EXIT_INPUT_ERROR, EXIT_LIMIT, EXIT_SOLVED,
    EXIT_UNSOLVABLE,
};

fn problems() -> PathBuf {
    tests::repository_root().join("problems")
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
            heuristic: Some(heuristic("blind").unwrap()),
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
        heuristic: Some(heuristic("blind").unwrap()),
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
        heuristic: Some(heuristic("ff").unwrap()),
        ..PlanRequest::default()
    };
    let (text, code) = plan_file(&problems().join("hitman.toml"), &wrong);
    assert_eq!(code, EXIT_INPUT_ERROR);
    assert!(
        text.contains("`ff` is not available for forward search on factored problems"),
        "{text}"
    );

    let malformed = parse(
        "kind = \"atomic\"\natoms = [\"a\"]\ngoal = [\"zz\"]\n",
        "bad.toml",
    );
    assert!(malformed.is_err());
}

fn pddl(domain: &str, task: &str) -> (PathBuf, PathBuf) {
    let dir = tests::pddl_benchmarks();
    (
        dir.join(domain).join("domain.pddl"),
        dir.join(domain).join(task),
    )
}

#[test]
fn a_pddl_task_plans_to_an_ipc_plan_with_statistics_as_comments() {
    let (domain, problem) = pddl("blocks", "task01.pddl");
    for direction in [Direction::Forward, Direction::Regression] {
        let request = PlanRequest {
            direction,
            ..PlanRequest::default()
        };
        let (text, code) = plan_pddl(&domain, &problem, &request, None);
        assert_eq!(code, EXIT_SOLVED, "{text}");
        // The whole output is an IPC plan file: steps, then comments.
        let plan = IpcPlan::parse("stdout", &text).unwrap();
        assert_eq!(plan.cost(), 6, "{text}");
        assert!(text.contains("; cost = 6 (unit cost)"), "{text}");
        assert!(text.contains("; validated yes"), "{text}");
        assert!(text.contains("; facts (reachable)"), "{text}");
        let config =
            ["fwd-astar-hmax", "reg-astar-hmax"][usize::from(direction != Direction::Forward)];
        assert!(text.contains(config), "{text}");
        let replayed = planners::pddl::validate_text(
            ("domain", &std::fs::read_to_string(&domain).unwrap()),
            ("problem", &std::fs::read_to_string(&problem).unwrap()),
            ("plan", &text),
        );
        assert_eq!(replayed.unwrap(), 6);
    }
}

/// `plan --anytime` (restarting weighted A*) lists each cheaper plan it
/// finds; with FF, inadmissible, it goes on until none is cheaper, so it
/// ends with the optimal cost (10, as A* with `h_max` finds).
#[test]
fn an_anytime_plan_lists_every_cheaper_plan_on_the_way() {
    let (domain, problem) = pddl("blocks", "task05.pddl");
    let request = PlanRequest {
        algorithm: Algorithm::RestartingWeightedAStar,
        heuristic: Some(heuristic("ff").unwrap()),
        json: true,
        ..PlanRequest::default()
    };
    let (text, code) = plan_pddl(&domain, &problem, &request, None);
    assert_eq!(code, EXIT_SOLVED, "{text}");
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let costs: Vec<u64> = value["improvements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["cost"].as_u64().unwrap())
        .collect();
    assert_eq!(costs, [14, 10], "{text}");
    assert_eq!(value["cost"], 10);
    assert_eq!(value["config"], "fwd-rwastar-ff");
    let text = plan_pddl(
        &domain,
        &problem,
        &PlanRequest {
            json: false,
            ..request
        },
        None,
    )
    .0;
    assert!(text.contains("plans found on the way"), "{text}");
    assert!(text.contains("2. cost 10"), "{text}");
}

#[test]
fn a_pddl_plan_file_holds_only_the_plan() {
    let (domain, problem) = pddl("gripper", "task01.pddl");
    let out = std::env::temp_dir().join(format!("searchlab-plan-{}.txt", std::process::id()));
    let (text, code) = plan_pddl(&domain, &problem, &PlanRequest::default(), Some(&out));
    assert_eq!(code, EXIT_SOLVED, "{text}");
    assert!(text.contains("plan written to"), "{text}");
    assert!(text.contains("expanded"), "{text}");
    let written = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    assert!(!written.contains("expanded"), "{written}");
    assert_eq!(IpcPlan::parse("plan", &written).unwrap().cost(), 11);

    let json = PlanRequest {
        json: true,
        ..PlanRequest::default()
    };
    let (text, code) = plan_pddl(&domain, &problem, &json, None);
    assert_eq!(code, EXIT_SOLVED, "{text}");
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["cost"], 11);
    assert!(value["grounding"]["operators"].as_u64().unwrap() > 0);
}

#[test]
fn pddl_input_errors_and_limits_have_their_exit_codes() {
    let (domain, problem) = pddl("blocks", "task10.pddl");
    let missing = Path::new("/nonexistent/problem.pddl");
    let (text, code) = plan_pddl(&domain, missing, &PlanRequest::default(), None);
    assert_eq!(code, EXIT_INPUT_ERROR, "{text}");
    assert!(text.contains("/nonexistent/problem.pddl"), "{text}");
    let (text, code) = plan_pddl(&domain, &domain, &PlanRequest::default(), None);
    assert_eq!(code, EXIT_INPUT_ERROR, "{text}");
    let limited = PlanRequest {
        heuristic: Some(heuristic("blind").unwrap()),
        max_expansions: Some(10),
        ..PlanRequest::default()
    };
    let (text, code) = plan_pddl(&domain, &problem, &limited, None);
    assert_eq!(code, EXIT_LIMIT, "{text}");
    assert!(!text.contains("; cost ="), "{text}");
}

#[test]
fn hmax_on_a_factored_problem_is_the_numeric_hmax() {
    for direction in [Direction::Forward, Direction::Regression] {
        let request = PlanRequest {
            direction,
            heuristic: Some(heuristic("hmax").unwrap()),
            ..PlanRequest::default()
        };
        let (text, code) = plan_file(&problems().join("hitman.toml"), &request);
        assert_eq!(code, EXIT_SOLVED, "{text}");
        assert!(text.contains("cost      15"), "{text}");
        assert!(text.contains("-astar-hmax"), "{text}");
    }
}

/// A fresh directory with a copy of a vendored task, so that a test that
/// writes plan files never touches the repository's.
fn copied_task(name: &str, domain: &str, task: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("searchlab-plan-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (d, p) = pddl(domain, task);
    std::fs::copy(d, dir.join("domain.pddl")).unwrap();
    std::fs::copy(p, dir.join("task.pddl")).unwrap();
    (dir.clone(), dir.join("domain.pddl"), dir.join("task.pddl"))
}

/// A plan file is emptied in place, never removed (it may be a link, or
/// have other names): after a run that found no plan it holds nothing.
#[test]
fn no_plan_leaves_no_stale_plan_behind() {
    let (dir, domain, problem) = copied_task("stale", "blocks", "task10.pddl");
    let out = dir.join("plan.txt");
    let limited = PlanRequest {
        heuristic: Some(heuristic("blind").unwrap()),
        max_expansions: Some(10),
        ..PlanRequest::default()
    };
    for request in [
        limited.clone(),
        PlanRequest {
            json: true,
            ..limited
        },
    ] {
        std::fs::write(&out, "(stale-step)\n").unwrap();
        let (text, code) = plan_pddl(&domain, &problem, &request, Some(&out));
        assert_eq!(code, EXIT_LIMIT, "{text}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "", "{text}");
    }
    // Nor does an input error.
    std::fs::write(&out, "(stale-step)\n").unwrap();
    let (text, code) = plan_pddl(
        &domain,
        &dir.join("none.pddl"),
        &PlanRequest::default(),
        Some(&out),
    );
    assert_eq!(code, EXIT_INPUT_ERROR, "{text}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "", "{text}");
    // A plan found with --json still goes to the plan file.
    let (domain, problem) = pddl("gripper", "task01.pddl");
    let json = PlanRequest {
        json: true,
        ..PlanRequest::default()
    };
    let (text, code) = plan_pddl(&domain, &problem, &json, Some(&out));
    assert_eq!(code, EXIT_SOLVED, "{text}");
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(IpcPlan::parse("plan", &written).unwrap().cost(), 11);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_plan_file_that_is_an_input_file_is_refused() {
    let (dir, domain, problem) = copied_task("same", "gripper", "task01.pddl");
    let before = (
        std::fs::read_to_string(&domain).unwrap(),
        std::fs::read_to_string(&problem).unwrap(),
    );
    // The same files under other names.
    let alias = dir.join("sub");
    std::fs::create_dir_all(&alias).unwrap();
    for out in [
        problem.clone(),
        domain.clone(),
        alias.join("../task.pddl"),
        dir.join("./domain.pddl"),
    ] {
        let (text, code) = plan_pddl(&domain, &problem, &PlanRequest::default(), Some(&out));
        assert_eq!(code, EXIT_INPUT_ERROR, "{text}");
        assert!(text.contains("is an input file"), "{text}");
    }
    let after = (
        std::fs::read_to_string(&domain).unwrap(),
        std::fs::read_to_string(&problem).unwrap(),
    );
    assert_eq!(before, after);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `x += 1` towards `x < 0`: every state is new, so only a limit stops it.
const RUNAWAY: &str = "kind = \"factored\"\nname = \"runaway\"\ngoal = [\"x < 0\"]\n\
                       [variables]\nx = 0\n[[action]]\nname = \"inc\"\neff = [\"x += 1\"]\n";

#[test]
fn a_memory_limit_stops_a_runaway_plan() {
    let loaded = parse(RUNAWAY, "runaway.toml").unwrap();
    let request = PlanRequest {
        heuristic: Some(heuristic("blind").unwrap()),
        max_memory_bytes: Some(1 << 20),
        ..PlanRequest::default()
    };
    let (text, code) = plan_loaded(&loaded, &request);
    assert_eq!(code, EXIT_LIMIT, "{text}");
    assert!(text.contains("limit reached (memory)"), "{text}");
    assert!(text.contains("limits    1 MiB of memory"), "{text}");
}

#[test]
fn a_pddl_task_is_packed_unless_told_not_to() {
    let dir = tests::pddl_ipc_benchmarks().join("sokoban-opt08-strips");
    let (domain, problem) = (dir.join("domain.pddl"), dir.join("p01.pddl"));
    let request = PlanRequest {
        json: true,
        ..PlanRequest::default()
    };
    let mut runs = Vec::new();
    for no_packing in [false, true] {
        let request = PlanRequest {
            no_packing,
            ..request.clone()
        };
        let (text, code) = plan_pddl(&domain, &problem, &request, None);
        assert_eq!(code, EXIT_SOLVED, "{text}");
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        runs.push(value);
    }
    let (packed, plain) = (&runs[0], &runs[1]);
    assert_eq!(packed["grounding"]["words"], 1, "{packed}");
    assert_eq!(packed["grounding"]["packing"]["fact_words"], 2, "{packed}");
    assert_eq!(plain["grounding"]["words"], 2, "{plain}");
    assert!(plain["grounding"]["packing"].is_null(), "{plain}");
    assert_eq!(packed["cost"], plain["cost"]);
    assert_eq!(packed["forward"]["expanded"], plain["forward"]["expanded"]);
}
