//! Random tasks over six atoms for property tests: actions with a cost, a
//! precondition, an effect and conditional effects, as `(atom, value)`
//! pairs.

use proptest::prelude::*;
use state_atomic::{ActionSet, PartialState};

/// The atoms of every random task.
pub const ATOMS: usize = 6;

/// An action: cost, precondition, effect and conditional effects.
pub type Spec = (
    u32,
    Vec<(usize, bool)>,
    Vec<(usize, bool)>,
    Vec<(Vec<(usize, bool)>, Vec<(usize, bool)>)>,
);

/// A partial state over the task's atoms: `(atom, value)` pairs, the
/// last of an atom winning.
pub fn partial(pairs: &[(usize, bool)]) -> PartialState<u64> {
    pairs
        .iter()
        .fold(PartialState::empty(), |p, &(atom, value)| {
            let bit = 1 << atom;
            PartialState::new(
                (p.values() & !bit) | if value { bit } else { 0 },
                p.care() | bit,
            )
        })
}

/// Up to `most` `(atom, value)` pairs.
pub fn pairs(most: usize) -> impl Strategy<Value = Vec<(usize, bool)>> {
    prop::collection::vec((0..ATOMS, any::<bool>()), 0..=most)
}

/// The actions of `specs` over atoms `a0` ..., with their conditional
/// effects if `whens`.
pub fn build(specs: &[Spec], whens: bool) -> ActionSet<u64> {
    let mut actions = ActionSet::<u64>::new();
    for atom in 0..ATOMS {
        actions.declare(&format!("a{atom}")).unwrap();
    }
    for (i, (cost, pre, eff, conditional)) in specs.iter().enumerate() {
        let id = actions
            .add_partial(&format!("act{i}"), *cost, partial(pre), partial(eff))
            .unwrap();
        for (condition, effect) in conditional.iter().filter(|_| whens) {
            actions
                .add_when(id, partial(condition), partial(effect))
                .unwrap();
        }
    }
    actions
}
