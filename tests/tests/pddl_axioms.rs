//! Derived predicates (`:derived`): a blocks world whose `clear`, `covered`
//! and recursive `above` are axioms, planned forward by every kind of
//! search with the costs of the same world written without axioms; every
//! registered heuristic's dead ends real and admissible ones admissible on
//! its whole state space; non-stratifiable axioms, effects on derived
//! predicates and regression refused by name.

use std::collections::{HashMap, VecDeque};

use planners::heuristics::Registry;
use planners::pddl::{
    ground, parse_domain, parse_problem, solve_text, validate_text, GroundingLimits, PddlError,
    PddlOptions, SolveError, Task,
};
use planners::{Direction, PlanError, PlanOutcome, PlannerConfig, PlanningDomain};
use search_core::{Algorithm, Estimate, Heuristic, SearchSpace};
use state_atomic::WorldState;
use tests::heuristic;

/// `clear` holds of a block nothing covers and the hand does not hold;
/// `unstack` wants the block not `covered` (a negated derived predicate
/// in a precondition); `above` is recursive.
const DERIVED: &str = "(define (domain blocks) (:requirements :adl :derived-predicates)
  (:predicates (on ?x ?y) (ontable ?x) (holding ?x) (handempty)
               (covered ?x) (clear ?x) (above ?x ?y))
  (:derived (covered ?x) (exists (?y) (on ?y ?x)))
  (:derived (clear ?x) (and (not (covered ?x)) (not (holding ?x))))
  (:derived (above ?x ?y) (or (on ?x ?y) (exists (?z) (and (on ?x ?z) (above ?z ?y)))))
  (:action pickup :parameters (?x) :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (holding ?x) (not (ontable ?x)) (not (handempty))))
  (:action putdown :parameters (?x) :precondition (holding ?x)
    :effect (and (ontable ?x) (handempty) (not (holding ?x))))
  (:action stack :parameters (?x ?y) :precondition (and (holding ?x) (clear ?y))
    :effect (and (on ?x ?y) (handempty) (not (holding ?x))))
  (:action unstack :parameters (?x ?y)
    :precondition (and (on ?x ?y) (not (covered ?x)) (handempty))
    :effect (and (holding ?x) (not (on ?x ?y)) (not (handempty)))))";

/// The same world without axioms: `clear` kept by the actions.
const PLAIN: &str = "(define (domain blocks) (:requirements :adl)
  (:predicates (on ?x ?y) (ontable ?x) (holding ?x) (handempty) (clear ?x))
  (:action pickup :parameters (?x) :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (holding ?x) (not (ontable ?x)) (not (handempty)) (not (clear ?x))))
  (:action putdown :parameters (?x) :precondition (holding ?x)
    :effect (and (ontable ?x) (handempty) (clear ?x) (not (holding ?x))))
  (:action stack :parameters (?x ?y) :precondition (and (holding ?x) (clear ?y))
    :effect (and (on ?x ?y) (handempty) (clear ?x) (not (holding ?x)) (not (clear ?y))))
  (:action unstack :parameters (?x ?y) :precondition (and (on ?x ?y) (clear ?x) (handempty))
    :effect (and (holding ?x) (clear ?y) (not (on ?x ?y)) (not (handempty)) (not (clear ?x)))))";

const BLOCKS: [&str; 4] = ["a", "b", "c", "d"];

/// `(above x y)` without axioms: a chain of `on` of any length.
fn above(x: &str, y: &str) -> String {
    let mut chains = vec![format!("(on {x} {y})")];
    for length in 1..BLOCKS.len() - 1 {
        let vars: Vec<String> = (0..length).map(|i| format!("?z{i}")).collect();
        let mut steps = vec![format!("(on {x} {})", vars[0])];
        steps.extend(vars.windows(2).map(|w| format!("(on {} {})", w[0], w[1])));
        steps.push(format!("(on {} {y})", vars[length - 1]));
        chains.push(format!(
            "(exists ({}) (and {}))",
            vars.join(" "),
            steps.join(" ")
        ));
    }
    format!("(or {})", chains.join(" "))
}

