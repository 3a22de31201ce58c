//! Search on PDDL tasks: optimal costs agree across algorithms and
//! directions (Dijkstra computes the reference), every configuration's plan
//! validates, mutex pruning prunes.

use planners::heuristics::NamedHeuristic;
use planners::pddl::{solve_text, IpcPlan, PddlOptions, PddlSolution};
use planners::{Direction, PlannerConfig};
use search_core::{Algorithm, SearchLimits};
use tests::heuristic;
use tests::shuffle::{actions_shuffled, shuffled};

fn read(domain: &str, file: &str) -> String {
    let path = tests::pddl_benchmarks().join(domain).join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn solve(
    domain: &str,
    problem: &str,
    config: &PlannerConfig,
    options: &PddlOptions,
) -> PddlSolution {
    solve_text(domain, problem, config, options).unwrap_or_else(|e| panic!("{e}"))
}

fn config(direction: Direction, algorithm: Algorithm, heuristic: NamedHeuristic) -> PlannerConfig {
    PlannerConfig {
        direction,
        algorithm,
        heuristic,
        limits: SearchLimits {
            max_expansions: Some(2_000_000),
            ..SearchLimits::default()
        },
    }
}

/// The plan's cost, after checking that its IPC text reads back the same.
fn cost(s: &PddlSolution, what: &str) -> u64 {
    let plan = s
        .plan
        .as_ref()
        .unwrap_or_else(|| panic!("{what}: {:?}", s.report.outcome));
    let back = IpcPlan::parse("plan", &plan.to_ipc_string()).unwrap();
    assert_eq!(back.names(), plan.names(), "{what}");
    assert_eq!(
        s.report.outcome.plan().map(|p| p.cost),
        Some(plan.cost()),
        "{what}"
    );
    plan.cost()
}

/// A small logistics task on the benchmark domain: one package from one
/// city to the other (the benchmark's smallest tasks are too big for a
/// debug-mode Dijkstra).
const LOGISTICS_SMALL: &str = "(define (problem logistics-small) (:domain logistics)
 (:objects apn1 - airplane apt1 apt2 - airport pos1 pos2 - location cit1 cit2 - city
           tru1 tru2 - truck obj1 - package)
 (:init (at apn1 apt2) (at tru1 pos1) (at tru2 apt2) (at obj1 pos1)
        (in-city pos1 cit1) (in-city apt1 cit1) (in-city pos2 cit2) (in-city apt2 cit2))
 (:goal (at obj1 pos2)))";

/// A small elevators task on the benchmark domain.
const ELEVATORS_SMALL: &str = "(define (problem elevators-small) (:domain elevators-sequencedstrips)
 (:objects n0 n1 n2 n3 - count p0 p1 - passenger fast0 - fast-elevator slow0-0 - slow-elevator)
 (:init (next n0 n1) (next n1 n2) (next n2 n3)
        (above n0 n1) (above n0 n2) (above n0 n3) (above n1 n2) (above n1 n3) (above n2 n3)
        (lift-at fast0 n0) (passengers fast0 n0) (can-hold fast0 n1)
        (reachable-floor fast0 n0) (reachable-floor fast0 n2)
        (lift-at slow0-0 n1) (passengers slow0-0 n0) (can-hold slow0-0 n1) (can-hold slow0-0 n2)
        (reachable-floor slow0-0 n0) (reachable-floor slow0-0 n1) (reachable-floor slow0-0 n2) (reachable-floor slow0-0 n3)
        (passenger-at p0 n3) (passenger-at p1 n2))
 (:goal (and (passenger-at p0 n0) (passenger-at p1 n3))))";

#[test]
fn optimal_costs_agree_in_both_directions_on_every_domain() {
    let tasks: Vec<(&str, String)> = vec![
        ("blocks", read("blocks", "task01.pddl")),
        ("gripper", read("gripper", "task01.pddl")),
        ("logistics", LOGISTICS_SMALL.to_owned()),
        ("miconic", read("miconic", "task03.pddl")),
        ("elevators", ELEVATORS_SMALL.to_owned()),
        ("depot", read("depot", "task01.pddl")),
        ("freecell", read("freecell", "task01.pddl")),
        ("visitall", read("visitall", "problem03-full.pddl")),
    ];
    let options = PddlOptions::default();
    for (name, problem) in &tasks {
        let domain = read(name, "domain.pddl");
        let reference = solve(
            &domain,
            problem,
            &config(Direction::Forward, Algorithm::Dijkstra, heuristic("blind")),
            &options,
        );
        let optimum = cost(&reference, name);
        assert!(optimum > 0, "{name}");
        for direction in [Direction::Forward, Direction::Regression] {
            let s = solve(
                &domain,
                problem,
                &config(direction, Algorithm::AStar, heuristic("hmax")),
                &options,
            );
            assert_eq!(cost(&s, name), optimum, "{name} {direction} astar hmax");
        }
        // Regression without mutexes finds the same optimum, with more work
        // (too much on the others for a debug build).
        if !matches!(*name, "blocks" | "miconic" | "logistics") {
            continue;
        }
        let without = PddlOptions {
            mutexes: false,
            ..options
        };
        let plain = solve(
            &domain,
            problem,
            &config(Direction::Regression, Algorithm::AStar, heuristic("hmax")),
            &without,
        );
        assert_eq!(
            cost(&plain, name),
            optimum,
            "{name} regression without mutexes"
        );
        assert_eq!(plain.mutex_pruned, 0);
    }
}

