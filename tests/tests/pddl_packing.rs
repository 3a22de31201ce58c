//! Packed (finite-domain) states for PDDL tasks: the groups are sound, a
//! packed state decodes to its fact state, packed actions do what the
//! operators do, and packed and unpacked search agree on costs (both
//! directions) and on expansions (forward, where the heuristics see the
//! same fact states).

use std::collections::{HashSet, VecDeque};
use std::fmt::Write as _;

use planners::pddl::{
    ground, h2_mutexes, parse_domain, parse_problem, solve_text, GroundTask, GroundingLimits,
    PackedTask, Packing, PddlOptions, Task,
};
use planners::{Direction, Planner, PlannerConfig, PlanningDomain};
use search_core::{Algorithm, Heuristic, SearchLimits, SearchSpace};
use state_atomic::{Bits, PartialState, SparseBits, Wide, WorldState};

/// The facts' and the packed state's type in the comparisons: wide enough
/// for every task below, so packing need not save words to be tested.
type B = Wide<2>;

fn read(dir: &std::path::Path, file: &str) -> String {
    let path = dir.join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One package from one city to the other (the benchmark's tasks are too
/// big for a debug build).
const LOGISTICS_SMALL: &str = "(define (problem logistics-small) (:domain logistics)
 (:objects apn1 - airplane apt1 apt2 - airport pos1 pos2 - location cit1 cit2 - city
           tru1 tru2 - truck obj1 - package)
 (:init (at apn1 apt2) (at tru1 pos1) (at tru2 apt2) (at obj1 pos1)
        (in-city pos1 cit1) (in-city apt1 cit1) (in-city pos2 cit2) (in-city apt2 cit2))
 (:goal (at obj1 pos2)))";

/// Two passengers, two elevators (the benchmark's tasks are too big for a
/// debug build).
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

/// Tasks whose regression takes too long for a debug build.
const SLOW_REGRESSION: [&str; 3] = [
    "elevators-opt08-strips p02",
    "sokoban-opt08-strips p01",
    "pegsol-08-strips p02",
];

/// Small tasks of every shipped STRIPS domain and of the action-cost
/// domains: (name, domain text, problem text).
fn tasks() -> Vec<(String, String, String)> {
    let strips = [
        ("blocks", "task01.pddl"),
        ("gripper", "task01.pddl"),
        ("miconic", "task03.pddl"),
        ("depot", "task01.pddl"),
        ("freecell", "task01.pddl"),
        ("visitall", "problem03-full.pddl"),
    ];
    let costs = [
        ("elevators-opt08-strips", "p02"),
        ("parcprinter-08-strips", "p01"),
        ("openstacks-opt08-strips", "p01"),
        ("woodworking-opt08-strips", "p01"),
        ("sokoban-opt08-strips", "p01"),
        ("pegsol-08-strips", "p02"),
    ];
    let mut tasks = Vec::new();
    for (name, problem) in [
        ("logistics", LOGISTICS_SMALL),
        ("elevators", ELEVATORS_SMALL),
    ] {
        let dir = tests::pddl_benchmarks().join(name);
        tasks.push((
            format!("{name} small"),
            read(&dir, "domain.pddl"),
            problem.to_owned(),
        ));
    }
    for (name, file) in strips {
        let dir = tests::pddl_benchmarks().join(name);
        tasks.push((
            format!("{name} {file}"),
            read(&dir, "domain.pddl"),
            read(&dir, file),
        ));
    }
    for (name, task) in costs {
        let dir = tests::pddl_ipc_benchmarks().join(name);
        let own = format!("{task}-domain.pddl");
        let domain = if dir.join(&own).exists() {
            own
        } else {
            "domain.pddl".to_owned()
        };
        tasks.push((
            format!("{name} {task}"),
            read(&dir, &domain),
            read(&dir, &format!("{task}.pddl")),
        ));
    }
    tasks
}

fn grounded(domain: &str, problem: &str) -> GroundTask {
    let domain = parse_domain("domain", domain).unwrap();
    let problem = parse_problem(&domain, "problem", problem).unwrap();
    ground(&domain, &problem, GroundingLimits::default()).unwrap()
}

fn bits_of(facts: &[u32]) -> B {
    facts.iter().fold(B::zero(), |b, &f| b | B::bit(f as usize))
}

/// Up to `cap` reachable fact states of `task`, breadth first.
fn reachable(task: &GroundTask, cap: usize) -> Vec<B> {
    let start = bits_of(&task.init);
    let mut seen = HashSet::from([start]);
    let mut queue = VecDeque::from([start]);
    let mut states = Vec::new();
    while let Some(state) = queue.pop_front() {
        states.push(state);
        if states.len() >= cap {
            break;
        }
        for op in &task.operators {
            let applies = op.pre.iter().all(|&f| state.get(f as usize))
                && !op.neg_pre.iter().any(|&f| state.get(f as usize));
            if applies {
                let next = (state & !bits_of(&op.del)) | bits_of(&op.add);
                if seen.insert(next) {
                    queue.push_back(next);
                }
            }
        }
    }
    states
}

fn facts_of(state: B) -> Vec<u32> {
    let mut facts = Vec::new();
    state.for_each_one(|f| facts.push(u32::try_from(f).unwrap()));
    facts
}

#[test]
fn groups_are_sound_and_packed_actions_do_what_operators_do() {
    let mut grouped = 0;
    for (name, domain, problem) in tasks() {
        let task = grounded(&domain, &problem);
        let packing = Packing::new(&task, &h2_mutexes(&task));
        grouped += packing.groups().filter(|g| g.len() > 1).count();
        // Every fact is in exactly one group.
        let mut all: Vec<u32> = packing.groups().flatten().copied().collect();
        all.sort_unstable();
        assert_eq!(
            all,
            (0..u32::try_from(task.facts.len()).unwrap()).collect::<Vec<_>>(),
            "{name}"
        );
        for state in reachable(&task, 500) {
            for group in packing.groups() {
                let holding = group.iter().filter(|&&f| state.get(f as usize)).count();
                assert!(holding <= 1, "{name}: {holding} facts of {group:?}");
            }
            let packed: WorldState<B> = packing
                .encode(&facts_of(state))
                .unwrap_or_else(|| panic!("{name}: a reachable state does not pack"));
            let back: WorldState<B> = packing.decode(&packed);
            assert_eq!(back.bits(), state, "{name}: round trip");
            for op in &task.operators {
                let applies = op.pre.iter().all(|&f| state.get(f as usize))
                    && !op.neg_pre.iter().any(|&f| state.get(f as usize));
                let pre = packing.partial::<B>(&op.pre, &op.neg_pre);
                let (Some(pre), Some(eff)) = (pre, packing.effect::<B>(op)) else {
                    // Left out: it must never apply in a reachable state.
                    assert!(!applies, "{name}: {} left out but applies", op.name);
                    continue;
                };
                assert_eq!(packed.satisfies(&pre), applies, "{name}: {}", op.name);
                if applies {
                    let next = (state & !bits_of(&op.del)) | bits_of(&op.add);
                    let decoded: WorldState<B> = packing.decode(&packed.apply(&eff));
                    assert_eq!(decoded.bits(), next, "{name}: {}", op.name);
                }
            }
        }
    }
    assert!(grouped > 20, "{grouped} groups");
}

#[test]
fn a_packed_goal_decodes_to_the_fact_goal() {
    for (name, domain, problem) in tasks() {
        let task = grounded(&domain, &problem);
        let packing = Packing::new(&task, &h2_mutexes(&task));
        let goal: PartialState<B> = packing.partial(&task.goal, &task.goal_false).unwrap();
        let decoded: PartialState<B> = packing.decode_partial(&goal);
        let values = bits_of(&task.goal);
        assert_eq!(decoded.values(), values, "{name}");
        // Care may grow (a "none" field wants each of its facts false);
        // never shrink.
        assert_eq!(
            decoded.care() & (values | bits_of(&task.goal_false)),
            values | bits_of(&task.goal_false),
            "{name}"
        );
    }
}

fn config(direction: Direction, heuristic: &str) -> PlannerConfig {
    PlannerConfig {
        direction,
        algorithm: Algorithm::AStar,
        heuristic: tests::heuristic(heuristic),
        limits: SearchLimits {
            max_expansions: Some(200_000),
            ..SearchLimits::default()
        },
    }
}

#[test]
fn packed_and_unpacked_search_agree() {
    for (name, domain, problem) in tasks() {
        let task = grounded(&domain, &problem);
        assert!(task.facts.len() <= B::CAPACITY, "{name}");
        let facts = Task::<B>::new(&task).unwrap();
        let mut packed = PackedTask::<B, B>::new(&task, Packing::new(&task, &h2_mutexes(&task)))
            .unwrap()
            .unwrap();
        packed.set_mutexes(&h2_mutexes(&task));
        let mut unpacked = Task::<B>::new(&task).unwrap();
        unpacked.set_mutexes(&h2_mutexes(&task));
        let runs = [
            (Direction::Forward, "hmax"),
            (Direction::Forward, "lmcut"),
            (Direction::Regression, "hmax"),
        ];
        for (direction, heuristic) in runs {
            if direction == Direction::Regression && SLOW_REGRESSION.contains(&name.as_str()) {
                continue;
            }
            let what = format!("{name} {direction} {heuristic}");
            let planner = Planner::new(config(direction, heuristic));
            let a = planner
                .plan(&unpacked, &unpacked.start(), &unpacked.goal())
                .unwrap();
            let planner = Planner::new(config(direction, heuristic));
            let b = planner
                .plan(&packed, &packed.start(), &packed.goal())
                .unwrap();
            let (pa, pb) = (a.plan().unwrap(), b.plan().unwrap());
            assert_eq!(pa.cost, pb.cost, "{what}");
            // The packed plan replays on the packed task and on the facts.
            let ids: Vec<_> = pb
                .actions
                .iter()
                .map(|&id| facts.actions().find(packed.action_name(id)).unwrap())
                .collect();
            assert_eq!(
                PlanningDomain::validate(&facts, &facts.start(), &facts.goal(), &ids).unwrap(),
                pb.cost,
                "{what}"
            );
            assert_eq!(
                PlanningDomain::validate(&packed, &packed.start(), &packed.goal(), &pb.actions)
                    .unwrap(),
                pb.cost,
                "{what}"
            );
            if direction == Direction::Forward {
                let (sa, sb) = (a.forward.unwrap(), b.forward.unwrap());
                assert_eq!(sa.expanded, sb.expanded, "{what}");
                assert_eq!(sa.evaluated, sb.evaluated, "{what}");
            }
        }
    }
}

/// Packed on `SparseBits` (the packed pair beyond the fixed widths), a task
/// plans as packed on a fixed width: the same costs, and forward the same
/// expansions and evaluations.
#[test]
fn packing_on_sparse_bits_plans_as_on_a_fixed_width() {
    let small = [
        "logistics small",
        "gripper task01.pddl",
        "blocks task01.pddl",
    ];
    let tasks: Vec<_> = tasks()
        .into_iter()
        .filter(|t| small.contains(&t.0.as_str()))
        .collect();
    assert_eq!(tasks.len(), small.len());
    for (name, domain, problem) in &tasks {
        let task = grounded(domain, problem);
        let mutexes = h2_mutexes(&task);
        let packing = Packing::new(&task, &mutexes);
        let mut fixed = PackedTask::<B, B>::new(&task, packing.clone())
            .unwrap()
            .unwrap();
        let mut sparse = PackedTask::<SparseBits, SparseBits>::new(&task, packing)
            .unwrap()
            .unwrap();
        fixed.set_mutexes(&mutexes);
        sparse.set_mutexes(&mutexes);
        for (direction, heuristic) in [
            (Direction::Forward, "lmcut"),
            (Direction::Regression, "hmax"),
        ] {
            let what = format!("{name} {direction} {heuristic}");
            let a = Planner::new(config(direction, heuristic))
                .plan(&fixed, &fixed.start(), &fixed.goal())
                .unwrap();
            let b = Planner::new(config(direction, heuristic))
                .plan(&sparse, &sparse.start(), &sparse.goal())
                .unwrap();
            let (pa, pb) = (a.plan().unwrap(), b.plan().unwrap());
            assert_eq!(pa.cost, pb.cost, "{what}");
            assert_eq!(
                PlanningDomain::validate(&sparse, &sparse.start(), &sparse.goal(), &pb.actions)
                    .unwrap(),
                pb.cost,
                "{what}"
            );
            assert_eq!(a.stats().expanded, b.stats().expanded, "{what}");
            assert_eq!(a.stats().evaluated, b.stats().evaluated, "{what}");
        }
    }
}

#[test]
fn solving_packs_when_it_saves_words_and_agrees_without() {
    let cases = [
        ("elevators-opt08-strips", "p02"),
        ("sokoban-opt08-strips", "p01"),
        ("pegsol-08-strips", "p02"),
    ];
    let all = tasks();
    for (dir, task) in cases {
        let (name, domain, problem) = all
            .iter()
            .find(|(n, _, _)| *n == format!("{dir} {task}"))
            .unwrap();
        for (direction, heuristic) in [(Direction::Forward, "hmax"), (Direction::Forward, "lmcut")]
        {
            let what = format!("{name} {direction} {heuristic}");
            let config = config(direction, heuristic);
            let on = solve_text(domain, problem, &config, &PddlOptions::default()).unwrap();
            let off = PddlOptions {
                packing: false,
                ..PddlOptions::default()
            };
            let off = solve_text(domain, problem, &config, &off).unwrap();
            let stats = on.packing.as_ref().unwrap_or_else(|| panic!("{what}"));
            assert!(on.words < stats.fact_words, "{what}: {stats:?}");
            assert_eq!(
                (on.words, off.words, off.packing.is_none()),
                (1, 2, true),
                "{what}"
            );
            assert_eq!(
                on.plan.as_ref().unwrap().cost(),
                off.plan.as_ref().unwrap().cost(),
                "{what}"
            );
            // Same fact-level action indices: plans name the same operators.
            assert!(
                on.plan_text().unwrap().ends_with("(general cost)\n"),
                "{what}"
            );
            if direction == Direction::Forward {
                let (a, b) = (on.report.forward.unwrap(), off.report.forward.unwrap());
                assert_eq!(a.expanded, b.expanded, "{what}");
                assert!(a.estimated_bytes < b.estimated_bytes, "{what}");
            }
        }
    }
}

/// Heuristics that learn from the search (the landmark count hears of each
/// step; `h_FF` and the landmark count prefer steps) search the same packed
/// as unpacked: the packed view passes every step on. Freecell's task02 is
/// where a packed landmark count, hearing of no step, took every state for
/// a start and proved false dead ends.
#[test]
fn path_dependent_and_preferring_heuristics_search_the_same_packed() {
    let dir = tests::pddl_benchmarks().join("freecell");
    let mut all = tasks();
    all.push((
        "freecell task02".to_owned(),
        read(&dir, "domain.pddl"),
        read(&dir, "task02.pddl"),
    ));
    for (name, domain, problem) in all {
        let task = grounded(&domain, &problem);
        let packed = PackedTask::<B, B>::new(&task, Packing::new(&task, &h2_mutexes(&task)))
            .unwrap()
            .unwrap();
        let unpacked = Task::<B>::new(&task).unwrap();
        for (algorithm, heuristic) in [
            (Algorithm::GreedyBestFirst, "lmcount"),
            (Algorithm::LazyGreedy, "ff+lmcount"),
        ] {
            let what = format!("{name} {algorithm} {heuristic}");
            let config = PlannerConfig {
                algorithm,
                ..config(Direction::Forward, heuristic)
            };
            let a = Planner::new(config.clone())
                .plan(&unpacked, &unpacked.start(), &unpacked.goal())
                .unwrap();
            let b = Planner::new(config)
                .plan(&packed, &packed.start(), &packed.goal())
                .unwrap();
            let (pa, pb) = (a.plan(), b.plan());
            assert!(pa.is_some() && pb.is_some(), "{what}: {:?}", b.outcome);
            assert_eq!(pa.map(|p| p.cost), pb.map(|p| p.cost), "{what}");
            let (sa, sb) = (a.forward.unwrap(), b.forward.unwrap());
            assert_eq!(
                (sa.expanded, sa.evaluated, sa.dead_ends),
                (sb.expanded, sb.evaluated, sb.dead_ends),
                "{what}"
            );
        }
    }
}

/// A grid of `n` x `n` cells to walk, visiting the cells `goal` names.
fn grid_task(n: usize, goal: &[(usize, usize)]) -> (String, String) {
    let domain = "(define (domain grid) (:requirements :strips)
 (:predicates (at ?c) (adj ?a ?b) (visited ?c))
 (:action move :parameters (?a ?b) :precondition (and (at ?a) (adj ?a ?b))
  :effect (and (not (at ?a)) (at ?b) (visited ?b))))";
    let mut cells = String::new();
    let mut adjacent = String::new();
    for x in 0..n {
        for y in 0..n {
            let _ = write!(cells, " c{x}-{y}");
            for (a, b) in [(x + 1, y), (x, y + 1)] {
                if a < n && b < n {
                    let _ = write!(adjacent, " (adj c{x}-{y} c{a}-{b}) (adj c{a}-{b} c{x}-{y})");
                }
            }
        }
    }
    let mut visits = String::new();
    for (x, y) in goal {
        let _ = write!(visits, " (visited c{x}-{y})");
    }
    let problem = format!(
        "(define (problem g) (:domain grid) (:objects{cells})
 (:init (at c0-0){adjacent}) (:goal (and{visits})))"
    );
    (domain.to_owned(), problem)
}

