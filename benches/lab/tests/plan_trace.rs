//! `searchlab plan --trace dot|text|html`: the search's exploration, with the
//! problem's names, for problem files and PDDL tasks.

use std::path::PathBuf;
use std::process::ExitCode;

use planners::pddl::IpcPlan;
use planners::Direction;
use search_core::Algorithm;
use searchlab_lab::cli::plan::{
    plan_file_traced, plan_pddl_traced, PlanRequest, TraceFormat, EXIT_SOLVED,
};
use searchlab_lab::Lab;

fn problem(name: &str) -> PathBuf {
    tests::repository_root().join("problems").join(name)
}

fn traced(format: TraceFormat, direction: Direction) -> PlanRequest {
    PlanRequest {
        direction,
        trace: Some(format),
        ..PlanRequest::default()
    }
}

/// The DOT edges drawn as the plan's (bold red), by action label.
fn highlighted_actions(dot: &str) -> Vec<String> {
    dot.lines()
        .filter(|l| l.contains(" -> ") && l.contains("penwidth"))
        .filter_map(|l| Some(l.split("label=\"").nth(1)?.split('"').next()?.to_owned()))
        .collect()
}

#[test]
fn the_dot_of_a_problem_file_draws_the_plan_in_every_direction() {
    for direction in [
        Direction::Forward,
        Direction::Regression,
        Direction::Portfolio,
    ] {
        let planned = plan_file_traced(
            &problem("hungry_agent.toml"),
            &traced(TraceFormat::Dot, direction),
        );
        assert_eq!(planned.code, EXIT_SOLVED, "{}", planned.text);
        // The report is the usual one.
        assert!(
            planned.text.contains("1. buy_groceries"),
            "{}",
            planned.text
        );
        let dot = planned.trace.unwrap();
        assert!(dot.starts_with("digraph search {") && dot.ends_with("}\n"));
        let mut plan = highlighted_actions(&dot);
        if dot.contains("regression (nodes are subgoals") {
            plan.reverse(); // drawn from the goal back
        }
        assert_eq!(plan, ["buy_groceries", "cook", "eat"], "{direction}\n{dot}");
        // Every atom name reaches the picture, not a bitset.
        assert!(dot.contains("has_groceries"), "{dot}");
    }
}

#[test]
fn a_factored_trace_as_text_shows_values() {
    let planned = plan_file_traced(
        &problem("hitman.toml"),
        &traced(TraceFormat::Text, Direction::Forward),
    );
    assert_eq!(planned.code, EXIT_SOLVED, "{}", planned.text);
    let text = planned.trace.unwrap();
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with("forward search (nodes are states): "),
        "{text}"
    );
    assert!(first.contains("goal n"), "{text}");
    assert!(text.contains("location=\"home\""), "{text}");
    let path: Vec<&str> = text.lines().filter(|l| l.starts_with('*')).collect();
    assert!(path.last().unwrap().ends_with(" goal"), "{text}");
    assert!(path.iter().any(|l| l.contains("attack -> ")), "{text}");
}

#[test]
fn a_cap_limits_the_nodes_written() {
    let request = PlanRequest {
        trace_max_nodes: Some(3),
        ..traced(TraceFormat::Text, Direction::Regression)
    };
    let planned = plan_file_traced(&problem("hitman.toml"), &request);
    let text = planned.trace.unwrap();
    // The plan's path is written whole, whatever the cap.
    let path = text.lines().filter(|l| l.starts_with('*')).count();
    assert!(path > 3, "{text}");
    assert_eq!(text.lines().count(), 1 + path + 1, "{text}");
    assert!(text.ends_with("more nodes not shown\n"), "{text}");
}

#[test]
fn a_pddl_trace_names_operators_and_facts() {
    let dir = tests::pddl_benchmarks().join("blocks");
    let (domain, task) = (dir.join("domain.pddl"), dir.join("task01.pddl"));
    for direction in [Direction::Forward, Direction::Regression] {
        let planned = plan_pddl_traced(&domain, &task, &traced(TraceFormat::Dot, direction), None);
        assert_eq!(planned.code, EXIT_SOLVED, "{}", planned.text);
        // The text is still a valid IPC plan file.
        let plan = IpcPlan::parse("stdout", &planned.text).unwrap();
        let dot = planned.trace.unwrap();
        let mut drawn = highlighted_actions(&dot);
        if direction == Direction::Regression {
            drawn.reverse();
        }
        let steps: Vec<String> = plan.names().iter().map(|s| s.to_lowercase()).collect();
        let drawn: Vec<String> = drawn.iter().map(|s| s.to_lowercase()).collect();
        assert_eq!(drawn.len(), steps.len(), "{dot}");
        for (drawn, step) in drawn.iter().zip(&steps) {
            let words = |s: &str| {
                s.replace(['(', ')'], " ")
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            };
            assert_eq!(words(drawn), words(step), "{dot}");
        }
        assert!(dot.contains("clear"), "facts by name\n{dot}");
    }
}

