//! A goal-pattern database as a user heuristic: builds one for a few
//! reference problems and plans with A* forward and by regression, timing
//! the database's setup apart from the search.
//!
//! `cargo run --release -p searchlab-lab --example pattern_database [MAX_ATOMS]`
//!
//! The heuristic lives in `pdb.rs`; `cargo test -p searchlab-lab --example
//! pattern_database` runs its property tests.

mod pdb;

use std::error::Error;
use std::time::{Duration, Instant};

use pdb::{ForwardPdb, RegressionPdb, DEFAULT_MAX_ATOMS, MAX_PATTERN_ATOMS};
use search_core::{Algorithm, Estimate, Heuristic, Search, SearchSpace};
use state_atomic::problems::{self, Problem};
use state_atomic::{ForwardSpace, RegressionSpace};

/// What one A* run found and how long it took.
struct Run {
    cost: Option<u32>,
    expanded: u64,
    time: Duration,
}

fn astar<S, H>(space: &S, start: S::Node, heuristic: H) -> Result<Run, Box<dyn Error>>
where
    S: SearchSpace<Cost = u32>,
    H: Heuristic<S::Node, u32>,
{
    let began = Instant::now();
    let result = Search::new(space, start)
        .algorithm(Algorithm::AStar)
        .heuristic(heuristic)
        .run()?;
    Ok(Run {
        cost: result.outcome.solution().map(|s| s.cost),
        expanded: result.stats.expanded,
        time: began.elapsed(),
    })
}

fn show_estimate(h: Estimate<u32>) -> String {
    match h {
        Estimate::Value(h) => h.to_string(),
        Estimate::DeadEnd => "dead end".to_owned(),
    }
}

fn show_cost(cost: Option<u32>) -> String {
    cost.map_or_else(|| "no plan".to_owned(), |c| c.to_string())
}

fn report(problem: &Problem, max_atoms: usize) -> Result<(), Box<dyn Error>> {
    let names: Vec<&str> = problem.actions.registry().names().collect();

    let began = Instant::now();
    let mut forward = ForwardPdb::new(&problem.actions, &problem.goal, max_atoms);
    let forward_setup = began.elapsed();
    let pattern: Vec<&str> = forward
        .pattern()
        .iter()
        .map(|&i| names.get(i).copied().unwrap_or("?"))
        .collect();
    println!("{}: pattern {pattern:?}", problem.name);
    println!(
        "  forward:    setup {forward_setup:>10.2?} ({} atoms, {} entries), h(start) = {}",
        forward.pattern().len(),
        forward.table_size(),
        show_estimate(forward.estimate(&problem.start)),
    );
    let space = ForwardSpace::new(&problem.actions, problem.goal)?;
    let run = astar(&space, problem.start, forward)?;
    println!(
        "              A* cost {:>8}, {:>6} expanded, search {:>10.2?}",
        show_cost(run.cost),
        run.expanded,
        run.time
    );

    let began = Instant::now();
    let mut regression =
        RegressionPdb::new(&problem.actions, &problem.start, &problem.goal, max_atoms);
    let regression_setup = began.elapsed();
    println!(
        "  regression: setup {regression_setup:>10.2?} ({} atoms, {} entries), h(goal) = {}",
        regression.pattern().len(),
        regression.table_size(),
        show_estimate(regression.estimate(&problem.goal)),
    );
    let space = RegressionSpace::new(&problem.actions, problem.start, problem.goal)?;
    let run = astar(&space, problem.goal, regression)?;
    println!(
        "              A* cost {:>8}, {:>6} expanded, search {:>10.2?}",
        show_cost(run.cost),
        run.expanded,
        run.time
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let max_atoms = match std::env::args().nth(1) {
        None => DEFAULT_MAX_ATOMS,
        Some(text) => text
            .parse()
            .map_err(|e| format!("MAX_ATOMS `{text}`: {e}"))?,
    };
    if max_atoms > MAX_PATTERN_ATOMS {
        println!("patterns hold at most {MAX_PATTERN_ATOMS} atoms; using {MAX_PATTERN_ATOMS}");
    }
    let problems = [
        problems::hungry_agent()?,
        problems::enemy_ship(&["safe", "ammo_full"])?,
        problems::consumed_fact()?,
        problems::chains(24, 1)?,
        problems::toggles(40, 1)?,
    ];
    for problem in &problems {
        report(problem, max_atoms)?;
    }
    Ok(())
}
