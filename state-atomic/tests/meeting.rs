//! `SubgoalIndex` and `StateIndex` against a linear scan: on random
//! subgoals and states (with `u64` and with `Wide<2>`, atoms past bit 64),
//! with empty subgoals, repeated items and empty indexes; and on
//! `SparseBits` complements, which no trie path can spell.

use proptest::prelude::*;
use state_atomic::{Bits, PartialState, SparseBits, StateIndex, SubgoalIndex, Wide, WorldState};

/// The numbers `query` reports, sorted.
fn reported(query: impl FnOnce(&mut dyn FnMut(u32))) -> Vec<u32> {
    let mut found = Vec::new();
    query(&mut |n| found.push(n));
    found.sort_unstable();
    found
}

/// The subgoal that gives each atom of `literals` its value (the last one
/// for an atom listed twice).
fn subgoal<B: Bits>(literals: &[(usize, bool)]) -> PartialState<B> {
    literals
        .iter()
        .fold(PartialState::empty(), |p, &(atom, value)| {
            let bit = B::bit(atom);
            let values = if value {
                p.values() | &bit
            } else {
                p.values() & !bit.clone()
            };
            PartialState::new(values, p.care() | bit)
        })
}

fn state<B: Bits>(atoms: &[usize]) -> WorldState<B> {
    WorldState::new(B::from_ones(atoms.iter().copied()))
}

/// Item `i` gets number `i`; each of `repeats` (an index, modulo the
/// count) is inserted again under the next number.
fn numbered<T: Clone>(items: &[T], repeats: &[usize]) -> Vec<(T, u32)> {
    let again = repeats
        .iter()
        .filter(|_| !items.is_empty())
        .map(|&r| items[r % items.len()].clone());
    items.iter().cloned().chain(again).zip(0..).collect()
}

/// Both indexes report exactly what a scan of `subgoals` and `states`
/// finds, for every state and every subgoal as the query.
fn check_against_scan<B: Bits>(
    subgoals: &[(PartialState<B>, u32)],
    states: &[(WorldState<B>, u32)],
) -> Result<(), TestCaseError> {
    let mut by_subgoal = SubgoalIndex::new();
    for (s, n) in subgoals {
        by_subgoal.insert(s, *n);
    }
    let mut by_state = StateIndex::new();
    for (s, n) in states {
        by_state.insert(s, *n);
    }
    prop_assert_eq!(by_subgoal.len(), subgoals.len());
    prop_assert_eq!(by_state.len(), states.len());
    prop_assert_eq!(by_subgoal.is_empty(), subgoals.is_empty());
    prop_assert_eq!(by_state.is_empty(), states.is_empty());
    for (s, _) in states {
        let expected: Vec<u32> = reported(|found| {
            subgoals
                .iter()
                .filter(|(g, _)| s.satisfies(g))
                .for_each(|(_, n)| found(*n));
        });
        prop_assert_eq!(
            reported(|found| by_subgoal.satisfied_by(s, found)),
            expected
        );
    }
    for (g, _) in subgoals {
        let expected: Vec<u32> = reported(|found| {
            states
                .iter()
                .filter(|(s, _)| s.satisfies(g))
                .for_each(|(_, n)| found(*n));
        });
        prop_assert_eq!(reported(|found| by_state.satisfying(g, found)), expected);
    }
    Ok(())
}

/// Enough items that the tries' leaves (a few dozen items each) split.
const MAX_ITEMS: usize = 100;

/// Atoms from the two ends of a `u64` (and of each word of a wider set),
/// few enough that random states often satisfy random subgoals.
fn atom(width: usize) -> impl Strategy<Value = usize> {
    let words = width / 64;
    (0..words, prop_oneof![0..4_usize, 60..64_usize]).prop_map(|(w, b)| 64 * w + b)
}

fn subgoals(width: usize) -> impl Strategy<Value = Vec<Vec<(usize, bool)>>> {
    prop::collection::vec(
        prop::collection::vec((atom(width), any::<bool>()), 0..6),
        0..MAX_ITEMS,
    )
}

fn states(width: usize) -> impl Strategy<Value = Vec<Vec<usize>>> {
    prop::collection::vec(prop::collection::vec(atom(width), 0..10), 0..MAX_ITEMS)
}

fn repeats() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(any::<usize>(), 0..4)
}

