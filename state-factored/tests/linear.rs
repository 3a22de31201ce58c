//! Linear conditions and expression effects: their arithmetic, their
//! errors, regression through them, and property tests that forward and
//! regression agree with Dijkstra on random linear numeric tasks while the
//! admissible heuristics never overestimate.

#![expect(
    clippy::many_single_char_names,
    reason = "domain, start, goal and terms read best short"
)]

mod common;
use common::Tape;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use search_core::{Algorithm, Estimate, Heuristic, Outcome, Search, SearchLimits, SearchSpace};
use state_factored::prelude::*;
use state_factored::{Combine, Effect, Expr, NumericRmax};

fn x() -> Expr {
    Expr::var("x")
}

fn y() -> Expr {
    Expr::var("y")
}

fn ints(names: &[&str]) -> Domain {
    let mut schema = Schema::new();
    for name in names {
        schema.int(name).unwrap();
    }
    Domain::new(schema)
}

#[test]
fn float_sums_compare_within_the_tolerance() {
    let mut schema = Schema::new();
    schema.float("x").unwrap();
    schema.float("y").unwrap();
    let mut d = Domain::new(schema);
    let add_x = d
        .add_action(Action::builder("add_x").increase("x", 0.1))
        .unwrap();
    let add_y = d
        .add_action(Action::builder("add_y").increase("y", 0.2))
        .unwrap();
    let goal = d.goal([Predicate::linear(x() + y(), Op::Eq, 0.3)]).unwrap();
    let start = d.schema().default_state();
    assert_eq!(d.validate(&start, &goal, &[add_x, add_y]), Ok(2));
    assert!(d.validate(&start, &goal, &[add_x]).is_err());
    // Exactly, 0.1 + 0.2 is not 0.3.
    assert!((0.1_f64 + 0.2 - 0.3).abs() > 0.0);
    let space = d.forward(&goal);
    let result = search_core::dijkstra(&space, start.clone()).unwrap();
    assert_eq!(result.outcome.solution().unwrap().cost, 2);
    // `>` is false at equality within the tolerance, `>=` true.
    let gt = d.goal([Predicate::linear(x() + y(), Op::Gt, 0.3)]).unwrap();
    let ge = d.goal([Predicate::linear(x() + y(), Op::Ge, 0.3)]).unwrap();
    let (end, _) = d.replay(&start, &[add_x, add_y]).unwrap();
    assert!(!gt.is_satisfied(&end) && ge.is_satisfied(&end));
    // One float with coefficient 1 is an interval with the same tolerance.
    let (after, _) = d.replay(&start, &[add_x, add_x, add_x]).unwrap(); // 0.30000000000000004
    let one = d.goal([Predicate::linear(x(), Op::Eq, 0.3)]).unwrap();
    assert!(one.is_satisfied(&after));
    assert!(!d
        .goal([Predicate::eq("x", 0.3)])
        .unwrap()
        .is_satisfied(&after));
}

#[test]
fn int_conditions_are_exact_and_overflow_is_false() {
    let d = ints(&["x", "y"]);
    let s = |a: i64, b: i64| d.schema().state().set("x", a).set("y", b).build().unwrap();
    let g = d
        .goal([Predicate::linear(3 * x() - 2 * y(), Op::Ge, 1)])
        .unwrap();
    assert!(g.is_satisfied(&s(1, 1)));
    assert!(!g.is_satisfied(&s(1, 2)));
    let huge = d
        .goal([Predicate::linear(
            i64::MAX * x() + i64::MAX * y(),
            Op::Ge,
            0,
        )])
        .unwrap();
    assert!(huge.is_satisfied(&s(i64::MAX, i64::MAX)));
    let all = d
        .goal([Predicate::linear(
            i64::MAX * x() + i64::MAX * y() + i64::MAX * Expr::var("x"),
            Op::Ne,
            0,
        )])
        .unwrap();
    // Merged: 2^64-ish coefficients fall back to f64; no panic either way.
    let _ = all.is_satisfied(&s(i64::MAX, i64::MAX));
}

