//! state-atomic: the reference scenarios in both directions with every
//! algorithm, and the edge cases of the representation.

use search_core::{Algorithm, Blind, Heuristic, Outcome, Search, SearchResult};
use state_atomic::problems::{self, Problem};
use state_atomic::{
    ActionId, ActionSet, AdmissibleMismatch, Applicability, AtomRegistry, AtomicError, Bits,
    ForwardSpace, Mismatch, PartialState, RegressionSpace, RelaxedForward, RelaxedKind,
    RelaxedRegression, SparseBits, Subsumption, Wide, WorldState,
};

/// One reference case: the problem, the optimal cost and BFS's plan length.
struct Case<B: Bits> {
    problem: Problem<B>,
    cost: u32,
    fewest: usize,
}

fn cases<B: Bits>() -> Vec<Case<B>> {
    let mut cases = vec![Case {
        problem: problems::hungry_agent().unwrap(),
        cost: 30,
        fewest: 2, // go_to_restaurant, eat
    }];
    for (start, cost, fewest) in [
        (&["safe", "ammo_full"][..], 5, 2),
        (&["safe", "ammo_full", "player_weak"][..], 4, 1),
        (&["ammo_full"][..], 2, 2),
        (&["safe", "ammo_full", "aim_ready"][..], 2, 1),
    ] {
        cases.push(Case {
            problem: problems::enemy_ship(start).unwrap(),
            cost,
            fewest,
        });
    }
    cases.push(Case {
        problem: problems::consumed_fact().unwrap(),
        cost: 7,
        fewest: 5,
    });
    cases
}

/// A forward run: the plan, its cost (`u32::MAX` if none) and the result.
type ForwardRun<B> = (
    Option<Vec<ActionId>>,
    u32,
    SearchResult<WorldState<B>, ActionId, u32>,
);

fn forward<B: Bits, H: Heuristic<WorldState<B>, u32>>(
    p: &Problem<B>,
    algorithm: Algorithm,
    h: H,
) -> ForwardRun<B> {
    let space = ForwardSpace::new(&p.actions, p.goal.clone()).unwrap();
    let result = Search::new(&space, p.start.clone())
        .algorithm(algorithm)
        .heuristic(h)
        .run()
        .unwrap();
    let plan = result.outcome.solution().map(|s| s.actions.clone());
    let cost = result.outcome.solution().map_or(u32::MAX, |s| s.cost);
    (plan, cost, result)
}

fn regression<B: Bits, H: Heuristic<PartialState<B>, u32>>(
    p: &Problem<B>,
    algorithm: Algorithm,
    h: H,
    subsumption: Subsumption,
) -> (Option<Vec<ActionId>>, u32, u64) {
    let space = RegressionSpace::new(&p.actions, p.start.clone(), p.goal.clone())
        .unwrap()
        .subsumption(subsumption);
    let result = Search::new(&space, p.goal.clone())
        .algorithm(algorithm)
        .heuristic(h)
        .run()
        .unwrap();
    let plan = result
        .outcome
        .solution()
        .map(|s| RegressionSpace::<B>::execution_order(&s.actions));
    let cost = result.outcome.solution().map_or(u32::MAX, |s| s.cost);
    (plan, cost, space.pruned())
}

/// Replays `plan` and checks it reaches the goal at `cost`.
fn check_plan<B: Bits>(p: &Problem<B>, plan: &[ActionId], cost: u32) {
    let replayed = p.actions.validate(p.start.clone(), &p.goal.clone(), plan);
    assert_eq!(
        replayed,
        Ok(u64::from(cost)),
        "{}: plan {:?}",
        p.name,
        p.actions.names(plan)
    );
}

