//! What a suite is: problems times configurations, under limits.
//!
//! A [`Suite`] holds [`SuiteProblem`]s (built-in generators, problem files)
//! and [`Configuration`]s (direction x algorithm x heuristic, with a short
//! name such as `fwd-astar-hmax`). Running it ([`crate::runner`]) plans every
//! problem with every configuration that applies to it: the atomic
//! heuristics (`hmax`, `ff` ...) do not apply to factored problems and the
//! numeric ones not to atomic problems.

use std::sync::Arc;

use planners::heuristics::{Directions, NamedHeuristic, Registry, Representation};
use planners::pddl::PddlOptions;
use planners::{Direction, PlannerConfig};
use search_core::Algorithm;
use serde::{Deserialize, Serialize};

use crate::external::{ExternalPlanner, ExternalSearch, Peers};
pub use crate::limits::{mebibytes, time_limit, RunLimits, MAX_TIME};
pub use crate::pddl_task::PddlTask;
use crate::SuiteError;

/// How a kind is named in messages.
fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Atomic => "atomic",
        Kind::Factored => "factored",
        Kind::Pddl => "PDDL",
        Kind::NumericPddl => "numeric PDDL",
    }
}

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
    /// PDDL tasks, grounded into atomic states of the width they need:
    /// every heuristic that serves atomic problems applies.
    Pddl,
    /// PDDL tasks with numeric fluents (PDDL 2.1), grounded onto the
    /// factored state: every heuristic that serves factored problems
    /// applies.
    #[serde(rename = "numeric-pddl")]
    NumericPddl,
}

impl Kind {
    /// The state representation problems of this kind are searched in.
    pub fn representation(self) -> Representation {
        match self {
            Kind::Atomic | Kind::Pddl => Representation::Atomic,
            Kind::Factored | Kind::NumericPddl => Representation::Factored,
        }
    }
}

