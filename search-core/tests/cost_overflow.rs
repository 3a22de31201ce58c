//! A path cost beyond the cost type's largest value is reported in plain
//! words: which limit was passed, where, and what to do (issue 13: "path
//! cost overflows the cost type ... WorldState(1)").

use search_core::{Algorithm, Search, SearchError, SearchSpace};

/// A chain start -> middle -> goal with the given action costs.
struct Chain {
    costs: [u32; 2],
}

impl SearchSpace for Chain {
    type Node = &'static str;
    type Action = &'static str;
    type Cost = u32;

    fn is_goal(&self, n: &&'static str) -> bool {
        *n == "goal"
    }

    fn successors<F: FnMut(&'static str, &'static str, u32)>(&self, n: &&'static str, mut emit: F) {
        match *n {
            "start" => emit("first", "middle", self.costs[0]),
            "middle" => emit("second", "goal", self.costs[1]),
            _ => {}
        }
    }
}

const ALGORITHMS: [Algorithm; 5] = [
    Algorithm::AStar,
    Algorithm::WeightedAStar { weight: 2.0 },
    Algorithm::GreedyBestFirst,
    Algorithm::Dijkstra,
    Algorithm::BreadthFirst,
];

#[test]
fn cost_overflow_names_the_limit_the_node_and_the_fix() {
    // Two actions of cost 4294967295, which a planning file may give.
    let space = Chain {
        costs: [u32::MAX, u32::MAX],
    };
    for algorithm in ALGORITHMS {
        let error = Search::new(&space, "start")
            .algorithm(algorithm)
            .run()
            .expect_err("the path cost does not fit a u32");
        assert_eq!(
            error,
            SearchError::CostOverflow {
                node: "\"middle\"".into(),
                path_cost: "4294967295".into(),
                action_cost: "4294967295".into(),
                cost_type: "u32",
                max: "4294967295".into(),
            },
            "{algorithm:?}"
        );
        assert_eq!(
            error.to_string(),
            "path cost above 4294967295, the largest value of the cost type u32: the \
             path to node \"middle\" costs 4294967295 and its next action costs \
             4294967295; use smaller action costs or a wider cost type",
            "{algorithm:?}"
        );
    }
}

/// From the start: a cheap road to the goal (cost 3) and a turnpike that
/// costs `u32::MAX` and goes on at cost 1 to a dead end.
struct Turnpike;

impl SearchSpace for Turnpike {
    type Node = &'static str;
    type Action = &'static str;
    type Cost = u32;

    fn is_goal(&self, n: &&'static str) -> bool {
        *n == "goal"
    }

    fn successors<F: FnMut(&'static str, &'static str, u32)>(&self, n: &&'static str, mut emit: F) {
        match *n {
            "start" => {
                emit("turnpike", "toll", u32::MAX);
                emit("road", "village", 1);
            }
            "toll" => emit("on", "beyond", 1),
            "village" => emit("walk", "goal", 2),
            _ => {}
        }
    }
}

#[test]
fn a_priority_past_the_cost_type_saturates_and_the_cheap_plan_is_found() {
    // g + h at the toll booth is u32::MAX + 3: no refusal, it waits last.
    let h = |n: &&str| match *n {
        "goal" => 0,
        "village" => 2,
        _ => 3,
    };
    for algorithm in ALGORITHMS
        .into_iter()
        .chain([Algorithm::RestartingWeightedAStar])
    {
        let result = Search::new(&Turnpike, "start")
            .algorithm(algorithm)
            .heuristic(h)
            .run()
            .unwrap_or_else(|e| panic!("{algorithm:?}: {e}"));
        assert_eq!(
            result.outcome.solution().map(|s| s.cost),
            Some(3),
            "{algorithm:?}"
        );
    }
    let result = search_core::IdaStar::new(&Turnpike, "start", h)
        .run()
        .unwrap();
    assert_eq!(result.outcome.solution().map(|s| s.cost), Some(3));
}

#[test]
fn a_path_past_the_cost_type_is_left_out_when_another_plan_fits() {
    // Greedy search expands the toll booth (h 0 there) and meets a path of
    // u32::MAX + 1; the road still reaches the goal.
    let h = |n: &&str| match *n {
        "toll" | "goal" => 0,
        _ => 5,
    };
    for algorithm in ALGORITHMS {
        let result = Search::new(&Turnpike, "start")
            .algorithm(algorithm)
            .heuristic(h)
            .run()
            .unwrap_or_else(|e| panic!("{algorithm:?}: {e}"));
        assert_eq!(
            result.outcome.solution().map(|s| s.cost),
            Some(3),
            "{algorithm:?}"
        );
    }
    let lazy = search_core::LazyGreedy::new(&Turnpike, "start", vec![h])
        .run()
        .unwrap();
    assert_eq!(lazy.outcome.solution().map(|s| s.cost), Some(3));
}
