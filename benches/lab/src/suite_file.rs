//! Suites described in TOML, for `searchlab bench suite.toml`.
//!
//! ```toml
//! name = "my-suite"
//!
//! [limits]                 # per search; all optional
//! max_expansions = 100000  # default: none
//! max_time = 30.0          # seconds, at most a year; default 60
//! max_memory_mb = 512      # default 512
//!
//! [[problems]]             # a built-in generator
//! generator = "atomic-chains"
//! sizes = [16, 32]
//! seeds = [1, 2]           # default [1]; the factored families ignore it
//!
//! [[problems]]
//! generator = "reference"  # the reference scenarios
//!
//! [[problems]]             # problem files (globs, relative to this file)
//! files = ["../problems/*.toml"]
//! domain = "files"         # default: each file's directory name
//!
//! [[problems]]             # PDDL tasks: one domain, problem globs
//! pddl_domain = "gripper/domain.pddl"
//! pddl_problems = ["gripper/p0*.pddl"]
//!
//! [[problems]]             # without pddl_domain: each task's pNN-domain.pddl,
//! pddl_problems = ["parcprinter/p0*.pddl"]  # else the domain.pddl beside it
//!
//! [[configs]]              # every combination that applies to a problem
//! directions = ["forward", "regression"]
//! algorithms = ["astar", "gbfs"]
//! heuristics = ["hmax", "numeric"]
//!
//! [[configs]]              # configurations by name, a peer planner's too
//! names = ["fwd-astar-hmax", "fd-astar-hmax", "pp-astar-hmax"]
//! max_time = 20.0
//!
//! [[configs]]              # one configuration, with its own name and limits
//! name = "portfolio-astar-hmax"
//! direction = "portfolio"
//! algorithm = "astar"
//! heuristic = "hmax"
//! max_expansions = 50000
//! ```
//!
//! Heuristics that do not exist for a problem's kind (`hmax` on a factored
//! problem) are skipped for it.
//!
//! A limit left out, or no `[limits]` at all, takes the default of
//! [`safety_limits`]: 60 s and 512 MiB per search, which stop a runaway
//! search, and no expansion limit (the built-in suite's 100,000 makes its
//! table the same on every machine; ask for it with `max_expansions`). A
//! configuration's own limits start from the suite's.
//!
//! Everything is checked before anything runs, each error with its line: a
//! configuration that could only fail (`wastar:0.5`), a generator size out
//! of the generator's range, a problem listed twice (the same domain and
//! name, or the same file through two globs).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use planners::heuristics::Registry;
use planners::problem::LoadedProblem;
use planners::Direction;
use serde::Deserialize;
use toml::Spanned;

