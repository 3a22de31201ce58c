//! ADL in the PDDL front end: every construct parsed, the semantics of
//! conditional effects, quantifiers, disjunctions and constants checked on
//! tiny domains in both directions, the variant blowup bounded, and every
//! vendored ADL task grounded, the small ones solved with Fast Downward's
//! optimal cost.

use std::path::{Path, PathBuf};

use planners::pddl::{
    ground, parse_domain, parse_problem, solve_text, validate_text, GroundTask, GroundingExceeded,
    GroundingLimits, Location, PddlError, PddlOptions, PddlSolution, GOAL_ACTION,
};
use planners::{Direction, PlanOutcome, PlannerConfig};
use search_core::Algorithm;
use tests::heuristic;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn grounded(domain: &str, problem: &str) -> GroundTask {
    let d = parse_domain("d.pddl", domain).unwrap_or_else(|e| panic!("{e}"));
    let p = parse_problem(&d, "p.pddl", problem).unwrap_or_else(|e| panic!("{e}"));
    ground(&d, &p, GroundingLimits::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// Forward and regression, with A* and `hmax` (admissible: optimal plans).
fn both_directions() -> [PlannerConfig; 2] {
    [Direction::Forward, Direction::Regression]
        .map(|direction| tests::planner_config(direction, Algorithm::AStar, heuristic("hmax")))
}

/// Solves in both directions; checks that both find `cost`, that each
/// plan validates on the text (VAL's reading: names only, the applicable
/// variant chosen), and returns the forward plan's text.
fn solve_both(domain: &str, problem: &str, cost: u64) -> String {
    let mut texts = Vec::new();
    for config in both_directions() {
        let s: PddlSolution = solve_text(domain, problem, &config, &PddlOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let PlanOutcome::Solved(plan) = &s.report.outcome else {
            panic!("{:?}: not solved: {:?}", config.direction, s.report.outcome);
        };
        let text = s.plan_text().unwrap();
        assert_eq!(plan.cost, cost, "{:?}: {text}", config.direction);
        let validated = validate_text(("d", domain), ("p", problem), ("plan", &text))
            .unwrap_or_else(|e| panic!("{:?}: {e}\n{text}", config.direction));
        assert_eq!(validated, cost, "{text}");
        assert!(!text.contains('#') && !text.contains(GOAL_ACTION), "{text}");
        texts.push(text);
    }
    texts.swap_remove(0)
}

/// Line and column of the first `needle` in `text`.
fn locate(text: &str, needle: &str) -> Location {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not in the text"));
    let before = &text[..at];
    Location {
        line: u32::try_from(before.matches('\n').count() + 1).unwrap(),
        column: u32::try_from(before.rsplit('\n').next().unwrap_or("").chars().count() + 1)
            .unwrap(),
    }
}

fn domain_error(text: &str, needle: &str, words: &[&str]) {
    let error = parse_domain("bad.pddl", text).unwrap_err();
    let message = error.to_string();
    assert_eq!(error.location(), Some(locate(text, needle)), "{message}");
    for word in [&["bad.pddl:"], words].concat() {
        assert!(message.contains(word), "`{word}` not in: {message}");
    }
}

/// A domain with predicates `p`, `q` over objects, `r`, `s` without
/// arguments, and one action `a ?x` with this precondition and effect.
fn one_action(requirements: &str, pre: &str, eff: &str) -> String {
    format!(
        "(define (domain d) (:requirements {requirements})
  (:types thing) (:constants c - thing)
  (:predicates (p ?x - thing) (q ?x - thing) (r) (s))
  (:action a :parameters (?x - thing) :precondition {pre} :effect {eff}))"
    )
}

#[test]
fn every_adl_construct_parses() {
    let cases = [
        (":adl", "(or (p ?x) (r))", "(r)"),
        (":disjunctive-preconditions", "(or (p ?x) (q ?x))", "(r)"),
        (":disjunctive-preconditions", "(imply (p ?x) (q ?x))", "(r)"),
        (":negative-preconditions", "(not (and (p ?x) (r)))", "(r)"),
        (
            ":negative-preconditions",
            "(not (or (p ?x) (not (r))))",
            "(r)",
        ),
        (
            ":existential-preconditions",
            "(exists (?y - thing) (p ?y))",
            "(r)",
        ),
        (
            ":universal-preconditions",
            "(forall (?y - thing) (p ?y))",
            "(r)",
        ),
        (
            ":quantified-preconditions",
            "(not (exists (?y) (and (p ?y) (q ?x))))",
            "(r)",
        ),
        (":equality", "(not (= ?x c))", "(r)"),
        (
            ":equality",
            "(forall (?y - thing) (or (= ?y ?x) (p ?y)))",
            "(r)",
        ),
        (":conditional-effects", "()", "(when (p ?x) (q ?x))"),
        (
            ":conditional-effects",
            "()",
            "(when (or (p ?x) (r)) (and (q ?x) (not (s))))",
        ),
        (
            ":conditional-effects",
            "()",
            "(forall (?y - thing) (not (p ?y)))",
        ),
        (":adl", "()", "(forall (?y - thing) (when (p ?y) (q ?y)))"),
        (
            ":adl",
            "()",
            "(forall (?y) (forall (?z) (when (p ?y) (when (q ?z) (r)))))",
        ),
        (
            ":adl",
            "()",
            "(and (r) (forall (?y) (when (exists (?z) (= ?z ?y)) (s))))",
        ),
        (":adl", "(p c)", "(not (p c))"),
    ];
    for (requirement, pre, eff) in cases {
        let text = one_action(&format!(":strips :typing {requirement}"), pre, eff);
        let domain = parse_domain("d.pddl", &text).unwrap_or_else(|e| panic!("{pre} {eff}: {e}"));
        assert_eq!(domain.action_count(), 1);
    }
    // `either` types and a variable shadowed by a quantifier.
    let text = "(define (domain d) (:requirements :adl) (:types a b)
  (:predicates (p ?x - (either a b)))
  (:action go :parameters (?x - (either a b))
    :precondition (forall (?x - a) (p ?x)) :effect (p ?x)))";
    parse_domain("d.pddl", text).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn adl_errors_are_located() {
    domain_error(
        "(define (domain d) (:requirements :adl :derived-predicates) (:predicates (p) (q))\n (:derived (p) (q))\n (:action a :effect (not (p))))",
        "(p))))",
        &["an action changes derived predicate `p`"],
    );
    domain_error(
        "(define (domain d) (:predicates (p ?x))\n (:derived (p ?x ?y) (p ?x)))",
        "p ?x ?y",
        &["`p` takes 1 argument(s), 2 given"],
    );
    domain_error(
        &one_action(":adl", "(forall (?y ?y) (p ?y))", "(r)"),
        "?y) (p",
        &["variable `?y` is declared twice"],
    );
    domain_error(
        &one_action(":adl", "(exists (?y - nothing) (p ?y))", "(r)"),
        "nothing",
        &["undefined type `nothing`"],
    );
    domain_error(
        &one_action(":adl", "(imply (r))", "(r)"),
        "(imply",
        &["`imply` takes two conditions"],
    );
    domain_error(
        &one_action(":adl", "(r)", "(when (r))"),
        "(when",
        &["expected `(when condition effect)`"],
    );
    domain_error(
        &one_action(":adl", "(r)", "(forall (?y) (when (p ?z) (r)))"),
        "?z",
        &["undefined variable `?z`"],
    );
    domain_error(
        &one_action(":adl", "(r)", "(or (r) (s))"),
        "or",
        &["`or` in an effect"],
    );
    domain_error(
        &one_action(":adl", "(when (r) (s))", "(r)"),
        "when",
        &["`when` outside an effect"],
    );
    // A quantified variable is out of scope after its quantifier.
    domain_error(
        &one_action(":adl", "(and (exists (?y) (p ?y)) (q ?y))", "(r)"),
        "?y)) :effect",
        &["undefined variable `?y`"],
    );
}

/// The classic briefcase: what is in the case moves with it (a `forall`
/// of conditional effects), what is not stays.
const BRIEFCASE: &str = "(define (domain briefcase) (:requirements :adl :typing)
  (:types place thing)
  (:predicates (at ?x - thing ?l - place) (case-at ?l - place) (in ?x - thing))
  (:action move :parameters (?from ?to - place)
    :precondition (and (case-at ?from) (not (= ?from ?to)))
    :effect (and (case-at ?to) (not (case-at ?from))
      (forall (?x - thing) (when (in ?x) (and (at ?x ?to) (not (at ?x ?from)))))))
  (:action put-in :parameters (?x - thing ?l - place)
    :precondition (and (at ?x ?l) (case-at ?l) (not (in ?x))) :effect (in ?x))
  (:action take-out :parameters (?x - thing)
    :precondition (in ?x) :effect (not (in ?x))))";

/// Two things to take to the office, one to leave home, the case back.
const BRIEFCASE_TASK: &str = "(define (problem p) (:domain briefcase)
  (:objects home office - place a b c - thing)
  (:init (case-at home) (at a home) (at b home) (at c home))
  (:goal (and (at a office) (at b office) (at c home) (case-at home)
    (not (in a)) (not (in b)))))";