/// A problem over [`BLOCKS`] from a tower a on b on c, d on the table.
fn problem(goal: &str) -> String {
    format!(
        "(define (problem p) (:domain blocks) (:objects a b c d)
  (:init (on a b) (on b c) (ontable c) (ontable d) (clear a) (clear d) (handempty))
  (:goal {goal}))"
    )
}

/// Goals written with axioms, and the same goals without.
fn goals() -> [(String, String); 3] {
    [
        (
            "(and (above c a) (above d b))".to_owned(),
            format!("(and {} {})", above("c", "a"), above("d", "b")),
        ),
        (
            "(not (above a c))".to_owned(),
            format!("(not {})", above("a", "c")),
        ),
        (
            "(and (clear c) (not (clear d)) (not (covered b)))".to_owned(),
            "(and (clear c) (not (clear d)) (not (exists (?y) (on ?y b))))".to_owned(),
        ),
    ]
}

/// `clear` is derived and would be false anyway: the derived problems
/// leave it out of `:init`.
fn derived_problem(goal: &str) -> String {
    problem(goal).replace(" (clear a) (clear d)", "")
}

fn config(algorithm: Algorithm, name: &str) -> PlannerConfig {
    tests::planner_config(Direction::Forward, algorithm, heuristic(name))
}

fn solve(domain: &str, problem: &str, config: &PlannerConfig) -> (u64, String) {
    let solution = solve_text(domain, problem, config, &PddlOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", config.name()));
    let PlanOutcome::Solved(plan) = &solution.report.outcome else {
        panic!("{}: {:?}", config.name(), solution.report.outcome);
    };
    let text = solution.plan_text().unwrap_or_default();
    let replayed = validate_text(("d", domain), ("p", problem), ("plan", &text))
        .unwrap_or_else(|e| panic!("{}: {e}\n{text}", config.name()));
    assert_eq!(replayed, plan.cost, "{}: {text}", config.name());
    (plan.cost, text)
}

#[test]
fn every_search_plans_with_axioms_at_the_cost_without_them() {
    for (derived_goal, plain_goal) in goals() {
        let (optimum, _) = solve(
            PLAIN,
            &problem(&plain_goal),
            &config(Algorithm::AStar, "blind"),
        );
        let derived = derived_problem(&derived_goal);
        for name in ["hmax", "lmcut", "blind"] {
            let (cost, text) = solve(DERIVED, &derived, &config(Algorithm::AStar, name));
            assert_eq!(cost, optimum, "astar {name} on {derived_goal}:\n{text}");
        }
        for (algorithm, name) in [
            (Algorithm::GreedyBestFirst, "ff"),
            (Algorithm::LazyGreedy, "ff+lmcount"),
        ] {
            let (cost, text) = solve(DERIVED, &derived, &config(algorithm, name));
            assert!(cost >= optimum, "{algorithm:?} {name}: {text}");
        }
    }
}

#[test]
fn plans_replay_only_with_the_axioms_evaluated_after_each_step() {
    let derived = derived_problem("(above c a)");
    // After `unstack a b`, b is clear only because the axioms say so.
    let plan = "(unstack a b)\n(putdown a)\n(unstack b c)\n(putdown b)\n(pickup c)\n(stack c a)\n";
    assert_eq!(
        validate_text(("d", DERIVED), ("p", &derived), ("plan", plan)).unwrap(),
        6
    );
    // `(covered b)` holds while a is on b: b cannot be unstacked.
    let error = validate_text(("d", DERIVED), ("p", &derived), ("plan", "(unstack b c)\n"))
        .unwrap_err()
        .to_string();
    assert!(error.contains("(covered b)"), "{error}");
    let error = validate_text(("d", DERIVED), ("p", &derived), ("plan", "(unstack a b)\n"))
        .unwrap_err()
        .to_string();
    assert!(error.contains("(above c a)"), "{error}");
}

/// Every state of the derived task with a `(not (above a c))` goal (true
/// at the start only through an axiom): each registered forward
/// heuristic's dead ends are states with no plan, and each admissible
/// one's estimates at most the real distance.
#[test]
fn dead_ends_are_real_and_admissible_estimates_admissible() {
    let domain = parse_domain("d", DERIVED).unwrap();
    for (derived_goal, _) in goals() {
        let problem = parse_problem(&domain, "p", &derived_problem(&derived_goal)).unwrap();
        let task =
            Task::<u64>::new(&ground(&domain, &problem, GroundingLimits::default()).unwrap())
                .unwrap();
        let (start, goal) = (task.start(), task.goal());
        let space = task.forward(&goal).unwrap();
        // The whole state space, breadth-first, and its edges.
        let mut index: HashMap<WorldState<u64>, usize> = HashMap::from([(start, 0)]);
        let mut states = vec![start];
        let mut edges: Vec<(usize, usize)> = Vec::new();
        let mut queue = VecDeque::from([0]);
        while let Some(i) = queue.pop_front() {
            let state = states[i];
            space.successors(&state, |_, next, _| {
                let j = *index.entry(next).or_insert_with(|| {
                    states.push(next);
                    queue.push_back(states.len() - 1);
                    states.len() - 1
                });
                edges.push((i, j));
            });
        }
        // Unit costs: the real distance is backward breadth-first.
        let mut distance = vec![u32::MAX; states.len()];
        let mut back = VecDeque::new();
        for (i, s) in states.iter().enumerate() {
            if space.is_goal(s) {
                distance[i] = 0;
                back.push_back(i);
            }
        }
        while let Some(j) = back.pop_front() {
            for &(i, _) in edges.iter().filter(|&&(_, to)| to == j) {
                if distance[i] == u32::MAX {
                    distance[i] = distance[j] + 1;
                    back.push_back(i);
                }
            }
        }
        assert!(distance[0] < u32::MAX, "{derived_goal}: solvable");
        let (view_start, view_goal) = task.view_problem(&start, &goal);
        let mut checked = 0;
        for named in Registry::builtin().iter() {
            let Ok(made) = named.forward(task.task_view(), &view_start, &view_goal) else {
                continue;
            };
            let mut h = task.view_forward(made);
            let check = |h: &mut planners::BoxedHeuristic<'_, WorldState<u64>>, i: usize| match h
                .estimate(&states[i])
            {
                Estimate::DeadEnd => assert_eq!(
                    distance[i],
                    u32::MAX,
                    "{derived_goal}: {} calls a solvable state a dead end: {}",
                    named.name(),
                    task.describe_state(&states[i])
                ),
                Estimate::Value(v) if h.is_admissible() => assert!(
                    v <= distance[i],
                    "{derived_goal}: {} estimates {v} > {}",
                    named.name(),
                    distance[i]
                ),
                Estimate::Value(_) => {}
            };
            check(&mut h, 0);
            for &(from, to) in &edges {
                h.notify_transition(&states[from], &states[to]);
                check(&mut h, to);
            }
            checked += 1;
        }
        assert!(checked >= 5, "{checked} heuristics checked");
    }
}

#[test]
fn regression_refuses_derived_predicates_by_name_and_a_portfolio_goes_forward() {
    let derived = derived_problem("(above c a)");
    let config = tests::planner_config(Direction::Regression, Algorithm::AStar, heuristic("hmax"));
    let error = solve_text(DERIVED, &derived, &config, &PddlOptions::default()).unwrap_err();
    assert!(
        matches!(&error, SolveError::Planner(PlanError::DerivedPredicates { predicates })
            if predicates == "above, clear, covered"),
        "{error:?}"
    );
    assert!(error.to_string().contains("derived predicates"), "{error}");
    let portfolio =
        tests::planner_config(Direction::Portfolio, Algorithm::AStar, heuristic("hmax"));
    let solution = solve_text(DERIVED, &derived, &portfolio, &PddlOptions::default()).unwrap();
    assert_eq!(solution.report.direction, Direction::Forward);
    assert!(
        solution
            .report
            .notes
            .iter()
            .any(|n| n.contains("forward only")
                && n.contains("regression cannot plan with derived predicates")),
        "{:?}",
        solution.report.notes
    );
    assert!(
        matches!(solution.report.outcome, PlanOutcome::Solved(_)),
        "{:?}",
        solution.report.outcome
    );
}

#[test]
fn axioms_that_need_their_own_negation_are_refused() {
    let domain = "(define (domain d) (:requirements :adl :derived-predicates)
  (:predicates (p ?x) (q ?x) (r ?x))
  (:derived (p ?x) (and (r ?x) (not (q ?x))))
  (:derived (q ?x) (p ?x))
  (:action a :parameters (?x) :precondition (not (r ?x)) :effect (r ?x)))";
    let problem = "(define (problem p) (:domain d) (:objects o) (:init) (:goal (p o)))";
    let config = config(Algorithm::AStar, "hmax");
    let error = solve_text(domain, problem, &config, &PddlOptions::default()).unwrap_err();
    assert!(
        matches!(error, SolveError::Pddl(PddlError::NotStratifiable { .. })),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(message.contains("not stratifiable"), "{message}");
    assert!(
        message.contains("(q o)") && message.contains("(p o)"),
        "{message}"
    );
}

#[test]
fn actions_may_not_change_derived_predicates_nor_init_state_them() {
    let changes = DERIVED.replace(
        "(not (ontable ?x)) (not (handempty))))",
        "(not (ontable ?x)) (not (handempty)) (not (clear ?x))))",
    );
    let error = parse_domain("bad.pddl", &changes).unwrap_err();
    let message = error.to_string();
    assert!(matches!(error, PddlError::Syntax { .. }), "{error:?}");
    assert!(message.starts_with("bad.pddl:8:"), "{message}");
    assert!(message.contains("derived predicate `clear`"), "{message}");
    let domain = parse_domain("d", DERIVED).unwrap();
    assert_eq!((domain.action_count(), domain.axiom_count()), (4, 3));
    let error = parse_problem(&domain, "p.pddl", &problem("(above c a)")).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("derived predicate `clear` in `:init`"),
        "{error}"
    );
}

