//! PDDL front end: every benchmark file parses and grounds; malformed input
//! gives located errors; plans validate and read back.

use std::path::{Path, PathBuf};

use planners::heuristics::NamedHeuristic;
use planners::pddl::{
    ground, h2_mutexes, parse_domain, parse_problem, solve_text, GroundedTask, GroundingLimits,
    IpcPlan, Location, PddlError, PddlOptions, PddlSolution,
};
use planners::{Direction, PlanOutcome, PlannerConfig};
use search_core::Algorithm;
use tests::heuristic;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const DOMAINS: [&str; 8] = [
    "blocks",
    "gripper",
    "logistics",
    "miconic",
    "elevators",
    "depot",
    "freecell",
    "visitall",
];

#[test]
fn every_benchmark_file_parses_and_grounds() {
    let root = tests::pddl_benchmarks();
    let mut tasks = 0;
    for name in DOMAINS {
        let dir = root.join(name);
        let domain_path = dir.join("domain.pddl");
        let domain = parse_domain(&domain_path.display().to_string(), &read(&domain_path))
            .unwrap_or_else(|e| panic!("{e}"));
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "pddl") && !p.ends_with("domain.pddl"))
            .collect();
        files.sort();
        assert!(files.len() >= 10, "{name}: {} tasks", files.len());
        for path in files {
            let problem = parse_problem(&domain, &path.display().to_string(), &read(&path))
                .unwrap_or_else(|e| panic!("{e}"));
            let task = ground(&domain, &problem, GroundingLimits::default())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let s = &task.stats;
            assert!(!s.unsolvable, "{}", path.display());
            assert!(s.facts > 0 && s.operators > 0, "{}: {s:?}", path.display());
            assert!(s.facts <= s.reachable_facts && s.operators <= s.reachable_operators);
            let grounded = GroundedTask::new(&task).unwrap();
            // The narrowest width that fits.
            let widths = [1, 2, 3, 4, 8, 16, 32, 64];
            let fits = widths.iter().find(|&&w| s.facts <= 64 * w).copied();
            assert_eq!(Some(grounded.words()), fits, "{}", path.display());
            tasks += 1;
        }
    }
    assert_eq!(tasks, 20 + 15 + 16 + 20 + 15 + 12 + 10 + 14);
}

#[test]
fn grounding_counts_on_known_tasks() {
    let root = tests::pddl_benchmarks();
    let count = |domain: &str, task: &str| {
        let d = root.join(domain);
        let dom = parse_domain("d", &read(&d.join("domain.pddl"))).unwrap();
        let prob = parse_problem(&dom, "p", &read(&d.join(task))).unwrap();
        let t = ground(&dom, &prob, GroundingLimits::default()).unwrap();
        (t.stats.facts, t.stats.operators)
    };
    // blocks with n blocks: n^2 on (on ?x ?x included, as the relaxation
    // reaches it), n ontable, n clear, n holding, handempty; 4n^2 operators.
    assert_eq!(
        count("blocks", "task01.pddl"),
        (4 * 4 + 3 * 4 + 1, 4 * 4 * 2 + 2 * 4)
    );
    // miconic: the static floors and passengers fold away.
    assert_eq!(count("miconic", "task01.pddl"), (4, 4));
}

