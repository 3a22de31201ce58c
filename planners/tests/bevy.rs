//! GOAP agents in a bevy app: the plugin ticks every agent, lends them the
//! context, keeps the frame's planning budget, rotates so that no agent
//! starves, and the agents reach their goals.
#![cfg(feature = "bevy")]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use planners::agent::{Agent, AgentEvent, ExecStatus, PlanningBudget, TickStatus};
use planners::bevy::{
    FrameBudget, FrameReport, GoapAgent, GoapPlugin, PlanningThreads, SharedWorld,
};
use planners::{Budget, PlanError, PlannerConfig};
use search_core::Algorithm;
use state_atomic::{ActionSet, WorldState};

/// The game's side: how many times executors ran.
#[derive(Resource, Default)]
struct Game {
    steps: usize,
}

/// A walk `s0 -> s6` in six actions: seven expansions to plan from `s0`.
fn walk() -> Arc<ActionSet> {
    let mut actions = ActionSet::<u64>::new();
    for i in 0..6 {
        actions
            .add_action(&format!("step{i}"), 1)
            .pre(&format!("s{i}"), true)
            .eff(&format!("s{}", i + 1), true);
    }
    Arc::new(actions)
}

fn app<C: Resource>(actions: &ActionSet, budget: Option<Budget>, context: C) -> App {
    let mut app = App::new();
    app.add_plugins(GoapPlugin::<ActionSet, C>::new())
        .insert_resource(SharedWorld::<ActionSet>(actions.state([]).unwrap()))
        .insert_resource(FrameBudget { per_frame: budget })
        .insert_resource(context);
    app
}

fn report(app: &App) -> &FrameReport {
    app.world().resource::<FrameReport>()
}

/// A walker that counts its arrivals and, once there, starts over.
fn walker<C: 'static>(
    actions: &Arc<ActionSet>,
    arrivals: &Arc<AtomicUsize>,
) -> Agent<ActionSet, C> {
    let start = actions.state(["s0"]).unwrap();
    let end = actions.registry().atom("s6").unwrap();
    let mut agent = Agent::new(Arc::clone(actions), start);
    agent.add_goal("walk", actions.partial([("s6", true)]).unwrap(), 1);
    agent.set_planning_budget(PlanningBudget {
        per_tick: Some(Budget::Expansions(4)),
        watchdog: None,
    });
    agent.add_sensor(move |_: &C, beliefs: &mut WorldState| {
        if beliefs.get(end) {
            *beliefs = start;
        }
    });
    let arrivals = Arc::clone(arrivals);
    agent.observe(move |event: &AgentEvent<'_>| {
        if matches!(event, AgentEvent::GoalReached { .. }) {
            arrivals.fetch_add(1, Ordering::Relaxed);
        }
    });
    agent
}

#[test]
fn the_plugin_ticks_every_agent_with_the_context() {
    let actions = walk();
    let mut app = app(&actions, None, Game::default());
    for _ in 0..30 {
        let mut agent: Agent<ActionSet, Game> =
            Agent::new(Arc::clone(&actions), actions.state(["s0"]).unwrap());
        agent.add_goal("walk", actions.partial([("s1", true)]).unwrap(), 1);
        agent
            .bind_executor("step0", |_: &WorldState, game: &mut Game| {
                game.steps += 1;
                ExecStatus::Running // a walk that never ends
            })
            .unwrap();
        app.world_mut().spawn(GoapAgent::new(agent));
    }
    for frame in 1..=5 {
        app.update();
        let report = report(&app);
        assert_eq!((report.ticked, report.acting), (30, 30));
        assert_eq!(app.world().resource::<Game>().steps, 30 * frame);
    }
    let mut agents = app.world_mut().query::<&GoapAgent<ActionSet, Game>>();
    assert!(agents
        .iter(app.world())
        .all(|agent| agent.status() == Some(TickStatus::Acting)));
}

#[test]
fn an_expansion_budget_is_kept_and_no_agent_starves() {
    let actions = walk();
    let budget = 10;
    let mut app = app(&actions, Some(Budget::Expansions(budget)), Game::default());
    // Each walker wants a plan (seven expansions) every seven frames: 40 of
    // them want four times the budget.
    let arrivals: Vec<Arc<AtomicUsize>> = (0..40).map(|_| Arc::default()).collect();
    for count in &arrivals {
        app.world_mut()
            .spawn(GoapAgent::new(walker::<Game>(&actions, count)));
    }
    let (mut expanded, mut waited) = (0, 0);
    for _ in 0..300 {
        app.update();
        let report = report(&app);
        assert_eq!(report.ticked, 40);
        assert!(report.expanded <= budget, "{} expansions", report.expanded);
        expanded += report.expanded;
        waited += report.waiting;
    }
    assert!(waited > 0, "the budget never ran out");
    assert!(
        expanded > 290 * budget,
        "the budget went unused: {expanded}"
    );
    // 3,000 expansions make about 430 plans: each of the 40 walkers gets
    // its turn, in order.
    let arrived: Vec<usize> = arrivals.iter().map(|a| a.load(Ordering::Relaxed)).collect();
    let (least, most) = (arrived.iter().min(), arrived.iter().max());
    assert!(least >= Some(&9), "an agent starved: {arrived:?}");
    assert!(most <= Some(&12), "{arrived:?}");
}

