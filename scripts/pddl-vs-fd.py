#!/usr/bin/env python3
"""Forward A* of searchlab (the `pddl` example of the planners crate) beside
Fast Downward on the same PDDL tasks: cost, expansions, search time.

    cargo build --release -p planners --example pddl
    scripts/install-peers.sh /tmp/peers
    scripts/pddl-vs-fd.py --peers /tmp/peers [--timeout 60] blocks/task01.pddl ...

Task paths are relative to benchmarks/pddl (or --bench); the
searchlab binary is target/release/examples/pddl, or $PDDL_BIN (to time a
saved build against the current one). Prints
one line per task and configuration, then medians and geometric means of
the ratios. Fast Downward's search time is its "Search time" line (its
translator's Python time is not counted)."""

import argparse, glob, math, os, re, statistics, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd, timeout):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout).stdout
    except subprocess.TimeoutExpired:
        return None


def fd(peers, domain, problem, search, timeout):
    script = glob.glob(os.path.join(peers, "lib/python3*/site-packages/up_fast_downward/downward/fast-downward.py"))[0]
    with tempfile.TemporaryDirectory() as tmp:
        out = run([os.path.join(peers, "bin/python"), script, "--plan-file", os.path.join(tmp, "plan"),
                   "--sas-file", os.path.join(tmp, "output.sas"), domain, problem, "--search", search], timeout)
    if out is None or "Plan cost:" not in out:
        return None
    grab = lambda pat: re.search(pat, out).group(1)
    return {"cost": int(grab(r"Plan cost: (\d+)")), "expanded": int(grab(r"Expanded (\d+) state")),
            "time": float(grab(r"Search time: ([\d.]+)s")), "peak_kb": int(grab(r"Peak memory: (\d+) KB"))}


def ours(binary, domain, problem, heuristic, timeout):
    out = run([binary, "solve", domain, problem, "fwd", "astar", heuristic], timeout)
    if out is None or "outcome=solved" not in out:
        return None
    kv = dict(item.split("=", 1) for item in out.split() if "=" in item)
    return {"cost": int(kv["cost"]), "expanded": int(kv["expanded"]), "time": float(kv["search_s"]),
            "stored": int(kv["stored"]), "bytes": int(kv["bytes"])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--peers", default="/tmp/peers")
    ap.add_argument("--bench", default=os.path.join(ROOT, "benchmarks", "pddl"))
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("tasks", nargs="+")
    args = ap.parse_args()
    binary = os.environ.get("PDDL_BIN", os.path.join(ROOT, "target", "release", "examples", "pddl"))
    ratios = {h: {"exp": [], "time": []} for h in ("blind", "hmax")}
    print("task config cost_fd cost_sl exp_fd exp_sl search_s_fd search_s_sl bytes_per_state_sl")
    for task in args.tasks:
        problem = os.path.join(args.bench, task)
        domain = os.path.join(os.path.dirname(problem), "domain.pddl")
        for h in ("blind", "hmax"):
            a = fd(args.peers, domain, problem, f"astar({h}())", args.timeout)
            if a is None:
                print(f"{task} astar-{h} fd: unsolved within {args.timeout}s")
                continue
            b = ours(binary, domain, problem, h, args.timeout)
            if b is None:
                print(f"{task} astar-{h} searchlab: unsolved within {args.timeout}s")
                continue
            assert a["cost"] == b["cost"], (task, h, a, b)
            print(f"{task} astar-{h} {a['cost']} {b['cost']} {a['expanded']} {b['expanded']} "
                  f"{a['time']:.4f} {b['time']:.4f} {b['bytes'] / max(b['stored'], 1):.0f}")
            ratios[h]["exp"].append(b["expanded"] / max(a["expanded"], 1))
            if a["time"] >= 0.01:  # below 10 ms FD's clock says little
                ratios[h]["time"].append(max(b["time"], 1e-4) / a["time"])
    for h, r in ratios.items():
        if r["exp"]:
            gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
            print(f"astar-{h}: tasks={len(r['exp'])} expansions sl/fd median={statistics.median(r['exp']):.3f} "
                  f"geomean={gm(r['exp']):.3f}; search time sl/fd (tasks with fd >= 10 ms: {len(r['time'])}) "
                  f"median={statistics.median(r['time']) if r['time'] else float('nan'):.3f} geomean={gm(r['time']):.3f}")


if __name__ == "__main__":
    sys.exit(main())
