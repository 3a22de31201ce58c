//! Conditional effects on random tasks: forward search applies them as
//! PDDL does (conditions read the state before, an add beats a delete),
//! the admissible heuristics stay admissible on them (`h_max`, LM-cut,
//! the admissible mismatch), and the satisficing ones (`h_add`, `h_FF`,
//! the landmark count) lead greedy search to plans that replay.

mod random_tasks;

use proptest::prelude::*;
use random_tasks::{build, pairs, partial, Spec, ATOMS};
use search_core::{astar, dijkstra, greedy, Estimate, Heuristic};
use state_atomic::landmarks::LandmarkCount;
use state_atomic::{
    ActionSet, AdmissibleMismatch, ForwardSpace, LmCut, PartialState, RelaxedForward, RelaxedKind,
    WorldState,
};

/// A heuristic of any kind, for a list of them.
type Boxed<'a> = Box<dyn Heuristic<WorldState<u64>, u32> + 'a>;

fn task() -> impl Strategy<Value = (Vec<Spec>, u64, Vec<(usize, bool)>)> {
    let action = (
        1..4_u32,
        pairs(2),
        pairs(1),
        prop::collection::vec((pairs(2), pairs(2)), 0..3),
    );
    (
        prop::collection::vec(action, 1..6),
        0..(1_u64 << ATOMS),
        pairs(3),
    )
}

/// The successor of `state` by PDDL's semantics, spelled out atom by atom.
fn by_hand(actions: &ActionSet<u64>, state: u64, action: usize) -> u64 {
    let a = actions.iter().nth(action).unwrap();
    let holds = |p: &PartialState<u64>| (state ^ p.values()) & p.care() == 0;
    let fired = std::iter::once(&a.eff).chain(
        a.when
            .iter()
            .filter(|w| holds(&w.condition))
            .map(|w| &w.effect),
    );
    let (mut adds, mut dels) = (0, 0);
    for e in fired {
        adds |= e.values() & e.care();
        dels |= !e.values() & e.care();
    }
    (state & !dels) | adds
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn conditional_effects_search_and_estimate_soundly((specs, start, goal) in task()) {
        let actions = build(&specs, true);
        let goal = partial(&goal);
        let start = WorldState::new(start);
        let space = ForwardSpace::new(&actions, goal).unwrap();
        // Every successor is the one spelled out by hand.
        for (i, a) in actions.iter().enumerate() {
            if start.satisfies(&a.pre) {
                let next = actions.replay(start, &[actions.find(&a.name).unwrap()]).unwrap();
                prop_assert_eq!(next.bits(), by_hand(&actions, start.bits(), i));
            }
        }
        let optimal = dijkstra(&space, start).unwrap().outcome.into_solution().map(|s| s.cost);
        let admissible: Vec<(&str, Boxed<'_>)> = vec![
            ("hmax", Box::new(RelaxedForward::new(&actions, goal, RelaxedKind::Max))),
            ("lmcut", Box::new(LmCut::new(&actions, goal))),
            ("mismatch", Box::new(AdmissibleMismatch::forward(&actions, goal))),
        ];
        for (name, mut h) in admissible {
            match (h.estimate(&start), optimal) {
                (Estimate::Value(v), Some(cost)) => prop_assert!(v <= cost, "{name}: {v} > {cost}"),
                (Estimate::DeadEnd, Some(cost)) => prop_assert!(false, "{name}: dead end, cost {cost}"),
                _ => {}
            }
            let found = astar(&space, start, h).unwrap().outcome.into_solution().map(|s| s.cost);
            prop_assert_eq!(found, optimal, "{}", name);
        }
        let satisficing: Vec<(&str, Boxed<'_>)> = vec![
            ("hadd", Box::new(RelaxedForward::new(&actions, goal, RelaxedKind::Add))),
            ("ff", Box::new(RelaxedForward::new(&actions, goal, RelaxedKind::Ff))),
            ("lmcount", Box::new(LandmarkCount::new(&actions, &start, goal))),
        ];
        for (name, h) in satisficing {
            let found = greedy(&space, start, h).unwrap().outcome.into_solution();
            prop_assert_eq!(found.is_some(), optimal.is_some(), "{}", name);
            if let Some(plan) = found {
                let cost = actions.validate(start, &goal, &plan.actions).unwrap();
                prop_assert_eq!(cost, u64::from(plan.cost), "{}", name);
            }
        }
    }
}

#[test]
fn ff_pays_an_action_once_for_all_the_effects_it_uses() {
    // One action moves both tokens at once, under a condition each.
    let mut actions = ActionSet::<u64>::new();
    for atom in ["x", "y", "x2", "y2"] {
        actions.declare(atom).unwrap();
    }
    let both = actions.add_action("both", 3).id().unwrap();
    let (x, y) = (
        actions.partial([("x", true)]).unwrap(),
        actions.partial([("y", true)]).unwrap(),
    );
    let (x2, y2) = (
        actions.partial([("x2", true)]).unwrap(),
        actions.partial([("y2", true)]).unwrap(),
    );
    actions.add_when(both, x, x2).unwrap();
    actions.add_when(both, y, y2).unwrap();
    let goal = actions.partial([("x2", true), ("y2", true)]).unwrap();
    let start = actions.state(["x", "y"]).unwrap();
    let mut ff = RelaxedForward::new(&actions, goal, RelaxedKind::Ff);
    assert_eq!(ff.estimate(&start), Estimate::Value(3));
    let mut hadd = RelaxedForward::new(&actions, goal, RelaxedKind::Add);
    assert_eq!(hadd.estimate(&start), Estimate::Value(6));
    // Its helpful step is the action's real successor, both effects on.
    let next = actions.replay(start, &[both]).unwrap();
    assert!(ff.is_preferred(&start, &next));
    // The landmark graph names the action as both landmarks' achiever.
    let graph = state_atomic::landmarks::LandmarkGraph::zhu_givan(&actions, &start, &goal);
    for atom in ["x2", "y2"] {
        let index = actions.registry().atom(atom).unwrap().index();
        let landmark = graph.find(index, true).unwrap();
        assert_eq!(graph.landmarks()[landmark].achievers, [both]);
    }
}
