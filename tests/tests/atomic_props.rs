//! state-atomic property tests: on random problems, forward and regression
//! agree on the optimal cost with each other and with Dijkstra, every plan
//! replays forward to the goal, `h_max` never exceeds the optimal cost,
//! stubborn sets keep the optimal cost, and the wide state answers as the
//! u64 state does.

use proptest::prelude::*;
use search_core::bidirectional::FrontToFront;
use search_core::{Algorithm, Blind, Estimate, Heuristic, Outcome, Search, SearchLimits};
use state_atomic::{
    ActionSet, AdmissibleMismatch, Bits, ForwardSpace, PartialState, RegressionSpace,
    RelaxedBetween, RelaxedForward, RelaxedKind, RelaxedRegression, SparseBits, Subsumption, Wide,
    WorldState,
};

/// A random action: preconditions, effects (atom index, value) and cost.
type SpecAction = (Vec<(usize, bool)>, Vec<(usize, bool)>, u32);

/// A random problem, independent of the state width.
#[derive(Clone, Debug)]
struct Spec {
    atoms: usize,
    actions: Vec<SpecAction>,
    start: Vec<bool>,
    goal: Vec<(usize, bool)>,
}

fn literals(atoms: usize, max: usize) -> impl Strategy<Value = Vec<(usize, bool)>> {
    prop::collection::vec((0..atoms, any::<bool>()), 0..=max)
}

fn spec() -> impl Strategy<Value = Spec> {
    spec_of(10, 60)
}

/// A random problem whose actions touch `core` atoms at most, with at
/// most `most_actions` actions.
fn spec_of(core: usize, most_actions: usize) -> impl Strategy<Value = Spec> {
    (1_usize..=64).prop_flat_map(move |atoms| {
        // Actions mostly touch a small active core so searches stay small;
        // the rest of the 64 atoms are still named and carried.
        let core = atoms.min(core);
        (
            prop::collection::vec(
                (literals(core, 3), literals(core, 3), 0_u32..=10),
                0..=most_actions,
            ),
            prop::collection::vec(any::<bool>(), atoms),
            prop::collection::vec((0..core, any::<bool>()), 1..=3),
        )
            .prop_map(move |(actions, start, goal)| {
                // Most goal atoms start wrong, so most problems need a plan.
                let goal = goal
                    .into_iter()
                    .enumerate()
                    .map(|(k, (a, v))| (a, if k == 0 { !start[a] } else { v }))
                    .collect();
                Spec {
                    atoms,
                    actions,
                    start,
                    goal,
                }
            })
    })
}

struct Built<B: Bits> {
    actions: ActionSet<B>,
    start: WorldState<B>,
    goal: PartialState<B>,
}

fn build<B: Bits>(spec: &Spec) -> Built<B> {
    let mut actions = ActionSet::<B>::new();
    for i in 0..spec.atoms {
        actions.declare(&format!("a{i}")).unwrap();
    }
    for (k, (pre, eff, cost)) in spec.actions.iter().enumerate() {
        let mut b = actions.add_action(&format!("act{k}"), *cost);
        // Later literals on the same atom override earlier ones.
        let mut seen_pre = std::collections::BTreeMap::new();
        seen_pre.extend(pre.iter().copied());
        let mut seen_eff = std::collections::BTreeMap::new();
        seen_eff.extend(eff.iter().copied());
        for (atom, value) in seen_pre {
            b.pre(&format!("a{atom}"), value);
        }
        for (atom, value) in seen_eff {
            b.eff(&format!("a{atom}"), value);
        }
    }
    actions.check().unwrap();
    let start_names: Vec<String> = (0..spec.atoms)
        .filter(|&i| spec.start[i])
        .map(|i| format!("a{i}"))
        .collect();
    let start = actions
        .state(start_names.iter().map(String::as_str))
        .unwrap();
    let goal_map: std::collections::BTreeMap<_, _> = spec.goal.iter().copied().collect();
    let goal_names: Vec<(String, bool)> = goal_map
        .into_iter()
        .map(|(a, v)| (format!("a{a}"), v))
        .collect();
    let goal = actions
        .partial(goal_names.iter().map(|(n, v)| (n.as_str(), *v)))
        .unwrap();
    Built {
        actions,
        start,
        goal,
    }
}