/// An effect that makes true what the precondition wants true changes
/// nothing, so it does not make its operator relevant: rovers'
/// `communicate_*` actions delete and re-add `channel_free`, and kept as
/// an effect, it made every image of every rover relevant (p04: 60
/// operators and 7,534 blind A* expansions, against Fast Downward's 45
/// operators and 876 expansions, 814 until the last `f` layer).
#[test]
fn effects_that_change_nothing_make_nothing_relevant() {
    let domain = parse_domain(
        "d",
        "(define (domain channel) (:requirements :strips)
           (:predicates (free) (sent ?m) (ready ?m) (noise))
           (:action prepare :parameters (?m) :precondition (free) :effect (ready ?m))
           (:action send :parameters (?m) :precondition (and (free) (ready ?m))
              :effect (and (not (free)) (free) (sent ?m)))
           (:action hum :parameters () :precondition (free) :effect (and (free) (noise))))",
    )
    .unwrap();
    let problem = parse_problem(
        &domain,
        "p",
        "(define (problem one) (:domain channel) (:objects a b)
           (:init (free)) (:goal (sent a)))",
    )
    .unwrap();
    let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
    let mut names: Vec<&str> = task.operators.iter().map(|o| o.name.as_str()).collect();
    names.sort_unstable();
    // `send b` and `prepare b` only re-add `free`; `hum` only adds noise.
    assert_eq!(names, ["prepare a", "send a"]);
    assert!(task
        .operators
        .iter()
        .all(|o| o.add.iter().all(|f| !o.pre.contains(f))));

    let rovers = tests::repository_root().join("benchmarks/ipc-sample/rovers");
    let domain = parse_domain("d", &read(&rovers.join("domain.pddl"))).unwrap();
    let problem = parse_problem(&domain, "p", &read(&rovers.join("p04.pddl"))).unwrap();
    let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
    assert_eq!((task.stats.facts, task.stats.operators), (22, 45));
}

/// A requirement is refused where the task uses it, not where it is
/// declared: a STRIPS task that declares every requirement of PDDL 3.1
/// grounds and solves, and each construct searchlab does not read is
/// refused at its use, naming it.
#[test]
fn requirements_are_refused_where_used_not_where_declared() {
    let all = "(:requirements :strips :typing :adl :action-costs :derived-predicates
       :numeric-fluents :fluents :object-fluents :durative-actions :duration-inequalities
       :continuous-effects :timed-initial-literals :preferences :constraints :time)";
    let domain_text = format!(
        "(define (domain d) {all} (:predicates (p) (q))
           (:action a :parameters () :precondition (p) :effect (q)))"
    );
    let domain = parse_domain("d.pddl", &domain_text).unwrap();
    let problem = parse_problem(
        &domain,
        "p.pddl",
        &format!("(define (problem t) (:domain d) {all} (:init (p)) (:goal (q)))"),
    )
    .unwrap();
    let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
    assert_eq!(task.operators.len(), 1);

    let header = "(define (domain d) (:requirements :strips :durative-actions :constraints\n :object-fluents :preferences) (:predicates (p) (q))\n";
    let uses = [
        (
            "(:durative-action a :parameters () :duration (= ?duration 1)))",
            ":durative-action a",
            "durative actions",
        ),
        (
            "(:constraints (always (p))))",
            ":constraints (always",
            "constraints",
        ),
        ("(:functions (f) - object))", "object))", "object fluents"),
        (
            "(:action a :parameters () :precondition (preference ok (p)) :effect (q)))",
            "preference ok",
            "preference",
        ),
    ];
    for (text, needle, construct) in uses {
        domain_error(
            &format!("{header}{text}"),
            needle,
            &["unsupported", construct],
        );
    }
    let domain = parse_domain(
        "d.pddl",
        "(define (domain d) (:requirements :timed-initial-literals) (:predicates (p) (q))
           (:action a :parameters () :precondition (p) :effect (q)))",
    )
    .unwrap();
    let text = "(define (problem t) (:domain d)\n (:init (p) (at 10 (q))) (:goal (q)))";
    expect_error(
        parse_problem(&domain, "bad.pddl", text),
        locate(text, "(at 10"),
        &["bad.pddl:", "unsupported timed initial literal"],
    );
}

/// The domain with every supported construct.
const ROOMS: &str = "; rooms
(define (domain rooms)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types room - place robot)
  (:constants hall - room)
  (:predicates (at ?r - robot ?p - place) (door ?a ?b - place) (locked ?p - place)
               (visited ?p - place) (key ?r - robot))
  (:action move
    :parameters (?r - robot ?from ?to - (either room place))
    :precondition (and (at ?r ?from) (door ?from ?to) (not (= ?from ?to)) (not (locked ?to)))
    :effect (and (at ?r ?to) (not (at ?r ?from)) (visited ?to)))
  (:action unlock
    :parameters (?r - robot ?p - room)
    :precondition (and (key ?r) (locked ?p) (not (= ?p hall)))
    :effect (not (locked ?p)))
  (:action drop-key
    :parameters (?r - robot)
    :precondition (key ?r)
    :effect (not (key ?r))))";

