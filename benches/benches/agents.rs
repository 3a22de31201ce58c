//! Planning throughput for game agents, and the portfolio against its two
//! directions.
//!
//! - `agents/plans`: 1,000 enemy ships sharing one action set replan from
//!   varied starts through one `Planner`, each thread into its own
//!   `PlanBuffer`: `sequential` on one core (`sequential-report` through
//!   `Planner::plan`, a report allocated per plan), and
//!   `threads-N` sharded over a pool of N threads, one chunk of ships per
//!   thread (no hand-off per plan); `kept-N` with the caller planning the
//!   first chunk and N-1 kept threads the others; `scoped-N` the same on
//!   threads started per batch.
//! - `portfolio/<family>`: forward, regression and the portfolio of both on
//!   the synthetic atomic families, A* with `h_max`.

use criterion::{BenchmarkId, Criterion, Throughput};
use planners::heuristics::heuristic;
use planners::{Direction, PlanBuffer, Planner, PlannerConfig};
use rayon::prelude::*;
use state_atomic::problems::{self, Problem};
use state_atomic::WorldState;

/// The enemy ship scenario's starts: every combination of the five atoms a
/// ship can start with (`player_killed` stays false), cycled to 1,000 ships.
fn ship_starts(problem: &Problem) -> Vec<WorldState> {
    let killed = problem
        .actions
        .registry()
        .atom("player_killed")
        .expect("scenario atom");
    (0..1000_u64)
        .map(|i| WorldState::new(i % 64).with(killed, false))
        .collect()
}

fn config(direction: Direction) -> PlannerConfig {
    PlannerConfig {
        direction,
        heuristic: heuristic("hmax").unwrap(),
        ..PlannerConfig::default()
    }
}

fn agents(c: &mut Criterion) {
    let ship = problems::enemy_ship::<u64>(&[]).expect("scenario builds");
    let starts = ship_starts(&ship);
    let planner = Planner::new(config(Direction::Forward));
    let plan = |start: &WorldState| {
        let report = planner
            .plan(&ship.actions, start, &ship.goal)
            .expect("scenario plans");
        report.plan().map_or(0, |p| p.cost)
    };
    // A shard's ships planned into one buffer, as an agent system would.
    let plan_all = |ships: &[WorldState]| {
        let mut buffer = PlanBuffer::new();
        ships
            .iter()
            .map(|start| {
                let report = planner
                    .plan_into(&ship.actions, start, &ship.goal, &mut buffer)
                    .expect("scenario plans");
                report.plan().map_or(0, |p| p.cost)
            })
            .sum::<u64>()
    };
    let expected: u64 = starts.iter().map(plan).sum();
    let mut group = c.benchmark_group("agents/plans");
    group.throughput(Throughput::Elements(starts.len() as u64));
    group.bench_function("sequential-report", |b| {
        b.iter(|| assert_eq!(starts.iter().map(plan).sum::<u64>(), expected));
    });
    group.bench_function("sequential", |b| {
        b.iter(|| assert_eq!(plan_all(&starts), expected));
    });
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    for threads in (1..=cores).filter(|&n| n > 1) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        let chunk = starts.len().div_ceil(threads);
        group.bench_function(format!("threads-{threads}"), |b| {
            b.iter(|| {
                let sum = pool.install(|| starts.par_chunks(chunk).map(plan_all).sum::<u64>());
                assert_eq!(sum, expected);
            });
        });
    }
    // The caller plans the first shard, threads kept in a pool the others:
    // one wake-up per batch, no thread started.
    for threads in (1..=cores).filter(|&n| n > 1) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads - 1)
            .build()
            .expect("thread pool");
        let chunk = starts.len().div_ceil(threads);
        group.bench_function(format!("kept-{threads}"), |b| {
            b.iter(|| {
                let mut shards = starts.chunks(chunk);
                let first = shards.next().unwrap_or_default();
                let mut sums = vec![0; threads - 1];
                let mine: u64 = pool.in_place_scope(|scope| {
                    for (ships, sum) in shards.zip(&mut sums) {
                        scope.spawn(move |_| *sum = plan_all(ships));
                    }
                    plan_all(first)
                });
                assert_eq!(mine + sums.iter().sum::<u64>(), expected);
            });
        });
    }
    // The same shards on scoped threads, the caller planning the first.
    for threads in (1..=cores).filter(|&n| n > 1) {
        let chunk = starts.len().div_ceil(threads);
        group.bench_function(format!("scoped-{threads}"), |b| {
            b.iter(|| {
                let sum = std::thread::scope(|scope| {
                    let mut shards = starts.chunks(chunk);
                    let first = shards.next().unwrap_or_default();
                    let others: Vec<_> = shards
                        .map(|ships| scope.spawn(move || plan_all(ships)))
                        .collect();
                    let mine: u64 = plan_all(first);
                    mine + others
                        .into_iter()
                        .map(|h| h.join().expect("no panic"))
                        .sum::<u64>()
                });
                assert_eq!(sum, expected);
            });
        });
    }
    group.finish();
}

fn portfolio(c: &mut Criterion) {
    let families = [
        problems::chains::<u64>(40, 1),
        problems::shortcuts::<u64>(40, 1),
        problems::toggles::<u64>(40, 1),
    ];
    for problem in families {
        let problem = problem.expect("family builds");
        let mut group = c.benchmark_group(format!("portfolio/{}", problem.name));
        group.sample_size(20);
        let mut optimum = None;
        for direction in [
            Direction::Forward,
            Direction::Regression,
            Direction::Portfolio,
        ] {
            let planner = Planner::new(config(direction));
            let solve = || {
                planner
                    .plan(&problem.actions, &problem.start, &problem.goal)
                    .expect("family plans")
                    .plan()
                    .map(|p| p.cost)
            };
            let cost = solve();
            assert_eq!(*optimum.get_or_insert(cost), cost, "{direction} disagrees");
            group.bench_function(BenchmarkId::from_parameter(direction), |b| {
                b.iter(|| assert_eq!(solve(), cost));
            });
        }
        group.finish();
    }
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    agents(&mut criterion);
    portfolio(&mut criterion);
    criterion.final_summary();
}
