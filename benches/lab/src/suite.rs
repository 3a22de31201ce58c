//! What a suite is: problems times configurations, under limits.
//!
//! A [`Suite`] holds [`SuiteProblem`]s (built-in generators, problem files)
//! and [`Configuration`]s (direction x algorithm x heuristic, with a short
//! name such as `fwd-astar-hmax`). Running it ([`crate::runner`]) plans every
//! problem with every configuration that applies to it: the atomic
//! heuristics (`hmax`, `ff` ...) do not apply to factored problems and the
//! numeric ones not to atomic problems.

use std::fmt;
use std::sync::Arc;

use planners::{BoxedHeuristic, Direction, HeuristicName, PlannerConfig};
use search_core::{Algorithm, SearchLimits};
use serde::{Deserialize, Serialize};
use state_atomic::{PartialState, WorldState};
use state_factored::{State, Subgoal};

use crate::external::{ExternalSearch, Peers};
pub use crate::limits::{mebibytes, time_limit, RunLimits, MAX_TIME};
pub use crate::task::PddlTask;
use crate::SuiteError;

/// An atomic (64-bit) problem: actions, start and goal.
pub type AtomicProblem = state_atomic::problems::Problem<u64>;
/// A factored problem: domain, start and goal.
pub type FactoredProblem = state_factored::problems::Problem;

/// The two kinds of problem a suite can hold.
#[derive(Clone, Debug)]
pub enum Instance {
    /// A 64-bit atomic GOAP problem.
    Atomic(AtomicProblem),
    /// A factored (typed-value) problem.
    Factored(FactoredProblem),
    /// A PDDL task, parsed and grounded by every run (into the narrowest
    /// atomic width that holds it).
    Pddl(PddlTask),
}

/// Which state representation a problem uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Bitset states.
    Atomic,
    /// Typed-value states.
    Factored,
    /// PDDL tasks, grounded into atomic states: the atomic built-in
    /// heuristics apply, custom ones do not.
    Pddl,
}

impl Instance {
    /// The instance's kind.
    pub fn kind(&self) -> Kind {
        match self {
            Instance::Atomic(_) => Kind::Atomic,
            Instance::Factored(_) => Kind::Factored,
            Instance::Pddl(_) => Kind::Pddl,
        }
    }
}

/// One problem of a suite, named by its domain (the family it belongs to)
/// and its own name.
#[derive(Clone, Debug)]
pub struct SuiteProblem {
    /// The domain, e.g. `atomic-chains` or `reference`; tables group by it.
    pub domain: String,
    /// The problem's name, unique within its domain, e.g. `chains-40-s1`.
    pub name: String,
    /// The problem itself, shared by every run on it.
    pub instance: Arc<Instance>,
    /// Where it came from, so that a child process can make it again (an
    /// isolated run); `None` for a problem built in code.
    pub source: Option<Source>,
    /// A digest of the text it was read from (a problem file, a PDDL task),
    /// so that a resumed experiment re-runs a problem whose file changed.
    pub digest: Option<u64>,
}

/// The 64-bit FNV-1a digest of `bytes`: stable across builds and machines.
///
/// ```
/// assert_eq!(searchlab_lab::suite::digest(b""), 0xcbf2_9ce4_8422_2325);
/// assert_ne!(searchlab_lab::suite::digest(b"a"), searchlab_lab::suite::digest(b"b"));
/// ```
pub fn digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Where a suite's problem came from: enough to make it again in another
/// process ([`crate::isolated`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A built-in generator's ([`crate::defaults::generate`]).
    Generated {
        /// The generator (`atomic-chains` ...).
        family: String,
        /// Its size.
        size: u64,
        /// Its seed.
        seed: u64,
    },
    /// One of the reference scenarios, by name.
    Reference {
        /// `hungry-agent`, `hitman` ...
        name: String,
    },
    /// A problem file ([`crate::suite_file::load_problem`]).
    File {
        /// The file (absolute, so that a child in another directory finds it).
        path: std::path::PathBuf,
    },
    /// A PDDL task, carried whole.
    Pddl(PddlTask),
}

impl SuiteProblem {
    /// The same problem, saying where it came from.
    #[must_use]
    pub fn with_source(mut self, source: Source) -> Self {
        self.source = Some(source);
        self
    }