const ROOMS_PROBLEM: &str = "(define (problem two-rooms) (:domain rooms)
  (:objects r1 r2 - room bot - robot)
  (:init (at bot hall) (door hall r1) (door r1 hall) (door r1 r2) (door r2 r1) (door hall hall)
         (locked r2) (key bot))
  (:goal (and (visited r2) (not (key bot)) (at bot r1))))";

#[test]
fn negative_preconditions_equality_constants_and_either() {
    for direction in [Direction::Forward, Direction::Regression] {
        for heuristic in [heuristic("blind"), heuristic("hmax")] {
            let config = PlannerConfig {
                direction,
                heuristic: heuristic.clone(),
                ..PlannerConfig::default()
            };
            let s = solve_text(ROOMS, ROOMS_PROBLEM, &config, &PddlOptions::default()).unwrap();
            let plan = s.plan.expect("solved");
            // unlock r2, go to r1, r2, back to r1, drop the key (any order of
            // unlock and drop-key before moves is fine).
            assert_eq!(
                plan.cost(),
                5,
                "{direction:?} {heuristic:?}: {:?}",
                plan.names()
            );
        }
    }
    // `(door hall hall)` gives no move: `(not (= ?from ?to))`.
    let domain = parse_domain("rooms.pddl", ROOMS).unwrap();
    let problem = parse_problem(&domain, "p.pddl", ROOMS_PROBLEM).unwrap();
    let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
    assert!(!task
        .operators
        .iter()
        .any(|o| o.name == "move bot hall hall"));
    assert!(!task.operators.iter().any(|o| o.name == "unlock bot hall"));
    assert!(task.operators.iter().any(|o| o.name == "unlock bot r2"));
}

#[test]
fn an_unreachable_goal_is_an_outcome() {
    let problem = ROOMS_PROBLEM.replace("(visited r2)", "(door r2 hall)");
    for direction in [Direction::Forward, Direction::Regression] {
        let config = PlannerConfig {
            direction,
            ..PlannerConfig::default()
        };
        let s = solve_text(ROOMS, &problem, &config, &PddlOptions::default()).unwrap();
        assert!(s.grounding.unsolvable);
        assert_eq!(s.report.outcome, PlanOutcome::Unsolvable);
    }
}

/// A road from `a` to `b` to `c`, and a `cheat` action whose preconditions
/// contradict each other: it needs `(at ?x)` both true and false.
const ROAD: &str = "(define (domain road) (:requirements :strips :negative-preconditions)
  (:predicates (at ?x) (road ?x ?y) (won))
  (:action go :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y))
    :effect (and (at ?y) (not (at ?x))))
  (:action cheat :parameters (?x) :precondition (and (at ?x) (not (at ?x)))
    :effect (won)))";

/// A task of `objects` facts `(done o_i)`, all of them goals, that one
/// `finish` makes true; with `mark`, one operator per fact besides.
fn wide_task(objects: usize, mark: bool) -> (String, String) {
    let mark = if mark {
        "(:action mark :parameters (?x - obj) :effect (done ?x))"
    } else {
        ""
    };
    let domain = format!(
        "(define (domain wide) (:requirements :adl :typing) (:types obj)
  (:predicates (done ?x - obj))
  (:action finish :parameters () :effect (forall (?x - obj) (done ?x))) {mark})"
    );
    let names: Vec<String> = (0..objects).map(|i| format!("o{i}")).collect();
    let problem = format!(
        "(define (problem p) (:domain wide) (:objects {} - obj) (:init)
  (:goal (forall (?x - obj) (done ?x))))",
        names.join(" ")
    );
    (domain, problem)
}

