//! What a planner is asked to do: direction, algorithm, heuristic, limits.

use std::fmt;
use std::str::FromStr;

use search_core::{Algorithm, SearchLimits};

use crate::heuristics::NamedHeuristic;
use crate::PlanError;

/// Which way to search.
///
/// ```
/// use planners::{heuristics::heuristic, Direction, Planner, PlannerConfig};
/// use state_atomic::ActionSet;
///
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("buy_groceries", 15).pre("has_supermarket", true).eff("has_groceries", true);
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let start = actions.state(["has_supermarket"]).unwrap();
/// let goal = actions.partial([("fed", true)]).unwrap();
///
/// // Forward states and regression subgoals meet in the middle.
/// let planner = Planner::new(PlannerConfig {
///     direction: Direction::Bidirectional,
///     heuristic: heuristic("hmax").unwrap(),
///     ..PlannerConfig::default()
/// });
/// let report = planner.plan(&actions, &start, &goal).unwrap();
/// assert_eq!(report.plan().unwrap().names(&actions), ["buy_groceries", "cook", "eat"]);
/// let (forward, regression) = (report.forward.unwrap(), report.regression.unwrap());
/// assert_eq!(report.both.unwrap().expanded, forward.expanded + regression.expanded);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Direction {
    /// From the start state towards the goal.
    #[default]
    Forward,
    /// From the goal back to the start, over subgoals.
    Regression,
    /// Both at once on two threads; the first to answer wins and cancels the
    /// other. Where regression cannot run (the domain or the heuristic does
    /// not serve it), forward alone, with a note in
    /// [`PlanReport::notes`](crate::PlanReport::notes).
    ///
    /// A* whose limits the tiny engine honours, with a built-in heuristic
    /// the domain has a quick form of (small GOAP tasks: `blind`,
    /// `mismatch` and `hmax` on atomic domains, `blind` on factored ones),
    /// first runs both directions on the caller's thread for up to 60 µs,
    /// in turns that go to the
    /// direction with less work ahead (its open list times its time per
    /// expansion): a small problem is answered there, without the tens of
    /// microseconds a second thread costs, with the plan its winning
    /// direction alone would give.
    Portfolio,
    /// Both at once in one search that meets in the middle: forward states
    /// and regression subgoals, met where a state satisfies a subgoal
    /// ([`search_core::bidirectional`]). A* runs as NBS with the
    /// heuristic in both directions (optimal with an admissible one),
    /// Dijkstra as bidirectional Dijkstra.
    Bidirectional,
}

impl Direction {
    /// The short name used in configuration names: `fwd`, `reg`,
    /// `portfolio`, `bid`.
    pub fn short_name(self) -> &'static str {
        match self {
            Direction::Forward => "fwd",
            Direction::Regression => "reg",
            Direction::Portfolio => "portfolio",
            Direction::Bidirectional => "bid",
        }
    }

    /// The name of `algorithm` in this direction's configuration names:
    /// its own, except that bidirectional A* is `nbs` and bidirectional
    /// greedy best-first search `ttbs`.
    ///
    /// ```
    /// use planners::Direction;
    /// use search_core::Algorithm;
    /// assert_eq!(Direction::Bidirectional.algorithm_name(Algorithm::AStar), "nbs");
    /// assert_eq!(Direction::Bidirectional.algorithm_name(Algorithm::GreedyBestFirst), "ttbs");
    /// assert_eq!(Direction::Forward.algorithm_name(Algorithm::AStar), "astar");
    /// ```
    pub fn algorithm_name(self, algorithm: Algorithm) -> String {
        match (self, algorithm) {
            (Direction::Bidirectional, Algorithm::AStar) => NBS.to_owned(),
            (Direction::Bidirectional, Algorithm::GreedyBestFirst) => TTBS.to_owned(),
            _ => algorithm.to_string(),
        }
    }

    /// Reads an algorithm's name in this direction's configuration names
    /// (`nbs` is bidirectional A*, `ttbs` bidirectional greedy search).
    ///
    /// # Errors
    /// [`PlanError::Search`] for a name that is no algorithm.
    pub fn parse_algorithm(self, name: &str) -> Result<Algorithm, PlanError> {
        match (self, name) {
            (Direction::Bidirectional, NBS) => Ok(Algorithm::AStar),
            (Direction::Bidirectional, TTBS) => Ok(Algorithm::GreedyBestFirst),
            _ => Ok(name.parse()?),
        }
    }
}

/// Bidirectional A*'s name in configurations.
const NBS: &str = "nbs";

/// Bidirectional greedy search's name in configurations (front to front).
const TTBS: &str = "ttbs";

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Forward => "forward",
            Direction::Regression => "regression",
            Direction::Portfolio => "portfolio",
            Direction::Bidirectional => "bidirectional",
        })
    }
}

impl FromStr for Direction {
    type Err = PlanError;

    /// `forward`/`fwd`, `regression`/`reg`/`backward`, `portfolio`/`both`,
    /// `bidirectional`/`bid`.
    fn from_str(s: &str) -> Result<Self, PlanError> {
        match s.to_ascii_lowercase().as_str() {
            "forward" | "fwd" => Ok(Direction::Forward),
            "regression" | "reg" | "backward" => Ok(Direction::Regression),
            "portfolio" | "both" => Ok(Direction::Portfolio),
            "bidirectional" | "bid" => Ok(Direction::Bidirectional),
            _ => Err(PlanError::UnknownName {
                kind: "direction",
                name: s.to_owned(),
                known: "forward, regression, portfolio, bidirectional".to_owned(),
            }),
        }
    }
}

/// A planner's configuration; `Default` is forward A* with the blind
/// heuristic and no limits.
///
/// ```
/// use planners::{heuristics::heuristic, Direction, PlannerConfig};
/// use search_core::{Algorithm, SearchLimits};
///
/// let config = PlannerConfig {
///     direction: Direction::Portfolio,
///     heuristic: heuristic("hmax").unwrap(),
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
    /// The heuristic (a built-in one from
    /// [`heuristics::heuristic`](crate::heuristics::heuristic), or a user's
    /// [`NamedHeuristic`]), used unless the [`Planner`](crate::Planner) was
    /// given a custom closure for a direction. Lazy greedy search
    /// ([`Algorithm::LazyGreedy`], [`Algorithm::LazyTypeBased`]) also takes an
    /// [`alternation`](NamedHeuristic::alternation) (`ff+lmcount`) and uses
    /// the preferred operators of every heuristic that names them.
    pub heuristic: NamedHeuristic,
    /// Limits for each direction's search.
    pub limits: SearchLimits<u32>,
}

impl PlannerConfig {
    /// A short name such as `fwd-astar-hmax`, `reg-gbfs-ff`,
    /// `bid-nbs-lmcut`.
    pub fn name(&self) -> String {
        format!(
            "{}-{}-{}",
            self.direction.short_name(),
            self.direction.algorithm_name(self.algorithm),
            self.heuristic
        )
    }
}
