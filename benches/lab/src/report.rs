//! Reports in the conventions of Fast Downward's Downward Lab: coverage per
//! domain, attributes aggregated over the problems that every compared
//! configuration solved (geometric means; times clamped to at least
//! 0.01 s), log-scaled scores, forward against regression, and two
//! configurations compared instance by instance.
//!
//! Everything renders as a [`Table`], which prints for the console, as
//! Markdown or as HTML ([`crate::html`]). Times show four significant
//! digits ([`format_time`]) and are CPU time wherever every compared run
//! recorded it ([`Clock`]); each table says which.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::record::{config_names, domains, RunOutcome, RunRecord};
use crate::suite::Configuration;

/// Times below this are clamped to it before taking geometric means and
/// ratios, as Lab does.
pub const MIN_TIME: f64 = 0.01;

/// Times below this count as this in the tables that are searchlab's own
/// (forward against regression), where Lab's floor would hide every run
/// under 10 ms.
pub const FINE_MIN_TIME: f64 = 1e-6;

/// A table with a title, a header row and rows of cells; the first
/// `label_columns` columns are left-aligned labels, the rest right-aligned
/// numbers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The title.
    pub title: String,
    /// Column headers.
    pub headers: Vec<String>,
    /// Rows of cells, as many as there are headers.
    pub rows: Vec<Vec<String>>,
    /// How many leading columns are labels.
    pub label_columns: usize,
    /// Notes printed under the table.
    pub notes: Vec<String>,
    /// How many of the last rows total the others (`Sum`, `All`): sorting
    /// by a column keeps them last.
    pub total_rows: usize,
}

impl Table {
    fn widths(&self) -> Vec<usize> {
        let mut widths: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        widths
    }

    fn line(&self, cells: &[String], widths: &[usize], sep: &str) -> String {
        let mut out = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            if i < self.label_columns {
                let _ = write!(out, "{cell:<w$}");
            } else {
                let _ = write!(out, "{cell:>w$}");
            }
        }
        out
    }

    /// The table with rows and columns swapped (the header row becomes the
    /// first column); notes are kept.
    #[must_use]
    pub fn transposed(&self) -> Table {
        let mut columns: Vec<Vec<String>> = vec![self.headers.clone()];
        columns.extend(self.rows.iter().cloned());
        let width = self.headers.len();
        let mut rows: Vec<Vec<String>> = (0..width)
            .map(|i| {
                columns
                    .iter()
                    .map(|c| c.get(i).cloned().unwrap_or_default())
                    .collect()
            })
            .collect();
        let headers = if rows.is_empty() {
            Vec::new()
        } else {
            rows.remove(0)
        };
        Table {
            title: self.title.clone(),
            headers,
            rows,
            label_columns: 1,
            notes: self.notes.clone(),
            total_rows: 0,
        }
    }

    /// The table as aligned plain text.
    pub fn to_console(&self) -> String {
        let widths = self.widths();
        let mut out = format!("{}\n", self.title);
        let header = self.line(&self.headers, &widths, "  ");
        let _ = writeln!(out, "{header}");
        let _ = writeln!(out, "{}", "-".repeat(header.chars().count()));
        for row in &self.rows {
            let _ = writeln!(out, "{}", self.line(row, &widths, "  ").trim_end());
        }
        for note in &self.notes {
            let _ = writeln!(out, "  {note}");
        }
        out
    }

    /// The table as GitHub-flavoured Markdown, with a `###` title.
    pub fn to_markdown(&self) -> String {
        let widths = self.widths();
        let mut out = format!("### {}\n\n", self.title);
        let _ = writeln!(out, "| {} |", self.line(&self.headers, &widths, " | "));
        let rule: Vec<String> = widths
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let dashes = "-".repeat((*w).max(3) - 1);
                if i < self.label_columns {
                    format!("{dashes}-")
                } else {
                    format!("{dashes}:")
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "|{}|",
            rule.iter()
                .map(|r| format!(" {r} "))
                .collect::<Vec<_>>()
                .join("|")
        );
        for row in &self.rows {
            let _ = writeln!(out, "| {} |", self.line(row, &widths, " | "));
        }
        if !self.notes.is_empty() {
            out.push('\n');
            for note in &self.notes {
                let _ = writeln!(out, "{note}  ");
            }
        }
        out
    }
}

/// The geometric mean of `values` (all must be positive); `None` when
/// empty.
///
/// ```
/// use searchlab_lab::report::geometric_mean;
/// assert_eq!(geometric_mean(&[2.0, 8.0]), Some(4.0));
/// assert_eq!(geometric_mean(&[]), None);
/// ```
pub fn geometric_mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let logs: f64 = values.iter().map(|v| v.max(f64::MIN_POSITIVE).ln()).sum();
    Some((logs / as_f64(values.len() as u64)).exp())
}

/// Lab's log-scaled score of `value` between `best` (score 1) and `worst`
/// (score 0): `1 - ln(value / best) / ln(worst / best)`, clamped to
/// `[0, 1]`.
///
/// ```
/// use searchlab_lab::report::log_score;
/// assert_eq!(log_score(100.0, 100.0, 1e6), 1.0);
/// assert_eq!(log_score(1e6, 100.0, 1e6), 0.0);
/// assert!((log_score(1e4, 100.0, 1e6) - 0.5).abs() < 1e-12);
/// ```
pub fn log_score(value: f64, best: f64, worst: f64) -> f64 {
    if value <= best {
        return 1.0;
    }
    if value >= worst || worst <= best {
        return 0.0;
    }
    (1.0 - (value / best).ln() / (worst / best).ln()).clamp(0.0, 1.0)
}

#[expect(
    clippy::cast_precision_loss,
    reason = "counters stay far below 2^52 in any run that ends"
)]
/// `v` as a float, for means and ratios.
pub fn as_f64(v: u64) -> f64 {
    v as f64
}

/// `seconds` to four significant digits (halves round away from zero),
/// never in exponent notation: every time the reports show goes through
/// it, so that sub-millisecond runs do not read 0.000. Positional
/// notation, but for subnormal values.
///
/// ```
/// use searchlab_lab::report::format_time;
/// assert_eq!(format_time(0.000_123_4), "0.0001234");
/// assert_eq!(format_time(12.345_678), "12.35");
/// assert_eq!(format_time(1234.5), "1235");
/// assert_eq!(format_time(0.5), "0.5000");
/// assert_eq!(format_time(0.0), "0");
/// ```
pub fn format_time(seconds: f64) -> String {
    const DIGITS: i32 = 4;
    if seconds == 0.0 || !seconds.is_finite() {
        return format!("{seconds}");
    }
    #[expect(
        clippy::cast_possible_truncation,
        reason = "the decimal exponent of a finite f64 is within ±400"
    )]
    let estimate = seconds.abs().log10().floor() as i32;
    // log10 may land one off near powers of ten, and rounding may carry
    // into the next digit: take the exponent of the rounded value.
    let low = 10f64.powi(DIGITS - 1);
    let Some((exponent, digits)) = [estimate, estimate + 1, estimate - 1]
        .into_iter()
        .map(|e| (e, (seconds * 10f64.powi(DIGITS - 1 - e)).round()))
        .find(|(_, d)| (low..low * 10.0).contains(&d.abs()))
    else {
        // Beyond what f64 scales (subnormal): exponent notation.
        return format!("{seconds:.3e}");
    };
    let decimals = DIGITS - 1 - exponent;
    if decimals > 0 {
        let places = usize::try_from(decimals).unwrap_or(0);
        format!("{:.places$}", digits / 10f64.powi(decimals))
    } else {
        format!("{:.0}", digits * 10f64.powi(-decimals))
    }
}