#[test]
fn tasks_wider_than_4096_facts_plan() {
    let (domain, problem) = wide_task(4200, false);
    // `h^2` on 4,200 facts (for packing and regression's pruning) takes
    // seconds in a debug build.
    let options = PddlOptions {
        mutexes: false,
        packing: false,
        ..PddlOptions::default()
    };
    for direction in [Direction::Forward, Direction::Regression] {
        let config = tests::planner_config(direction, Algorithm::AStar, heuristic("hmax"));
        let solved = solve_text(&domain, &problem, &config, &options)
            .unwrap_or_else(|e| panic!("{direction:?}: {e}"));
        assert_eq!(solved.grounding.facts, 4200);
        assert_eq!(solved.words, 128);
        assert_eq!(
            solved.plan_text().as_deref(),
            Some("(finish)\n; cost = 1 (unit cost)\n")
        );
    }
    let task = ground(
        &parse_domain("d", &domain).unwrap(),
        &parse_problem(&parse_domain("d", &domain).unwrap(), "p", &problem).unwrap(),
        GroundingLimits::default(),
    )
    .unwrap();
    assert_eq!(GroundedTask::new(&task).unwrap().words(), 128);
}

#[test]
fn a_wide_task_larger_than_the_memory_limit_is_a_limit() {
    // 4,201 operators of four 1 KiB masks: more than 8 MiB, which
    // grounding itself stays within.
    let (domain, problem) = wide_task(4200, true);
    let mut config = tests::planner_config(Direction::Forward, Algorithm::AStar, heuristic("hmax"));
    config.limits.max_memory_bytes = Some(8 << 20);
    let error = solve_text(&domain, &problem, &config, &PddlOptions::default()).unwrap_err();
    assert_eq!(error.limit(), Some(search_core::Limit::Memory), "{error}");
}

fn road_problem(goal: &str) -> String {
    format!(
        "(define (problem p) (:domain road) (:objects a b c)
  (:init (at a) (road a b) (road b c)) (:goal {goal}))"
    )
}

const EVERY_DIRECTION: [Direction; 4] = [
    Direction::Forward,
    Direction::Regression,
    Direction::Portfolio,
    Direction::Bidirectional,
];

/// Solves the road task `problem` in every direction with each of
/// `heuristics`, asserting that each finds it unsolvable.
fn solve_everywhere(problem: &str, heuristics: &[NamedHeuristic]) -> Vec<PddlSolution> {
    let mut solutions = Vec::new();
    for direction in EVERY_DIRECTION {
        for heuristic in heuristics {
            let config = PlannerConfig {
                direction,
                heuristic: heuristic.clone(),
                ..PlannerConfig::default()
            };
            let s = solve_text(ROAD, problem, &config, &PddlOptions::default()).unwrap();
            assert_eq!(
                s.report.outcome,
                PlanOutcome::Unsolvable,
                "{direction:?} {heuristic:?}"
            );
            assert!(s.plan.is_none());
            solutions.push(s);
        }
    }
    solutions
}

#[test]
fn a_contradictory_goal_is_unsolvable_in_every_direction() {
    let problem = road_problem("(and (at c) (not (at c)))");
    for s in solve_everywhere(
        &problem,
        &[heuristic("blind"), heuristic("hmax"), heuristic("ff")],
    ) {
        assert!(s.grounding.unsolvable);
    }
    // The validator refuses the plan that reaches `(at c)`, and the empty
    // plan, whose final state has `(not (at c))`.
    let domain = ("road.pddl", ROAD);
    let task = ("p.pddl", problem.as_str());
    for plan in ["(go a b)\n(go b c)\n", ""] {
        let error = planners::pddl::validate_text(domain, task, ("plan", plan)).unwrap_err();
        assert!(error.to_string().contains("invalid plan"), "{error}");
    }
    // A ground task built by hand with that goal is refused.
    let dom = parse_domain("road.pddl", ROAD).unwrap();
    let prob = parse_problem(&dom, "p.pddl", &road_problem("(at c)")).unwrap();
    let mut by_hand = ground(&dom, &prob, GroundingLimits::default()).unwrap();
    by_hand.goal_false = by_hand.goal.clone();
    let error = GroundedTask::new(&by_hand).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the goal wants fact `(at c)` both true and false"
    );
    // The same goal without the contradiction is solved.
    let config = PlannerConfig::default();
    let s = solve_text(
        ROAD,
        &road_problem("(at c)"),
        &config,
        &PddlOptions::default(),
    )
    .unwrap();
    assert_eq!(s.plan.map(|p| p.cost()), Some(2));
}

