#!/usr/bin/env python3
"""Ratios of one suite run's configurations, for BENCHMARKS.md: searchlab
(B) against a peer (A) on the tasks both solved.

    scripts/peer-ratios.py results.jsonl fd-astar-blind fwd-astar-blind [A B ...]

Prints, per pair: tasks both solved, tasks whose costs differ, expansions
B/A (median, geometric mean, tasks outside +-15%), search CPU time B/A over
the tasks where A needs at least 10 ms (median, geometric mean), and bytes
per stored state of each (median over the tasks where both stored more
than 10,000 states; a peer's bytes are its process's peak memory,
searchlab's its estimate of the search's memory)."""

import json, math, statistics, sys


def gm(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def main():
    path, pairs = sys.argv[1], sys.argv[2:]
    runs = {}
    for line in open(path):
        r = json.loads(line)
        runs[(r["domain"], r["problem"], r["config"])] = r
    solved = lambda r: r is not None and r["outcome"] == "solved" and r["validated"]
    for a, b in zip(pairs[::2], pairs[1::2]):
        tasks = sorted({(d, p) for (d, p, c) in runs if c == a})
        both = [(d, p) for d, p in tasks if solved(runs.get((d, p, a))) and solved(runs.get((d, p, b)))]
        ra = lambda t: runs[(*t, a)]
        rb = lambda t: runs[(*t, b)]
        differ = [f"{d}/{p}" for d, p in both if ra((d, p))["cost"] != rb((d, p))["cost"]]
        exp = [max(rb(t)["expanded"], 1) / max(ra(t)["expanded"], 1) for t in both]
        outside = [f"{t[0]}/{t[1]} ({e:.2f})" for t, e in zip(both, exp) if abs(e - 1) > 0.15]
        # CPU time where both have it (the peers report CPU time), else wall.
        cpu = lambda r: r.get("cpu_time") if r.get("cpu_time") is not None else r["time"]
        timed = [t for t in both if cpu(ra(t)) >= 0.01]
        time = [max(cpu(rb(t)), 1e-4) / cpu(ra(t)) for t in timed]
        big = [t for t in both if ra(t).get("stored", 0) > 10_000 and rb(t).get("stored", 0) > 10_000]
        bpa = [ra(t)["memory"] / ra(t)["stored"] for t in big]
        bpb = [rb(t)["memory"] / rb(t)["stored"] for t in big]
        print(f"{b} / {a}: both solved {len(both)} of {len(tasks)}; costs differ on {len(differ)} {differ}")
        print(f"  expansions B/A median {med(exp):.3f} geomean {gm(exp):.3f}; outside 15%: {len(outside)} {outside}")
        print(f"  search (CPU) time B/A over {len(timed)} tasks with A >= 10 ms: median {med(time):.3f} geomean {gm(time):.3f}")
        print(f"  bytes per stored state over {len(big)} tasks with > 10,000: A median {med(bpa):.1f}, B median {med(bpb):.1f}")
        only_a = [f"{d}/{p}" for d, p in tasks if solved(runs.get((d, p, a))) and not solved(runs.get((d, p, b)))]
        only_b = [f"{d}/{p}" for d, p in tasks if solved(runs.get((d, p, b))) and not solved(runs.get((d, p, a)))]
        print(f"  solved only by A: {only_a}; only by B: {only_b}")


if __name__ == "__main__":
    sys.exit(main())
