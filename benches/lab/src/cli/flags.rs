//! The flags several commands share.

use std::time::Duration;

use crate::limits::{mebibytes, time_limit, RunLimits};

/// The limits of each search, shared by `plan` and `bench` so that they
/// cannot drift apart. With `bench` a limit given here replaces the
/// suite's and its configurations' own.
#[derive(Debug, Default, clap::Args)]
#[expect(clippy::struct_field_names, reason = "the names are the flags")]
pub(crate) struct LimitArgs {
    /// Time limit per search in seconds, at most a year (default 60; with
    /// `bench`, the suite's, which defaults to 60).
    #[arg(long, value_name = "SECONDS", value_parser = parse_time_limit)]
    pub(crate) max_time: Option<Duration>,
    /// Expansion limit per search (default none; with `bench`, the
    /// suite's: 100,000 in the built-in suite).
    #[arg(long, value_name = "N")]
    pub(crate) max_expansions: Option<u64>,
    /// Memory limit per search in MiB, on the estimate of what it holds: its
    /// nodes, open list and heuristic's tables, and for PDDL the grounded
    /// and atomic tasks (grounding stops at it too) (default 512; with
    /// `bench`, the suite's: 512, or 2048 for `--pddl`).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) max_memory_mb: Option<u64>,
}

impl LimitArgs {
    /// The limits given, each of `base`'s where none is.
    pub(super) fn over(&self, base: RunLimits) -> RunLimits {
        RunLimits {
            max_expansions: self.max_expansions,
            max_time: self.max_time,
            max_memory_bytes: self.max_memory_mb.map(mebibytes),
        }
        .or(base)
    }
}

pub(super) fn parse_time_limit(s: &str) -> Result<Duration, String> {
    let seconds: f64 = s.parse().map_err(|e| format!("{e}"))?;
    time_limit(seconds)
}

/// `--compare A B`'s flat values as pairs.
pub(super) fn pairs(flat: &[String]) -> Vec<(String, String)> {
    flat.chunks_exact(2)
        .map(|c| (c[0].clone(), c[1].clone()))
        .collect()
}
