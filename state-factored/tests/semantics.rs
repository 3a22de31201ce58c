//! Representation and semantics: errors, NaN, overflow, effect order,
//! regression rules, unsolvable problems.

use search_core::{dijkstra, Algorithm, Outcome, Search, SearchLimits};
use state_factored::prelude::*;
use state_factored::{Constraint, Effect};

fn schema() -> Schema {
    let mut s = Schema::new();
    s.int("gold").unwrap();
    s.float("noise").unwrap();
    s.bool("armed").unwrap();
    s.string("location").unwrap();
    s
}

#[test]
fn unknown_variables_name_the_action_or_goal() {
    let mut d = Domain::new(schema());
    let e = d
        .add_action(Action::builder("buy").pre(Predicate::ge("gld", 1)))
        .unwrap_err();
    assert_eq!(e.to_string(), "unknown variable `gld` in action `buy`");
    let e = d
        .add_action(Action::builder("go").set("loc", "x"))
        .unwrap_err();
    assert_eq!(e.to_string(), "unknown variable `loc` in action `go`");
    let e = d.goal([Predicate::eq("armd", true)]).unwrap_err();
    assert_eq!(e.to_string(), "unknown variable `armd` in goal");
    let e = d.schema().state().set("nope", 1).build().unwrap_err();
    assert_eq!(e.to_string(), "unknown variable `nope` in state");
}

#[test]
fn type_errors_name_the_variable() {
    let mut d = Domain::new(schema());
    let e = d
        .add_action(Action::builder("a").pre(Predicate::eq("gold", "lots")))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "variable `gold` is int but action `a` gives it a string value"
    );
    let e = d
        .add_action(Action::builder("b").set("armed", 1))
        .unwrap_err();
    assert!(matches!(e, FactoredError::TypeMismatch { ref variable, .. } if variable == "armed"));
    let e = d
        .add_action(Action::builder("c").increase("location", "x"))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "`increase` does not apply to string variable `location` in action `c`"
    );
    let e = d
        .add_action(Action::builder("d").effect(Effect::toggle("gold")))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "`toggle` does not apply to int variable `gold` in action `d`"
    );
    let e = d.goal([Predicate::gt("armed", false)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "`>` does not apply to bool variable `armed` in goal"
    );
    let e = d
        .goal([Predicate::eq("gold", 3).with_tolerance(0.1)])
        .unwrap_err();
    assert!(matches!(
        e,
        FactoredError::UnsupportedOperation {
            operation: "tolerance",
            ..
        }
    ));
    let e = d
        .goal([Predicate::in_range("location", "a", "b")])
        .unwrap_err();
    assert!(matches!(
        e,
        FactoredError::UnsupportedOperation {
            operation: "in_range",
            ..
        }
    ));
    // An int constant is accepted for a float variable.
    assert!(d.goal([Predicate::le("noise", 1)]).is_ok());
    // The error leaves the domain as it was.
    assert!(d.actions().is_empty());
}

#[test]
fn duplicates_are_errors() {
    let mut s = Schema::new();
    s.int("x").unwrap();
    assert_eq!(
        s.bool("x").unwrap_err().to_string(),
        "variable `x` is declared twice"
    );
    let mut d = Domain::new(s);
    d.add_action(Action::builder("a")).unwrap();
    assert_eq!(
        d.add_action(Action::builder("a")).unwrap_err().to_string(),
        "action `a` is declared twice"
    );
}

#[test]
fn nan_and_infinities_are_rejected() {
    let mut d = Domain::new(schema());
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let e = d.schema().state().set("noise", bad).build().unwrap_err();
        assert!(matches!(e, FactoredError::NonFinite { ref variable, .. } if variable == "noise"));
        let e = d
            .add_action(Action::builder("a").increase("noise", bad))
            .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("variable `noise` in action `a` gets"),
            "{e}"
        );
        assert!(d.goal([Predicate::le("noise", bad)]).is_err());
        assert!(d
            .goal([Predicate::eq("noise", 0.0).with_tolerance(bad)])
            .is_err());
    }
    assert!(d
        .goal([Predicate::eq("noise", 0.0).with_tolerance(-1.0)])
        .is_err());
}

