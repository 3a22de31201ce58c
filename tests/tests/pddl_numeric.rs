//! Numeric PDDL (PDDL 2.1 numeric fluents): what grounding makes of
//! expressions, comparisons, effects and metrics, what it refuses, and
//! replaying plans with PDDL 2.1's semantics.
#![expect(
    clippy::float_cmp,
    reason = "the costs compared are sums of whole numbers and halves, exact in f64"
)]

use planners::pddl::{
    ground, parse_domain, parse_problem, replay, solve_files, solve_text, Comparison, GroundTask,
    GroundedTask, GroundingLimits, IpcPlan, NumericEffect, PddlError, PddlOptions,
};
use planners::{Direction, PlannerConfig};
use search_core::Algorithm;

fn grounded(domain: &str, problem: &str) -> Result<GroundTask, PddlError> {
    let domain = parse_domain("domain.pddl", domain)?;
    let problem = parse_problem(&domain, "problem.pddl", problem)?;
    ground(&domain, &problem, GroundingLimits::default())
}

const PLANES: &str = "(define (domain planes) (:requirements :typing :numeric-fluents)
  (:types plane city)
  (:predicates (at ?p - plane ?c - city))
  (:functions (fuel ?p - plane) (distance ?a ?b - city) (rate ?p - plane) (capacity ?p - plane)
              (flights) (total-fuel-used))
  (:action fly :parameters (?p - plane ?a ?b - city)
    :precondition (and (at ?p ?a) (>= (fuel ?p) (* (distance ?a ?b) (rate ?p))))
    :effect (and (not (at ?p ?a)) (at ?p ?b)
                 (decrease (fuel ?p) (* (distance ?a ?b) (rate ?p)))
                 (increase (flights) 1)
                 (increase (total-fuel-used) (* (distance ?a ?b) (rate ?p)))))
  (:action refuel :parameters (?p - plane)
    :precondition (< (fuel ?p) (capacity ?p))
    :effect (assign (fuel ?p) (capacity ?p))))";

fn planes_problem(metric: &str) -> String {
    format!(
        "(define (problem p) (:domain planes) (:objects p1 - plane a b - city)
  (:init (at p1 a) (= (fuel p1) 10) (= (rate p1) 2) (= (capacity p1) 12)
         (= (distance a b) 4) (= (distance b a) 4) (= (distance a a) 0) (= (distance b b) 0)
         (= (flights) 0) (= (total-fuel-used) 0))
  (:goal (at p1 b)) {metric})"
    )
}

#[test]
fn static_fluents_fold_into_linear_conditions_and_effects() {
    let task = grounded(PLANES, &planes_problem("")).unwrap();
    let numeric = task.numeric.as_deref().expect("a numeric task");
    // `flights` and `total-fuel-used` are never read: only `fuel` stays.
    assert_eq!(numeric.names, ["(fuel p1)"]);
    assert_eq!(numeric.init, [10.0]);
    assert_eq!(task.stats.fluents, 1);
    let fly = task
        .operators
        .iter()
        .find(|o| o.name == "fly p1 a b")
        .unwrap();
    let parts = fly.numeric.as_deref().unwrap();
    // fuel >= 4 * 2, as fuel - 8 >= 0.
    assert_eq!(parts.conditions.len(), 1);
    assert_eq!(parts.conditions[0].op, Comparison::Ge);
    assert_eq!(parts.conditions[0].expr.terms, [(0, 1.0)]);
    assert_eq!(parts.conditions[0].expr.constant, -8.0);
    assert_eq!(
        parts.effects,
        [NumericEffect::Increase {
            fluent: 0,
            by: planners::pddl::LinearExpr::constant(-8.0)
        }]
    );
    assert_eq!(fly.cost, 1, "no metric: each action costs 1");
    let plan = IpcPlan::parse("plan", "(fly p1 a b)\n").unwrap();
    assert_eq!(replay(&task, &plan).unwrap(), 1.0);
    // Flying back and forth needs a refuel in between.
    let there_and_back =
        IpcPlan::parse("plan", "(fly p1 a b)\n(fly p1 b a)\n(fly p1 a b)\n").unwrap();
    let error = replay(&task, &there_and_back).unwrap_err().to_string();
    assert!(
        error.contains("plan:2:1: `(fly p1 b a)` does not apply"),
        "{error}"
    );
    assert!(error.contains("(fuel p1) = 2"), "{error}");
}