use crate::defaults::{generate, generator_sizes, reference_problems, safety_limits, GENERATORS};
use crate::suite::{
    mebibytes, parse_algorithm, time_limit, Configuration, PddlTask, RunLimits, Source, Suite,
    SuiteProblem,
};
use crate::SuiteError;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSuite {
    name: Option<String>,
    #[serde(default)]
    limits: RawLimits,
    #[serde(default)]
    problems: Vec<Spanned<RawProblems>>,
    #[serde(default)]
    configs: Vec<Spanned<RawConfigs>>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[expect(clippy::struct_field_names, reason = "the names are the file's keys")]
struct RawLimits {
    max_expansions: Option<u64>,
    max_time: Option<Spanned<f64>>,
    max_memory_mb: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProblems {
    generator: Option<String>,
    sizes: Option<Vec<u64>>,
    seeds: Option<Vec<u64>>,
    files: Option<Vec<String>>,
    pddl_domain: Option<String>,
    pddl_problems: Option<Vec<String>>,
    domain: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfigs {
    names: Option<Vec<String>>,
    name: Option<String>,
    direction: Option<String>,
    directions: Option<Vec<String>>,
    algorithm: Option<String>,
    algorithms: Option<Vec<String>>,
    heuristic: Option<String>,
    heuristics: Option<Vec<String>>,
    max_expansions: Option<u64>,
    max_time: Option<Spanned<f64>>,
    max_memory_mb: Option<u64>,
}

impl RawLimits {
    /// These limits, `base`'s where none is given.
    fn to_limits(&self, base: RunLimits, file: &SuiteText<'_>) -> Result<RunLimits, SuiteError> {
        let max_time = match &self.max_time {
            Some(t) => Some(
                time_limit(*t.get_ref())
                    .map_err(|e| file.error_at(t.span().start, &format!("max_time {e}")))?,
            ),
            None => None,
        };
        Ok(RunLimits {
            max_expansions: self.max_expansions,
            max_time,
            max_memory_bytes: self.max_memory_mb.map(mebibytes),
        }
        .or(base))
    }

    fn is_empty(&self) -> bool {
        self.max_expansions.is_none() && self.max_time.is_none() && self.max_memory_mb.is_none()
    }
}

/// A suite file's text and name, for errors that give the line.
struct SuiteText<'t> {
    text: &'t str,
    path: &'t str,
    /// The heuristics configurations may name.
    heuristics: &'t Registry,
}

impl SuiteText<'_> {
    /// The line (from 1) of byte `offset`.
    fn line(&self, offset: usize) -> usize {
        let end = offset.min(self.text.len());
        self.text.as_bytes()[..end].split(|&b| b == b'\n').count()
    }

    fn error(&self, message: String) -> SuiteError {
        SuiteError::SuiteFile {
            path: self.path.to_owned(),
            message,
        }
    }

    fn error_at(&self, offset: usize, message: &str) -> SuiteError {
        self.error(format!("line {}: {message}", self.line(offset)))
    }
}

/// The problems added so far and where each came from, to refuse one
/// listed twice: two problems with the same domain and name would share a
/// row of every table, and one file reached twice would run twice.
#[derive(Default)]
struct Listed {
    places: HashMap<String, String>,
}

impl Listed {
    /// Adds `problem`, found at `place` (and read from `file`), to `suite`.
    fn add(
        &mut self,
        suite: &mut Suite,
        problem: SuiteProblem,
        place: &str,
        file: Option<&Path>,
    ) -> Result<(), String> {
        let mut keys = vec![format!("problem `{}/{}`", problem.domain, problem.name)];
        if let Some(file) = file {
            let canonical = file.canonicalize().unwrap_or_else(|_| file.to_owned());
            keys.push(format!("file {}", canonical.display()));
        }
        for key in keys {
            if let Some(first) = self.places.get(&key) {
                return Err(format!("{key} is listed twice: {first} and {place}"));
            }
            self.places.insert(key, place.to_owned());
        }
        suite.problems.push(problem);
        Ok(())
    }
}

/// Reads a suite file.
///
/// # Errors
/// [`SuiteError::Io`] when it cannot be read; [`SuiteError::SuiteFile`]
/// with the line for malformed TOML, an out-of-range limit, an unknown
/// generator, direction, algorithm or heuristic, a weighted A* weight below
/// 1, a generator size out of range, a glob that matches nothing, a problem
/// listed twice, and the problem files' own errors.
pub fn load_suite(path: &Path) -> Result<Suite, SuiteError> {
    load_suite_with(path, &Registry::builtin())
}

/// [`load_suite`], where configurations name the heuristics of
/// `heuristics`: the built-in ones and the user's (`heuristics =
/// ["open"]`, `names = ["fwd-astar-open"]`).
///
/// # Errors
/// As [`load_suite`].
pub fn load_suite_with(path: &Path, heuristics: &Registry) -> Result<Suite, SuiteError> {
    let text = planners::input::read_text(path).map_err(|e| SuiteError::io(path, &e))?;
    let base = path.parent().unwrap_or(Path::new("."));
    let file = SuiteText {
        text: &text,
        path: &path.display().to_string(),
        heuristics,
    };
    parse(&file, base)
}

/// Reads a suite from `text`; `path` names it in errors and `base` is the
/// directory that file globs are relative to.
///
/// # Errors
/// As [`load_suite`].
///
/// ```
/// use std::path::Path;
/// let text = r#"
/// [[problems]]
/// generator = "atomic-chains"
/// sizes = [16]
/// [[configs]]
/// directions = ["forward", "regression"]
/// algorithm = "astar"
/// heuristics = ["hmax", "numeric"]
/// "#;
/// let suite = searchlab_lab::suite_file::parse_suite(text, "s.toml", Path::new(".")).unwrap();
/// assert_eq!(suite.problems.len(), 1);
/// assert_eq!(suite.config_names(), ["fwd-astar-hmax", "fwd-astar-numeric", "reg-astar-hmax", "reg-astar-numeric"]);
/// assert_eq!(suite.runs().len(), 2); // numeric does not apply to atomic problems
/// ```
pub fn parse_suite(text: &str, path: &str, base: &Path) -> Result<Suite, SuiteError> {
    let builtin = Registry::builtin();
    let file = SuiteText {
        text,
        path,
        heuristics: &builtin,
    };
    parse(&file, base)
}

fn parse(file: &SuiteText<'_>, base: &Path) -> Result<Suite, SuiteError> {
    let text = file.text;
    let raw: RawSuite = toml::from_str(text).map_err(|e| match e.span() {
        Some(span) => file.error_at(span.start, e.message().trim_end()),
        None => file.error(e.message().trim_end().to_owned()),
    })?;
    let mut suite = Suite::new(raw.name.as_deref().unwrap_or("suite"));
    suite.limits = raw.limits.to_limits(safety_limits(), file)?;
    let mut listed = Listed::default();
    for entry in &raw.problems {
        let at = entry.span().start;
        add_problems(
            &mut suite,
            &mut listed,
            entry.get_ref(),
            base,
            file.line(at),
        )
        .map_err(|e| file.error_at(at, &e))?;
    }
    if suite.problems.is_empty() {
        return Err(file.error("the suite has no problems ([[problems]])".to_owned()));
    }
    for entry in &raw.configs {
        add_configs(&mut suite, entry.get_ref(), entry.span().start, file)?;
    }
    if suite.configs.is_empty() {
        return Err(file.error("the suite has no configurations ([[configs]])".to_owned()));
    }
    Ok(suite)
}

/// Adds the problems of one `[[problems]]` entry, which starts on `line`.
fn add_problems(
    suite: &mut Suite,
    listed: &mut Listed,
    entry: &RawProblems,
    base: &Path,
    line: usize,
) -> Result<(), String> {
    let at = |file: &Path| format!("line {line} ({})", file.display());
    if entry.pddl_domain.is_some() || entry.pddl_problems.is_some() {
        if entry.generator.is_some() || entry.files.is_some() {
            return Err(
                "a [[problems]] entry with `pddl_problems` takes no `generator` or `files`"
                    .to_owned(),
            );
        }
        let patterns = entry
            .pddl_problems
            .as_ref()
            .filter(|p| !p.is_empty())
            .ok_or_else(|| "`pddl_domain` needs `pddl_problems`".to_owned())?;
        for file in expand(base, patterns)? {
            // Without `pddl_domain`, each task's own domain file: the
            // `pNN-domain.pddl` beside it, else `domain.pddl`.
            let domain_path = match &entry.pddl_domain {
                Some(domain_file) => base.join(domain_file),
                None if is_domain_file(&file) => continue,
                None => domain_of(&file),
            };
            let problem = load_pddl(&domain_path, &file, entry.domain.as_deref())
                .map_err(|e| e.to_string())?;
            listed.add(suite, problem, &at(&file), Some(&file))?;
        }
        return Ok(());
    }
    match (&entry.generator, &entry.files) {
        (Some(generator), None) if generator == "reference" => {
            for problem in reference_problems().map_err(|e| e.to_string())? {
                listed.add(suite, problem, &format!("line {line}"), None)?;
            }
        }
        (Some(generator), None) => {
            let Some(range) = generator_sizes(generator) else {
                return Err(format!(
                    "unknown generator `{generator}` (known: {})",
                    GENERATORS.join(", ")
                ));
            };
            let sizes = entry
                .sizes
                .as_ref()
                .filter(|s| !s.is_empty())
                .ok_or_else(|| format!("generator `{generator}` needs `sizes`"))?;
            if let Some(size) = sizes.iter().find(|s| !range.contains(s)) {
                return Err(format!(
                    "generator `{generator}` takes sizes {} to {}, not {size}",
                    range.start(),
                    range.end()
                ));
            }
            let factored = generator.starts_with("factored-");
            let seeds = if factored {
                vec![0]
            } else {
                entry.seeds.clone().unwrap_or_else(|| vec![1])
            };
            for &size in sizes {
                for &seed in &seeds {
                    let mut problem = generate(generator, size, seed).map_err(|e| e.to_string())?;
                    if let Some(domain) = &entry.domain {
                        problem.domain.clone_from(domain);
                    }
                    listed.add(suite, problem, &format!("line {line}"), None)?;
                }
            }
        }
        (None, Some(patterns)) => {
            for file in expand(base, patterns)? {
                let problem =
                    load_problem(&file, entry.domain.as_deref()).map_err(|e| e.to_string())?;
                listed.add(suite, problem, &at(&file), Some(&file))?;
            }
        }
        _ => {
            return Err(
                "each [[problems]] entry needs `generator`, `files` or `pddl_problems`".to_owned(),
            )
        }
    }
    Ok(())
}

/// The files that `patterns` (globs relative to `base`) match, each
/// pattern's sorted.
fn expand(base: &Path, patterns: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut all = Vec::new();
    for pattern in patterns {
        let full = base.join(pattern);
        let mut paths: Vec<PathBuf> = glob::glob(&full.to_string_lossy())
            .map_err(|e| format!("bad glob `{pattern}`: {e}"))?
            .filter_map(Result::ok)
            .collect();
        if paths.is_empty() {
            return Err(format!("`{pattern}` matches no file"));
        }
        paths.sort();
        all.extend(paths);
    }
    Ok(all)
}

/// Reads a PDDL domain and problem as a suite problem in `domain` (default:
/// the domain file's directory name), named after the problem file. Parsing
/// and grounding happen in each run, so errors in the PDDL show up as
/// failed runs.
///
/// # Errors
/// [`SuiteError::Io`] when a file cannot be read.
pub fn load_pddl(
    domain_file: &Path,
    problem_file: &Path,
    domain: Option<&str>,
) -> Result<SuiteProblem, SuiteError> {
    let read = |p: &Path| planners::input::read_text(p).map_err(|e| SuiteError::io(p, &e));
    let task = PddlTask {
        domain_file: domain_file.display().to_string(),
        domain: read(domain_file)?,
        problem_file: problem_file.display().to_string(),
        problem: read(problem_file)?,
    };
    let domain = domain.map_or_else(|| directory_name(domain_file), str::to_owned);
    let name = problem_file.file_stem().map_or_else(
        || "problem".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    Ok(SuiteProblem::pddl(&domain, &name, task))
}

/// The configurations of [`pddl_suite`] when none are named: searchlab
/// forward and regression with `h_max` (A*) and `h_FF` (greedy), blind
/// forward A*, and every peer configuration (dropped if not installed).
pub const DEFAULT_PDDL_CONFIGS: [&str; 12] = [
    "fwd-astar-blind",
    "fwd-astar-hmax",
    "reg-astar-hmax",
    "fwd-gbfs-ff",
    "reg-gbfs-ff",
    "fd-astar-blind",
    "fd-astar-hmax",
    "fd-astar-lmcut",
    "fd-gbfs-ff",
    "pp-astar-blind",
    "pp-astar-hmax",
    "pp-gbfs-ff",
];

/// A suite of PDDL tasks: each path is a domain directory (its
/// `domain.pddl` and every other `.pddl` file in it, sorted) or one problem
/// file (with the `domain.pddl` beside it). A task `pNN.pddl` with a
/// `pNN-domain.pddl` beside it uses that domain file instead, as the IPC
/// collections lay out domains that differ per task. Each directory is a domain of
/// the suite's tables. `configs` names the configurations
/// ([`Configuration::by_name`]; [`DEFAULT_PDDL_CONFIGS`] if empty).
///
/// # Errors
/// [`SuiteError::Io`] for a file that cannot be read, [`SuiteError::Invalid`]
/// for a directory without `domain.pddl` or tasks, a task given twice, or an
/// unknown configuration.
pub fn pddl_suite(
    paths: &[PathBuf],
    configs: &[String],
    limits: RunLimits,
) -> Result<Suite, SuiteError> {
    pddl_suite_with(paths, configs, limits, &Registry::builtin())
}

/// [`pddl_suite`], where configurations name the heuristics of
/// `heuristics` (the built-in ones and the user's).
///
/// # Errors
/// As [`pddl_suite`].
pub fn pddl_suite_with(
    paths: &[PathBuf],
    configs: &[String],
    limits: RunLimits,
    heuristics: &Registry,
) -> Result<Suite, SuiteError> {
    let mut suite = Suite::new("pddl");
    suite.limits = limits;
    let mut listed = Listed::default();
    for path in paths {
        if !path.exists() {
            return Err(SuiteError::Invalid(format!(
                "--pddl {}: no such directory or file",
                path.display()
            )));
        }
        let problems: Vec<PathBuf> = if path.is_dir() {
            let mut problems: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| SuiteError::io(path, &e))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "pddl") && !is_domain_file(p))
                .collect();
            problems.sort();
            problems
        } else {
            vec![path.clone()]
        };
        if problems.is_empty() {
            return Err(SuiteError::Invalid(format!(
                "--pddl {}: no task files (*.pddl besides domain files: domain.pddl, *-domain.pddl, domain_*, domain-*)",
                path.display()
            )));
        }
        for problem in &problems {
            let domain_file = domain_of(problem);
            if !domain_file.is_file() {
                return Err(SuiteError::Invalid(format!(
                    "--pddl {}: no domain file {}",
                    path.display(),
                    domain_file.display()
                )));
            }
            let task = load_pddl(&domain_file, problem, None)?;
            let place = format!("--pddl {}", path.display());
            listed
                .add(&mut suite, task, &place, Some(problem))
                .map_err(SuiteError::Invalid)?;
        }
    }
    let names: Vec<String> = if configs.is_empty() {
        DEFAULT_PDDL_CONFIGS.map(str::to_owned).to_vec()
    } else {
        configs.to_vec()
    };
    for name in &names {
        suite.add_config(Configuration::by_name_among(name, heuristics)?);
    }
    Ok(suite)
}