#[test]
fn a_spent_time_budget_stops_planning_until_more_is_given() {
    let actions = walk();
    let mut app = app(
        &actions,
        Some(Budget::Time(Duration::ZERO)),
        Game::default(),
    );
    let arrivals = Arc::default();
    for _ in 0..5 {
        app.world_mut()
            .spawn(GoapAgent::new(walker::<Game>(&actions, &arrivals)));
    }
    for _ in 0..3 {
        app.update();
        let report = report(&app);
        assert_eq!((report.expanded, report.waiting), (0, 5));
    }
    app.world_mut().resource_mut::<FrameBudget>().per_frame =
        Some(Budget::Time(Duration::from_secs(60)));
    for _ in 0..8 {
        app.update();
    }
    assert_eq!(arrivals.load(Ordering::Relaxed), 5);
}

#[test]
fn villagers_reach_their_goals_through_a_shared_world() {
    let mut actions = ActionSet::<u64>::new();
    actions.declare_shared("shop_open").unwrap();
    actions.declare_shared("meals_served").unwrap();
    actions
        .add_action("buy_groceries", 15)
        .pre("shop_open", true)
        .eff("has_groceries", true);
    actions
        .add_action("cook", 10)
        .pre("has_groceries", true)
        .eff("has_food", true);
    actions
        .add_action("search_fridge", 8)
        .pre("fridge_has_bread", true)
        .eff("has_food", true);
    actions
        .add_action("eat", 5)
        .pre("has_food", true)
        .eff("fed", true)
        .eff("meals_served", true);
    let actions = Arc::new(actions);
    let mut app = app(&actions, Some(Budget::Expansions(20)), Game::default());
    app.world_mut().resource_mut::<SharedWorld<ActionSet>>().0 =
        actions.state(["shop_open"]).unwrap();
    for i in 0..20 {
        let own = if i % 3 == 0 {
            actions.state(["fridge_has_bread"]).unwrap()
        } else {
            actions.state([]).unwrap()
        };
        let mut villager: Agent<ActionSet, Game> = Agent::new(Arc::clone(&actions), own);
        villager.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
        let mut left = 1 + i % 4; // cooking takes one to four frames
        villager
            .bind_executor("cook", move |_: &WorldState, game: &mut Game| {
                game.steps += 1;
                left -= 1;
                if left == 0 {
                    ExecStatus::Success
                } else {
                    ExecStatus::Running
                }
            })
            .unwrap();
        app.world_mut().spawn(GoapAgent::new(villager));
    }
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(report(&app).idle, 20);
    let fed = actions.partial([("fed", true)]).unwrap();
    let mut agents = app.world_mut().query::<&GoapAgent<ActionSet, Game>>();
    let world = &app.world().resource::<SharedWorld<ActionSet>>().0;
    assert!(world.get(actions.registry().atom("meals_served").unwrap()));
    for villager in agents.iter(app.world()) {
        assert!(villager.view(world).satisfies(&fed));
    }
    // Villagers without bread cooked, for 1 + i % 4 frames each.
    let cooked: usize = (0..20).filter(|i| i % 3 != 0).map(|i| 1 + i % 4).sum();
    assert_eq!(app.world().resource::<Game>().steps, cooked);
}

#[test]
fn a_failed_tick_is_reported_not_panicked() {
    let actions = walk();
    let mut app = app(&actions, None, Game::default());
    let mut agent: Agent<ActionSet, Game> =
        Agent::new(Arc::clone(&actions), actions.state(["s0"]).unwrap());
    agent.add_goal("walk", actions.partial([("s6", true)]).unwrap(), 1);
    agent.set_planner(PlannerConfig {
        algorithm: Algorithm::LazyGreedy, // not sliced: every tick fails
        ..PlannerConfig::default()
    });
    let entity = app.world_mut().spawn(GoapAgent::new(agent)).id();
    app.update();
    let report = report(&app);
    assert_eq!(report.ticked, 1);
    assert!(matches!(
        report.errors.as_slice(),
        [(e, PlanError::NotSliced { .. })] if *e == entity
    ));
    let agent = app.world().get::<GoapAgent<ActionSet, Game>>(entity);
    assert_eq!(agent.and_then(GoapAgent::status), None);
}

/// On two threads the plan phases keep the frame's expansion budget (each
/// thread a half) and every walker gets its turns, arriving as often as on
/// one thread.
#[test]
fn plan_phases_on_two_threads_keep_the_budget_and_starve_no_agent() {
    let actions = walk();
    let arrivals_with = |threads: usize| {
        let budget = 20;
        let mut app = app(&actions, Some(Budget::Expansions(budget)), Game::default());
        app.insert_resource(PlanningThreads(threads));
        let arrivals: Vec<Arc<AtomicUsize>> = (0..40).map(|_| Arc::default()).collect();
        for count in &arrivals {
            app.world_mut()
                .spawn(GoapAgent::new(walker::<Game>(&actions, count)));
        }
        let mut expanded = 0;
        for _ in 0..300 {
            app.update();
            let report = report(&app);
            assert_eq!(report.ticked, 40);
            assert!(report.expanded <= budget, "{} expansions", report.expanded);
            assert!(report.errors.is_empty());
            expanded += report.expanded;
        }
        let arrived: Vec<usize> = arrivals.iter().map(|a| a.load(Ordering::Relaxed)).collect();
        (arrived, expanded)
    };
    let (one, one_expanded) = arrivals_with(1);
    let (two, two_expanded) = arrivals_with(2);
    assert!(two.iter().min() >= Some(&9), "an agent starved: {two:?}");
    let total = |arrived: &[usize]| arrived.iter().sum::<usize>();
    assert!(total(&two) + 40 >= total(&one), "{two:?} against {one:?}");
    assert!(two_expanded > 290 * 20 && one_expanded > 290 * 20);
}
