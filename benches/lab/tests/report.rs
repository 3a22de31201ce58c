//! The reports as researchers read them: the "All" row, times to four
//! significant digits in CPU or wall time, scatter plots with their
//! unsolved lines, the HTML report, unsolved runs by cause, and the
//! disagreements `report --check` fails on.

use searchlab_lab::html::escape;
use searchlab_lab::output::{write_outputs, OutputOptions};
use searchlab_lab::plot::{scatter_svg, UNSOLVED};
use searchlab_lab::record::{write_jsonl, RunOutcome, RunRecord};
use searchlab_lab::report::{format_time, Attribute, Clock, DisagreementKind, Report, ScoreBounds};

fn solved(domain: &str, problem: &str, config: &str, cost: u64, time: f64) -> RunRecord {
    let mut r = RunRecord::new(0, domain, problem, config);
    r.outcome = RunOutcome::Solved;
    r.validated = Some(true);
    r.cost = Some(cost);
    r.plan_length = Some(1);
    r.expanded = cost;
    r.generated = cost * 2;
    r.time = time;
    r.memory = 4_000_000;
    r
}

fn failed(domain: &str, problem: &str, config: &str) -> RunRecord {
    let mut r = RunRecord::new(0, domain, problem, config);
    r.outcome = RunOutcome::Limit;
    r.limit = Some("expansions".to_owned());
    r.expanded = 1_000;
    r.time = 1.0;
    r
}

/// A and B find plans of equal cost on the problems both solve; B alone
/// solves `e/q1` (a domain A does not run on) and `d/p2` (where A fails),
/// both with a large cost.
fn extra_problem() -> Vec<RunRecord> {
    vec![
        solved("d", "p1", "A", 10, 0.5),
        solved("d", "p1", "B", 10, 0.25),
        failed("d", "p2", "A"),
        solved("d", "p2", "B", 500, 0.5),
        solved("e", "q1", "B", 1_000, 2.0),
    ]
}

#[test]
fn the_all_row_is_over_problems_every_configuration_solved() {
    let records = extra_problem();
    let report = Report::new(&records);
    let cost = report.attribute_table(Attribute::Cost);
    assert_eq!(cost.rows[0], ["d (1)", "10", "10"]);
    assert_eq!(cost.rows[1], ["e (1)", "-", "1000"]);
    assert_eq!(cost.rows.last().unwrap(), &["All (1)", "10", "10"]);
    let expansions = report.attribute_table(Attribute::Expansions);
    assert_eq!(
        expansions.rows.last().unwrap(),
        &["All (1)", "10.00", "10.00"]
    );
}

#[test]
fn times_show_four_significant_digits() {
    for (seconds, shown) in [
        (0.000_123_4, "0.0001234"),
        (0.000_012_345_6, "0.00001235"),
        (0.001, "0.001000"),
        (0.009_999_9, "0.01000"),
        (0.5, "0.5000"),
        (12.345_678, "12.35"),
        (99.995, "100.0"),
        (1234.5, "1235"),
        (60.0, "60.00"),
        (123_456.0, "123500"),
        (0.0, "0"),
    ] {
        assert_eq!(format_time(seconds), shown, "{seconds}");
    }
    // A sub-millisecond run no longer reads 0.000 in the comparison.
    let records = vec![
        solved("d", "p", "A", 1, 0.000_123_4),
        solved("d", "p", "B", 1, 0.000_5),
    ];
    let report = Report::new(&records);
    let table = report.compare_table("A", "B");
    let time = table
        .headers
        .iter()
        .position(|h| h == "wall time A")
        .unwrap();
    assert_eq!(table.rows[0][time..time + 2], ["0.0001234", "0.0005000"]);
    assert!(table.to_console().contains("0.0001234"));
    assert!(table.to_markdown().contains("0.0001234"));
    // Geometric means, clamped to 0.01 s as in Lab, show four digits too.
    let records = vec![
        solved("d", "p", "A", 1, 0.01),
        solved("d", "q", "A", 1, 0.02),
    ];
    let times = Report::new(&records).attribute_table(Attribute::Time);
    assert_eq!(times.rows.last().unwrap(), &["All (2)", "0.01414"]);
}

