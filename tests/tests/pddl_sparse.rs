//! PDDL tasks beyond the widest fixed-width state: a task of more than
//! 32,768 facts goes on `SparseBits` and plans through the same call as
//! any other, in both directions, optimally with A* (LM-cut, `h_max`) and
//! greedily with `h_FF`.

use benches::hall::{hall, HALL_OPTIMUM as OPTIMUM};
use planners::pddl::{solve_text, GroundedTask, PddlOptions, PddlSolution};
use planners::{Direction, PlannerConfig};
use search_core::{Algorithm, SearchLimits};
use tests::heuristic;

/// Lamps in the hall ([`hall`]): their facts come first (the initial
/// state's), so the robot's facts all lie beyond the widest fixed width.
const LAMPS: usize = 32_800;

/// Rooms along the corridor.
const ROOMS: usize = 10;

/// Solves the task as `searchlab plan` does, under a memory limit that
/// the h^2 tables of so many facts (a bit per pair) do not fit: the task
/// goes without mutexes and packing, with a note.
fn solve(direction: Direction, algorithm: Algorithm, name: &str) -> PddlSolution {
    let (domain, problem) = hall(LAMPS, ROOMS);
    let config = PlannerConfig {
        direction,
        algorithm,
        heuristic: heuristic(name),
        limits: SearchLimits {
            max_memory_bytes: Some(256 << 20),
            ..SearchLimits::default()
        },
    };
    let solution = solve_text(&domain, &problem, &config, &PddlOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", config.name()));
    assert_eq!(solution.grounding.facts, LAMPS + ROOMS);
    assert_eq!(solution.report.direction, direction);
    solution
}

fn plan_cost(solution: &PddlSolution) -> u64 {
    solution.report.outcome.plan().expect("a plan").cost
}

#[test]
fn forward_astar_with_lmcut_finds_the_optimal_plan() {
    let solution = solve(Direction::Forward, Algorithm::AStar, "lmcut");
    assert_eq!(plan_cost(&solution), OPTIMUM);
    assert!(solution.grounding.facts > GroundedTask::MAX_FIXED_FACTS);
    assert_eq!(solution.words, (LAMPS + ROOMS).div_ceil(64));
    assert_eq!(solution.packing, None);
    assert!(
        solution
            .report
            .notes
            .iter()
            .any(|n| n.contains("no h^2 mutexes")),
        "{:?}",
        solution.report.notes
    );
    assert_eq!(
        solution.plan_text().unwrap(),
        "(walk r0 r1)\n(walk r1 r2)\n(slide r2 r6)\n(walk r6 r7)\n(walk r7 r8)\n; cost = 5 (unit cost)\n"
    );
    // The sets on the heap count toward the search's memory estimate.
    let stats = solution.report.stats();
    assert!(stats.estimated_bytes > stats.stored * LAMPS / 8);
}

#[test]
fn regression_astar_with_hmax_finds_the_optimal_plan() {
    let solution = solve(Direction::Regression, Algorithm::AStar, "hmax");
    assert_eq!(plan_cost(&solution), OPTIMUM);
}

#[test]
fn greedy_search_with_ff_finds_a_plan_forward() {
    let solution = solve(Direction::Forward, Algorithm::GreedyBestFirst, "ff");
    assert!(plan_cost(&solution) >= OPTIMUM);
}

#[test]
fn greedy_search_with_ff_finds_a_plan_in_regression() {
    let solution = solve(Direction::Regression, Algorithm::GreedyBestFirst, "ff");
    assert!(plan_cost(&solution) >= OPTIMUM);
}
