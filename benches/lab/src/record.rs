//! One record per run, and the files they are written to: JSON lines, CSV
//! and a Downward Lab properties file.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::fs;
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::limits::{RunLimits, MAX_TIME};
use crate::provenance::{Build, Machine};
use crate::SuiteError;

/// How a run ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunOutcome {
    /// A plan was found (see [`RunRecord::validated`]).
    Solved,
    /// The search proved that no plan exists.
    Unsolvable,
    /// The search ran dry without a plan, but left out states a heuristic
    /// called dead ends without proof (Fast Downward's "unsolved,
    /// incomplete"): not a proof that none exists.
    NoPlanFound,
    /// A limit stopped the search ([`RunRecord::limit`] names it).
    Limit,
    /// The search was cancelled.
    Cancelled,
    /// The planner does not handle the task and said so by name (a
    /// construct it does not read, a direction or heuristic that does not
    /// serve it, Fast Downward's exit code 34): an expected refusal, not a
    /// failure.
    Unsupported,
    /// The planner refused the problem as bad input (or failed in a way it
    /// did not name); also a run's outcome until it says otherwise.
    #[default]
    Error,
    /// The run panicked; the suite went on.
    Panic,
    /// An isolated run ran out of the memory the operating system allowed
    /// it ([`crate::isolated`]).
    OutOfMemory,
    /// An isolated run outlived its time limit and was killed.
    OutOfTime,
    /// An isolated run died (abort, stack overflow, a signal).
    Crashed,
}

impl RunOutcome {
    /// The lower-case name used in files.
    pub fn name(self) -> &'static str {
        match self {
            RunOutcome::Solved => "solved",
            RunOutcome::Unsolvable => "unsolvable",
            RunOutcome::NoPlanFound => "no_plan_found",
            RunOutcome::Limit => "limit",
            RunOutcome::Cancelled => "cancelled",
            RunOutcome::Unsupported => "unsupported",
            RunOutcome::Error => "error",
            RunOutcome::Panic => "panic",
            RunOutcome::OutOfMemory => "out_of_memory",
            RunOutcome::OutOfTime => "out_of_time",
            RunOutcome::Crashed => "crashed",
        }
    }
}