/// Which time a report shows: CPU time where every compared run recorded
/// it (searchlab's own searches and the peers do; portfolios do not), wall
/// time otherwise, so that one table never mixes the two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Clock {
    /// [`RunRecord::cpu_time`].
    Cpu,
    /// [`RunRecord::time`].
    #[default]
    Wall,
}

impl Clock {
    /// The clock for `records`: [`Clock::Cpu`] when every solved one
    /// recorded its CPU time (and one did), else [`Clock::Wall`].
    ///
    /// ```
    /// use searchlab_lab::record::{RunOutcome, RunRecord};
    /// use searchlab_lab::report::Clock;
    /// let mut r = RunRecord::new(0, "d", "p", "A");
    /// r.outcome = RunOutcome::Solved;
    /// r.validated = Some(true);
    /// assert_eq!(Clock::of_runs([&r]), Clock::Wall);
    /// r.cpu_time = Some(0.5);
    /// assert_eq!(Clock::of_runs([&r]), Clock::Cpu);
    /// ```
    pub fn of_runs<'r>(records: impl IntoIterator<Item = &'r RunRecord>) -> Clock {
        let mut any = false;
        for r in records.into_iter().filter(|r| r.solved()) {
            if r.cpu_time.is_none() {
                return Clock::Wall;
            }
            any = true;
        }
        if any {
            Clock::Cpu
        } else {
            Clock::Wall
        }
    }

    /// The time of `record` on this clock (its wall time if it recorded no
    /// CPU time).
    pub fn seconds(self, record: &RunRecord) -> f64 {
        match self {
            Clock::Cpu => record.cpu_time.unwrap_or(record.time),
            Clock::Wall => record.time,
        }
    }

    /// `CPU time` or `wall time`, as headings say it.
    pub fn name(self) -> &'static str {
        match self {
            Clock::Cpu => "CPU time",
            Clock::Wall => "wall time",
        }
    }
}

/// An attribute aggregated over commonly solved problems.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attribute {
    /// Expanded nodes (geometric mean).
    Expansions,
    /// Expanded nodes before the last f-layer (geometric mean).
    ExpansionsUntilLastJump,
    /// Generated nodes (geometric mean).
    Generated,
    /// Search time (CPU or wall, see [`Clock`]), clamped to [`MIN_TIME`]
    /// (geometric mean).
    Time,
    /// Estimated peak memory (geometric mean).
    Memory,
    /// Plan cost (sum).
    Cost,
}

impl Attribute {
    /// The attribute's name in Lab's words.
    pub fn name(self) -> &'static str {
        match self {
            Attribute::Expansions => "expansions",
            Attribute::ExpansionsUntilLastJump => "expansions_until_last_jump",
            Attribute::Generated => "generated",
            Attribute::Time => "search_time",
            Attribute::Memory => "memory",
            Attribute::Cost => "cost",
        }
    }

    /// The attribute's value in `record`, its time read on `clock`.
    pub fn value(self, record: &RunRecord, clock: Clock) -> f64 {
        match self {
            Attribute::Expansions => as_f64(record.expanded),
            // Zero when the goal sits in the first layer; clamp for logs.
            Attribute::ExpansionsUntilLastJump => as_f64(record.expanded_until_last_jump).max(1.0),
            Attribute::Generated => as_f64(record.generated),
            Attribute::Time => clock.seconds(record).max(MIN_TIME),
            Attribute::Memory => as_f64(record.memory),
            Attribute::Cost => as_f64(record.cost.unwrap_or(0)),
        }
    }

    /// Whether the attribute is summed (cost) rather than averaged
    /// geometrically.
    pub fn is_summed(self) -> bool {
        self == Attribute::Cost
    }

    fn format(self, v: f64) -> String {
        match self {
            Attribute::Time => format_time(v),
            Attribute::Memory => format!("{:.2} MB", v / 1e6),
            Attribute::Cost => format!("{v:.0}"),
            _ if v >= 100.0 => format!("{v:.0}"),
            _ => format!("{v:.2}"),
        }
    }
}

/// The range of each score: expansions from 100 to 1e6, time from 1 s to
/// the time limit, memory from 2 MB to the memory limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreBounds {
    /// The runs' time limit in seconds (time score 0).
    pub time_limit: f64,
    /// The runs' memory limit in bytes (memory score 0).
    pub memory_limit: f64,
}

impl Default for ScoreBounds {
    /// The default suite's limits.
    fn default() -> Self {
        Self {
            time_limit: crate::defaults::DEFAULT_MAX_TIME.as_secs_f64(),
            memory_limit: as_f64(crate::defaults::DEFAULT_MAX_MEMORY_BYTES as u64),
        }
    }
}

/// A scored attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `score_expansions`: 1 at 100 or fewer, 0 at a million or more.
    Expansions,
    /// `score_search_time`: 1 at a second or less, 0 at the time limit.
    Time,
    /// `score_memory`: 1 at 2 MB or less, 0 at the memory limit.
    Memory,
}

impl Score {
    /// Lab's name for the score.
    pub fn name(self) -> &'static str {
        match self {
            Score::Expansions => "score_expansions",
            Score::Time => "score_search_time",
            Score::Memory => "score_memory",
        }
    }

    /// The score of one run, its time read on `clock`: 0 when unsolved.
    pub fn of(self, record: &RunRecord, bounds: ScoreBounds, clock: Clock) -> f64 {
        if !record.solved() {
            return 0.0;
        }
        match self {
            Score::Expansions => log_score(as_f64(record.expanded), 100.0, 1e6),
            Score::Time => log_score(clock.seconds(record), 1.0, bounds.time_limit),
            Score::Memory => log_score(as_f64(record.memory), 2e6, bounds.memory_limit),
        }
    }
}

/// A comparison of configuration B with configuration A.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    /// Configuration A.
    pub a: String,
    /// Configuration B.
    pub b: String,
    /// Problems both solved.
    pub common: usize,
    /// Geometric mean of B's expansions over A's, over the commonly solved.
    pub expansions_ratio: Option<f64>,
    /// Geometric mean of B's time over A's (clamped), over the commonly
    /// solved.
    pub time_ratio: Option<f64>,
    /// Geometric mean of B's expansions until the last jump over A's.
    pub last_jump_ratio: Option<f64>,
    /// Commonly solved problems where A expanded fewer nodes.
    pub a_fewer: usize,
    /// Commonly solved problems where B expanded fewer nodes.
    pub b_fewer: usize,
    /// Commonly solved problems with equal expansions.
    pub equal: usize,
    /// Problems only A solved (`domain/problem`).
    pub only_a: Vec<String>,
    /// Problems only B solved.
    pub only_b: Vec<String>,
    /// Commonly solved problems where the costs differ.
    pub cost_differs: Vec<String>,
    /// The clock of the times compared.
    pub clock: Clock,
}

