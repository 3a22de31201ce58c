//! SVG plots with plotters: log-log scatter plots of one configuration
//! against another (one point per problem, coloured by domain, with the
//! diagonal, failed runs on labelled "unsolved" lines) and coverage over
//! time. Times are CPU time where every plotted run recorded it
//! ([`Clock`]), and the axes say which.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::record::{check_records, domains, RunRecord};
use crate::report::{Attribute, Clock, Report};
use crate::SuiteError;

/// Colours for domains and configurations, in order; they repeat after
/// sixteen.
const COLOURS: [RGBColor; 16] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(0, 0, 128),
    RGBColor(128, 128, 0),
    RGBColor(0, 0, 0),
    RGBColor(255, 187, 120),
    RGBColor(152, 223, 138),
    RGBColor(197, 176, 213),
];

fn colour(i: usize) -> RGBColor {
    COLOURS[i % COLOURS.len()]
}

fn plot_error(e: impl std::fmt::Display) -> SuiteError {
    SuiteError::Invalid(format!("cannot draw the plot: {e}"))
}

/// The points of a scatter plot: per domain, `(a, b)` values for every
/// problem both configurations ran on and at least one solved; an unsolved
/// side is `None`.
pub type ScatterPoints = Vec<(String, Vec<(Option<f64>, Option<f64>)>)>;

/// The scatter points of `attribute` for configuration `b` against `a`
/// (times on the clock of the two, [`Report::clock`]).
pub fn scatter_points(
    records: &[RunRecord],
    a: &str,
    b: &str,
    attribute: Attribute,
) -> ScatterPoints {
    let report = Report::new(records);
    let clock = report.clock(&[a.to_owned(), b.to_owned()]);
    let mut out = Vec::new();
    for (domain, _) in domains(records) {
        let mut points = Vec::new();
        let mut problems: Vec<&str> = records
            .iter()
            .filter(|r| r.domain == domain && r.config == a)
            .map(|r| r.problem.as_str())
            .collect();
        problems.dedup();
        for problem in problems {
            let (Some(ra), Some(rb)) = (
                report.record(&domain, problem, a),
                report.record(&domain, problem, b),
            ) else {
                continue;
            };
            if !ra.solved() && !rb.solved() {
                continue;
            }
            let value = |r: &RunRecord| {
                r.solved().then(|| {
                    if attribute == Attribute::Time {
                        // Finer than the tables' clamp, so fast runs stay apart.
                        clock.seconds(r).max(PLOT_MIN_TIME)
                    } else {
                        attribute.value(r, clock).max(1.0)
                    }
                })
            };
            points.push((value(ra), value(rb)));
        }
        if !points.is_empty() {
            out.push((domain, points));
        }
    }
    out
}

fn lowest(attribute: Attribute) -> f64 {
    if attribute == Attribute::Time {
        PLOT_MIN_TIME
    } else {
        1.0
    }
}