#[test]
fn metrics_become_action_costs() {
    // A weighted sum of fluents actions only increase, and the plan length.
    let metric = "(:metric minimize (+ (* 3 (flights)) (total-fuel-used)))";
    let task = grounded(PLANES, &planes_problem(metric)).unwrap();
    assert!(task.action_costs);
    let cost = |name: &str| task.operators.iter().find(|o| o.name == name).unwrap().cost;
    assert_eq!(cost("fly p1 a b"), 3 + 8);
    assert_eq!(cost("refuel p1"), 0);
    let metric = "(:metric minimize (+ (total-time) (* 2 (total-fuel-used))))";
    let task = grounded(PLANES, &planes_problem(metric)).unwrap();
    let cost = |name: &str| task.operators.iter().find(|o| o.name == name).unwrap().cost;
    assert_eq!((cost("fly p1 a b"), cost("refuel p1")), (1 + 16, 1));
    let plan = IpcPlan::parse("plan", "(fly p1 a b)\n").unwrap();
    assert_eq!(replay(&task, &plan).unwrap(), 17.0);
}

#[test]
fn refusals_name_the_action_and_the_expression() {
    let domain = "(define (domain d) (:requirements :numeric-fluents)
  (:functions (x) (y) (total) (limit))
  (:action grow :parameters () :precondition (< (x) (limit)) :effect (assign (x) (* (x) (y))))
  (:action inc :parameters () :effect (and (increase (y) 1) (increase (total) 1))))";
    let problem = |extra: &str| {
        format!("(define (problem p) (:domain d) (:init (= (x) 1) (= (y) 2) (= (total) 0) (= (limit) 9)) (:goal (>= (x) 5)) {extra})")
    };
    let error = grounded(domain, &problem("")).unwrap_err().to_string();
    assert_eq!(
        error,
        "action `grow`: `(* (x) (y))` multiplies changing fluents (not linear)"
    );
    let domain_reading_metric =
        domain.replace("(assign (x) (* (x) (y)))", "(increase (x) (total))");
    let error = grounded(
        &domain_reading_metric,
        &problem("(:metric minimize (total))"),
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("reads `(total)`, the metric"), "{error}");
    let error = grounded(
        &domain_reading_metric,
        &problem("(:metric minimize (- 0 (y)))"),
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.starts_with("the metric: `(y)` has a negative weight"),
        "{error}"
    );
    let fractional = domain.replace(
        "(assign (x) (* (x) (y)))",
        "(and (increase (x) 1) (increase (total) 1.5))",
    );
    // Decimal costs are scaled to whole numbers: here tenths.
    let task = grounded(&fractional, &problem("(:metric minimize (total))")).unwrap();
    assert_eq!(task.cost_scale, 10);
    let grow = task.operators.iter().find(|o| o.name == "grow").unwrap();
    assert_eq!(grow.cost, 15);
    let plan = IpcPlan::parse("plan", &"(grow)\n".repeat(4)).unwrap();
    assert_eq!(replay(&task, &plan).unwrap(), 6.0, "the metric's value");
    // A quotient's decimals are unbounded: past six places, refused.
    let third = fractional.replace("(increase (total) 1.5)", "(increase (total) (/ 1 3))");
    let error = grounded(&third, &problem("(:metric minimize (total))"))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("more decimal places than searchlab keeps (6)"),
        "{error}"
    );
}