fn reference_scenarios<B: Bits>() {
    for case in cases::<B>() {
        let p = &case.problem;
        let optimal = [
            forward(
                p,
                Algorithm::AStar,
                RelaxedForward::h_max(&p.actions, p.goal.clone()),
            ),
            forward(
                p,
                Algorithm::AStar,
                AdmissibleMismatch::forward(&p.actions, p.goal.clone()),
            ),
            forward(p, Algorithm::Dijkstra, Blind),
        ];
        for (plan, cost, _) in optimal {
            assert_eq!(cost, case.cost, "{} forward", p.name);
            check_plan(p, &plan.unwrap(), cost);
        }
        let (plan, cost, _) = forward(p, Algorithm::BreadthFirst, Blind);
        let plan = plan.unwrap();
        assert_eq!(plan.len(), case.fewest, "{} forward bfs", p.name);
        check_plan(p, &plan, cost);

        for subsumption in [Subsumption::Parent, Subsumption::Closed] {
            let optimal = [
                regression(
                    p,
                    Algorithm::AStar,
                    RelaxedRegression::h_max(&p.actions, p.start.clone()),
                    subsumption,
                ),
                regression(
                    p,
                    Algorithm::AStar,
                    AdmissibleMismatch::regression(&p.actions, &p.start),
                    subsumption,
                ),
                regression(p, Algorithm::Dijkstra, Blind, subsumption),
            ];
            for (plan, cost, _) in optimal {
                assert_eq!(cost, case.cost, "{} regression", p.name);
                check_plan(p, &plan.unwrap(), cost);
            }
        }
        let (plan, cost, _) = regression(p, Algorithm::BreadthFirst, Blind, Subsumption::Parent);
        let plan = plan.unwrap();
        assert_eq!(plan.len(), case.fewest, "{} regression bfs", p.name);
        check_plan(p, &plan, cost);

        // The inadmissible heuristics still give valid plans.
        for kind in [RelaxedKind::Add, RelaxedKind::Ff] {
            for algorithm in [Algorithm::AStar, Algorithm::GreedyBestFirst] {
                let (plan, cost, _) = forward(
                    p,
                    algorithm,
                    RelaxedForward::new(&p.actions, p.goal.clone(), kind),
                );
                check_plan(p, &plan.unwrap(), cost);
                let h = RelaxedRegression::new(&p.actions, p.start.clone(), kind);
                let (plan, cost, _) = regression(p, algorithm, h, Subsumption::Parent);
                check_plan(p, &plan.unwrap(), cost);
            }
        }
        let weighted = Algorithm::WeightedAStar { weight: 2.0 };
        let (plan, cost, _) = forward(p, weighted, Mismatch::forward(p.goal.clone()));
        check_plan(p, &plan.unwrap(), cost);
        let (plan, cost, _) = regression(
            p,
            weighted,
            Mismatch::regression(&p.start),
            Subsumption::Parent,
        );
        check_plan(p, &plan.unwrap(), cost);
    }
}

#[test]
fn reference_scenarios_u64() {
    reference_scenarios::<u64>();
}

#[test]
fn reference_scenarios_wide() {
    reference_scenarios::<Wide<2>>();
}

#[test]
fn reference_scenarios_sparse() {
    reference_scenarios::<SparseBits>();
}

#[test]
fn hungry_agent_plan_is_the_design_plan() {
    let p = problems::hungry_agent::<u64>().unwrap();
    let (plan, _, _) = forward(
        &p,
        Algorithm::AStar,
        RelaxedForward::h_max(&p.actions, p.goal),
    );
    assert_eq!(
        p.actions.names(&plan.unwrap()),
        ["buy_groceries", "cook", "eat"]
    );
    let h = RelaxedRegression::h_max(&p.actions, p.start);
    let (plan, _, _) = regression(&p, Algorithm::AStar, h, Subsumption::Parent);
    assert_eq!(
        p.actions.names(&plan.unwrap()),
        ["buy_groceries", "cook", "eat"]
    );
}

#[test]
fn consumed_fact_mines_twice() {
    let p = problems::consumed_fact::<u64>().unwrap();
    let (plan, cost, _) = forward(&p, Algorithm::Dijkstra, Blind);
    let names = p.actions.names(plan.as_ref().unwrap());
    assert_eq!(cost, 7);
    assert_eq!(names.iter().filter(|&&n| n == "mine_ore").count(), 2);
}