#[test]
fn float_overflow_makes_the_action_inapplicable() {
    let mut d = Domain::new(schema());
    let id = d
        .add_action(Action::builder("shout").increase("noise", f64::MAX))
        .unwrap();
    let s = d.schema().state().set("noise", f64::MAX).build().unwrap();
    assert!(d.apply(id, &s).is_none());
    let quiet = d.schema().default_state();
    assert!(d.apply(id, &quiet).is_some());
}

#[test]
fn int_overflow_makes_the_action_inapplicable_in_both_directions() {
    let mut d = Domain::new(schema());
    let id = d
        .add_action(Action::builder("mint").increase("gold", i64::MAX / 2 + 1))
        .unwrap();
    let s = d
        .schema()
        .state()
        .set("gold", i64::MAX / 2)
        .build()
        .unwrap();
    let once = d.apply(id, &s).unwrap();
    assert_eq!(
        d.schema().value(&once, d.schema().var("gold").unwrap()),
        Value::Int(i64::MAX)
    );
    assert!(d.apply(id, &once).is_none(), "must not wrap");
    let goal = d.goal([Predicate::lt("gold", 0)]).unwrap();
    // Forward: the only successor overflows, so the space is finite and empty.
    let r = dijkstra(&d.forward(&goal), once.clone()).unwrap();
    assert_eq!(r.outcome, Outcome::Exhausted);
    // Regression: no gold < 0 state is reachable by adding, from any start.
    let space = d.regression(&once, &goal).unwrap();
    let r = dijkstra(&space, space.start_node()).unwrap();
    assert_eq!(r.outcome.name(), "exhausted");
    // Subtraction near the bottom.
    let pay = d
        .add_action(Action::builder("pay").decrease("gold", 10))
        .unwrap();
    let poor = d
        .schema()
        .state()
        .set("gold", i64::MIN + 5)
        .build()
        .unwrap();
    assert!(d.apply(pay, &poor).is_none());
}

#[test]
fn two_effects_on_one_variable_compose_in_order() {
    let mut s = Schema::new();
    let gold = s.int("gold").unwrap();
    let armed = s.bool("armed").unwrap();
    let mut d = Domain::new(s);
    let add_twice = d
        .add_action(
            Action::builder("add_twice")
                .increase("gold", 2)
                .increase("gold", 3),
        )
        .unwrap();
    let set_then_add = d
        .add_action(
            Action::builder("set_then_add")
                .set("gold", 5)
                .increase("gold", 1),
        )
        .unwrap();
    let add_then_set = d
        .add_action(
            Action::builder("add_then_set")
                .increase("gold", 1)
                .set("gold", 5),
        )
        .unwrap();
    let double_toggle = d
        .add_action(
            Action::builder("double_toggle")
                .effect(Effect::toggle("armed"))
                .effect(Effect::toggle("armed")),
        )
        .unwrap();
    let start = d.schema().state().set("gold", 10).build().unwrap();
    assert_eq!(d.apply(add_twice, &start).unwrap().int(gold), 15);
    assert_eq!(d.apply(set_then_add, &start).unwrap().int(gold), 6);
    assert_eq!(d.apply(add_then_set, &start).unwrap().int(gold), 5);
    assert!(!d.apply(double_toggle, &start).unwrap().bool(armed));

    // Regression agrees: reach gold == 15 from 10 needs add_twice; gold == 6
    // needs set_then_add.
    for (target, expected) in [(15, "add_twice"), (6, "set_then_add"), (5, "add_then_set")] {
        let goal = d.goal([Predicate::eq("gold", target)]).unwrap();
        let space = d.regression(&start, &goal).unwrap();
        let r = dijkstra(&space, space.start_node()).unwrap();
        let plan = space.plan(r.outcome.solution().unwrap());
        assert_eq!(d.names(&plan), [expected]);
        assert_eq!(d.validate(&start, &goal, &plan), Ok(1));
    }
}