#[test]
fn undefined_values_drop_operators_or_are_refused() {
    // `(speed slow)` has no value: the operator reading it never applies.
    let domain = "(define (domain d) (:requirements :numeric-fluents)
  (:functions (pos) (speed ?s) (spare))
  (:action go :parameters (?s) :effect (increase (pos) (speed ?s))))";
    let task = grounded(
        domain,
        "(define (problem p) (:domain d) (:objects slow fast) (:init (= (pos) 0) (= (speed fast) 3))
          (:goal (>= (pos) 6)))",
    )
    .unwrap();
    let names: Vec<&str> = task.operators.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["go fast"]);
    // A changing fluent some action assigns but `:init` leaves undefined.
    let assigning = domain.replace("(increase (pos) (speed ?s))", "(assign (spare) (pos))");
    let error = grounded(
        &assigning,
        "(define (problem p) (:domain d) (:objects s) (:init (= (pos) 0)) (:goal (>= (spare) 6)))",
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("fluent `(spare)` has no value in `:init`"),
        "{error}"
    );
}

#[test]
fn decimals_compare_with_a_tolerance_and_disjunctions_stay_clauses() {
    let domain = "(define (domain d) (:requirements :numeric-fluents)
  (:functions (x) (y))
  (:action tenth :parameters () :effect (increase (x) 0.1))
  (:action fifth :parameters () :effect (increase (y) 0.2)))";
    let task = grounded(
        domain,
        "(define (problem p) (:domain d) (:init (= (x) 0) (= (y) 0))
          (:goal (and (= (+ (x) (y)) 0.3) (or (> (x) 5) (not (= (y) 0))))))",
    )
    .unwrap();
    let numeric = task.numeric.as_deref().unwrap();
    assert_eq!(numeric.goal.len(), 1);
    // `x > 5 or y != 0`, with `y != 0` as `y < 0 or y > 0`.
    assert_eq!(numeric.goal_clauses.len(), 1);
    assert_eq!(numeric.goal_clauses[0].len(), 3);
    let plan = IpcPlan::parse("plan", "(tenth)\n(fifth)\n").unwrap();
    assert_eq!(replay(&task, &plan).unwrap(), 2.0);
    let wrong = IpcPlan::parse("plan", "(tenth)\n(tenth)\n(tenth)\n").unwrap();
    let error = replay(&task, &wrong).unwrap_err().to_string();
    assert!(
        error.contains("the goal is not reached: none of"),
        "{error}"
    );
}

#[test]
fn static_comparisons_leave_a_strips_task_for_the_atomic_state() {
    let domain = "(define (domain d) (:requirements :numeric-fluents)
  (:predicates (at ?x) (road ?x ?y))
  (:functions (length ?x ?y))
  (:action go :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y) (<= (length ?x ?y) 5))
    :effect (and (at ?y) (not (at ?x)))))";
    let problem = "(define (problem p) (:domain d) (:objects a b c)
  (:init (at a) (road a b) (road a c) (road b c) (= (length a b) 2) (= (length a c) 9) (= (length b c) 3))
  (:goal (at c)))";
    let task = grounded(domain, problem).unwrap();
    assert!(task.numeric.is_none());
    let names: Vec<&str> = task.operators.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["go a b", "go b c"], "the long road is too long");
    assert!(GroundedTask::new(&task).is_ok());
    // A task whose fluents change is refused by the atomic state, by name.
    let numeric = grounded(
        "(define (domain d) (:functions (x)) (:action up :parameters () :effect (increase (x) 1)))",
        "(define (problem p) (:domain d) (:init (= (x) 0)) (:goal (>= (x) 2)))",
    )
    .unwrap();
    let error = GroundedTask::new(&numeric).err().unwrap().to_string();
    assert!(error.contains("1 changing numeric fluents"), "{error}");
}

