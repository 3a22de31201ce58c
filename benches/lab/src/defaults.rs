//! The built-in default suite: the reference scenarios and the synthetic
//! atomic and factored families at several sizes, with forward and
//! regression configurations of A*, greedy best-first and Dijkstra.
//!
//! Its runs are cut off by expansions, not time, so that every machine and
//! every number of jobs gives the same table of outcomes.

use std::ops::RangeInclusive;
use std::time::Duration;

use planners::heuristics::heuristic;
use planners::Direction;
use search_core::Algorithm;

use crate::suite::{Configuration, RunLimits, Source, Suite, SuiteProblem};
use crate::SuiteError;

/// Expansions allowed to each search of the default suite.
pub const DEFAULT_MAX_EXPANSIONS: u64 = 100_000;
/// Wall time allowed to each search of the default suite: a safety net
/// far above what the expansion limit allows on this machine.
pub const DEFAULT_MAX_TIME: Duration = Duration::from_secs(60);
/// Memory allowed to each search of the default suite.
pub const DEFAULT_MAX_MEMORY_BYTES: usize = 512 << 20;

/// Sizes of the atomic synthetic families in the default suite.
pub const ATOMIC_SIZES: [usize; 7] = [16, 24, 32, 40, 48, 56, 64];
/// Seeds of the atomic synthetic families in the default suite.
pub const ATOMIC_SEEDS: [u64; 2] = [1, 2];
/// Sizes of the factored economy in the default suite (its searches are
/// the slowest per expansion; size 1 already defeats most configurations).
pub const ECONOMY_SIZES: [u32; 1] = [1];
/// Sizes of the factored chains in the default suite.
pub const FACTORED_CHAIN_SIZES: [u32; 2] = [1, 2];

/// The default limits: [`DEFAULT_MAX_EXPANSIONS`], [`DEFAULT_MAX_TIME`],
/// [`DEFAULT_MAX_MEMORY_BYTES`].
pub fn default_limits() -> RunLimits {
    RunLimits {
        max_expansions: Some(DEFAULT_MAX_EXPANSIONS),
        max_time: Some(DEFAULT_MAX_TIME),
        max_memory_bytes: Some(DEFAULT_MAX_MEMORY_BYTES),
    }
}

/// The limits that stop a runaway search before it takes the machine down:
/// [`DEFAULT_MAX_TIME`] and [`DEFAULT_MAX_MEMORY_BYTES`], with no expansion
/// limit (one changes what a suite measures, so it is asked for). They are
/// `searchlab plan`'s defaults and fill in what a suite file leaves out.
pub fn safety_limits() -> RunLimits {
    RunLimits {
        max_expansions: None,
        ..default_limits()
    }
}

/// The default configurations: forward and regression, each with
/// `astar-hmax` (atomic and factored), `astar-numeric` and
/// `astar-counting` (factored), `gbfs-ff` (atomic),
/// `gbfs-mismatch`, `wastar2-ff` (atomic), `wastar2-numeric-sum`
/// (factored) and `dijkstra-blind`.
pub fn default_configs() -> Vec<Configuration> {
    let mut configs = Vec::new();
    for direction in [Direction::Forward, Direction::Regression] {
        for (algorithm, name) in [
            (Algorithm::AStar, "hmax"),
            (Algorithm::AStar, "numeric"),
            (Algorithm::AStar, "counting"),
            (Algorithm::GreedyBestFirst, "ff"),
            (Algorithm::GreedyBestFirst, "mismatch"),
            (Algorithm::WeightedAStar { weight: 2.0 }, "ff"),
            (Algorithm::WeightedAStar { weight: 2.0 }, "numeric-sum"),
            (Algorithm::Dijkstra, "blind"),
        ] {
            // Every name is a built-in one; a test checks that none is lost.
            if let Ok(heuristic) = heuristic(name) {
                configs.push(Configuration::searchlab(direction, algorithm, heuristic));
            }
        }
    }
    configs
}

/// The reference scenarios of DESIGN.md: the atomic ones in domain
/// `reference`, the hitman in `reference-factored`.
///
/// # Errors
/// [`SuiteError::Problem`] if a generator fails (it does not).
pub fn reference_problems() -> Result<Vec<SuiteProblem>, SuiteError> {
    use state_atomic::problems as atomic;
    let err = |name: &str, e: &dyn std::fmt::Display| SuiteError::Problem {
        name: name.to_owned(),
        message: e.to_string(),
    };
    let mut problems = vec![SuiteProblem::atomic(
        "reference",
        "hungry-agent",
        atomic::hungry_agent().map_err(|e| err("hungry-agent", &e))?,
    )];
    for (name, start) in [
        ("enemy-ship-aim", &["safe", "ammo_full"][..]),
        (
            "enemy-ship-chase",
            &["safe", "ammo_full", "player_weak"][..],
        ),
        ("enemy-ship-evade", &["ammo_full"][..]),
        ("enemy-ship-shoot", &["safe", "ammo_full", "aim_ready"][..]),
    ] {
        problems.push(SuiteProblem::atomic(
            "reference",
            name,
            atomic::enemy_ship(start).map_err(|e| err(name, &e))?,
        ));
    }
    problems.push(SuiteProblem::atomic(
        "reference",
        "consumed-fact",
        atomic::consumed_fact().map_err(|e| err("consumed-fact", &e))?,
    ));
    problems.push(SuiteProblem::factored(
        "reference-factored",
        "hitman",
        state_factored::problems::hitman().map_err(|e| err("hitman", &e))?,
    ));
    Ok(problems
        .into_iter()
        .map(|p| {
            let name = p.name.clone();
            p.with_source(Source::Reference { name })
        })
        .collect())
}

