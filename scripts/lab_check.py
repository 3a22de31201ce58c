#!/usr/bin/env python3
"""Loads the Lab `properties` file of a searchlab result directory with
Downward Lab's own report classes, and checks that Lab's coverage table
equals searchlab's (the one in the directory's report.md): every domain and
algorithm, the sums, the number of problems per domain, and the counts of
runs, algorithms, domains and flagged runs. It prints both tables and exits
with 1 on any difference.

Needs the `lab` package (Downward Lab); scripts/lab-check.sh installs it and
runs this. Not used by `cargo test` or CI.

    python scripts/lab_check.py DIR

DIR is what `searchlab bench --out DIR` or `searchlab report ... --out DIR`
wrote. Lab's own HTML report of coverage and errors goes to
DIR/lab-report.html.
"""

import os
import re
import sys

from downward.reports.absolute import AbsoluteReport
from lab import tools

COVERAGE_TITLE = "### Coverage (problems solved with a valid plan)"


class CoverageReport(AbsoluteReport):
    """Lab's AbsoluteReport, keeping the coverage table it renders and what
    it read."""

    def write(self):
        attribute = next(a for a in self.attributes if a == "coverage")
        # The same call that renders the report's coverage section.
        self.coverage = self._get_suite_table(attribute)
        self.unexplained = sum(tools.has_unexplained_error(run) for run in self.runs.values())
        super().write()


def lab_tables(directory):
    """Lab's coverage per (domain, algorithm), its sums per algorithm, and
    what it read: problems per domain, runs, algorithms, flagged runs."""
    report = CoverageReport(attributes=["coverage", "error"], format="html")
    report(directory, os.path.join(directory, "lab-report.html"))
    table = report.coverage
    cells = {(d, a): table[d].get(a) for d in report.domains for a in report.algorithms}
    (sums,) = table.get_summary_rows().values()
    return {
        "cells": cells,
        "sums": {a: sums.get(a) for a in report.algorithms},
        "problems": {d: len(problems) for d, problems in report.domains.items()},
        "runs": len(report.runs),
        "properties": len(report.props),
        "algorithms": report.algorithms,
        "unexplained": report.unexplained,
    }


def label(cell):
    """`name (N)` as (name, N)."""
    match = re.fullmatch(r"(.*) \((\d+)\)", cell)
    if not match:
        sys.exit(f"report.md: `{cell}` is not `name (count)`")
    return match.group(1), int(match.group(2))


def searchlab_tables(directory):
    """searchlab's coverage table and counts, read from DIR/report.md."""
    with open(os.path.join(directory, "report.md"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    counts = re.match(r"(\d+) runs, (\d+) configurations, (\d+) domains\.", lines[2])
    if not counts:
        sys.exit(f"report.md, line 3: no run counts in `{lines[2]}`")
    runs, configs, domains = map(int, counts.groups())
    warnings = 0
    if "## Warnings" in lines:
        start = lines.index("## Warnings") + 2
        while lines[start + warnings].startswith("- **"):
            warnings += 1
    start = lines.index(COVERAGE_TITLE) + 2
    row = lambda line: [c.strip() for c in line.strip().strip("|").split("|")]
    algorithms = row(lines[start])[1:]
    cells, sums, problems = {}, {}, {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        first, *values = row(line)
        values = [None if v == "-" else int(v) for v in values]
        name, count = label(first)
        if name == "Sum":
            sums = dict(zip(algorithms, values))
        else:
            problems[name] = count
            cells.update({(name, a): v for a, v in zip(algorithms, values)})
    return {
        "cells": cells,
        "sums": sums,
        "problems": problems,
        "runs": runs,
        "properties": runs,
        "algorithms": algorithms,
        "unexplained": warnings,
        "domain_count": domains,
        "config_count": configs,
    }


def show(title, tables, domains, algorithms):
    """Prints a coverage table, algorithms as rows (`-`: no runs)."""
    cell = lambda v: "-" if v is None else str(v)
    headers = ["algorithm"] + [f"{d} ({tables['problems'].get(d, '?')})" for d in domains] + ["Sum"]
    rows = [
        [a] + [cell(tables["cells"].get((d, a))) for d in domains] + [cell(tables["sums"].get(a))]
        for a in algorithms
    ]
    widths = [max(len(r[i]) for r in [headers] + rows) for i in range(len(headers))]
    print(title)
    for r in [headers] + rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    print()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    directory = os.path.abspath(sys.argv[1])
    ours = searchlab_tables(directory)
    lab = lab_tables(directory)
    domains = list(ours["problems"])
    print()
    show("searchlab (report.md)", ours, domains, ours["algorithms"])
    show("Downward Lab (AbsoluteReport, attribute coverage)", lab, domains, ours["algorithms"])

    differences = []
    for what in ["cells", "sums", "problems", "runs", "properties", "unexplained"]:
        a, b = ours[what], lab[what]
        if isinstance(a, dict):
            differences += [
                f"{what} {key}: searchlab {a.get(key)!r}, Lab {b.get(key)!r}"
                for key in sorted(set(a) | set(b), key=str)
                if a.get(key) != b.get(key)
            ]
        elif a != b:
            differences.append(f"{what}: searchlab {a!r}, Lab {b!r}")
    if sorted(ours["algorithms"]) != sorted(lab["algorithms"]):
        differences.append(f"algorithms: searchlab {ours['algorithms']}, Lab {lab['algorithms']}")
    if ours["domain_count"] != len(lab["problems"]):
        differences.append(f"domains: searchlab {ours['domain_count']}, Lab {len(lab['problems'])}")
    if ours["config_count"] != len(lab["algorithms"]):
        differences.append(f"algorithms: searchlab {ours['config_count']}, Lab {len(lab['algorithms'])}")
    if differences:
        print("DIFFERENT:")
        for d in differences:
            print(f"  {d}")
        sys.exit(1)
    solved = sum(v for v in lab["sums"].values() if v)
    print(
        f"EQUAL: {lab['runs']} runs, {len(lab['problems'])} domains, "
        f"{len(lab['algorithms'])} algorithms, {solved} solved, "
        f"{lab['unexplained']} with unexplained errors"
    )


if __name__ == "__main__":
    main()
