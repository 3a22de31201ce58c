//! Grounds or solves PDDL tasks and prints counts and times.
//!
//! ```text
//! cargo run --release -p planners --example pddl -- ground <domain-dir>...
//! cargo run --release -p planners --example pddl -- synth-miconic <floors> <passengers> [domain.pddl]
//! cargo run --release -p planners --example pddl -- solve <domain.pddl> <problem.pddl> [direction] [algorithm] [heuristic] [no-mutexes]
//! ```
//!
//! `PDDL_MAX_EXPANSIONS=<n>` stops a search after `n` expansions (outcome
//! `limit`), to time heuristics on tasks too hard to finish.

use std::path::{Path, PathBuf};
use std::time::Instant;

use planners::pddl::{
    ground, h2_mutexes, parse_domain, parse_problem, solve_files_with, GroundedTask,
    GroundingLimits, PddlError, PddlOptions, SolveError,
};
use planners::PlannerConfig;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("ground") => {
            for dir in &args[1..] {
                ground_dir(Path::new(dir))?;
            }
        }
        Some("synth-miconic") if args.len() >= 3 => {
            let floors: usize = args[1].parse()?;
            let passengers: usize = args[2].parse()?;
            let domain_path = args.get(3).map_or_else(
                || PathBuf::from("benchmarks/pddl/miconic/domain.pddl"),
                PathBuf::from,
            );
            synth_miconic(&domain_path, floors, passengers)?;
        }
        Some("solve") if args.len() >= 3 => {
            let config = PlannerConfig {
                direction: args.get(3).map_or(Ok(planners::Direction::Forward), |d| d.parse())?,
                algorithm: args.get(4).map_or(Ok(search_core::Algorithm::AStar), |a| a.parse())?,
                heuristic: args.get(5).map_or(Ok(planners::heuristics::NamedHeuristic::default()), |h| h.parse())?,
                limits: search_core::SearchLimits {
                    max_expansions: std::env::var("PDDL_MAX_EXPANSIONS").ok().map(|n| n.parse()).transpose()?,
                    ..search_core::SearchLimits::default()
                },
            };
            let options = PddlOptions {
                mutexes: args.get(6).is_none_or(|m| m != "no-mutexes"),
                ..PddlOptions::default()
            };
            let s = solve_files_with(Path::new(&args[1]), Path::new(&args[2]), &config, &options)?;
            let stats = s.report.stats().clone();
            println!(
                "outcome={} cost={} expanded={} generated={} stored={} bytes={} search_s={:.4} facts={} ops={} words={} ground_s={:.4} mutexes={:?} mutex_s={:.4} mutex_pruned={} subsumption_pruned={}",
                s.report.outcome.name(),
                s.plan.as_ref().map_or(-1, |p| i64::try_from(p.cost()).unwrap_or(-1)),
                stats.expanded,
                stats.generated,
                stats.stored,
                stats.estimated_bytes,
                stats.elapsed.as_secs_f64(),
                s.grounding.facts,
                s.grounding.operators,
                s.words,
                s.grounding.elapsed.as_secs_f64(),
                s.mutex_pairs,
                s.mutex_time.as_secs_f64(),
                s.mutex_pruned,
                s.subsumption_pruned,
            );
        }
        _ => eprintln!("usage: pddl ground <dir>... | pddl solve <domain> <problem> [direction] [algorithm] [heuristic]"),
    }
    Ok(())
}

/// A miconic task with `floors` floors (about `floors^2` ground operators)
/// and `passengers` passengers, grounded and timed.
fn synth_miconic(domain_path: &Path, floors: usize, passengers: usize) -> Result<(), SolveError> {
    use std::fmt::Write as _;
    let domain_text = planners::input::read_text(domain_path).map_err(|e| PddlError::Io {
        path: domain_path.display().to_string(),
        message: e.to_string(),
    })?;
    let mut text = String::from("(define (problem synth) (:domain miconic) (:objects");
    for p in 0..passengers {
        let _ = write!(text, " p{p}");
    }
    text.push_str(" - passenger");
    for f in 0..floors {
        let _ = write!(text, " f{f}");
    }
    text.push_str(" - floor) (:init (lift-at f0)");
    for a in 0..floors {
        for b in a + 1..floors {
            let _ = write!(text, " (above f{a} f{b})");
        }
    }
    for p in 0..passengers {
        let _ = write!(
            text,
            " (origin p{p} f{}) (destin p{p} f{})",
            (p * 7 + 3) % floors,
            (p * 13 + 5) % floors
        );
    }
    text.push_str(") (:goal (and");
    for p in 0..passengers {
        let _ = write!(text, " (served p{p})");
    }
    text.push_str(")))");
    let began = Instant::now();
    let domain = parse_domain("miconic/domain.pddl", &domain_text)?;
    let problem = parse_problem(&domain, "synth.pddl", &text)?;
    let parsed = began.elapsed();
    let task = ground(&domain, &problem, GroundingLimits::default())?;
    let began_build = Instant::now();
    let grounded = GroundedTask::new(&task)?;
    let built = began_build.elapsed();
    let began_mutex = Instant::now();
    let mutexes = h2_mutexes(&task);
    println!(
        "synth-miconic floors={floors} passengers={passengers} text_bytes={} reachable_facts={} facts={} ops={} words={} parse_ms={:.1} ground_ms={:.1} build_ms={:.1} h2_ms={:.1} mutex_pairs={}",
        text.len(),
        task.stats.reachable_facts,
        task.stats.facts,
        task.stats.operators,
        grounded.words(),
        parsed.as_secs_f64() * 1e3,
        task.stats.elapsed.as_secs_f64() * 1e3,
        built.as_secs_f64() * 1e3,
        began_mutex.elapsed().as_secs_f64() * 1e3,
        mutexes.pairs(),
    );
    Ok(())
}

fn ground_dir(dir: &Path) -> Result<(), SolveError> {
    let read = |p: &Path| {
        planners::input::read_text(p).map_err(|e| PddlError::Io {
            path: p.display().to_string(),
            message: e.to_string(),
        })
    };
    let domain_path = dir.join("domain.pddl");
    let domain = parse_domain(&domain_path.display().to_string(), &read(&domain_path)?)?;
    let mut tasks: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| PddlError::Io {
            path: dir.display().to_string(),
            message: e.to_string(),
        })?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "pddl") && !p.ends_with("domain.pddl"))
        .collect();
    tasks.sort();
    for path in tasks {
        let began = Instant::now();
        let problem = parse_problem(&domain, &path.display().to_string(), &read(&path)?)?;
        let parsed = began.elapsed();
        let task = ground(&domain, &problem, GroundingLimits::default())?;
        let began_build = Instant::now();
        let grounded = GroundedTask::new(&task)?;
        let built = began_build.elapsed();
        let began_mutex = Instant::now();
        let mutexes = h2_mutexes(&task);
        let mutex_time = began_mutex.elapsed();
        println!(
            "{} reachable_facts={} reachable_ops={} facts={} ops={} words={} parse_ms={:.2} ground_ms={:.2} build_ms={:.2} h2_ms={:.2} mutex_pairs={}",
            path.display(),
            task.stats.reachable_facts,
            task.stats.reachable_operators,
            task.stats.facts,
            task.stats.operators,
            grounded.words(),
            parsed.as_secs_f64() * 1e3,
            task.stats.elapsed.as_secs_f64() * 1e3,
            built.as_secs_f64() * 1e3,
            mutex_time.as_secs_f64() * 1e3,
            mutexes.pairs(),
        );
    }
    Ok(())
}
