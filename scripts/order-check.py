#!/usr/bin/env python3
"""Does the order in which a task file lists its `:init` facts and objects
change a search? Runs `searchlab plan` on each task as given and with its
`:init` and `:objects` shuffled five ways (comments removed), and prints the
states expanded and the plan cost of each order.

    scripts/order-check.py [--searchlab BIN] [--args "-a gbfs --heuristic ff"] \
        DOMAIN:TASK [DOMAIN:TASK ...]

BIN defaults to target/release/searchlab. The shuffled files go to a
temporary directory, removed at the end. BENCHMARKS.md ("One result whatever
the order of the files") ran it with the build before and after the grounder
numbered facts and operators by name.
"""

import argparse
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def items(body: str) -> tuple[list[str], int]:
    """The top-level items of a section's body and where its `)` is."""
    out, depth, current = [], 0, ""
    for at, c in enumerate(body):
        if c == ")" and depth == 0:
            if current.strip():
                out.append(current.strip())
            return out, at
        if c.isspace() and depth == 0:
            if current.strip():
                out.append(current.strip())
            current = ""
        else:
            depth += (c == "(") - (c == ")")
            current += c
    sys.exit("unbalanced section")


def typed(tokens: list[str]) -> list[str]:
    """`a b - t c` as `["a - t", "b - t", "c"]`."""
    out, pending = [], []
    it = iter(tokens)
    for token in it:
        if token == "-":
            ty = next(it)
            out += [f"{name} - {ty}" for name in pending]
            pending = []
        else:
            pending.append(token)
    return out + pending


def shuffled(text: str, seed: int) -> str:
    rng = random.Random(seed)
    text = re.sub(r";[^\n]*", "", text)
    for keyword in ("(:init", "(:objects"):
        start = text.lower().find(keyword)
        if start < 0:
            continue
        start += len(keyword)
        section, end = items(text[start:])
        if keyword == "(:objects":
            section = typed(section)
        rng.shuffle(section)
        text = text[:start] + " " + " ".join(section) + text[start + end :]
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--searchlab", default="target/release/searchlab")
    parser.add_argument("--args", default="-a gbfs --heuristic ff --max-time 20")
    parser.add_argument("tasks", nargs="+", metavar="DOMAIN:TASK")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        for pair in options.tasks:
            domain, task = pair.split(":", 1)
            text = Path(task).read_text()
            found = []
            for seed in range(6):
                path = Path(scratch) / f"{seed}-{Path(task).name}"
                path.write_text(text if seed == 0 else shuffled(text, seed))
                command = [options.searchlab, "plan", domain, str(path), *options.args.split()]
                out = subprocess.run(command, capture_output=True, text=True).stdout
                value = lambda key: (re.search(rf"^; {key}\s+(\d+)", out, re.M) or [None, "-"])[1]
                found.append((value("expanded"), value("cost")))
            expanded = " ".join(e for e, _ in found)
            costs = " ".join(c for _, c in found)
            print(f"{task}: expanded {expanded}; cost {costs}")


if __name__ == "__main__":
    main()