#[test]
fn custom_effects_read_the_state_before_the_action() {
    let mut s = Schema::new();
    let a = s.int("a").unwrap();
    let b = s.int("b").unwrap();
    let mut d = Domain::new(s);
    let id = d
        .add_action(
            Action::builder("copy")
                .increase("a", 1)
                .effect(Effect::custom("b_gets_old_a", move |before, after| {
                    after.set_int(b, before.int(a));
                    true
                })),
        )
        .unwrap();
    let start = d.schema().state().set("a", 7).build().unwrap();
    let next = d.apply(id, &start).unwrap();
    assert_eq!((next.int(a), next.int(b)), (8, 7));
}

#[test]
fn a_goal_already_satisfied_costs_nothing_in_both_directions() {
    let p = state_factored::problems::hitman().unwrap();
    let goal = p
        .domain
        .goal([Predicate::eq("location", "home"), Predicate::ge("gold", 20)])
        .unwrap();
    let f = dijkstra(&p.domain.forward(&goal), p.start.clone()).unwrap();
    let solution = f.outcome.solution().unwrap();
    assert_eq!((solution.cost, solution.actions.len()), (0, 0));
    let space = p.domain.regression(&p.start, &goal).unwrap();
    let r = dijkstra(&space, space.start_node()).unwrap();
    assert_eq!(r.outcome.solution().unwrap().cost, 0);
    assert_eq!(r.stats.expanded, 1);
}

#[test]
fn unreachable_goal_with_unbounded_increments() {
    // `gold` grows without bound, but no action sets `flag`.
    let mut s = Schema::new();
    s.int("gold").unwrap();
    s.float("noise").unwrap();
    s.bool("flag").unwrap();
    let mut d = Domain::new(s);
    d.add_action(Action::builder("mine").increase("gold", 1))
        .unwrap();
    d.add_action(Action::builder("shout").increase("noise", 0.5))
        .unwrap();
    d.add_action(
        Action::builder("spend")
            .pre(Predicate::ge("gold", 3))
            .decrease("gold", 2),
    )
    .unwrap();
    let goal = d
        .goal([Predicate::eq("flag", true), Predicate::ge("gold", 100)])
        .unwrap();
    let start = d.schema().default_state();

    let limits = SearchLimits {
        max_expansions: Some(20_000),
        ..SearchLimits::default()
    };
    for algorithm in [
        Algorithm::AStar,
        Algorithm::Dijkstra,
        Algorithm::BreadthFirst,
        Algorithm::GreedyBestFirst,
    ] {
        let forward = d.forward(&goal);
        let r = Search::new(&forward, start.clone())
            .algorithm(algorithm)
            .heuristic(GoalCount::new(&d, &start, &goal))
            .limits(limits.clone())
            .run()
            .unwrap();
        assert_eq!(
            r.outcome,
            Outcome::LimitReached {
                limit: search_core::Limit::Expansions,
                best: None,
            },
            "{algorithm:?}"
        );
        assert!(r.stats.elapsed.as_secs() < 5);

        let space = d.regression(&start, &goal).unwrap();
        let r = Search::new(&space, space.start_node())
            .algorithm(algorithm)
            .heuristic(GoalCount::new(&d, &start, &goal))
            .limits(limits.clone())
            .run()
            .unwrap();
        assert_eq!(r.outcome, Outcome::Exhausted, "{algorithm:?}");
        assert!(r.stats.expanded <= 1);
    }
    // The numeric heuristic sees the dead end forward at once.
    let r = search_core::astar(
        &d.forward(&goal),
        start.clone(),
        NumericDistance::admissible(&d, &start, &goal),
    )
    .unwrap();
    assert_eq!(r.outcome, Outcome::Exhausted);
}