#[test]
fn shared_and_private_atoms_merge() {
    let mut atoms = AtomRegistry::<u64>::new();
    atoms.add_shared("night").unwrap();
    atoms.add_shared("raining").unwrap();
    atoms.add("hungry").unwrap();
    atoms.add("tired").unwrap();
    let world = atoms.state(["night", "hungry"]).unwrap();
    let own = atoms.state(["raining", "tired"]).unwrap();
    // World decides night and raining; the agent decides hungry and tired.
    assert_eq!(
        atoms.view(world, own),
        atoms.state(["night", "tired"]).unwrap()
    );
    let view = atoms.view(world, own);
    assert_eq!(atoms.named(&view).to_string(), "{night, tired}");
    assert_eq!(
        format!("{:?}", atoms.named(&view)),
        "{night: true, raining: false, hungry: false, tired: true}"
    );
}

#[test]
fn the_sixty_fifth_atom_is_an_error_naming_it() {
    let mut atoms = AtomRegistry::<u64>::new();
    for i in 0..64 {
        atoms.add(&format!("a{i}")).unwrap();
    }
    let err = atoms.add("one_too_many").unwrap_err();
    assert_eq!(
        err,
        AtomicError::TooManyAtoms {
            name: "one_too_many".into(),
            capacity: 64
        }
    );
    assert!(err.to_string().contains("one_too_many"));

    // Through the action builder the error is kept, and reported by the spaces.
    let mut actions = ActionSet::<u64>::new();
    for i in 0..64 {
        actions.declare(&format!("a{i}")).unwrap();
    }
    actions.add_action("grow", 1).eff("a64", true);
    let goal = actions.partial([("a0", true)]).unwrap();
    assert!(matches!(
        ForwardSpace::new(&actions, goal),
        Err(AtomicError::TooManyAtoms { name, .. }) if name == "a64"
    ));
    let mut eager = actions.add_action("grow_now", 1);
    assert!(eager.try_eff("a65", true).is_err());

    // A wide state takes it.
    let mut wide = AtomRegistry::<Wide<2>>::new();
    for i in 0..128 {
        wide.add(&format!("a{i}")).unwrap();
    }
    assert!(wide.add("a128").is_err());
}

#[test]
fn wide_states_plan_beyond_sixty_four_atoms() {
    let mut actions = ActionSet::<Wide<2>>::new();
    for i in 0..100 {
        let mut step = actions.add_action(&format!("s{i}"), 1);
        if i > 0 {
            step.pre(&format!("a{}", i - 1), true);
        }
        step.eff(&format!("a{i}"), true);
    }
    let start = actions.state([]).unwrap();
    let goal = actions.partial([("a99", true)]).unwrap();
    let space = ForwardSpace::new(&actions, goal).unwrap();
    let result = Search::new(&space, start)
        .heuristic(RelaxedForward::h_max(&actions, goal))
        .run()
        .unwrap();
    assert_eq!(result.outcome.solution().unwrap().cost, 100);
    let space = RegressionSpace::new(&actions, start, goal).unwrap();
    let result = Search::new(&space, goal)
        .heuristic(RelaxedRegression::h_max(&actions, start))
        .run()
        .unwrap();
    let plan =
        RegressionSpace::<Wide<2>>::execution_order(&result.outcome.solution().unwrap().actions);
    assert_eq!(actions.validate(start, &goal, &plan), Ok(100));
}

#[test]
fn unknown_names_are_typed_errors() {
    let p = problems::hungry_agent::<u64>().unwrap();
    let unknown = AtomicError::UnknownAtom {
        name: "thirsty".into(),
    };
    assert_eq!(p.actions.registry().atom("thirsty"), Err(unknown.clone()));
    assert_eq!(p.actions.state(["thirsty"]), Err(unknown.clone()));
    assert_eq!(p.actions.partial([("thirsty", true)]), Err(unknown));
    assert_eq!(p.actions.find("drink"), None);
    assert_eq!(
        problems::enemy_ship::<u64>(&["cloaked"]).unwrap_err(),
        AtomicError::UnknownAtom {
            name: "cloaked".into()
        }
    );
}

