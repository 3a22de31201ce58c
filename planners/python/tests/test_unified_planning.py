"""The Unified Planning engine: OneshotPlanner(name="searchlab") on a
problem built in Python and on PDDL read with UP's reader, the plan
validator, and the factory's choice beside Fast Downward."""

from __future__ import annotations

import importlib.util
import math
from fractions import Fraction
from pathlib import Path
from typing import Iterator, List

import pytest

up = pytest.importorskip("unified_planning")

import up_searchlab  # noqa: E402,F401  (registers the engine)
from unified_planning.engines import (  # noqa: E402
    OptimalityGuarantee,
    PlanGenerationResultStatus,
    ValidationResultStatus,
)
from unified_planning.io import PDDLReader  # noqa: E402
from unified_planning.shortcuts import (  # noqa: E402
    BoolType,
    Fluent,
    InstantaneousAction,
    Not,
    Object,
    OneshotPlanner,
    PlanValidator,
    Problem,
    UserType,
    get_environment,
)

get_environment().credits_stream = None


def robot_problem(length: int = 5) -> "Problem":
    """A robot on a line of rooms, some doors locked; move to the last."""
    location = UserType("Location")
    robot_at = Fluent("robot_at", BoolType(), l=location)
    connected = Fluent("connected", BoolType(), l_from=location, l_to=location)
    locked = Fluent("locked", BoolType(), l=location)
    move = InstantaneousAction("move", l_from=location, l_to=location)
    l_from, l_to = move.parameter("l_from"), move.parameter("l_to")
    move.add_precondition(connected(l_from, l_to))
    move.add_precondition(robot_at(l_from))
    move.add_precondition(Not(locked(l_to)))
    move.add_effect(robot_at(l_from), False)
    move.add_effect(robot_at(l_to), True)
    unlock = InstantaneousAction("unlock", l=location)
    unlock.add_precondition(locked(unlock.parameter("l")))
    unlock.add_effect(locked(unlock.parameter("l")), False)
    problem = Problem("Robot")
    for fluent in [robot_at, connected, locked]:
        problem.add_fluent(fluent, default_initial_value=False)
    problem.add_action(move)
    problem.add_action(unlock)
    rooms = [Object(f"Room{i}", location) for i in range(length)]
    problem.add_objects(rooms)
    problem.set_initial_value(robot_at(rooms[0]), True)
    problem.set_initial_value(locked(rooms[2]), True)
    for a, b in zip(rooms, rooms[1:]):
        problem.set_initial_value(connected(a, b), True)
        problem.set_initial_value(connected(b, a), True)
    problem.add_goal(robot_at(rooms[-1]))
    problem.add_quality_metric(up.model.metrics.MinimizeSequentialPlanLength())
    return problem


def test_a_problem_built_in_python() -> None:
    problem = robot_problem()
    assert up_searchlab.SearchlabEngine.supports(problem.kind)
    with OneshotPlanner(name="searchlab") as planner:
        result = planner.solve(problem)
    assert result.status == PlanGenerationResultStatus.SOLVED_OPTIMALLY
    assert result.engine_name == "searchlab"
    steps = [(a.action.name, [str(p) for p in a.actual_parameters]) for a in result.plan.actions]
    assert len(steps) == 5 and ("unlock", ["Room2"]) in steps
    assert steps[-1] == ("move", ["Room3", "Room4"])
    with PlanValidator(name="searchlab") as validator:
        assert validator.validate(problem, result.plan).status == ValidationResultStatus.VALID
    with PlanValidator(name="sequential_plan_validator") as validator:
        assert validator.validate(problem, result.plan).status == ValidationResultStatus.VALID


def test_params_and_satisficing_status() -> None:
    with OneshotPlanner(name="searchlab", params={"algorithm": "gbfs", "heuristic": "ff", "direction": "regression"}) as planner:
        result = planner.solve(robot_problem())
    assert result.status == PlanGenerationResultStatus.SOLVED_SATISFICING
    assert result.metrics["config"] == "reg-gbfs-ff"