#[test]
fn grounding_keeps_axioms_apart_from_operators() {
    let domain = parse_domain("d", DERIVED).unwrap();
    let problem = parse_problem(&domain, "p", &derived_problem("(above c a)")).unwrap();
    let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
    // 4 pickups, 4 putdowns, 16 stacks and 16 unstacks: nothing in the
    // domain keeps a block off itself.
    assert_eq!(task.operators.len(), 40);
    assert!(task.axioms.iter().all(|a| a.cost == 0 && a.add.len() == 1));
    let heads = |predicate: &str| {
        task.axioms
            .iter()
            .filter(|a| task.facts[a.add[0] as usize].starts_with(&format!("({predicate} ")))
            .count()
    };
    // Only `(above ? a)` matters to the goal: b, c and d above a directly or
    // through one of the other two (through a itself, `(on x a)` absorbs
    // the disjunct). `covered`: by each of 4 blocks, itself included.
    assert_eq!(
        (heads("above"), heads("covered"), heads("clear")),
        (9, 16, 4)
    );
    let stats = &task.stats;
    assert_eq!((stats.operators, stats.axioms), (40, task.axioms.len()));
    assert!(stats.reachable_axioms >= stats.axioms);
}

/// Stubborn sets do not see what axioms derive: asked for on a task with
/// axioms they stay off, and the report says so; the plan is the same.
#[test]
fn stubborn_sets_stay_off_with_axioms_and_say_so() {
    let (goal, _) = &goals()[0];
    let problem = derived_problem(goal);
    let config = config(Algorithm::AStar, "blind");
    let options = PddlOptions {
        stubborn_sets: true,
        ..PddlOptions::default()
    };
    let asked = solve_text(DERIVED, &problem, &config, &options).unwrap();
    assert!(asked.stubborn_sets.is_none());
    assert!(
        asked
            .report
            .notes
            .iter()
            .any(|n| n.contains("stubborn sets are off")),
        "{:?}",
        asked.report.notes
    );
    let plain = solve_text(DERIVED, &problem, &config, &PddlOptions::default()).unwrap();
    assert_eq!(
        asked.report.outcome.plan().map(|p| p.cost),
        plain.report.outcome.plan().map(|p| p.cost)
    );
}