/// The result of one run: which problem, which configuration, how it ended,
/// the plan's cost and length and the search statistics.
///
/// For a portfolio, the counters and memory add up both searches; the
/// expansions until the last jump are the winner's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// The run's index in its suite's run list.
    pub run: usize,
    /// The problem's domain.
    pub domain: String,
    /// The problem's name.
    pub problem: String,
    /// The configuration's name.
    pub config: String,
    /// How the run ended.
    pub outcome: RunOutcome,
    /// The limit that stopped the run (`expansions`, `time`, `memory` ...).
    pub limit: Option<String>,
    /// The plan's cost, if solved.
    pub cost: Option<u64>,
    /// The plan's number of actions, if solved.
    pub plan_length: Option<usize>,
    /// Expanded nodes.
    pub expanded: u64,
    /// Generated nodes.
    pub generated: u64,
    /// Heuristic evaluations.
    pub evaluated: u64,
    /// Reopened nodes.
    pub reopened: u64,
    /// Expansions before the last f-layer (Fast Downward's
    /// `expansions_until_last_jump`; A* only).
    pub expanded_until_last_jump: u64,
    /// Wall time of the search in seconds (Downward Lab's `search_time`;
    /// for a PDDL task, without parsing and grounding: see
    /// [`translator_time`](Self::translator_time), but for a run that a
    /// limit stopped before its search, whose time is all parsing and
    /// grounding); for a peer planner, the search time it reports (CPU
    /// time; ENHSP's wall time of its search, without Java's start-up, see
    /// [`process_time`](Self::process_time)).
    pub time: f64,
    /// CPU time of the search in seconds: of searchlab's worker thread,
    /// read from Linux's `/proc/thread-self/schedstat` before and after the
    /// search (`None` elsewhere, and for a portfolio, whose searches run on
    /// threads of their own), or the peer's reported search time.
    /// Comparisons with peers use it, since they report CPU time: on a busy
    /// machine wall time also counts the waits for a core.
    #[serde(default)]
    pub cpu_time: Option<f64>,
    /// For a PDDL task, the wall time in seconds before the search: parsing,
    /// grounding and building the task (Downward Lab's `translator_time`;
    /// for Fast Downward, its translator's); `None` for other problems,
    /// built before the suite runs, and for a run that a limit stopped
    /// before its search (its [`time`](Self::time) says how long it ran).
    #[serde(default)]
    pub translator_time: Option<f64>,
    /// For a PDDL task, the peak resident memory in bytes before the
    /// search: searchlab's process after parsing, grounding and mutexes
    /// (an isolated run's process holds nothing else), Fast Downward's
    /// translator's ("Translator peak memory"; Downward Lab's
    /// `translator_peak_memory`). `None` where not measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub translator_memory: Option<u64>,
    /// Wall time in seconds spent making the heuristic (the tables it
    /// builds before its first estimate; Fast Downward reports this per
    /// heuristic), part of [`time`](Self::time); for a portfolio, the
    /// longer of its two directions'. `None` for a peer planner.
    #[serde(default)]
    pub setup_time: Option<f64>,
    /// For a peer planner: the wall time in seconds of its whole process,
    /// start-up (Java's, Python's), parsing and translation included, where
    /// [`time`](Self::time) is the search's alone. `None` for searchlab's
    /// own runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process_time: Option<f64>,
    /// For a peer that reports it (ENHSP): the value of the task's metric at
    /// the plan's end, which a numeric task's may have a fraction (a
    /// [`cost`](Self::cost) only when it is a whole number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metric: Option<f64>,
    /// Memory in bytes, as [`memory_measure`](Self::memory_measure) says:
    /// searchlab's estimate for its own searches, the peak of the process
    /// for a peer planner that reports it (0 if it does not).
    pub memory: u64,
    /// What [`memory`](Self::memory) measures; `None` when nothing was
    /// measured (pyperplan, a run that failed before its search, a record
    /// written before searchlab said).
    #[serde(default)]
    pub memory_measure: Option<MemoryMeasure>,
    /// Stored nodes (registered states, for Fast Downward).
    #[serde(default)]
    pub stored: u64,
    /// For a solved run: whether the plan replays from the start to the
    /// goal with the reported cost.
    pub validated: Option<bool>,
    /// For a portfolio: the direction that answered.
    pub winner: Option<String>,
    /// The error or panic message, or what is wrong with an invalid plan.
    pub error: Option<String>,
    /// The limits the run was under (per search).
    #[serde(default)]
    pub limits: Option<Limits>,
    /// When the run started, in RFC 3339 (UTC).
    #[serde(default)]
    pub started: Option<String>,
    /// The searchlab build that ran it: version and git revision.
    #[serde(default)]
    pub build: Option<Build>,
    /// How the configuration plans, whatever the suite named it
    /// (`fwd-astar-hmax`, `fd-astar-lmcut`): a resumed experiment re-runs a
    /// configuration whose name stayed and whose method changed.
    #[serde(default)]
    pub method: Option<String>,
    /// A digest of the problem's text (a problem file, a PDDL task), in
    /// hex: a resumed experiment re-runs a problem whose text changed.
    #[serde(default)]
    pub problem_digest: Option<String>,
    /// The machine it ran on: host name, CPU model, cores.
    #[serde(default)]
    pub machine: Option<Machine>,
    /// Fields this build does not know (written by a newer searchlab, or
    /// added by hand), kept as read so that `merge` and `bench --resume`
    /// write them back.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// The limits a run was under, as its record keeps them (per search; `None`
/// is no limit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Wall time in seconds.
    pub max_time: Option<f64>,
    /// Expansions.
    pub max_expansions: Option<u64>,
    /// The search's estimated memory in bytes.
    pub max_memory_bytes: Option<u64>,
}

impl From<RunLimits> for Limits {
    fn from(limits: RunLimits) -> Self {
        Limits {
            max_time: limits.max_time.map(|t| t.as_secs_f64()),
            max_expansions: limits.max_expansions,
            max_memory_bytes: limits.max_memory_bytes.map(|b| b as u64),
        }
    }
}