#[test]
fn reports_use_cpu_time_where_every_compared_run_recorded_it() {
    let mut records = vec![
        solved("d", "p", "fwd-x", 1, 2.0),
        solved("d", "p", "reg-x", 1, 4.0),
        failed("d", "q", "fwd-x"),
        failed("d", "q", "reg-x"),
    ];
    for r in &mut records {
        r.cpu_time = Some(r.time / 2.0);
    }
    // The portfolio records no CPU time: the tables that include it show
    // wall time, the others CPU time.
    let mut portfolio = solved("d", "p", "por-x", 1, 3.0);
    portfolio.cpu_time = None;
    records.push(portfolio);
    let report = Report::new(&records);
    assert_eq!(
        report.clock(&["fwd-x".to_owned(), "reg-x".to_owned()]),
        Clock::Cpu
    );
    assert_eq!(report.clock(report.configs()), Clock::Wall);

    let pair = ["fwd-x".to_owned(), "reg-x".to_owned()];
    let times = report.attribute_table_for(Attribute::Time, &pair);
    assert!(times.title.contains("CPU time"), "{}", times.title);
    assert_eq!(times.rows.last().unwrap(), &["All (1)", "1.000", "2.000"]);
    let all = report.attribute_table(Attribute::Time);
    assert!(all.title.contains("wall time"), "{}", all.title);
    assert_eq!(
        all.rows.last().unwrap(),
        &["All (1)", "2.000", "4.000", "3.000"]
    );

    let compared = report.compare_table("fwd-x", "reg-x");
    let time = compared
        .headers
        .iter()
        .position(|h| h == "CPU time A")
        .unwrap();
    assert_eq!(compared.rows[0][time..time + 2], ["1.000", "2.000"]);
    let directions = report.direction_table();
    assert_eq!(directions.headers[8..], ["CPU time fwd", "CPU time reg"]);
    assert_eq!(directions.rows[0][8..], ["1.000", "2.000"]);
    let markdown = report.markdown("t", ScoreBounds::default(), &[]);
    assert!(markdown.contains("CPU time") && markdown.contains("wall time"));
}

/// The forward-against-regression table is searchlab's own, not Lab's: runs
/// under 10 ms keep their times (every cell read `0.01000`, Lab's floor),
/// and the coverage table's legend says what the configuration names mean.
#[test]
fn fast_runs_keep_their_times_and_names_are_explained() {
    let records = vec![
        solved("d", "p", "fwd-gbfs-mismatch", 1, 0.0002),
        solved("d", "p", "reg-gbfs-mismatch", 1, 0.00004),
    ];
    let report = Report::new(&records);
    let directions = report.direction_table();
    assert_eq!(directions.rows[0][8..], ["0.0002000", "0.00004000"]);
    let times = report.attribute_table(Attribute::Time);
    assert_eq!(times.rows.last().unwrap()[1..], ["0.01000", "0.01000"]);
    let legend = report.coverage_table().notes.join(" ");
    for part in [
        "fwd: forward",
        "reg: regression",
        "gbfs: greedy best-first search",
        "mismatch: goal atoms a state gets wrong",
    ] {
        assert!(legend.contains(part), "{part} in {legend}");
    }
}

/// The `(x, y)` coordinates of `points="x,y x,y"` in an SVG element.
fn polyline_points(element: &str) -> Vec<(i32, i32)> {
    let points = attr(element, "points").unwrap();
    points
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

fn attr<'s>(element: &'s str, name: &str) -> Option<&'s str> {
    let start = element.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = element[start..].find('"')?;
    Some(&element[start..start + len])
}

/// The elements `<tag .../>` or `<tag ...>` of an SVG document.
fn elements<'s>(svg: &'s str, tag: &str) -> Vec<&'s str> {
    svg.match_indices(&format!("<{tag} "))
        .map(|(i, _)| &svg[i..i + svg[i..].find('>').unwrap()])
        .collect()
}