#[test]
fn expression_effects_read_the_state_the_action_starts_from() {
    let mut d = ints(&["x", "y"]);
    let rotate = d
        .add_action(
            Action::builder("rotate")
                .increase("x", 10)
                .assign("y", x()) // the x before the action
                .increase_by("x", y()), // the y before the action, onto x + 10
        )
        .unwrap();
    let s = d.schema().state().set("x", 1).set("y", 2).build().unwrap();
    let after = d.apply(rotate, &s).unwrap();
    let (xv, yv) = (d.int("x").unwrap(), d.int("y").unwrap());
    assert_eq!((after.int(xv), after.int(yv)), (13, 1));
}

#[test]
fn undefined_results_make_the_action_inapplicable() {
    let mut schema = Schema::new();
    schema.int("n").unwrap();
    schema.int("m").unwrap();
    schema.float("f").unwrap();
    let mut d = Domain::new(schema);
    let double = d
        .add_action(Action::builder("double").assign("n", 2 * Expr::var("n")))
        .unwrap();
    let half = d
        .add_action(Action::builder("half").assign("n", 0.5 * Expr::var("m")))
        .unwrap();
    let tenth = d
        .add_action(Action::builder("tenth").assign("n", 0.1 * Expr::var("m")))
        .unwrap();
    let big = d
        .add_action(Action::builder("big").assign("f", 1e308 * Expr::var("f")))
        .unwrap();
    let s = |n: i64, m: i64, f: f64| {
        d.schema()
            .state()
            .set("n", n)
            .set("m", m)
            .set("f", f)
            .build()
            .unwrap()
    };
    let n = d.int("n").unwrap();
    assert!(d.apply(double, &s(i64::MAX / 2 + 1, 0, 0.0)).is_none());
    assert_eq!(d.apply(double, &s(-4, 0, 0.0)).unwrap().int(n), -8);
    assert!(d.apply(half, &s(0, 3, 0.0)).is_none()); // 1.5 is no int
    assert_eq!(d.apply(half, &s(0, 6, 0.0)).unwrap().int(n), 3);
    // 0.1 * 30 is 3.0000000000000004 in f64: within the tolerance of 3.
    assert_eq!(d.apply(tenth, &s(0, 30, 0.0)).unwrap().int(n), 3);
    assert!(d.apply(big, &s(0, 0, 10.0)).is_none());
}

#[test]
fn errors_name_the_variable_and_where() {
    let mut schema = Schema::new();
    schema.int("gold").unwrap();
    schema.bool("armed").unwrap();
    schema.string("at").unwrap();
    let mut d = Domain::new(schema);
    let e = d
        .add_action(Action::builder("buy").pre(Predicate::linear(Expr::var("gld") + 1, Op::Ge, 3)))
        .unwrap_err();
    assert_eq!(e.to_string(), "unknown variable `gld` in action `buy`");
    let e = d
        .add_action(Action::builder("arm").assign("gold", Expr::var("armed") + 1))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "`linear expression` does not apply to bool variable `armed` in action `arm`"
    );
    let e = d
        .add_action(Action::builder("go").assign("at", Expr::var("gold")))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "`:=` does not apply to string variable `at` in action `go`"
    );
    let e = d
        .goal([Predicate::linear(
            Expr::var("gold"),
            Op::Le,
            Expr::var("armed"),
        )])
        .unwrap_err();
    assert!(
        e.to_string().contains("bool variable `armed` in goal"),
        "{e}"
    );
    let e = d
        .goal([Predicate::linear(Expr::var("gold") * f64::NAN, Op::Le, 1)])
        .unwrap_err();
    assert!(matches!(e, FactoredError::NonFinite { .. }), "{e}");
}

