//! What a planner is asked to do: direction, algorithm, heuristic, limits.

use std::fmt;
use std::str::FromStr;

use search_core::{Algorithm, SearchLimits};

use crate::PlanError;

/// Which way to search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Direction {
    /// From the start state towards the goal.
    #[default]
    Forward,
    /// From the goal back to the start, over subgoals.
    Regression,
    /// Both at once on two threads; the first to answer wins and cancels the
    /// other.
    Portfolio,
}

impl Direction {
    /// The short name used in configuration names: `fwd`, `reg`, `portfolio`.
    pub fn short_name(self) -> &'static str {
        match self {
            Direction::Forward => "fwd",
            Direction::Regression => "reg",
            Direction::Portfolio => "portfolio",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Forward => "forward",
            Direction::Regression => "regression",
            Direction::Portfolio => "portfolio",
        })
    }
}

impl FromStr for Direction {
    type Err = PlanError;

    /// `forward`/`fwd`, `regression`/`reg`/`backward`, `portfolio`/`both`.
    fn from_str(s: &str) -> Result<Self, PlanError> {
        match s.to_ascii_lowercase().as_str() {
            "forward" | "fwd" => Ok(Direction::Forward),
            "regression" | "reg" | "backward" => Ok(Direction::Regression),
            "portfolio" | "both" => Ok(Direction::Portfolio),
            _ => Err(PlanError::UnknownName {
                kind: "direction",
                name: s.to_owned(),
                known: "forward, regression, portfolio",
            }),
        }
    }
}

/// The built-in heuristics, by name.
///
/// | name | atomic | factored | admissible |
/// |---|---|---|---|
/// | `blind` | yes | yes | yes |
/// | `mismatch` (`goal-count`) | goal atoms wrong | goal predicates unsatisfied | only in special cases |
/// | `mismatch-admissible` | yes | - | yes |
/// | `hmax` | yes | - | yes |
/// | `hadd` | yes | - | no |
/// | `ff` | yes | - | no |
/// | `numeric` (`numeric-max`) | - | yes | yes (costs >= 1) |
/// | `numeric-sum` | - | yes | no |
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HeuristicName {
    /// Zero everywhere.
    #[default]
    Blind,
    /// The classic GOAP goal-mismatch count (factored: unsatisfied goal
    /// predicates).
    Mismatch,
    /// The mismatch count made admissible (atomic).
    AdmissibleMismatch,
    /// `h_max`: the atomic delete relaxation's; for factored domains the
    /// numeric `h_max` through action preconditions
    /// (`state_factored::NumericHmax`). Admissible.
    HMax,
    /// `h_add` (atomic).
    HAdd,
    /// `h_FF` (atomic).
    Ff,
    /// Numeric distance to the goal, maxed over variables (factored).
    NumericMax,
    /// Numeric distance to the goal, summed over variables (factored).
    NumericSum,
    /// Operator counting: an integer program over how often each action
    /// occurs, counting resource flows (factored;
    /// `state_factored::OperatorCounting`). Admissible.
    Counting,
}

impl HeuristicName {
    /// Every built-in heuristic.
    pub const ALL: [HeuristicName; 9] = [
        HeuristicName::Blind,
        HeuristicName::Mismatch,
        HeuristicName::AdmissibleMismatch,
        HeuristicName::HMax,
        HeuristicName::HAdd,
        HeuristicName::Ff,
        HeuristicName::NumericMax,
        HeuristicName::NumericSum,
        HeuristicName::Counting,
    ];

    /// The name used on the command line and in configuration names.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicName::Blind => "blind",
            HeuristicName::Mismatch => "mismatch",
            HeuristicName::AdmissibleMismatch => "mismatch-admissible",
            HeuristicName::HMax => "hmax",
            HeuristicName::HAdd => "hadd",
            HeuristicName::Ff => "ff",
            HeuristicName::NumericMax => "numeric",
            HeuristicName::NumericSum => "numeric-sum",
            HeuristicName::Counting => "counting",
        }
    }
}

impl fmt::Display for HeuristicName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HeuristicName {
    type Err = PlanError;

    fn from_str(s: &str) -> Result<Self, PlanError> {
        let lower = s.to_ascii_lowercase();
        let alias = match lower.as_str() {
            "goal-count" | "goalcount" | "unsatisfied" => "mismatch",
            "h_max" | "h-max" => "hmax",
            "h_add" | "h-add" => "hadd",
            "hff" | "h_ff" | "h-ff" => "ff",
            "numeric-max" => "numeric",
            "operator-counting" | "oc" | "lp" => "counting",
            "zero" => "blind",
            other => other,
        };
        HeuristicName::ALL
            .into_iter()
            .find(|h| h.name() == alias)
            .ok_or_else(|| PlanError::UnknownName {
                kind: "heuristic",
                name: s.to_owned(),
                known: "blind, mismatch, mismatch-admissible, hmax, hadd, ff, numeric, numeric-sum, counting",
            })
    }
}

/// A planner's configuration; `Default` is forward A* with the blind
/// heuristic and no limits.
///
/// ```
/// use planners::{Direction, HeuristicName, PlannerConfig};
/// use search_core::{Algorithm, SearchLimits};
///
/// let config = PlannerConfig {
///     direction: Direction::Portfolio,
///     heuristic: HeuristicName::HMax,
///     limits: SearchLimits { max_expansions: Some(100_000), ..SearchLimits::default() },
///     ..PlannerConfig::default()
/// };
/// assert_eq!(config.algorithm, Algorithm::AStar);
/// assert_eq!(config.name(), "portfolio-astar-hmax");
/// ```
#[derive(Clone, Debug, Default)]
pub struct PlannerConfig {
    /// Forward, regression or both.
    pub direction: Direction,
    /// The search algorithm.
    pub algorithm: Algorithm,
    /// The built-in heuristic, used unless a custom one is given to the
    /// [`Planner`](crate::Planner).
    pub heuristic: HeuristicName,
    /// Limits for each direction's search.
    pub limits: SearchLimits<u32>,
}

impl PlannerConfig {
    /// A short name such as `fwd-astar-hmax`, `reg-gbfs-ff`.
    pub fn name(&self) -> String {
        format!(
            "{}-{}-{}",
            self.direction.short_name(),
            self.algorithm,
            self.heuristic
        )
    }
}