/// What two answers on one problem cannot both be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DisagreementKind {
    /// A configuration that claims optimal costs
    /// ([`Configuration::claims_optimal`](crate::suite::Configuration::claims_optimal))
    /// found a plan dearer than another valid plan: another optimal claim's
    /// or any configuration's.
    OptimalCost,
    /// A configuration said `unsolvable`, another found a valid plan.
    UnsolvableSolved,
}

impl DisagreementKind {
    /// The kind as the reports say it.
    pub fn name(self) -> &'static str {
        match self {
            DisagreementKind::OptimalCost => "optimal costs differ",
            DisagreementKind::UnsolvableSolved => "unsolvable, yet solved",
        }
    }
}

/// A problem on which configurations contradict each other: one of them is
/// wrong ([`Report::disagreements`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The problem's domain.
    pub domain: String,
    /// The problem.
    pub problem: String,
    /// What contradicts what.
    pub kind: DisagreementKind,
    /// The answers involved, `configuration: answer` (`fd-astar-lmcut: cost
    /// 12`, `fwd-gbfs-ff: unsolvable`).
    pub answers: Vec<String>,
}

/// Aggregates over one result set.
#[derive(Clone, Debug)]
pub struct Report<'r> {
    records: &'r [RunRecord],
    configs: Vec<String>,
    domains: Vec<(String, usize)>,
    index: BTreeMap<(&'r str, &'r str, &'r str), &'r RunRecord>,
    /// The configurations that claim optimal costs.
    optimal: BTreeSet<&'r str>,
}

impl<'r> Report<'r> {
    /// A report over `records`, with configurations in order of first
    /// appearance.
    pub fn new(records: &'r [RunRecord]) -> Self {
        let index = records.iter().map(|r| (r.key(), r)).collect();
        let mut optimal = BTreeSet::new();
        let mut seen = BTreeSet::new();
        // A configuration's first record says how it plans.
        for r in records {
            if seen.insert(r.config.as_str())
                && Configuration::named_claims_optimal(&r.config, r.method.as_deref())
            {
                optimal.insert(r.config.as_str());
            }
        }
        Self {
            records,
            configs: config_names(records),
            domains: domains(records),
            index,
            optimal,
        }
    }

    /// The configurations reported on.
    pub fn configs(&self) -> &[String] {
        &self.configs
    }

    /// The domains with their number of problems.
    pub fn domains(&self) -> &[(String, usize)] {
        &self.domains
    }

