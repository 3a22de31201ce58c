//! A village of GOAP agents in a headless bevy app: 1,000 villagers (the
//! hungry agent of searchlab's reference scenario 1, with work, sleep and a
//! restaurant) live for 1,000 frames within one planning budget per frame,
//! and the example prints the frame-time percentiles and the plans made
//! per frame.
//!
//! ```text
//! cargo run --release -p planners --features bevy --example bevy_agents
//! cargo run --release -p planners --features bevy --example bevy_agents -- --agents 10000 --budget 0 --threads 2
//! cargo run -p planners --features bevy --example bevy_agents -- --frames 20 --agents 100
//! ```
//!
//! `--threads N` plans on N threads ([`PlanningThreads`]); `--budget 0`
//! sets no frame budget (each villager still plans at most 16 expansions
//! a tick); `--trace FILE` records the first villager's searches and
//! writes its last plan's search as an HTML page (the search tree, and
//! the open list at each step).
//!
//! Villagers get hungry and tired again some frames after eating and
//! sleeping (sensors reading the village's clock), work for money, and take
//! several frames over most actions. The shop shuts for a while every 150
//! frames, so villagers who meant to buy groceries replan for the
//! restaurant, and replan back when it reopens.

use std::error::Error;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use planners::agent::{Agent, AgentEvent, ExecStatus, PlanningBudget, ReplanPolicy};
use planners::bevy::{
    FrameBudget, FrameReport, GoapAgent, GoapPlugin, GoapSystems, PlanningThreads, SharedWorld,
};
use planners::heuristics::heuristic;
use planners::{Budget, Direction, PlannerConfig};
use state_atomic::{ActionSet, Atom, AtomicError, WorldState};

/// The context the villagers' sensors and executors share.
#[derive(Resource)]
struct Village {
    frame: u64,
    meals: u64,
    shop_open: Atom,
}

/// What every villager's observers count.
#[derive(Default)]
struct Tally {
    plans: AtomicU64,
    replans: AtomicU64,
}

struct Options {
    frames: usize,
    agents: usize,
    budget: u64,
    threads: usize,
    trace: Option<String>,
}

fn options() -> Result<Options, Box<dyn Error>> {
    let mut options = Options {
        frames: 1000,
        agents: 1000,
        budget: 4000,
        threads: 1,
        trace: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |v: &str| v.parse::<u64>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--frames" => options.frames = usize::try_from(number(&value)?)?,
            "--agents" => options.agents = usize::try_from(number(&value)?)?,
            "--budget" => options.budget = number(&value)?,
            "--threads" => options.threads = usize::try_from(number(&value)?)?.max(1),
            "--trace" => options.trace = Some(value),
            _ => {
                return Err(format!(
                    "unknown option {flag} (--frames N --agents N --budget EXPANSIONS, 0 for none, --threads N, --trace FILE)"
                )
                .into())
            }
        }
    }
    Ok(options)
}

fn village() -> Result<ActionSet, AtomicError> {
    let mut a = ActionSet::<u64>::new();
    a.declare_shared("shop_open")?;
    a.declare_shared("restaurant_open")?;
    a.add_action("work", 10)
        .pre("has_money", false)
        .eff("has_money", true);
    a.add_action("buy_groceries", 15)
        .pre("shop_open", true)
        .pre("has_money", true)
        .eff("has_money", false)
        .eff("has_groceries", true);
    a.add_action("cook", 10)
        .pre("has_groceries", true)
        .eff("has_groceries", false)
        .eff("has_food", true);
    a.add_action("go_to_restaurant", 30)
        .pre("restaurant_open", true)
        .pre("has_money", true)
        .eff("has_money", false)
        .eff("has_food", true);
    a.add_action("search_fridge", 30)
        .pre("fridge_has_bread", true)
        .eff("fridge_has_bread", false)
        .eff("has_food", true);
    a.add_action("eat", 5)
        .pre("has_food", true)
        .eff("has_food", false)
        .eff("fed", true);
    a.add_action("sleep", 5)
        .pre("rested", false)
        .eff("rested", true);
    a.check()?;
    Ok(a)
}