fn limits() -> SearchLimits<u32> {
    SearchLimits {
        max_expansions: Some(20_000),
        ..SearchLimits::default()
    }
}

/// The optimal cost (`None`: unsolvable), or `Err` if a limit stopped it.
type Answer = Result<Option<u32>, ()>;

/// Every answer the problem gets: forward and regression, A* and Dijkstra.
fn answers<B: Bits>(spec: &Spec) -> Vec<(&'static str, Answer)> {
    let Built {
        actions,
        start,
        goal,
    } = build::<B>(spec);
    let mut out = Vec::new();
    let every_action = ForwardSpace::new(&actions, goal.clone()).unwrap();
    let stubborn = ForwardSpace::new(&actions, goal.clone())
        .unwrap()
        .stubborn_sets();
    let mut forward = |name: &'static str, algorithm, h: Box<dyn Heuristic<WorldState<B>, u32>>| {
        // Stubborn sets keep the optimal cost: `-sss` answers as the rest.
        let fw = if name.ends_with("-sss") {
            &stubborn
        } else {
            &every_action
        };
        let result = Search::new(fw, start.clone())
            .algorithm(algorithm)
            .heuristic(h)
            .limits(limits())
            .run()
            .unwrap();
        let answer = match result.outcome {
            Outcome::Solved(s) => {
                let replay = actions.validate(start.clone(), &goal, &s.actions);
                assert_eq!(replay, Ok(u64::from(s.cost)), "{name}");
                Ok(Some(s.cost))
            }
            Outcome::Exhausted => Ok(None),
            _ => Err(()),
        };
        out.push((name, answer));
    };
    forward("fw-dijkstra", Algorithm::Dijkstra, Box::new(Blind));
    forward(
        "fw-astar-hmax",
        Algorithm::AStar,
        Box::new(RelaxedForward::h_max(&actions, goal.clone())),
    );
    forward(
        "fw-astar-mismatch",
        Algorithm::AStar,
        Box::new(AdmissibleMismatch::forward(&actions, goal.clone())),
    );
    forward("fw-dijkstra-sss", Algorithm::Dijkstra, Box::new(Blind));
    forward(
        "fw-astar-hmax-sss",
        Algorithm::AStar,
        Box::new(RelaxedForward::h_max(&actions, goal.clone())),
    );
    for (name, subsumption) in [
        ("rg-parent", Subsumption::Parent),
        ("rg-closed", Subsumption::Closed),
    ] {
        for (algorithm, h) in [
            (
                Algorithm::Dijkstra,
                Box::new(Blind) as Box<dyn Heuristic<PartialState<B>, u32>>,
            ),
            (
                Algorithm::AStar,
                Box::new(RelaxedRegression::h_max(&actions, start.clone())),
            ),
        ] {
            let rg = RegressionSpace::new(&actions, start.clone(), goal.clone())
                .unwrap()
                .subsumption(subsumption);
            let result = Search::new(&rg, goal.clone())
                .algorithm(algorithm)
                .heuristic(h)
                .limits(limits())
                .run()
                .unwrap();
            let answer = match result.outcome {
                Outcome::Solved(s) => {
                    let plan = RegressionSpace::<B>::execution_order(&s.actions);
                    let replay = actions.validate(start.clone(), &goal, &plan);
                    assert_eq!(replay, Ok(u64::from(s.cost)), "{name}");
                    Ok(Some(s.cost))
                }
                Outcome::Exhausted => Ok(None),
                _ => Err(()),
            };
            out.push((name, answer));
        }
    }
    // h_max never exceeds the optimal cost, in either direction.
    let optimal = out[0].1;
    if let Ok(Some(cost)) = optimal {
        match RelaxedForward::h_max(&actions, goal.clone()).estimate(&start) {
            Estimate::Value(h) => assert!(h <= cost, "forward h_max {h} > {cost}"),
            Estimate::DeadEnd => panic!("forward h_max calls a solvable start a dead end"),
        }
        match RelaxedRegression::h_max(&actions, start.clone()).estimate(&goal) {
            Estimate::Value(h) => assert!(h <= cost, "regression h_max {h} > {cost}"),
            Estimate::DeadEnd => panic!("regression h_max calls a solvable goal a dead end"),
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn directions_and_algorithms_agree_and_plans_replay(spec in spec()) {
        let narrow = answers::<u64>(&spec);
        let finished: Vec<_> = narrow.iter().filter_map(|(n, a)| a.ok().map(|a| (n, a))).collect();
        if let Some((_, first)) = finished.first() {
            for (name, answer) in &finished {
                prop_assert_eq!(answer, first, "{} disagrees: {:?}", name, narrow);
            }
        }
        // The wide states give the same answers.
        let wide = answers::<Wide<2>>(&spec);
        prop_assert_eq!(&narrow, &wide);
        let sparse = answers::<SparseBits>(&spec);
        prop_assert_eq!(narrow, sparse);
    }
}

/// The cheapest plan's cost by Dijkstra's algorithm, on `space`.
fn dijkstra_cost<B: Bits>(space: &ForwardSpace<'_, B>, start: &WorldState<B>) -> Answer {
    let result = Search::new(space, start.clone())
        .algorithm(Algorithm::Dijkstra)
        .limits(limits())
        .run()
        .unwrap();
    match result.outcome {
        Outcome::Solved(s) => Ok(Some(s.cost)),
        Outcome::Exhausted => Ok(None),
        _ => Err(()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1_000, ..ProptestConfig::default() })]

    /// Few actions on few atoms, where stubborn sets prune most: the
    /// pruned search finds the same cheapest cost, or the same lack of a
    /// plan.
    #[test]
    fn stubborn_sets_keep_the_cheapest_cost(spec in spec_of(6, 10)) {
        let Built { actions, start, goal } = build::<u64>(&spec);
        let every_action = ForwardSpace::new(&actions, goal).unwrap();
        let stubborn = ForwardSpace::new(&actions, goal).unwrap().stubborn_sets();
        prop_assert_eq!(dijkstra_cost(&stubborn, &start), dijkstra_cost(&every_action, &start));
    }
}

