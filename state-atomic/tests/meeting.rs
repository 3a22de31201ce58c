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
    let numbered = |n: usize| (0..).take(n);
    let goals: Vec<_> = goals.into_iter().zip(numbered(3_000)).collect();
    let worlds: Vec<_> = worlds.into_iter().zip(numbered(3_000)).collect();
    check_against_scan(&goals[..], &worlds[..200]).unwrap();
    check_against_scan(&goals[..200], &worlds[..]).unwrap();
}