/// What a record's [`memory`](RunRecord::memory) measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemoryMeasure {
    /// searchlab's estimate of its search: the capacity of the node store,
    /// index and open list at the end (they never shrink, so about their
    /// peak) and the heap memory the nodes own; not the process's memory,
    /// which runs on other threads share. For a run that the memory limit
    /// stopped while grounding, grounding's estimate.
    SearchEstimate,
    /// The peak memory of the planner's process, as the peer reports it, or
    /// of an isolated run's child ([`crate::isolated`]) that stopped before
    /// its search measured anything.
    ProcessPeak,
}

impl MemoryMeasure {
    /// The name used in files: `search-estimate` or `process-peak`.
    pub fn name(self) -> &'static str {
        match self {
            MemoryMeasure::SearchEstimate => "search-estimate",
            MemoryMeasure::ProcessPeak => "process-peak",
        }
    }
}

/// What makes two records the same run of the same experiment, for
/// `bench --resume`: the problem, the configuration, the limits and the
/// searchlab build (version, revision and dirty flag).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResumeKey {
    domain: String,
    problem: String,
    config: String,
    /// The time limit's bits, the expansion and memory limits.
    limits: [Option<u64>; 3],
    build: Build,
    method: Option<String>,
    problem_digest: Option<String>,
}

impl RunRecord {
    /// An empty record for a run (outcome `error`, zero statistics).
    pub fn new(run: usize, domain: &str, problem: &str, config: &str) -> Self {
        Self {
            run,
            domain: domain.to_owned(),
            problem: problem.to_owned(),
            config: config.to_owned(),
            outcome: RunOutcome::Error,
            limit: None,
            cost: None,
            plan_length: None,
            expanded: 0,
            generated: 0,
            evaluated: 0,
            reopened: 0,
            expanded_until_last_jump: 0,
            time: 0.0,
            cpu_time: None,
            translator_time: None,
            translator_memory: None,
            setup_time: None,
            process_time: None,
            metric: None,
            memory: 0,
            memory_measure: None,
            stored: 0,
            validated: None,
            winner: None,
            error: None,
            limits: None,
            started: None,
            build: None,
            method: None,
            problem_digest: None,
            machine: None,
            extra: BTreeMap::new(),
        }
    }

    /// Whether the run counts towards coverage: solved with a plan that
    /// replays, or a peer's plan searchlab could not replay (it could not
    /// ground the task: [`unchecked_plan`](Self::unchecked_plan)), on the
    /// peer's word. Every plan of searchlab's own is replayed.
    pub fn solved(&self) -> bool {
        self.outcome == RunOutcome::Solved && self.validated != Some(false)
    }

    /// Whether the run found a plan that does not replay.
    pub fn invalid_plan(&self) -> bool {
        self.outcome == RunOutcome::Solved && self.validated == Some(false)
    }

    /// Whether the run found a plan that was not replayed: a peer's, on a
    /// task searchlab could not ground to replay it ([`error`](Self::error)
    /// says why).
    pub fn unchecked_plan(&self) -> bool {
        self.outcome == RunOutcome::Solved && self.validated.is_none()
    }