#[test]
fn conditional_effects_fire_only_when_their_condition_holds() {
    let problem = BRIEFCASE_TASK;
    let plan = solve_both(BRIEFCASE, problem, 6);
    assert!(plan.contains("(move home office)\n"), "{plan}");
    assert!(plan.contains("(move office home)\n"), "{plan}");
    // One ground `move` per direction and per subset of things inside:
    // 2 directions, 2^3 variants each.
    let task = grounded(BRIEFCASE, problem);
    let moves = task
        .operators
        .iter()
        .filter(|o| o.name.starts_with("move"))
        .count();
    assert_eq!(moves, 16);
    // A plan that forgets to take `a` out leaves it in, and `b` not put in
    // stays home: VAL's semantics, replayed on names only.
    let bad = "(put-in a home)\n(move home office)\n(take-out a)\n(move office home)\n";
    assert!(validate_text(("d", BRIEFCASE), ("p", problem), ("plan", bad)).is_err());
    let good = "(put-in a home)\n(put-in b home)\n(move home office)\n(take-out a)\n(take-out b)\n(move office home)\n";
    assert_eq!(
        validate_text(("d", BRIEFCASE), ("p", problem), ("plan", good)).unwrap(),
        6
    );
}

#[test]
fn a_toggle_is_exact_and_delete_then_add_lets_add_win() {
    // `flip` toggles `on`; `reset` deletes and (conditionally) adds `done`.
    let domain = "(define (domain t) (:requirements :adl)
  (:predicates (on) (done) (armed))
  (:action flip :parameters ()
    :effect (and (when (on) (not (on))) (when (not (on)) (on))))
  (:action arm :parameters () :precondition (on) :effect (armed))
  (:action finish :parameters () :precondition (and (armed) (not (on)))
    :effect (and (not (done)) (when (armed) (done)))))";
    let problem = "(define (problem p) (:domain t) (:init) (:goal (done)))";
    let plan = solve_both(domain, problem, 4);
    assert_eq!(
        plan,
        "(flip)\n(arm)\n(flip)\n(finish)\n; cost = 4 (unit cost)\n"
    );
    // `when (armed)` in `finish` is implied by its precondition: one
    // operator; `flip` splits in two.
    let task = grounded(domain, problem);
    let count = |name: &str| task.operators.iter().filter(|o| o.name == name).count();
    assert_eq!((count("flip"), count("finish")), (2, 1));
}