    /// The record of `config` on `domain`/`problem`.
    pub fn record(&self, domain: &str, problem: &str, config: &str) -> Option<&'r RunRecord> {
        self.index.get(&(domain, problem, config)).copied()
    }

    fn problems(&self, domain: &str) -> BTreeSet<&'r str> {
        self.records
            .iter()
            .filter(|r| r.domain == domain)
            .map(|r| r.problem.as_str())
            .collect()
    }

    /// The clock of tables over `configs` (see [`Clock::of_runs`]).
    pub fn clock(&self, configs: &[String]) -> Clock {
        Clock::of_runs(self.records.iter().filter(|r| configs.contains(&r.config)))
    }

    /// Whether `config` ran on any problem of `domain`.
    pub fn applies(&self, domain: &str, config: &str) -> bool {
        self.records
            .iter()
            .any(|r| r.domain == domain && r.config == config)
    }

    /// Problems of `domain` that `config` solved with a valid plan.
    pub fn coverage(&self, domain: &str, config: &str) -> usize {
        self.records
            .iter()
            .filter(|r| r.domain == domain && r.config == config && r.solved())
            .count()
    }

    /// Problems of `domain` that every one of `configs` that ran on the
    /// domain solved.
    pub fn commonly_solved(&self, domain: &str, configs: &[String]) -> Vec<&'r str> {
        let present: Vec<&String> = configs.iter().filter(|c| self.applies(domain, c)).collect();
        if present.is_empty() {
            return Vec::new();
        }
        self.problems(domain)
            .into_iter()
            .filter(|p| {
                present
                    .iter()
                    .all(|c| self.record(domain, p, c).is_some_and(RunRecord::solved))
            })
            .collect()
    }

    /// Runs with an invalid plan.
    pub fn invalid_plans(&self) -> Vec<&'r RunRecord> {
        self.records.iter().filter(|r| r.invalid_plan()).collect()
    }

    /// Runs that panicked, crashed in isolation, or that the planner refused.
    pub fn failures(&self) -> Vec<&'r RunRecord> {
        self.records
            .iter()
            .filter(|r| {
                matches!(
                    r.outcome,
                    RunOutcome::Panic | RunOutcome::Crashed | RunOutcome::Error
                )
            })
            .collect()
    }

    fn header(first: &str, configs: &[String]) -> Vec<String> {
        std::iter::once(first.to_owned())
            .chain(configs.iter().cloned())
            .collect()
    }

    /// Coverage: problems solved per domain and configuration (`-` where the
    /// configuration does not apply), summed in the last row.
    pub fn coverage_table(&self) -> Table {
        let mut rows = Vec::new();
        let mut totals = vec![0usize; self.configs.len()];
        let mut total_problems = 0;
        for (domain, count) in &self.domains {
            total_problems += count;
            let mut row = vec![format!("{domain} ({count})")];
            for (i, config) in self.configs.iter().enumerate() {
                if self.applies(domain, config) {
                    let c = self.coverage(domain, config);
                    totals[i] += c;
                    row.push(c.to_string());
                } else {
                    row.push("-".to_owned());
                }
            }
            rows.push(row);
        }
        let mut sum = vec![format!("Sum ({total_problems})")];
        sum.extend(totals.iter().map(ToString::to_string));
        rows.push(sum);
        Table {
            title: "Coverage (problems solved with a valid plan)".to_owned(),
            headers: Self::header("domain (problems)", &self.configs),
            rows,
            label_columns: 1,
            notes: std::iter::once(
                "`-`: the configuration does not apply to the domain's kind.".to_owned(),
            )
            .chain(name_legend(&self.configs))
            .collect(),
            total_rows: 1,
        }
    }

    /// `attribute` per domain and configuration over the domain's commonly
    /// solved problems (geometric mean, or sum for cost); the last row,
    /// `All`, over the problems that every configuration solved, so that
    /// its columns compare like with like.
    pub fn attribute_table(&self, attribute: Attribute) -> Table {
        self.attribute_table_for(attribute, &self.configs.clone())
    }

    /// [`attribute_table`](Self::attribute_table) for some configurations.
    pub fn attribute_table_for(&self, attribute: Attribute, configs: &[String]) -> Table {
        let clock = self.clock(configs);
        let mut rows = Vec::new();
        let mut all: Vec<Vec<f64>> = vec![Vec::new(); configs.len()];
        let mut all_count = 0;
        for (domain, _) in &self.domains {
            let common = self.commonly_solved(domain, configs);
            // Only where every configuration runs are the domain's commonly
            // solved problems solved by all of them.
            let everyone = configs.iter().all(|c| self.applies(domain, c));
            if everyone {
                all_count += common.len();
            }
            let mut row = vec![format!("{domain} ({})", common.len())];
            for (i, config) in configs.iter().enumerate() {
                if !self.applies(domain, config) {
                    row.push("-".to_owned());
                    continue;
                }
                let values: Vec<f64> = common
                    .iter()
                    .filter_map(|p| self.record(domain, p, config))
                    .map(|r| attribute.value(r, clock))
                    .collect();
                if everyone {
                    all[i].extend(&values);
                }
                row.push(aggregate(attribute, &values));
            }
            rows.push(row);
        }
        let mut last = vec![format!("All ({all_count})")];
        last.extend(all.iter().map(|v| aggregate(attribute, v)));
        rows.push(last);
        let how = if attribute.is_summed() {
            "sum"
        } else {
            "geometric mean"
        };
        let name = if attribute == Attribute::Time {
            format!("{}, {}", attribute.name(), clock.name())
        } else {
            attribute.name().to_owned()
        };
        let mut notes = vec![
            "Commonly solved: by every configuration that runs on the domain; \
             All: the problems every configuration solved."
                .to_owned(),
        ];
        if attribute == Attribute::Time {
            notes.push(format!("{}, clamped to >= {MIN_TIME} s.", clock.name()));
        }
        Table {
            title: format!("{name} ({how} over commonly solved problems)"),
            headers: Self::header("domain (common)", configs),
            rows,
            label_columns: 1,
            notes,
            total_rows: 1,
        }
    }

    /// Scores summed per domain (unsolved problems score 0).
    pub fn score_table(&self, score: Score, bounds: ScoreBounds) -> Table {
        let clock = self.clock(&self.configs);
        let mut rows = Vec::new();
        let mut totals = vec![0.0; self.configs.len()];
        for (domain, count) in &self.domains {
            let mut row = vec![format!("{domain} ({count})")];
            for (i, config) in self.configs.iter().enumerate() {
                if !self.applies(domain, config) {
                    row.push("-".to_owned());
                    continue;
                }
                let s: f64 = self
                    .records
                    .iter()
                    .filter(|r| &r.domain == domain && &r.config == config)
                    .map(|r| score.of(r, bounds, clock))
                    .sum();
                totals[i] += s;
                row.push(format!("{s:.2}"));
            }
            rows.push(row);
        }
        let mut sum = vec!["Sum".to_owned()];
        sum.extend(totals.iter().map(|t| format!("{t:.2}")));
        rows.push(sum);
        let name = if score == Score::Time {
            format!("{}, {}", score.name(), clock.name())
        } else {
            score.name().to_owned()
        };
        Table {
            title: format!("{name} (summed per domain)"),
            headers: Self::header("domain (problems)", &self.configs),
            rows,
            label_columns: 1,
            notes: Vec::new(),
            total_rows: 1,
        }
    }

    /// Pairs of configurations that differ only in direction: `fwd-X` and
    /// `reg-X`, both present.
    pub fn direction_pairs(&self) -> Vec<(String, String)> {
        self.configs
            .iter()
            .filter_map(|c| {
                let rest = c.strip_prefix("fwd-")?;
                let reg = format!("reg-{rest}");
                self.configs.contains(&reg).then(|| (c.clone(), reg))
            })
            .collect()
    }

    /// Forward against regression: for each pair of configurations that
    /// differ only in direction and each domain they run on, coverage and
    /// geometric-mean expansions and times over the problems both solved.
    pub fn direction_table(&self) -> Table {
        let pairs = self.direction_pairs();
        let clock = self.clock(
            &pairs
                .iter()
                .flat_map(|(f, r)| [f.clone(), r.clone()])
                .collect::<Vec<_>>(),
        );
        let mut rows = Vec::new();
        for (fwd, reg) in pairs {
            let pair = [fwd.clone(), reg.clone()];
            let label = fwd.trim_start_matches("fwd-").to_owned();
            for (domain, count) in &self.domains {
                if !self.applies(domain, &fwd) || !self.applies(domain, &reg) {
                    continue;
                }
                let common = self.commonly_solved(domain, &pair);
                let values = |config: &str, attribute: Attribute| -> Vec<f64> {
                    common
                        .iter()
                        .filter_map(|p| self.record(domain, p, config))
                        .map(|r| attribute.value(r, clock))
                        .collect()
                };
                // Not a Lab table: times keep their microseconds, so that
                // fast runs do not all read Lab's 0.01 s floor.
                let fine_times = |config: &str| -> Vec<f64> {
                    common
                        .iter()
                        .filter_map(|p| self.record(domain, p, config))
                        .map(|r| clock.seconds(r).max(FINE_MIN_TIME))
                        .collect()
                };
                let (fe, re) = (
                    values(&fwd, Attribute::Expansions),
                    values(&reg, Attribute::Expansions),
                );
                let ratio = ratio_of_means(&re, &fe);
                rows.push(vec![
                    label.clone(),
                    format!("{domain} ({count})"),
                    self.coverage(domain, &fwd).to_string(),
                    self.coverage(domain, &reg).to_string(),
                    common.len().to_string(),
                    aggregate(Attribute::Expansions, &fe),
                    aggregate(Attribute::Expansions, &re),
                    ratio.map_or_else(|| "-".to_owned(), |r| format!("{r:.2}")),
                    aggregate(Attribute::Time, &fine_times(&fwd)),
                    aggregate(Attribute::Time, &fine_times(&reg)),
                ]);
            }
        }
        Table {
            title: "Forward against regression".to_owned(),
            headers: [
                "configuration",
                "domain (problems)",
                "solved fwd",
                "solved reg",
                "both",
                "exp fwd",
                "exp reg",
                "reg/fwd",
            ]
            .map(str::to_owned)
            .into_iter()
            .chain([
                format!("{} fwd", clock.name()),
                format!("{} reg", clock.name()),
            ])
            .collect(),
            rows,
            label_columns: 2,
            notes: vec![
                "exp, time (s): geometric means over the problems both directions solved \
                 (times under 1 us count as 1 us; the Lab-style tables floor them at 0.01 s); \
                 reg/fwd < 1 means regression expanded fewer nodes."
                    .to_owned(),
            ],
            total_rows: 0,
        }
    }

    /// Compares configuration `b` with `a` over the problems both ran on.
    pub fn compare(&self, a: &str, b: &str) -> Comparison {
        let clock = self.clock(&[a.to_owned(), b.to_owned()]);
        let mut c = Comparison {
            a: a.to_owned(),
            b: b.to_owned(),
            clock,
            ..Comparison::default()
        };
        let (mut ea, mut eb, mut ta, mut tb, mut ja, mut jb) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        for (domain, _) in &self.domains {
            for problem in self.problems(domain) {
                let (Some(ra), Some(rb)) = (
                    self.record(domain, problem, a),
                    self.record(domain, problem, b),
                ) else {
                    continue;
                };
                let name = format!("{domain}/{problem}");
                match (ra.solved(), rb.solved()) {
                    (true, true) => {
                        c.common += 1;
                        ea.push(Attribute::Expansions.value(ra, clock).max(1.0));
                        eb.push(Attribute::Expansions.value(rb, clock).max(1.0));
                        ta.push(Attribute::Time.value(ra, clock));
                        tb.push(Attribute::Time.value(rb, clock));
                        ja.push(Attribute::ExpansionsUntilLastJump.value(ra, clock));
                        jb.push(Attribute::ExpansionsUntilLastJump.value(rb, clock));
                        match ra.expanded.cmp(&rb.expanded) {
                            std::cmp::Ordering::Less => c.a_fewer += 1,
                            std::cmp::Ordering::Greater => c.b_fewer += 1,
                            std::cmp::Ordering::Equal => c.equal += 1,
                        }
                        if ra.cost != rb.cost {
                            c.cost_differs.push(name);
                        }
                    }
                    (true, false) => c.only_a.push(name),
                    (false, true) => c.only_b.push(name),
                    (false, false) => {}
                }
            }
        }
        c.expansions_ratio = ratio_of_means(&eb, &ea);
        c.time_ratio = ratio_of_means(&tb, &ta);
        c.last_jump_ratio = if reports_last_jump(a) && reports_last_jump(b) {
            ratio_of_means(&jb, &ja)
        } else {
            None
        };
        c
    }

    /// The per-instance table of [`compare`](Self::compare): expansions,
    /// expansions until the last jump, times and their ratios B/A.
    pub fn compare_table(&self, a: &str, b: &str) -> Table {
        let clock = self.clock(&[a.to_owned(), b.to_owned()]);
        let astar = [a, b]
            .iter()
            .all(|c| c.contains("-astar-") && reports_last_jump(c));
        let mut rows = Vec::new();
        let cell = |r: &RunRecord, v: String| {
            if r.solved() {
                v
            } else {
                r.outcome.name().to_owned()
            }
        };
        for (domain, _) in &self.domains {
            for problem in self.problems(domain) {
                let (Some(ra), Some(rb)) = (
                    self.record(domain, problem, a),
                    self.record(domain, problem, b),
                ) else {
                    continue;
                };
                let both = ra.solved() && rb.solved();
                let ratio = |x: f64, y: f64| {
                    if both {
                        format!("{:.2}", y / x)
                    } else {
                        "-".to_owned()
                    }
                };
                let mut row = vec![
                    domain.clone(),
                    problem.to_owned(),
                    cell(ra, ra.expanded.to_string()),
                    cell(rb, rb.expanded.to_string()),
                    ratio(
                        Attribute::Expansions.value(ra, clock).max(1.0),
                        Attribute::Expansions.value(rb, clock).max(1.0),
                    ),
                ];
                if astar {
                    row.push(cell(ra, ra.expanded_until_last_jump.to_string()));
                    row.push(cell(rb, rb.expanded_until_last_jump.to_string()));
                    row.push(ratio(
                        Attribute::ExpansionsUntilLastJump.value(ra, clock),
                        Attribute::ExpansionsUntilLastJump.value(rb, clock),
                    ));
                }
                row.push(cell(ra, format_time(clock.seconds(ra))));
                row.push(cell(rb, format_time(clock.seconds(rb))));
                row.push(ratio(
                    Attribute::Time.value(ra, clock),
                    Attribute::Time.value(rb, clock),
                ));
                rows.push(row);
            }
        }
        let mut headers = vec![
            "domain".to_owned(),
            "problem".to_owned(),
            "exp A".to_owned(),
            "exp B".to_owned(),
            "B/A".to_owned(),
        ];
        if astar {
            headers.extend(["last jump A", "last jump B", "B/A"].map(str::to_owned));
        }
        headers.extend([
            format!("{} A", clock.name()),
            format!("{} B", clock.name()),
            "B/A".to_owned(),
        ]);
        let notes = comparison_notes(&self.compare(a, b), astar);
        Table {
            title: format!("{b} compared with {a}"),
            headers,
            rows,
            label_columns: 2,
            notes,
            total_rows: 0,
        }
    }

    /// Whether configuration `config` claims optimal costs
    /// ([`Configuration::named_claims_optimal`], read from its first
    /// record).
    pub fn claims_optimal(&self, config: &str) -> bool {
        self.optimal.contains(config)
    }

    /// The configurations that claim optimal costs, in report order.
    pub fn optimal_configs(&self) -> Vec<&str> {
        self.configs
            .iter()
            .map(String::as_str)
            .filter(|c| self.claims_optimal(c))
            .collect()
    }

    /// The problems on which answers contradict each other, in report
    /// order: a configuration that claims optimal costs found a plan
    /// dearer than another valid plan (among those of other optimal
    /// claims, or any configuration's), or one said `unsolvable` where
    /// another found a valid plan. Only validated plans count: an invalid
    /// plan is its own warning.
    pub fn disagreements(&self) -> Vec<Disagreement> {
        let mut out = Vec::new();
        for (domain, _) in &self.domains {
            for problem in self.problems(domain) {
                let runs: Vec<&RunRecord> = self
                    .configs
                    .iter()
                    .filter_map(|c| self.record(domain, problem, c))
                    .collect();
                let solved: Vec<(&RunRecord, u64)> = runs
                    .iter()
                    .filter(|r| r.solved())
                    .filter_map(|r| Some((*r, r.cost?)))
                    .collect();
                let disagreement = |kind, answers| Disagreement {
                    domain: domain.clone(),
                    problem: problem.to_owned(),
                    kind,
                    answers,
                };
                if let Some(answers) = self.cost_disagreement(&solved) {
                    out.push(disagreement(DisagreementKind::OptimalCost, answers));
                }
                let unsolvable: Vec<&&RunRecord> = runs
                    .iter()
                    .filter(|r| r.outcome == RunOutcome::Unsolvable)
                    .collect();
                if !unsolvable.is_empty() && !solved.is_empty() {
                    let answers = unsolvable
                        .iter()
                        .map(|r| format!("{}: unsolvable", r.config))
                        .chain(
                            solved
                                .iter()
                                .map(|(r, cost)| format!("{}: cost {cost}", r.config)),
                        )
                        .collect();
                    out.push(disagreement(DisagreementKind::UnsolvableSolved, answers));
                }
            }
        }
        out
    }

    /// The answers behind an [`DisagreementKind::OptimalCost`] among the
    /// validated plans `solved` of one problem (with their costs): every
    /// optimal claim's cost and the cheaper plans of configurations that claim
    /// nothing; `None` when every optimal claim has the least cost.
    fn cost_disagreement(&self, solved: &[(&RunRecord, u64)]) -> Option<Vec<String>> {
        let least = solved.iter().map(|(_, cost)| *cost).min()?;
        let claims: Vec<&(&RunRecord, u64)> = solved
            .iter()
            .filter(|(r, _)| self.claims_optimal(&r.config))
            .collect();
        if claims.iter().all(|(_, cost)| *cost == least) {
            return None;
        }
        let least_claimed = claims.iter().map(|(_, cost)| *cost).min()?;
        let mut answers: Vec<String> = claims
            .iter()
            .map(|(r, cost)| format!("{}: cost {cost}", r.config))
            .collect();
        answers.extend(
            solved
                .iter()
                .filter(|(r, cost)| *cost < least_claimed && !self.claims_optimal(&r.config))
                .map(|(r, cost)| format!("{} (claims no optimum): cost {cost}", r.config)),
        );
        Some(answers)
    }

    /// The [`disagreements`](Self::disagreements), one row each, with notes
    /// on what was cross-checked: which configurations claim optimal costs,
    /// on how many problems their costs met another valid plan's, and how
    /// many runs said `unsolvable`.
    pub fn disagreement_table(&self) -> Table {
        let disagreements = self.disagreements();
        let rows = disagreements
            .iter()
            .map(|d| {
                vec![
                    d.domain.clone(),
                    d.problem.clone(),
                    d.kind.name().to_owned(),
                    d.answers.join("; "),
                ]
            })
            .collect();
        let optimal = self.optimal_configs();
        let compared = self
            .domains
            .iter()
            .flat_map(|(domain, _)| self.problems(domain).into_iter().map(move |p| (domain, p)))
            .filter(|(domain, problem)| {
                let solved: Vec<&RunRecord> = self
                    .configs
                    .iter()
                    .filter_map(|c| self.record(domain, problem, c))
                    .filter(|r| r.solved())
                    .collect();
                solved.len() >= 2 && solved.iter().any(|r| self.claims_optimal(&r.config))
            })
            .count();
        let unsolvable = self
            .records
            .iter()
            .filter(|r| r.outcome == RunOutcome::Unsolvable)
            .count();
        Table {
            title: format!("Disagreements ({})", disagreements.len()),
            headers: ["domain", "problem", "disagreement", "answers"]
                .map(str::to_owned)
                .to_vec(),
            rows,
            label_columns: 4,
            notes: vec![
                format!(
                    "Claiming optimal costs (A* with an admissible heuristic, Dijkstra): {}.",
                    if optimal.is_empty() {
                        "none".to_owned()
                    } else {
                        optimal.join(", ")
                    }
                ),
                format!(
                    "Costs of an optimal claim met another valid plan on {compared} problem{}; \
                     {unsolvable} run{} said unsolvable, each held against every valid plan.",
                    plural(compared),
                    plural(unsolvable)
                ),
            ],
            total_rows: 0,
        }
    }

    /// Runs that did not solve their problem, by cause
    /// ([`unsolved_cause`]), per domain and configuration; the last rows,
    /// `All`, sum each cause over the domains. Refusals show by the kind
    /// of their message, never as a bare count.
    pub fn unsolved_table(&self) -> Table {
        let mut per_domain: BTreeMap<(usize, (u8, String)), Vec<usize>> = BTreeMap::new();
        let mut all: BTreeMap<(u8, String), Vec<usize>> = BTreeMap::new();
        let domain_index: BTreeMap<&str, usize> = self
            .domains
            .iter()
            .enumerate()
            .map(|(i, (d, _))| (d.as_str(), i))
            .collect();
        for r in self.records {
            let Some(cause) = unsolved_cause(r) else {
                continue;
            };
            let (Some(&d), Some(c)) = (
                domain_index.get(r.domain.as_str()),
                self.configs.iter().position(|c| *c == r.config),
            ) else {
                continue;
            };
            let key = (cause_rank(r), cause);
            let width = self.configs.len();
            per_domain
                .entry((d, key.clone()))
                .or_insert_with(|| vec![0; width])[c] += 1;
            all.entry(key).or_insert_with(|| vec![0; width])[c] += 1;
        }
        let cells = |counts: &[usize]| {
            counts
                .iter()
                .map(|&n| if n == 0 { String::new() } else { n.to_string() })
                .collect::<Vec<_>>()
        };
        let mut rows: Vec<Vec<String>> = per_domain
            .iter()
            .map(|((d, (_, cause)), counts)| {
                let mut row = vec![self.domains[*d].0.clone(), cause.clone()];
                row.extend(cells(counts));
                row
            })
            .collect();
        let total_rows = all.len();
        rows.extend(all.iter().map(|((_, cause), counts)| {
            let mut row = vec!["All".to_owned(), cause.clone()];
            row.extend(cells(counts));
            row
        }));
        Table {
            title: "Unsolved runs by cause".to_owned(),
            headers: ["domain", "cause"]
                .map(str::to_owned)
                .into_iter()
                .chain(self.configs.iter().cloned())
                .collect(),
            rows,
            label_columns: 2,
            notes: vec![
                "limit: a search limit stopped the run; out_of_time, out_of_memory: the \
                 system killed an isolated run; unsolvable: proved; no_plan_found: an \
                 incomplete search ran dry; invalid_plan: a plan that does not replay; \
                 unsupported: the planner does not handle the task and says so (a construct, \
                 a direction or heuristic; expected, not a failure); error: the planner \
                 refused the problem as bad input (by the message's kind, names and numbers \
                 left out; the warnings give each message); panic, crashed: a bug."
                    .to_owned(),
            ],
            total_rows,
        }
    }

    /// What `report --check` says: `Ok` with a line on what was
    /// cross-checked when no disagreement and no invalid plan exists,
    /// else `Err` with their counts.
    ///
    /// # Errors
    /// The message naming how many disagreements and invalid plans there
    /// are.
    pub fn check(&self) -> Result<String, String> {
        let disagreements = self.disagreements().len();
        let invalid = self.invalid_plans().len();
        let counts = format!(
            "{disagreements} disagreement{} and {invalid} invalid plan{} in {} runs",
            plural(disagreements),
            plural(invalid),
            self.records.len()
        );
        if disagreements == 0 && invalid == 0 {
            Ok(format!("check passed: {counts}"))
        } else {
            Err(format!("check failed: {counts}"))
        }
    }

    /// A loud warning listing invalid plans, panics and refused runs; empty
    /// when there are none.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        for r in self.invalid_plans() {
            out.push(format!(
                "INVALID PLAN: {} on {}/{}: {}",
                r.config,
                r.domain,
                r.problem,
                r.error.as_deref().unwrap_or("not validated")
            ));
        }
        for r in self.records.iter().filter(|r| r.unchecked_plan()) {
            out.push(format!(
                "UNCHECKED PLAN: {} on {}/{}: {}",
                r.config,
                r.domain,
                r.problem,
                r.error.as_deref().unwrap_or("not replayed")
            ));
        }
        for r in self.failures() {
            out.push(format!(
                "{}: {} on {}/{}: {}",
                match r.outcome {
                    RunOutcome::Panic => "PANIC",
                    RunOutcome::Crashed => "CRASH",
                    _ => "ERROR",
                },
                r.config,
                r.domain,
                r.problem,
                r.error.as_deref().unwrap_or("")
            ));
        }
        out
    }

    /// The console summary `searchlab` prints: warnings, coverage, unsolved
    /// runs by cause (over all domains), disagreements, forward against
    /// regression.
    pub fn console_summary(&self) -> String {
        let mut out = String::new();
        for w in self.warnings() {
            let _ = writeln!(out, "!! {w}");
        }
        if !out.is_empty() {
            out.push('\n');
        }
        // Configurations as rows: many of them fit a terminal better that way.
        let mut coverage = self.coverage_table().transposed();
        if let Some(first) = coverage.headers.first_mut() {
            "configuration".clone_into(first);
        }
        out.push_str(&coverage.to_console());
        let mut unsolved = self.unsolved_table();
        if !unsolved.rows.is_empty() {
            // The `All` rows only, without their label: the report files
            // break them down by domain.
            unsolved
                .rows
                .drain(..unsolved.rows.len() - unsolved.total_rows);
            for row in std::iter::once(&mut unsolved.headers).chain(&mut unsolved.rows) {
                row.remove(0);
            }
            unsolved.label_columns = 1;
            unsolved
                .title
                .push_str(" (all domains; the Markdown report has them per domain)");
            out.push('\n');
            out.push_str(&unsolved.to_console());
        }
        out.push('\n');
        out.push_str(&self.disagreement_table().to_console());
        let directions = self.direction_table();
        if !directions.rows.is_empty() {
            out.push('\n');
            out.push_str(&directions.to_console());
        }
        out
    }

    /// The sentence under a report's title: how many runs, configurations
    /// and domains, and which time the tables show.
    pub fn summary_line(&self) -> String {
        format!(
            "{} runs, {} configurations, {} domains. Times in seconds: {} where every \
             compared run recorded it, else wall time; each table says which.",
            self.records.len(),
            self.configs.len(),
            self.domains.len(),
            Clock::Cpu.name()
        )
    }

    /// The full report's sections, in order: warnings (if any), summary
    /// (coverage, unsolved runs by cause, disagreements, forward against
    /// regression), attributes, scores, and the
    /// comparisons asked for. The Markdown and HTML reports render them.
    pub fn sections(&self, bounds: ScoreBounds, compare: &[(String, String)]) -> Vec<Section> {
        let mut sections = Vec::new();
        let warnings = self.warnings();
        if !warnings.is_empty() {
            sections.push(Section {
                heading: "Warnings".to_owned(),
                warnings,
                tables: Vec::new(),
            });
        }
        let section = |heading: &str, tables: Vec<Table>| Section {
            heading: heading.to_owned(),
            warnings: Vec::new(),
            tables,
        };
        sections.push(section(
            "Summary",
            vec![
                self.coverage_table(),
                self.unsolved_table(),
                self.disagreement_table(),
                self.direction_table(),
            ],
        ));
        sections.push(section(
            "Attributes",
            [
                Attribute::Expansions,
                Attribute::Generated,
                Attribute::Time,
                Attribute::Memory,
                Attribute::Cost,
            ]
            .map(|a| self.attribute_table(a))
            .to_vec(),
        ));
        sections.push(section(
            "Scores",
            [Score::Expansions, Score::Time, Score::Memory]
                .map(|s| self.score_table(s, bounds))
                .to_vec(),
        ));
        if !compare.is_empty() {
            sections.push(section(
                "Comparisons",
                compare
                    .iter()
                    .map(|(a, b)| self.compare_table(a, b))
                    .collect(),
            ));
        }
        sections
    }

    /// The full Markdown report: the [`sections`](Self::sections) under
    /// `title`.
    pub fn markdown(
        &self,
        title: &str,
        bounds: ScoreBounds,
        compare: &[(String, String)],
    ) -> String {
        let mut out = format!("# {title}\n\n{}\n\n", self.summary_line());
        for section in self.sections(bounds, compare) {
            let _ = write!(out, "## {}\n\n", section.heading);
            for w in &section.warnings {
                let _ = writeln!(out, "- **{w}**");
            }
            if !section.warnings.is_empty() {
                out.push('\n');
            }
            for table in &section.tables {
                out.push_str(&table.to_markdown());
                out.push('\n');
            }
        }
        out
    }
}