#[test]
fn regression_dijkstra_agrees_on_the_smallest_tasks() {
    for (name, file) in [
        ("blocks", "task01.pddl"),
        ("gripper", "task01.pddl"),
        ("miconic", "task03.pddl"),
        ("visitall", "problem03-full.pddl"),
    ] {
        let (domain, problem) = (read(name, "domain.pddl"), read(name, file));
        let options = PddlOptions::default();
        let forward = solve(
            &domain,
            &problem,
            &config(Direction::Forward, Algorithm::Dijkstra, heuristic("blind")),
            &options,
        );
        let regression = solve(
            &domain,
            &problem,
            &config(
                Direction::Regression,
                Algorithm::Dijkstra,
                heuristic("blind"),
            ),
            &options,
        );
        assert_eq!(cost(&forward, name), cost(&regression, name), "{name}");
    }
}

#[test]
fn every_algorithm_and_heuristic_solves_gripper_in_every_direction() {
    let (domain, problem) = (
        read("gripper", "domain.pddl"),
        read("gripper", "task01.pddl"),
    );
    let optimum = 11;
    let algorithms = [
        Algorithm::AStar,
        Algorithm::WeightedAStar { weight: 2.0 },
        Algorithm::GreedyBestFirst,
        Algorithm::Dijkstra,
        Algorithm::BreadthFirst,
    ];
    let heuristics = [
        heuristic("blind"),
        heuristic("hmax"),
        heuristic("hadd"),
        heuristic("ff"),
        heuristic("mismatch"),
    ];
    for direction in [
        Direction::Forward,
        Direction::Regression,
        Direction::Portfolio,
    ] {
        for algorithm in algorithms {
            for heuristic in &heuristics {
                let what = format!("{direction} {algorithm:?} {heuristic}");
                let s = solve(
                    &domain,
                    &problem,
                    &config(direction, algorithm, heuristic.clone()),
                    &PddlOptions::default(),
                );
                let c = cost(&s, &what);
                let optimal = matches!(algorithm, Algorithm::Dijkstra | Algorithm::BreadthFirst)
                    || (algorithm == Algorithm::AStar && heuristic.info().admissible);
                if optimal {
                    assert_eq!(c, optimum, "{what}");
                } else {
                    assert!(c >= optimum, "{what}");
                }
            }
        }
    }
}

#[test]
fn mutexes_prune_regression_and_save_expansions() {
    for (name, file) in [("blocks", "task01.pddl"), ("gripper", "task01.pddl")] {
        let (domain, problem) = (read(name, "domain.pddl"), read(name, file));
        let c = config(Direction::Regression, Algorithm::AStar, heuristic("hmax"));
        let with = solve(&domain, &problem, &c, &PddlOptions::default());
        let without = solve(
            &domain,
            &problem,
            &c,
            &PddlOptions {
                mutexes: false,
                ..PddlOptions::default()
            },
        );
        assert_eq!(cost(&with, name), cost(&without, name));
        assert!(
            with.mutex_pairs.unwrap_or(0) > 0 && with.mutex_pruned > 0,
            "{name}"
        );
        let (e_with, e_without) = (
            with.report.stats().expanded,
            without.report.stats().expanded,
        );
        assert!(
            e_with < e_without,
            "{name}: {e_with} with mutexes, {e_without} without"
        );
    }
}

/// The order of `:init` facts and of objects changes nothing that A*
/// with blind search or `h_max` guarantees: the optimal cost, and the
/// states expanded below it (every state whose `f` is below the optimal
/// cost, whatever the tie-breaking), in both directions. (Which of the
/// states at the optimal cost are expanded, and which optimal plan comes
/// out, may depend on the order.)
#[test]
fn the_order_of_init_facts_and_objects_changes_no_optimal_result() {
    let tasks = [
        (
            "blocks",
            read("blocks", "domain.pddl"),
            read("blocks", "task01.pddl"),
        ),
        (
            "gripper",
            read("gripper", "domain.pddl"),
            read("gripper", "task01.pddl"),
        ),
        (
            "logistics",
            read("logistics", "domain.pddl"),
            LOGISTICS_SMALL.to_owned(),
        ),
    ];
    let options = PddlOptions::default();
    for (name, domain, problem) in &tasks {
        for direction in [Direction::Forward, Direction::Regression] {
            for h in ["blind", "hmax"] {
                let config = config(direction, Algorithm::AStar, heuristic(h));
                let what = format!("{name} {direction:?} {h}");
                let first = solve(domain, problem, &config, &options);
                let expected = (
                    cost(&first, &what),
                    first.report.stats().expanded_until_last_jump,
                );
                for seed in 1..4 {
                    let text = shuffled(problem, seed);
                    assert_ne!(&text, problem, "{what}: shuffled");
                    let again = solve(domain, &text, &config, &options);
                    let found = (
                        cost(&again, &what),
                        again.report.stats().expanded_until_last_jump,
                    );
                    assert_eq!(found, expected, "{what}, shuffle {seed}");
                }
            }
        }
    }
}