#[test]
fn one_variable_linear_conditions_are_per_variable_constraints() {
    let d = ints(&["x", "y"]);
    let start = d.schema().default_state();
    let node = |p: Predicate| {
        d.regression(&start, &d.goal([p]).unwrap())
            .unwrap()
            .start_node()
    };
    assert_eq!(
        node(Predicate::linear(x(), Op::Ge, 3)),
        node(Predicate::ge("x", 3))
    );
    assert_eq!(
        node(Predicate::linear(2 * x() + 1, Op::Lt, 8)),
        node(Predicate::le("x", 3))
    );
    assert_eq!(
        node(Predicate::linear(-3 * x(), Op::Le, 7)),
        node(Predicate::ge("x", -2))
    );
    assert_eq!(
        node(Predicate::linear(2 * x(), Op::Ne, 3)).constraints(),
        []
    );
    assert!(node(Predicate::linear(2 * x(), Op::Eq, 3)).constraints()[0]
        .1
        .is_empty());
    // Subgoals with the same linear constraints written differently are equal.
    assert_eq!(
        node(Predicate::linear(x() + y(), Op::Ge, 3)),
        node(Predicate::linear(-2 * x(), Op::Le, 2 * y() - 5)),
    );
}

#[test]
fn regression_substitutes_through_expression_effects() {
    // transfer moves all of y onto x; gain adds 2 to y. Goal x >= 5 + y.
    let mut d = ints(&["x", "y"]);
    d.add_action(
        Action::builder("transfer")
            .pre(Predicate::gt("y", 0))
            .increase_by("x", y())
            .set("y", 0),
    )
    .unwrap();
    d.add_action(
        Action::builder("gain")
            .pre(Predicate::le("y", 10))
            .increase("y", 2),
    )
    .unwrap();
    let goal = d.goal([Predicate::linear(x(), Op::Ge, y() + 5)]).unwrap();
    let start = d.schema().default_state();
    let space = d.regression(&start, &goal).unwrap();
    let root = space.start_node();
    assert_eq!(root.describe(d.schema()), "-x + y <= -5");
    let mut children = Vec::new();
    space.successors(&root, |a, sub, _| {
        children.push((d.action(a).name().to_owned(), sub.describe(d.schema())));
    });
    assert_eq!(
        children,
        [
            // x + y - 0 >= 5 with y > 0.
            ("transfer".to_owned(), "y>=1, -x - y <= -5".to_owned()),
            ("gain".to_owned(), "y<=10, -x + y <= -7".to_owned()),
        ]
    );
    let result = search_core::dijkstra(&space, root).unwrap();
    let solution = result.outcome.solution().unwrap();
    let plan = space.plan(solution);
    assert_eq!(d.names(&plan), ["gain", "gain", "gain", "transfer"]);
    assert_eq!(d.validate(&start, &goal, &plan), Ok(4));
}

#[test]
fn regression_prunes_inconsistent_subgoals() {
    // x + y <= 1 with x >= 1 and y >= 1 cannot hold: bounds show it.
    let mut d = ints(&["x", "y"]);
    d.add_action(
        Action::builder("a")
            .pre(Predicate::ge("x", 1))
            .pre(Predicate::ge("y", 1))
            .assign("x", y() - 1),
    )
    .unwrap();
    let goal = d.goal([Predicate::linear(x() + y(), Op::Le, 0)]).unwrap();
    let start = d.schema().state().set("x", 3).set("y", 3).build().unwrap();
    let space = d.regression(&start, &goal).unwrap();
    let mut children = 0;
    space.successors(&space.start_node(), |_, _, _| children += 1);
    assert_eq!(children, 0, "y - 1 + y <= 0 contradicts y >= 1");
}

#[test]
fn regression_refuses_f64_parts_by_name() {
    let mut schema = Schema::new();
    schema.float("fuel").unwrap();
    schema.int("n").unwrap();
    let mut d = Domain::new(schema);
    d.add_action(Action::builder("burn").decrease_by("fuel", 0.5 * Expr::var("n")))
        .unwrap();
    d.add_action(
        Action::builder("half")
            .pre(Predicate::linear(
                Expr::var("n") * 0.5,
                Op::Ge,
                Expr::var("fuel"),
            ))
            .increase("n", 1),
    )
    .unwrap();
    let goal = d
        .goal([Predicate::linear(
            Expr::var("fuel") + Expr::var("n"),
            Op::Le,
            3,
        )])
        .unwrap();
    let start = d.schema().default_state();
    let e = d.regression(&start, &goal).unwrap_err();
    assert_eq!(
        e.to_string(),
        "regression cannot use linear condition `fuel + n <= 3` of the goal (f64 arithmetic), \
         expression effect `fuel -= 0.5 * n` of action `burn` (f64 arithmetic), \
         linear condition `0.5 * n >= fuel` of action `half` (f64 arithmetic)"
    );
}