/// Every task of the IPC 2023 numeric track's ten domains grounds (tpp's
/// costs in cents).
#[test]
fn the_ipc_2023_numeric_tasks_ground_or_are_refused_by_name() {
    let root = tests::pddl_numeric_benchmarks();
    let mut domains: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    domains.sort();
    assert_eq!(domains.len(), 10);
    for dir in domains {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let domain_text = std::fs::read_to_string(dir.join("domain.pddl")).unwrap();
        // The first and a mid-sized task of each: all twenty are the suite's.
        for instance in [1, 5] {
            let problem_text =
                std::fs::read_to_string(dir.join(format!("instances/instance-{instance}.pddl")))
                    .unwrap();
            let task = grounded(&domain_text, &problem_text).unwrap();
            let numeric = task.numeric.as_deref().unwrap_or_else(|| panic!("{name}"));
            assert!(!numeric.names.is_empty(), "{name}");
            assert!(!task.stats.unsolvable, "{name} {instance}");
            assert_eq!(
                task.cost_scale,
                if name == "tpp" { 100 } else { 1 },
                "{name}"
            );
        }
    }
}

/// Solves the `instance`-th task of `domain` with `algorithm` and
/// `heuristic`: the plan's cost in the metric's units (plans are replayed
/// on the ground task before they are returned).
fn solve_numeric(domain: &str, instance: u32, algorithm: Algorithm, heuristic: &str) -> f64 {
    solve_numeric_in(Direction::Forward, domain, instance, algorithm, heuristic)
}

/// [`solve_numeric`] in `direction`.
fn solve_numeric_in(
    direction: Direction,
    domain: &str,
    instance: u32,
    algorithm: Algorithm,
    heuristic: &str,
) -> f64 {
    let dir = tests::pddl_numeric_benchmarks().join(domain);
    let config = PlannerConfig {
        direction,
        algorithm,
        heuristic: planners::heuristics::heuristic(heuristic).unwrap(),
        ..PlannerConfig::default()
    };
    let problem = dir.join(format!("instances/instance-{instance}.pddl"));
    let solution = solve_files(&dir.join("domain.pddl"), &problem, &config).unwrap();
    let plan = solution
        .report
        .plan()
        .unwrap_or_else(|| panic!("{domain} {instance}: no plan"));
    #[expect(clippy::cast_precision_loss, reason = "small costs")]
    let cost = plan.cost as f64 / f64::from(solution.cost_scale);
    cost
}

/// The first task of each IPC 2023 numeric domain that A* with `hrmax`
/// solves quickly, at ENHSP's optimal cost (`benchmarks/pddl-numeric/
/// enhsp-costs.tsv`: opt-hrmax and opt-blind, ENHSP 0.1.1).
#[test]
fn the_first_numeric_tasks_are_solved_at_enhsps_optimal_costs() {
    for (domain, enhsp) in [
        ("counters", 12.0),
        ("drone", 4.0),
        ("farmland", 341.0),
        ("fo-counters", 2.0),
        ("sailing", 174.0),
        ("zenotravel", 5952.0),
    ] {
        let cost = solve_numeric(domain, 1, Algorithm::AStar, "hrmax");
        assert!(
            (cost - enhsp).abs() < 1e-9,
            "{domain}: {cost}, ENHSP {enhsp}"
        );
    }
    // tpp's costs depend on the state (what is bought): ENHSP reports
    // 2012.93 (opt-blind) and 2283.93 (opt-hrmax); the plan searchlab finds
    // costs 1833.00 under PDDL 2.1's semantics (the cost reads the state the
    // action starts in), checked by replaying it.
    let cost = solve_numeric("tpp", 1, Algorithm::AStar, "hrmax");
    assert!((cost - 1833.0).abs() < 1e-9, "tpp: {cost}");
    // Satisficing: block-grouping (ENHSP's sat-hmrp: 20) and sugar (which
    // ENHSP did not solve in 60 s), by lazy greedy search with hmrp.
    for domain in ["block-grouping", "sugar"] {
        let cost = solve_numeric(domain, 1, Algorithm::LazyGreedy, "hmrp");
        assert!(cost > 0.0, "{domain}");
    }
}