/// A task file of the IPC cost and ADL benchmarks.
fn read_ipc(domain: &str, file: &str) -> String {
    let path = tests::pddl_ipc_benchmarks().join(domain).join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Grounding numbers facts and operators by name, so the order in which
/// the files list `:init` facts, objects and actions changes no search:
/// on STRIPS, action-cost and ADL tasks, every search of the default PDDL
/// suite and beyond (A* with each admissible heuristic, eager and lazy
/// greedy search, both directions) expands the same states and returns
/// the same plan.
#[test]
fn the_order_of_the_files_changes_no_search_at_all() {
    let tasks = [
        (
            "gripper",
            read("gripper", "domain.pddl"),
            read("gripper", "task02.pddl"),
        ),
        (
            "logistics",
            read("logistics", "domain.pddl"),
            LOGISTICS_SMALL.to_owned(),
        ),
        (
            "blocks",
            read("blocks", "domain.pddl"),
            read("blocks", "task02.pddl"),
        ),
        (
            "pegsol (costs)",
            read_ipc("pegsol-08-strips", "domain.pddl"),
            read_ipc("pegsol-08-strips", "p01.pddl"),
        ),
        (
            "miconic-simpleadl (ADL)",
            read_ipc("miconic-simpleadl", "domain.pddl"),
            read_ipc("miconic-simpleadl", "s2-0.pddl"),
        ),
        (
            "schedule (ADL)",
            read_ipc("schedule", "domain.pddl"),
            read_ipc("schedule", "probschedule-2-0.pddl"),
        ),
    ];
    let (forward, regression) = (Direction::Forward, Direction::Regression);
    let (astar, greedy, lazy) = (
        Algorithm::AStar,
        Algorithm::GreedyBestFirst,
        Algorithm::LazyGreedy,
    );
    let configs = [
        (forward, astar, "blind"),
        (forward, astar, "hmax"),
        (forward, astar, "lmcut"),
        (forward, astar, "mismatch-admissible"),
        (forward, greedy, "ff"),
        (forward, lazy, "ff"),
        (forward, lazy, "lmcount"),
        (regression, astar, "blind"),
        (regression, astar, "hmax"),
        (regression, astar, "lmcut"),
        (regression, greedy, "ff"),
        (regression, lazy, "ff"),
    ];
    let unpruned = PddlOptions::default();
    let stubborn = PddlOptions {
        stubborn_sets: true,
        ..PddlOptions::default()
    };
    let runs = configs
        .iter()
        .map(|&c| (c, &unpruned))
        .chain([((forward, astar, "lmcut"), &stubborn)]);
    for (name, domain, problem) in &tasks {
        for ((direction, algorithm, h), options) in runs.clone() {
            let config = config(direction, algorithm, heuristic(h));
            let sss = if options.stubborn_sets { " sss" } else { "" };
            let what = format!("{name} {direction:?} {algorithm:?} {h}{sss}");
            let run = |domain: &str, problem: &str| {
                let s = solve(domain, problem, &config, options);
                let plan = s.plan.as_ref().map(IpcPlan::to_ipc_string);
                (s.report.stats().expanded, plan)
            };
            let expected = run(domain, problem);
            assert!(expected.1.is_some(), "{what}");
            for seed in 1..3 {
                let again = run(&actions_shuffled(domain, seed), &shuffled(problem, seed));
                assert_eq!(again, expected, "{what}, shuffle {seed}");
            }
        }
    }
}

/// Strong stubborn sets keep the optimal cost with every admissible
/// heuristic, on packed and unpacked states, and prune where actions do
/// not interfere (logistics: trucks and planes in different cities).
#[test]
fn stubborn_sets_keep_optimal_costs_and_prune_independent_actions() {
    let tasks = [
        ("logistics", "task01.pddl"),
        ("blocks", "task02.pddl"),
        ("miconic", "task03.pddl"),
        ("depot", "task01.pddl"),
    ];
    for (name, file) in tasks {
        let (domain, problem) = (read(name, "domain.pddl"), read(name, file));
        for h in ["blind", "hmax", "lmcut"] {
            for packing in [true, false] {
                let plain = PddlOptions {
                    packing,
                    ..PddlOptions::default()
                };
                let pruned = PddlOptions {
                    stubborn_sets: true,
                    ..plain
                };
                let astar = config(Direction::Forward, Algorithm::AStar, heuristic(h));
                let all = solve(&domain, &problem, &astar, &plain);
                let few = solve(&domain, &problem, &astar, &pruned);
                let what = format!("{name} {file} {h} packing {packing}");
                assert_eq!(cost(&few, &what), cost(&all, &what), "{what}");
                assert!(all.stubborn_sets.is_none(), "{what}");
                let stats = few.stubborn_sets.expect("counts");
                if name == "logistics" {
                    assert!(stats.pruned > 0, "{what}: {stats:?}");
                }
            }
        }
    }
}
