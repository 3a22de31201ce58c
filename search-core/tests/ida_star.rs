//! IDA*: limits over all iterations, stepping, bad costs, cycles and the
//! cost bound.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use search_core::{
    ida_star, Blind, FnSpace, IdaStar, Limit, Outcome, SearchError, SearchLimits, SearchSpace,
    Status,
};

/// A ring of `n` cells, both ways at cost 1: full of cycles.
fn ring(n: i64, goal: i64) -> impl SearchSpace<Node = i64, Action = (), Cost = i64> {
    FnSpace::new(
        move |&c: &i64| [((c + 1) % n, 1), ((c + n - 1) % n, 1)],
        move |&c: &i64| c == goal,
    )
}

#[test]
fn cycles_are_not_followed_and_the_path_is_shortest() {
    let space = ring(12, 5);
    let result = ida_star(&space, 0, Blind).unwrap();
    let path = result.outcome.solution().unwrap();
    assert_eq!(path.cost, 5);
    assert_eq!(path.nodes, [0, 1, 2, 3, 4, 5]);
    assert_eq!(path.actions.len(), 5);
}

#[test]
fn stepping_gives_the_result_of_one_run() {
    let space = ring(9, 4);
    let whole = ida_star(&space, 0, Blind).unwrap();
    let mut search = IdaStar::new(&space, 0, Blind);
    let mut steps = 0_u64;
    while search.step(1).unwrap() == Status::Running {
        steps += 1;
    }
    let stepped = search.run().unwrap();
    assert_eq!(stepped.outcome, whole.outcome);
    assert_eq!(stepped.stats.expanded, whole.stats.expanded);
    assert!(steps >= whole.stats.expanded, "{steps}");
}

#[test]
fn max_expansions_holds_over_all_iterations() {
    let space = ring(1000, 500);
    let limits = SearchLimits {
        max_expansions: Some(100),
        ..SearchLimits::default()
    };
    let result = IdaStar::new(&space, 0, Blind).limits(limits).run().unwrap();
    assert_eq!(
        result.outcome,
        Outcome::LimitReached {
            limit: Limit::Expansions,
            best: None,
        }
    );
    assert_eq!(result.stats.expanded, 100);
}

#[test]
fn cancellation_stops_it() {
    let space = ring(1000, 500);
    let limits = SearchLimits {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..SearchLimits::default()
    };
    let result = IdaStar::new(&space, 0, Blind).limits(limits).run().unwrap();
    assert_eq!(result.outcome, Outcome::Cancelled { best: None });
}

#[test]
fn the_cost_bound_prunes_and_says_so() {
    let space = ring(20, 10);
    let limits = SearchLimits {
        cost_bound: Some(6),
        ..SearchLimits::default()
    };
    let result = IdaStar::new(&space, 0, Blind).limits(limits).run().unwrap();
    assert_eq!(
        result.outcome,
        Outcome::LimitReached {
            limit: Limit::CostBound,
            best: None,
        }
    );
}

#[test]
fn an_unreachable_goal_is_exhausted() {
    let space = ring(6, 99);
    let result = ida_star(&space, 0, Blind).unwrap();
    assert_eq!(result.outcome, Outcome::Exhausted);
}

#[test]
fn a_negative_cost_is_an_error_naming_the_node() {
    let space = FnSpace::new(
        |&c: &i64| [(c + 1, if c == 3 { -2 } else { 1 })],
        |&c: &i64| c == 9,
    );
    let error = ida_star(&space, 0, Blind).unwrap_err();
    assert!(
        matches!(error, SearchError::InvalidCost { ref node, .. } if node == "3"),
        "{error}"
    );
}

#[test]
fn a_start_that_is_a_goal_is_a_plan_of_no_steps() {
    let space = ring(5, 0);
    let result = ida_star(&space, 0, Blind).unwrap();
    let path = result.outcome.solution().unwrap();
    assert_eq!((path.cost, path.nodes.len()), (0, 1));
    assert_eq!(result.stats.expanded, 0);
}