    /// An atomic problem in `domain`, named `name`.
    pub fn atomic(domain: &str, name: &str, problem: AtomicProblem) -> Self {
        Self {
            domain: domain.to_owned(),
            name: name.to_owned(),
            instance: Arc::new(Instance::Atomic(problem)),
            source: None,
            digest: None,
        }
    }

    /// A factored problem in `domain`, named `name`.
    pub fn factored(domain: &str, name: &str, problem: FactoredProblem) -> Self {
        Self {
            domain: domain.to_owned(),
            name: name.to_owned(),
            instance: Arc::new(Instance::Factored(problem)),
            source: None,
            digest: None,
        }
    }

    /// A PDDL task in `domain`, named `name`.
    pub fn pddl(domain: &str, name: &str, task: PddlTask) -> Self {
        Self {
            domain: domain.to_owned(),
            name: name.to_owned(),
            digest: Some(digest(
                format!("{}\0{}", task.domain, task.problem).as_bytes(),
            )),
            instance: Arc::new(Instance::Pddl(task)),
            source: None,
        }
    }
}

/// [`Algorithm`]'s `FromStr`, which checks a weighted A*'s weight as the
/// search checks it (finite and at least 1), so that a configuration that
/// could only fail is refused before anything runs; the error names the
/// algorithm as written.
///
/// # Errors
/// [`SuiteError::Invalid`] naming the algorithm and what is wrong.
///
/// ```
/// use searchlab_lab::suite::parse_algorithm;
/// assert!(parse_algorithm("wastar:2").is_ok());
/// assert!(parse_algorithm("wastar:0.5").unwrap_err().to_string().contains(">= 1"));
/// ```
pub fn parse_algorithm(name: &str) -> Result<Algorithm, SuiteError> {
    name.parse()
        .map_err(|e| SuiteError::Invalid(format!("algorithm `{name}`: {e}")))
}

/// Makes a heuristic for one problem; called for every search.
pub type HeuristicFactory<P, N> = Arc<dyn for<'a> Fn(&'a P) -> BoxedHeuristic<'a, N> + Send + Sync>;

/// A user heuristic: a name and a factory for each kind of problem and
/// direction it supports. A configuration with it applies to the problems
/// it has a factory for.
#[derive(Clone)]
pub struct CustomHeuristic {
    /// The name used in the configuration's name.
    pub name: String,
    atomic_forward: Option<HeuristicFactory<AtomicProblem, WorldState<u64>>>,
    atomic_regression: Option<HeuristicFactory<AtomicProblem, PartialState<u64>>>,
    factored_forward: Option<HeuristicFactory<FactoredProblem, State>>,
    factored_regression: Option<HeuristicFactory<FactoredProblem, Subgoal>>,
}

impl fmt::Debug for CustomHeuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CustomHeuristic")
            .field("name", &self.name)
            .field("atomic_forward", &self.atomic_forward.is_some())
            .field("atomic_regression", &self.atomic_regression.is_some())
            .field("factored_forward", &self.factored_forward.is_some())
            .field("factored_regression", &self.factored_regression.is_some())
            .finish()
    }
}

