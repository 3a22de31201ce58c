//! Three enemy ships from searchlab's reference scenario hunt a player over
//! a few dozen ticks while the world changes under them. Run with
//! `cargo run -p planners --example enemy_ships`.
//!
//! The player (shared by every ship) respawns after being killed and is
//! sometimes weak; each ship has its own ammo, aim and position, and its own
//! executors for the shared actions: the gunner's shots miss now and then,
//! the scout chases slowly.

use std::sync::{Arc, Mutex};

use planners::agent::{Agent, AgentEvent, ExecStatus};
use planners::heuristics::heuristic;
use planners::{Direction, PlannerConfig};
use state_atomic::{ActionSet, AtomicError, WorldState};

fn actions() -> Result<ActionSet, AtomicError> {
    let mut a = ActionSet::<u64>::new();
    for shared in ["player_weak", "player_killed"] {
        a.declare_shared(shared)?;
    }
    for own in ["safe", "in_safe_zone", "ammo_full", "aim_ready"] {
        a.declare(own)?;
    }
    a.add_action("low_accuracy_shot", 1)
        .pre("in_safe_zone", true)
        .eff("player_killed", true);
    a.add_action("chase", 4)
        .pre("ammo_full", true)
        .pre("player_weak", true)
        .eff("player_killed", true);
    a.add_action("aim", 3)
        .pre("aim_ready", false)
        .eff("aim_ready", true);
    a.add_action("shoot", 2)
        .pre("aim_ready", true)
        .eff("player_killed", true);
    a.add_action("evade", 1)
        .pre("safe", false)
        .eff("in_safe_zone", true);
    a.check()?;
    Ok(a)
}

/// An executor that takes `ticks` ticks and then succeeds.
fn lasting(ticks: u32) -> impl FnMut(&WorldState) -> ExecStatus + Send {
    let mut left = ticks;
    move |_| {
        left -= 1;
        if left == 0 {
            left = ticks;
            ExecStatus::Success
        } else {
            ExecStatus::Running
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let actions = Arc::new(actions()?);
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let config = PlannerConfig {
        direction: Direction::Forward,
        heuristic: heuristic("hmax")?,
        ..PlannerConfig::default()
    };
    let mut ships = Vec::new();
    for (name, own) in [
        ("gunner", vec!["safe", "ammo_full"]),
        ("scout", vec!["safe", "ammo_full"]),
        ("sniper", vec!["ammo_full"]),
    ] {
        let mut ship = Agent::new(Arc::clone(&actions), actions.state(own)?);
        ship.set_planner(config.clone());
        ship.add_goal(
            "kill the player",
            actions.partial([("player_killed", true)])?,
            1,
        );
        let log = Arc::clone(&lines);
        ship.observe(move |event: &AgentEvent<'_>| {
            log.lock()
                .map(|mut l| l.push(format!("{name:>6} {event}")))
                .ok();
        });
        ship.bind("aim", lasting(2))?;
        ship.bind("chase", lasting(if name == "scout" { 3 } else { 2 }))?;
        if name == "gunner" {
            let mut shots = 0;
            ship.bind("shoot", move |_: &WorldState| {
                shots += 1;
                if shots % 2 == 1 {
                    ExecStatus::Failure // every other shot misses
                } else {
                    ExecStatus::Success
                }
            })?;
        }
        ships.push(ship);
    }

    let killed = actions.registry().atom("player_killed")?;
    let weak = actions.registry().atom("player_weak")?;
    let mut world = actions.state([])?;
    for tick in 0..24 {
        // The world moves: the player respawns two ticks after dying and is
        // weak on every fifth tick.
        if tick % 6 == 0 && world.get(killed) {
            world = world.with(killed, false);
            println!("tick {tick:>2}: the player respawns");
        }
        world = world.with(weak, tick % 5 == 4);
        for ship in &mut ships {
            ship.tick(&mut world)?;
        }
        for line in lines
            .lock()
            .map(|mut l| std::mem::take(&mut *l))
            .unwrap_or_default()
        {
            println!("tick {tick:>2}: {line}");
        }
    }
    Ok(())
}
