//! Atomic GOAP planning: the reference scenarios and the synthetic families
//! (chains, shortcuts, toggles) of state-atomic, forward against regression,
//! each with the classic mismatch heuristic and `h_max`, and the `dogoap`
//! crate on the same problems in the same group (with `--features peers`).
//! Every run asserts its cost: admissible configurations against the optimum
//! found by Dijkstra at setup, the others against "at least the optimum" and
//! a forward replay of the plan. The `meeting_index` group times the
//! indexes where a bidirectional search's two sides meet against a scan.

use std::hint::black_box;
use std::time::Duration;

use benches::grid::SplitMix64;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use planners::heuristics::{heuristic, AtomicFactory, NamedHeuristic};
use planners::{BoxedHeuristic, Budget, PlanBuffer, PlanJob, Planner, PlannerConfig};
use search_core::{Algorithm, Blind, Heuristic, Search};
use state_atomic::problems::{self, Problem};
use state_atomic::{
    Applicability, Bits, ForwardSpace, Mismatch, PartialState, RegressionSpace, RelaxedForward,
    RelaxedRegression, StateIndex, SubgoalIndex, Subsumption, Wide, WorldState,
};

/// The optimal cost, by forward Dijkstra.
fn optimum<B: Bits>(p: &Problem<B>) -> u32 {
    let space = ForwardSpace::new(&p.actions, p.goal.clone()).expect("valid problem");
    let result = Search::new(&space, p.start.clone())
        .algorithm(Algorithm::Dijkstra)
        .run()
        .expect("valid costs");
    result.outcome.solution().expect("solvable").cost
}

/// Forward A*: the cost and the expansions.
fn forward<B: Bits, H: Heuristic<WorldState<B>, u32>>(
    p: &Problem<B>,
    how: Applicability,
    h: H,
) -> (u32, u64) {
    let space = ForwardSpace::new(&p.actions, p.goal.clone())
        .expect("valid problem")
        .applicability(how);
    let result = Search::new(&space, p.start.clone())
        .heuristic(h)
        .run()
        .expect("valid costs");
    let solution = result.outcome.solution().expect("solvable");
    (solution.cost, result.stats.expanded)
}

/// Regression A*: the cost, the expansions and the subsumption prunings.
fn regression<B: Bits, H: Heuristic<PartialState<B>, u32>>(
    p: &Problem<B>,
    subsumption: Subsumption,
    h: H,
) -> (u32, u64, u64) {
    let space = RegressionSpace::new(&p.actions, p.start.clone(), p.goal.clone())
        .expect("valid problem")
        .subsumption(subsumption);
    let result = Search::new(&space, p.goal.clone())
        .heuristic(h)
        .run()
        .expect("valid costs");
    let solution = result.outcome.solution().expect("solvable");
    let plan = RegressionSpace::<B>::execution_order(&solution.actions);
    debug_assert!(p.actions.validate(p.start.clone(), &p.goal, &plan).is_ok());
    (solution.cost, result.stats.expanded, space.pruned())
}

#[cfg(feature = "peers")]
mod peer {
    use dogoap::prelude::{Action, Compare, Datum, Effect, Goal, LocalState, Mutator};
    use state_atomic::problems::Problem;

    /// The same problem for dogoap: every atom a boolean datum.
    pub struct Dogoap {
        start: LocalState,
        actions: Vec<Action>,
        goal: Goal,
    }

    pub fn convert(p: &Problem<u64>) -> Dogoap {
        let names: Vec<&str> = p.actions.registry().names().collect();
        let mut start = LocalState::new();
        for (i, name) in names.iter().enumerate() {
            start = start.with_datum(name, Datum::Bool(p.start.bits() >> i & 1 == 1));
        }
        let names = &names;
        let literals = |values: u64, care: u64| {
            (0..names.len())
                .filter(move |i| care >> i & 1 == 1)
                .map(move |i| (names[i].to_owned(), values >> i & 1 == 1))
        };
        let mut actions = Vec::new();
        for a in p.actions.iter() {
            let mut action = Action::new(&a.name);
            for (name, value) in literals(a.pre.values(), a.pre.care()) {
                action = action.with_precondition(&name, Compare::Equals(Datum::Bool(value)));
            }
            let mut effect = Effect::new(&a.name);
            effect.cost = a.cost as usize;
            for (name, value) in literals(a.eff.values(), a.eff.care()) {
                effect = effect.with_mutator(Mutator::Set(name, Datum::Bool(value)));
            }
            actions.push(action.with_effect(effect));
        }
        let mut goal = Goal::new();
        for (name, value) in literals(p.goal.values(), p.goal.care()) {
            goal = goal.with_req(&name, Compare::Equals(Datum::Bool(value)));
        }
        Dogoap {
            start,
            actions,
            goal,
        }
    }

