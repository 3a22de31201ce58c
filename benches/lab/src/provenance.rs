//! What produced a record: the searchlab build (version, git revision), the
//! machine, and when the run started.

use std::fmt;
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// The searchlab build that made a record.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Build {
    /// The package version (`CARGO_PKG_VERSION`).
    pub version: String,
    /// The git commit it was built from; `None` when built outside a git
    /// checkout.
    pub revision: Option<String>,
    /// Whether the sources built into searchlab differed from that commit
    /// (uncommitted edits); `None` when unknown.
    pub dirty: Option<bool>,
}

impl Build {
    /// The running searchlab's build, as `build.rs` recorded it at compile
    /// time (`git rev-parse HEAD`, `git status --porcelain`).
    ///
    /// ```
    /// let build = searchlab_lab::provenance::Build::this();
    /// assert_eq!(build.version, env!("CARGO_PKG_VERSION"));
    /// ```
    pub fn this() -> Build {
        let known = |s: &'static str| (s != "unknown").then(|| s.to_owned());
        Build {
            version: env!("CARGO_PKG_VERSION").to_owned(),
            revision: known(env!("SEARCHLAB_REVISION")),
            dirty: match env!("SEARCHLAB_DIRTY") {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
        }
    }
}

impl fmt::Display for Build {
    /// `0.1.0 (1a2b3c4d5e6f, dirty)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let revision = self.revision.as_deref().unwrap_or("unknown revision");
        let short = revision.get(..12).unwrap_or(revision);
        let dirty = match self.dirty {
            Some(true) => ", dirty",
            _ => "",
        };
        write!(f, "{} ({short}{dirty})", self.version)
    }
}

/// The machine a run ran on; each field `None` where the system does not
/// say.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    /// Its host name.
    pub hostname: Option<String>,
    /// The CPU's model name (`/proc/cpuinfo`).
    pub cpu_model: Option<String>,
    /// The cores available to searchlab (its affinity mask and cgroup
    /// quota count, not only the hardware).
    pub cores: Option<usize>,
}

impl Machine {
    /// This machine, looked up once: the host name from
    /// `/proc/sys/kernel/hostname` or `$HOSTNAME`, the CPU model from
    /// `/proc/cpuinfo`, the cores from
    /// [`std::thread::available_parallelism`].
    ///
    /// ```
    /// let machine = searchlab_lab::provenance::Machine::this();
    /// assert!(machine.cores.unwrap_or(1) >= 1);
    /// ```
    pub fn this() -> &'static Machine {
        static THIS: OnceLock<Machine> = OnceLock::new();
        THIS.get_or_init(|| {
            let nonempty = |s: String| {
                let s = s.trim().to_owned();
                (!s.is_empty()).then_some(s)
            };
            let hostname = std::fs::read_to_string("/proc/sys/kernel/hostname")
                .ok()
                .or_else(|| std::env::var("HOSTNAME").ok())
                .and_then(nonempty);
            let cpu_model = std::fs::read_to_string("/proc/cpuinfo")
                .ok()
                .and_then(|info| {
                    info.lines()
                        .filter_map(|l| l.split_once(':'))
                        .find(|(key, _)| key.trim() == "model name")
                        .map(|(_, model)| model.to_owned())
                })
                .and_then(nonempty);
            Machine {
                hostname,
                cpu_model,
                cores: std::thread::available_parallelism().ok().map(usize::from),
            }
        })
    }
}

/// `time` in RFC 3339, UTC, to the millisecond: `2000-02-29T12:00:00.000Z`
/// (times before 1970 read as 1970).
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use searchlab_lab::provenance::rfc3339;
/// let leap_day = UNIX_EPOCH + Duration::from_millis(951_825_600_250);
/// assert_eq!(rfc3339(leap_day), "2000-02-29T12:00:00.250Z");
/// assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
/// ```
pub fn rfc3339(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let seconds = since.as_secs();
    let (year, month, day) = civil_from_days(seconds / 86_400);
    let of_day = seconds % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60,
        since.subsec_millis()
    )
}

/// The date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`,
/// for days on or after the epoch).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    // Days since 0000-03-01, counted in 400-year eras of 146,097 days.
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    // Months from March, so that February's leap day comes last.
    let march_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * march_month + 2) / 5 + 1;
    let month = if march_month < 10 {
        march_month + 3
    } else {
        march_month - 9
    };
    let year = era * 400 + year_of_era + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_follow_each_other() {
        let at = |s: u64| rfc3339(UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(at(1_735_689_599), "2024-12-31T23:59:59.000Z");
        assert_eq!(at(4_107_542_400), "2100-03-01T00:00:00.000Z");
        // Every day from 1970 to 2200 is the day after the one before.
        let mut last = civil_from_days(0);
        for days in 1..84_000 {
            let (y, m, d) = civil_from_days(days);
            let next_day = (y, m, d) == (last.0, last.1, last.2 + 1);
            let next_month = (y, m, d) == (last.0, last.1 + 1, 1);
            let next_year = (y, m, d) == (last.0 + 1, 1, 1) && last.1 == 12 && last.2 == 31;
            assert!(
                next_day || next_month || next_year,
                "{last:?} -> {:?}",
                (y, m, d)
            );
            assert!(d <= 31 && (m != 2 || d <= 29));
            last = (y, m, d);
        }
    }
}