/// Whether `file` is a domain file by the IPC collections' names:
/// `domain.pddl`, `*-domain.pddl`, `domain_*.pddl` or `domain-*.pddl`.
fn is_domain_file(file: &Path) -> bool {
    file.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
        n == "domain.pddl"
            || n.ends_with("-domain.pddl")
            || n.starts_with("domain_")
            || n.starts_with("domain-")
    })
}

/// The domain file of task `problem`, by the names Fast Downward's driver
/// tries: `pNN-domain.pddl` for `pNN.pddl`, the first three characters'
/// `p01-domain.pddl` (airport), `domain_pNN.pddl`, `domain-pNN.pddl`, else
/// `domain.pddl`.
fn domain_of(problem: &Path) -> PathBuf {
    let dir = problem.parent().unwrap_or(Path::new("."));
    let name = problem
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let stem = problem
        .file_stem()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let prefix: String = name.chars().take(3).collect();
    [
        format!("{stem}-domain.pddl"),
        format!("{prefix}-domain.pddl"),
        format!("domain_{name}"),
        format!("domain-{name}"),
    ]
    .into_iter()
    .map(|candidate| dir.join(candidate))
    .find(|candidate| candidate.is_file())
    .unwrap_or_else(|| dir.join("domain.pddl"))
}