/// Regression searches numeric tasks whose numbers stay whole (exact
/// integer arithmetic), at the forward optimal costs, with `hrmax` costed
/// from the start; a task with fractional numbers is refused by name.
#[test]
fn regression_solves_whole_number_tasks_at_the_forward_costs() {
    for (domain, instance, cost) in [
        ("counters", 1, 12.0),
        ("counters", 2, 7.0),
        ("drone", 1, 4.0),
        ("drone", 2, 10.0),
        ("fo-counters", 1, 2.0),
        ("fo-counters", 2, 5.0),
    ] {
        for heuristic in ["hrmax", "blind"] {
            if heuristic == "blind" && (domain, instance) == ("counters", 1) {
                continue; // blind regression needs a million subgoals there
            }
            let found = solve_numeric_in(
                Direction::Regression,
                domain,
                instance,
                Algorithm::AStar,
                heuristic,
            );
            assert_eq!(found, cost, "{domain} {instance} {heuristic}");
        }
    }
    // farmland's goal weighs a fluent by 1.7: f64 arithmetic, which
    // regression does not carry.
    let dir = tests::pddl_numeric_benchmarks().join("farmland");
    let config = PlannerConfig {
        direction: Direction::Regression,
        ..PlannerConfig::default()
    };
    let error = solve_files(
        &dir.join("domain.pddl"),
        &dir.join("instances/instance-1.pddl"),
        &config,
    )
    .map(|_| ())
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("regression cannot use linear condition `(x farm0) + 1.7 * (x farm1) - 840 >= 0` of the goal (f64 arithmetic)"),
        "{error}"
    );
}

/// A heuristic written once against `TaskView` (the one-condition-left
/// test: 1 while a condition fails, admissible with unit costs) runs on a
/// numeric PDDL task unchanged, in both directions.
#[test]
fn a_researchers_own_heuristic_runs_on_numeric_pddl() {
    use planners::heuristics::{HeuristicFactory, NamedHeuristic, TaskView};
    use planners::BoxedHeuristic;

    struct Unfinished;
    impl HeuristicFactory for Unfinished {
        fn forward<'a, T: TaskView>(
            &self,
            task: &'a T,
            _start: &'a T::State,
            goal: &'a T::Goal,
        ) -> Option<BoxedHeuristic<'a, T::State>> {
            Some(Box::new(move |state: &T::State| {
                let mut failed = 0;
                task.unmet_goal(goal, state, |_| failed = 1);
                failed
            }))
        }

        fn regression<'a, T: TaskView>(
            &self,
            task: &'a T,
            start: &'a T::State,
            _goal: &'a T::Goal,
        ) -> Option<BoxedHeuristic<'a, T::Subgoal>> {
            Some(Box::new(move |subgoal: &T::Subgoal| {
                let mut failed = 0;
                task.unmet_subgoal(start, subgoal, |_| failed = 1);
                failed
            }))
        }
    }

    let heuristic = NamedHeuristic::builder("unfinished", "1 while a condition fails")
        .generic(Unfinished)
        .build();
    let dir = tests::pddl_numeric_benchmarks().join("counters");
    for direction in [Direction::Forward, Direction::Regression] {
        let config = PlannerConfig {
            direction,
            heuristic: heuristic.clone(),
            ..PlannerConfig::default()
        };
        let solution = solve_files(
            &dir.join("domain.pddl"),
            &dir.join("instances/instance-2.pddl"),
            &config,
        )
        .unwrap();
        assert_eq!(
            solution.report.plan().map(|p| p.cost),
            Some(7),
            "{direction}"
        );
    }
}

const TANK: &str = "(define (domain tank) (:requirements :numeric-fluents :conditional-effects)
  (:predicates (full) (alarm))
  (:functions (water) (overflow))
  (:action pour :parameters ()
    :effect (and (increase (water) 3)
                 (when (>= (water) 5) (and (full) (increase (overflow) 1)))
                 (when (= (water) 3) (alarm)))))";

