//! Cross-check: an atomic problem encoded as an all-bool factored problem
//! has the same optimal cost in state-factored (forward and regression) as in
//! state-atomic, on the atomic reference scenarios and on random problems.

use proptest::prelude::*;
use search_core::{astar, dijkstra};
use state_atomic::problems::{self, Problem};
use state_atomic::ActionSet;
use state_factored::{Action, Domain, Goal, NumericDistance, Predicate, Schema, State};

/// The factored encoding: one bool variable per atom.
fn encode(p: &Problem<u64>) -> (Domain, State, Goal) {
    let names: Vec<String> = p.actions.registry().names().map(str::to_owned).collect();
    let mut schema = Schema::new();
    for name in &names {
        schema.bool(name).unwrap();
    }
    let names = &names;
    let literals = |values: u64, care: u64| {
        (0..names.len())
            .filter(move |i| care >> i & 1 == 1)
            .map(move |i| (names[i].as_str(), values >> i & 1 == 1))
    };
    let mut domain = Domain::new(schema);
    for a in p.actions.iter() {
        let mut action = Action::builder(&a.name).cost(a.cost);
        for (name, value) in literals(a.pre.values(), a.pre.care()) {
            action = action.pre(Predicate::eq(name, value));
        }
        for (name, value) in literals(a.eff.values(), a.eff.care()) {
            action = action.set(name, value);
        }
        domain.add_action(action).unwrap();
    }
    let mut start = domain.schema().state();
    for (name, value) in literals(p.start.bits(), u64::MAX) {
        start = start.set(name, value);
    }
    let start = start.build().unwrap();
    let goal = domain
        .goal(literals(p.goal.values(), p.goal.care()).map(|(n, v)| Predicate::eq(n, v)))
        .unwrap();
    (domain, start, goal)
}

/// The atomic optimum by forward Dijkstra, `None` if unsolvable.
fn atomic_cost(p: &Problem<u64>) -> Option<u32> {
    let space = state_atomic::ForwardSpace::new(&p.actions, p.goal).unwrap();
    let result = dijkstra(&space, p.start).unwrap();
    result.outcome.solution().map(|s| s.cost)
}

/// The factored optimum forward (Dijkstra), forward (A*) and by regression
/// (A*), each plan replayed.
fn factored_costs(d: &Domain, s: &State, g: &Goal) -> [Option<u64>; 3] {
    let forward = d.forward(g);
    let replay = |plan: &[state_factored::ActionId]| d.validate(s, g, plan).unwrap();
    let by_dijkstra = dijkstra(&forward, s.clone())
        .unwrap()
        .outcome
        .into_solution();
    let by_astar = astar(&forward, s.clone(), NumericDistance::admissible(d, s, g))
        .unwrap()
        .outcome
        .into_solution();
    let space = d.regression(s, g).unwrap();
    let by_regression = astar(
        &space,
        space.start_node(),
        NumericDistance::admissible(d, s, g),
    )
    .unwrap()
    .outcome
    .into_solution();
    [
        by_dijkstra.map(|sol| replay(&sol.actions)),
        by_astar.map(|sol| replay(&sol.actions)),
        by_regression.map(|sol| replay(&space.plan(&sol))),
    ]
}

#[test]
fn atomic_reference_scenarios_encoded_as_factored() {
    let mut cases = vec![
        (problems::hungry_agent::<u64>().unwrap(), 30),
        (problems::consumed_fact::<u64>().unwrap(), 7),
    ];
    for (start, cost) in [
        (&["safe", "ammo_full"][..], 5),
        (&["safe", "ammo_full", "player_weak"][..], 4),
        (&["ammo_full"][..], 2),
        (&["safe", "ammo_full", "aim_ready"][..], 2),
    ] {
        cases.push((problems::enemy_ship::<u64>(start).unwrap(), cost));
    }
    for (p, cost) in cases {
        assert_eq!(atomic_cost(&p), Some(cost), "{}", p.name);
        let (d, s, g) = encode(&p);
        for found in factored_costs(&d, &s, &g) {
            assert_eq!(found, Some(u64::from(cost)), "{}", p.name);
        }
    }
}

/// A random atomic problem from a byte tape.
fn random_problem(tape: &[u8]) -> Problem<u64> {
    let mut t = tape.iter().copied().chain(std::iter::repeat(0));
    let mut next = |below: u8| t.next().unwrap_or(0) % below;
    let atoms = 3 + usize::from(next(4));
    let mut actions = ActionSet::<u64>::new();
    for i in 0..atoms {
        actions.declare(&format!("p{i}")).unwrap();
    }
    for k in 0..2 + next(6) {
        let cost = u32::from(next(5)) + 1;
        let mut literals = Vec::new();
        let mut effects = Vec::new();
        for i in 0..atoms {
            match next(6) {
                0 => literals.push((i, true)),
                1 => literals.push((i, false)),
                _ => {}
            }
            match next(5) {
                0 => effects.push((i, true)),
                1 => effects.push((i, false)),
                _ => {}
            }
        }
        if effects.is_empty() {
            effects.push((usize::from(next(u8::try_from(atoms).unwrap())), true));
        }
        let mut builder = actions.add_action(&format!("a{k}"), cost);
        for (i, value) in literals {
            builder.pre(&format!("p{i}"), value);
        }
        for (i, value) in effects {
            builder.eff(&format!("p{i}"), value);
        }
    }
    actions.check().unwrap();
    let start: Vec<String> = (0..atoms)
        .filter(|_| next(2) == 1)
        .map(|i| format!("p{i}"))
        .collect();
    let start = actions.state(start.iter().map(String::as_str)).unwrap();
    let mut goal: Vec<(String, bool)> = Vec::new();
    for i in 0..atoms {
        match next(4) {
            0 => goal.push((format!("p{i}"), true)),
            1 => goal.push((format!("p{i}"), false)),
            _ => {}
        }
    }
    let goal = actions
        .partial(goal.iter().map(|(n, v)| (n.as_str(), *v)))
        .unwrap();
    Problem {
        name: "random".into(),
        actions,
        start,
        goal,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn all_bool_factored_matches_atomic(tape in proptest::collection::vec(any::<u8>(), 120)) {
        let p = random_problem(&tape);
        let expected = atomic_cost(&p).map(u64::from);
        let (d, s, g) = encode(&p);
        for found in factored_costs(&d, &s, &g) {
            prop_assert_eq!(found, expected);
        }
    }
}