fn directory_name(file: &Path) -> String {
    file.parent()
        .and_then(Path::file_name)
        .map_or_else(|| "files".to_owned(), |d| d.to_string_lossy().into_owned())
}

/// Loads one problem file as a suite problem in `domain` (default: the
/// file's directory name).
///
/// # Errors
/// [`SuiteError::Problem`] with the loader's message (file, line, column).
pub fn load_problem(file: &Path, domain: Option<&str>) -> Result<SuiteProblem, SuiteError> {
    let loaded = planners::problem::load(file).map_err(|e| SuiteError::Problem {
        name: file.display().to_string(),
        message: e.to_string(),
    })?;
    let domain = domain.map_or_else(|| directory_name(file), str::to_owned);
    let name = loaded.name().to_owned();
    let problem = match loaded {
        LoadedProblem::Atomic(p) => SuiteProblem::atomic(&domain, &name, p),
        LoadedProblem::Factored(p) => SuiteProblem::factored(&domain, &name, p),
    };
    let path = std::path::absolute(file).unwrap_or_else(|_| file.to_owned());
    let mut problem = problem.with_source(Source::File { path });
    // `load` read it whole a moment ago, within the input cap.
    problem.digest = planners::input::read_capped(file, planners::input::MAX_INPUT_BYTES)
        .ok()
        .map(|bytes| crate::suite::digest(&bytes));
    Ok(problem)
}