#[test]
fn operator_counting_reads_linear_goals() {
    // Two counters that must end three apart: three increments of `a` at
    // least, which only a row over both variables sees.
    let mut d = ints(&["a", "b"]);
    d.add_action(Action::builder("inc_a").increase("a", 1))
        .unwrap();
    d.add_action(Action::builder("inc_b").increase("b", 1))
        .unwrap();
    d.add_action(
        Action::builder("dec_b")
            .pre(Predicate::ge("b", 1))
            .decrease("b", 1),
    )
    .unwrap();
    let g = d
        .goal([Predicate::linear(
            Expr::var("a") - Expr::var("b"),
            Op::Ge,
            3,
        )])
        .unwrap();
    let s = d.schema().default_state();
    let mut h = OperatorCounting::new(&d, &s, &g);
    assert_eq!(
        Heuristic::<State, u32>::estimate(&mut h, &s),
        Estimate::Value(3)
    );
    let r = d.regression(&s, &g).unwrap();
    assert_eq!(
        Heuristic::<Subgoal, u32>::estimate(&mut h, &r.start_node()),
        Estimate::Value(3)
    );
}

#[test]
fn a_long_refusal_names_the_first_five_and_counts_the_rest() {
    let mut schema = Schema::new();
    schema.float("fuel").unwrap();
    let mut d = Domain::new(schema);
    for n in 0..7 {
        d.add_action(Action::builder(&format!("burn{n}")).pre(Predicate::linear(
            Expr::var("fuel") * 0.5,
            Op::Ge,
            n,
        )))
        .unwrap();
    }
    let goal = d.goal([]).unwrap();
    let start = d.schema().default_state();
    let e = d.regression(&start, &goal).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("of action `burn4` (f64 arithmetic) and 2 more"),
        "{text}"
    );
    assert!(!text.contains("burn5"), "{text}");
    let FactoredError::NotRegressable { items } = e else {
        panic!("{e}");
    };
    assert_eq!(items.len(), 7);
}

#[test]
fn regression_refuses_wide_gaps_with_expression_effects() {
    let mut d = ints(&["x", "y"]);
    d.add_action(Action::builder("copy").assign("x", y()))
        .unwrap();
    let goal = d.goal([Predicate::one_of("x", [0, 100])]).unwrap();
    let start = d.schema().default_state();
    let e = d.regression(&start, &goal).unwrap_err();
    assert!(
        e.to_string().contains("the condition on `x` of the goal"),
        "{e}"
    );
    // Narrow gaps (`!=`) are carried as `!=` constraints.
    let goal = d
        .goal([Predicate::ne("x", 3), Predicate::ge("x", 0)])
        .unwrap();
    let space = d.regression(&start, &goal).unwrap();
    let mut children = Vec::new();
    space.successors(&space.start_node(), |_, sub, _| {
        children.push(sub.describe(d.schema()));
    });
    // `x := y` carries `x != 3` over to `y` as a per-variable constraint.
    assert_eq!(children, ["y in 0..=2 or y>=4"]);
}

/// A small int from the tape, below `below`.
fn int(t: &mut Tape, below: u8) -> i64 {
    i64::from(t.next(below))
}

const VARS: [&str; 3] = ["a", "b", "c"];
/// Every variable stays in `0..=TOP`: each effect comes with the
/// preconditions that keep it there, so both spaces are finite.
const TOP: i64 = 4;

fn var(t: &mut Tape) -> (usize, Expr) {
    let k = usize::from(t.next(3));
    (k, Expr::var(VARS[k]))
}

/// A random linear condition.
fn condition(t: &mut Tape) -> Predicate {
    let (i, u) = var(t);
    let (j, v) = var(t);
    let v = if i == j {
        Expr::var(VARS[(j + 1) % 3])
    } else {
        v
    };
    let k = int(t, 7);
    let op = [Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge][usize::from(t.next(6))];
    match t.next(5) {
        0 => Predicate::linear(u + v, op, k),
        1 => Predicate::linear(u - v, op, k - 3),
        2 => Predicate::linear(2 * u + v, op, k + 2),
        3 => Predicate::linear(Expr::var("a") + Expr::var("b") + Expr::var("c"), op, k + 2),
        _ => Predicate::compare(VARS[i], op, k.min(TOP)),
    }
}