#[test]
fn empty_preconditions_and_effects() {
    let mut actions = ActionSet::<u64>::new();
    actions.add_action("wait", 1); // no preconditions, no effects: never useful
    actions.add_action("wake", 2).eff("awake", true); // no preconditions
    actions.add_action("stretch", 1).pre("awake", true); // no effects
    actions
        .add_action("work", 3)
        .pre("awake", true)
        .eff("done", true);
    let start = actions.state([]).unwrap();
    let goal = actions.partial([("done", true)]).unwrap();
    let p = Problem {
        name: "empty-parts".into(),
        actions,
        start,
        goal,
    };
    let (plan, cost, _) = forward(&p, Algorithm::Dijkstra, Blind);
    assert_eq!(
        (cost, p.actions.names(&plan.unwrap())),
        (5, vec!["wake", "work"])
    );
    let (plan, cost, _) = regression(&p, Algorithm::Dijkstra, Blind, Subsumption::Parent);
    assert_eq!(
        (cost, p.actions.names(&plan.unwrap())),
        (5, vec!["wake", "work"])
    );
    let (_, cost, _) = forward(
        &p,
        Algorithm::AStar,
        RelaxedForward::h_ff(&p.actions, p.goal),
    );
    assert_eq!(cost, 5);
}

#[test]
fn a_goal_satisfied_at_the_start_gives_the_empty_plan() {
    let mut p = problems::hungry_agent::<u64>().unwrap();
    p.goal = p.actions.partial([("has_restaurant", true)]).unwrap();
    for algorithm in [
        Algorithm::AStar,
        Algorithm::Dijkstra,
        Algorithm::BreadthFirst,
    ] {
        let (plan, cost, _) = forward(&p, algorithm, Mismatch::forward(p.goal));
        assert_eq!((plan.unwrap().len(), cost), (0, 0));
        let (plan, cost, _) = regression(
            &p,
            algorithm,
            Mismatch::regression(&p.start),
            Subsumption::Parent,
        );
        assert_eq!((plan.unwrap().len(), cost), (0, 0));
    }
    // The empty goal too.
    p.goal = PartialState::empty();
    let (plan, cost, _) = forward(&p, Algorithm::AStar, Blind);
    assert_eq!((plan.unwrap().len(), cost), (0, 0));
}

#[test]
fn an_unsolvable_goal_is_exhausted_without_panic() {
    let mut p = problems::hungry_agent::<u64>().unwrap();
    // Nothing makes bread appear in the fridge.
    p.goal = p
        .actions
        .partial([("fed", true), ("fridge_has_bread", true)])
        .unwrap();
    for algorithm in [
        Algorithm::AStar,
        Algorithm::Dijkstra,
        Algorithm::BreadthFirst,
    ] {
        let (_, _, result) = forward(&p, algorithm, Blind);
        assert_eq!(result.outcome, Outcome::Exhausted);
        let space = RegressionSpace::new(&p.actions, p.start, p.goal).unwrap();
        let result = Search::new(&space, p.goal)
            .algorithm(algorithm)
            .run()
            .unwrap();
        assert_eq!(result.outcome, Outcome::Exhausted);
    }
    // The relaxed heuristics see the dead end at once.
    let (_, _, result) = forward(
        &p,
        Algorithm::AStar,
        RelaxedForward::h_max(&p.actions, p.goal),
    );
    assert_eq!(
        (result.outcome, result.stats.expanded),
        (Outcome::Exhausted, 0)
    );
    // Nothing can make `fed` false again once true either.
    p.start = p.actions.state(["fed"]).unwrap();
    p.goal = p.actions.partial([("fed", false)]).unwrap();
    let (_, _, result) = forward(
        &p,
        Algorithm::AStar,
        AdmissibleMismatch::forward(&p.actions, p.goal),
    );
    assert_eq!(result.outcome, Outcome::Exhausted);
}