/// An executor that takes `frames` frames, then succeeds.
fn lasting(frames: u64) -> impl FnMut(&WorldState) -> ExecStatus + Send + Sync {
    let mut left = frames;
    move |_| {
        left -= 1;
        if left == 0 {
            left = frames;
            ExecStatus::Success
        } else {
            ExecStatus::Running
        }
    }
}

/// A sensor that clears `atom` `after` frames after it became true.
fn wears_off(atom: Atom, after: u64) -> impl FnMut(&Village, &mut WorldState) + Send + Sync {
    let mut since = None;
    move |village, beliefs| {
        if !beliefs.get(atom) {
            since = None;
        } else if village.frame - *since.get_or_insert(village.frame) >= after {
            *beliefs = beliefs.with(atom, false);
        }
    }
}

fn villager(
    actions: &Arc<ActionSet>,
    i: u64,
    tally: &Arc<Tally>,
) -> Result<Agent<ActionSet, Village>, Box<dyn Error>> {
    let atom = |name| actions.registry().atom(name);
    // Varied starts: some have money, bread or groceries, some are fed.
    let own = [
        "has_money",
        "fridge_has_bread",
        "has_groceries",
        "fed",
        "rested",
    ]
    .iter()
    .enumerate()
    .filter(|&(bit, _)| (i >> bit) & 1 == 1)
    .map(|(_, &name)| name);
    let mut agent = Agent::new(Arc::clone(actions), actions.state(own)?);
    agent
        .set_planner(PlannerConfig {
            direction: Direction::Forward,
            heuristic: heuristic("hmax")?,
            ..PlannerConfig::default()
        })
        .set_planning_budget(PlanningBudget {
            per_tick: Some(Budget::Expansions(16)),
            watchdog: Some(Budget::Expansions(500)),
        })
        .set_replan_policy(ReplanPolicy {
            on_change: true,
            ..ReplanPolicy::default()
        })
        .add_goal("eat", actions.partial([("fed", true)])?, 3)
        .add_goal("sleep", actions.partial([("rested", true)])?, 2)
        .add_goal("earn", actions.partial([("has_money", true)])?, 1)
        .add_sensor(wears_off(atom("fed")?, 60 + i % 90))
        .add_sensor(wears_off(atom("rested")?, 150 + i % 200));
    agent
        .bind("work", lasting(3 + i % 6))?
        .bind("buy_groceries", lasting(2))?
        .bind("cook", lasting(4))?
        .bind("go_to_restaurant", lasting(3))?
        .bind("sleep", lasting(8 + i % 5))?;
    agent.bind_executor("eat", |_: &WorldState, village: &mut Village| {
        village.meals += 1;
        ExecStatus::Success
    })?;
    let tally = Arc::clone(tally);
    agent.observe(move |event: &AgentEvent<'_>| match event {
        AgentEvent::PlanFound { .. } => {
            tally.plans.fetch_add(1, Ordering::Relaxed);
        }
        AgentEvent::Replanning { .. } => {
            tally.replans.fetch_add(1, Ordering::Relaxed);
        }
        _ => {}
    });
    Ok(agent)
}

/// The clock ticks and the shop keeps its hours: shut for 40 frames in
/// every 150.
fn keep_hours(mut village: ResMut<Village>, mut world: ResMut<SharedWorld<ActionSet>>) {
    village.frame += 1;
    world.0 = world.0.with(village.shop_open, village.frame % 150 < 110);
}

/// The `q`-th quantile of sorted `times` (nearest rank).
fn quantile(times: &[Duration], q: f64) -> Duration {
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "an index into a list of at most millions of frames"
    )]
    let at = ((times.len() - 1) as f64 * q).round() as usize;
    times[at]
}

