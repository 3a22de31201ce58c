//! Property tests of the compiled actions: forward search's successors, and
//! the fixed-width space's, are what applying each action by its public
//! interpreted methods gives, in the same order and at the same costs, on
//! random domains that mix compiled and interpreted actions and reach the
//! edges of the arithmetic (integer overflow, floats that stop being
//! finite, `- i64::MIN`).

mod common;
use common::Tape;
use proptest::prelude::*;
use search_core::SearchSpace;
use state_factored::prelude::*;
use state_factored::{FixedState, Op};

/// An integer near zero or near either end of `i64`.
fn edge_int(t: &mut Tape) -> i64 {
    let small = i64::from(t.next(7)) - 3;
    match t.next(3) {
        0 => small,
        1 => i64::MAX - small.abs(),
        _ => i64::MIN + small.abs(),
    }
}

/// A float near zero or near `f64::MAX`, of either sign.
fn edge_float(t: &mut Tape) -> f64 {
    let small = f64::from(t.next(9)) * 0.25 - 1.0;
    if t.next(3) == 0 {
        f64::MAX * small.signum()
    } else {
        small
    }
}

const INTS: [&str; 2] = ["i0", "i1"];
const BOOLS: [&str; 2] = ["b0", "b1"];
const PLACES: [&str; 3] = ["p", "q", "r"];

/// A random domain of up to six actions over two ints, two bools, a string
/// and a float, some of them interpreted (a linear precondition, an
/// expression effect, a state-dependent cost), with a goal of one-variable
/// comparisons (or a linear one), and a random state; and whether every
/// action and the goal are simple enough to compile.
fn problem(tape: &[u8]) -> (Domain, Goal, State, bool) {
    let mut t = Tape(tape, 0);
    let simple = std::cell::Cell::new(true);
    let mut schema = Schema::new();
    for name in INTS {
        schema.int(name).unwrap();
    }
    let b0 = schema.bool(BOOLS[0]).unwrap();
    schema.bool(BOOLS[1]).unwrap();
    schema.string("at").unwrap();
    schema.float("x").unwrap();
    let mut domain = Domain::new(schema);
    let predicate = |t: &mut Tape| -> Predicate {
        match t.next(5) {
            0 => {
                let op = [Op::Lt, Op::Le, Op::Eq, Op::Ne, Op::Ge, Op::Gt][usize::from(t.next(6))];
                Predicate::compare(INTS[usize::from(t.next(2))], op, edge_int(t))
            }
            1 => Predicate::eq(BOOLS[usize::from(t.next(2))], t.next(2) == 1),
            2 => Predicate::ne("at", PLACES[usize::from(t.next(3))]),
            3 => Predicate::ge("x", edge_float(t)),
            _ => {
                simple.set(false);
                Predicate::linear(Expr::var("i0") + Expr::var("i1"), Op::Ge, 0)
            }
        }
    };
    for k in 0..=t.next(6) {
        let mut a = Action::builder(&format!("a{k}")).cost(u32::from(t.next(4)));
        for _ in 0..t.next(3) {
            a = a.pre(predicate(&mut t));
        }
        for _ in 0..t.next(4) {
            let int = INTS[usize::from(t.next(2))];
            a = match t.next(8) {
                0 => a.increase(int, edge_int(&mut t)),
                1 => a.decrease(int, edge_int(&mut t)),
                2 => a.set(int, edge_int(&mut t)),
                3 => a.effect(Effect::toggle(BOOLS[usize::from(t.next(2))])),
                4 => a.set(BOOLS[usize::from(t.next(2))], t.next(2) == 1),
                5 => a.set("at", PLACES[usize::from(t.next(3))]),
                6 => a.increase("x", edge_float(&mut t)),
                _ => {
                    simple.set(false);
                    a.increase_by(int, Expr::var("i0"))
                }
            };
        }
        if t.next(5) == 0 {
            simple.set(false);
            a = a.cost_fn(move |s: &State| u32::from(s.bool(b0)) + 1);
        }
        domain.add_action(a).unwrap();
    }
    let goal = domain
        .goal((0..=t.next(2)).map(|_| predicate(&mut t)))
        .unwrap();
    let state = domain
        .schema()
        .state()
        .set("i0", edge_int(&mut t))
        .set("i1", edge_int(&mut t))
        .set("b0", t.next(2) == 1)
        .set("b1", t.next(2) == 1)
        .set("at", PLACES[usize::from(t.next(3))])
        .set("x", edge_float(&mut t))
        .build()
        .unwrap();
    (domain, goal, state, simple.get())
}

/// Each applicable action's successor and cost, by the interpreted methods.
fn interpreted(domain: &Domain, state: &State) -> Vec<(usize, State, Cost)> {
    let mut out = Vec::new();
    for (i, action) in domain.actions().iter().enumerate() {
        if action.is_applicable(state) {
            if let Some(next) = action.effects_on(state) {
                out.push((i, next, action.cost_in(state)));
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn compiled_successors_are_the_interpreted_ones(tape in proptest::collection::vec(any::<u8>(), 120)) {
        let (domain, goal, state, simple) = problem(&tape);
        let expected = interpreted(&domain, &state);

        let forward = domain.forward(&goal);
        let mut got = Vec::new();
        forward.successors(&state, |id, next, cost| got.push((id.index(), next, cost)));
        prop_assert_eq!(&got, &expected);
        prop_assert_eq!(forward.is_goal(&state), goal.is_satisfied(&state));
        // One successor made again by its action (lazy search's edges),
        // and none for an action that does not apply.
        prop_assert!(forward.makes_successors());
        for (i, action) in domain.actions().iter().enumerate() {
            let id = domain.action_id(action.name()).unwrap();
            let made = forward.successor(&state, &id);
            let emitted = expected.iter().find(|(j, _, _)| *j == i).map(|(_, next, _)| next);
            prop_assert_eq!(made.as_ref(), emitted);
        }

        // The fixed-width space where the domain fits it, and only there.
        let fixed = domain.fixed_forward::<8>(&goal);
        prop_assert_eq!(fixed.is_some(), simple);
        prop_assert!(domain.fixed_forward::<5>(&goal).is_none(), "six variables");
        if let Some(fixed) = fixed {
            let start: FixedState<8> = fixed.fixed(&state).unwrap();
            prop_assert_eq!(fixed.state(&start), state.clone());
            let mut got = Vec::new();
            fixed.successors(&start, |id, next, cost| got.push((id.index(), fixed.state(&next), cost)));
            prop_assert_eq!(&got, &expected);
            prop_assert_eq!(fixed.is_goal(&start), goal.is_satisfied(&state));
        }
    }
}