/// A random task over three ints in `0..=4`: actions with linear
/// preconditions and expression effects (one per variable), a linear goal.
fn task(tape: &[u8]) -> (Domain, State, Goal) {
    let mut t = Tape(tape, 0);
    let mut d = ints(&VARS);
    let bounds = |e: Expr| {
        [
            Predicate::linear(e.clone(), Op::Ge, 0),
            Predicate::linear(e, Op::Le, TOP),
        ]
    };
    let actions = 2 + t.next(4);
    for n in 0..actions {
        let mut a = Action::builder(&format!("a{n}")).cost(u32::from(t.next(3)) + 1);
        for _ in 0..t.next(2) {
            a = a.pre(condition(&mut t));
        }
        let mut targets: Vec<usize> = Vec::new();
        for _ in 0..=t.next(2) {
            let (i, target) = var(&mut t);
            if targets.contains(&i) {
                continue;
            }
            targets.push(i);
            let name = VARS[i];
            let (_, other) = var(&mut t);
            let (_, third) = var(&mut t);
            let k = int(&mut t, 3);
            let (value, effect) = match t.next(7) {
                0 => (target.clone() + (k + 1), Effect::increase(name, k + 1)),
                1 => (target.clone() - (k + 1), Effect::decrease(name, k + 1)),
                2 => (
                    other.clone() + (k - 1),
                    Effect::assign(name, other + (k - 1)),
                ),
                3 => (
                    target.clone() + other.clone(),
                    Effect::increase_by(name, other),
                ),
                4 => (
                    target.clone() - other.clone(),
                    Effect::decrease_by(name, other),
                ),
                5 => (
                    other.clone() + third.clone() - k,
                    Effect::assign(name, other + third - k),
                ),
                _ => (TOP - other.clone(), Effect::assign(name, TOP - other)),
            };
            for p in bounds(value) {
                a = a.pre(p);
            }
            a = a.effect(effect);
        }
        d.add_action(a).unwrap();
    }
    let start = d
        .schema()
        .state()
        .set("a", int(&mut t, 5))
        .set("b", int(&mut t, 5))
        .set("c", int(&mut t, 5))
        .build()
        .unwrap();
    let goal = d.goal((0..=t.next(2)).map(|_| condition(&mut t))).unwrap();
    (d, start, goal)
}

fn limits(expansions: u64) -> SearchLimits<u32> {
    SearchLimits {
        max_expansions: Some(expansions),
        ..SearchLimits::default()
    }
}

/// The cost of a solved run after replaying its plan; `None` otherwise.
fn replayed<N>(
    d: &Domain,
    s: &State,
    g: &Goal,
    outcome: &Outcome<N, ActionId, u32>,
    reverse: bool,
) -> Option<u64> {
    let Outcome::Solved(solution) = outcome else {
        return None;
    };
    let mut plan = solution.actions.clone();
    if reverse {
        plan.reverse();
    }
    let cost = d.validate(s, g, &plan).expect("every plan replays");
    assert_eq!(cost, u64::from(solution.cost));
    Some(cost)
}

/// The optimal cost to go from `state` (the forward space is finite).
fn cost_to_go(d: &Domain, g: &Goal, state: &State) -> Option<u32> {
    let forward = d.forward(g);
    let result = Search::new(&forward, state.clone())
        .algorithm(Algorithm::Dijkstra)
        .limits(limits(100_000))
        .run()
        .unwrap();
    match result.outcome {
        Outcome::Solved(solution) => Some(solution.cost),
        Outcome::Exhausted => None,
        other => panic!("the forward space is finite, not {}", other.name()),
    }
}

/// Forward search from the start into a regression subgoal.
struct Into<'a> {
    forward: ForwardSpace<'a>,
    target: &'a Subgoal,
}

