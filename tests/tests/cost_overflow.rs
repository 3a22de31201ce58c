//! A problem file whose plan costs more than the cost type holds (two
//! actions of cost 4294967295, which the format allows) fails with a
//! message that says which limit was passed and what to do (issue 13: it
//! said "path cost overflows the cost type ... WorldState(1)").

use planners::problem::{parse, LoadedProblem};
use planners::{Direction, PlanError, Planner};
use search_core::{Algorithm, SearchError};
use tests::heuristic;

const EXPENSIVE: &str = r#"
kind = "atomic"
atoms = ["a", "b"]
start = []
goal = ["b"]

[[action]]
name = "first"
cost = 4294967295
pre = []
eff = ["a"]

[[action]]
name = "second"
cost = 4294967295
pre = ["a"]
eff = ["b"]
"#;

#[test]
fn an_overflowing_plan_cost_names_the_limit_and_the_fix() {
    let LoadedProblem::Atomic(p) = parse(EXPENSIVE, "expensive.toml").unwrap() else {
        panic!("an atomic problem");
    };
    for direction in [Direction::Forward, Direction::Regression] {
        let config = tests::planner_config(direction, Algorithm::Dijkstra, heuristic("blind"));
        let error = Planner::new(config)
            .plan(&p.actions, &p.start, &p.goal)
            .expect_err("4294967295 + 4294967295 does not fit a u32");
        let PlanError::Search(SearchError::CostOverflow {
            path_cost,
            action_cost,
            cost_type,
            max,
            ..
        }) = &error
        else {
            panic!("{direction:?}: expected a cost overflow, got {error:?}");
        };
        assert_eq!(
            (
                path_cost.as_str(),
                action_cost.as_str(),
                *cost_type,
                max.as_str()
            ),
            ("4294967295", "4294967295", "u32", "4294967295"),
            "{direction:?}"
        );
        let message = error.to_string();
        for words in [
            "path cost above 4294967295, the largest value of the cost type u32",
            "use smaller action costs or a wider cost type",
        ] {
            assert!(message.contains(words), "{direction:?}: {message}");
        }
    }
}
