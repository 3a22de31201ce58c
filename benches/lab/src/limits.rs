//! The limits every run of a suite gets, and the checked conversions the
//! command line and suite files share.

use std::time::Duration;

use search_core::SearchLimits;
use serde::{Deserialize, Serialize};

/// Per-run limits: each run of a suite gets its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunLimits {
    /// Expansions, per search (a portfolio's two searches each get it).
    pub max_expansions: Option<u64>,
    /// Wall time, per search.
    pub max_time: Option<Duration>,
    /// Estimated memory of the search's nodes and open list, per search.
    pub max_memory_bytes: Option<usize>,
}

/// The longest time limit accepted: a year. Longer ones are typing
/// mistakes, and far longer ones do not fit a [`Duration`].
pub const MAX_TIME: Duration = Duration::from_secs(365 * 24 * 60 * 60);

/// `seconds` as a time limit: a positive number of seconds, at most
/// [`MAX_TIME`]. The command line and suite files both convert with it.
///
/// # Errors
/// A message (to follow the flag or key) for NaN, infinities, zero,
/// negative numbers and numbers beyond [`MAX_TIME`].
///
/// ```
/// use std::time::Duration;
/// use searchlab_lab::suite::time_limit;
/// assert_eq!(time_limit(1.5), Ok(Duration::from_millis(1500)));
/// assert!(time_limit(1e20).is_err());
/// assert!(time_limit(f64::NAN).is_err());
/// ```
pub fn time_limit(seconds: f64) -> Result<Duration, String> {
    if seconds > 0.0 && seconds <= MAX_TIME.as_secs_f64() {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(format!(
            "must be a positive number of seconds, at most {} (a year), not {seconds:?}",
            MAX_TIME.as_secs()
        ))
    }
}

/// `mib` mebibytes in bytes, saturating: a limit beyond memory is no limit.
pub fn mebibytes(mib: u64) -> usize {
    usize::try_from(mib.saturating_mul(1 << 20)).unwrap_or(usize::MAX)
}

impl RunLimits {
    /// Each limit of `self`, or `default`'s where `self` has none.
    #[must_use]
    pub fn or(self, default: RunLimits) -> RunLimits {
        RunLimits {
            max_expansions: self.max_expansions.or(default.max_expansions),
            max_time: self.max_time.or(default.max_time),
            max_memory_bytes: self.max_memory_bytes.or(default.max_memory_bytes),
        }
    }

    /// The engine's limits.
    pub fn to_search_limits(self) -> SearchLimits<u32> {
        SearchLimits {
            max_expansions: self.max_expansions,
            max_time: self.max_time,
            max_memory_bytes: self.max_memory_bytes,
            ..SearchLimits::default()
        }
    }
}