impl CustomHeuristic {
    /// A heuristic named `name` with no factories yet.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            atomic_forward: None,
            atomic_regression: None,
            factored_forward: None,
            factored_regression: None,
        }
    }

    /// Forward search on atomic problems: `make(problem)` returns the
    /// heuristic for one search.
    #[must_use]
    pub fn atomic_forward<F>(mut self, make: F) -> Self
    where
        F: for<'a> Fn(&'a AtomicProblem) -> BoxedHeuristic<'a, WorldState<u64>>
            + Send
            + Sync
            + 'static,
    {
        self.atomic_forward = Some(Arc::new(make));
        self
    }

    /// Regression on atomic problems: `make(problem)` returns a heuristic
    /// estimating the cost from the start to a subgoal.
    #[must_use]
    pub fn atomic_regression<F>(mut self, make: F) -> Self
    where
        F: for<'a> Fn(&'a AtomicProblem) -> BoxedHeuristic<'a, PartialState<u64>>
            + Send
            + Sync
            + 'static,
    {
        self.atomic_regression = Some(Arc::new(make));
        self
    }

    /// Forward search on factored problems.
    #[must_use]
    pub fn factored_forward<F>(mut self, make: F) -> Self
    where
        F: for<'a> Fn(&'a FactoredProblem) -> BoxedHeuristic<'a, State> + Send + Sync + 'static,
    {
        self.factored_forward = Some(Arc::new(make));
        self
    }

    /// Regression on factored problems.
    #[must_use]
    pub fn factored_regression<F>(mut self, make: F) -> Self
    where
        F: for<'a> Fn(&'a FactoredProblem) -> BoxedHeuristic<'a, Subgoal> + Send + Sync + 'static,
    {
        self.factored_regression = Some(Arc::new(make));
        self
    }

    pub(crate) fn atomic_forward_factory(
        &self,
    ) -> Option<&HeuristicFactory<AtomicProblem, WorldState<u64>>> {
        self.atomic_forward.as_ref()
    }

    pub(crate) fn atomic_regression_factory(
        &self,
    ) -> Option<&HeuristicFactory<AtomicProblem, PartialState<u64>>> {
        self.atomic_regression.as_ref()
    }

    pub(crate) fn factored_forward_factory(
        &self,
    ) -> Option<&HeuristicFactory<FactoredProblem, State>> {
        self.factored_forward.as_ref()
    }

    pub(crate) fn factored_regression_factory(
        &self,
    ) -> Option<&HeuristicFactory<FactoredProblem, Subgoal>> {
        self.factored_regression.as_ref()
    }

    /// Whether it can search in `direction` on some kind of problem.
    pub fn supports_any(&self, direction: Direction) -> bool {
        [Kind::Atomic, Kind::Factored, Kind::Pddl]
            .into_iter()
            .any(|kind| self.supports(kind, direction))
    }

    fn supports(&self, kind: Kind, direction: Direction) -> bool {
        let (forward, regression) = match kind {
            Kind::Atomic => (
                self.atomic_forward.is_some(),
                self.atomic_regression.is_some(),
            ),
            Kind::Factored => (
                self.factored_forward.is_some(),
                self.factored_regression.is_some(),
            ),
            Kind::Pddl => (false, false),
        };
        match direction {
            Direction::Forward => forward,
            Direction::Regression => regression,
            Direction::Portfolio => forward && regression,
        }
    }
}

/// The heuristic of a configuration: built-in by name, or the user's.
#[derive(Clone, Debug)]
pub enum HeuristicChoice {
    /// A built-in heuristic.
    Builtin(HeuristicName),
    /// A user heuristic.
    Custom(CustomHeuristic),
}

impl HeuristicChoice {
    /// The heuristic's name.
    pub fn name(&self) -> &str {
        match self {
            HeuristicChoice::Builtin(name) => name.name(),
            HeuristicChoice::Custom(custom) => &custom.name,
        }
    }
}

/// Whether built-in heuristic `name` exists for problems of `kind` (both
/// directions have the same set).
pub fn builtin_supports(name: HeuristicName, kind: Kind) -> bool {
    match name {
        HeuristicName::Blind | HeuristicName::Mismatch | HeuristicName::HMax => true,
        HeuristicName::AdmissibleMismatch | HeuristicName::HAdd | HeuristicName::Ff => {
            kind != Kind::Factored
        }
        HeuristicName::NumericMax | HeuristicName::NumericSum | HeuristicName::Counting => {
            kind == Kind::Factored
        }
    }
}

/// How a configuration plans.
#[derive(Clone, Debug)]
pub enum Method {
    /// searchlab's planner.
    Searchlab {
        /// Forward, regression or portfolio.
        direction: Direction,
        /// The search algorithm.
        algorithm: Algorithm,
        /// The heuristic.
        heuristic: HeuristicChoice,
    },
    /// A peer planner run as a subprocess on PDDL tasks
    /// ([`crate::external`]).
    External(ExternalSearch),
}

/// One configuration: a named way of planning.
#[derive(Clone, Debug)]
pub struct Configuration {
    /// A short name, such as `fwd-astar-hmax`; unique within a suite.
    pub name: String,
    /// How it plans.
    pub method: Method,
    /// Limits for this configuration instead of the suite's.
    pub limits: Option<RunLimits>,
}