#[test]
fn a_numeric_pddl_trace_names_fluents_and_operators() {
    let dir = tests::pddl_numeric_benchmarks().join("counters");
    let (domain, task) = (
        dir.join("domain.pddl"),
        dir.join("instances/instance-1.pddl"),
    );
    let planned = plan_pddl_traced(
        &domain,
        &task,
        &traced(TraceFormat::Text, Direction::Forward),
        None,
    );
    assert_eq!(planned.code, EXIT_SOLVED, "{}", planned.text);
    let text = planned.trace.expect("a trace of the numeric search");
    assert!(text.contains("(value c0)=6"), "fluents by name\n{text}");
    assert!(text.contains("decrement c0"), "operators by name\n{text}");
}

#[test]
fn no_trace_unless_asked() {
    let plain = plan_file_traced(&problem("hungry_agent.toml"), &PlanRequest::default());
    assert_eq!(plain.code, EXIT_SOLVED);
    assert!(plain.trace.is_none());
    let lazy = PlanRequest {
        algorithm: Algorithm::LazyGreedy,
        ..traced(TraceFormat::Dot, Direction::Forward)
    };
    let planned = plan_file_traced(&problem("hungry_agent.toml"), &lazy);
    assert_eq!(planned.code, EXIT_SOLVED, "{}", planned.text);
    let dot = planned.trace.unwrap();
    let drawn = highlighted_actions(&dot);
    assert!(!drawn.is_empty(), "{dot}");
    for (step, action) in drawn.iter().enumerate() {
        let listed = format!("{}. {action}\n", step + 1);
        assert!(planned.text.contains(&listed), "{}\n{dot}", planned.text);
    }
}

#[test]
fn a_bad_trace_format_is_a_clear_error() {
    let error = "svg".parse::<TraceFormat>().unwrap_err();
    assert_eq!(error, "unknown trace format `svg`: give dot, text or html");
    assert_eq!("text".parse::<TraceFormat>(), Ok(TraceFormat::Text));
    let file = problem("hungry_agent.toml");
    let file = file.to_str().unwrap();
    let bad = ["searchlab", "plan", file, "--trace", "svg"];
    assert_eq!(Lab::new().run(bad), ExitCode::from(2));
    // --trace-out needs --trace.
    let alone = ["searchlab", "plan", file, "--trace-out", "trace.dot"];
    assert_eq!(Lab::new().run(alone), ExitCode::from(2));
}

#[test]
fn trace_out_writes_the_trace_to_a_file() {
    let dir = std::env::temp_dir().join(format!("searchlab-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("trace.dot");
    let file = problem("hungry_agent.toml");
    let args = [
        "searchlab",
        "plan",
        file.to_str().unwrap(),
        "--trace",
        "dot",
        "--trace-out",
        out.to_str().unwrap(),
    ];
    assert_eq!(Lab::new().run(args), ExitCode::SUCCESS);
    let dot = std::fs::read_to_string(&out).unwrap();
    assert_eq!(highlighted_actions(&dot), ["buy_groceries", "cook", "eat"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The HTML page of a problem file's search: self-contained (it loads
/// nothing), every node in its data with the plan's path marked in order,
/// and no label able to close the data's `<script>` element.
#[test]
fn the_html_page_of_a_problem_file_carries_the_tree_and_the_plan() {
    for direction in [Direction::Forward, Direction::Regression] {
        let planned = plan_file_traced(
            &problem("hungry_agent.toml"),
            &traced(TraceFormat::Html, direction),
        );
        assert_eq!(planned.code, EXIT_SOLVED, "{}", planned.text);
        let html = planned.trace.unwrap();
        assert!(html.starts_with("<!doctype html>"), "{html}");
        assert!(html.trim_end().ends_with("</html>"));
        for outside in ["http:", "https:", "src=", "href="] {
            assert!(!html.contains(outside), "{outside} in the page");
        }
        let data = html
            .split("<script type=\"application/json\" id=\"trace-data\">")
            .nth(1)
            .and_then(|rest| rest.split("</script>").next())
            .expect("the trace's data");
        assert!(!data.contains('<'), "{data}");
        let data: serde_json::Value = serde_json::from_str(data).unwrap();
        let nodes = data["nodes"].as_array().unwrap();
        let path: Vec<&str> = nodes
            .iter()
            .filter(|n| n["path"] == true)
            .filter_map(|n| n["action"].as_str())
            .collect();
        let mut plan = path.clone();
        if direction == Direction::Regression {
            plan.reverse(); // the path runs from the goal back
        }
        assert_eq!(plan, ["buy_groceries", "cook", "eat"], "{direction}");
        assert!(nodes
            .iter()
            .any(|n| n["label"].as_str().unwrap().contains("has_supermarket")));
        let steps = data["steps"].as_u64().unwrap();
        assert!(steps >= 3, "{steps}");
        assert!(data["goal"].as_u64().is_some());
    }
}