#[test]
fn regression_refuses_custom_parts_and_names_them() {
    let mut d = Domain::new(schema());
    d.add_action(Action::builder("scan").pre(Predicate::custom("quiet", |_| true)))
        .unwrap();
    d.add_action(Action::builder("warp").effect(Effect::custom("teleport", |_, _| true)))
        .unwrap();
    d.add_action(Action::builder("haggle").cost_fn(|_| 2))
        .unwrap();
    let goal = d.goal([Predicate::custom("happy", |_| true)]).unwrap();
    let start = d.schema().default_state();
    let e = d.regression(&start, &goal).unwrap_err();
    let FactoredError::NotRegressable { items } = &e else {
        panic!("{e}")
    };
    assert_eq!(
        items,
        &[
            "custom predicate `happy` of the goal",
            "custom predicate `quiet` of action `scan`",
            "custom effect `teleport` of action `warp`",
            "the cost function of action `haggle`",
        ]
    );
    // Forward search takes them.
    let r = dijkstra(&d.forward(&goal), start).unwrap();
    assert_eq!(r.outcome.solution().unwrap().cost, 0);
}

#[test]
fn float_tolerance_and_regression_through_float_effects() {
    let mut s = Schema::new();
    s.float("x").unwrap();
    let mut d = Domain::new(s);
    d.add_action(Action::builder("step").increase("x", 0.1))
        .unwrap();
    let start = d.schema().default_state();
    // 0.1 added three times is 0.30000000000000004, not 0.3.
    let exact = d.goal([Predicate::eq("x", 0.3)]).unwrap();
    let near = d
        .goal([Predicate::eq("x", 0.3).with_tolerance(1e-9)])
        .unwrap();
    let limits = SearchLimits {
        max_expansions: Some(50),
        ..SearchLimits::default()
    };
    let forward = d.forward(&exact);
    let r = Search::new(&forward, start.clone())
        .algorithm(Algorithm::Dijkstra)
        .limits(limits.clone())
        .run()
        .unwrap();
    assert!(matches!(r.outcome, Outcome::LimitReached { .. }));
    let r = dijkstra(&d.forward(&near), start.clone()).unwrap();
    assert_eq!(r.outcome.solution().unwrap().cost, 3);
    // Regression computes the exact float preimages, so it agrees.
    let space = d.regression(&start, &near).unwrap();
    let r = dijkstra(&space, space.start_node()).unwrap();
    let plan = space.plan(r.outcome.solution().unwrap());
    assert_eq!(d.validate(&start, &near, &plan), Ok(3));
    let space = d.regression(&start, &exact).unwrap();
    let r = Search::new(&space, space.start_node())
        .algorithm(Algorithm::Dijkstra)
        .limits(limits)
        .run()
        .unwrap();
    assert!(r.outcome.solution().is_none());
}

#[test]
fn subgoals_are_canonical() {
    let mut s = Schema::new();
    s.int("n").unwrap();
    s.string("at").unwrap();
    s.float("x").unwrap();
    let d = Domain::new(s);
    let start = d.schema().default_state();
    let node = |preds: Vec<Predicate>| {
        let goal = d.goal(preds).unwrap();
        d.regression(&start, &goal).unwrap().start_node()
    };
    assert_eq!(
        node(vec![Predicate::ne("n", 3), Predicate::ge("n", 3)]),
        node(vec![Predicate::gt("n", 3)])
    );
    assert_eq!(
        node(vec![Predicate::one_of("n", [1, 2, 3, 4])]),
        node(vec![Predicate::in_range("n", 1, 4)])
    );
    assert_eq!(
        node(vec![
            Predicate::ne("at", "a"),
            Predicate::one_of("at", ["a", "b"])
        ]),
        node(vec![Predicate::eq("at", "b")])
    );
    assert_eq!(
        node(vec![Predicate::ne("x", 0.0), Predicate::ne("x", -0.0)]),
        node(vec![Predicate::ne("x", 0.0)])
    );
    assert_eq!(
        node(vec![Predicate::lt("x", 0.0)]),
        node(vec![Predicate::le("x", -f64::from_bits(1))])
    );
    let universal = node(vec![
        Predicate::ge("x", -f64::MAX),
        Predicate::ne("at", "nowhere"),
        Predicate::ne("at", "nowhere"),
    ]);
    assert_eq!(universal.constraints().len(), 1);
    assert!(matches!(universal.constraints()[0].1, Constraint::Str(_)));
}