fn one_or_many(one: Option<&String>, many: Option<&Vec<String>>, default: &str) -> Vec<String> {
    match (one, many) {
        (Some(one), Some(many)) => std::iter::once(one.clone())
            .chain(many.iter().cloned())
            .collect(),
        (Some(one), None) => vec![one.clone()],
        (None, Some(many)) => many.clone(),
        (None, None) => vec![default.to_owned()],
    }
}

/// Adds the configurations of one `[[configs]]` entry, which starts at byte
/// `at` of `file`.
fn add_configs(
    suite: &mut Suite,
    entry: &RawConfigs,
    at: usize,
    file: &SuiteText<'_>,
) -> Result<(), SuiteError> {
    let bad = |message: String| file.error_at(at, &message);
    if entry.names.is_some()
        && (entry.name.is_some()
            || entry.direction.is_some()
            || entry.directions.is_some()
            || entry.algorithm.is_some()
            || entry.algorithms.is_some()
            || entry.heuristic.is_some()
            || entry.heuristics.is_some())
    {
        return Err(bad(
            "a [[configs]] entry with `names` takes only limits besides".to_owned(),
        ));
    }
    let own = RawLimits {
        max_expansions: entry.max_expansions,
        max_time: entry.max_time.clone(),
        max_memory_mb: entry.max_memory_mb,
    };
    let limits = own.to_limits(suite.limits, file)?;
    let limits = (!own.is_empty()).then_some(limits);
    if let Some(names) = &entry.names {
        for name in names {
            let mut config = Configuration::by_name_among(name, file.heuristics)
                .map_err(|e| bad(e.to_string()))?;
            config.limits = limits;
            suite.add_config(config);
        }
        return Ok(());
    }
    let directions = one_or_many(
        entry.direction.as_ref(),
        entry.directions.as_ref(),
        "forward",
    );
    let algorithms = one_or_many(entry.algorithm.as_ref(), entry.algorithms.as_ref(), "astar");
    let heuristics = one_or_many(entry.heuristic.as_ref(), entry.heuristics.as_ref(), "blind");
    let combinations = directions.len() * algorithms.len() * heuristics.len();
    if entry.name.is_some() && combinations > 1 {
        return Err(bad(format!(
            "configuration `{}` names {combinations} combinations; give a name only to one",
            entry.name.as_deref().unwrap_or_default()
        )));
    }
    for d in &directions {
        let direction: Direction = d
            .parse()
            .map_err(|e: planners::PlanError| bad(e.to_string()))?;
        for a in &algorithms {
            let algorithm = parse_algorithm(a).map_err(|e| bad(e.to_string()))?;
            for h in &heuristics {
                let heuristic = file.heuristics.get(h).map_err(|e| bad(e.to_string()))?;
                let mut config = Configuration::searchlab(direction, algorithm, heuristic);
                if let Some(name) = &entry.name {
                    config.name.clone_from(name);
                }
                config.limits = limits;
                suite.add_config(config);
            }
        }
    }
    Ok(())
}