    /// The status in Downward Lab's words (its `error` attribute).
    pub fn lab_error(&self) -> &'static str {
        match (self.outcome, self.limit.as_deref()) {
            (RunOutcome::Solved, _) if self.solved() => "success",
            (RunOutcome::Solved, _) => "invalid-plan",
            (RunOutcome::Unsolvable, _) => "search-unsolvable",
            (RunOutcome::NoPlanFound, _) => "search-unsolvable-incomplete",
            (RunOutcome::Limit, Some("time")) | (RunOutcome::OutOfTime, _) => "search-out-of-time",
            (RunOutcome::Limit, Some("memory" | "stored nodes")) | (RunOutcome::OutOfMemory, _) => {
                "search-out-of-memory"
            }
            (RunOutcome::Limit, _) => "search-out-of-expansions",
            (RunOutcome::Cancelled, _) => "search-cancelled",
            (RunOutcome::Unsupported, _) => "search-unsupported",
            (RunOutcome::Error, _) => "search-input-error",
            (RunOutcome::Panic | RunOutcome::Crashed, _) => "search-critical-error",
        }
    }

    /// The key identifying the run across files: domain, problem,
    /// configuration.
    pub fn key(&self) -> (&str, &str, &str) {
        (&self.domain, &self.problem, &self.config)
    }

    /// The key `bench --resume` skips a run by: its problem, configuration,
    /// limits and build; `None` for a record without limits or build
    /// (written before searchlab recorded them), which no run matches.
    ///
    /// ```
    /// use searchlab_lab::provenance::Build;
    /// use searchlab_lab::record::{Limits, RunRecord};
    /// let mut r = RunRecord::new(0, "d", "p", "c");
    /// assert!(r.resume_key().is_none());
    /// r.limits = Some(Limits { max_time: Some(60.0), ..Limits::default() });
    /// r.build = Some(Build::this());
    /// let mut other = r.clone();
    /// other.time = 3.0;
    /// assert_eq!(r.resume_key(), other.resume_key());
    /// other.limits = Some(Limits::default());
    /// assert_ne!(r.resume_key(), other.resume_key());
    /// ```
    pub fn resume_key(&self) -> Option<ResumeKey> {
        let limits = self.limits?;
        Some(ResumeKey {
            domain: self.domain.clone(),
            problem: self.problem.clone(),
            config: self.config.clone(),
            limits: [
                limits.max_time.map(f64::to_bits),
                limits.max_expansions,
                limits.max_memory_bytes,
            ],
            build: self.build.clone()?,
            method: self.method.clone(),
            problem_digest: self.problem_digest.clone(),
        })
    }

    /// Checks what no run can produce and what reports cannot draw: a time
    /// (wall, CPU or translator time) that is negative or beyond
    /// [`MAX_TIME`].
    ///
    /// # Errors
    /// What is wrong, naming the field.
    ///
    /// ```
    /// use searchlab_lab::record::RunRecord;
    /// let mut r = RunRecord::new(0, "d", "p", "c");
    /// assert!(r.check().is_ok());
    /// r.time = 1e305;
    /// assert!(r.check().unwrap_err().starts_with("time 1e305"));
    /// ```
    pub fn check(&self) -> Result<(), String> {
        let seconds = |field: &str, t: f64| {
            if (0.0..=MAX_TIME.as_secs_f64()).contains(&t) {
                Ok(())
            } else {
                Err(format!(
                    "{field} {t:?} is not a number of seconds from 0 to {} (a year)",
                    MAX_TIME.as_secs()
                ))
            }
        };
        seconds("time", self.time)?;
        self.cpu_time.map_or(Ok(()), |t| seconds("cpu_time", t))?;
        self.translator_time
            .map_or(Ok(()), |t| seconds("translator_time", t))?;
        self.setup_time
            .map_or(Ok(()), |t| seconds("setup_time", t))?;
        self.process_time
            .map_or(Ok(()), |t| seconds("process_time", t))?;
        match self.metric {
            Some(m) if !m.is_finite() => Err(format!("metric {m:?} is not a finite number")),
            _ => Ok(()),
        }
    }

    fn describe(&self) -> String {
        format!("{} on {}/{}", self.config, self.domain, self.problem)
    }
}

/// Checks every record ([`RunRecord::check`]).
///
/// # Errors
/// [`SuiteError::Invalid`] naming the first bad run.
pub fn check_records(records: &[RunRecord]) -> Result<(), SuiteError> {
    for r in records {
        r.check()
            .map_err(|e| SuiteError::Invalid(format!("run {}: {e}", r.describe())))?;
    }
    Ok(())
}

/// Writes `records` as JSON lines, one record a line ([`write_file`]).
///
/// # Errors
/// [`SuiteError::Io`] when the file cannot be written;
/// [`SuiteError::Invalid`] when `path` is not a regular file.
pub fn write_jsonl(path: &Path, records: &[RunRecord]) -> Result<(), SuiteError> {
    let mut out = String::new();
    for record in records {
        let line = serde_json::to_string(record).map_err(|e| SuiteError::Json {
            path: path.display().to_string(),
            line: 0,
            message: e.to_string(),
        })?;
        out.push_str(&line);
        out.push('\n');
    }
    write_file(path, out.as_bytes())
}

