//! Reports in the conventions of Fast Downward's Downward Lab: coverage per
//! domain, attributes aggregated over the problems that every compared
//! configuration solved (geometric means; times clamped to at least
//! 0.01 s), log-scaled scores, forward against regression, and two
//! configurations compared instance by instance.
//!
//! Everything renders as a [`Table`], which prints for the console or as
//! Markdown.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::record::{config_names, domains, RunOutcome, RunRecord};

/// Times below this are clamped to it before taking geometric means and
/// ratios, as Lab does.
pub const MIN_TIME: f64 = 0.01;

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

/// An attribute aggregated over commonly solved problems.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attribute {
    /// Expanded nodes (geometric mean).
    Expansions,
    /// Expanded nodes before the last f-layer (geometric mean).
    ExpansionsUntilLastJump,
    /// Generated nodes (geometric mean).
    Generated,
    /// Wall time, clamped to [`MIN_TIME`] (geometric mean).
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

    /// The attribute's value in `record`.
    pub fn value(self, record: &RunRecord) -> f64 {
        match self {
            Attribute::Expansions => as_f64(record.expanded),
            // Zero when the goal sits in the first layer; clamp for logs.
            Attribute::ExpansionsUntilLastJump => as_f64(record.expanded_until_last_jump).max(1.0),
            Attribute::Generated => as_f64(record.generated),
            Attribute::Time => record.time.max(MIN_TIME),
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
            Attribute::Time => format!("{v:.3}"),
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

    /// The score of one run: 0 when unsolved.
    pub fn of(self, record: &RunRecord, bounds: ScoreBounds) -> f64 {
        if !record.solved() {
            return 0.0;
        }
        match self {
            Score::Expansions => log_score(as_f64(record.expanded), 100.0, 1e6),
            Score::Time => log_score(record.time, 1.0, bounds.time_limit),
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
}

/// Aggregates over one result set.
#[derive(Clone, Debug)]
pub struct Report<'r> {
    records: &'r [RunRecord],
    configs: Vec<String>,
    domains: Vec<(String, usize)>,
    index: BTreeMap<(&'r str, &'r str, &'r str), &'r RunRecord>,
}

impl<'r> Report<'r> {
    /// A report over `records`, with configurations in order of first
    /// appearance.
    pub fn new(records: &'r [RunRecord]) -> Self {
        let index = records.iter().map(|r| (r.key(), r)).collect();
        Self {
            records,
            configs: config_names(records),
            domains: domains(records),
            index,
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

    /// Runs that panicked or that the planner refused.
    pub fn failures(&self) -> Vec<&'r RunRecord> {
        self.records
            .iter()
            .filter(|r| matches!(r.outcome, RunOutcome::Panic | RunOutcome::Error))
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
            notes: vec!["`-`: the configuration does not apply to the domain's kind.".to_owned()],
        }
    }

    /// `attribute` per domain and configuration over the domain's commonly
    /// solved problems (geometric mean, or sum for cost), and over all of
    /// them in the last row.
    pub fn attribute_table(&self, attribute: Attribute) -> Table {
        self.attribute_table_for(attribute, &self.configs.clone())
    }

    /// [`attribute_table`](Self::attribute_table) for some configurations.
    pub fn attribute_table_for(&self, attribute: Attribute, configs: &[String]) -> Table {
        let mut rows = Vec::new();
        let mut all: Vec<Vec<f64>> = vec![Vec::new(); configs.len()];
        for (domain, _) in &self.domains {
            let common = self.commonly_solved(domain, configs);
            let mut row = vec![format!("{domain} ({})", common.len())];
            for (i, config) in configs.iter().enumerate() {
                if !self.applies(domain, config) {
                    row.push("-".to_owned());
                    continue;
                }
                let values: Vec<f64> = common
                    .iter()
                    .filter_map(|p| self.record(domain, p, config))
                    .map(|r| attribute.value(r))
                    .collect();
                all[i].extend(&values);
                row.push(aggregate(attribute, &values));
            }
            rows.push(row);
        }
        let total: usize = self
            .domains
            .iter()
            .map(|(d, _)| self.commonly_solved(d, configs).len())
            .sum();
        let mut last = vec![format!("All ({total})")];
        last.extend(all.iter().map(|v| aggregate(attribute, v)));
        rows.push(last);
        let how = if attribute.is_summed() {
            "sum"
        } else {
            "geometric mean"
        };
        Table {
            title: format!("{} ({how} over commonly solved problems)", attribute.name()),
            headers: Self::header("domain (common)", configs),
            rows,
            label_columns: 1,
            notes: vec![
                "Commonly solved: by every configuration that runs on the domain; \
                 the last row aggregates each configuration over the domains it runs on."
                    .to_owned(),
            ],
        }
    }

    /// Scores summed per domain (unsolved problems score 0).
    pub fn score_table(&self, score: Score, bounds: ScoreBounds) -> Table {
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
                    .map(|r| score.of(r, bounds))
                    .sum();
                totals[i] += s;
                row.push(format!("{s:.2}"));
            }
            rows.push(row);
        }
        let mut sum = vec!["Sum".to_owned()];
        sum.extend(totals.iter().map(|t| format!("{t:.2}")));
        rows.push(sum);
        Table {
            title: format!("{} (summed per domain)", score.name()),
            headers: Self::header("domain (problems)", &self.configs),
            rows,
            label_columns: 1,
            notes: Vec::new(),
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
        let mut rows = Vec::new();
        for (fwd, reg) in self.direction_pairs() {
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
                        .map(|r| attribute.value(r))
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
                    aggregate(Attribute::Time, &values(&fwd, Attribute::Time)),
                    aggregate(Attribute::Time, &values(&reg, Attribute::Time)),
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
                "time fwd",
                "time reg",
            ]
            .map(str::to_owned)
            .to_vec(),
            rows,
            label_columns: 2,
            notes: vec![
                "exp, time: geometric means over the problems both directions solved; \
                 reg/fwd < 1 means regression expanded fewer nodes."
                    .to_owned(),
            ],
        }
    }

    /// Compares configuration `b` with `a` over the problems both ran on.
    pub fn compare(&self, a: &str, b: &str) -> Comparison {
        let mut c = Comparison {
            a: a.to_owned(),
            b: b.to_owned(),
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
                        ea.push(Attribute::Expansions.value(ra).max(1.0));
                        eb.push(Attribute::Expansions.value(rb).max(1.0));
                        ta.push(Attribute::Time.value(ra));
                        tb.push(Attribute::Time.value(rb));
                        ja.push(Attribute::ExpansionsUntilLastJump.value(ra));
                        jb.push(Attribute::ExpansionsUntilLastJump.value(rb));
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
                        Attribute::Expansions.value(ra).max(1.0),
                        Attribute::Expansions.value(rb).max(1.0),
                    ),
                ];
                if astar {
                    row.push(cell(ra, ra.expanded_until_last_jump.to_string()));
                    row.push(cell(rb, rb.expanded_until_last_jump.to_string()));
                    row.push(ratio(
                        Attribute::ExpansionsUntilLastJump.value(ra),
                        Attribute::ExpansionsUntilLastJump.value(rb),
                    ));
                }
                row.push(cell(ra, format!("{:.3}", ra.time)));
                row.push(cell(rb, format!("{:.3}", rb.time)));
                row.push(ratio(Attribute::Time.value(ra), Attribute::Time.value(rb)));
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
        headers.extend(["time A", "time B", "B/A"].map(str::to_owned));
        let c = self.compare(a, b);
        let fmt = |r: Option<f64>| r.map_or_else(|| "-".to_owned(), |r| format!("{r:.3}"));
        let mut notes = vec![
            format!(
                "A = {a}, B = {b}; ratios B/A (< 1: B better); times clamped to >= {MIN_TIME} s."
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
        Table {
            title: format!("{b} compared with {a}"),
            headers,
            rows,
            label_columns: 2,
            notes,
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
        for r in self.failures() {
            out.push(format!(
                "{}: {} on {}/{}: {}",
                if r.outcome == RunOutcome::Panic {
                    "PANIC"
                } else {
                    "ERROR"
                },
                r.config,
                r.domain,
                r.problem,
                r.error.as_deref().unwrap_or("")
            ));
        }
        out
    }

    /// The console summary `searchlab` prints: warnings, coverage, forward
    /// against regression.
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
        let directions = self.direction_table();
        if !directions.rows.is_empty() {
            out.push('\n');
            out.push_str(&directions.to_console());
        }
        out
    }

    /// The full Markdown report: warnings, coverage, attributes, scores,
    /// forward against regression, and the comparisons asked for.
    pub fn markdown(
        &self,
        title: &str,
        bounds: ScoreBounds,
        compare: &[(String, String)],
    ) -> String {
        let mut out = format!("# {title}\n\n");
        let _ = writeln!(
            out,
            "{} runs, {} configurations, {} domains.\n",
            self.records.len(),
            self.configs.len(),
            self.domains.len()
        );
        let warnings = self.warnings();
        if !warnings.is_empty() {
            out.push_str("## Warnings\n\n");
            for w in warnings {
                let _ = writeln!(out, "- **{w}**");
            }
            out.push('\n');
        }
        out.push_str("## Summary\n\n");
        out.push_str(&self.coverage_table().to_markdown());
        out.push('\n');
        out.push_str(&self.direction_table().to_markdown());
        out.push_str("\n## Attributes\n\n");
        for attribute in [
            Attribute::Expansions,
            Attribute::Generated,
            Attribute::Time,
            Attribute::Memory,
            Attribute::Cost,
        ] {
            out.push_str(&self.attribute_table(attribute).to_markdown());
            out.push('\n');
        }
        out.push_str("## Scores\n\n");
        for score in [Score::Expansions, Score::Time, Score::Memory] {
            out.push_str(&self.score_table(score, bounds).to_markdown());
            out.push('\n');
        }
        if !compare.is_empty() {
            out.push_str("## Comparisons\n\n");
            for (a, b) in compare {
                out.push_str(&self.compare_table(a, b).to_markdown());
                out.push('\n');
            }
        }
        out
    }
}

fn ratio_of_means(numerator: &[f64], denominator: &[f64]) -> Option<f64> {
    Some(geometric_mean(numerator)? / geometric_mean(denominator)?)
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
/// (pyperplan does not).
fn reports_last_jump(config: &str) -> bool {
    crate::external::ExternalSearch::by_name(config)
        .is_none_or(|s| s.planner != crate::external::ExternalPlanner::Pyperplan)
}
