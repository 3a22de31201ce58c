//! Plans into the caller's buffers ([`PlanBuffer`]): after a warm-up, a
//! plan of every reference scenario allocates nothing (a counting global
//! allocator counts), and the report and plan are the ones
//! [`Planner::plan`] gives.
//!
//! The allocator counts the whole process, so this file runs without the
//! test harness (its threads allocate as they report): `main` runs each
//! check in turn on one thread.

use std::alloc::System;

use planners::heuristics::heuristic;
use planners::{Direction, PlanBuffer, Planner, PlannerConfig, PlanningDomain};
use state_atomic::problems;
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

/// The system allocator, counting every allocation.
#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The allocations (new and grown) while `f` runs.
fn allocations_in(f: impl FnOnce()) -> usize {
    let region = Region::new(GLOBAL);
    f();
    let change = region.change();
    change.allocations + change.reallocations
}

/// Plans `start` to `goal` into one buffer: warms it up, then checks that
/// 100 more plans allocate nothing and that the plan is `plan`'s, with the
/// states along it.
fn check_allocation_free<D: PlanningDomain>(
    name: &str,
    domain: &D,
    start: &D::State,
    goal: &D::Goal,
    config: PlannerConfig,
) {
    let planner = Planner::new(config);
    let expected = planner.plan(domain, start, goal).unwrap();
    let expected = expected.plan().expect("the scenario has a plan");
    let mut buffer = PlanBuffer::new().with_states(true);
    for _ in 0..3 {
        planner.plan_into(domain, start, goal, &mut buffer).unwrap();
    }
    let allocated = allocations_in(|| {
        for _ in 0..100 {
            let report = planner.plan_into(domain, start, goal, &mut buffer).unwrap();
            assert_eq!(report.plan().map(|p| p.cost), Some(expected.cost));
        }
    });
    assert_eq!(allocated, 0, "{name}: allocations in 100 plans");
    assert_eq!(buffer.plan(), Some(expected), "{name}");
    let states = buffer.states();
    assert_eq!(states.len(), expected.len() + 1, "{name}");
    assert_eq!(&states[0], start, "{name}");
    assert!(domain.validate(start, goal, &expected.actions).is_ok());
}

fn config(name: &str) -> PlannerConfig {
    PlannerConfig {
        heuristic: heuristic(name).unwrap(),
        ..PlannerConfig::default()
    }
}

fn atomic_reference_scenarios_plan_without_allocating() {
    let scenarios = [
        problems::hungry_agent::<u64>().unwrap(),
        problems::enemy_ship(&["safe", "ammo_full"]).unwrap(),
        problems::enemy_ship(&["safe", "ammo_full", "player_weak"]).unwrap(),
        problems::enemy_ship(&["ammo_full"]).unwrap(),
        problems::enemy_ship(&["safe", "ammo_full", "aim_ready"]).unwrap(),
        problems::consumed_fact().unwrap(),
    ];
    for p in &scenarios {
        for h in ["blind", "mismatch", "hmax"] {
            let name = format!("{} {h}", p.name);
            check_allocation_free(&name, &p.actions, &p.start, &p.goal, config(h));
        }
    }
}

fn factored_hitman_plans_without_allocating() {
    let p = state_factored::problems::hitman().unwrap();
    check_allocation_free("hitman", &p.domain, &p.start, &p.goal, config("blind"));
}

fn the_general_path_gives_the_report_plan_gives_with_its_states() {
    // Regression and the portfolio run as `plan` does; the states are
    // replayed forward.
    let p = problems::hungry_agent::<u64>().unwrap();
    for direction in [Direction::Regression, Direction::Portfolio] {
        let planner = Planner::new(PlannerConfig {
            direction,
            ..config("hmax")
        });
        let expected = planner.plan(&p.actions, &p.start, &p.goal).unwrap();
        let mut buffer = PlanBuffer::new().with_states(true).with_timing(true);
        let report = planner
            .plan_into(&p.actions, &p.start, &p.goal, &mut buffer)
            .unwrap();
        assert_eq!(report.plan(), expected.plan());
        assert!(report.elapsed > std::time::Duration::ZERO);
        let plan = buffer.plan().unwrap().clone();
        let states = buffer.states();
        assert_eq!(states.len(), plan.len() + 1);
        assert_eq!(states[0], p.start);
        assert!(states[plan.len()].satisfies(&p.goal));
    }
}

fn a_problem_too_large_for_the_tiny_engine_plans_as_plan_does() {
    // Forward A* with h_max stores thousands of nodes on toggles-40, more
    // than the tiny engine keeps: the general engine answers.
    let p = problems::toggles::<u64>(40, 1).unwrap();
    let planner = Planner::new(config("hmax"));
    let expected = planner.plan(&p.actions, &p.start, &p.goal).unwrap();
    assert!(expected.stats().stored > search_core::TINY_MAX_NODES);
    let mut buffer = PlanBuffer::new().with_states(true);
    let report = planner
        .plan_into(&p.actions, &p.start, &p.goal, &mut buffer)
        .unwrap();
    assert_eq!(report.plan(), expected.plan());
    assert_eq!(report.stats().expanded, expected.stats().expanded);
    let plan = buffer.plan().unwrap().clone();
    assert_eq!(buffer.states().len(), plan.len() + 1);
    assert!(buffer.states()[plan.len()].satisfies(&p.goal));
}

fn a_buffer_without_a_plan_says_so_and_keeps_no_states() {
    let mut actions = state_atomic::ActionSet::<u64>::new();
    actions
        .add_action("eat", 5)
        .pre("has_food", true)
        .eff("fed", true);
    let goal = actions.partial([("fed", true)]).unwrap();
    let fed = actions.state(["has_food"]).unwrap();
    let hungry = actions.state([]).unwrap();
    let planner = Planner::new(config("hmax"));
    let mut buffer = PlanBuffer::new().with_states(true);
    planner
        .plan_into(&actions, &fed, &goal, &mut buffer)
        .unwrap();
    assert_eq!(buffer.states().len(), 2);
    let report = planner
        .plan_into(&actions, &hungry, &goal, &mut buffer)
        .unwrap();
    assert!(report.plan().is_none());
    assert_eq!(report.outcome.name(), "unsolvable");
    assert!(buffer.states().is_empty());
    // Without timing, nothing reads the clock.
    assert_eq!(buffer.report().elapsed, std::time::Duration::ZERO);
}

fn main() {
    let checks: [(&str, fn()); 5] = [
        (
            "atomic reference scenarios plan without allocating",
            atomic_reference_scenarios_plan_without_allocating,
        ),
        (
            "factored hitman plans without allocating",
            factored_hitman_plans_without_allocating,
        ),
        (
            "the general path gives the report plan gives, with its states",
            the_general_path_gives_the_report_plan_gives_with_its_states,
        ),
        (
            "a problem too large for the tiny engine plans as plan does",
            a_problem_too_large_for_the_tiny_engine_plans_as_plan_does,
        ),
        (
            "a buffer without a plan says so and keeps no states",
            a_buffer_without_a_plan_says_so_and_keeps_no_states,
        ),
    ];
    for (name, check) in checks {
        check();
        println!("{name} ... ok");
    }
}
