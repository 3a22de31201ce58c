"""Plans from Python equal the Rust CLI's: the reference scenarios and
shipped PDDL tasks, with optimal configurations."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Dict

import pytest

import searchlab

REFERENCE = sorted(p.name for p in (Path(__file__).resolve().parents[3] / "problems").glob("*.toml"))

# Tasks that plan in well under a second, even with a debug CLI: STRIPS,
# action costs (elevators), ADL (miconic-simpleadl).
PDDL = [
    ("benchmarks/pddl/gripper/domain.pddl", "benchmarks/pddl/gripper/task01.pddl"),
    ("benchmarks/pddl/blocks/domain.pddl", "benchmarks/pddl/blocks/task01.pddl"),
    ("benchmarks/pddl/blocks/domain.pddl", "benchmarks/pddl/blocks/task03.pddl"),
    ("benchmarks/pddl/miconic/domain.pddl", "benchmarks/pddl/miconic/task01.pddl"),
    ("benchmarks/pddl-ipc/elevators-opt08-strips/domain.pddl", "benchmarks/pddl-ipc/elevators-opt08-strips/p01.pddl"),
    ("benchmarks/pddl-ipc/miconic-simpleadl/domain.pddl", "benchmarks/pddl-ipc/miconic-simpleadl/s1-0.pddl"),
]


@pytest.mark.parametrize("name", REFERENCE)
def test_reference_scenarios_match_the_cli(root: Path, cli: Callable[..., Dict[str, Any]], name: str) -> None:
    path = str(root / "problems" / name)
    problem = searchlab.load(path)
    expected = cli(path)
    assert expected["outcome"] == "solved"
    for direction in ["forward", "regression", "portfolio"]:
        result = problem.plan(direction=direction)
        assert result.solved and result.optimal, result
        assert result.cost == expected["cost"], (direction, result)
    forward = problem.plan()
    assert forward.plan == expected["plan"]
    assert forward.stats.expanded == expected["forward"]["expanded"]
    assert forward.config == expected["config"]


@pytest.mark.parametrize(("domain", "task"), PDDL)
def test_pddl_tasks_match_the_cli(root: Path, cli: Callable[..., Dict[str, Any]], domain: str, task: str) -> None:
    expected = cli(domain, task, "--heuristic", "lmcut")
    assert expected["outcome"] == "solved"
    loaded = searchlab.load_pddl(root / domain, root / task)
    for direction in ["forward", "regression"]:
        result = loaded.plan(direction=direction, heuristic="lmcut" if direction == "forward" else "hmax")
        assert result.solved and result.optimal
        assert result.cost == expected["cost"], (direction, result)
        assert result.translator_time is not None and result.translator_time >= 0
    result = searchlab.plan(root / domain, root / task, heuristic="lmcut")
    assert result.plan == expected["plan"]
    assert result.stats.expanded == expected["forward"]["expanded"]


def test_pddl_from_text_plans_and_validates(root: Path) -> None:
    domain = (root / "benchmarks/pddl/gripper/domain.pddl").read_text()
    problem = (root / "benchmarks/pddl/gripper/task01.pddl").read_text()
    task = searchlab.pddl_from_text(domain, problem)
    result = task.plan(heuristic="hmax")
    assert result.cost == 11
    plan_text = "".join(f"({step})\n" for step in result.plan or [])
    assert searchlab.validate_pddl_text(domain, problem, plan_text) == 11
    not_applicable = r"^invalid plan: action `\w+ [^`]+` \(step \d+\) is not applicable"
    with pytest.raises(searchlab.SearchlabError, match=not_applicable):
        searchlab.validate_pddl_text(domain, problem, plan_text.split("\n", 1)[1])
    with pytest.raises(searchlab.SearchlabError, match=r"^plan:2:1: "):
        searchlab.validate_pddl_text(domain, problem, "(move rooma roomb)\n(fly rooma)\n")
    with pytest.raises(searchlab.SearchlabError, match=r"^domain:1:1: "):
        searchlab.validate_pddl_text("(define (domain", problem, plan_text)


def test_validate_pddl_reads_files(root: Path, tmp_path: Path) -> None:
    domain = root / "benchmarks/pddl/gripper/domain.pddl"
    problem = root / "benchmarks/pddl/gripper/task01.pddl"
    result = searchlab.load_pddl(domain, problem).plan(heuristic="hmax")
    plan = tmp_path / "plan.txt"
    plan.write_text("; found by searchlab\n" + "".join(f"({step})\n" for step in result.plan or []))
    assert searchlab.validate_pddl(domain, problem, plan) == 11  # paths
    assert searchlab.validate_pddl(str(domain), str(problem), str(plan)) == 11  # strings
    # Errors name the files by their paths.
    plan.write_text("(move rooma roomb)\n(fly rooma)\n")
    with pytest.raises(searchlab.SearchlabError, match=rf"^{re.escape(str(plan))}:2:1: "):
        searchlab.validate_pddl(domain, problem, plan)
    broken = tmp_path / "domain.pddl"
    broken.write_text("(define (domain gripper)\n  (:predicates (at ?b)\n")
    with pytest.raises(searchlab.SearchlabError, match=rf"^{re.escape(str(broken))}:\d+:\d+: "):
        searchlab.validate_pddl(broken, problem, plan)
    with pytest.raises(searchlab.SearchlabError, match=r"no/such/plan.txt: cannot read"):
        searchlab.validate_pddl(domain, problem, "no/such/plan.txt")
    with pytest.raises(TypeError):
        searchlab.validate_pddl(domain, problem, 42)  # type: ignore[arg-type]


def test_results_read_as_python_objects(root: Path) -> None:
    result = searchlab.plan(root / "problems/hungry_agent.toml", algorithm="gbfs", heuristic="ff")
    assert result.plan == ["buy_groceries", "cook", "eat"] or result.cost is not None
    assert not result.optimal
    as_dict = result.to_dict()
    assert as_dict["outcome"] == "solved" and as_dict["stats"]["expanded"] == result.stats.expanded
    assert as_dict["regression"] is None
    assert isinstance(result.stats.time, float)
    assert "PlanResult" in repr(result)
    problem = searchlab.load(root / "problems/hitman.toml")
    assert (problem.name, problem.kind) == ("hitman", "factored")
    assert "mine_gold" in problem.actions


def test_limits_end_a_search_as_an_outcome(root: Path) -> None:
    task = searchlab.load_pddl(root / "benchmarks/pddl/blocks/domain.pddl", root / "benchmarks/pddl/blocks/task08.pddl")
    result = task.plan(heuristic="blind", max_expansions=10)
    assert (result.outcome, result.limit, result.plan) == ("limit", "expansions", None)


def test_an_anytime_search_stopped_by_a_limit_keeps_its_best_plan() -> None:
    # Ten steps at cost 1, or a teleport at cost 25 that weight 5 takes first.
    steps = "".join(
        f'[[action]]\nname = "step{i}"\npre = ["at{i}"]\neff = ["!at{i}", "at{i + 1}"]\n' for i in range(10)
    )
    problem = searchlab.parse(
        'kind = "atomic"\natoms = [' + ", ".join(f'"at{i}"' for i in range(11)) + ']\nstart = ["at0"]\n'
        'goal = ["at10"]\n[[action]]\nname = "teleport"\ncost = 25\npre = ["at0"]\neff = ["!at0", "at10"]\n'
        + steps
    )
    assert problem.plan(algorithm="rwastar").cost == 10
    result = problem.plan(algorithm="rwastar", max_expansions=4)
    assert (result.outcome, result.limit, result.plan, result.cost) == ("limit", "expansions", ["teleport"], 25)
    assert not result.solved and not result.optimal
    assert repr(result) == (
        "PlanResult(outcome='limit', limit='expansions', cost=25, plan=['teleport'], config='fwd-rwastar-hmax')"
    )


def test_unsolvable_is_an_outcome() -> None:
    problem = searchlab.parse(
        'kind = "atomic"\natoms = ["a", "b"]\ngoal = ["b"]\n[[action]]\nname = "x"\npre = ["b"]\neff = ["a"]\n'
    )
    result = problem.plan()
    assert result.outcome == "unsolvable" and not result.solved


def test_the_gil_is_released_during_search(root: Path) -> None:
    import threading

    task = searchlab.load_pddl(root / "benchmarks/pddl/blocks/domain.pddl", root / "benchmarks/pddl/blocks/task20.pddl")
    done = threading.Event()
    results = []

    def work() -> None:
        results.append(task.plan(heuristic="blind", max_time=0.5))
        done.set()

    thread = threading.Thread(target=work)
    spins = 0
    thread.start()
    while not done.is_set():
        spins += 1
    thread.join()
    assert (results[0].outcome, results[0].limit) == ("limit", "time")
    # With the GIL held for the whole search this loop could not run.
    assert spins > 1000, spins


def test_heuristics_are_listed() -> None:
    names = {h["name"] for h in searchlab.heuristics()}
    assert {"blind", "hmax", "ff", "lmcut", "numeric"} <= names