def test_bad_params_are_usage_errors() -> None:
    with pytest.raises(up.exceptions.UPUsageError, match="unknown heuristic"):
        OneshotPlanner(name="searchlab", params={"heuristic": "hmx"})
    with pytest.raises(up.exceptions.UPUsageError, match="not admissible"):
        OneshotPlanner(name="searchlab-opt", params={"heuristic": "ff"})
    with pytest.raises(up.exceptions.UPUsageError, match="not optimal"):
        OneshotPlanner(name="searchlab-opt", params={"algorithm": "gbfs"})


def test_the_factory_picks_searchlab_opt_for_optimality() -> None:
    problem = robot_problem()
    with OneshotPlanner(name="searchlab-opt", params={"heuristic": "hmax", "direction": "regression"}) as planner:
        assert planner.solve(problem).status == PlanGenerationResultStatus.SOLVED_OPTIMALLY
    factory = get_environment().factory
    names = [
        name
        for name in factory.engines
        if name.startswith("searchlab")
        and factory.engine(name).supports(problem.kind)
        and factory.engine(name).satisfies(OptimalityGuarantee.SOLVED_OPTIMALLY)
    ]
    assert names == ["searchlab-opt"]


def test_unsolvable_and_limits() -> None:
    problem = robot_problem()
    problem.clear_goals()
    rooms = list(problem.objects(problem.user_type("Location")))
    robot_at = problem.fluent("robot_at")
    problem.add_goal(robot_at(rooms[0]))
    problem.add_goal(robot_at(rooms[1]))
    with OneshotPlanner(name="searchlab") as planner:
        assert planner.solve(problem).status == PlanGenerationResultStatus.UNSOLVABLE_PROVEN
    with OneshotPlanner(name="searchlab", params={"heuristic": "blind"}) as planner:
        assert planner.solve(robot_problem(400), timeout=0.0).status == PlanGenerationResultStatus.TIMEOUT


def test_a_limit_that_stops_an_anytime_search_after_a_plan_returns_it() -> None:
    """Ten moves at cost 1, or a teleport at cost 25 that weight 5 takes
    first: four expansions find the teleport, not the walk."""
    location = UserType("Location")
    at = Fluent("at", BoolType(), l=location)
    next_to = Fluent("next_to", BoolType(), a=location, b=location)
    move = InstantaneousAction("move", a=location, b=location)
    a, b = move.parameter("a"), move.parameter("b")
    move.add_precondition(at(a))
    move.add_precondition(next_to(a, b))
    move.add_effect(at(a), False)
    move.add_effect(at(b), True)
    rooms = [Object(f"Room{i}", location) for i in range(11)]
    teleport = InstantaneousAction("teleport")
    teleport.add_precondition(at(rooms[0]))
    teleport.add_effect(at(rooms[0]), False)
    teleport.add_effect(at(rooms[-1]), True)
    problem = Problem("teleport")
    problem.add_fluent(at, default_initial_value=False)
    problem.add_fluent(next_to, default_initial_value=False)
    problem.add_actions([move, teleport])
    problem.add_objects(rooms)
    problem.set_initial_value(at(rooms[0]), True)
    for here, there in zip(rooms, rooms[1:]):
        problem.set_initial_value(next_to(here, there), True)
    problem.add_goal(at(rooms[-1]))
    problem.add_quality_metric(up.model.metrics.MinimizeActionCosts({move: 1, teleport: 25}))
    params = {"algorithm": "rwastar", "heuristic": "hmax"}
    with OneshotPlanner(name="searchlab", params=params) as planner:
        assert len(planner.solve(problem).plan.actions) == 10
    with OneshotPlanner(name="searchlab", params={**params, "max_expansions": 4}) as planner:
        result = planner.solve(problem)
    assert result.status == PlanGenerationResultStatus.SOLVED_SATISFICING
    assert [step.action.name for step in result.plan.actions] == ["teleport"]


