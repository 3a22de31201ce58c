//! Lazy search keeps an action per edge on both atomic spaces and makes
//! the successor again when it takes the edge: on random tasks the made
//! successor is the emitted one, and lazy greedy search plans and counts
//! exactly as it does when it keeps every successor.

mod random_tasks;

use proptest::prelude::*;
use random_tasks::{build, pairs, partial, Spec, ATOMS};
use search_core::{LazyGreedy, SearchSpace};
use state_atomic::{ForwardSpace, RegressionSpace, RelaxedForward, RelaxedRegression, WorldState};

fn task() -> impl Strategy<Value = (Vec<Spec>, u64, Vec<(usize, bool)>)> {
    let action = (
        1..4_u32,
        pairs(2),
        pairs(2),
        prop::collection::vec((pairs(2), pairs(2)), 0..2),
    );
    (
        prop::collection::vec(action, 1..10),
        0..(1_u64 << ATOMS),
        pairs(3),
    )
}

/// A space as given, except that it keeps every successor.
struct Keeping<S>(S);

impl<S: SearchSpace> SearchSpace for Keeping<S> {
    type Node = S::Node;
    type Action = S::Action;
    type Cost = S::Cost;

    fn is_goal(&self, node: &S::Node) -> bool {
        self.0.is_goal(node)
    }

    fn successors<F: FnMut(S::Action, S::Node, S::Cost)>(&self, node: &S::Node, emit: F) {
        self.0.successors(node, emit);
    }
}

/// Every successor `space` emits from `node` is made again by its action.
fn made_again<S: SearchSpace>(space: &S, node: &S::Node) -> Result<(), TestCaseError> {
    prop_assert!(space.makes_successors());
    let mut emitted = Vec::new();
    space.successors(node, |action, next, _| emitted.push((action, next)));
    for (action, next) in emitted {
        prop_assert_eq!(space.successor(node, &action), Some(next));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn lazy_search_makes_the_successors_it_kept_no_node_for(
        (specs, start, goal) in task()
    ) {
        let start = WorldState::new(start);
        let goal = partial(&goal);

        let actions = build(&specs, true);
        let forward = ForwardSpace::new(&actions, goal).unwrap();
        made_again(&forward, &start)?;
        for action in actions.iter() {
            let id = actions.find(&action.name).unwrap();
            let applies = start.satisfies(&action.pre);
            prop_assert_eq!(forward.successor(&start, &id).is_some(), applies);
        }
        let h = || vec![RelaxedForward::h_ff(&actions, goal)];
        let lazy = LazyGreedy::new(&forward, start, h()).run().unwrap();
        let kept = LazyGreedy::new(&Keeping(&forward), start, h()).run().unwrap();
        prop_assert_eq!(&lazy.outcome, &kept.outcome);
        prop_assert_eq!(lazy.stats.expanded, kept.stats.expanded);
        prop_assert_eq!(lazy.stats.evaluated, kept.stats.evaluated);

        let actions = build(&specs, false);
        let regression = RegressionSpace::new(&actions, start, goal).unwrap();
        made_again(&regression, &goal)?;
        let h = || vec![RelaxedRegression::h_ff(&actions, start)];
        let lazy = LazyGreedy::new(&regression, goal, h()).run().unwrap();
        let kept = LazyGreedy::new(&Keeping(&regression), goal, h()).run().unwrap();
        prop_assert_eq!(&lazy.outcome, &kept.outcome);
        prop_assert_eq!(lazy.stats.expanded, kept.stats.expanded);
        prop_assert_eq!(lazy.stats.evaluated, kept.stats.evaluated);
    }
}
