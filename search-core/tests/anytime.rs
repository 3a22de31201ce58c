//! Restarting weighted A*: limits hold over all iterations, and the search
//! ends as its rules say.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use search_core::{
    Admissible, Algorithm, Limit, Outcome, Search, SearchLimits, SearchSpace, Status,
    RESTART_WEIGHTS,
};

/// A ladder 0..=n: a step up costs 1; from 0 a jump to every rung `k`
/// costs `3 n - k`, so heavier weights take a costly jump and every
/// iteration finds a cheaper plan than the one before.
struct Ladder(u32);

impl SearchSpace for Ladder {
    type Node = u32;
    type Action = u32;
    type Cost = u32;
    fn is_goal(&self, n: &u32) -> bool {
        *n == self.0
    }
    fn successors<F: FnMut(u32, u32, u32)>(&self, n: &u32, mut emit: F) {
        if *n < self.0 {
            emit(*n + 1, *n + 1, 1);
        }
        if *n == 0 {
            for k in 2..=self.0 {
                emit(k, k, 3 * self.0 - k);
            }
        }
    }
}

fn anytime(ladder: &Ladder) -> Search<'_, Ladder, Admissible<impl FnMut(&u32) -> u32>> {
    let n = ladder.0;
    Search::new(ladder, 0)
        .algorithm(Algorithm::RestartingWeightedAStar)
        .heuristic(Admissible(move |k: &u32| n - k))
}

#[test]
fn each_weight_finds_a_cheaper_plan_and_a_star_ends_it() {
    let ladder = Ladder(20);
    let mut search = anytime(&ladder);
    let result = search.run().unwrap();
    let found: Vec<(f64, u32)> = search
        .improvements()
        .iter()
        .map(|i| (i.weight, i.solution.cost))
        .collect();
    assert_eq!(found.first().map(|f| f.0), Some(RESTART_WEIGHTS[0]));
    assert!(found.windows(2).all(|w| w[1].1 < w[0].1), "{found:?}");
    assert_eq!(result.outcome.solution().unwrap().cost, 20);
    assert!(found.len() >= 2, "{found:?}");
    // The statistics add up over the iterations.
    let last = search.improvements().last().unwrap();
    assert!(result.stats.expanded >= last.expanded);
    assert!(result.stats.generated > result.stats.expanded);
}

#[test]
fn the_expansion_limit_holds_over_all_iterations() {
    let ladder = Ladder(30);
    let everything = anytime(&ladder).run().unwrap().stats.expanded;
    for max in [1, 5, everything / 2, everything - 1] {
        let mut search = anytime(&ladder).limits(SearchLimits {
            max_expansions: Some(max),
            ..SearchLimits::default()
        });
        let result = search.run().unwrap();
        assert_eq!(result.stats.expanded, max);
        // The limit is the outcome, never "solved"; it keeps the best plan so far.
        let best = search.improvements().last().map(|i| i.solution.clone());
        assert_eq!(
            result.outcome,
            Outcome::LimitReached {
                limit: Limit::Expansions,
                best: best.clone(),
            }
        );
        assert_eq!(result.outcome.solution(), best.as_ref());
    }
}

#[test]
fn a_limit_after_the_first_plan_is_a_limit_with_that_plan() {
    let ladder = Ladder(30);
    let mut search = anytime(&ladder);
    while search.improvements().is_empty() {
        assert_eq!(search.step(1).unwrap(), Status::Running);
    }
    let first = search.improvements()[0].clone();
    let mut search = anytime(&ladder).limits(SearchLimits {
        max_expansions: Some(first.expanded + 2),
        ..SearchLimits::default()
    });
    let result = search.run().unwrap();
    assert_eq!(result.outcome.name(), "limit");
    assert_eq!(result.outcome.limit(), Some(Limit::Expansions));
    assert_eq!(result.outcome.solution(), Some(&first.solution));
    assert!(
        first.solution.cost > 30,
        "not the optimum: {}",
        first.solution.cost
    );
}

#[test]
fn a_finished_anytime_search_is_solved_under_a_cost_bound_too() {
    let ladder = Ladder(20);
    for bound in [None, Some(100), Some(20)] {
        let result = anytime(&ladder)
            .limits(SearchLimits {
                cost_bound: bound,
                ..SearchLimits::default()
            })
            .run()
            .unwrap();
        assert!(
            matches!(result.outcome, Outcome::Solved(_)),
            "{bound:?}: {:?}",
            result.outcome
        );
        assert_eq!(result.outcome.solution().map(|s| s.cost), Some(20));
    }
}

#[test]
fn cancellation_keeps_the_best_plan() {
    let ladder = Ladder(30);
    let cancel = Arc::new(AtomicBool::new(false));
    let mut search = anytime(&ladder).limits(SearchLimits {
        cancel: Some(Arc::clone(&cancel)),
        ..SearchLimits::default()
    });
    while search.improvements().is_empty() {
        assert_eq!(search.step(1).unwrap(), Status::Running);
    }
    cancel.store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(search.step(1).unwrap(), Status::Finished);
    let first = search.improvements()[0].solution.clone();
    assert_eq!(
        search.run().unwrap().outcome,
        Outcome::Cancelled { best: Some(first) }
    );
}

#[test]
fn a_start_at_the_goal_is_one_plan_of_cost_zero() {
    let ladder = Ladder(0);
    let mut search = anytime(&ladder);
    let result = search.run().unwrap();
    assert_eq!(search.improvements().len(), 1);
    assert_eq!(result.outcome.solution().unwrap().cost, 0);
}

#[test]
fn no_plan_is_exhausted() {
    struct Stuck;
    impl SearchSpace for Stuck {
        type Node = u8;
        type Action = ();
        type Cost = u32;
        fn is_goal(&self, _: &u8) -> bool {
            false
        }
        fn successors<F: FnMut((), u8, u32)>(&self, n: &u8, mut emit: F) {
            if *n < 5 {
                emit((), n + 1, 1);
            }
        }
    }
    let mut search = Search::new(&Stuck, 0).algorithm(Algorithm::RestartingWeightedAStar);
    assert_eq!(search.run().unwrap().outcome, Outcome::Exhausted);
    assert!(search.improvements().is_empty());
}