impl Instance {
    /// The instance's kind.
    pub fn kind(&self) -> Kind {
        match self {
            Instance::Atomic(_) => Kind::Atomic,
            Instance::Factored(_) => Kind::Factored,
            Instance::Pddl(task) if task.is_numeric() => Kind::NumericPddl,
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

/// A searchlab configuration's name: `fwd-astar-hmax`, `bid-nbs-lmcut`.
fn searchlab_name(direction: Direction, algorithm: Algorithm, heuristic: &str) -> String {
    format!(
        "{}-{}-{heuristic}",
        direction.short_name(),
        direction.algorithm_name(algorithm)
    )
}

/// What ends the name of a configuration pruned by stubborn sets.
pub(crate) const STUBBORN_SUFFIX: &str = "-sss";

/// How a configuration plans.
#[derive(Clone, Debug)]
pub enum Method {
    /// searchlab's planner.
    Searchlab {
        /// Forward, regression or portfolio.
        direction: Direction,
        /// The search algorithm.
        algorithm: Algorithm,
        /// The heuristic, built-in or the user's.
        heuristic: NamedHeuristic,
        /// Forward search prunes with strong stubborn sets (PDDL tasks;
        /// names end in `-sss`).
        stubborn_sets: bool,
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
    /// A searchlab configuration, named like [`PlannerConfig::name`]
    /// (`fwd-astar-hmax`).
    ///
    /// ```
    /// use searchlab_lab::suite::Configuration;
    /// use planners::{heuristics::heuristic, Direction};
    /// use search_core::Algorithm;
    /// let ff = heuristic("ff").unwrap();
    /// let c = Configuration::searchlab(Direction::Regression, Algorithm::GreedyBestFirst, ff);
    /// assert_eq!(c.name, "reg-gbfs-ff");
    /// ```
    pub fn searchlab(
        direction: Direction,
        algorithm: Algorithm,
        heuristic: NamedHeuristic,
    ) -> Self {
        Self {
            name: searchlab_name(direction, algorithm, heuristic.name()),
            method: Method::Searchlab {
                direction,
                algorithm,
                heuristic,
                stubborn_sets: false,
            },
            limits: None,
        }
    }

    /// The same configuration with forward search pruned by strong
    /// stubborn sets ([`PddlOptions::stubborn_sets`]), its name ending in
    /// `-sss` (Fast Downward's peer is `fd-astar-lmcut-sss`). A peer's is
    /// returned as it is.
    ///
    /// ```
    /// use searchlab_lab::suite::Configuration;
    /// let c = Configuration::by_name("fwd-astar-lmcut").unwrap().with_stubborn_sets();
    /// assert_eq!(c.name, "fwd-astar-lmcut-sss");
    /// assert_eq!(Configuration::by_name("fwd-astar-lmcut-sss").unwrap().method_name(), c.name);
    /// assert!(Configuration::by_name("reg-astar-hmax-sss").is_err());
    /// ```
    #[must_use]
    pub fn with_stubborn_sets(mut self) -> Self {
        if let Method::Searchlab { stubborn_sets, .. } = &mut self.method {
            if !*stubborn_sets {
                *stubborn_sets = true;
                self.name.push_str(STUBBORN_SUFFIX);
            }
        }
        self
    }

    /// How PDDL tasks are prepared for this configuration.
    pub fn pddl_options(&self) -> PddlOptions {
        PddlOptions {
            stubborn_sets: matches!(
                self.method,
                Method::Searchlab {
                    stubborn_sets: true,
                    ..
                }
            ),
            ..PddlOptions::default()
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

    /// The configuration called `name`: searchlab's
    /// (`{fwd,reg,portfolio,bid}-{algorithm}-{heuristic}`, with a built-in
    /// heuristic) or a peer's (`fd-astar-blind`, see
    /// [`crate::external::EXTERNAL_SEARCHES`]).
    ///
    /// # Errors
    /// [`SuiteError::Invalid`] naming what is unknown.
    ///
    /// ```
    /// use searchlab_lab::suite::{Configuration, Method};
    /// assert_eq!(Configuration::by_name("reg-wastar2-hmax").unwrap().name, "reg-wastar2-hmax");
    /// assert!(matches!(Configuration::by_name("pp-gbfs-ff").unwrap().method, Method::External(_)));
    /// // LAMA's first iteration: lazy greedy search alternating between ff and lmcount.
    /// assert_eq!(Configuration::by_name("fwd-lazygbfs-ff+lmcount").unwrap().method_name(), "fwd-lazygbfs-ff+lmcount");
    /// assert!(Configuration::by_name("fwd-astar").is_err());
    /// // Bidirectional A* is NBS.
    /// let nbs = Configuration::by_name("bid-nbs-lmcut").unwrap();
    /// assert_eq!((nbs.name.as_str(), nbs.method_name()), ("bid-nbs-lmcut", "bid-nbs-lmcut".to_owned()));
    /// assert!(nbs.claims_optimal());
    /// assert!(Configuration::by_name("bid-nbs-lmcut-sss").is_err());
    /// ```
    pub fn by_name(name: &str) -> Result<Self, SuiteError> {
        Self::by_name_among(name, &Registry::builtin())
    }

    /// [`Configuration::by_name`], with the heuristics of `heuristics`
    /// (`fwd-astar-open` for a user heuristic `open` registered there).
    ///
    /// # Errors
    /// [`SuiteError::Invalid`] naming what is unknown.
    pub fn by_name_among(name: &str, heuristics: &Registry) -> Result<Self, SuiteError> {
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
        let (base, stubborn_sets) = match name.strip_suffix(STUBBORN_SUFFIX) {
            Some(base) => (base, true),
            None => (name, false),
        };
        let mut parts = base.splitn(3, '-');
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
        let algorithm = direction
            .parse_algorithm(a)
            .map_err(|e| bad(format!("algorithm `{a}`: {e}")))?;
        let heuristic = heuristics.get(h).map_err(|e| bad(e.to_string()))?;
        let config = Self::searchlab(direction, algorithm, heuristic);
        if !stubborn_sets {
            return Ok(config);
        }
        if matches!(direction, Direction::Regression | Direction::Bidirectional) {
            return Err(bad("stubborn sets prune forward search only".to_owned()));
        }
        Ok(config.with_stubborn_sets())
    }

    /// How it plans, as a name [`Configuration::by_name_among`] reads back
    /// (`fwd-astar-hmax`, `fd-astar-lmcut`), whatever the suite named it.
    pub fn method_name(&self) -> String {
        match &self.method {
            Method::Searchlab {
                direction,
                algorithm,
                heuristic,
                stubborn_sets,
            } => format!(
                "{}{}",
                searchlab_name(*direction, *algorithm, heuristic.name()),
                if *stubborn_sets { STUBBORN_SUFFIX } else { "" }
            ),
            Method::External(search) => search.name.to_owned(),
        }
    }

    /// Whether it claims optimal plan costs: A* with an admissible
    /// heuristic, or Dijkstra (in any direction, a portfolio too: both of
    /// its searches are then optimal), or a peer declared optimal
    /// ([`ExternalSearch::optimal`]). Breadth-first search is optimal only
    /// under unit costs, which a configuration cannot promise; weighted,
    /// greedy, lazy and anytime searches claim nothing.
    ///
    /// ```
    /// use searchlab_lab::suite::Configuration;
    /// let claims = |name: &str| Configuration::by_name(name).unwrap().claims_optimal();
    /// assert!(claims("fwd-astar-lmcut") && claims("reg-astar-hmax") && claims("fd-astar-lmcut"));
    /// assert!(claims("fwd-dijkstra-blind") && claims("pp-astar-hmax") && claims("fwd-astar-ipdb"));
    /// assert!(!claims("fwd-astar-ff") && !claims("fwd-wastar2-hmax") && !claims("fwd-rwastar-hmax"));
    /// assert!(!claims("fwd-bfs-blind") && !claims("fd-lama-first") && !claims("fwd-gbfs-hmax"));
    /// ```
    pub fn claims_optimal(&self) -> bool {
        match &self.method {
            Method::Searchlab {
                algorithm,
                heuristic,
                ..
            } => match algorithm {
                Algorithm::AStar => heuristic.info().admissible,
                // Weights are at least 1: at 1, A* itself.
                Algorithm::WeightedAStar { weight } => {
                    *weight <= 1.0 && heuristic.info().admissible
                }
                Algorithm::Dijkstra => true,
                _ => false,
            },
            Method::External(search) => search.optimal,
        }
    }

    /// Whether the configuration a record names claims optimal plan
    /// costs ([`claims_optimal`](Self::claims_optimal)): `method` (how it
    /// planned, [`Configuration::method_name`]) when the record has it, else
    /// its name, read by [`Configuration::by_name`]. A name that reads as no
    /// configuration (a user heuristic's, from another program) claims
    /// nothing.
    ///
    /// ```
    /// use searchlab_lab::suite::Configuration;
    /// assert!(Configuration::named_claims_optimal("optimal-one", Some("fwd-astar-hmax")));
    /// assert!(!Configuration::named_claims_optimal("fwd-astar-hmax", Some("fwd-gbfs-hmax")));
    /// assert!(!Configuration::named_claims_optimal("fwd-astar-mine", None));
    /// ```
    pub fn named_claims_optimal(name: &str, method: Option<&str>) -> bool {
        Self::by_name(method.unwrap_or(name)).is_ok_and(|c| c.claims_optimal())
    }

    /// Whether this configuration can run on problems of `kind`: its
    /// heuristic serves the kind's representation in its direction.
    pub fn applies_to(&self, kind: Kind) -> bool {
        match &self.method {
            Method::Searchlab {
                heuristic,
                direction,
                stubborn_sets,
                ..
            } => {
                heuristic.supports(kind.representation(), *direction)
                    && (!stubborn_sets || kind == Kind::Pddl)
            }
            // ENHSP plans both kinds of PDDL; the others STRIPS and ADL.
            Method::External(search) => match kind {
                Kind::Pddl => true,
                Kind::NumericPddl => search.planner == ExternalPlanner::Enhsp,
                Kind::Atomic | Kind::Factored => false,
            },
        }
    }

    /// The planner configuration of a searchlab configuration under
    /// `limits` (`None` for a peer's).
    pub fn planner_config(&self, limits: RunLimits) -> Option<PlannerConfig> {
        let Method::Searchlab {
            direction,
            algorithm,
            heuristic,
            ..
        } = &self.method
        else {
            return None;
        };
        Some(PlannerConfig {
            direction: *direction,
            algorithm: *algorithm,
            heuristic: heuristic.clone(),
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
        let mut without_java = None;
        self.configs.retain(|c| match &c.method {
            Method::External(search) if !peers.has(search.planner) => {
                dropped.push(c.name.clone());
                if search.planner == ExternalPlanner::Enhsp && peers.enhsp_jar.is_some() {
                    without_java = peers.why_missing(search.planner);
                } else if !missing.contains(&search.planner.name()) {
                    missing.push(search.planner.name());
                }
                false
            }
            _ => true,
        });
        let mut why = Vec::new();
        if !missing.is_empty() {
            why.push(format!(
                "{} not installed in {}; run scripts/install-peers.sh or set SEARCHLAB_PEERS",
                missing.join(" and "),
                peers.dir.display()
            ));
        }
        why.extend(without_java);
        (!dropped.is_empty())
            .then(|| format!("note: skipped {} ({})", dropped.join(", "), why.join("; ")))
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
            // Once per problem: a PDDL task's kind reads its domain.
            let kind = problem.instance.kind();
            for (c, config) in self.configs.iter().enumerate() {
                if config.applies_to(kind) {
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

    /// A note for each configuration with a user heuristic (one not built
    /// in) that skips some of the suite's problems, because the heuristic
    /// does not serve their representation in its direction: `note:
    /// fwd-astar-pdb skips 4 factored problems (pdb serves atomic problems
    /// only)`. Built-in heuristics skip silently, as their table says.
    pub fn skip_notes(&self) -> Vec<String> {
        let builtin = Registry::builtin();
        let mut notes = Vec::new();
        for config in &self.configs {
            let Method::Searchlab { heuristic, .. } = &config.method else {
                continue;
            };
            if builtin.get(heuristic.name()).is_ok() {
                continue;
            }
            let mut skipped: Vec<(Kind, usize)> = Vec::new();
            for problem in &self.problems {
                let kind = problem.instance.kind();
                if !config.applies_to(kind) {
                    match skipped.iter_mut().find(|(k, _)| *k == kind) {
                        Some((_, n)) => *n += 1,
                        None => skipped.push((kind, 1)),
                    }
                }
            }
            if skipped.is_empty() {
                continue;
            }
            let what: Vec<String> = skipped
                .iter()
                .map(|(kind, n)| {
                    format!(
                        "{n} {} problem{}",
                        kind_name(*kind),
                        if *n == 1 { "" } else { "s" }
                    )
                })
                .collect();
            let info = heuristic.info();
            let serves: Vec<String> = info
                .representations
                .iter()
                .map(ToString::to_string)
                .collect();
            let directions = match info.directions {
                Directions::Forward => " in forward search",
                Directions::Regression => " in regression",
                Directions::Both => "",
                Directions::None => " in no direction",
            };
            notes.push(format!(
                "note: {} skips {} ({} serves {} problems{directions} only)",
                config.name,
                what.join(" and "),
                heuristic.name(),
                serves.join(" and "),
            ));
        }
        notes
    }

    /// The names of the configurations, in suite order.
    pub fn config_names(&self) -> Vec<String> {
        self.configs.iter().map(|c| c.name.clone()).collect()
    }
}
