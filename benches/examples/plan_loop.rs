//! Plans one reference scenario many times through one `Planner`, as a
//! replanning agent does: a loop to count instructions per plan with
//! callgrind (`valgrind --tool=callgrind target/release/examples/plan_loop
//! hungry-agent hmax 20000`, then divide the total by the count).
//!
//! Arguments: the scenario (`hungry-agent`, `consumed-fact`, `hitman`),
//! the heuristic (a built-in name) and the number of plans.

use std::hint::black_box;
use std::process::ExitCode;

use planners::heuristics::heuristic;
use planners::{Planner, PlannerConfig, PlanningDomain};
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
        "hungry-agent" | "consumed-fact" => {
            let problem = if scenario == "hungry-agent" {
                problems::hungry_agent::<u64>()
            } else {
                problems::consumed_fact()
            };
            let Ok(p) = problem else {
                eprintln!("the scenario does not build");
                return ExitCode::FAILURE;
            };
            plan_many(config, (&p.actions, &p.start, &p.goal), plans)
        }
        "hitman" => {
            let Ok(p) = hitman_spec().build() else {
                eprintln!("the scenario does not build");
                return ExitCode::FAILURE;
            };
            plan_many(config, (&p.domain, &p.start, &p.goal), plans)
        }
        other => {
            eprintln!("unknown scenario `{other}` (hungry-agent, consumed-fact, hitman)");
            return ExitCode::FAILURE;
        }
    };
    println!("{plans} plans, costs summing to {total}");
    ExitCode::SUCCESS
}

/// Plans `plans` times through one planner made once; the sum of the costs.
fn plan_many<D: PlanningDomain>(
    config: PlannerConfig,
    (domain, start, goal): (&D, &D::State, &D::Goal),
    plans: u64,
) -> u64 {
    let planner = Planner::new(config);
    (0..plans)
        .filter_map(|_| planner.plan(black_box(domain), start, goal).ok())
        .filter_map(|report| report.plan().map(|plan| plan.cost))
        .sum()
}