/// A part of the full report: a heading, loud warnings and tables.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Section {
    /// The heading (`Summary`, `Attributes` ...).
    pub heading: String,
    /// Warnings to print in bold (invalid plans, panics, refused runs).
    pub warnings: Vec<String>,
    /// The tables.
    pub tables: Vec<Table>,
}

/// The notes under a comparison table: what A and B are, the geometric
/// means of the ratios, who expands fewer nodes, what only one solved.
fn comparison_notes(c: &Comparison, astar: bool) -> Vec<String> {
    let fmt = |r: Option<f64>| r.map_or_else(|| "-".to_owned(), |r| format!("{r:.3}"));
    let mut notes = vec![
        format!(
            "A = {}, B = {}; times: {}, s; ratios B/A (< 1: B better), \
             times clamped to >= {MIN_TIME} s.",
            c.a,
            c.b,
            c.clock.name()
        ),
        format!(
            "Commonly solved: {}. Geometric mean B/A: expansions {}, time {}{}.",
            c.common,
            fmt(c.expansions_ratio),
            fmt(c.time_ratio),
            if astar {
                format!(", expansions until last jump {}", fmt(c.last_jump_ratio))
            } else {
                String::new()
            }
        ),
        format!(
            "A expands fewer nodes on {}, B on {}, equal on {}.",
            c.a_fewer, c.b_fewer, c.equal
        ),
    ];
    if !c.only_a.is_empty() {
        notes.push(format!("Solved only by A: {}.", c.only_a.join(", ")));
    }
    if !c.only_b.is_empty() {
        notes.push(format!("Solved only by B: {}.", c.only_b.join(", ")));
    }
    if !c.cost_differs.is_empty() {
        notes.push(format!("Costs differ on: {}.", c.cost_differs.join(", ")));
    }
    notes
}