#[test]
fn exists_or_and_imply_preconditions() {
    let domain = "(define (domain door) (:requirements :adl :typing)
  (:types key)
  (:predicates (has ?k - key) (fits ?k - key) (lying ?k - key) (open) (inside)
    (raining) (umbrella) (escorted) (badge))
  (:action pick :parameters (?k - key) :precondition (lying ?k)
    :effect (and (has ?k) (not (lying ?k))))
  (:action unlock :parameters ()
    :precondition (exists (?k - key) (and (has ?k) (fits ?k))) :effect (open))
  (:action get-umbrella :parameters () :precondition () :effect (umbrella))
  (:action get-badge :parameters () :precondition () :effect (badge))
  (:action enter :parameters ()
    :precondition (and (open) (or (badge) (escorted)) (imply (raining) (umbrella)))
    :effect (inside)))";
    // Only `k2` fits; escorted, so no badge; raining, so the umbrella.
    let problem = "(define (problem p) (:domain door) (:objects k1 k2 - key)
  (:init (lying k1) (lying k2) (fits k2) (escorted) (raining)) (:goal (inside)))";
    let plan = solve_both(domain, problem, 4);
    assert!(
        plan.contains("(pick k2)") && !plan.contains("(pick k1)"),
        "{plan}"
    );
    assert!(
        plan.contains("(get-umbrella)") && !plan.contains("badge"),
        "{plan}"
    );
    // Dry and not escorted: the badge instead of the umbrella.
    let dry = problem.replace("(escorted) (raining)", "");
    let plan = solve_both(domain, &dry, 4);
    assert!(
        plan.contains("(get-badge)") && !plan.contains("umbrella"),
        "{plan}"
    );
    // No key fits: no plan, in either direction.
    let stuck = problem.replace("(fits k2)", "");
    for config in both_directions() {
        let s = solve_text(domain, &stuck, &config, &PddlOptions::default()).unwrap();
        assert!(
            matches!(s.report.outcome, PlanOutcome::Unsolvable),
            "{:?}",
            s.report.outcome
        );
    }
}