/// `h_max` (`sum` false) or `h_add` (`sum` true) of `goal` from `state` by
/// the textbook fixpoint: every action updates its effects from its
/// preconditions' costs until nothing changes. Slow and plainly right, the
/// reference the fast explorations must equal.
fn reference<B: Bits>(
    actions: &ActionSet<B>,
    state: &WorldState<B>,
    goal: &PartialState<B>,
    sum: bool,
) -> Estimate<u32> {
    let atoms = actions.registry().len();
    let lits = |p: &PartialState<B>| {
        let mut out = Vec::new();
        p.as_care().for_each_one(|i| {
            if i < atoms {
                out.push(2 * i + usize::from(p.as_values().get(i)));
            }
        });
        out
    };
    let combine = |costs: &[u64], ls: &[usize]| {
        ls.iter().try_fold(0_u64, |acc, &l| {
            let c = costs[l];
            (c != u64::MAX).then(|| if sum { acc + c } else { acc.max(c) })
        })
    };
    let mut cost = vec![u64::MAX; 2 * atoms];
    for (i, c) in cost.chunks_mut(2).enumerate() {
        c[usize::from(state.as_bits().get(i))] = 0;
    }
    let rules: Vec<_> = actions
        .iter()
        .map(|a| (lits(&a.pre), lits(&a.eff), u64::from(a.cost)))
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for (pre, eff, c) in &rules {
            if let Some(p) = combine(&cost, pre) {
                for &e in eff {
                    if p + c < cost[e] {
                        cost[e] = p + c;
                        changed = true;
                    }
                }
            }
        }
    }
    combine(&cost, &lits(goal)).map_or(Estimate::DeadEnd, |v| {
        Estimate::Value(u32::try_from(v).unwrap())
    })
}