#[test]
fn an_action_with_contradictory_preconditions_never_applies() {
    let problem = road_problem("(won)");
    solve_everywhere(&problem, &[heuristic("blind"), heuristic("hmax")]);
    // Grounding drops every `cheat`; a plan that names one is refused.
    let dom = parse_domain("road.pddl", ROAD).unwrap();
    let prob = parse_problem(&dom, "p.pddl", &problem).unwrap();
    let task = ground(&dom, &prob, GroundingLimits::default()).unwrap();
    assert!(!task.operators.iter().any(|o| o.name.starts_with("cheat")));
    let error = planners::pddl::validate_text(
        ("road.pddl", ROAD),
        ("p.pddl", &problem),
        ("plan", "(cheat a)\n"),
    )
    .unwrap_err();
    assert!(
        error.to_string().contains("`(cheat a)` is not an action"),
        "{error}"
    );
    // A task built by hand with such an operator gets no such action.
    let mut by_hand = task.clone();
    by_hand.facts = vec!["(at a)".into(), "(won)".into()];
    by_hand.init = vec![0];
    by_hand.goal = vec![1];
    by_hand.goal_false = vec![];
    by_hand.operators = vec![planners::pddl::GroundOperator {
        name: "cheat a".into(),
        pre: vec![0],
        neg_pre: vec![0],
        add: vec![1],
        del: vec![],
        effects: vec![],
        cost: 1,
        numeric: None,
    }];
    let grounded = GroundedTask::new(&by_hand).unwrap();
    let plan = IpcPlan::parse("plan", "(cheat a)\n").unwrap();
    assert!(grounded.validate(&plan).is_err());
    for direction in EVERY_DIRECTION {
        let config = PlannerConfig {
            direction,
            ..PlannerConfig::default()
        };
        let outcome = grounded.visit(Outcome(&config));
        assert_eq!(outcome, "unsolvable", "{direction:?}");
    }
}

/// Plans on a grounded task of any width and names the outcome.
struct Outcome<'c>(&'c PlannerConfig);

impl planners::pddl::TaskVisitor for Outcome<'_> {
    type Output = &'static str;
    fn visit<B: state_atomic::Bits>(self, task: &planners::pddl::Task<B>) -> &'static str {
        let report = planners::Planner::new(self.0.clone())
            .plan(task, &task.start(), &task.goal())
            .unwrap();
        report.outcome.name()
    }
}

/// Where `needle` first occurs in `text`.
fn locate(text: &str, needle: &str) -> Location {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not in the text"));
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    Location {
        line: u32::try_from(line).unwrap(),
        column: u32::try_from(column).unwrap(),
    }
}

/// Checks that `result` failed at `at` with a message containing `words`.
fn expect_error<T: std::fmt::Debug>(result: Result<T, PddlError>, at: Location, words: &[&str]) {
    let error = result.expect_err("an error");
    assert_eq!(error.location(), Some(at), "{error}");
    let message = error.to_string();
    for w in words {
        assert!(message.contains(w), "`{message}` lacks `{w}`");
    }
}

/// A domain text that fails where `needle` first occurs.
fn domain_error(text: &str, needle: &str, words: &[&str]) {
    expect_error(
        parse_domain("bad.pddl", text),
        locate(text, needle),
        &[&["bad.pddl:"], words].concat(),
    );
}