#[test]
fn a_negated_conjunction_and_universal_preconditions() {
    // `leave` needs not both lights on, and every window shut.
    let domain = "(define (domain house) (:requirements :adl :typing)
  (:types window)
  (:predicates (lamp) (heater) (open ?w - window) (gone))
  (:action lamp-off :parameters () :precondition (lamp) :effect (not (lamp)))
  (:action shut :parameters (?w - window) :precondition (open ?w) :effect (not (open ?w)))
  (:action leave :parameters ()
    :precondition (and (not (and (lamp) (heater))) (forall (?w - window) (not (open ?w))))
    :effect (gone)))";
    let problem = "(define (problem p) (:domain house) (:objects w1 w2 w3 - window)
  (:init (lamp) (heater) (open w1) (open w3)) (:goal (gone)))";
    let plan = solve_both(domain, problem, 4);
    assert!(
        plan.contains("(lamp-off)") && !plan.contains("(shut w2)"),
        "{plan}"
    );
    let no_heater = problem.replace("(heater)", "");
    solve_both(domain, &no_heater, 3);
}

#[test]
fn constants_of_the_domain_and_objects_of_the_problem_meet() {
    let domain = "(define (domain c) (:requirements :adl :typing)
  (:types room)
  (:constants hall - room)
  (:predicates (at ?r - room) (link ?a ?b - room) (visited ?r - room))
  (:action go :parameters (?a ?b - room) :precondition (and (at ?a) (or (link ?a ?b) (link ?b ?a)))
    :effect (and (at ?b) (not (at ?a)) (visited ?b)
      (when (= ?b hall) (forall (?r - room) (not (visited ?r)))))))";
    // `hall` again in the problem, of the same type: accepted.
    let problem = "(define (problem p) (:domain c) (:objects hall kitchen attic - room)
  (:init (at kitchen) (visited kitchen) (link hall kitchen) (link hall attic))
  (:goal (and (visited attic) (not (visited kitchen)) (at attic))))";
    let plan = solve_both(domain, problem, 2);
    assert_eq!(
        plan,
        "(go kitchen hall)\n(go hall attic)\n; cost = 2 (unit cost)\n"
    );
    // Of another type, it is a second declaration.
    let d = parse_domain("d", &domain.replace("(:types room)", "(:types room door)")).unwrap();
    let text = problem.replace(
        "hall kitchen attic - room",
        "kitchen attic - room hall - door",
    );
    let error = parse_problem(&d, "p.pddl", &text).unwrap_err();
    assert!(matches!(error, PddlError::Duplicate { .. }), "{error}");
    assert_eq!(error.location(), Some(locate(&text, "hall - door")));
}

#[test]
fn a_disjunctive_goal_compiles_to_goal_actions_left_out_of_plans() {
    let problem = "(define (problem p) (:domain briefcase)
  (:objects home office - place a b - thing)
  (:init (case-at home) (at a home) (at b office))
  (:goal (or (exists (?x - thing) (and (at ?x home) (at ?x office))) (and (at a office) (at b home)))))";
    // Nothing is in two places: the second alternative (`a` in, move, `a`
    // out, `b` in, move back).
    let plan = solve_both(BRIEFCASE, problem, 5);
    assert!(plan.ends_with("; cost = 5 (unit cost)\n"), "{plan}");
    let task = grounded(BRIEFCASE, problem);
    assert_eq!(task.goal.len(), 1);
    assert_eq!(
        task.facts[task.goal[0] as usize],
        planners::pddl::GOAL_REACHED
    );
}

