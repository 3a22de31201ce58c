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
//!   threads started per batch; `crew-N` the same on a crew
//!   (`planners::crew`) whose helpers spin between batches. Each shard
//!   plans into its own kept buffer.
//! - `portfolio/<family>`: forward, regression and the portfolio of both on
//!   the synthetic atomic families, A* with `h_max`.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use planners::crew::with_crew;
use planners::heuristics::heuristic;
use planners::{Direction, PlanBuffer, Planner, PlannerConfig};
use rayon::prelude::*;
use state_atomic::problems::{self, Problem};
use state_atomic::ActionSet;
use state_atomic::WorldState;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

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
    // A shard's ships planned into the shard's kept buffer, as an agent
    // system would.
    let plan_into = |ships: &[WorldState], buffer: &mut PlanBuffer<ActionSet>| {
        ships
            .iter()
            .map(|start| {
                let report = planner
                    .plan_into(&ship.actions, start, &ship.goal, buffer)
                    .expect("scenario plans");
                report.plan().map_or(0, |p| p.cost)
            })
            .sum::<u64>()
    };
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let buffers: Vec<Mutex<PlanBuffer<ActionSet>>> =
        (0..cores).map(|_| Mutex::new(PlanBuffer::new())).collect();
    let chunk_of = |threads: usize| starts.len().div_ceil(threads);
    // Shard `k` of the ships cut in `threads` shards, into buffer `k`.
    let plan_shard = |threads: usize, k: usize| {
        let Some(ships) = starts.chunks(chunk_of(threads)).nth(k) else {
            return 0;
        };
        let mut buffer = buffers[k].lock().expect("no panic");
        plan_into(ships, &mut buffer)
    };
    let plan_all =
        |ships: &[WorldState]| plan_into(ships, &mut buffers[0].lock().expect("no panic"));
    let expected: u64 = starts.iter().map(plan).sum();
    let mut group = c.benchmark_group("agents/plans");
    group.throughput(Throughput::Elements(starts.len() as u64));
    group.bench_function("sequential-report", |b| {
        b.iter(|| assert_eq!(starts.iter().map(plan).sum::<u64>(), expected));
    });
    group.bench_function("sequential", |b| {
        b.iter(|| assert_eq!(plan_all(&starts), expected));
    });
    sharded(&mut group, cores, expected, &plan_shard);
    group.finish();
}

/// The ships cut in shards over 2 to `cores` threads, each shard planned
/// by `plan_shard(threads, k)`: on a rayon pool (`threads-N`), the caller
/// and a kept pool (`kept-N`), scoped threads (`scoped-N`) and a crew
/// (`crew-N`).
fn sharded(
    group: &mut BenchmarkGroup<'_, WallTime>,
    cores: usize,
    expected: u64,
    plan_shard: &(dyn Fn(usize, usize) -> u64 + Sync),
) {
    for threads in (1..=cores).filter(|&n| n > 1) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        group.bench_function(format!("threads-{threads}"), |b| {
            b.iter(|| {
                let sum = pool.install(|| {
                    (0..threads)
                        .into_par_iter()
                        .map(|k| plan_shard(threads, k))
                        .sum::<u64>()
                });
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
        group.bench_function(format!("kept-{threads}"), |b| {
            b.iter(|| {
                let mut sums = vec![0; threads - 1];
                let mine: u64 = pool.in_place_scope(|scope| {
                    for (k, sum) in sums.iter_mut().enumerate() {
                        let plan_shard = &plan_shard;
                        scope.spawn(move |_| *sum = plan_shard(threads, k + 1));
                    }
                    plan_shard(threads, 0)
                });
                assert_eq!(mine + sums.iter().sum::<u64>(), expected);
            });
        });
    }
    // The same shards on scoped threads, the caller planning the first.
    for threads in (1..=cores).filter(|&n| n > 1) {
        group.bench_function(format!("scoped-{threads}"), |b| {
            b.iter(|| {
                let sum = std::thread::scope(|scope| {
                    let plan_shard = &plan_shard;
                    let others: Vec<_> = (1..threads)
                        .map(|k| scope.spawn(move || plan_shard(threads, k)))
                        .collect();
                    let mine: u64 = plan_shard(threads, 0);
                    mine + others
                        .into_iter()
                        .map(|h| h.join().expect("no panic"))
                        .sum::<u64>()
                });
                assert_eq!(sum, expected);
            });
        });
    }
    // A crew (`planners::crew`): the caller and helpers that spin between
    // rounds, each planning its shard.
    for threads in (1..=cores).filter(|&n| n > 1) {
        let sums: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
        let task = |k: usize| sums[k].store(plan_shard(threads, k), Ordering::Relaxed);
        with_crew(threads - 1, &task, |crew| {
            group.bench_function(format!("crew-{threads}"), |b| {
                b.iter(|| {
                    crew.round();
                    let sum: u64 = sums.iter().map(|s| s.load(Ordering::Relaxed)).sum();
                    assert_eq!(sum, expected);
                });
            });
        });
    }
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