#[test]
#[expect(clippy::too_many_lines, reason = "one table of malformed domains")]
fn malformed_domains_give_located_errors() {
    domain_error(
        "(define (domain d)\n  (:predicates (p ?x))",
        "(define",
        &["unbalanced `(`"],
    );
    expect_error(
        parse_domain("bad.pddl", "(define (domain d))\n)"),
        Location { line: 2, column: 1 },
        &["unbalanced `)`"],
    );
    expect_error(
        parse_domain("bad.pddl", ""),
        Location { line: 1, column: 1 },
        &["empty"],
    );
    domain_error(
        "(define (domain d) (:types a)\n (:predicates (p ?x - b)))",
        "b)",
        &["undefined type `b`"],
    );
    domain_error(
        "(define (domain d) (:predicates (p ?x))\n (:action a :parameters (?x) :precondition (q ?x) :effect (p ?x)))",
        "q ?x", &["undefined predicate `q`"],
    );
    domain_error(
        "(define (domain d) (:predicates (p ?x))\n (:action a :parameters (?x) :precondition (p ?y) :effect (p ?x)))",
        "?y", &["undefined variable `?y`"],
    );
    domain_error(
        "(define (domain d) (:predicates (p ?x))\n (:action a :parameters (?x) :precondition (p ?x) :effect (p c)))",
        "c)", &["undefined object `c`"],
    );
    domain_error(
        "(define (domain d) (:predicates (p ?x))\n (:action a :parameters (?x) :precondition (p ?x ?x) :effect (p ?x)))",
        "p ?x ?x", &["`p` takes 1 argument(s), 2 given"],
    );
    domain_error(
        "(define (domain d) (:predicates (p ?x) (p ?y)))",
        "p ?y",
        &["predicate `p` is declared twice"],
    );
    domain_error(
        "(define (domain d) (:predicates (p))\n (:action a :parameters (?x ?x) :effect (p)))",
        "?x)",
        &["variable `?x` is declared twice"],
    );
    domain_error(
        "(define (domain d) (:requirements :strips\n  :teleportation))",
        ":teleportation",
        &["unknown requirement `:teleportation`"],
    );
    let action = |pre: &str, eff: &str| {
        format!("(define (domain d) (:predicates (p ?x) (q))\n(:action a :parameters (?x) :precondition {pre} :effect {eff}))")
    };
    // ADL: errors inside quantifiers and conditional effects are located.
    domain_error(
        &action("(p ?x)", "(forall (?y) (p ?y ?y))"),
        "p ?y ?y",
        &["`p` takes 1 argument(s), 2 given"],
    );
    domain_error(
        &action("(p ?x)", "(when (q ?x) (p ?x))"),
        "q ?x",
        &["`q` takes 0 argument(s), 1 given"],
    );
    domain_error(
        &action("(p ?x)", "(and (p ?x) (increase (fuel) 1))"),
        "fuel",
        &["undefined function `fuel`"],
    );
    domain_error(
        &action("(p ?x)", "(and (p ?x) (increase (total-cost) 1))"),
        "total-cost) 1",
        &["undefined function `total-cost`"],
    );
    domain_error(
        &action("(or (p ?x) (r))", "(q)"),
        "r))",
        &["undefined predicate `r`"],
    );
    domain_error(
        &action("(exists (?y) (p ?z))", "(q)"),
        "?z",
        &["undefined variable `?z`"],
    );
    domain_error(
        &action("(> (f) 1)", "(q)"),
        "f)",
        &["undefined function `f`"],
    );
    // Numeric fluents: located errors for what the reader refuses.
    let numeric = |pre: &str, eff: &str| {
        format!("(define (domain d) (:requirements :numeric-fluents) (:predicates (p ?x) (q))\n(:functions (f) (g ?x))\n(:action a :parameters (?x) :precondition {pre} :effect {eff}))")
    };
    domain_error(
        "(define (domain d) (:requirements :numeric-fluents) (:predicates (p) (q))\n(:functions (f))\n(:derived (q) (> (f) 1)))",
        "(> (f) 1)",
        &["numeric comparison `>` in an axiom"],
    );
    domain_error(
        &numeric("(p ?x)", "(increase (f) (/ (g ?x) 0))"),
        "0))",
        &["division by zero"],
    );
    domain_error(
        &numeric("(p ?x)", "(scale-down (f) 0)"),
        "0)",
        &["`scale-down` by zero"],
    );
    domain_error(
        &numeric("(p ?x)", "(increase (f) two)"),
        "two",
        &["expected a number"],
    );
    domain_error(
        &numeric("(p ?x)", "(increase (f) (* 2))"),
        "* 2",
        &["`*` takes two or more"],
    );
    domain_error(
        &numeric("(p ?x)", "(when (q) (increase (total-cost) (f)))"),
        "increase",
        &["action cost inside `forall` or `when`"],
    );
    domain_error(
        "(define (domain d)\n (:functions (location ?x) - object))",
        "object))",
        &["unsupported function type `object`"],
    );
    domain_error(
        "(define (domain d)\n (:derived (p) (q)))",
        "p) (q",
        &["undefined predicate `p`"],
    );
    domain_error(
        "(define (domain d)\n (:durative-action a))",
        ":durative-action",
        &["durative actions"],
    );
    domain_error(
        "(define (domain d)\n (:frobnicate))",
        ":frobnicate",
        &["unknown domain section"],
    );
}