#[test]
fn mismatch_is_declared_inadmissible_and_can_overestimate() {
    let mut actions = ActionSet::<u64>::new();
    actions
        .add_action("all_at_once", 1)
        .eff("a", true)
        .eff("b", true)
        .eff("c", true);
    let start = actions.state([]).unwrap();
    let goal = actions
        .partial([("a", true), ("b", true), ("c", true)])
        .unwrap();
    let mut classic = Mismatch::forward(goal);
    let mut safe = AdmissibleMismatch::forward(&actions, goal);
    assert_eq!(classic.estimate(&start), 3.into()); // the true cost is 1
    assert_eq!(safe.estimate(&start), 1.into());
    assert!(!Heuristic::<WorldState, u32>::is_admissible(&classic));
    assert!(Heuristic::<WorldState, u32>::is_admissible(&safe));
}

#[test]
fn closures_are_heuristics() {
    let p = problems::hungry_agent::<u64>().unwrap();
    let fed = p.actions.registry().atom("fed").unwrap();
    let (_, cost, _) = forward(
        &p,
        Algorithm::AStar,
        |s: &WorldState| {
            if s.get(fed) {
                0
            } else {
                5
            }
        },
    );
    assert_eq!(cost, 30);
    let (_, cost, _) = regression(
        &p,
        Algorithm::AStar,
        |g: &PartialState| u32::try_from(g.len()).unwrap(),
        Subsumption::Parent,
    );
    assert_eq!(cost, 30);
}

#[test]
fn grouped_applicability_matches_the_scan() {
    for seed in 1..=3 {
        for p in [
            problems::chains::<u64>(20, seed).unwrap(),
            problems::shortcuts(20, seed).unwrap(),
            problems::toggles(20, seed).unwrap(),
        ] {
            let scan = ForwardSpace::new(&p.actions, p.goal).unwrap();
            let grouped = scan.clone().applicability(Applicability::Grouped);
            let mut state = p.start;
            for _ in 0..20 {
                let mut a = scan.applicable(&state);
                let mut b = grouped.applicable(&state);
                a.sort();
                b.sort();
                assert_eq!(a, b);
                let Some(&next) = a.get(state.bits().count_ones() as usize % a.len().max(1)) else {
                    break;
                };
                state = state.apply(&p.actions.action(next).unwrap().eff);
            }
        }
    }
}

#[test]
fn synthetic_families_have_the_advertised_shape() {
    for seed in 1..=5 {
        for (p, steps) in [
            (problems::chains::<u64>(40, seed).unwrap(), 15..=17),
            (problems::shortcuts(40, seed).unwrap(), 15..=15),
            (problems::toggles(40, seed).unwrap(), 12..=14),
        ] {
            assert_eq!((p.actions.registry().len(), p.actions.len()), (40, 60));
            let h = RelaxedForward::h_max(&p.actions, p.goal);
            let (plan, cost, _) = forward(&p, Algorithm::AStar, h);
            let plan = plan.unwrap();
            check_plan(&p, &plan, cost);
            assert!(
                steps.contains(&plan.len()),
                "{} seed {seed}: {} steps",
                p.name,
                plan.len()
            );
            // Regression agrees, and subsumption pruning keeps the cost.
            let mut pruned = [0; 2];
            for (k, subsumption) in [Subsumption::Parent, Subsumption::Closed]
                .into_iter()
                .enumerate()
            {
                let h = RelaxedRegression::h_max(&p.actions, p.start);
                let (plan, rcost, count) = regression(&p, Algorithm::AStar, h, subsumption);
                assert_eq!(rcost, cost, "{} seed {seed}", p.name);
                check_plan(&p, &plan.unwrap(), rcost);
                pruned[k] = count;
            }
            // Closed pruning prunes at least what parent pruning does, and
            // something on every instance of these families.
            assert!(
                pruned[1] >= pruned[0] && pruned[1] > 0,
                "{} seed {seed}",
                p.name
            );
        }
    }
}