/// Reads JSON lines written by [`write_jsonl`]; blank lines are skipped. A
/// last line without a newline counts like any other. At most
/// [`MAX_RESULTS_BYTES`](crate::files::MAX_RESULTS_BYTES) are read; a named
/// pipe is refused unopened.
///
/// # Errors
/// [`SuiteError::Io`] when the file cannot be read or is too large,
/// [`SuiteError::Json`] naming the line of a malformed record or of one that
/// fails [`RunRecord::check`].
pub fn read_jsonl(path: &Path) -> Result<Vec<RunRecord>, SuiteError> {
    let mut records = Vec::new();
    crate::files::read_lines(path, |number, line, _| {
        if let Some(record) = parse_line(path, number, line)? {
            records.push(record);
        }
        Ok(())
    })?;
    Ok(records)
}

/// The record on line `number` of `path`; `None` for a blank line.
pub(crate) fn parse_line(
    path: &Path,
    number: usize,
    line: &str,
) -> Result<Option<RunRecord>, SuiteError> {
    if line.trim().is_empty() {
        return Ok(None);
    }
    let malformed = |message: String| SuiteError::Json {
        path: path.display().to_string(),
        line: number,
        message,
    };
    let record: RunRecord = serde_json::from_str(line).map_err(|e| malformed(e.to_string()))?;
    record.check().map_err(malformed)?;
    Ok(Some(record))
}

/// The CSV header, in the order of [`to_csv`]'s columns.
pub const CSV_HEADER: &str = "run,domain,problem,config,outcome,limit,cost,plan_length,expanded,generated,evaluated,reopened,expanded_until_last_jump,time,cpu_time,memory,stored,validated,winner,error,translator_time,memory_measure,max_time,max_expansions,max_memory_bytes,started,version,revision,dirty,hostname,cpu_model,cores,setup_time,process_time,metric,translator_memory";

/// The records as CSV with [`CSV_HEADER`]; fields with commas or quotes are
/// quoted.
pub fn to_csv(records: &[RunRecord]) -> String {
    fn field(s: &str) -> String {
        if s.contains([',', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_owned()
        }
    }
    fn opt<T: ToString>(v: Option<T>) -> String {
        v.map(|v| v.to_string()).unwrap_or_default()
    }
    let seconds = |t: Option<f64>| opt(t.map(|t| format!("{t:.6}")));
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    for r in records {
        let limits = r.limits.unwrap_or_default();
        let build = r.build.as_ref();
        let machine = r.machine.clone().unwrap_or_default();
        let _ = write!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{:.6},{},{},{},{},{},{},",
            r.run,
            field(&r.domain),
            field(&r.problem),
            field(&r.config),
            r.outcome.name(),
            field(&opt(r.limit.as_deref())),
            opt(r.cost),
            opt(r.plan_length),
            r.expanded,
            r.generated,
            r.evaluated,
            r.reopened,
            r.expanded_until_last_jump,
            r.time,
            seconds(r.cpu_time),
            r.memory,
            r.stored,
            opt(r.validated),
            field(&opt(r.winner.as_deref())),
            field(&opt(r.error.as_deref())),
        );
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            seconds(r.translator_time),
            opt(r.memory_measure.map(MemoryMeasure::name)),
            opt(limits.max_time),
            opt(limits.max_expansions),
            opt(limits.max_memory_bytes),
            field(&opt(r.started.as_deref())),
            field(&opt(build.map(|b| b.version.as_str()))),
            field(&opt(build.and_then(|b| b.revision.as_deref()))),
            opt(build.and_then(|b| b.dirty)),
            field(&opt(machine.hostname)),
            field(&opt(machine.cpu_model)),
            opt(machine.cores),
            seconds(r.setup_time),
            seconds(r.process_time),
            opt(r.metric),
            opt(r.translator_memory),
        );
    }
    out
}