const TANK_PROBLEM: &str = "(define (problem p) (:domain tank)
  (:init (= (water) 0) (= (overflow) 0))
  (:goal (and (full) (>= (overflow) 2) (alarm))))";

/// `when` with numeric conditions (`=` among them) and numeric effects:
/// variants that split on the condition and its negation, searched in
/// both directions at the cost a hand replay gives, and replayed.
#[test]
fn numeric_conditional_effects_fire_where_their_condition_holds() {
    let task = grounded(TANK, TANK_PROBLEM).unwrap();
    let pours = task.operators.iter().filter(|o| o.name == "pour").count();
    assert!(
        pours >= 3,
        "one variant per way the conditions fall: {pours}"
    );
    // 0 -> 3 -> 6 (the alarm: 3 before) -> 9 (full, 1) -> 12 (2).
    let plan = |n: usize| IpcPlan::parse("plan", &"(pour)\n".repeat(n)).unwrap();
    assert_eq!(replay(&task, &plan(4)).unwrap(), 4.0);
    let short = replay(&task, &plan(3)).unwrap_err().to_string();
    assert!(short.contains("goal"), "{short}");
    for direction in [Direction::Forward, Direction::Regression] {
        let config = PlannerConfig {
            direction,
            heuristic: planners::heuristics::heuristic("blind").unwrap(),
            ..PlannerConfig::default()
        };
        let solution = solve_text(TANK, TANK_PROBLEM, &config, &PddlOptions::default()).unwrap();
        let found = solution.report.plan().expect("a plan");
        assert_eq!(found.cost, 4, "{direction:?}");
    }
}

/// A `forall` of numeric effects: one effect per binding, increases of
/// one fluent summed into one.
#[test]
fn numeric_effects_under_forall_are_summed_per_fluent() {
    let domain = "(define (domain fill) (:requirements :typing :numeric-fluents)
      (:types tank)
      (:functions (level ?t - tank) (total))
      (:action fill-all :parameters ()
        :effect (forall (?t - tank) (and (increase (level ?t) 2) (increase (total) 1)))))";
    let problem = "(define (problem p) (:domain fill) (:objects a b c - tank)
      (:init (= (level a) 0) (= (level b) 1) (= (level c) 0) (= (total) 0))
      (:goal (and (>= (total) 6) (>= (level b) 5))))";
    let task = grounded(domain, problem).unwrap();
    let [fill] = &task.operators[..] else {
        panic!("one operator: {:?}", task.operators);
    };
    let numeric = task.numeric.as_deref().unwrap();
    let total = numeric.names.iter().position(|n| n == "(total)").unwrap();
    let effects = &fill.numeric.as_deref().unwrap().effects;
    let on_total: Vec<_> = effects
        .iter()
        .filter(|e| e.fluent() as usize == total)
        .collect();
    match on_total[..] {
        [NumericEffect::Increase { by, .. }] => {
            assert!(by.is_constant() && by.constant == 3.0, "{by:?}");
        }
        _ => panic!("one increase of `(total)`: {effects:?}"),
    }
    let plan = IpcPlan::parse("plan", "(fill-all)\n(fill-all)\n").unwrap();
    assert_eq!(replay(&task, &plan).unwrap(), 2.0);
}

