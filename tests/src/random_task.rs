//! Random small STRIPS tasks for property tests: atoms, actions with
//! preconditions, effects and costs (zero included), a start, a goal and a
//! random walk's choices, built on any state width.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use proptest::prelude::*;
use search_core::{Algorithm, Heuristic, Outcome, Search};
use state_atomic::{ActionSet, Bits, ForwardSpace, PartialState, WorldState};

/// A random action: preconditions, effects (atom index, value) and cost.
pub type SpecAction = (Vec<(usize, bool)>, Vec<(usize, bool)>, u32);

/// A random task, independent of the state width.
#[derive(Clone, Debug)]
pub struct Spec {
    /// How many atoms.
    pub atoms: usize,
    /// The actions.
    pub actions: Vec<SpecAction>,
    /// Each atom's value at the start.
    pub start: Vec<bool>,
    /// The goal's literals.
    pub goal: Vec<(usize, bool)>,
    /// Indices into the actions for random walks to other states.
    pub walk: Vec<usize>,
}

fn literals(atoms: usize) -> impl Strategy<Value = Vec<(usize, bool)>> {
    prop::collection::vec((0..atoms, any::<bool>()), 0..=3)
}

/// Tasks of `atoms` atoms and 2 to 10 actions costing 0 to `max_cost`.
pub fn spec(atoms: RangeInclusive<usize>, max_cost: u32) -> impl Strategy<Value = Spec> {
    atoms.prop_flat_map(move |atoms| {
        (
            prop::collection::vec((literals(atoms), literals(atoms), 0_u32..=max_cost), 2..=10),
            prop::collection::vec(any::<bool>(), atoms),
            prop::collection::vec((0..atoms, any::<bool>()), 1..=3),
            prop::collection::vec(0_usize..10, 0..=12),
        )
            .prop_map(move |(actions, start, mut goal, walk)| {
                // The first goal literal starts wrong, so most tasks need a plan.
                goal[0].1 = !start[goal[0].0];
                Spec {
                    atoms,
                    actions,
                    start,
                    goal,
                    walk,
                }
            })
    })
}

/// A [`Spec`] built on a state width.
pub struct Built<B: Bits> {
    /// The actions.
    pub actions: ActionSet<B>,
    /// The start.
    pub start: WorldState<B>,
    /// The goal.
    pub goal: PartialState<B>,
}

/// The task on `B`, its atoms named from `offset` on (`Wide<2>`: above 64).
///
/// # Panics
/// If the spec's atoms do not fit `B`.
pub fn build<B: Bits>(spec: &Spec, offset: usize) -> Built<B> {
    let name = |i: usize| format!("a{}", i + offset);
    let mut actions = ActionSet::<B>::new();
    for i in 0..offset + spec.atoms {
        actions.declare(&format!("a{i}")).unwrap();
    }
    for (k, (pre, eff, cost)) in spec.actions.iter().enumerate() {
        let mut b = actions.add_action(&format!("act{k}"), *cost);
        // Later literals on the same atom override earlier ones.
        for (atom, value) in pre.iter().copied().collect::<BTreeMap<_, _>>() {
            b.pre(&name(atom), value);
        }
        for (atom, value) in eff.iter().copied().collect::<BTreeMap<_, _>>() {
            b.eff(&name(atom), value);
        }
    }
    actions.check().unwrap();
    let true_atoms: Vec<String> = (0..spec.atoms)
        .filter(|&i| spec.start[i])
        .map(name)
        .collect();
    let start = actions
        .state(true_atoms.iter().map(String::as_str))
        .unwrap();
    let goal: Vec<(String, bool)> = spec
        .goal
        .iter()
        .copied()
        .collect::<BTreeMap<_, _>>()
        .into_iter()
        .map(|(a, v)| (name(a), v))
        .collect();
    let goal = actions
        .partial(goal.iter().map(|(n, v)| (n.as_str(), *v)))
        .unwrap();
    Built {
        actions,
        start,
        goal,
    }
}

/// The optimal cost from `from` (`None`: no plan) by `algorithm` with
/// `h`, the plan replayed.
///
/// # Panics
/// If the search fails or its plan does not replay at its cost.
pub fn optimal<B: Bits>(
    built: &Built<B>,
    from: WorldState<B>,
    algorithm: Algorithm,
    h: Box<dyn Heuristic<WorldState<B>, u32> + '_>,
) -> Option<u32> {
    let space = ForwardSpace::new(&built.actions, built.goal.clone()).unwrap();
    let result = Search::new(&space, from.clone())
        .algorithm(algorithm)
        .heuristic(h)
        .run()
        .unwrap();
    match result.outcome {
        Outcome::Solved(s) => {
            let replay = built.actions.validate(from, &built.goal, &s.actions);
            assert_eq!(replay, Ok(u64::from(s.cost)));
            Some(s.cost)
        }
        Outcome::Exhausted => None,
        other => panic!("no limits were set: {other:?}"),
    }
}

/// The start and the states a walk by `walk` (indices into the actions)
/// reaches from it.
pub fn states<B: Bits>(built: &Built<B>, walk: &[usize]) -> Vec<WorldState<B>> {
    let all: Vec<_> = built.actions.iter().collect();
    let mut state = built.start.clone();
    let mut out = vec![state.clone()];
    for &k in walk {
        let Some(action) = all.get(k % all.len().max(1)) else {
            break;
        };
        if state.satisfies(&action.pre) {
            state = state.apply(&action.eff);
            out.push(state.clone());
        }
    }
    out
}