    /// dogoap's plan cost.
    pub fn solve(d: &Dogoap) -> u32 {
        let (_, cost) =
            dogoap::prelude::make_plan(&d.start, &d.actions, &d.goal).expect("dogoap solves it");
        u32::try_from(cost).expect("small cost")
    }
}

/// Fewer samples for slow configurations, so the bench ends in minutes.
fn samples_for(one_run: Duration) -> usize {
    if one_run > Duration::from_millis(20) {
        10
    } else {
        100
    }
}

/// How long `f` takes once.
fn time_once<T>(f: impl FnOnce() -> T) -> Duration {
    let started = std::time::Instant::now();
    black_box(f());
    started.elapsed()
}

/// One problem, benched with every configuration in one group.
fn bench_problem(c: &mut Criterion, group: &str, p: &Problem<u64>, peer_in_group: bool) {
    let best = optimum(p);
    let mut g = c.benchmark_group(group);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));
    let name = p.name.as_str();
    let _ = peer_in_group; // used with `--features peers`

    let (cost, expanded) = forward(p, Applicability::Scan, Mismatch::forward(p.goal));
    assert!(cost >= best);
    g.sample_size(samples_for(time_once(|| {
        forward(p, Applicability::Scan, Mismatch::forward(p.goal))
    })));
    eprintln!("{name}: optimum {best}; forward/mismatch cost {cost}, {expanded} expansions");
    g.bench_function(BenchmarkId::new("forward-mismatch", name), |b| {
        b.iter(|| forward(black_box(p), Applicability::Scan, Mismatch::forward(p.goal)));
    });

    let (cost, expanded) = forward(
        p,
        Applicability::Scan,
        RelaxedForward::h_max(&p.actions, p.goal),
    );
    assert_eq!(cost, best);
    eprintln!("{name}: forward/hmax {expanded} expansions");
    g.sample_size(samples_for(time_once(|| {
        forward(
            p,
            Applicability::Scan,
            RelaxedForward::h_max(&p.actions, p.goal),
        )
    })));
    g.bench_function(BenchmarkId::new("forward-hmax", name), |b| {
        b.iter(|| {
            let h = RelaxedForward::h_max(&p.actions, p.goal);
            let (cost, _) = forward(black_box(p), Applicability::Scan, h);
            assert_eq!(cost, best);
        });
    });

    let (cost, expanded, _) = regression(p, Subsumption::Parent, Mismatch::regression(&p.start));
    assert!(cost >= best);
    eprintln!("{name}: regression/mismatch cost {cost}, {expanded} expansions");
    g.sample_size(samples_for(time_once(|| {
        regression(p, Subsumption::Parent, Mismatch::regression(&p.start))
    })));
    g.bench_function(BenchmarkId::new("regression-mismatch", name), |b| {
        b.iter(|| {
            regression(
                black_box(p),
                Subsumption::Parent,
                Mismatch::regression(&p.start),
            )
        });
    });

    for (label, subsumption) in [
        ("regression-hmax", Subsumption::Parent),
        ("regression-hmax-closed", Subsumption::Closed),
    ] {
        let h = RelaxedRegression::h_max(&p.actions, p.start);
        let (cost, expanded, pruned) = regression(p, subsumption, h);
        assert_eq!(cost, best);
        eprintln!("{name}: {label} {expanded} expansions, {pruned} pruned by subsumption");
        g.sample_size(samples_for(time_once(|| {
            regression(
                p,
                subsumption,
                RelaxedRegression::h_max(&p.actions, p.start),
            )
        })));
        g.bench_function(BenchmarkId::new(label, name), |b| {
            b.iter(|| {
                let h = RelaxedRegression::h_max(&p.actions, p.start);
                let (cost, _, _) = regression(black_box(p), subsumption, h);
                assert_eq!(cost, best);
            });
        });
    }

    if group == "atomic_reference" {
        bench_planner(&mut g, p, best);
    }

    #[cfg(feature = "peers")]
    if peer_in_group {
        let d = peer::convert(p);
        let cost = peer::solve(&d);
        assert!(cost >= best);
        eprintln!("{name}: dogoap cost {cost}");
        g.sample_size(10);
        g.bench_function(BenchmarkId::new("dogoap", name), |b| {
            b.iter(|| peer::solve(black_box(&d)));
        });
    }
    g.finish();
}