impl SearchSpace for Into<'_> {
    type Node = State;
    type Action = ActionId;
    type Cost = u32;

    fn is_goal(&self, node: &State) -> bool {
        self.target.is_satisfied_by(node)
    }

    fn successors<F: FnMut(ActionId, State, u32)>(&self, node: &State, emit: F) {
        self.forward.successors(node, emit);
    }
}

/// `h` never exceeds the optimal cost to go on the states a breadth-first
/// search reaches, and says "dead end" only where no plan exists.
fn assert_admissible_forward<H>(
    h: &mut H,
    d: &Domain,
    s: &State,
    g: &Goal,
) -> Result<(), TestCaseError>
where
    H: Heuristic<State, u32>,
{
    let forward = d.forward(g);
    let mut seen = vec![s.clone()];
    let mut next = 0;
    while next < seen.len() && seen.len() < 40 {
        let state = seen[next].clone();
        next += 1;
        forward.successors(&state, |_, child, _| {
            if !seen.contains(&child) {
                seen.push(child);
            }
        });
    }
    for state in &seen {
        let truth = cost_to_go(d, g, state);
        match (h.estimate(state), truth) {
            (Estimate::Value(e), Some(t)) => {
                prop_assert!(e <= t, "h {} > h* {} in {:?}", e, t, state);
            }
            (Estimate::DeadEnd, Some(t)) => {
                prop_assert!(false, "dead end with h* {} in {:?}", t, state);
            }
            _ => {}
        }
    }
    Ok(())
}

/// [`assert_admissible_forward`], and in regression `h` never exceeds the
/// cheapest plan from the start into each subgoal a breadth-first
/// regression reaches, and says "dead end" only where no plan exists.
fn assert_admissible<H>(mut h: H, d: &Domain, s: &State, g: &Goal) -> Result<(), TestCaseError>
where
    H: Heuristic<State, u32> + Heuristic<Subgoal, u32>,
{
    assert_admissible_forward(&mut h, d, s, g)?;
    assert_admissible_regression(&mut h, d, s, g)
}

/// `h` never overestimates the cost from the start to the first subgoals
/// regression reaches.
fn assert_admissible_regression<H>(
    h: &mut H,
    d: &Domain,
    s: &State,
    g: &Goal,
) -> Result<(), TestCaseError>
where
    H: Heuristic<Subgoal, u32>,
{
    let forward = d.forward(g);
    let regression = d.regression(s, g).unwrap();
    let mut subgoals = vec![regression.start_node()];
    let mut next = 0;
    while next < subgoals.len() && subgoals.len() < 30 {
        let subgoal = subgoals[next].clone();
        next += 1;
        regression.successors(&subgoal, |_, parent, _| {
            if !subgoals.contains(&parent) {
                subgoals.push(parent);
            }
        });
    }
    for subgoal in &subgoals {
        let into = Into {
            forward,
            target: subgoal,
        };
        let truth = Search::new(&into, s.clone())
            .algorithm(Algorithm::Dijkstra)
            .limits(limits(100_000))
            .run()
            .unwrap()
            .outcome
            .into_solution()
            .map(|solution| solution.cost);
        match (h.estimate(subgoal), truth) {
            (Estimate::Value(e), Some(t)) => {
                prop_assert!(
                    e <= t,
                    "h {} > h* {} for {}",
                    e,
                    t,
                    subgoal.describe(d.schema())
                );
            }
            (Estimate::DeadEnd, Some(t)) => {
                prop_assert!(
                    false,
                    "dead end with h* {} for {}",
                    t,
                    subgoal.describe(d.schema())
                );
            }
            _ => {}
        }
    }
    Ok(())
}