/// Refuses a result set that records one run (domain, problem,
/// configuration) twice: every table would count it twice. Two benches
/// writing into one directory, or concatenated files, do that; `merge`
/// joins parts and says which of two differing records wins.
///
/// # Errors
/// [`SuiteError::Invalid`] naming the run and `source`.
///
/// ```
/// use searchlab_lab::record::{refuse_duplicates, RunRecord};
/// let r = RunRecord::new(0, "d", "p", "fwd-astar-hmax");
/// assert!(refuse_duplicates(&[r.clone()], "results.jsonl").is_ok());
/// assert!(refuse_duplicates(&[r.clone(), r], "results.jsonl").is_err());
/// ```
pub fn refuse_duplicates(records: &[RunRecord], source: &str) -> Result<(), SuiteError> {
    let mut seen = std::collections::HashSet::new();
    for r in records {
        if !seen.insert(r.key()) {
            return Err(SuiteError::Invalid(format!(
                "{source}: run `{}` on {}/{} is recorded twice (two benches wrote into one \
                 directory, or files were joined by hand); join parts with `searchlab merge`",
                r.config, r.domain, r.problem
            )));
        }
    }
    Ok(())
}

/// The records as a Downward Lab properties file: a JSON object with one
/// entry per run, keyed `{algorithm}-{domain}-{problem}` like Lab's own
/// run ids (with `-2`, `-3` ... added when two runs spell the same key, as
/// `a`/`b-c` and `a-b`/`c` do), with Lab's attribute names (`coverage`,
/// `cost`, `expansions`, `expansions_until_last_jump`, `generated`,
/// `evaluations`, `search_time`, `translator_time` (PDDL), `total_time`
/// (their sum), `heuristic_setup_time` (part of `search_time`), `memory` in KiB, `error`, `plan_length`). Runs with an
/// invalid plan, a panic or an error carry Lab's `unexplained_errors`, so
/// that Lab's reports list them as searchlab's warn of them.
pub fn to_lab_properties(records: &[RunRecord]) -> serde_json::Value {
    let mut runs = serde_json::Map::new();
    for r in records {
        let mut p = serde_json::Map::new();
        let mut put = |k: &str, v: serde_json::Value| {
            p.insert(k.to_owned(), v);
        };
        put("algorithm", r.config.clone().into());
        put("domain", r.domain.clone().into());
        put("problem", r.problem.clone().into());
        put(
            "id",
            serde_json::json!([r.config.clone(), r.domain.clone(), r.problem.clone()]),
        );
        put("coverage", u8::from(r.solved()).into());
        put(
            "unsolvable",
            u8::from(r.outcome == RunOutcome::Unsolvable).into(),
        );
        put("error", r.lab_error().into());
        put("search_time", r.time.into());
        if let Some(translator) = r.translator_time {
            put("translator_time", translator.into());
        }
        if let Some(peak) = r.translator_memory {
            put("translator_peak_memory", peak.div_ceil(1024).into());
        }
        if let Some(setup) = r.setup_time {
            put("heuristic_setup_time", setup.into());
        }
        put(
            "total_time",
            (r.translator_time.unwrap_or(0.0) + r.time).into(),
        );
        put("memory", r.memory.div_ceil(1024).into());
        put("expansions", r.expanded.into());
        put("generated", r.generated.into());
        put("evaluations", r.evaluated.into());
        put("reopened", r.reopened.into());
        put(
            "expansions_until_last_jump",
            r.expanded_until_last_jump.into(),
        );
        if r.solved() {
            put("cost", r.cost.into());
            put("plan_length", r.plan_length.into());
        }
        if r.invalid_plan() || matches!(r.outcome, RunOutcome::Panic | RunOutcome::Error) {
            let message = r.error.as_deref().unwrap_or("no message");
            put(
                "unexplained_errors",
                serde_json::json!([format!("{}: {message}", r.lab_error())]),
            );
        }
        let id = format!("{}-{}-{}", r.config, r.domain, r.problem);
        let mut key = id.clone();
        for n in 2.. {
            if !runs.contains_key(&key) {
                break;
            }
            key = format!("{id}-{n}");
        }
        runs.insert(key, serde_json::Value::Object(p));
    }
    serde_json::Value::Object(runs)
}