#[test]
fn wide_states_beyond_the_inline_size_behave_the_same() {
    use std::collections::HashSet;
    // 20 counters: past the 12 slots a state holds inline.
    let mut schema = Schema::new();
    for k in 0..20 {
        schema.int(&format!("c{k}")).unwrap();
    }
    let mut d = Domain::new(schema);
    for k in 0..20 {
        let name = format!("c{k}");
        d.add_action(
            Action::builder(&format!("inc{k}"))
                .pre(Predicate::lt(&name, 2))
                .increase(&name, 1),
        )
        .unwrap();
    }
    let goal = d
        .goal([Predicate::ge("c0", 2), Predicate::ge("c19", 1)])
        .unwrap();
    let start = d.schema().default_state();
    assert_eq!(start.len(), 20);
    let a = d.apply(d.action_id("inc19").unwrap(), &start).unwrap();
    let b = d.apply(d.action_id("inc19").unwrap(), &start).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, start);
    assert_eq!(HashSet::from([a, b, start.clone()]).len(), 2);
    for h in [true, false] {
        let space = d.forward(&goal);
        let search = Search::new(&space, start.clone()).limits(SearchLimits {
            max_expansions: Some(100_000),
            ..SearchLimits::default()
        });
        let result = if h {
            search.heuristic(NumericHmax::new(&d, &start, &goal)).run()
        } else {
            search.algorithm(Algorithm::Dijkstra).run()
        }
        .unwrap();
        assert_eq!(result.outcome.solution().unwrap().cost, 3);
    }
}

#[test]
fn hmax_looks_through_preconditions_in_both_directions() {
    use search_core::{Estimate, Heuristic};
    let p = state_factored::problems::hitman().unwrap();
    let mut h = NumericHmax::new(&p.domain, &p.start, &p.goal);
    // attack (1) after has_weapon: buy_weapon (1) after gold >= 60, which
    // needs the walk to the mine (2) and two mines (2 * 3).
    assert_eq!(
        Heuristic::<State, u32>::estimate(&mut h, &p.start),
        Estimate::Value(10)
    );
    let space = p.domain.regression(&p.start, &p.goal).unwrap();
    assert_eq!(
        Heuristic::<Subgoal, u32>::estimate(&mut h, &space.start_node()),
        Estimate::Value(10)
    );
    for (direction, cost) in [
        (
            "forward",
            search_core::astar(&p.domain.forward(&p.goal), p.start.clone(), h.clone())
                .unwrap()
                .outcome
                .solution()
                .map(|s| s.cost),
        ),
        (
            "regression",
            search_core::astar(&space, space.start_node(), h.clone())
                .unwrap()
                .outcome
                .solution()
                .map(|s| s.cost),
        ),
    ] {
        assert_eq!(cost, Some(15), "{direction}");
    }
}

