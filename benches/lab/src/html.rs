//! The HTML report, as Downward Lab's `AbsoluteReport`: one self-contained
//! file with the Markdown report's sections and tables, the SVG plots
//! inline, inline CSS and a few lines of script that sort a table by the
//! column whose header is clicked. Nothing is fetched from elsewhere.
//!
//! The page is also well-formed XML (every element closed, attributes
//! quoted, text escaped), which the tests check.

use std::fmt::Write as _;

use crate::report::{Report, ScoreBounds, Section, Table};

/// A plot to embed: its caption and SVG text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plot {
    /// The caption under the plot.
    pub caption: String,
    /// The SVG document, as the plotters SVG backend writes it.
    pub svg: String,
}

/// `text` with the characters that HTML gives a meaning escaped.
///
/// ```
/// use searchlab_lab::html::escape;
/// assert_eq!(escape("a<b & \"c\"'"), "a&lt;b &amp; &quot;c&quot;&#39;");
/// ```
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A note's text, escaped, with its Markdown `code` spans as `<code>`.
fn inline(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    // An unpaired backtick stays a backtick.
    if parts.len().is_multiple_of(2) {
        return escape(text);
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", escape(part))
            } else {
                escape(part)
            }
        })
        .collect()
}

/// A fragment id for a heading: lower case, runs of other characters as
/// one `-`.
fn anchor(heading: &str) -> String {
    let mut out = String::new();
    for c in heading.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_owned()
}

impl Table {
    /// The table as HTML: an `<h3>` title, a sortable `<table>` (its
    /// total rows in `<tfoot>`, numbers right-aligned) and its notes.
    pub fn to_html(&self) -> String {
        let mut out = format!(
            "<h3>{}</h3>\n<div class=\"scroll\"><table class=\"sortable\">\n<thead><tr>",
            escape(&self.title)
        );
        for (i, h) in self.headers.iter().enumerate() {
            let class = if i < self.label_columns {
                ""
            } else {
                " class=\"num\""
            };
            let _ = write!(out, "<th{class} title=\"sort\">{}</th>", escape(h));
        }
        out.push_str("</tr></thead>\n");
        let split = self.rows.len().saturating_sub(self.total_rows);
        let (body, totals) = self.rows.split_at(split);
        for (tag, rows) in [("tbody", body), ("tfoot", totals)] {
            if rows.is_empty() && tag == "tfoot" {
                continue;
            }
            let _ = writeln!(out, "<{tag}>");
            for row in rows {
                out.push_str("<tr>");
                for (i, cell) in row.iter().enumerate() {
                    let class = if i < self.label_columns {
                        ""
                    } else {
                        " class=\"num\""
                    };
                    let _ = write!(out, "<td{class}>{}</td>", escape(cell));
                }
                out.push_str("</tr>\n");
            }
            let _ = writeln!(out, "</{tag}>");
        }
        out.push_str("</table></div>\n");
        for note in &self.notes {
            let _ = writeln!(out, "<p class=\"note\">{}</p>", inline(note));
        }
        out
    }
}

const STYLE: &str = "
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1400px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; } h3 { font-size: 1.05em; margin: 1.6em 0 0.4em; }
nav a { margin-right: 1em; }
table { border-collapse: collapse; font-size: 0.9em; font-variant-numeric: tabular-nums; }
div.scroll { overflow-x: auto; max-width: 100%; }
th, td { border: 1px solid #ddd; padding: 0.2em 0.6em; text-align: left; white-space: nowrap; }
th { background: #f0f0f0; cursor: pointer; user-select: none; vertical-align: bottom; white-space: normal; min-width: 4em; }
th.num, td.num { text-align: right; }
th[aria-sort=ascending]::after { content: ' \\25B2'; } th[aria-sort=descending]::after { content: ' \\25BC'; }
tbody tr:nth-child(even) { background: #fafafa; } tbody tr:hover { background: #eef4ff; }
tfoot td { font-weight: bold; border-top: 2px solid #999; }
p.note { color: #555; font-size: 0.85em; margin: 0.3em 0; }
ul.warnings li { color: #b00; font-weight: bold; }
figure { display: inline-block; margin: 1em 1em 1em 0; vertical-align: top; }
figure svg { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { color: #555; font-size: 0.85em; }
";

// No `<` or `&` in it, so that it reads the same as HTML and as XML.
const SCRIPT: &str = "
document.querySelectorAll('table.sortable th').forEach(function (th) {
  th.addEventListener('click', function () {
    var table = th.closest('table');
    var body = table.tBodies[0];
    var column = Array.prototype.indexOf.call(th.parentNode.children, th);
    var ascending = th.getAttribute('aria-sort') !== 'ascending';
    table.querySelectorAll('th').forEach(function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (x, y) {
      var a = x.cells[column].textContent, b = y.cells[column].textContent;
      var m = parseFloat(a), n = parseFloat(b);
      // Cells without a number (-, limit ...) stay last either way.
      if (isNaN(m) !== isNaN(n)) { return isNaN(m) ? 1 : -1; }
      var order = isNaN(m) ? a.localeCompare(b, undefined, { numeric: true }) : m - n;
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  });
});
";

/// The HTML report: `title`, the [`Report::sections`] and `plots` (in a
/// last `Plots` section), in one self-contained page.
pub fn html_report(
    report: &Report,
    title: &str,
    bounds: ScoreBounds,
    compare: &[(String, String)],
    plots: &[Plot],
) -> String {
    let mut sections = report.sections(bounds, compare);
    if !plots.is_empty() {
        sections.push(Section {
            heading: "Plots".to_owned(),
            ..Section::default()
        });
    }
    let mut out =
        String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n");
    let _ = writeln!(
        out,
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(out, "<style>{STYLE}</style>\n</head>\n<body>");
    let _ = writeln!(out, "<h1>{}</h1>", escape(title));
    let _ = writeln!(out, "<p>{}</p>", escape(&report.summary_line()));
    out.push_str("<nav>");
    for s in &sections {
        let _ = write!(
            out,
            "<a href=\"#{}\">{}</a>",
            anchor(&s.heading),
            escape(&s.heading)
        );
    }
    out.push_str("</nav>\n");
    for section in &sections {
        let _ = writeln!(
            out,
            "<h2 id=\"{}\">{}</h2>",
            anchor(&section.heading),
            escape(&section.heading)
        );
        if !section.warnings.is_empty() {
            out.push_str("<ul class=\"warnings\">\n");
            for w in &section.warnings {
                let _ = writeln!(out, "<li>{}</li>", escape(w));
            }
            out.push_str("</ul>\n");
        }
        for table in &section.tables {
            out.push_str(&table.to_html());
        }
    }
    for plot in plots {
        // The plotters SVG is well-formed XML with its text escaped.
        let _ = writeln!(
            out,
            "<figure>\n{}<figcaption>{}</figcaption>\n</figure>",
            plot.svg,
            escape(&plot.caption)
        );
    }
    let _ = writeln!(out, "<script>{SCRIPT}</script>\n</body>\n</html>");
    out
}