fn main() -> Result<(), Box<dyn Error>> {
    let options = options()?;
    let actions = Arc::new(village()?);
    let tally = Arc::new(Tally::default());

    let mut app = App::new();
    app.add_plugins(GoapPlugin::<ActionSet, Village>::new())
        .insert_resource(Village {
            frame: 0,
            meals: 0,
            shop_open: actions.registry().atom("shop_open")?,
        })
        .insert_resource(SharedWorld::<ActionSet>(
            actions.state(["shop_open", "restaurant_open"])?,
        ))
        .insert_resource(FrameBudget {
            per_frame: (options.budget > 0).then_some(Budget::Expansions(options.budget)),
        })
        .insert_resource(PlanningThreads(options.threads))
        .add_systems(Update, keep_hours.before(GoapSystems));
    let mut traced = None;
    for i in 0..options.agents as u64 {
        let mut agent = villager(&actions, i, &tally)?;
        if i == 0 && options.trace.is_some() {
            agent.record_traces(true);
        }
        let entity = app.world_mut().spawn(GoapAgent::new(agent)).id();
        traced.get_or_insert(entity);
    }
    app.finish();
    app.cleanup();

    let (mut ticks, mut expanded, mut waiting, mut errors) = (0, 0, 0, 0);
    let mut times = Vec::with_capacity(options.frames);
    let mut plans_per_frame = Vec::with_capacity(options.frames);
    // The slowest frame: its number, time, plans made and expansions.
    let mut slowest = (0, Duration::ZERO, 0, 0);
    for frame in 1..=options.frames {
        let plans = tally.plans.load(Ordering::Relaxed);
        let began = Instant::now();
        app.update();
        let time = began.elapsed();
        times.push(time);
        let report = app.world().resource::<FrameReport>();
        let plans = tally.plans.load(Ordering::Relaxed) - plans;
        plans_per_frame.push(plans);
        if time > slowest.1 {
            slowest = (frame, time, plans, report.expanded);
        }
        ticks += report.ticked;
        expanded += report.expanded;
        waiting += report.waiting;
        errors += report.errors.len();
    }
    if times.is_empty() {
        return Err("--frames 0: nothing to measure".into());
    }
    let total: Duration = times.iter().sum();
    times.sort_unstable();
    let budget = match options.budget {
        0 => "none".to_owned(),
        n => format!("{n} expansions"),
    };
    println!(
        "{} agents, {} frames, planning budget per frame: {budget}, {} planning thread(s)",
        options.agents, options.frames, options.threads
    );
    println!(
        "frame time: p50 {:?}, p90 {:?}, p99 {:?}, max {:?}, mean {:?}",
        quantile(&times, 0.5),
        quantile(&times, 0.9),
        quantile(&times, 0.99),
        times[times.len() - 1],
        total / u32::try_from(times.len())?,
    );
    let most_plans = plans_per_frame.iter().max().copied().unwrap_or(0);
    let all_plans: u64 = plans_per_frame.iter().sum();
    let frames = u64::try_from(plans_per_frame.len())?;
    println!(
        "plans per frame: mean {}, max {most_plans}",
        all_plans / frames
    );
    let (frame, time, plans, expansions) = slowest;
    println!("slowest: frame {frame}, {time:?}, {plans} plans, {expansions} expansions");
    println!(
        "{ticks} ticks, {} plans, {} replans, {expanded} expansions, {waiting} ticks left waiting for budget, {} meals, {errors} errors",
        tally.plans.load(Ordering::Relaxed),
        tally.replans.load(Ordering::Relaxed),
        app.world().resource::<Village>().meals,
    );
    if let (Some(path), Some(entity)) = (&options.trace, traced) {
        let villager = app
            .world()
            .get::<GoapAgent<ActionSet, Village>>(entity)
            .ok_or("the first villager is gone")?;
        let trace = villager
            .last_plan()
            .and_then(|plan| plan.trace.as_ref())
            .ok_or("the first villager made no plan with a trace")?;
        std::fs::write(path, trace.to_html())?;
        println!("wrote the first villager's last search to {path}");
    }
    Ok(())
}
