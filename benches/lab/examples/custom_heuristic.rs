//! A user heuristic as a new configuration of the benchmark suite, compared with
//! `h_max` in the same tables and plots.
//!
//! `cargo run --release -p searchlab-lab --example custom_heuristic [OUT_DIR]`
//!
//! The heuristic, "cheapest achiever": for every goal atom the state gets
//! wrong, the cheapest action that sets it right; the estimate is the
//! largest of those costs (admissible: each wrong atom needs at least one
//! such action), a dead end when some wrong atom has no achiever.

use std::path::PathBuf;

use planners::{Direction, HeuristicName};
use search_core::{Algorithm, Estimate, Heuristic};
use searchlab_lab::defaults::{generate, reference_problems};
use searchlab_lab::output::{write_outputs, OutputOptions};
use searchlab_lab::record::write_jsonl;
use searchlab_lab::report::Report;
use searchlab_lab::runner::{run_suite, RunOptions};
use searchlab_lab::suite::{AtomicProblem, Configuration, CustomHeuristic, Suite};
use state_atomic::{PartialState, WorldState};

/// The cheapest achiever of each goal atom, by bit position.
struct CheapestAchiever {
    goal: PartialState<u64>,
    cheapest: [Option<u32>; 64],
}

impl CheapestAchiever {
    fn new(problem: &AtomicProblem) -> Self {
        let goal = problem.goal;
        let mut cheapest = [None; 64];
        for action in problem.actions.iter() {
            // Goal atoms this action sets to the goal's value.
            let fixes = action.eff.care() & goal.care() & !(action.eff.values() ^ goal.values());
            for (bit, best) in cheapest.iter_mut().enumerate() {
                if fixes >> bit & 1 == 1 {
                    *best = Some(best.map_or(action.cost, |c: u32| c.min(action.cost)));
                }
            }
        }
        Self { goal, cheapest }
    }
}

impl Heuristic<WorldState<u64>, u32> for CheapestAchiever {
    fn estimate(&mut self, state: &WorldState<u64>) -> Estimate<u32> {
        let wrong = (state.bits() ^ self.goal.values()) & self.goal.care();
        let mut h = 0;
        for (bit, best) in self.cheapest.iter().enumerate() {
            if wrong >> bit & 1 == 1 {
                match best {
                    Some(cost) => h = h.max(*cost),
                    None => return Estimate::DeadEnd,
                }
            }
        }
        Estimate::Value(h)
    }

    fn is_admissible(&self) -> bool {
        true
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args_os().nth(1).map_or_else(
        || PathBuf::from("target/custom-heuristic-report"),
        PathBuf::from,
    );

    let mut suite = Suite::new("custom-heuristic");
    suite.limits = searchlab_lab::defaults::default_limits();
    suite.problems = reference_problems()?;
    for family in ["atomic-chains", "atomic-shortcuts", "atomic-toggles"] {
        for size in [16, 24, 32, 40] {
            for seed in [1, 2] {
                suite.problems.push(generate(family, size, seed)?);
            }
        }
    }

    // The two lines that make a heuristic a configuration.
    let cheapest =
        CustomHeuristic::new("cheapest").atomic_forward(|p| Box::new(CheapestAchiever::new(p)));
    suite.add_config(Configuration::custom(
        Direction::Forward,
        Algorithm::AStar,
        cheapest,
    ));
    suite.add_config(Configuration::builtin(
        Direction::Forward,
        Algorithm::AStar,
        HeuristicName::HMax,
    ));

    let records = run_suite(
        &suite,
        &RunOptions {
            progress: true,
            ..RunOptions::default()
        },
    )?;
    let report = Report::new(&records);
    println!("{}", report.console_summary());
    println!(
        "{}",
        report
            .compare_table("fwd-astar-hmax", "fwd-astar-cheapest")
            .to_console()
    );
    let options = OutputOptions {
        title: "A custom heuristic against h_max".to_owned(),
        compare: vec![("fwd-astar-hmax".to_owned(), "fwd-astar-cheapest".to_owned())],
        stem: "results".to_owned(),
        ..OutputOptions::default()
    };
    let results = out.join("results.jsonl");
    write_jsonl(&results, &records)?;
    println!("wrote {}", results.display());
    for path in write_outputs(&records, &out, &options)? {
        println!("wrote {}", path.display());
    }
    Ok(())
}