/// An effect that reads an undefined value makes its action inapplicable
/// where it fires, and only there; an assignment and another change of
/// one fluent in one step are refused by name.
#[test]
fn conditional_numeric_effects_that_cannot_apply_or_clash() {
    let domain = |effect: &str| {
        format!(
            "(define (domain d) (:requirements :numeric-fluents :conditional-effects)
              (:predicates (p))
              (:functions (x) (rate))
              (:action set :parameters () :effect (p))
              (:action a :parameters () :effect (and {effect})))"
        )
    };
    let problem = "(define (problem q) (:domain d) (:init (= (x) 0)) (:goal (>= (x) 2)))";
    let undefined = domain("(increase (x) 1) (when (p) (increase (x) (rate)))");
    let task = grounded(&undefined, problem).unwrap();
    let a: Vec<_> = task.operators.iter().filter(|o| o.name == "a").collect();
    let p = task
        .facts
        .iter()
        .position(|f| f == "(p)")
        .unwrap_or_else(|| panic!("{:?}", task.facts));
    let p = u32::try_from(p).unwrap();
    assert!(
        matches!(&a[..], [o] if o.neg_pre == [p]),
        "only where `(p)` is false: {a:?}"
    );
    let clash = domain("(assign (x) 1) (when (p) (increase (x) 1))");
    let error = grounded(&clash, problem).unwrap_err().to_string();
    assert!(
        error.contains("action `a`") && error.contains("changes `(x)` twice in one step"),
        "{error}"
    );
}

/// A decimal increase of `total-cost` is a cost like a metric's: scaled
/// to whole numbers in a numeric domain, refused by name without numeric
/// fluents (IPC's `:action-costs` are whole).
#[test]
fn decimal_total_cost_increases_are_scaled_or_refused() {
    let domain = "(define (domain dec) (:requirements :numeric-fluents :action-costs)
      (:functions (x) (total-cost))
      (:action small :parameters () :effect (and (increase (x) 1) (increase (total-cost) 1.25)))
      (:action big :parameters () :effect (and (increase (x) 3) (increase (total-cost) 4))))";
    let problem = "(define (problem p) (:domain dec) (:init (= (x) 0) (= (total-cost) 0))
      (:goal (>= (x) 3)) (:metric minimize (total-cost)))";
    let task = grounded(domain, problem).unwrap();
    assert_eq!(task.cost_scale, 100);
    let solution = solve_text(
        domain,
        problem,
        &PlannerConfig::default(),
        &PddlOptions::default(),
    )
    .unwrap();
    // Three small steps (3.75) beat one big one (4).
    assert_eq!(solution.report.plan().map(|p| p.cost), Some(375));
    assert_eq!(solution.cost_scale, 100);
    let plan = IpcPlan::parse("plan", "(small)\n(small)\n(small)\n").unwrap();
    assert_eq!(replay(&task, &plan).unwrap(), 3.75);

    // Without `:numeric-fluents` the cost is read as IPC's `:action-costs`
    // reads it: a located error.
    let strips = |requirements: &str| {
        format!(
            "(define (domain s) (:requirements :strips :action-costs{requirements})
      (:predicates (a) (b)) (:functions (total-cost))
      (:action go :parameters () :precondition (a) :effect (and (b) (increase (total-cost) 1.5))))"
        )
    };
    let problem = "(define (problem p) (:domain s) (:init (a) (= (total-cost) 0)) (:goal (b))
      (:metric minimize (total-cost)))";
    let error = grounded(&strips(""), problem).unwrap_err().to_string();
    assert!(
        error.starts_with("domain.pddl:3:") && error.contains("cost `1.5` is not an integer"),
        "{error}"
    );
    // Declared but unused, numeric fluents leave a task without them:
    // refused at grounding, naming the action.
    let error = grounded(&strips(" :numeric-fluents"), problem)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("action `go`") && error.contains("costs 1.5: without numeric fluents"),
        "{error}"
    );
}