def test_pddl_read_with_up_matches_the_cli(root: Path, cli) -> None:
    for domain, task in [
        ("benchmarks/pddl/gripper/domain.pddl", "benchmarks/pddl/gripper/task01.pddl"),
        ("benchmarks/pddl-ipc/elevators-opt08-strips/domain.pddl", "benchmarks/pddl-ipc/elevators-opt08-strips/p01.pddl"),
    ]:
        problem = PDDLReader().parse_problem(str(root / domain), str(root / task))
        expected = cli(domain, task, "--heuristic", "lmcut")["cost"]
        with OneshotPlanner(name="searchlab", params={"heuristic": "lmcut"}) as planner:
            result = planner.solve(problem)
        assert result.plan is not None
        with PlanValidator(name="searchlab") as validator:
            checked = validator.validate(problem, result.plan)
        assert checked.status == ValidationResultStatus.VALID
        assert int(checked.metrics["cost"]) == expected
        if problem.quality_metrics:
            assert result.status == PlanGenerationResultStatus.SOLVED_OPTIMALLY
        else:
            assert len(result.plan.actions) == expected


def test_bad_limits_are_usage_errors_and_long_timeouts_mean_none() -> None:
    with pytest.raises(up.exceptions.UPUsageError, match="whole number"):
        OneshotPlanner(name="searchlab", params={"max_memory_mb": -1})
    with OneshotPlanner(name="searchlab") as planner:
        assert planner.solve(robot_problem(), timeout=math.inf).status == PlanGenerationResultStatus.SOLVED_OPTIMALLY
        assert planner.solve(robot_problem(), timeout=1e12).plan is not None


def test_a_problem_searchlab_cannot_read_validates_as_unknown() -> None:
    # A cost of 5/2: UP accepts it, searchlab's costs are whole numbers.
    problem = robot_problem()
    problem.clear_quality_metrics()
    move = problem.action("move")
    problem.add_quality_metric(up.model.metrics.MinimizeActionCosts({move: Fraction(5, 2)}, default=1))
    with OneshotPlanner(name="searchlab", params={"heuristic": "blind"}) as planner:
        plan = planner.solve(robot_problem()).plan
    with PlanValidator(name="searchlab") as validator:
        result = validator.validate(problem, plan)
    assert result.status == ValidationResultStatus.UNKNOWN
    assert "not an integer" in result.log_messages[0].message


@pytest.fixture
def factory_order() -> Iterator[List[str]]:
    """The factory's preference list, restored after the test."""
    factory = get_environment().factory
    saved = list(factory.preference_list)
    yield saved
    factory.preference_list = saved


@pytest.mark.skipif(
    importlib.util.find_spec("up_fast_downward") is None,
    reason="up-fast-downward is not installed (scripts/python-check.sh installs it)",
)
def test_the_factory_picks_searchlab_before_fast_downward(factory_order: List[str]) -> None:
    factory = get_environment().factory
    assert {"fast-downward", "fast-downward-opt"} <= set(factory.engines)
    problem = robot_problem()
    with OneshotPlanner(problem_kind=problem.kind) as planner:
        assert planner.name == "searchlab"
    optimal = OptimalityGuarantee.SOLVED_OPTIMALLY
    with OneshotPlanner(problem_kind=problem.kind, optimality_guarantee=optimal) as planner:
        assert planner.name == "searchlab-opt"
        assert planner.solve(problem).status == PlanGenerationResultStatus.SOLVED_OPTIMALLY
    # The way out: UP's order, which puts Fast Downward first.
    up_searchlab.register(prefer=False)
    assert factory.preference_list[-2:] == ["searchlab", "searchlab-opt"]
    with OneshotPlanner(problem_kind=problem.kind) as planner:
        assert type(planner) is factory.engine("fast-downward")
    with OneshotPlanner(problem_kind=problem.kind, optimality_guarantee=optimal) as planner:
        assert type(planner) is factory.engine("fast-downward-opt")
    up_searchlab.register()
    assert factory.preference_list == factory_order


def test_register_places_the_engines_ahead_of_the_other_planners(factory_order: List[str]) -> None:
    factory = get_environment().factory
    order = factory.preference_list
    first = order.index("searchlab")
    assert order[first + 1] == "searchlab-opt"
    planners = [name for name in order[:first] if factory.engine(name).is_oneshot_planner()]
    assert planners == []
    # Registering again places them again, and adds nothing.
    up_searchlab.register(prefer=False)
    up_searchlab.register()
    assert factory.preference_list == factory_order
    assert factory.engines.count("searchlab") == 1