/// The landmark count's table of every state it met counts toward the
/// memory limit on packed states as on fact states: the packed view reports
/// the table's bytes, which the engine adds to its estimate.
#[test]
fn the_landmark_counts_table_counts_toward_the_memory_limit_packed() {
    let (domain, problem) = grid_task(6, &[(5, 0), (0, 5), (5, 5), (3, 2)]);
    let task = grounded(&domain, &problem);
    let packed = PackedTask::<B, B>::new(&task, Packing::new(&task, &h2_mutexes(&task)))
        .unwrap()
        .unwrap();
    let (start, goal) = (packed.start(), packed.goal());
    let (view_start, view_goal) = packed.view_problem(&start, &goal);
    let made = tests::heuristic("lmcount")
        .forward(packed.task_view(), &view_start, &view_goal)
        .unwrap();
    let mut h = packed.view_forward(made);
    let space = packed.forward(&goal).unwrap();
    h.estimate(&start);
    let before = h.memory_bytes();
    space.successors(&start, |_, next, _| {
        h.notify_transition(&start, &next);
        h.estimate(&next);
    });
    assert!(before > 0 && h.memory_bytes() >= before, "{before}");

    // And a search under a memory limit stops on it.
    let config = PlannerConfig {
        algorithm: Algorithm::GreedyBestFirst,
        limits: SearchLimits {
            max_memory_bytes: Some(10 << 10),
            ..SearchLimits::default()
        },
        ..config(Direction::Forward, "lmcount")
    };
    let report = Planner::new(config).plan(&packed, &start, &goal).unwrap();
    assert_eq!(report.outcome.limit(), Some(search_core::Limit::Memory));
}