#[test]
fn simplification_keeps_schedule_like_effects_unsplit() {
    // As in IPC schedule: the old surfaces are deleted, except the new
    // one; `(when (not (used)) (used))` is an unconditional `(used)`.
    let domain = "(define (domain s) (:requirements :adl :typing)
  (:types part surface)
  (:constants polished - surface)
  (:predicates (surface ?x - part ?s - surface) (used) (busy))
  (:action polish :parameters (?x - part) :precondition (not (busy))
    :effect (and (surface ?x polished) (busy) (when (not (used)) (used))
      (forall (?s - surface)
        (when (and (surface ?x ?s) (not (= ?s polished))) (not (surface ?x ?s)))))))";
    let problem = "(define (problem p) (:domain s) (:objects a b - part rough smooth - surface)
  (:init (surface a rough) (surface b smooth)) (:goal (and (surface a polished) (used))))";
    let task = grounded(domain, problem);
    let polish: Vec<_> = task
        .operators
        .iter()
        .filter(|o| o.name.starts_with("polish"))
        .collect();
    // One operator per part: nothing split.
    assert_eq!(polish.len(), 2, "{polish:?}");
    solve_both(domain, problem, 1);
}

#[test]
fn variants_of_one_operator_keep_apart_on_packed_states() {
    // 40 places and a lamp: 81 facts (two words) pack into one word, and
    // each `go` splits into a variant with the lamp on and one without;
    // packing once declared both under the operator's name (as in IPC
    // assembly, "action ... is already declared").
    let domain = "(define (domain lamp) (:requirements :adl :typing) (:types place)
  (:predicates (at ?x - place) (road ?x ?y - place) (seen ?x - place) (lamp))
  (:action switch :parameters () :precondition (not (lamp)) :effect (lamp))
  (:action go :parameters (?x ?y - place) :precondition (and (at ?x) (road ?x ?y))
    :effect (and (at ?y) (not (at ?x)) (when (lamp) (seen ?y)))))";
    let places: Vec<String> = (1..=40).map(|i| format!("p{i}")).collect();
    let roads: Vec<String> = places
        .windows(2)
        .map(|w| format!("(road {} {})", w[0], w[1]))
        .collect();
    let roads = roads.join(" ");
    let seen: Vec<String> = places[1..].iter().map(|p| format!("(seen {p})")).collect();
    let seen = seen.join(" ");
    let problem = format!(
        "(define (problem p) (:domain lamp) (:objects {} - place)
  (:init (at p1) {roads}) (:goal (and {seen})))",
        places.join(" ")
    );
    let config = tests::planner_config(Direction::Forward, Algorithm::AStar, heuristic("hmax"));
    let solved = solve_text(domain, &problem, &config, &PddlOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let packing = solved.packing.as_ref().expect("packed");
    assert!(solved.words < packing.fact_words, "{packing:?}");
    let text = solve_both(domain, &problem, 40);
    assert!(text.starts_with("(switch)\n(go p1 p2)\n"), "{text}");
}

#[test]
fn a_huge_split_ends_at_the_grounding_limit() {
    // 24 independent conditional effects: 2^24 variants.
    let objects: Vec<String> = (0..24).map(|i| format!("o{i}")).collect();
    let domain = "(define (domain big) (:requirements :adl)
  (:predicates (p ?x) (q ?x) (go))
  (:action set :parameters (?x) :precondition () :effect (p ?x))
  (:action all :parameters () :precondition ()
    :effect (and (go) (forall (?x) (when (p ?x) (q ?x))))))";
    let problem = format!(
        "(define (problem p) (:domain big) (:objects {}) (:init) (:goal (and (go) (q o0))))",
        objects.join(" ")
    );
    let d = parse_domain("d", domain).unwrap();
    let p = parse_problem(&d, "p", &problem).unwrap();
    // By default the operator keeps its conditional effects: one operator.
    let kept = ground(&d, &p, GroundingLimits::default()).unwrap();
    let all: Vec<_> = kept.operators.iter().filter(|o| o.name == "all").collect();
    assert_eq!(all.len(), 1);
    // Only `q o0` matters to the goal: the other effects go.
    assert_eq!(all[0].effects.len(), 1);
    assert_eq!(kept.stats.conditional_operators, 1);
    // Split without bound, it meets the limits.
    let limits = GroundingLimits {
        max_steps: 200_000,
        max_variants: usize::MAX,
        ..GroundingLimits::default()
    };
    let error = ground(&d, &p, limits).unwrap_err();
    assert!(
        matches!(
            error,
            PddlError::GroundingExceeded(GroundingExceeded::Steps { limit: 200_000 })
        ),
        "{error}"
    );
    let limits = GroundingLimits {
        max_memory_bytes: Some(8 << 20),
        max_variants: usize::MAX,
        ..GroundingLimits::default()
    };
    let error = ground(&d, &p, limits).unwrap_err();
    assert!(
        matches!(
            error,
            PddlError::GroundingExceeded(GroundingExceeded::Memory { .. })
        ),
        "{error}"
    );
}

