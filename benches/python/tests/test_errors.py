"""Bad input raises Python exceptions with searchlab's located messages,
and never takes the interpreter down."""

from __future__ import annotations

from pathlib import Path

import pytest

import searchlab


def test_the_error_class_is_a_value_error() -> None:
    assert issubclass(searchlab.SearchlabError, ValueError)


def test_missing_files(root: Path) -> None:
    with pytest.raises(searchlab.SearchlabError, match="no/such/file.toml: cannot read the file"):
        searchlab.load("no/such/file.toml")
    with pytest.raises(searchlab.SearchlabError, match="no/such/domain.pddl"):
        searchlab.load_pddl("no/such/domain.pddl", root / "benchmarks/pddl/gripper/task01.pddl")


def test_malformed_pddl_is_located(tmp_path: Path, root: Path) -> None:
    domain = tmp_path / "domain.pddl"
    domain.write_text("(define (domain d)\n  (:predicates (p))\n  (:action a :parameters ()\n")
    with pytest.raises(searchlab.SearchlabError, match=r"domain.pddl:\d+:\d+: "):
        searchlab.load_pddl(domain, root / "benchmarks/pddl/gripper/task01.pddl")
    with pytest.raises(searchlab.SearchlabError, match=r"^domain:1:1: unbalanced"):
        searchlab.pddl_from_text("(define (domain", "(define (problem p))")
    with pytest.raises(searchlab.SearchlabError, match="durative"):
        searchlab.pddl_from_text(
            "(define (domain d) (:requirements :durative-actions) (:predicates (p))"
            " (:durative-action a :parameters () :duration (= ?duration 1)"
            " :condition (and) :effect (at end (p))))",
            "(define (problem q) (:domain d) (:init) (:goal (p)))",
        )


def test_malformed_toml_is_located() -> None:
    text = 'kind = "atomic"\natoms = ["fed"]\ngoal = ["fead"]\n[[action]]\nname = "eat"\neff = ["fed"]\n'
    with pytest.raises(searchlab.SearchlabError, match=r"^eat.toml:3:10: unknown atom `fead`$"):
        searchlab.parse(text, "eat.toml")
    with pytest.raises(searchlab.SearchlabError):
        searchlab.parse("this is not toml [")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"heuristic": "hmx"}, "unknown heuristic `hmx`"),
        ({"direction": "sideways"}, "unknown direction `sideways`"),
        ({"algorithm": "dfs"}, "unknown algorithm `dfs`"),
        ({"algorithm": "wastar:0.5"}, "weight"),
        ({"max_time": -1.0}, "max_time"),
        ({"max_time": float("nan")}, "max_time"),
        ({"heuristic": 42}, "a heuristic is a name"),
        ({"heuristic": "ff", "direction": "forward", "algorithm": "astar"}, None),
    ],
)
def test_bad_options(root: Path, options: dict, message: str) -> None:
    problem = searchlab.load(root / "problems/hungry_agent.toml")
    if message is None:
        assert problem.plan(**options).solved
        return
    with pytest.raises(searchlab.SearchlabError, match=message):
        problem.plan(**options)


def test_a_heuristic_the_problem_refuses(root: Path) -> None:
    with pytest.raises(searchlab.SearchlabError, match="not available"):
        searchlab.plan(root / "problems/hitman.toml", heuristic="lmcut")


def test_wrong_argument_types_raise_type_errors(root: Path) -> None:
    problem = searchlab.load(root / "problems/hungry_agent.toml")
    with pytest.raises(TypeError):
        problem.plan(max_expansions="many")
    with pytest.raises(TypeError):
        searchlab.load(42)


def test_bad_suite_input(tmp_path: Path) -> None:
    with pytest.raises(searchlab.SearchlabError):
        searchlab.run_suite(tmp_path / "missing.toml")
    with pytest.raises(searchlab.SearchlabError, match="fwd-astar-nothing"):
        searchlab.run_suite(configs=["fwd-astar-nothing"], problems=["hungry-agent"])
    with pytest.raises(searchlab.SearchlabError, match="no problem"):
        searchlab.run_suite(problems=["no-such-problem"])


@pytest.mark.parametrize(
    "limits",
    [
        {"max_expansions": -1},
        {"max_expansions": 2**64},
        {"max_memory_mb": -1},
        {"max_time": 10**400},
        {"max_time": -1.0},
    ],
)
def test_bad_limits_are_searchlab_errors(root: Path, limits: dict) -> None:
    problem = searchlab.load(root / "problems/hungry_agent.toml")
    with pytest.raises(searchlab.SearchlabError):
        problem.plan(**limits)


def test_empty_suite_filters_are_errors() -> None:
    with pytest.raises(searchlab.SearchlabError, match="configs is empty"):
        searchlab.run_suite(configs=[])
    with pytest.raises(searchlab.SearchlabError, match="problems is empty"):
        searchlab.run_suite(problems=[])