/// The relaxed heuristics of both directions against [`reference`] from
/// `state`, and `h_FF` against `h_max`.
fn relaxed_agree<B: Bits>(spec: &Spec, state: &[bool]) {
    let Built { actions, goal, .. } = build::<B>(spec);
    let names: Vec<String> = (0..spec.atoms)
        .filter(|&i| state[i])
        .map(|i| format!("a{i}"))
        .collect();
    let state = actions.state(names.iter().map(String::as_str)).unwrap();
    let h_max = reference(&actions, &state, &goal, false);
    let h_add = reference(&actions, &state, &goal, true);
    assert_eq!(
        RelaxedForward::h_max(&actions, goal.clone()).estimate(&state),
        h_max,
        "forward h_max"
    );
    assert_eq!(
        RelaxedForward::h_add(&actions, goal.clone()).estimate(&state),
        h_add,
        "forward h_add"
    );
    assert_eq!(
        RelaxedRegression::h_max(&actions, state.clone()).estimate(&goal),
        h_max,
        "regression h_max"
    );
    assert_eq!(
        RelaxedRegression::h_add(&actions, state.clone()).estimate(&goal),
        h_add,
        "regression h_add"
    );
    let ff = RelaxedForward::h_ff(&actions, goal.clone()).estimate(&state);
    // Front to front: explored toward the goal when the state is new, to
    // the end when asked again, then read off that exploration.
    for (kind, expected) in [
        (RelaxedKind::Max, h_max),
        (RelaxedKind::Add, h_add),
        (RelaxedKind::Ff, ff),
    ] {
        let mut between = RelaxedBetween::new(&actions, &goal, kind);
        for ask in ["first", "again", "read off"] {
            assert_eq!(
                between.estimate(&state, &goal),
                expected,
                "{kind:?} between, {ask}"
            );
        }
    }
    assert_eq!(
        ff,
        RelaxedRegression::h_ff(&actions, state).estimate(&goal),
        "h_FF directions"
    );
    match (ff, h_max) {
        (Estimate::Value(ff), Estimate::Value(h)) => assert!(ff >= h, "h_FF {ff} < h_max {h}"),
        (Estimate::DeadEnd, Estimate::DeadEnd) => {}
        (ff, h) => panic!("h_FF {ff:?} and h_max {h:?} disagree on a dead end"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// The explorations (breadth-first for `h_max` with one cost for every
    /// action, the PDDL case, Dijkstra otherwise) give the fixpoint's values.
    #[test]
    fn relaxed_heuristics_equal_the_fixpoint(
        spec in spec(),
        uniform in prop::option::of(0_u32..=3),
        strips in any::<bool>(),
        other in prop::collection::vec(any::<bool>(), 64),
    ) {
        let mut spec = spec;
        if let Some(c) = uniform {
            for action in &mut spec.actions {
                action.2 = c;
            }
        }
        if strips {
            // Only true atoms asked for, as in PDDL STRIPS tasks: the
            // positive-only paths.
            for (pre, _, _) in &mut spec.actions {
                for literal in pre {
                    literal.1 = true;
                }
            }
            for literal in &mut spec.goal {
                literal.1 = true;
            }
        }
        for state in [spec.start.clone(), other[..spec.atoms].to_vec()] {
            relaxed_agree::<u64>(&spec, &state);
            relaxed_agree::<Wide<2>>(&spec, &state);
            relaxed_agree::<SparseBits>(&spec, &state);
        }
    }
}