fn ratio_of_means(numerator: &[f64], denominator: &[f64]) -> Option<f64> {
    Some(geometric_mean(numerator)? / geometric_mean(denominator)?)
}

/// What the parts of the configuration names in `configs` mean:
/// `direction-algorithm-heuristic` for searchlab's, `fd-`/`pp-` for the
/// peers'. `None` when no name has parts to explain.
///
/// ```
/// use searchlab_lab::report::name_legend;
/// let legend = name_legend(&["fwd-gbfs-mismatch".to_owned(), "fd-astar-lmcut".to_owned()]).unwrap();
/// assert!(legend.contains("fwd: forward"));
/// assert!(legend.contains("gbfs: greedy best-first search"));
/// assert!(legend.contains("mismatch: goal atoms a state gets wrong"));
/// assert!(legend.contains("fd-: Fast Downward"));
/// let pruned = name_legend(&["fwd-astar-lmcut-sss".to_owned()]).unwrap();
/// assert!(pruned.contains("lmcut: ") && pruned.contains("-sss: forward search pruned"));
/// ```
pub fn name_legend(configs: &[String]) -> Option<String> {
    let mut directions = BTreeSet::new();
    let mut algorithms = BTreeMap::new();
    let mut heuristics = BTreeMap::new();
    let mut peers = BTreeSet::new();
    let mut pruned = false;
    for config in configs {
        if let Some(peer) = crate::external::ExternalSearch::by_name(config) {
            peers.insert(match peer.planner {
                crate::external::ExternalPlanner::FastDownward => {
                    "fd-: Fast Downward (fd-lama-first: LAMA's first iteration)"
                }
                crate::external::ExternalPlanner::Pyperplan => "pp-: pyperplan",
                crate::external::ExternalPlanner::Enhsp => {
                    "enhsp-: ENHSP (opt-hrmax: A* with h^rmax; sat-hmrp: greedy best-first with the relaxed plan heuristic)"
                }
            });
            continue;
        }
        let base = config.strip_suffix(crate::suite::STUBBORN_SUFFIX);
        pruned |= base.is_some();
        let mut parts = base.unwrap_or(config).splitn(3, '-');
        let (Some(direction), Some(algorithm)) = (parts.next(), parts.next()) else {
            continue;
        };
        let Ok(side) = direction.parse::<planners::Direction>() else {
            continue;
        };
        let Ok(parsed) = side.parse_algorithm(algorithm) else {
            continue;
        };
        directions.insert(match side {
            planners::Direction::Forward => "fwd: forward",
            planners::Direction::Regression => "reg: regression",
            planners::Direction::Portfolio => "portfolio: forward and regression at once",
            planners::Direction::Bidirectional => {
                "bid: forward and regression meeting in one search"
            }
        });
        let description = match side {
            planners::Direction::Bidirectional if parsed == search_core::Algorithm::AStar => {
                "NBS, bidirectional A* (Chen et al. 2017)".to_owned()
            }
            planners::Direction::Bidirectional
                if parsed == search_core::Algorithm::GreedyBestFirst =>
            {
                "TTBS, front-to-front bidirectional greedy search (Kuroiwa and Fukunaga 2020)"
                    .to_owned()
            }
            _ => parsed.description(),
        };
        algorithms.insert(algorithm.to_owned(), description);
        for name in parts.next().into_iter().flat_map(|h| h.split('+')) {
            if let Ok(heuristic) = planners::heuristics::heuristic(name) {
                let description = &heuristic.info().description;
                // The first clause says what it counts; the rest is detail.
                let short = description
                    .split([';', '(', ':'])
                    .next()
                    .unwrap_or(description)
                    .trim();
                heuristics.insert(name.to_owned(), short.to_owned());
            }
        }
    }
    let explained = |map: BTreeMap<String, String>| {
        map.into_iter()
            .map(|(name, what)| format!("{name}: {what}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts: Vec<String> = Vec::new();
    if !directions.is_empty() {
        parts.push(format!(
            "direction-algorithm-heuristic, {}; {}; {} (`searchlab heuristics` says more)",
            directions.into_iter().collect::<Vec<_>>().join(", "),
            explained(algorithms),
            explained(heuristics)
        ));
    }
    if pruned {
        parts.push("-sss: forward search pruned by strong stubborn sets".to_owned());
    }
    parts.extend(peers.into_iter().map(str::to_owned));
    (!parts.is_empty()).then(|| format!("Names: {}.", parts.join("; ")))
}

fn aggregate(attribute: Attribute, values: &[f64]) -> String {
    if values.is_empty() {
        return "-".to_owned();
    }
    if attribute.is_summed() {
        return attribute.format(values.iter().sum());
    }
    geometric_mean(values).map_or_else(|| "-".to_owned(), |m| attribute.format(m))
}

/// Whether configuration `config` reports expansions until the last jump
/// (pyperplan and ENHSP do not).
fn reports_last_jump(config: &str) -> bool {
    crate::external::ExternalSearch::by_name(config)
        .is_none_or(|s| s.planner == crate::external::ExternalPlanner::FastDownward)
}

/// Why `record` did not solve its problem, as the unsolved table groups
/// runs; `None` for a solved run. A limit names itself (`limit: time`); a
/// refusal, panic or crash adds its message's kind ([`error_kind`]), so
/// that no error hides among limits.
///
/// ```
/// use searchlab_lab::record::{RunOutcome, RunRecord};
/// use searchlab_lab::report::unsolved_cause;
/// let mut r = RunRecord::new(0, "d", "p", "c");
/// r.outcome = RunOutcome::Limit;
/// r.limit = Some("time".to_owned());
/// assert_eq!(unsolved_cause(&r).as_deref(), Some("limit: time"));
/// r.outcome = RunOutcome::Error;
/// r.error = Some("d/domain.pddl / d/p.pddl: problem:4:9: `at` takes 1 argument(s), 2 given".to_owned());
/// assert_eq!(
///     unsolved_cause(&r).as_deref(),
///     Some("error: `…` takes N argument(s), N given")
/// );
/// ```
pub fn unsolved_cause(record: &RunRecord) -> Option<String> {
    let message = || {
        let text = record.error.as_deref().unwrap_or("");
        error_kind(text.strip_prefix("panic: ").unwrap_or(text))
    };
    Some(match record.outcome {
        RunOutcome::Solved if record.solved() => return None,
        RunOutcome::Solved => "invalid_plan".to_owned(),
        RunOutcome::Limit => match record.limit.as_deref() {
            Some(limit) => format!("limit: {limit}"),
            None => "limit".to_owned(),
        },
        RunOutcome::Unsupported | RunOutcome::Error | RunOutcome::Panic | RunOutcome::Crashed => {
            format!("{}: {}", record.outcome.name(), message())
        }
        other => other.name().to_owned(),
    })
}

/// The order of causes in the unsolved table: limits first, bugs last.
fn cause_rank(record: &RunRecord) -> u8 {
    match record.outcome {
        RunOutcome::Limit => 0,
        RunOutcome::OutOfTime => 1,
        RunOutcome::OutOfMemory => 2,
        RunOutcome::Cancelled => 3,
        RunOutcome::NoPlanFound => 4,
        RunOutcome::Unsolvable => 5,
        RunOutcome::Solved => 6,
        RunOutcome::Unsupported => 7,
        RunOutcome::Error => 8,
        RunOutcome::Panic => 9,
        RunOutcome::Crashed => 10,
    }
}

/// The kind of an error message, so that refusals of one kind group
/// together: the locations in front (the task's files, `file:line:col`)
/// dropped, the first clause kept (up to `: `, ` (` or ` | `), names in
/// backquotes replaced by `…` (but PDDL keywords such as
/// `:derived-predicates`, which say what is missing) and numbers by `N`;
/// at most 100 characters.
///
/// ```
/// use searchlab_lab::report::error_kind;
/// assert_eq!(
///     error_kind("d/domain.pddl / d/p01.pddl: domain:2:23: unsupported requirement \
///                 `:derived-predicates` (searchlab reads ADL with :action-costs)"),
///     "unsupported requirement `:derived-predicates`"
/// );
/// assert_eq!(
///     error_kind("a/domain.pddl / a/p3.pddl: action `destroy_road j1-1 road0` is already declared"),
///     "action `…` is already declared"
/// );
/// assert_eq!(error_kind("Fast Downward failed with exit code 34: x | y"), "Fast Downward failed with exit code N");
/// assert_eq!(error_kind(""), "no message");
/// ```
pub fn error_kind(message: &str) -> String {
    const MAX_CHARS: usize = 100;
    let mut rest = message.trim();
    while let Some((head, tail)) = rest.split_once(": ") {
        if !is_location(head) {
            break;
        }
        rest = tail;
    }
    let end = [": ", " (", " | "]
        .iter()
        .filter_map(|s| rest.find(s))
        .min()
        .unwrap_or(rest.len());
    let mut kind = String::new();
    let mut chars = rest[..end].trim().chars().peekable();
    while let Some(c) = chars.next() {
        if c == '`' {
            let name: String = chars.by_ref().take_while(|&c| c != '`').collect();
            if name.starts_with(':') {
                let _ = write!(kind, "`{name}`");
            } else {
                kind.push_str("`…`");
            }
        } else if c.is_ascii_digit() {
            while chars.next_if(char::is_ascii_digit).is_some() {}
            kind.push('N');
        } else {
            kind.push(c);
        }
    }
    if kind.is_empty() {
        return "no message".to_owned();
    }
    if kind.chars().count() > MAX_CHARS {
        kind = kind.chars().take(MAX_CHARS - 1).collect();
        kind.push('…');
    }
    kind
}

/// Whether `segment`, a part of a message before `: `, is where the error
/// is rather than what: file names joined by ` / `, `file:line:column`.
fn is_location(segment: &str) -> bool {
    let joined = segment.replace(" / ", "");
    !joined.is_empty() && !joined.contains(char::is_whitespace) && joined.contains(['/', ':', '.'])
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