/// The ADL domains in `benchmarks/pddl-ipc` (see its `MANIFEST.txt`) and
/// their tasks.
const ADL_TASKS: [(&str, [&str; 6]); 6] = [
    (
        "miconic-simpleadl",
        ["s1-0", "s1-1", "s1-2", "s1-3", "s1-4", "s2-0"],
    ),
    (
        "miconic-fulladl",
        ["f1-0", "f1-1", "f1-2", "f1-3", "f1-4", "f2-0"],
    ),
    (
        "assembly",
        ["prob01", "prob02", "prob03", "prob04", "prob05", "prob06"],
    ),
    (
        "schedule",
        [
            "probschedule-2-0",
            "probschedule-2-1",
            "probschedule-2-2",
            "probschedule-3-0",
            "probschedule-3-1",
            "probschedule-3-2",
        ],
    ),
    (
        "openstacks-opt08-adl",
        ["p01", "p02", "p03", "p04", "p05", "p06"],
    ),
    (
        "citycar-opt14-adl",
        [
            "p2-2-2-1-2",
            "p2-2-2-2-1",
            "p2-2-3-1-2",
            "p2-2-3-2-1",
            "p2-2-3-2-2",
            "p2-2-4-1-2",
        ],
    ),
];

/// A task with its domain: `NAME-domain.pddl` if there is one, else
/// `domain.pddl`.
fn task_files(domain: &str, task: &str) -> (PathBuf, PathBuf) {
    tests::ipc_task_files(domain, task)
}

#[test]
fn every_adl_task_parses_and_grounds() {
    let mut tasks = 0;
    for (name, problems) in ADL_TASKS {
        for task in problems {
            let (domain_path, problem_path) = task_files(name, task);
            let domain = parse_domain(&domain_path.display().to_string(), &read(&domain_path))
                .unwrap_or_else(|e| panic!("{e}"));
            let problem = parse_problem(
                &domain,
                &problem_path.display().to_string(),
                &read(&problem_path),
            )
            .unwrap_or_else(|e| panic!("{e}"));
            let ground_task = ground(&domain, &problem, GroundingLimits::default())
                .unwrap_or_else(|e| panic!("{}: {e}", problem_path.display()));
            let s = &ground_task.stats;
            assert!(!s.unsolvable, "{}", problem_path.display());
            assert!(
                s.facts > 0 && s.operators > 0,
                "{}: {s:?}",
                problem_path.display()
            );
            planners::pddl::GroundedTask::new(&ground_task)
                .unwrap_or_else(|e| panic!("{}: {e}", problem_path.display()));
            tasks += 1;
        }
    }
    assert_eq!(tasks, 36);
}

/// Optimal costs by Fast Downward (up-fast-downward 1.0.0), from its log's
/// `Plan cost: N`: `fast-downward.py --overall-time-limit 60s DOMAIN
/// PROBLEM --search "astar(hmax())"` (its LM-cut refuses conditional
/// effects). Each is a task both directions solve within a second or so
/// in a debug build; the larger ones are in `benches/suites/ipc-adl.toml`.
const FAST_DOWNWARD_OPTIMA: [(&str, &str, u64); 21] = [
    ("miconic-simpleadl", "s1-0", 4),
    ("miconic-simpleadl", "s1-1", 3),
    ("miconic-simpleadl", "s1-2", 4),
    ("miconic-simpleadl", "s1-3", 4),
    ("miconic-simpleadl", "s1-4", 4),
    ("miconic-simpleadl", "s2-0", 6),
    ("miconic-fulladl", "f1-0", 4),
    ("miconic-fulladl", "f1-1", 3),
    ("miconic-fulladl", "f1-2", 4),
    ("miconic-fulladl", "f1-3", 4),
    ("miconic-fulladl", "f1-4", 4),
    ("miconic-fulladl", "f2-0", 6),
    ("schedule", "probschedule-2-0", 2),
    ("schedule", "probschedule-2-1", 2),
    ("schedule", "probschedule-2-2", 2),
    ("schedule", "probschedule-3-0", 4),
    ("schedule", "probschedule-3-1", 2),
    ("schedule", "probschedule-3-2", 4),
    ("openstacks-opt08-adl", "p01", 2),
    ("openstacks-opt08-adl", "p02", 2),
    ("openstacks-opt08-adl", "p03", 2),
];