#[test]
fn operator_counting_keeps_to_the_searchs_limits() {
    use search_core::{Estimate, Heuristic, Limit};
    use std::time::{Duration, Instant};
    let p = state_factored::problems::economy(1).unwrap();
    let estimate = |h: &mut OperatorCounting<'_>| {
        let Estimate::Value(v) = Heuristic::<State, u32>::estimate(h, &p.start) else {
            panic!("the start is no dead end");
        };
        v
    };
    let mut free = OperatorCounting::new(&p.domain, &p.start, &p.goal);
    free.node_budget(10_000);
    let exact = estimate(&mut free);
    let held = Heuristic::<State, u32>::memory_bytes(&free);
    assert!(held > 0);

    // Past the deadline: a lower bound, at once.
    let mut late = OperatorCounting::new(&p.domain, &p.start, &p.goal);
    late.node_budget(10_000);
    Heuristic::<State, u32>::set_deadline(&mut late, Some(Instant::now()));
    let started = Instant::now();
    assert!(estimate(&mut late) < exact, "the root relaxation alone");
    assert!(started.elapsed() < Duration::from_secs(1));

    // Within a budget too small for more than the root's tableaux: a lower
    // bound, and no more bytes than the budget allows.
    let mut tight = OperatorCounting::new(&p.domain, &p.start, &p.goal);
    tight.node_budget(10_000);
    let budget = held / 4;
    Heuristic::<State, u32>::set_memory_budget(&mut tight, Some(budget));
    let bound = estimate(&mut tight);
    assert!(bound <= exact);
    let tight_bytes = Heuristic::<State, u32>::memory_bytes(&tight);
    assert!(tight_bytes < held, "{tight_bytes} of {held}");

    // A budget smaller than the program: the bound 0, and the bytes it
    // needed reported, so that a search ends at its memory limit.
    let mut none = OperatorCounting::new(&p.domain, &p.start, &p.goal);
    Heuristic::<State, u32>::set_memory_budget(&mut none, Some(64));
    assert_eq!(estimate(&mut none), 0);
    assert!(Heuristic::<State, u32>::memory_bytes(&none) > 64);
    // Given room again, it holds what a heuristic never refused holds.
    Heuristic::<State, u32>::set_memory_budget(&mut none, None);
    let mut never = OperatorCounting::new(&p.domain, &p.start, &p.goal);
    assert_eq!(estimate(&mut none), estimate(&mut never));
    assert_eq!(
        Heuristic::<State, u32>::memory_bytes(&none),
        Heuristic::<State, u32>::memory_bytes(&never)
    );
    let limits = SearchLimits {
        max_memory_bytes: Some(1 << 10),
        ..SearchLimits::default()
    };
    let h = OperatorCounting::new(&p.domain, &p.start, &p.goal);
    let result = Search::new(&p.domain.forward(&p.goal), p.start.clone())
        .heuristic(h)
        .limits(limits)
        .run()
        .unwrap();
    assert_eq!(result.outcome.limit(), Some(Limit::Memory));
}

#[test]
fn operator_counting_counts_resources_in_both_directions() {
    use search_core::{Estimate, Heuristic};
    let p = state_factored::problems::economy(1).unwrap();
    let mut h = OperatorCounting::new(&p.domain, &p.start, &p.goal);
    // With budget enough to close the program, the start's estimate is one
    // below the optimal cost, 29: tools, whole chops and quarries, the
    // sales, all counted (the program ignores only the order of actions).
    h.node_budget(10_000);
    assert_eq!(
        Heuristic::<State, u32>::estimate(&mut h, &p.start),
        Estimate::Value(28)
    );
    let space = p.domain.regression(&p.start, &p.goal).unwrap();
    assert_eq!(
        Heuristic::<Subgoal, u32>::estimate(&mut h, &space.start_node()),
        Estimate::Value(28)
    );
    // h_max sees only the most expensive condition.
    let mut hmax = NumericHmax::new(&p.domain, &p.start, &p.goal);
    assert_eq!(
        Heuristic::<State, u32>::estimate(&mut hmax, &p.start),
        Estimate::Value(16)
    );
    let forward =
        search_core::astar(&p.domain.forward(&p.goal), p.start.clone(), h.clone()).unwrap();
    assert_eq!(forward.outcome.solution().map(|s| s.cost), Some(29));
    let backward = search_core::astar(&space, space.start_node(), h).unwrap();
    let plan = space.plan(backward.outcome.solution().unwrap());
    assert_eq!(p.domain.validate(&p.start, &p.goal, &plan).unwrap(), 29);
}