/// Forward A* throughput (expansions per second) and the two ways to find
/// applicable actions.
fn bench_throughput(c: &mut Criterion, families: &[Problem<u64>]) {
    let mut g = c.benchmark_group("atomic/forward-throughput");
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));
    for p in families {
        for (label, how) in [
            ("scan", Applicability::Scan),
            ("grouped", Applicability::Grouped),
        ] {
            let (_, expanded) = forward(p, how, Mismatch::forward(p.goal));
            g.throughput(Throughput::Elements(expanded));
            g.bench_function(
                BenchmarkId::new(format!("mismatch-{label}"), &p.name),
                |b| {
                    b.iter(|| forward(black_box(p), how, Mismatch::forward(p.goal)));
                },
            );
        }
        let (_, expanded) = forward(p, Applicability::Scan, Blind);
        g.throughput(Throughput::Elements(expanded));
        g.bench_function(BenchmarkId::new("blind-scan", &p.name), |b| {
            b.iter(|| forward(black_box(p), Applicability::Scan, Blind));
        });
    }
    g.finish();
}

/// The best configuration as the families grow, on wide states past 64 atoms.
fn bench_scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("atomic/scaling");
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));
    for size in [40, 80, 120] {
        for p in [
            problems::chains::<Wide<2>>(size, 1).expect("fits"),
            problems::shortcuts::<Wide<2>>(size, 1).expect("fits"),
            problems::toggles::<Wide<2>>(size, 1).expect("fits"),
        ] {
            let h = RelaxedRegression::h_max(&p.actions, p.start);
            let (cost, expanded, _) = regression(&p, Subsumption::Closed, h);
            eprintln!(
                "wide {}: regression-hmax-closed cost {cost}, {expanded} expansions",
                p.name
            );
            g.bench_function(
                BenchmarkId::new("wide2-regression-hmax-closed", &p.name),
                |b| {
                    b.iter(|| {
                        let h = RelaxedRegression::h_max(&p.actions, p.start);
                        regression(black_box(&p), Subsumption::Closed, h)
                    });
                },
            );
        }
    }
    g.finish();
}

/// `h_max` with no owned form: a sliced job makes it anew every slice, as
/// every sliced job did before jobs kept their heuristics.
struct RemadeHmax;

impl AtomicFactory for RemadeHmax {
    fn forward<'a, B: Bits>(
        &self,
        actions: &'a state_atomic::ActionSet<B>,
        _: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, WorldState<B>>> {
        Some(Box::new(RelaxedForward::h_max(actions, goal.clone())))
    }

    fn regression<'a, B: Bits>(
        &self,
        _: &'a state_atomic::ActionSet<B>,
        _: &'a WorldState<B>,
        _: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, PartialState<B>>> {
        None
    }
}