#[test]
fn optimal_costs_agree_with_fast_downward() {
    for (name, task, optimum) in FAST_DOWNWARD_OPTIMA {
        let (domain_path, problem_path) = task_files(name, task);
        let (domain, problem) = (read(&domain_path), read(&problem_path));
        let plan = solve_both(&domain, &problem, optimum);
        let unit = if name.starts_with("openstacks") {
            "general"
        } else {
            "unit"
        };
        assert!(
            plan.ends_with(&format!("; cost = {optimum} ({unit} cost)\n")),
            "{name} {task}: {plan}"
        );
    }
}

/// Options whose grounding keeps every operator's conditional effects
/// (none split into variants).
fn kept_effects() -> PddlOptions {
    PddlOptions {
        grounding: GroundingLimits {
            max_variants: 0,
            ..GroundingLimits::default()
        },
        ..PddlOptions::default()
    }
}

/// The cost `config` finds with `options`, after validating the plan on
/// the text (which splits nothing it need not).
fn validated_cost(
    (domain, problem): (&str, &str),
    config: &PlannerConfig,
    options: &PddlOptions,
) -> (u64, PddlSolution) {
    let s = solve_text(domain, problem, config, options).unwrap_or_else(|e| panic!("{e}"));
    let PlanOutcome::Solved(plan) = &s.report.outcome else {
        panic!("not solved: {:?}", s.report.outcome);
    };
    let text = s.plan_text().unwrap();
    let validated = validate_text(("d", domain), ("p", problem), ("plan", &text))
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(validated, plan.cost, "{text}");
    (plan.cost, s)
}

#[test]
fn kept_conditional_effects_plan_as_their_split_variants_do() {
    // Forward A* with admissible heuristics finds the same optimal cost
    // whether conditional effects are split or kept; LM-cut and h_max
    // read kept ones as relaxed actions of their own.
    let mut tasks = vec![(BRIEFCASE.to_owned(), BRIEFCASE_TASK.to_owned())];
    for (domain, task) in [
        ("miconic-simpleadl", "s1-0"),
        ("miconic-simpleadl", "s2-0"),
        ("miconic-fulladl", "f2-0"),
    ] {
        let (d, p) = task_files(domain, task);
        tasks.push((read(&d), read(&p)));
    }
    for (domain, problem) in &tasks {
        let kept = grounded_with(domain, problem, kept_effects().grounding);
        assert!(kept.stats.conditional_operators > 0, "{problem}");
        for h in ["hmax", "lmcut", "blind"] {
            let config = tests::planner_config(Direction::Forward, Algorithm::AStar, heuristic(h));
            let split = validated_cost((domain, problem), &config, &PddlOptions::default()).0;
            let (cost, solution) = validated_cost((domain, problem), &config, &kept_effects());
            assert_eq!(cost, split, "{h}: {problem}");
            assert!(solution.grounding.conditional_operators > 0);
        }
        // Greedy search with the satisficing heuristics plans too.
        let config = tests::planner_config(
            Direction::Forward,
            Algorithm::LazyGreedy,
            heuristic("ff+lmcount"),
        );
        validated_cost((domain, problem), &config, &kept_effects());
    }
}

fn grounded_with(domain: &str, problem: &str, limits: GroundingLimits) -> GroundTask {
    let d = parse_domain("d.pddl", domain).unwrap_or_else(|e| panic!("{e}"));
    let p = parse_problem(&d, "p.pddl", problem).unwrap_or_else(|e| panic!("{e}"));
    ground(&d, &p, limits).unwrap_or_else(|e| panic!("{e}"))
}

/// A task of `benchmarks/ipc-sample` (see its `MANIFEST.txt`): the
/// domain's text and the task's.
fn sample_task(domain: &str, task: &str) -> (String, String) {
    let dir = tests::repository_root()
        .join("benchmarks/ipc-sample")
        .join(domain);
    let own = dir.join(format!("domain-{task}.pddl"));
    let domain_file = if own.exists() {
        own
    } else {
        dir.join("domain.pddl")
    };
    (read(&domain_file), read(&dir.join(format!("{task}.pddl"))))
}