#[test]
fn scatter_plots_put_failed_runs_on_labelled_unsolved_lines() {
    let records = vec![
        solved("d", "both", "A", 10, 0.1),
        solved("d", "both", "B", 20, 0.1),
        solved("d", "only-a", "A", 30, 0.1),
        failed("d", "only-a", "B"),
        failed("d", "only-b", "A"),
        solved("d", "only-b", "B", 40, 0.1),
    ];
    for attribute in [Attribute::Expansions, Attribute::Time] {
        let svg = scatter_svg(&records, "A", "B", attribute).unwrap();
        let labels = svg.matches(&format!(">\n{UNSOLVED}\n</text>")).count();
        assert_eq!(labels, 2, "one label per axis");
        // The grey lines: one horizontal (B unsolved), one vertical (A).
        let lines: Vec<Vec<(i32, i32)>> = elements(&svg, "polyline")
            .into_iter()
            .filter(|e| attribute_is(e, "stroke", "#808080"))
            .map(polyline_points)
            .collect();
        assert_eq!(lines.len(), 2, "{svg}");
        let top = lines.iter().find(|l| l[0].1 == l[1].1).unwrap()[0].1;
        let right = lines.iter().find(|l| l[0].0 == l[1].0).unwrap()[0].0;
        let circles: Vec<(i32, i32)> = elements(&svg, "circle")
            .into_iter()
            .map(|e| {
                let at = |n| attr(e, n).unwrap().parse::<i32>().unwrap();
                (at("cx"), at("cy"))
            })
            .collect();
        // Three points and the legend's marker.
        assert_eq!(circles.len(), 4, "{circles:?}");
        let on_top: Vec<_> = circles.iter().filter(|c| c.1 == top).collect();
        let on_right: Vec<_> = circles.iter().filter(|c| c.0 == right).collect();
        assert_eq!((on_top.len(), on_right.len()), (1, 1), "{circles:?}");
        assert!(on_top[0].0 < right && on_right[0].1 > top);
    }
}

fn attribute_is(element: &str, name: &str, value: &str) -> bool {
    attr(element, name).is_some_and(|v| v.eq_ignore_ascii_case(value))
}

/// Checks that `page` is well-formed as XML, past a leading `<!DOCTYPE>`:
/// every element closed in order, attributes quoted, `&` only in
/// entities, no stray `<`. `script` and `style` hold raw text, as in HTML.
fn check_well_formed(page: &str) -> Result<(), String> {
    fn entities(text: &str, at: usize) -> Result<(), String> {
        for (i, _) in text.match_indices('&') {
            let rest = &text[i + 1..];
            let end = rest.find(';').ok_or(format!("bare & at {}", at + i))?;
            let name = &rest[..end];
            let ok = !name.is_empty()
                && (name.chars().all(|c| c.is_ascii_alphanumeric())
                    || name
                        .strip_prefix('#')
                        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())));
            if !ok {
                return Err(format!("bad entity &{name}; at {}", at + i));
            }
        }
        Ok(())
    }
    let mut rest = page.trim_start();
    if rest.starts_with("<!DOCTYPE") {
        rest = &rest[rest.find('>').ok_or("unclosed doctype")? + 1..];
    }
    let at = |rest: &str| page.len() - rest.len();
    let mut open: Vec<&str> = Vec::new();
    while let Some(lt) = rest.find('<') {
        entities(&rest[..lt], at(rest))?;
        rest = &rest[lt..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = &comment[comment.find("-->").ok_or("unclosed comment")? + 3..];
        } else if let Some(close) = rest.strip_prefix("</") {
            let end = close.find('>').ok_or("unclosed end tag")?;
            let name = close[..end].trim();
            match open.pop() {
                Some(top) if top == name => {}
                top => return Err(format!("</{name}> closes {top:?} at {}", at(rest))),
            }
            rest = &close[end + 1..];
        } else {
            let tag = &rest[1..];
            let name_len = tag
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == ':'))
                .unwrap_or(tag.len());
            let name = &tag[..name_len];
            if name.is_empty() {
                return Err(format!("stray < at {}", at(rest)));
            }
            let mut attrs = &tag[name_len..];
            let closed = loop {
                attrs = attrs.trim_start();
                if let Some(after) = attrs.strip_prefix("/>") {
                    attrs = after;
                    break true;
                }
                if let Some(after) = attrs.strip_prefix('>') {
                    attrs = after;
                    break false;
                }
                let eq = attrs
                    .find('=')
                    .ok_or(format!("attribute without value in <{name}>"))?;
                let key = &attrs[..eq];
                if key.is_empty() || key.contains(|c: char| c.is_whitespace() || c == '>') {
                    return Err(format!("bad attribute {key:?} in <{name}>"));
                }
                let value = attrs[eq + 1..]
                    .strip_prefix('"')
                    .ok_or(format!("unquoted attribute {key} in <{name}>"))?;
                let end = value.find('"').ok_or("unclosed attribute value")?;
                if value[..end].contains('<') {
                    return Err(format!("< in attribute {key} of <{name}>"));
                }
                entities(&value[..end], at(value))?;
                attrs = &value[end + 1..];
            };
            rest = attrs;
            if !closed {
                if name == "script" || name == "style" {
                    let end = rest
                        .find(&format!("</{name}>"))
                        .ok_or("unclosed raw text")?;
                    rest = &rest[end + name.len() + 3..];
                } else {
                    open.push(name);
                }
            }
        }
    }
    entities(rest, at(rest))?;
    if open.is_empty() {
        Ok(())
    } else {
        Err(format!("unclosed: {open:?}"))
    }
}