fn run<B: Bits>(
    goals: &[Vec<(usize, bool)>],
    worlds: &[Vec<usize>],
    goal_repeats: &[usize],
    world_repeats: &[usize],
) -> Result<(), TestCaseError> {
    let goals: Vec<PartialState<B>> = goals.iter().map(|l| subgoal(l)).collect();
    let worlds: Vec<WorldState<B>> = worlds.iter().map(|a| state(a)).collect();
    check_against_scan(
        &numbered(&goals, goal_repeats),
        &numbered(&worlds, world_repeats),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn indexes_agree_with_a_scan_on_u64(
        goals in subgoals(64),
        worlds in states(64),
        goal_repeats in repeats(),
        world_repeats in repeats(),
    ) {
        run::<u64>(&goals, &worlds, &goal_repeats, &world_repeats)?;
    }

    #[test]
    fn indexes_agree_with_a_scan_on_wide(
        goals in subgoals(128),
        worlds in states(128),
        goal_repeats in repeats(),
        world_repeats in repeats(),
    ) {
        run::<Wide<2>>(&goals, &worlds, &goal_repeats, &world_repeats)?;
    }
}

#[test]
fn empty_indexes_report_nothing() {
    let subgoals = SubgoalIndex::<u64>::new();
    let states = StateIndex::<Wide<2>>::new();
    assert!(reported(|found| subgoals.satisfied_by(&WorldState::new(7), found)).is_empty());
    assert!(reported(|found| states.satisfying(&PartialState::empty(), found)).is_empty());
    assert_eq!((subgoals.len(), states.len()), (0, 0));
}

#[test]
fn the_empty_subgoal_meets_every_state() {
    let mut subgoals = SubgoalIndex::<u64>::new();
    subgoals.insert(&PartialState::empty(), 4);
    subgoals.insert(&PartialState::empty(), 5);
    let mut states = StateIndex::<u64>::new();
    for (n, bits) in [0, u64::MAX, 0b1010].into_iter().enumerate() {
        let s = WorldState::new(bits);
        assert_eq!(reported(|found| subgoals.satisfied_by(&s, found)), [4, 5]);
        states.insert(&s, u32::try_from(n).unwrap());
    }
    assert_eq!(
        reported(|found| states.satisfying(&PartialState::empty(), found)),
        [0, 1, 2]
    );
}

#[test]
fn many_copies_sink_and_stay_found() {
    let long = PartialState::<Wide<2>>::new(Wide::low(128), Wide::low(100));
    let short = PartialState::new(Wide::bit(3), Wide::bit(3));
    let mut subgoals = SubgoalIndex::new();
    let mut states = StateIndex::new();
    let mut numbers = 0..;
    let copies: Vec<u32> = numbers.by_ref().take(200).collect();
    for &n in &copies {
        subgoals.insert(&long, n);
        states.insert(&WorldState::new(Wide::low(100)), n);
    }
    let last = numbers.next().unwrap();
    subgoals.insert(&short, last);
    states.insert(&WorldState::new(Wide::bit(3)), last);
    let mut all = copies.clone();
    all.push(last);
    let s = WorldState::new(Wide::low(100));
    assert_eq!(reported(|found| subgoals.satisfied_by(&s, found)), all);
    assert_eq!(reported(|found| states.satisfying(&short, found)), all);
    assert_eq!(reported(|found| states.satisfying(&long, found)), copies);
}

#[test]
fn sparse_complements_are_found_too() {
    let far = SparseBits::bit(1_000_000);
    let everything_but_far = WorldState::new(!far.clone());
    let mut subgoals = SubgoalIndex::<SparseBits>::new();
    // Every atom false: infinitely many literals.
    subgoals.insert(
        &PartialState::new(SparseBits::zero(), !SparseBits::zero()),
        0,
    );
    subgoals.insert(&PartialState::new(far.clone(), far.clone()), 1);
    subgoals.insert(&PartialState::new(SparseBits::zero(), far.clone()), 2);
    let s = |found: &mut dyn FnMut(u32)| subgoals.satisfied_by(&WorldState::empty(), found);
    assert_eq!(reported(s), [0, 2]);
    let s = |found: &mut dyn FnMut(u32)| subgoals.satisfied_by(&everything_but_far, found);
    assert_eq!(reported(s), [2]);

    let mut states = StateIndex::<SparseBits>::new();
    states.insert(&everything_but_far, 0);
    states.insert(&WorldState::new(far.clone()), 1);
    states.insert(&WorldState::empty(), 2);
    let atom_3 = PartialState::new(SparseBits::bit(3), SparseBits::bit(3));
    assert_eq!(reported(|found| states.satisfying(&atom_3, found)), [0]);
    let not_far = PartialState::new(SparseBits::zero(), far);
    assert_eq!(reported(|found| states.satisfying(&not_far, found)), [0, 2]);
    let all_false = PartialState::new(SparseBits::zero(), !SparseBits::zero());
    assert_eq!(reported(|found| states.satisfying(&all_false, found)), [2]);
    assert!(states.memory_bytes() > 0 && subgoals.memory_bytes() > 0);
}

/// Thousands of items: the set-trie grows several levels and the state
/// index several blocks of words.
#[test]
fn thousands_of_items_agree_with_a_scan() {
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut random_subgoal = || {
        let care = next() & next() & next() & next();
        PartialState::new(next(), care)
    };
    let goals: Vec<PartialState<u64>> = (0..3_000).map(|_| random_subgoal()).collect();
    let worlds: Vec<WorldState<u64>> = (0..3_000).map(|_| WorldState::new(next())).collect();
    let goals: Vec<_> = goals.into_iter().zip(0..).collect();
    let worlds: Vec<_> = worlds.into_iter().zip(0..).collect();
    check_against_scan(&goals, &worlds[..200]).unwrap();
    check_against_scan(&goals[..200], &worlds).unwrap();
}