#[test]
fn rubiks_cube_settlers_and_flashfill_ground_small_and_plan() {
    // Split into variants, a rubiks-cube turn would need billions (every
    // cubie moves under a condition of its own): grounding ran out of
    // 2 GiB. Kept, each turn is one operator.
    let config = tests::planner_config(
        Direction::Forward,
        Algorithm::LazyGreedy,
        heuristic("ff+lmcount"),
    );
    let small = PddlOptions {
        grounding: GroundingLimits {
            max_memory_bytes: Some(64 << 20),
            ..GroundingLimits::default()
        },
        ..PddlOptions::default()
    };
    for (domain, task, conditional) in [
        ("rubiks-cube-sat23-adl", "p01", 12),
        ("rubiks-cube-sat23-adl", "p03", 12),
        ("settlers-opt18-adl", "p01", 139),
        ("flashfill-sat18-adl", "p01", 12),
    ] {
        let (d, p) = sample_task(domain, task);
        let (_, solution) = validated_cost((&d, &p), &config, &small);
        assert_eq!(
            solution.grounding.conditional_operators, conditional,
            "{domain} {task}"
        );
    }
    let (d, p) = sample_task("rubiks-cube-sat23-adl", "p03");
    let astar = tests::planner_config(Direction::Forward, Algorithm::AStar, heuristic("hmax"));
    assert_eq!(validated_cost((&d, &p), &astar, &small).0, 3);
}

#[test]
fn what_reads_effects_as_unconditional_refuses_kept_ones_by_name() {
    let (d, p) = sample_task("rubiks-cube-sat23-adl", "p01");
    let regression =
        tests::planner_config(Direction::Regression, Algorithm::AStar, heuristic("hmax"));
    let error = solve_text(&d, &p, &regression, &PddlOptions::default()).unwrap_err();
    assert!(error.is_unsupported(), "{error}");
    let text = error.to_string();
    assert!(
        text.starts_with("regression does not handle conditional effects, but action `"),
        "{text}"
    );
    let ipdb = tests::planner_config(Direction::Forward, Algorithm::AStar, heuristic("ipdb"));
    let error = solve_text(&d, &p, &ipdb, &PddlOptions::default()).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("heuristic `ipdb` does not handle conditional effects"),
        "{error}"
    );
    // The portfolio plans forward, and says why.
    let portfolio =
        tests::planner_config(Direction::Portfolio, Algorithm::AStar, heuristic("hmax"));
    let s = solve_text(&d, &p, &portfolio, &PddlOptions::default()).unwrap();
    assert!(s.report.outcome.plan().is_some());
    assert!(
        s.report
            .notes
            .iter()
            .any(|n| n.contains("planned forward only") && n.contains("conditional effects")),
        "{:?}",
        s.report.notes
    );
    // Stubborn sets switch off, with a note.
    let stubborn = PddlOptions {
        stubborn_sets: true,
        ..PddlOptions::default()
    };
    let forward = tests::planner_config(Direction::Forward, Algorithm::AStar, heuristic("lmcut"));
    let s = solve_text(&d, &p, &forward, &stubborn).unwrap();
    assert!(s.report.outcome.plan().is_some());
    assert!(
        s.report
            .notes
            .iter()
            .any(|n| n == "stubborn sets are off: the task has conditional effects"),
        "{:?}",
        s.report.notes
    );
}

#[test]
fn kept_conditional_effects_change_nothing_with_the_order_of_the_files() {
    // Kept effects are sorted as the facts are numbered: by name, whatever
    // the order of `:init`, objects and actions.
    let config = tests::planner_config(
        Direction::Forward,
        Algorithm::LazyGreedy,
        heuristic("ff+lmcount"),
    );
    let solve = |domain: &str, problem: &str| {
        let s = solve_text(domain, problem, &config, &PddlOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        (s.report.stats().expanded, s.plan_text())
    };
    for (domain, task) in [
        ("rubiks-cube-sat23-adl", "p03"),
        ("settlers-opt18-adl", "p01"),
    ] {
        let (d, p) = sample_task(domain, task);
        let first = solve(&d, &p);
        assert!(first.1.is_some(), "{domain} {task}");
        let operators = grounded(&d, &p).operators;
        for seed in 1..3 {
            let d = tests::shuffle::actions_shuffled(&d, seed);
            let p = tests::shuffle::shuffled(&p, seed);
            assert_eq!(solve(&d, &p), first, "{domain} {task}, seed {seed}");
            // The same operators, their effects in the same order.
            assert!(
                grounded(&d, &p).operators == operators,
                "{domain} {task}, seed {seed}"
            );
        }
    }
}