#[test]
fn malformed_problems_give_located_errors() {
    let domain = parse_domain(
        "d.pddl",
        "(define (domain d) (:requirements :typing) (:types block) (:predicates (on ?x ?y - block) (free)))",
    )
    .unwrap();
    let problem = |body: &str, needle: &str, words: &[&str]| {
        let text = format!("(define (problem p) (:domain d)\n{body})");
        expect_error(
            parse_problem(&domain, "bad.pddl", &text),
            locate(&text, needle),
            &[&["bad.pddl:"], words].concat(),
        );
    };
    problem(
        "(:objects a b - block) (:init (on a c)) (:goal (free))",
        "c)",
        &["undefined object `c`"],
    );
    problem(
        "(:objects a b - block) (:init (under a b)) (:goal (free))",
        "under",
        &["undefined predicate `under`"],
    );
    problem(
        "(:objects a b - block) (:init) (:goal (on a))",
        "on a)",
        &["`on` takes 2 argument(s), 1 given"],
    );
    problem(
        "(:objects a b - cube) (:init) (:goal (free))",
        "cube",
        &["undefined type `cube`"],
    );
    problem(
        "(:objects a a - block) (:init) (:goal (free))",
        "a -",
        &["object `a` is declared twice"],
    );
    problem(
        "(:objects a - block x) (:init (on a x)) (:goal (free))",
        "x))",
        &["`x` is not of type `block`"],
    );
    problem(
        "(:objects a - block) (:init) (:goal (on a ?b))",
        "?b",
        &["undefined variable `?b`"],
    );
    problem(
        "(:objects) (:init) (:goal (free)) (:metric minimize (total-cost))",
        "total-cost",
        &["undefined function `total-cost`"],
    );
    problem(
        "(:objects) (:init) (:goal (free)) (:metric maximize (total-cost))",
        ":metric",
        &["unsupported", ":metric"],
    );
    problem(
        "(:objects) (:init (= (fuel) 3)) (:goal (free))",
        "fuel",
        &["undefined function `fuel`"],
    );
    problem(
        "(:objects) (:init) (:goal (forall (?x) (on ?x ?y)))",
        "?y",
        &["undefined variable `?y`"],
    );
    let text = "(define (problem p)\n (:domain other) (:goal (free)))";
    expect_error(
        parse_problem(&domain, "bad.pddl", text),
        locate(text, "other"),
        &["domain `other`"],
    );
    expect_error(
        parse_problem(&domain, "bad.pddl", "(define (problem p) (:domain d))"),
        Location { line: 1, column: 1 },
        &["missing `(:goal"],
    );
}