/// A task the property test drew, 2026-12-06: no linear parts, so the
/// goal count claims admissibility in regression, which must then hold.
#[test]
fn the_goal_count_is_admissible_where_it_claims_to_be() {
    let tape = [
        28, 0, 156, 188, 0, 0, 0, 0, 224, 0, 84, 29, 181, 0, 0, 0, 63, 190, 0, 0, 0, 0, 0, 0, 0, 0,
        199, 0, 0, 0, 0, 0, 0, 0, 0, 10, 180, 237, 190, 221, 170, 29, 16, 45, 247, 95, 198, 60,
        219, 130, 202, 106, 208, 111, 10, 136, 132, 137, 162, 85, 115, 6, 2, 180, 158, 199, 230,
        113, 145, 92, 64, 226, 182, 25, 2, 29, 160, 219, 159, 162, 92, 141, 88, 127, 65, 170, 63,
        93, 84, 220,
    ];
    let (d, s, g) = task(&tape);
    let mut count = GoalCount::new(&d, &s, &g);
    assert!(Heuristic::<Subgoal, u32>::is_admissible(&count));
    assert_admissible_regression(&mut count, &d, &s, &g).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Forward Dijkstra and regression Dijkstra agree: a regression that
    /// ends finds the forward optimum (or proves, like forward, that there
    /// is none), and every plan replays forward. Regression's subgoals over
    /// unbounded ints can grow without end, so a run may also stop at its
    /// limit without an answer (never with a wrong one).
    #[test]
    fn forward_and_regression_agree_on_linear_tasks(tape in proptest::collection::vec(any::<u8>(), 90)) {
        let (d, s, g) = task(&tape);
        let forward = d.forward(&g);
        let reference = Search::new(&forward, s.clone())
            .algorithm(Algorithm::Dijkstra)
            .limits(limits(100_000))
            .run()
            .unwrap();
        prop_assert!(matches!(reference.outcome, Outcome::Solved(_) | Outcome::Exhausted));
        let expected = replayed(&d, &s, &g, &reference.outcome, false);
        let regression = d.regression(&s, &g).unwrap();
        let check = |outcome: &Outcome<Subgoal, ActionId, u32>| -> Result<(), TestCaseError> {
            match outcome {
                Outcome::Solved(_) => prop_assert_eq!(replayed(&d, &s, &g, outcome, true), expected),
                Outcome::Exhausted => prop_assert_eq!(expected, None),
                _ => {}
            }
            Ok(())
        };
        let r = Search::new(&regression, regression.start_node())
            .algorithm(Algorithm::Dijkstra)
            .limits(limits(500))
            .run()
            .unwrap();
        check(&r.outcome)?;
        // A* with an admissible heuristic agrees too, in both directions.
        let h = || NumericHmax::new(&d, &s, &g);
        let f = Search::new(&forward, s.clone()).heuristic(h()).limits(limits(100_000)).run().unwrap();
        prop_assert_eq!(replayed(&d, &s, &g, &f.outcome, false), expected);
        let r = Search::new(&regression, regression.start_node()).heuristic(h()).limits(limits(500)).run().unwrap();
        check(&r.outcome)?;
        let rmax = NumericRmax::regression(&d, &s, &g).unwrap();
        let r = Search::new(&regression, regression.start_node()).heuristic(rmax).limits(limits(500)).run().unwrap();
        check(&r.outcome)?;
    }

    /// The admissible heuristics stay admissible with linear parts about,
    /// in both directions.
    #[test]
    fn heuristics_stay_admissible_on_linear_tasks(tape in proptest::collection::vec(any::<u8>(), 90)) {
        let (d, s, g) = task(&tape);
        assert_admissible(NumericHmax::new(&d, &s, &g), &d, &s, &g)?;
        assert_admissible(OperatorCounting::new(&d, &s, &g), &d, &s, &g)?;
        assert_admissible(NumericDistance::new(&d, &s, &g, Combine::Max), &d, &s, &g)?;
        // ENHSP's h^rmax: toward the goal, and from the start in regression.
        assert_admissible_forward(&mut NumericRmax::new(&d, &g).unwrap(), &d, &s, &g)?;
        assert_admissible(NumericRmax::regression(&d, &s, &g).unwrap(), &d, &s, &g)?;
        // The goal count claims admissibility in regression only where it
        // holds: a task drawn without linear parts, each action changing
        // one counted variable at most.
        let mut count = GoalCount::new(&d, &s, &g);
        if Heuristic::<Subgoal, u32>::is_admissible(&count) {
            assert_admissible_regression(&mut count, &d, &s, &g)?;
        }
    }
}
