"""Ctrl-C stops a search: the search runs on a thread of its own while the
calling thread looks for signals, raises the search's cancellation flag on
one and raises `KeyboardInterrupt` once the search has stopped."""

from __future__ import annotations

import _thread
import multiprocessing
import threading
import time
from pathlib import Path

import pytest

import searchlab


def test_ctrl_c_stops_a_long_search(root: Path) -> None:
    # Blind A* on depot task 8 runs for many seconds within these limits;
    # the limits only bound the test if the interrupt were lost.
    task = searchlab.load_pddl(
        root / "benchmarks/pddl/depot/domain.pddl", root / "benchmarks/pddl/depot/task08.pddl"
    )
    timer = threading.Timer(0.5, _thread.interrupt_main)
    began = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            task.plan(heuristic="blind", max_time=120, max_memory_mb=4096)
    finally:
        timer.cancel()
    assert time.monotonic() - began < 10


def test_a_search_after_an_interrupt_runs_as_usual(root: Path) -> None:
    problem = searchlab.load(root / "problems/hungry_agent.toml")
    timer = threading.Timer(0.05, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            time.sleep(5)
    finally:
        timer.cancel()
    assert problem.plan().cost == 30


def _plan_in_child(path: str) -> int:
    return searchlab.load(path).plan().cost


def test_a_forked_child_plans_after_its_parent_did(root: Path) -> None:
    # The parent's kept threads do not exist in a forked child: the child's
    # searches must not wait for them.
    path = str(root / "problems/hungry_agent.toml")
    assert searchlab.load(path).plan().cost == 30
    with multiprocessing.get_context("fork").Pool(2) as pool:
        assert pool.map_async(_plan_in_child, [path, path]).get(timeout=60) == [30, 30]
