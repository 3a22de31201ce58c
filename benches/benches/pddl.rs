//! PDDL planning end to end, as `searchlab plan` runs it: parse, ground,
//! mutexes, packing and the search, on tasks of `benchmarks/pddl` whose
//! fact states take two to eight words, packed and unpacked. Optimal
//! configurations assert the optimal cost, the others a plan at least
//! that dear.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{BenchmarkId, Criterion};
use planners::heuristics::heuristic;
use planners::pddl::{solve_files_with, PddlOptions};
use planners::{Direction, PlannerConfig};
use search_core::Algorithm;

/// A run: a task of `benchmarks/pddl`, a configuration (direction,
/// algorithm, heuristic), and the cost its plan has (`optimal`) or at
/// least has.
struct Run {
    domain: &'static str,
    task: &'static str,
    direction: Direction,
    algorithm: Algorithm,
    heuristic: &'static str,
    cost: u64,
    optimal: bool,
}

const fn run(
    (domain, task): (&'static str, &'static str),
    (direction, algorithm, heuristic): (Direction, Algorithm, &'static str),
    cost: u64,
    optimal: bool,
) -> Run {
    Run {
        domain,
        task,
        direction,
        algorithm,
        heuristic,
        cost,
        optimal,
    }
}

const FWD_LMCUT: (Direction, Algorithm, &str) = (Direction::Forward, Algorithm::AStar, "lmcut");
const FWD_HMAX: (Direction, Algorithm, &str) = (Direction::Forward, Algorithm::AStar, "hmax");
const REG_HMAX: (Direction, Algorithm, &str) = (Direction::Regression, Algorithm::AStar, "hmax");
const FWD_FF: (Direction, Algorithm, &str) = (Direction::Forward, Algorithm::GreedyBestFirst, "ff");
const REG_FF: (Direction, Algorithm, &str) =
    (Direction::Regression, Algorithm::GreedyBestFirst, "ff");

/// Facts on two words: blocks task10, depot, elevators, gripper; three:
/// blocks task19, freecell task04; four: freecell task08; eight: freecell
/// task10.
const RUNS: [Run; 11] = [
    run(("blocks", "task10"), FWD_LMCUT, 20, true),
    run(("blocks", "task10"), REG_HMAX, 20, true),
    run(("blocks", "task10"), FWD_FF, 20, false),
    run(("depot", "task02"), FWD_LMCUT, 15, true),
    run(("elevators", "task02"), FWD_HMAX, 9, true),
    run(("gripper", "task07"), FWD_FF, 47, false),
    run(("gripper", "task07"), REG_FF, 47, false),
    run(("blocks", "task19"), FWD_FF, 1, false),
    run(("freecell", "task04"), FWD_FF, 1, false),
    run(("freecell", "task08"), FWD_FF, 1, false),
    run(("freecell", "task10"), FWD_FF, 1, false),
];

fn path(domain: &str, file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../benchmarks/pddl")
        .join(domain)
        .join(format!("{file}.pddl"))
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("pddl");
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(3));
    g.sample_size(20);
    for r in &RUNS {
        let (domain, problem) = (path(r.domain, "domain"), path(r.domain, r.task));
        let config = PlannerConfig {
            direction: r.direction,
            algorithm: r.algorithm,
            heuristic: heuristic(r.heuristic).expect("built-in"),
            ..PlannerConfig::default()
        };
        for packing in [true, false] {
            let options = PddlOptions {
                packing,
                ..PddlOptions::default()
            };
            let solve = || {
                let solution =
                    solve_files_with(&domain, &problem, &config, &options).expect("solves");
                let cost = solution.report.outcome.plan().expect("a plan").cost;
                (cost, solution.words)
            };
            let label = format!("{}-{}-{}", r.domain, r.task, config.name());
            let (cost, words) = solve();
            if r.optimal {
                assert_eq!(cost, r.cost, "{label}");
            } else {
                assert!(cost >= r.cost, "{label}");
            }
            let packed = if packing { "packed" } else { "unpacked" };
            eprintln!("{label} {packed}: cost {cost} on {words} word(s)");
            g.bench_function(BenchmarkId::new(label, packed), |b| {
                b.iter(|| black_box(solve()));
            });
        }
    }
    g.finish();
    c.final_summary();
}