/// A plan sliced four expansions at a time (`PlanJob`), forward A* with
/// `h_max`: the job keeping its heuristic (the built-in), making it anew
/// each slice (`RemadeHmax`), and the plan of one call, in one group.
fn bench_sliced(c: &mut Criterion) {
    let mut g = c.benchmark_group("atomic/sliced");
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));
    let p = problems::chains::<u64>(60, 1).expect("fits");
    let actions = std::sync::Arc::new(p.actions.clone());
    let remade = NamedHeuristic::builder("hmax-remade", "h_max made anew each slice")
        .admissible()
        .atomic(RemadeHmax)
        .build();
    let best = u64::from(optimum(&p));
    for (label, h) in [
        ("kept-hmax", heuristic("hmax").unwrap()),
        ("remade-hmax", remade),
    ] {
        let planner = Planner::new(PlannerConfig {
            heuristic: h,
            ..PlannerConfig::default()
        });
        let plan_in_slices = || {
            let mut job = PlanJob::new(std::sync::Arc::clone(&actions), p.start, p.goal);
            let mut slices = 0_u32;
            loop {
                slices += 1;
                let advanced = job.advance(&planner, Budget::Expansions(4));
                if let Some(report) = advanced.expect("plans") {
                    return (report.plan().expect("solved").cost, slices);
                }
            }
        };
        let (cost, slices) = plan_in_slices();
        assert_eq!(cost, best, "{label}");
        eprintln!(
            "{}: sliced-4-{label} cost {cost} in {slices} slices",
            p.name
        );
        g.bench_function(
            BenchmarkId::new(format!("sliced-4-{label}"), &p.name),
            |b| {
                b.iter(|| assert_eq!(black_box(plan_in_slices()).0, best));
            },
        );
    }
    let planner = Planner::new(PlannerConfig {
        heuristic: heuristic("hmax").unwrap(),
        ..PlannerConfig::default()
    });
    g.bench_function(BenchmarkId::new("at-once-hmax", &p.name), |b| {
        b.iter(|| {
            let report = planner.plan(&*actions, &p.start, &p.goal).expect("plans");
            assert_eq!(black_box(report).plan().expect("solved").cost, best);
        });
    });
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let reference = [
        problems::hungry_agent::<u64>().expect("fits"),
        problems::enemy_ship(&["safe", "ammo_full"]).expect("fits"),
        problems::enemy_ship(&["safe", "ammo_full", "player_weak"]).expect("fits"),
        problems::enemy_ship(&["ammo_full"]).expect("fits"),
        problems::enemy_ship(&["safe", "ammo_full", "aim_ready"]).expect("fits"),
        problems::consumed_fact().expect("fits"),
    ];
    for (i, mut p) in reference.into_iter().enumerate() {
        if p.name == "enemy-ship" {
            p.name = format!("enemy-ship-{i}");
        }
        bench_problem(&mut c, "atomic_reference", &p, true);
    }
    let families = [
        problems::chains::<u64>(40, 1).expect("fits"),
        problems::shortcuts(40, 1).expect("fits"),
        problems::toggles(40, 1).expect("fits"),
    ];
    for p in &families {
        // dogoap does not finish toggles-40 (see `dogoap_deadline`).
        let peer_in_group = !p.name.starts_with("toggles");
        bench_problem(&mut c, "atomic/families", p, peer_in_group);
    }
    bench_throughput(&mut c, &families);
    bench_scaling(&mut c);
    bench_sliced(&mut c);
    bench_meeting(&mut c);
    c.final_summary();
    #[cfg(feature = "peers")]
    dogoap_deadline(&families[2], Duration::from_secs(120));
}

/// Runs dogoap once on `p` in a thread and reports whether it finished
/// within `deadline`. Runs last: a thread that has not finished is ended
/// with the process.
#[cfg(feature = "peers")]
fn dogoap_deadline(p: &Problem<u64>, deadline: Duration) {
    let d = peer::convert(p);
    let (done, wait) = std::sync::mpsc::channel();
    let started = std::time::Instant::now();
    std::thread::spawn(move || {
        let cost = peer::solve(&d);
        let _ = done.send(cost);
    });
    match wait.recv_timeout(deadline) {
        Ok(cost) => eprintln!(
            "{}: dogoap cost {cost} in {:?} (one run)",
            p.name,
            started.elapsed()
        ),
        Err(_) => eprintln!("{}: dogoap did not finish within {deadline:?}", p.name),
    }
}

/// Plans through one `Planner`, made once, as an agent that replans would
/// (forward A*; the tiny engine in kept buffers on these problems).
fn bench_planner(g: &mut BenchmarkGroup<'_, WallTime>, p: &Problem<u64>, best: u32) {
    let name = p.name.as_str();
    for label in ["hmax", "blind"] {
        let planner = Planner::new(PlannerConfig {
            heuristic: heuristic(label).expect("built-in"),
            ..PlannerConfig::default()
        });
        let plan = |p: &Problem<u64>| {
            let report = planner.plan(&p.actions, &p.start, &p.goal).expect("plans");
            report.plan().map_or(u64::MAX, |plan| plan.cost)
        };
        assert_eq!(plan(p), u64::from(best), "planner-forward-{label}");
        g.sample_size(100);
        g.bench_function(
            BenchmarkId::new(format!("planner-forward-{label}"), name),
            |b| {
                b.iter(|| assert_eq!(plan(black_box(p)), u64::from(best)));
            },
        );
        // The same plans into one kept buffer, as an agent plans each frame.
        let mut buffer = PlanBuffer::new();
        g.bench_function(
            BenchmarkId::new(format!("buffer-forward-{label}"), name),
            |b| {
                b.iter(|| {
                    let p = black_box(p);
                    let report = planner
                        .plan_into(&p.actions, &p.start, &p.goal, &mut buffer)
                        .expect("plans");
                    assert_eq!(report.plan().map(|plan| plan.cost), Some(u64::from(best)));
                });
            },
        );
    }
}