/// Which of two different records of one run [`merge`] keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Prefer {
    /// The one from the earlier part.
    First,
    /// The one from the later part.
    Last,
}

/// What [`merge`] made.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Merged {
    /// The records, one per run.
    pub records: Vec<RunRecord>,
    /// Duplicates equal to the record kept, dropped.
    pub identical: usize,
    /// Duplicates that differed from another record of their run, settled
    /// by the preference.
    pub conflicts: usize,
}

/// Joins result sets (the shards of one suite), each named (by its file)
/// for errors: sorted by run index, then domain, problem and configuration.
/// A run that appears twice (the same domain, problem and configuration)
/// is kept once: quietly when both records are equal, by `prefer` when
/// they differ.
///
/// # Errors
/// [`SuiteError::Conflict`] naming the run and both parts when two of its
/// records differ and `prefer` is `None`.
///
/// ```
/// use searchlab_lab::record::{merge, Prefer, RunRecord};
/// let a = RunRecord::new(0, "d", "p", "c");
/// let mut b = a.clone();
/// b.time = 2.0;
/// let parts = || vec![("a".to_owned(), vec![a.clone()]), ("b".to_owned(), vec![b.clone()])];
/// assert!(merge(parts(), None).is_err());
/// assert_eq!(merge(parts(), Some(Prefer::Last)).unwrap().records, [b.clone()]);
/// ```
pub fn merge(
    parts: impl IntoIterator<Item = (String, Vec<RunRecord>)>,
    prefer: Option<Prefer>,
) -> Result<Merged, SuiteError> {
    let mut merged = Merged::default();
    // Each run's place in `merged.records` and the part it came from.
    let mut seen: HashMap<(String, String, String), (usize, String)> = HashMap::new();
    for (part, records) in parts {
        for record in records {
            let key = (
                record.domain.clone(),
                record.problem.clone(),
                record.config.clone(),
            );
            let Some((index, from)) = seen.get_mut(&key) else {
                seen.insert(key, (merged.records.len(), part.clone()));
                merged.records.push(record);
                continue;
            };
            let kept = &mut merged.records[*index];
            if *kept == record {
                merged.identical += 1;
                continue;
            }
            match prefer {
                None => {
                    return Err(SuiteError::Conflict {
                        run: record.describe(),
                        first: from.clone(),
                        second: part,
                    })
                }
                Some(Prefer::First) => {}
                Some(Prefer::Last) => {
                    *kept = record;
                    from.clone_from(&part);
                }
            }
            merged.conflicts += 1;
        }
    }
    merged
        .records
        .sort_by(|a, b| a.run.cmp(&b.run).then_with(|| a.key().cmp(&b.key())));
    Ok(merged)
}

/// The configurations named in `records`, in order of first appearance.
pub fn config_names(records: &[RunRecord]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for r in records {
        if !names.contains(&r.config) {
            names.push(r.config.clone());
        }
    }
    names
}

/// The domains in `records`, in order of first appearance, with the number
/// of distinct problems in each.
pub fn domains(records: &[RunRecord]) -> Vec<(String, usize)> {
    let mut problems: BTreeMap<&str, HashSet<&str>> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for r in records {
        if !problems.contains_key(r.domain.as_str()) {
            order.push(&r.domain);
        }
        problems.entry(&r.domain).or_default().insert(&r.problem);
    }
    order
        .into_iter()
        .map(|d| (d.to_owned(), problems[d].len()))
        .collect()
}

/// Writes `bytes` to `path`, creating the parent directories: a new file,
/// or a regular file emptied first; anything else at `path` (a named pipe,
/// a device, a directory) is refused, never removed
/// ([`crate::files::check_output`]).
///
/// # Errors
/// [`SuiteError::Io`]; [`SuiteError::Invalid`] for a path that is not a
/// regular file.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), SuiteError> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(|e| SuiteError::io(parent, &e))?;
    }
    let mut file = crate::files::open_output(path, false)?;
    file.write_all(bytes).map_err(|e| SuiteError::io(path, &e))
}
