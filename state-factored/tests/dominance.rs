//! Dominance pruning keeps the optimal algorithms optimal: random resource
//! problems (ints asked only for minimums, bools), solved with and without
//! `ResourceDominance`, against Dijkstra without it.

mod common;
use common::Tape;
use proptest::prelude::*;
use search_core::{Algorithm, Dominance, Outcome, Search, SearchLimits};
use state_factored::prelude::*;
use state_factored::{Effect, NumericHmax, ResourceDominance};

const INTS: [&str; 3] = ["wood", "stone", "gold"];
const BOOLS: [&str; 2] = ["house", "tools"];

/// A random economy: gather, convert and build. Ints are only ever asked
/// for at least some amount; bools either way; a few actions waste.
fn problem(tape: &[u8]) -> (Domain, State, Goal) {
    let mut t = Tape(tape, 0);
    let mut schema = Schema::new();
    for name in INTS {
        schema.int(name).unwrap();
    }
    for name in BOOLS {
        schema.bool(name).unwrap();
    }
    let mut domain = Domain::new(schema);
    let int = |t: &mut Tape| INTS[usize::from(t.next(3))];
    let boolean = |t: &mut Tape| BOOLS[usize::from(t.next(2))];
    for k in 0..2 + t.next(7) {
        let mut a = Action::builder(&format!("a{k}")).cost(u32::from(t.next(4)) + 1);
        for _ in 0..t.next(3) {
            a = if t.next(3) == 0 {
                a.pre(Predicate::eq(boolean(&mut t), t.next(2) == 1))
            } else {
                a.pre(Predicate::ge(int(&mut t), i64::from(t.next(5))))
            };
        }
        for _ in 0..=t.next(2) {
            a = match t.next(3) {
                0 => a.increase(int(&mut t), i64::from(t.next(3)) + 1),
                1 => {
                    let (var, d) = (int(&mut t), i64::from(t.next(3)) + 1);
                    a.pre(Predicate::ge(var, d)).decrease(var, d)
                }
                _ => a.set(boolean(&mut t), t.next(2) == 1),
            };
        }
        domain.add_action(a).unwrap();
    }
    let mut start = domain.schema().state();
    for name in INTS {
        start = start.set(name, i64::from(t.next(4)));
    }
    let start = start.set("house", false).build().unwrap();
    let goal = domain
        .goal((0..=t.next(2)).map(|_| {
            if t.next(3) == 0 {
                Predicate::eq(boolean(&mut t), true)
            } else {
                Predicate::ge(int(&mut t), i64::from(t.next(9)))
            }
        }))
        .unwrap();
    (domain, start, goal)
}

/// The replayed plan cost, `None` when exhausted or at the limit.
fn cost(
    domain: &Domain,
    start: &State,
    goal: &Goal,
    outcome: Outcome<State, ActionId, u32>,
) -> Option<u64> {
    let solution = outcome.into_solution()?;
    let replayed = domain
        .validate(start, goal, &solution.actions)
        .expect("every plan replays");
    assert_eq!(replayed, u64::from(solution.cost));
    Some(replayed)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn dominance_keeps_the_optimum(tape in proptest::collection::vec(any::<u8>(), 80)) {
        let (d, s, g) = problem(&tape);
        // The spaces are infinite (additions are unbounded): compare only
        // where Dijkstra finds the optimum within the limit.
        let limits = SearchLimits { max_expansions: Some(5_000), ..SearchLimits::default() };
        let space = d.forward(&g);
        let reference = Search::new(&space, s.clone())
            .algorithm(Algorithm::Dijkstra)
            .limits(limits.clone())
            .run()
            .unwrap();
        let Some(expected) = cost(&d, &s, &g, reference.outcome) else {
            return Ok(());
        };
        // No ordered variable (every int only compared for equality or in
        // ranges): there is nothing to prune, and `new` says so.
        if ResourceDominance::new(&d, &g).is_none() {
            return Ok(());
        }
        let dominance = || ResourceDominance::new(&d, &g).expect("checked above");
        for algorithm in [Algorithm::Dijkstra, Algorithm::AStar] {
            let pruned = Search::new(&space, s.clone())
                .algorithm(algorithm)
                .heuristic(NumericHmax::new(&d, &s, &g))
                .dominance(dominance())
                .limits(limits.clone())
                .run()
                .unwrap();
            prop_assert!(pruned.stats.expanded <= reference.stats.expanded || algorithm == Algorithm::AStar);
            prop_assert_eq!(cost(&d, &s, &g, pruned.outcome), Some(expected), "{:?}", algorithm);
        }
    }
}

#[test]
fn what_dominance_cannot_order() {
    let mut schema = Schema::new();
    schema.int("gold").unwrap();
    schema.bool("lit").unwrap();
    schema.float("heat").unwrap();
    let mut domain = Domain::new(schema.clone());
    domain
        .add_action(Action::builder("mine").increase("gold", 1))
        .unwrap();
    let goal = domain.goal([Predicate::ge("gold", 3)]).unwrap();
    assert!(ResourceDominance::new(&domain, &goal).is_some());

    // A goal that asks an exact amount leaves nothing ordered.
    let exact = domain.goal([Predicate::eq("gold", 3)]).unwrap();
    assert!(ResourceDominance::new(&domain, &exact).is_none());

    // Custom effects and state-dependent costs rule dominance out.
    let mut custom = domain.clone();
    custom
        .add_action(Action::builder("odd").effect(Effect::custom("odd", |_, _| true)))
        .unwrap();
    assert!(ResourceDominance::new(&custom, &goal).is_none());
    let mut priced = domain.clone();
    priced
        .add_action(Action::builder("pay").cost_fn(|_| 2))
        .unwrap();
    assert!(ResourceDominance::new(&priced, &goal).is_none());

    // A toggled flag must match; gold stays ordered.
    let mut toggled = Domain::new(schema);
    toggled
        .add_action(Action::builder("mine").increase("gold", 1))
        .unwrap();
    toggled
        .add_action(Action::builder("flip").effect(Effect::toggle("lit")))
        .unwrap();
    let goal = toggled
        .goal([Predicate::ge("gold", 2), Predicate::eq("lit", true)])
        .unwrap();
    let mut dominance = ResourceDominance::new(&toggled, &goal).unwrap();
    let state = |gold: i64, lit: bool| {
        toggled
            .schema()
            .state()
            .set("gold", gold)
            .set("lit", lit)
            .build()
            .unwrap()
    };
    assert!(!dominance.is_dominated(&state(2, false), 3));
    assert!(
        dominance.is_dominated(&state(1, false), 3),
        "less gold, same cost"
    );
    assert!(
        dominance.is_dominated(&state(2, false), 4),
        "same gold, dearer"
    );
    assert!(
        !dominance.is_dominated(&state(1, true), 3),
        "the flag differs"
    );
    assert!(!dominance.is_dominated(&state(3, false), 5), "more gold");
    assert!(!dominance.is_dominated(&state(1, false), 2), "cheaper");
}