/// A random subgoal over 64 atoms that cares about 3 to 12 of them.
fn random_subgoal(rng: &mut SplitMix64) -> PartialState<u64> {
    let size = 3 + rng.below(10);
    let mut care = 0_u64;
    while care.count_ones() < u32::try_from(size).expect("small") {
        care |= 1 << rng.below(64);
    }
    PartialState::new(rng.next_u64(), care)
}

/// The numbers `query` reports, sorted.
fn reported(query: impl FnOnce(&mut dyn FnMut(u32))) -> Vec<u32> {
    let mut found = Vec::new();
    query(&mut |n| found.push(n));
    found.sort_unstable();
    found
}

/// Numbers `0..` for the items of a scan.
fn numbers() -> impl Iterator<Item = u32> {
    0..
}

/// One query of each meeting index beside the same answer by a linear scan
/// (its peer), over 1,000 to 100,000 random stored subgoals or states;
/// every query is checked against the scan first.
fn bench_meeting(c: &mut Criterion) {
    const QUERIES: usize = 256;
    let mut g = c.benchmark_group("meeting_index");
    for size in [1_000_usize, 10_000, 100_000] {
        let mut rng = SplitMix64::new(0x5EED + u64::try_from(size).expect("fits"));
        let subgoals: Vec<PartialState<u64>> =
            (0..size).map(|_| random_subgoal(&mut rng)).collect();
        let states: Vec<WorldState<u64>> =
            (0..size).map(|_| WorldState::new(rng.next_u64())).collect();
        let state_queries: Vec<WorldState<u64>> = (0..QUERIES)
            .map(|_| WorldState::new(rng.next_u64()))
            .collect();
        let subgoal_queries: Vec<PartialState<u64>> =
            (0..QUERIES).map(|_| random_subgoal(&mut rng)).collect();

        let mut by_subgoal = SubgoalIndex::new();
        for (s, n) in subgoals.iter().zip(numbers()) {
            by_subgoal.insert(s, n);
        }
        let scan_subgoals = |state: &WorldState<u64>, found: &mut dyn FnMut(u32)| {
            for (s, n) in subgoals.iter().zip(numbers()) {
                if state.satisfies(s) {
                    found(n);
                }
            }
        };
        let mut met = 0;
        for q in &state_queries {
            let expected = reported(|found| scan_subgoals(q, found));
            assert_eq!(
                reported(|found| by_subgoal.satisfied_by(q, found)),
                expected
            );
            met += expected.len();
        }
        eprintln!(
            "meeting_index {size} subgoals: {} bytes, {met} met by {QUERIES} states",
            by_subgoal.memory_bytes()
        );
        let mut next = 0;
        g.bench_function(BenchmarkId::new("subgoals-index", size), |b| {
            b.iter(|| {
                next = (next + 1) % QUERIES;
                let mut met = 0_u32;
                by_subgoal.satisfied_by(black_box(&state_queries[next]), |n| met ^= n);
                met
            });
        });
        g.bench_function(BenchmarkId::new("subgoals-scan", size), |b| {
            b.iter(|| {
                next = (next + 1) % QUERIES;
                let mut met = 0_u32;
                scan_subgoals(black_box(&state_queries[next]), &mut |n| met ^= n);
                met
            });
        });

        let mut by_state = StateIndex::new();
        for (s, n) in states.iter().zip(numbers()) {
            by_state.insert(s, n);
        }
        let scan_states = |subgoal: &PartialState<u64>, found: &mut dyn FnMut(u32)| {
            for (s, n) in states.iter().zip(numbers()) {
                if s.satisfies(subgoal) {
                    found(n);
                }
            }
        };
        let mut met = 0;
        for q in &subgoal_queries {
            let expected = reported(|found| scan_states(q, found));
            assert_eq!(reported(|found| by_state.satisfying(q, found)), expected);
            met += expected.len();
        }
        eprintln!(
            "meeting_index {size} states: {} bytes, {met} meet {QUERIES} subgoals",
            by_state.memory_bytes()
        );
        g.bench_function(BenchmarkId::new("states-index", size), |b| {
            b.iter(|| {
                next = (next + 1) % QUERIES;
                let mut met = 0_u32;
                by_state.satisfying(black_box(&subgoal_queries[next]), |n| met ^= n);
                met
            });
        });
        g.bench_function(BenchmarkId::new("states-scan", size), |b| {
            b.iter(|| {
                next = (next + 1) % QUERIES;
                let mut met = 0_u32;
                scan_states(black_box(&subgoal_queries[next]), &mut |n| met ^= n);
                met
            });
        });
    }
    g.finish();
}