fn small_task(domain: &str, task: &str) -> (String, String) {
    let dir = tests::pddl_benchmarks().join(domain);
    (read(&dir.join("domain.pddl")), read(&dir.join(task)))
}

#[test]
fn written_plans_parse_back_and_validate() {
    for (domain, task) in [
        ("blocks", "task01.pddl"),
        ("gripper", "task01.pddl"),
        ("depot", "task01.pddl"),
    ] {
        let (d, p) = small_task(domain, task);
        for direction in [Direction::Forward, Direction::Regression] {
            let config = PlannerConfig {
                direction,
                heuristic: heuristic("hmax"),
                ..PlannerConfig::default()
            };
            let solution = solve_text(&d, &p, &config, &PddlOptions::default()).unwrap();
            let text = solution.plan_text().unwrap();
            assert!(text.ends_with(&format!(
                "; cost = {} (unit cost)\n",
                solution.plan.as_ref().unwrap().cost()
            )));
            let back = IpcPlan::parse("plan.txt", &text).unwrap();
            assert_eq!(
                Some(
                    &back
                        .steps
                        .iter()
                        .map(|s| s.name.clone())
                        .collect::<Vec<_>>()
                ),
                solution
                    .plan
                    .as_ref()
                    .map(|p| p.steps.iter().map(|s| s.name.clone()).collect())
                    .as_ref()
            );
            let dom = parse_domain("d", &d).unwrap();
            let prob = parse_problem(&dom, "p", &p).unwrap();
            let grounded =
                GroundedTask::new(&ground(&dom, &prob, GroundingLimits::default()).unwrap())
                    .unwrap();
            assert_eq!(grounded.validate(&back).unwrap(), back.cost());
            // Dropping the first step breaks it, naming the step.
            let mut broken = back.clone();
            broken.steps.remove(0);
            assert!(grounded.validate(&broken).is_err());
            // An unknown step is located.
            let unknown = IpcPlan::parse("plan.txt", "(fly a b)\n").unwrap();
            let error = grounded.validate(&unknown).unwrap_err();
            assert_eq!(error.location(), Some(Location { line: 1, column: 1 }));
            assert!(error.to_string().starts_with("plan.txt:1:1:"));
        }
    }
}

#[test]
fn mutexes_are_sound_on_small_tasks() {
    // No state reachable by breadth-first enumeration holds a mutex pair.
    for (domain, task) in [
        ("blocks", "task01.pddl"),
        ("gripper", "task01.pddl"),
        ("miconic", "task02.pddl"),
    ] {
        let (d, p) = small_task(domain, task);
        let dom = parse_domain("d", &d).unwrap();
        let prob = parse_problem(&dom, "p", &p).unwrap();
        let task = ground(&dom, &prob, GroundingLimits::default()).unwrap();
        let mutexes = h2_mutexes(&task);
        assert!(mutexes.pairs() > 0, "{domain}");
        let n = task.facts.len();
        let start: Vec<bool> = (0..n)
            .map(|f| task.init.contains(&u32::try_from(f).unwrap()))
            .collect();
        let mut seen = std::collections::HashSet::from([start.clone()]);
        let mut queue = vec![start];
        while let Some(state) = queue.pop() {
            for p in 0..n {
                for q in 0..n {
                    assert!(
                        !(state[p] && state[q] && mutexes.are_mutex(p, q)),
                        "{domain}: {} {}",
                        task.facts[p],
                        task.facts[q]
                    );
                }
            }
            for op in &task.operators {
                if op.pre.iter().all(|&f| state[f as usize])
                    && op.neg_pre.iter().all(|&f| !state[f as usize])
                {
                    let mut next = state.clone();
                    for &f in &op.del {
                        next[f as usize] = false;
                    }
                    for &f in &op.add {
                        next[f as usize] = true;
                    }
                    if seen.insert(next.clone()) {
                        queue.push(next);
                    }
                }
            }
        }
    }
}