#[test]
fn operator_counting_proves_dead_ends_and_forbids_unsupported_actions() {
    use search_core::{Estimate, Heuristic};
    let mut schema = Schema::new();
    schema.int("gold").unwrap();
    schema.bool("key").unwrap();
    schema.bool("open").unwrap();
    let mut d = Domain::new(schema);
    d.add_action(Action::builder("mine").increase("gold", 1))
        .unwrap();
    // Nothing sets the key, so `unlock` can never occur.
    d.add_action(
        Action::builder("unlock")
            .pre(Predicate::eq("key", true))
            .set("open", true),
    )
    .unwrap();
    let start = d.schema().default_state();
    let goal = d.goal([Predicate::eq("open", true)]).unwrap();
    let mut h = OperatorCounting::new(&d, &start, &goal);
    assert_eq!(
        Heuristic::<State, u32>::estimate(&mut h, &start),
        Estimate::DeadEnd
    );
    // Spending more gold than any state can hold is a dead end too: gold
    // only rises, so it never falls below its value now.
    let goal = d.goal([Predicate::le("gold", -1)]).unwrap();
    let mut h = OperatorCounting::new(&d, &start, &goal);
    assert_eq!(
        Heuristic::<State, u32>::estimate(&mut h, &start),
        Estimate::DeadEnd
    );
    // A goal already met costs nothing.
    let goal = d.goal([Predicate::ge("gold", 0)]).unwrap();
    let mut h = OperatorCounting::new(&d, &start, &goal);
    assert_eq!(
        Heuristic::<State, u32>::estimate(&mut h, &start),
        Estimate::Value(0)
    );
}

#[test]
fn operator_counting_stays_admissible_with_steps_of_very_different_sizes() {
    use search_core::{Estimate, Heuristic};
    // A step of 2^40 beside one of 1024 leaves pivots on entries near the
    // simplex's tolerance; the estimate must stay a lower bound (found by a
    // review: it once said "dead end", and 3 where the optimum is 2).
    let mut schema = Schema::new();
    schema.int("r").unwrap();
    schema.bool("licensed").unwrap(); // nothing sets it
    let mut d = Domain::new(schema);
    d.add_action(
        Action::builder("big")
            .pre(Predicate::eq("licensed", true))
            .increase("r", 1_i64 << 40),
    )
    .unwrap();
    d.add_action(Action::builder("small").increase("r", 1024))
        .unwrap();
    let start = d.schema().default_state();
    let goal = d.goal([Predicate::ge("r", 2048)]).unwrap();
    for extra in [false, true] {
        let mut d = d.clone();
        if extra {
            d.add_action(Action::builder("t").cost(3).increase("r", 2048))
                .unwrap();
        }
        let mut h = OperatorCounting::new(&d, &start, &goal);
        match Heuristic::<State, u32>::estimate(&mut h, &start) {
            Estimate::Value(v) => assert!(v <= 2, "{v} > 2 (extra: {extra})"),
            Estimate::DeadEnd => panic!("dead end (extra: {extra})"),
        }
        let plan = search_core::astar(&d.forward(&goal), start.clone(), h).unwrap();
        assert_eq!(plan.outcome.solution().map(|s| s.cost), Some(2));
    }
}

#[test]
fn operator_counting_forbids_an_action_with_contradictory_preconditions() {
    use search_core::{Estimate, Heuristic};
    let mut schema = Schema::new();
    schema.int("gold").unwrap();
    schema.bool("rich").unwrap();
    let mut d = Domain::new(schema);
    d.add_action(Action::builder("mine").cost(2).increase("gold", 1))
        .unwrap();
    // Never applicable: gold >= 5 and gold <= 3 at once.
    d.add_action(
        Action::builder("impossible")
            .pre(Predicate::ge("gold", 5))
            .pre(Predicate::le("gold", 3))
            .set("rich", true),
    )
    .unwrap();
    d.add_action(
        Action::builder("cash_in")
            .cost(1)
            .pre(Predicate::ge("gold", 2))
            .set("rich", true),
    )
    .unwrap();
    let start = d.schema().default_state();
    let goal = d.goal([Predicate::eq("rich", true)]).unwrap();
    let mut h = OperatorCounting::new(&d, &start, &goal);
    // Two mines and the cash-in; the impossible action is no shortcut.
    assert_eq!(
        Heuristic::<State, u32>::estimate(&mut h, &start),
        Estimate::Value(5)
    );
    let plan = search_core::astar(&d.forward(&goal), start.clone(), h).unwrap();
    assert_eq!(plan.outcome.solution().map(|s| s.cost), Some(5));
}