impl Configuration {
    /// A configuration with a built-in heuristic, named like
    /// [`PlannerConfig::name`] (`fwd-astar-hmax`).
    ///
    /// ```
    /// use searchlab_lab::suite::Configuration;
    /// use planners::{Direction, HeuristicName};
    /// use search_core::Algorithm;
    /// let c = Configuration::builtin(Direction::Regression, Algorithm::GreedyBestFirst, HeuristicName::Ff);
    /// assert_eq!(c.name, "reg-gbfs-ff");
    /// ```
    pub fn builtin(direction: Direction, algorithm: Algorithm, heuristic: HeuristicName) -> Self {
        let name = PlannerConfig {
            direction,
            algorithm,
            heuristic,
            limits: SearchLimits::default(),
        }
        .name();
        Self {
            name,
            method: Method::Searchlab {
                direction,
                algorithm,
                heuristic: HeuristicChoice::Builtin(heuristic),
            },
            limits: None,
        }
    }

    /// A configuration with a user heuristic, named
    /// `{direction}-{algorithm}-{heuristic name}`.
    pub fn custom(direction: Direction, algorithm: Algorithm, heuristic: CustomHeuristic) -> Self {
        let name = format!(
            "{}-{}-{}",
            direction.short_name(),
            algorithm,
            heuristic.name
        );
        Self {
            name,
            method: Method::Searchlab {
                direction,
                algorithm,
                heuristic: HeuristicChoice::Custom(heuristic),
            },
            limits: None,
        }
    }

    /// A peer planner's configuration.
    pub fn external(search: ExternalSearch) -> Self {
        Self {
            name: search.name.to_owned(),
            method: Method::External(search),
            limits: None,
        }
    }

    /// The configuration called `name`: a built-in one
    /// (`{fwd,reg,portfolio}-{algorithm}-{heuristic}`) or a peer's
    /// (`fd-astar-blind`, see [`crate::external::EXTERNAL_SEARCHES`]).
    ///
    /// # Errors
    /// [`SuiteError::Invalid`] naming what is unknown.
    ///
    /// ```
    /// use searchlab_lab::suite::{Configuration, Method};
    /// assert_eq!(Configuration::by_name("reg-wastar2-hmax").unwrap().name, "reg-wastar2-hmax");
    /// assert!(matches!(Configuration::by_name("pp-gbfs-ff").unwrap().method, Method::External(_)));
    /// assert!(Configuration::by_name("fwd-astar").is_err());
    /// ```
    pub fn by_name(name: &str) -> Result<Self, SuiteError> {
        Self::by_name_among(name, &[])
    }

    /// [`Configuration::by_name`], where the heuristic may also be one of
    /// the user's `heuristics` (`fwd-astar-open` for a heuristic `open`).
    ///
    /// # Errors
    /// [`SuiteError::Invalid`] naming what is unknown.
    pub fn by_name_among(name: &str, heuristics: &[CustomHeuristic]) -> Result<Self, SuiteError> {
        if let Some(search) = ExternalSearch::by_name(name) {
            return Ok(Self::external(search));
        }
        let bad = |why: String| {
            SuiteError::Invalid(format!(
                "configuration `{name}`: {why} (names are direction-algorithm-heuristic, \
                 e.g. fwd-astar-hmax, or a peer's: {})",
                crate::external::EXTERNAL_SEARCHES
                    .map(|c| c.name)
                    .join(", ")
            ))
        };
        let mut parts = name.splitn(3, '-');
        let (Some(d), Some(a), Some(h)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad("not three parts".to_owned()));
        };
        let direction = match d {
            "fwd" => Direction::Forward,
            "reg" => Direction::Regression,
            other => other
                .parse()
                .map_err(|e: planners::PlanError| bad(e.to_string()))?,
        };
        let algorithm = parse_algorithm(a).map_err(|e| bad(e.to_string()))?;
        if let Some(custom) = heuristics.iter().find(|c| c.name == h) {
            return Ok(Self::custom(direction, algorithm, custom.clone()));
        }
        let heuristic: HeuristicName = h
            .parse()
            .map_err(|e: planners::PlanError| bad(e.to_string()))?;
        Ok(Self::builtin(direction, algorithm, heuristic))
    }

    /// How it plans, as a name [`Configuration::by_name_among`] reads back
    /// (`fwd-astar-hmax`, `fd-astar-lmcut`), whatever the suite named it.
    pub fn method_name(&self) -> String {
        match &self.method {
            Method::Searchlab {
                direction,
                algorithm,
                heuristic,
            } => format!(
                "{}-{}-{}",
                direction.short_name(),
                algorithm,
                heuristic.name()
            ),
            Method::External(search) => search.name.to_owned(),
        }
    }

    /// Whether this configuration can run on problems of `kind`.
    pub fn applies_to(&self, kind: Kind) -> bool {
        match &self.method {
            Method::Searchlab {
                heuristic: HeuristicChoice::Builtin(name),
                ..
            } => builtin_supports(*name, kind),
            Method::Searchlab {
                heuristic: HeuristicChoice::Custom(custom),
                direction,
                ..
            } => custom.supports(kind, *direction),
            Method::External(_) => kind == Kind::Pddl,
        }
    }

    /// The planner configuration of a searchlab configuration under
    /// `limits` (`None` for a peer's).
    pub fn planner_config(&self, limits: RunLimits) -> Option<PlannerConfig> {
        let Method::Searchlab {
            direction,
            algorithm,
            heuristic,
        } = &self.method
        else {
            return None;
        };
        let heuristic = match heuristic {
            HeuristicChoice::Builtin(name) => *name,
            HeuristicChoice::Custom(_) => HeuristicName::Blind,
        };
        Some(PlannerConfig {
            direction: *direction,
            algorithm: *algorithm,
            heuristic,
            limits: limits.to_search_limits(),
        })
    }
}

