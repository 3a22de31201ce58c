//! Writes what is made from a result set: CSV, Lab properties, the
//! Markdown and HTML reports and the SVG plots.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::html::{html_report, Plot};
use crate::plot::{coverage_svg, scatter_svg};
use crate::record::{to_csv, to_lab_properties, write_file, RunRecord};
use crate::report::{Attribute, Report, ScoreBounds};
use crate::SuiteError;

/// What to write.
#[derive(Clone, Debug, Default)]
pub struct OutputOptions {
    /// The report's title.
    pub title: String,
    /// Score ranges (the runs' limits).
    pub bounds: ScoreBounds,
    /// Pairs `(A, B)` to compare instance by instance and plot; when empty,
    /// the first forward/regression pair is plotted.
    pub compare: Vec<(String, String)>,
    /// File stem of the results as CSV (`results` gives `results.csv`);
    /// empty to write none.
    pub stem: String,
}

/// Writes into `dir`: `{stem}.csv`, `properties` (Downward Lab),
/// `report.md`, `report.html` (self-contained: the same tables and the
/// plots inline), `coverage-time.svg` and per compared pair
/// `scatter-expansions-A-vs-B.svg` and `scatter-time-A-vs-B.svg`. Returns
/// the paths written. The records' own file, `{stem}.jsonl`, is the
/// caller's ([`crate::results::ResultsFile`], [`crate::record::write_jsonl`]):
/// `bench` and `report` make all of these from it.
///
/// # Errors
/// [`SuiteError::Io`] when a file cannot be written; [`SuiteError::Invalid`]
/// if a plot cannot be drawn.
pub fn write_outputs(
    records: &[RunRecord],
    dir: &Path,
    options: &OutputOptions,
) -> Result<Vec<PathBuf>, SuiteError> {
    let mut written = Vec::new();
    let mut put = |name: &str, bytes: &[u8]| -> Result<(), SuiteError> {
        let path = dir.join(name);
        write_file(&path, bytes)?;
        written.push(path);
        Ok(())
    };
    if !options.stem.is_empty() {
        put(&format!("{}.csv", options.stem), to_csv(records).as_bytes())?;
    }
    let properties = serde_json::to_string_pretty(&to_lab_properties(records))
        .map_err(|e| SuiteError::Invalid(e.to_string()))?;
    put("properties", properties.as_bytes())?;
    let report = Report::new(records);
    let mut pairs = options.compare.clone();
    if pairs.is_empty() {
        pairs.extend(report.direction_pairs().into_iter().take(1));
    }
    let mut markdown = report.markdown(&options.title, options.bounds, &options.compare);
    markdown.push_str("## Plots\n\n");
    let mut plots = Vec::new();
    let mut plot = |name: String, caption: String, svg: String| -> Result<(), SuiteError> {
        put(&name, svg.as_bytes())?;
        let _ = write!(markdown, "![{caption}]({name})\n\n");
        plots.push(Plot { caption, svg });
        Ok(())
    };
    plot(
        "coverage-time.svg".to_owned(),
        "coverage over time".to_owned(),
        coverage_svg(records, report.configs())?,
    )?;
    for (a, b) in &pairs {
        for (attribute, label) in [
            (Attribute::Expansions, "expansions"),
            (Attribute::Time, "time"),
        ] {
            plot(
                format!("scatter-{label}-{a}-vs-{b}.svg"),
                format!("{label}: {b} against {a}"),
                scatter_svg(records, a, b, attribute)?,
            )?;
        }
    }
    put("report.md", markdown.as_bytes())?;
    let html = html_report(
        &report,
        &options.title,
        options.bounds,
        &options.compare,
        &plots,
    );
    put("report.html", html.as_bytes())?;
    Ok(written)
}