#[test]
fn the_well_formedness_check_catches_broken_pages() {
    assert_eq!(
        check_well_formed("<!DOCTYPE html><p a=\"1\">x &amp; y<br/></p>"),
        Ok(())
    );
    for broken in [
        "<p><b></p></b>",
        "<p>",
        "<p a=1></p>",
        "<p>a & b</p>",
        "<p>a < b</p>",
        "<p a=\"<\"></p>",
        "</p>",
    ] {
        assert!(check_well_formed(broken).is_err(), "{broken}");
    }
}

#[test]
fn the_html_report_is_well_formed_self_contained_and_has_every_table() {
    // Names that must be escaped; a direction pair, so that every table
    // and plot is there; CPU times; a failed run.
    let odd_domain = "d<&>\"'";
    let mut records = vec![
        solved(odd_domain, "p1", "fwd-x", 10, 0.000_2),
        solved(odd_domain, "p1", "reg-x", 10, 0.3),
        solved(odd_domain, "p2", "fwd-x", 20, 0.5),
        failed(odd_domain, "p2", "reg-x"),
        solved("e", "q1", "fwd-x", 5, 0.1),
        solved("e", "q1", "reg-x", 5, 0.2),
        solved("e", "q1", "odd<b>&'\"", 5, 0.2),
    ];
    for r in &mut records {
        r.cpu_time = Some(r.time);
    }
    let dir = std::env::temp_dir().join(format!("searchlab-report-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let options = OutputOptions {
        title: "suite <&>".to_owned(),
        compare: vec![("fwd-x".to_owned(), "reg-x".to_owned())],
        ..OutputOptions::default()
    };
    let written = write_outputs(&records, &dir, &options).unwrap();
    assert!(written.contains(&dir.join("report.html")), "{written:?}");
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();

    check_well_formed(&html).unwrap();
    assert!(!html.contains("odd<b>") && html.contains("odd&lt;b&gt;&amp;"));
    // Self-contained: nothing loaded from elsewhere.
    for external in ["src=", "href=\"http", "<link", "url(", "@import"] {
        assert!(!html.contains(external), "{external}");
    }
    // Every section and table of the Markdown report, in the same order.
    let headings: Vec<(usize, &str)> = markdown
        .lines()
        .filter_map(|l| {
            l.strip_prefix("### ")
                .map(|t| (3, t))
                .or_else(|| l.strip_prefix("## ").map(|t| (2, t)))
        })
        .collect();
    let tables = headings.iter().filter(|(level, _)| *level == 3).count();
    assert_eq!(tables, 13, "{headings:?}");
    let mut from = 0;
    for (level, title) in &headings {
        let tag = format!("<h{level}");
        let text = format!(">{}</h{level}>", escape(title));
        let found = html[from..]
            .find(&text)
            .unwrap_or_else(|| panic!("no {tag} {title}"));
        from += found;
        if *level == 3 {
            assert!(html[from..].starts_with(&format!(
                "{text}\n<div class=\"scroll\"><table class=\"sortable\">"
            )));
        }
    }
    assert_eq!(html.matches("<table").count(), tables);
    // The Markdown's plots, inline: coverage and two scatter plots.
    let plots = markdown.matches("![").count();
    assert_eq!(plots, 3);
    assert_eq!(html.matches("<svg ").count(), plots);
    assert_eq!(html.matches(&format!("\n{UNSOLVED}\n")).count(), 4);
    // The sub-millisecond CPU time, to four digits, and the script.
    assert!(html.contains("<td class=\"num\">0.0002000</td>"));
    assert!(html.contains("<script>") && html.contains("aria-sort"));
}

fn unsolvable(domain: &str, problem: &str, config: &str) -> RunRecord {
    let mut r = RunRecord::new(0, domain, problem, config);
    r.outcome = RunOutcome::Unsolvable;
    r
}

fn refused(domain: &str, problem: &str, config: &str, message: &str) -> RunRecord {
    let mut r = RunRecord::new(0, domain, problem, config);
    r.error = Some(message.to_owned());
    r
}

/// Runs `searchlab report FILE --check` on `records`, written as a results
/// file of its own.
fn check_exit_code(name: &str, records: &[RunRecord]) -> std::process::ExitCode {
    let dir = std::env::temp_dir().join(format!("searchlab-check-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join("results.jsonl");
    write_jsonl(&results, records).unwrap();
    let code = searchlab_lab::Lab::new().run([
        "searchlab".as_ref(),
        "report".as_ref(),
        results.as_os_str(),
        "--check".as_ref(),
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
    code
}

#[test]
fn the_check_fails_on_differing_optimal_costs_and_on_unsolvable_solved_problems() {
    let records = vec![
        // Two optimal claims with different costs; a greedy plan dearer
        // than both claims nothing.
        solved("d", "p1", "fwd-astar-lmcut", 10, 0.1),
        solved("d", "p1", "fd-astar-lmcut", 12, 0.1),
        solved("d", "p1", "fwd-gbfs-ff", 14, 0.1),
        // `unsolvable` where an optimal search found a valid plan.
        solved("d", "p2", "fwd-astar-lmcut", 7, 0.1),
        solved("d", "p2", "fd-astar-lmcut", 7, 0.1),
        unsolvable("d", "p2", "fwd-gbfs-ff"),
        // A weighted A* claims no optimum: its dearer plan is no
        // disagreement.
        solved("d", "p3", "fwd-astar-lmcut", 5, 0.1),
        solved("d", "p3", "fwd-wastar2-hmax", 6, 0.1),
    ];
    let report = Report::new(&records);
    assert_eq!(
        report.optimal_configs(),
        ["fwd-astar-lmcut", "fd-astar-lmcut"]
    );
    let disagreements = report.disagreements();
    let found: Vec<(&str, DisagreementKind)> = disagreements
        .iter()
        .map(|d| (d.problem.as_str(), d.kind))
        .collect();
    assert_eq!(
        found,
        [
            ("p1", DisagreementKind::OptimalCost),
            ("p2", DisagreementKind::UnsolvableSolved)
        ]
    );
    assert_eq!(
        disagreements[0].answers,
        ["fwd-astar-lmcut: cost 10", "fd-astar-lmcut: cost 12"]
    );
    assert_eq!(
        disagreements[1].answers,
        [
            "fwd-gbfs-ff: unsolvable",
            "fwd-astar-lmcut: cost 7",
            "fd-astar-lmcut: cost 7"
        ]
    );
    let table = report.disagreement_table();
    assert_eq!(table.title, "Disagreements (2)");
    assert!(report.console_summary().contains("Disagreements (2)"));
    assert_eq!(
        report.check().unwrap_err(),
        "check failed: 2 disagreements and 0 invalid plans in 8 runs"
    );
    assert_eq!(
        check_exit_code("disagree", &records),
        std::process::ExitCode::from(1)
    );

    // A greedy plan cheaper than the claimed optimum proves the claim
    // wrong too.
    let cheaper = vec![
        solved("d", "p1", "fwd-astar-lmcut", 10, 0.1),
        solved("d", "p1", "fwd-gbfs-ff", 9, 0.1),
    ];
    let answers = &Report::new(&cheaper).disagreements()[0].answers;
    assert_eq!(
        answers,
        &[
            "fwd-astar-lmcut: cost 10",
            "fwd-gbfs-ff (claims no optimum): cost 9"
        ]
    );
}

#[test]
fn the_check_passes_on_answers_that_agree_and_fails_on_an_invalid_plan() {
    let mut records = vec![
        solved("d", "p1", "fwd-astar-lmcut", 10, 0.1),
        solved("d", "p1", "fd-astar-lmcut", 10, 0.1),
        solved("d", "p1", "fwd-gbfs-ff", 14, 0.1),
        // Unsolvable by every configuration that answered.
        unsolvable("d", "p2", "fwd-astar-lmcut"),
        unsolvable("d", "p2", "fd-astar-lmcut"),
        failed("d", "p2", "fwd-gbfs-ff"),
    ];
    let report = Report::new(&records);
    assert!(report.disagreements().is_empty());
    assert_eq!(
        report.check().unwrap(),
        "check passed: 0 disagreements and 0 invalid plans in 6 runs"
    );
    assert_eq!(
        check_exit_code("clean", &records),
        std::process::ExitCode::SUCCESS
    );
    records[2].validated = Some(false);
    assert_eq!(
        check_exit_code("invalid", &records),
        std::process::ExitCode::from(1)
    );
}

#[test]
fn the_unsolved_table_names_each_cause_and_groups_refusals_by_kind() {
    let derived = "x/domain.pddl / x/p01.pddl: domain:2:23: unsupported requirement \
                   `:derived-predicates` (searchlab reads ADL with :action-costs)";
    let mut panicked = refused("d", "p4", "A", "panic: index out of bounds: the len is 3");
    panicked.outcome = RunOutcome::Panic;
    let mut incomplete = RunRecord::new(0, "d", "p5", "B");
    incomplete.outcome = RunOutcome::NoPlanFound;
    let records = vec![
        refused("d", "p1", "A", derived),
        refused(
            "d",
            "p2",
            "A",
            "x/domain.pddl / x/p2.pddl: problem:4:9: `at` takes 1 argument(s), 2 given",
        ),
        refused(
            "d",
            "p3",
            "A",
            "x/domain.pddl / x/p3.pddl: domain:7:30: `road` takes 2 argument(s), 3 given",
        ),
        refused("d", "p1", "B", derived),
        failed("d", "p2", "B"),
        panicked,
        incomplete,
        unsolvable("e", "q1", "A"),
        solved("e", "q1", "B", 3, 0.1),
    ];
    let table = Report::new(&records).unsolved_table();
    assert_eq!(table.headers, ["domain", "cause", "A", "B"]);
    let rows: Vec<Vec<&str>> = table
        .rows
        .iter()
        .map(|r| r.iter().map(String::as_str).collect())
        .collect();
    let arity = "error: `…` takes N argument(s), N given";
    let requirement = "error: unsupported requirement `:derived-predicates`";
    let panic = "panic: index out of bounds";
    assert_eq!(
        rows,
        [
            vec!["d", "limit: expansions", "", "1"],
            vec!["d", "no_plan_found", "", "1"],
            vec!["d", arity, "2", ""],
            vec!["d", requirement, "1", "1"],
            vec!["d", panic, "1", ""],
            vec!["e", "unsolvable", "1", ""],
            vec!["All", "limit: expansions", "", "1"],
            vec!["All", "no_plan_found", "", "1"],
            vec!["All", "unsolvable", "1", ""],
            vec!["All", arity, "2", ""],
            vec!["All", requirement, "1", "1"],
            vec!["All", panic, "1", ""],
        ]
    );
    assert_eq!(table.total_rows, 6);
    // Every unsolved run is counted once, under its cause.
    let counted: usize = rows[6..]
        .iter()
        .flat_map(|r| r[2..].iter())
        .filter_map(|c| c.parse::<usize>().ok())
        .sum();
    assert_eq!(counted, records.iter().filter(|r| !r.solved()).count());
}