/// A suite: problems, configurations and the default limits of each run.
#[derive(Clone, Debug, Default)]
pub struct Suite {
    /// A short name, shown in reports.
    pub name: String,
    /// The problems.
    pub problems: Vec<SuiteProblem>,
    /// The configurations.
    pub configs: Vec<Configuration>,
    /// Limits of every run whose configuration has none of its own.
    pub limits: RunLimits,
}

/// One run of a suite: a problem with a configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSpec {
    /// The run's index in the suite's run list (stable across shards).
    pub index: usize,
    /// Index into [`Suite::problems`].
    pub problem: usize,
    /// Index into [`Suite::configs`].
    pub config: usize,
}

impl Suite {
    /// Drops the suite's peer configurations whose planner `peers` does not
    /// have, and returns a one-line note naming them (`None` if none was
    /// dropped).
    pub fn retain_available(&mut self, peers: &Peers) -> Option<String> {
        let mut dropped = Vec::new();
        let mut missing = Vec::new();
        self.configs.retain(|c| match &c.method {
            Method::External(search) if !peers.has(search.planner) => {
                dropped.push(c.name.clone());
                if !missing.contains(&search.planner.name()) {
                    missing.push(search.planner.name());
                }
                false
            }
            _ => true,
        });
        (!dropped.is_empty()).then(|| {
            format!(
                "note: skipped {} ({} not installed in {}; run scripts/install-peers.sh or set SEARCHLAB_PEERS)",
                dropped.join(", "),
                missing.join(" and "),
                peers.dir.display()
            )
        })
    }

    /// An empty suite named `name`.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            ..Self::default()
        }
    }

    /// Adds a configuration, replacing one of the same name.
    pub fn add_config(&mut self, config: Configuration) -> &mut Self {
        if let Some(old) = self.configs.iter_mut().find(|c| c.name == config.name) {
            *old = config;
        } else {
            self.configs.push(config);
        }
        self
    }

    /// Adds a problem.
    pub fn add_problem(&mut self, problem: SuiteProblem) -> &mut Self {
        self.problems.push(problem);
        self
    }

    /// Every run, problem-major, skipping configurations that do not apply
    /// to a problem's kind. The order (and so each run's index) depends only
    /// on the suite.
    pub fn runs(&self) -> Vec<RunSpec> {
        let mut runs = Vec::new();
        for (p, problem) in self.problems.iter().enumerate() {
            for (c, config) in self.configs.iter().enumerate() {
                if config.applies_to(problem.instance.kind()) {
                    runs.push(RunSpec {
                        index: runs.len(),
                        problem: p,
                        config: c,
                    });
                }
            }
        }
        runs
    }

    /// The names of the configurations, in suite order.
    pub fn config_names(&self) -> Vec<String> {
        self.configs.iter().map(|c| c.name.clone()).collect()
    }
}