/// A goal's disjunction of comparisons (a clause, as IPC 2023's
/// block-grouping writes) is part of the goal test: a plan that reaches
/// the rest of the goal but no part of the clause is not a plan. Forward
/// search honours it with every heuristic (which count the clause 0, so
/// admissible ones stay admissible); regression refuses it by name.
#[test]
fn goal_clauses_are_part_of_the_goal() {
    let domain = "(define (domain xy) (:requirements :numeric-fluents)
      (:functions (x) (y))
      (:action incx :parameters () :effect (increase (x) 1))
      (:action incy :parameters () :effect (increase (y) 1)))";
    let problem = "(define (problem p) (:domain xy) (:init (= (x) 0) (= (y) 0))
      (:goal (and (>= (+ (x) (y)) 1) (or (>= (x) 3) (>= (y) 3)))))";
    let task = grounded(domain, problem).unwrap();
    assert_eq!(task.numeric.as_deref().unwrap().goal_clauses.len(), 1);
    for (algorithm, h) in [
        (Algorithm::AStar, "blind"),
        (Algorithm::AStar, "hrmax"),
        (Algorithm::AStar, "counting"),
        (Algorithm::GreedyBestFirst, "hmrp"),
        (Algorithm::LazyGreedy, "hmrp"),
    ] {
        let config = PlannerConfig {
            algorithm,
            heuristic: planners::heuristics::heuristic(h).unwrap(),
            ..PlannerConfig::default()
        };
        let solution = solve_text(domain, problem, &config, &PddlOptions::default())
            .unwrap_or_else(|e| panic!("{algorithm} {h}: {e}"));
        let plan = solution.plan.expect("a plan");
        assert_eq!(replay(&task, &plan).unwrap(), 3.0, "{algorithm} {h}");
    }
    let regression = PlannerConfig {
        direction: Direction::Regression,
        ..PlannerConfig::default()
    };
    let error = solve_text(domain, problem, &regression, &PddlOptions::default())
        .map(|_| ())
        .unwrap_err();
    assert!(error.is_unsupported(), "{error}");
    assert!(error.to_string().contains("goal clause"), "{error}");
}

/// The order of a numeric task's `:init` (facts and fluent values),
/// objects and actions changes no search: fluents are numbered by name as
/// facts and operators are (counters' were numbered as met before), so
/// every search below expands the same states and returns the same plan
/// on every shuffling.
#[test]
fn the_order_of_a_numeric_file_changes_no_search() {
    use tests::shuffle::{actions_shuffled, shuffled};
    let (forward, regression) = (Direction::Forward, Direction::Regression);
    let configs = [
        (forward, Algorithm::AStar, "hrmax"),
        (forward, Algorithm::AStar, "counting"),
        (forward, Algorithm::GreedyBestFirst, "hmrp"),
        (forward, Algorithm::LazyGreedy, "hmrp"),
        (regression, Algorithm::AStar, "hrmax"),
    ];
    for (name, instance) in [("counters", 1), ("drone", 1), ("zenotravel", 1)] {
        let dir = tests::pddl_numeric_benchmarks().join(name);
        let read = |path: std::path::PathBuf| std::fs::read_to_string(path).unwrap();
        let domain = read(dir.join("domain.pddl"));
        let problem = read(dir.join(format!("instances/instance-{instance}.pddl")));
        let names = |problem: &str| grounded(&domain, problem).unwrap().numeric.unwrap().names;
        for seed in 1..3 {
            assert_eq!(names(&shuffled(&problem, seed)), names(&problem), "{name}");
        }
        for (direction, algorithm, heuristic) in configs {
            if direction == regression && name == "zenotravel" {
                continue; // fractional numbers: regression refuses it
            }
            let config = PlannerConfig {
                direction,
                algorithm,
                heuristic: planners::heuristics::heuristic(heuristic).unwrap(),
                ..PlannerConfig::default()
            };
            let what = format!("{name} {instance} {direction:?} {algorithm:?} {heuristic}");
            let run = |domain: &str, problem: &str| {
                let s = solve_text(domain, problem, &config, &PddlOptions::default())
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let plan = s.plan.as_ref().map(IpcPlan::to_ipc_string);
                (s.report.stats().expanded, plan)
            };
            let expected = run(&domain, &problem);
            assert!(expected.1.is_some(), "{what}");
            for seed in 1..3 {
                let again = run(&actions_shuffled(&domain, seed), &shuffled(&problem, seed));
                assert_eq!(again, expected, "{what}, shuffle {seed}");
            }
        }
    }
}
