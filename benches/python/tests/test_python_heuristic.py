"""A heuristic written in Python: called with the state, its answers
steer the search, dead ends prune it, and its exceptions come out of
`plan(...)`."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Dict, FrozenSet, List, Optional

import pytest

import searchlab


def test_an_atomic_heuristic_sees_the_true_atoms(root: Path) -> None:
    seen: List[FrozenSet[str]] = []

    @searchlab.heuristic(admissible=True)
    def unfed(state: FrozenSet[str]) -> int:
        seen.append(state)
        return 0 if "fed" in state else 5

    result = searchlab.plan(root / "problems/hungry_agent.toml", heuristic=unfed)
    assert (result.cost, result.plan, result.optimal) == (30, ["buy_groceries", "cook", "eat"], True)
    assert result.config == "fwd-astar-python"
    assert frozenset({"has_restaurant", "has_supermarket"}) in seen
    assert len(seen) == result.stats.evaluated


def test_a_factored_heuristic_sees_a_dict(root: Path) -> None:
    def gold_short(state: Dict[str, object]) -> float:
        assert isinstance(state["gold"], int) and isinstance(state["location"], str)
        return 0.0 if state["target_alive"] is False else 1.5

    result = searchlab.plan(root / "problems/hitman.toml", heuristic=gold_short)
    assert result.cost == 15
    assert not result.optimal  # not declared admissible


def test_a_pddl_heuristic_sees_facts(root: Path) -> None:
    goal = {"(at ball1 roomb)", "(at ball2 roomb)", "(at ball3 roomb)", "(at ball4 roomb)"}

    @searchlab.heuristic
    def misplaced(state: FrozenSet[str]) -> int:
        return len(goal - state)

    task = searchlab.load_pddl(root / "benchmarks/pddl/gripper/domain.pddl", root / "benchmarks/pddl/gripper/task01.pddl")
    result = task.plan(algorithm="gbfs", heuristic=misplaced)
    assert result.solved and result.cost is not None and result.cost >= 11


def test_dead_ends_prune(root: Path) -> None:
    def no_restaurant(state: FrozenSet[str]) -> Optional[float]:
        return math.inf if "has_groceries" in state else 0

    result = searchlab.plan(root / "problems/hungry_agent.toml", heuristic=no_restaurant)
    assert result.plan == ["go_to_restaurant", "eat"] and result.stats.dead_ends > 0

    # Dead ends of a heuristic not declared admissible prove nothing: the
    # search that runs dry found no plan; an admissible one's prove it.
    blocked = searchlab.plan(root / "problems/hungry_agent.toml", heuristic=lambda state: None)
    assert blocked.outcome == "no_plan_found"
    proved = searchlab.plan(
        root / "problems/hungry_agent.toml", heuristic=searchlab.heuristic(lambda state: None, admissible=True)
    )
    assert proved.outcome == "unsolvable"


def test_an_exception_surfaces_from_plan(root: Path) -> None:
    calls = []

    def broken(state: FrozenSet[str]) -> int:
        calls.append(state)
        if len(calls) == 3:
            raise KeyError("no estimate here")
        return 0

    with pytest.raises(KeyError, match="no estimate here"):
        searchlab.plan(root / "problems/hungry_agent.toml", heuristic=broken)
    assert len(calls) == 3  # the search stopped at the first exception
    # The interpreter and the bindings go on.
    assert searchlab.plan(root / "problems/hungry_agent.toml").cost == 30


@pytest.mark.parametrize("answer", ["five", -1, float("nan")])
def test_bad_answers_raise(root: Path, answer: object) -> None:
    with pytest.raises(ValueError, match="heuristic"):
        searchlab.plan(root / "problems/hungry_agent.toml", heuristic=lambda state: answer)


def test_python_heuristics_are_forward_only(root: Path) -> None:
    with pytest.raises(searchlab.SearchlabError, match="not available for regression"):
        searchlab.plan(root / "problems/hungry_agent.toml", direction="regression", heuristic=lambda s: 0)
    portfolio = searchlab.plan(root / "problems/hungry_agent.toml", direction="portfolio", heuristic=lambda s: 0)
    assert portfolio.cost == 30 and portfolio.direction == "forward"


@pytest.mark.parametrize("huge", [2**31, 2**32 - 1, 2**64 + 5, 10**400, 1e300, 2**63 - 1])
def test_huge_estimates_count_as_the_largest_one(root: Path, huge: object) -> None:
    result = searchlab.plan(root / "problems/hungry_agent.toml", heuristic=lambda s: 0 if "fed" in s else huge)
    assert result.cost == 30


def test_only_a_true_attribute_declares_admissible(root: Path) -> None:
    class Scorer:
        def admissible(self) -> bool:  # a method, not a declaration
            return True

        def __call__(self, state: FrozenSet[str]) -> int:
            return 0

    result = searchlab.plan(root / "problems/hungry_agent.toml", heuristic=Scorer())
    assert not result.optimal


def test_a_bound_method_can_be_declared_admissible(root: Path) -> None:
    class Scorer:
        def score(self, state: FrozenSet[str]) -> int:
            return 0

    h = searchlab.heuristic(Scorer().score, admissible=True)
    result = searchlab.plan(root / "problems/hungry_agent.toml", heuristic=h)
    assert result.optimal and result.cost == 30