/// A log-log scatter plot (SVG text) of `attribute` for configuration `b`
/// (y) against `a` (x): one point per problem, coloured by domain, with the
/// diagonal. A run that failed sits on the grey line labelled `unsolved`
/// at the far end of its axis (right for A, top for B).
///
/// # Errors
/// [`SuiteError::Invalid`] for a record that fails [`RunRecord::check`] or
/// if plotters fails.
pub fn scatter_svg(
    records: &[RunRecord],
    a: &str,
    b: &str,
    attribute: Attribute,
) -> Result<String, SuiteError> {
    // Out of range, a time would stretch the axis past what plotters can
    // draw (it never returns).
    check_records(records)?;
    let points = scatter_points(records, a, b, attribute);
    let values = points
        .iter()
        .flat_map(|(_, p)| p.iter().flat_map(|(x, y)| [*x, *y]))
        .flatten();
    let lo = lowest(attribute);
    let max = values.fold(lo * 10.0, f64::max);
    // A decade of head room: the border where the unsolved go.
    let hi = 10f64.powf(max.log10().ceil() + 1.0);
    let unsolved = hi / 1.5;
    let unit = if attribute == Attribute::Time {
        let clock = Report::new(records).clock(&[a.to_owned(), b.to_owned()]);
        format!(" ({}, s)", clock.name())
    } else {
        String::new()
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 640)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{}: {b} against {a}", attribute.name()),
                ("sans-serif", 20),
            )
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc(format!("{a}{unit}"))
            .y_desc(format!("{b}{unit}"))
            .x_label_formatter(&|v| format!("{v:e}"))
            .y_label_formatter(&|v| format!("{v:e}"))
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(LineSeries::new([(lo, lo), (hi, hi)], BLACK.stroke_width(1)))
            .map_err(plot_error)?;
        let grey = RGBColor(128, 128, 128);
        for line in [
            [(lo, unsolved), (hi, unsolved)],
            [(unsolved, lo), (unsolved, hi)],
        ] {
            chart
                .draw_series(LineSeries::new(line, grey.stroke_width(1)))
                .map_err(plot_error)?;
        }
        let label = TextStyle::from(("sans-serif", 14).into_font())
            .color(&grey)
            .pos(Pos::new(HPos::Left, VPos::Bottom));
        chart
            .draw_series([
                Text::new(UNSOLVED, (lo * 1.1, unsolved), label.clone()),
                Text::new(
                    UNSOLVED,
                    (unsolved, lo * 1.1),
                    label.transform(FontTransform::Rotate270),
                ),
            ])
            .map_err(plot_error)?;
        for (i, (domain, pts)) in points.iter().enumerate() {
            let c = colour(i);
            chart
                .draw_series(pts.iter().map(|(x, y)| {
                    Circle::new(
                        (x.unwrap_or(unsolved), y.unwrap_or(unsolved)),
                        4,
                        c.filled(),
                    )
                }))
                .map_err(plot_error)?
                .label(format!("{domain} ({})", pts.len()))
                .legend(move |(x, y)| Circle::new((x, y), 4, c.filled()));
        }
        chart
            .configure_series_labels()
            // Below the top "unsolved" line and its label.
            .position(SeriesLabelPosition::Coordinate(10, 30))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// The label of the lines where scatter plots put failed runs.
pub const UNSOLVED: &str = "unsolved";

/// The left end of the coverage-over-time axis: finer than the 0.01 s that
/// tables clamp to, so that fast configurations stay apart.
pub const PLOT_MIN_TIME: f64 = 1e-4;

/// For each configuration, the sorted times on `clock` of its solved runs
/// (at least [`PLOT_MIN_TIME`]).
pub fn solve_times(
    records: &[RunRecord],
    configs: &[String],
    clock: Clock,
) -> Vec<(String, Vec<f64>)> {
    configs
        .iter()
        .map(|c| {
            let mut times: Vec<f64> = records
                .iter()
                .filter(|r| &r.config == c && r.solved())
                .map(|r| clock.seconds(r).max(PLOT_MIN_TIME))
                .collect();
            times.sort_by(f64::total_cmp);
            (c.clone(), times)
        })
        .collect()
}

/// Coverage over time (SVG text): for each configuration, how many
/// problems it solved within a given time (log scale).
///
/// # Errors
/// [`SuiteError::Invalid`] for a record that fails [`RunRecord::check`] or
/// if plotters fails.
pub fn coverage_svg(records: &[RunRecord], configs: &[String]) -> Result<String, SuiteError> {
    check_records(records)?;
    let clock = Report::new(records).clock(configs);
    let series = solve_times(records, configs, clock);
    let max_time = series
        .iter()
        .filter_map(|(_, t)| t.last().copied())
        .fold(PLOT_MIN_TIME * 10.0, f64::max);
    let hi = 10f64.powf(max_time.log10().ceil());
    let top = series
        .iter()
        .map(|(_, t)| t.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (820, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Coverage over time", ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(55)
            .build_cartesian_2d((PLOT_MIN_TIME..hi).log_scale(), 0..top + top / 10 + 1)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc(format!("{} per run (s)", clock.name()))
            .y_desc("problems solved")
            .x_label_formatter(&|v| format!("{v:e}"))
            .draw()
            .map_err(plot_error)?;
        for (i, (config, times)) in series.iter().enumerate() {
            let c = colour(i);
            let mut steps = vec![(PLOT_MIN_TIME, 0usize)];
            for (k, &t) in times.iter().enumerate() {
                steps.push((t, k));
                steps.push((t, k + 1));
            }
            steps.push((hi, times.len()));
            chart
                .draw_series(LineSeries::new(steps, c.stroke_width(2)))
                .map_err(plot_error)?
                .label(format!("{config} ({})", times.len()))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], c.stroke_width(2)));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}
