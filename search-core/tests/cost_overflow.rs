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

#[test]
fn priority_overflow_names_the_estimate() {
    // The path fits, but the path cost plus the heuristic estimate does not.
    let space = Chain { costs: [1, 1] };
    for algorithm in [Algorithm::AStar, Algorithm::WeightedAStar { weight: 2.0 }] {
        let error = Search::new(&space, "start")
            .algorithm(algorithm)
            .heuristic(|n: &&str| if *n == "middle" { u32::MAX } else { 0 })
            .run()
            .expect_err("g + h does not fit a u32");
        let SearchError::PriorityOverflow {
            node,
            path_cost,
            estimate,
            cost_type,
            max,
        } = &error
        else {
            panic!("{algorithm:?}: expected PriorityOverflow, got {error:?}");
        };
        assert_eq!(node, "\"middle\"", "{algorithm:?}");
        assert_eq!(path_cost, "1", "{algorithm:?}");
        assert_eq!(*cost_type, "u32", "{algorithm:?}");
        assert_eq!(max, "4294967295", "{algorithm:?}");
        assert!(!estimate.is_empty());
        let message = error.to_string();
        assert!(
            message.contains("heuristic estimate")
                && message.contains("4294967295")
                && message.contains("wider cost type"),
            "{algorithm:?}: {message}"
        );
    }
}
