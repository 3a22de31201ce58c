"""Per-call overhead of planning from Python against the `searchlab` CLI.

Plans problems/hungry_agent.toml (forward A*, h_max, the CLI's defaults)
three ways in one run and prints the median of each:

- ``plan only``: ``problem.plan()`` on a problem loaded once;
- ``load + plan``: ``searchlab.plan(path)``, reading the file each call;
- ``CLI``: the ``searchlab plan`` process, started anew each call.

    python benches/python/benches/overhead.py target/release/searchlab [runs]

Run from the repository's root with the wheel installed.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from typing import Callable, List

import searchlab

PROBLEM = "problems/hungry_agent.toml"


def median_us(call: Callable[[], object], runs: int) -> float:
    """The median wall time of `call` over `runs` calls, in microseconds."""
    times: List[float] = []
    for _ in range(runs):
        began = time.perf_counter()
        call()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1e6


def main() -> None:
    cli = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    problem = searchlab.load(PROBLEM)
    assert problem.plan().cost == 30
    for _ in range(100):  # warm-up
        problem.plan()
    plan_only = median_us(problem.plan, runs)
    load_plan = median_us(lambda: searchlab.plan(PROBLEM), runs)
    search = statistics.median(problem.plan().time for _ in range(runs)) * 1e6
    cli_runs = max(runs // 10, 20)
    command = [cli, "plan", PROBLEM]
    subprocess.run(command, check=True, capture_output=True)
    cli_call = median_us(lambda: subprocess.run(command, check=True, capture_output=True), cli_runs)
    print(f"planner call inside (PlanResult.time): {search:8.1f} us (median of {runs})")
    print(f"Python plan only:                      {plan_only:8.1f} us (median of {runs})")
    print(f"Python load + plan:                    {load_plan:8.1f} us (median of {runs})")
    print(f"CLI process (searchlab plan):          {cli_call:8.1f} us (median of {cli_runs})")


if __name__ == "__main__":
    main()
