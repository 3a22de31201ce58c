//! Plans one reference scenario many times through one `Planner`, as a
//! replanning agent does: a loop to count instructions per plan with
//! callgrind (`valgrind --tool=callgrind target/release/examples/plan_loop
//! hungry-agent hmax 20000`, then divide the total by the count).
//!
//! Arguments: the scenario (`hungry-agent`, `consumed-fact`,
//! `enemy-ship-4` (the ship that starts safe, with full ammunition and its
//! aim ready), `hitman`), the heuristic (a built-in name), the number of
//! plans, and `buffer` to plan into one kept `PlanBuffer`
//! (`Planner::plan_into`) instead of through `Planner::plan`.

use std::hint::black_box;
use std::process::ExitCode;

use planners::heuristics::heuristic;
use planners::{PlanBuffer, Planner, PlannerConfig, PlanningDomain};
use state_atomic::problems;
use state_factored::problems::hitman_spec;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let scenario = args.next().unwrap_or_else(|| "hungry-agent".to_owned());
    let name = args.next().unwrap_or_else(|| "hmax".to_owned());
    let Some(plans) = args.next().map_or(Some(10_000), |n| n.parse::<u64>().ok()) else {
        eprintln!("the number of plans must be a whole number");
        return ExitCode::FAILURE;
    };
    let into_buffer = match args.next().as_deref() {
        None => false,
        Some("buffer") => true,
        Some(other) => {
            eprintln!("unknown mode `{other}` (buffer, or nothing)");
            return ExitCode::FAILURE;
        }
    };
    let config = match heuristic(&name) {
        Ok(heuristic) => PlannerConfig {
            heuristic,
            ..PlannerConfig::default()
        },
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let total = match scenario.as_str() {
        "hungry-agent" | "consumed-fact" | "enemy-ship-4" => {
            let problem = match scenario.as_str() {
                "hungry-agent" => problems::hungry_agent::<u64>(),
                "consumed-fact" => problems::consumed_fact(),
                _ => problems::enemy_ship(&["safe", "ammo_full", "aim_ready"]),
            };
            let Ok(p) = problem else {
                eprintln!("the scenario does not build");
                return ExitCode::FAILURE;
            };
            plan_many(config, (&p.actions, &p.start, &p.goal), plans, into_buffer)
        }
        "hitman" => {
            let Ok(p) = hitman_spec().build() else {
                eprintln!("the scenario does not build");
                return ExitCode::FAILURE;
            };
            plan_many(config, (&p.domain, &p.start, &p.goal), plans, into_buffer)
        }
        other => {
            eprintln!(
                "unknown scenario `{other}` (hungry-agent, consumed-fact, enemy-ship-4, hitman)"
            );
            return ExitCode::FAILURE;
        }
    };
    println!("{plans} plans, costs summing to {total}");
    ExitCode::SUCCESS
}

/// Plans `plans` times through one planner made once, into one kept
/// buffer if `into_buffer`; the sum of the costs.
fn plan_many<D: PlanningDomain>(
    config: PlannerConfig,
    (domain, start, goal): (&D, &D::State, &D::Goal),
    plans: u64,
    into_buffer: bool,
) -> u64 {
    let planner = Planner::new(config);
    let mut buffer = PlanBuffer::new();
    let mut total = 0;
    for _ in 0..plans {
        let cost = if into_buffer {
            planner
                .plan_into(black_box(domain), start, goal, &mut buffer)
                .ok()
                .and_then(|report| report.plan().map(|plan| plan.cost))
        } else {
            planner
                .plan(black_box(domain), start, goal)
                .ok()
                .and_then(|report| report.plan().map(|plan| plan.cost))
        };
        total += cost.unwrap_or(0);
    }
    total
}