/// The sizes generator `family` takes, or `None` for an unknown name. The
/// atomic families' problems are 64-bit (size 64 has 64 atoms); the
/// factored families' sizes are `u32`s.
///
/// ```
/// use searchlab_lab::defaults::generator_sizes;
/// assert_eq!(generator_sizes("atomic-chains"), Some(1..=64));
/// assert_eq!(generator_sizes("factored-economy"), Some(1..=u64::from(u32::MAX)));
/// assert_eq!(generator_sizes("reference"), None);
/// ```
pub fn generator_sizes(family: &str) -> Option<RangeInclusive<u64>> {
    match family {
        "atomic-chains" | "atomic-shortcuts" | "atomic-toggles" => Some(1..=64),
        "factored-economy" | "factored-chains" => Some(1..=u64::from(u32::MAX)),
        _ => None,
    }
}

/// A built-in generator by name, at `size` with `seed` (the factored
/// families ignore the seed). Names: `atomic-chains`, `atomic-shortcuts`,
/// `atomic-toggles`, `factored-economy`, `factored-chains`; sizes as
/// [`generator_sizes`] says.
///
/// # Errors
/// [`SuiteError::Problem`] for an unknown name or a size out of the
/// generator's range (the message gives the range).
pub fn generate(family: &str, size: u64, seed: u64) -> Result<SuiteProblem, SuiteError> {
    use state_atomic::problems as atomic;
    let err = |e: &dyn std::fmt::Display| SuiteError::Problem {
        name: format!("{family}-{size}"),
        message: e.to_string(),
    };
    if let Some(range) = generator_sizes(family).filter(|r| !r.contains(&size)) {
        return Err(SuiteError::Problem {
            name: family.to_owned(),
            message: format!(
                "`{family}` takes sizes {} to {}, not {size}",
                range.start(),
                range.end()
            ),
        });
    }
    // In range, so both conversions hold.
    let atomic_size = usize::try_from(size).unwrap_or(usize::MAX);
    let factored_size = u32::try_from(size).unwrap_or(u32::MAX);
    let name = format!("{}-{size}-s{seed}", family.trim_start_matches("atomic-"));
    let problem = match family {
        "atomic-chains" => SuiteProblem::atomic(
            family,
            &name,
            atomic::chains(atomic_size, seed).map_err(|e| err(&e))?,
        ),
        "atomic-shortcuts" => SuiteProblem::atomic(
            family,
            &name,
            atomic::shortcuts(atomic_size, seed).map_err(|e| err(&e))?,
        ),
        "atomic-toggles" => SuiteProblem::atomic(
            family,
            &name,
            atomic::toggles(atomic_size, seed).map_err(|e| err(&e))?,
        ),
        "factored-economy" => SuiteProblem::factored(
            family,
            &format!("economy-{size}"),
            state_factored::problems::economy(factored_size).map_err(|e| err(&e))?,
        ),
        "factored-chains" => SuiteProblem::factored(
            family,
            &format!("chains-{size}"),
            state_factored::problems::chains(factored_size).map_err(|e| err(&e))?,
        ),
        _ => {
            return Err(SuiteError::Problem {
                name: family.to_owned(),
                message: format!("unknown generator (known: {})", GENERATORS.join(", ")),
            })
        }
    };
    Ok(problem.with_source(Source::Generated {
        family: family.to_owned(),
        size,
        seed,
    }))
}

/// The names [`generate`] knows, plus `reference` for the reference
/// scenarios.
pub const GENERATORS: [&str; 6] = [
    "reference",
    "atomic-chains",
    "atomic-shortcuts",
    "atomic-toggles",
    "factored-economy",
    "factored-chains",
];

/// The built-in default suite that `searchlab` with no arguments runs.
///
/// # Errors
/// [`SuiteError::Problem`] if a generator fails (it does not).
pub fn default_suite() -> Result<Suite, SuiteError> {
    let mut suite = Suite::new("default");
    suite.limits = default_limits();
    suite.problems = reference_problems()?;
    for family in ["atomic-chains", "atomic-shortcuts", "atomic-toggles"] {
        for size in ATOMIC_SIZES {
            for seed in ATOMIC_SEEDS {
                suite.problems.push(generate(family, size as u64, seed)?);
            }
        }
    }
    for (family, sizes) in [
        ("factored-economy", &ECONOMY_SIZES[..]),
        ("factored-chains", &FACTORED_CHAIN_SIZES[..]),
    ] {
        for &size in sizes {
            suite.problems.push(generate(family, u64::from(size), 0)?);
        }
    }
    suite.configs = default_configs();
    Ok(suite)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_default_configuration_names_a_builtin_heuristic() {
        let names: Vec<String> = super::default_configs()
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert_eq!(names.len(), 16, "{names:?}");
        assert!(names.contains(&"fwd-astar-counting".to_owned()));
        assert!(names.contains(&"reg-dijkstra-blind".to_owned()));
    }
}
