#!/usr/bin/env python3
"""Grounding beside Fast Downward's translator, over a suite's results.

Reads a results file (JSON lines, as `searchlab bench --out DIR` writes
DIR/results.jsonl) and compares, task by task, the time and peak memory
before the search (`translator_time`, `translator_memory`) of two
configurations: by default searchlab's `fwd-lazygbfs-ff+lmcount` and Fast
Downward's `fd-lama-first`. Prints, per domain, the tasks both recorded,
the geometric means of each side's time and peak, and their ratios
(searchlab / FD: below 1, searchlab takes less); then the same over every
task, and the tasks only one side got past grounding.

    scripts/translator-compare.py RESULTS.jsonl [OURS THEIRS]
"""

import json
import math
import sys
from collections import defaultdict


def geomean(values):
    return math.exp(sum(math.log(max(v, 1e-6)) for v in values) / len(values))


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__)
    ours, theirs = (sys.argv[2], sys.argv[3]) if len(sys.argv) == 4 else (
        "fwd-lazygbfs-ff+lmcount",
        "fd-lama-first",
    )
    runs = {}
    with open(sys.argv[1], encoding="utf-8") as results:
        for line in results:
            if line.strip():
                r = json.loads(line)
                runs[(r["config"], r["domain"], r["problem"])] = r
    by_domain = defaultdict(list)
    only = {ours: [], theirs: []}
    for (config, domain, problem), r in sorted(runs.items()):
        if config != ours:
            continue
        peer = runs.get((theirs, domain, problem))
        if peer is None:
            continue
        mine = r.get("translator_time") is not None and r.get("translator_memory")
        other = peer.get("translator_time") is not None and peer.get("translator_memory")
        if mine and other:
            by_domain[domain].append((r, peer))
        elif mine:
            only[ours].append(f"{domain} {problem}")
        elif other:
            only[theirs].append(f"{domain} {problem}")
    print(f"| domain | tasks | {ours} time (s) | {theirs} time (s) | time ratio "
          f"| {ours} peak (MiB) | {theirs} peak (MiB) | peak ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    every = []

    def row(name, pairs):
        t_ours = geomean([r["translator_time"] for r, _ in pairs])
        t_theirs = geomean([p["translator_time"] for _, p in pairs])
        m_ours = geomean([r["translator_memory"] / 2**20 for r, _ in pairs])
        m_theirs = geomean([p["translator_memory"] / 2**20 for _, p in pairs])
        print(f"| {name} | {len(pairs)} | {t_ours:.3f} | {t_theirs:.3f} | {t_ours / t_theirs:.3f} "
              f"| {m_ours:.1f} | {m_theirs:.1f} | {m_ours / m_theirs:.2f} |")

    for domain, pairs in sorted(by_domain.items()):
        row(domain, pairs)
        every.extend(pairs)
    if every:
        row("**all**", every)
    for config, tasks in only.items():
        if tasks:
            print(f"\nOnly {config} got past grounding on {len(tasks)}: {', '.join(tasks)}")


if __name__ == "__main__":
    main()
