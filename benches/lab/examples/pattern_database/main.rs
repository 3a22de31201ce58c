//! A goal-pattern database as a user heuristic of the `searchlab` command
//! line: registered once for atomic tasks of every width (generated
//! problems and PDDL tasks), skipped on factored ones, and compared with
//! `h_max` in both directions. Each record carries the database's setup time
//! apart from its search time; the example prints them side by side.
//!
//! `cargo run --release -p searchlab-lab --example pattern_database` runs
//! benches/suites/pattern-database.toml into target/pattern-database; with
//! arguments it is `searchlab` itself, knowing `pdb`.
//!
//! The heuristic lives in `pdb.rs`; `cargo test -p searchlab-lab --example
//! pattern_database` runs its property tests (A* with it agrees with
//! Dijkstra, in both directions).

mod pdb;

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;

use pdb::{ForwardPdb, RegressionPdb, DEFAULT_MAX_ATOMS};
use planners::heuristics::{AtomicFactory, NamedHeuristic};
use planners::BoxedHeuristic;
use searchlab_lab::record::read_jsonl;
use searchlab_lab::Lab;
use state_atomic::{ActionSet, Bits, PartialState, WorldState};

/// Builds a database per search, over up to `max_atoms` goal atoms.
struct PatternDatabase {
    max_atoms: usize,
}

impl AtomicFactory for PatternDatabase {
    fn forward<'a, B: Bits>(
        &self,
        actions: &'a ActionSet<B>,
        _start: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, WorldState<B>>> {
        Some(Box::new(ForwardPdb::new(actions, goal, self.max_atoms)))
    }

    fn regression<'a, B: Bits>(
        &self,
        actions: &'a ActionSet<B>,
        start: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, PartialState<B>>> {
        Some(Box::new(RegressionPdb::new(
            actions,
            start,
            goal,
            self.max_atoms,
        )))
    }
}

/// Setup and search time of each `pdb` run in `results`.
fn print_setup_times(results: &Path) -> Result<(), searchlab_lab::SuiteError> {
    let records = read_jsonl(results)?;
    println!(
        "\n{:<34}{:<16}{:>12}{:>12}{:>8}",
        "problem", "config", "setup (ms)", "search (ms)", "cost"
    );
    for r in records.iter().filter(|r| r.config.ends_with("-pdb")) {
        let setup = r.setup_time.unwrap_or(0.0);
        println!(
            "{:<34}{:<16}{:>12.3}{:>12.3}{:>8}",
            format!("{}/{}", r.domain, r.problem),
            r.config,
            setup * 1e3,
            (r.time - setup).max(0.0) * 1e3,
            r.cost
                .map_or_else(|| r.outcome.name().to_owned(), |c| c.to_string()),
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let pdb = NamedHeuristic::builder(
        "pdb",
        "goal-pattern database over up to 8 goal atoms (atomic tasks)",
    )
    .consistent()
    .atomic(PatternDatabase {
        max_atoms: DEFAULT_MAX_ATOMS,
    })
    .build();
    let mut args: Vec<OsString> = std::env::args_os().collect();
    if args.len() > 1 {
        return Lab::new().heuristic(pdb).run(args);
    }
    let suite = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../suites/pattern-database.toml"
    );
    let out = concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/pattern-database");
    args.extend(
        [
            "bench",
            suite,
            "--out",
            out,
            "--overwrite",
            "--compare",
            "fwd-astar-hmax",
            "fwd-astar-pdb",
            "--compare",
            "reg-astar-hmax",
            "reg-astar-pdb",
        ]
        .map(OsString::from),
    );
    let code = Lab::new().heuristic(pdb).run(args);
    if code == ExitCode::SUCCESS {
        if let Err(e) = print_setup_times(&Path::new(out).join("results.jsonl")) {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    code
}
