"""The Unified Planning engine: OneshotPlanner(name="searchlab") on a
problem built in Python and on PDDL read with UP's reader, the plan
validator, the factory's choice beside Fast Downward, and errors said of
the user's problem rather than of the PDDL text UP wrote."""

from __future__ import annotations

import importlib.util
import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Iterator, List

import pytest

up = pytest.importorskip("unified_planning")

import up_searchlab  # noqa: E402,F401  (registers the engine)
from unified_planning.engines import (  # noqa: E402
    LogLevel,
    OptimalityGuarantee,
    PlanGenerationResultStatus,
    ValidationResultStatus,
)
from unified_planning.io import PDDLReader, PDDLWriter  # noqa: E402
from unified_planning.shortcuts import (  # noqa: E402
    GE,
    LE,
    Plus,
    BoolType,
    Fluent,
    InstantaneousAction,
    IntType,
    Not,
    Object,
    ObjectExp,
    OneshotPlanner,
    PlanValidator,
    Problem,
    RealType,
    UserType,
    get_environment,
)
from up_searchlab._messages import explain  # noqa: E402

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


LOCATED = re.compile(r"\b(domain|problem|plan):\d+:\d+")


def error_messages(result: object) -> List[str]:
    """The messages of an engine's answer above DEBUG, which must be said
    of the user's problem, and the DEBUG ones, which keep searchlab's."""
    logs = getattr(result, "log_messages")
    shown = [m.message for m in logs if m.level != LogLevel.DEBUG]
    for message in shown:
        assert not LOCATED.search(message), message
        assert "`" not in message, message
    kept = [m.message for m in logs if m.level == LogLevel.DEBUG]
    assert [m.startswith("searchlab on the PDDL UP wrote: ") for m in kept] == [True], logs
    return shown


def test_an_action_error_names_the_action() -> None:
    problem = robot_problem()
    go_fast = problem.action("move").clone()
    go_fast.name = "go_fast"
    problem.add_action(go_fast)
    problem.clear_quality_metrics()
    problem.add_quality_metric(up.model.metrics.MinimizeActionCosts({go_fast: Fraction(3, 2)}, default=1))
    with OneshotPlanner(name="searchlab") as planner:
        result = planner.solve(problem)
    assert result.status == PlanGenerationResultStatus.INTERNAL_ERROR
    assert error_messages(result) == ["action go_fast: cost 1.5 is not an integer (searchlab takes whole-number costs)"]


def test_an_initial_value_error_names_the_fluent_and_objects() -> None:
    # A static cost function with one value of 5/2; the writer renames the
    # fluent (no spaces in PDDL) and lowers the objects' names.
    problem = robot_problem()
    location = problem.user_type("Location")
    rooms = list(problem.objects(location))
    cost = Fluent("move cost", RealType(), a=location, b=location)
    problem.add_fluent(cost, default_initial_value=1)
    problem.set_initial_value(cost(rooms[0], rooms[1]), Fraction(5, 2))
    move = problem.action("move")
    problem.clear_quality_metrics()
    problem.add_quality_metric(
        up.model.metrics.MinimizeActionCosts(
            {move: cost(move.parameter("l_from"), move.parameter("l_to"))}, default=1
        )
    )
    assert "move_cost room0 room1" in PDDLWriter(problem).get_problem()
    with OneshotPlanner(name="searchlab") as planner:
        result = planner.solve(problem)
    assert result.status == PlanGenerationResultStatus.INTERNAL_ERROR
    assert error_messages(result) == [
        "the initial value of move cost(Room0, Room1): function value 2.5 is not an integer"
        " (searchlab takes whole-number costs)"
    ]
    with PlanValidator(name="searchlab") as validator:
        checked = validator.validate(problem, up.plans.SequentialPlan([]))
    assert checked.status == ValidationResultStatus.UNKNOWN
    assert error_messages(checked)[0].startswith("the initial value of move cost(Room0, Room1)")


def test_a_goal_error_is_said_of_the_goal() -> None:
    # No goal UP writes for a problem the engine supports fails to parse:
    # a message located in the goal of the writer's text stands for one.
    problem = robot_problem()
    writer = PDDLWriter(problem)
    texts = {"domain": writer.get_domain(), "problem": writer.get_problem()}
    line = next(i for i, text in enumerate(texts["problem"].split("\n"), 1) if "(:goal" in text)
    message = f"problem:{line}:9: unsupported numeric comparison `>=` (searchlab reads ADL with :action-costs)"
    assert explain(message, writer, texts, problem) == (
        "the goal: unsupported numeric comparison >= (searchlab reads ADL with :action-costs)"
    )


def counters_problem() -> "Problem":
    """Three counters from 0 to at most 8, to be made strictly increasing:
    counter i at least i + 1 above the one before (IPC 2023's counters)."""
    counter = UserType("Counter")
    value = Fluent("value", IntType(), c=counter)
    up_action = InstantaneousAction("increment", c=counter)
    c = up_action.parameter("c")
    up_action.add_precondition(LE(Plus(value(c), 1), 8))
    up_action.add_increase_effect(value(c), 1)
    down = InstantaneousAction("decrement", c=counter)
    d = down.parameter("c")
    down.add_precondition(GE(value(d), 1))
    down.add_decrease_effect(value(d), 1)
    problem = Problem("counters")
    problem.add_fluent(value, default_initial_value=0)
    problem.add_action(up_action)
    problem.add_action(down)
    counters = [Object(f"c{i}", counter) for i in range(3)]
    problem.add_objects(counters)
    problem.set_initial_value(value(counters[0]), 3)
    for a, b in zip(counters, counters[1:]):
        problem.add_goal(LE(Plus(value(a), 1), value(b)))
    problem.add_quality_metric(up.model.metrics.MinimizeSequentialPlanLength())
    return problem


def test_a_numeric_problem_built_in_python() -> None:
    # c0 from 3 and the others from 0: c1 up to 4, c2 up to 5 (or c0 down):
    # 4 + 5 = 9 steps, or 3 down, 1 + 2 up = 6.
    problem = counters_problem()
    assert up_searchlab.SearchlabEngine.supports(problem.kind)
    with OneshotPlanner(name="searchlab", params={"heuristic": "hrmax"}) as planner:
        result = planner.solve(problem)
    assert result.status == PlanGenerationResultStatus.SOLVED_OPTIMALLY
    assert len(result.plan.actions) == 6
    with PlanValidator(name="searchlab") as validator:
        assert validator.validate(problem, result.plan).status == ValidationResultStatus.VALID
    with PlanValidator(name="sequential_plan_validator") as validator:
        assert validator.validate(problem, result.plan).status == ValidationResultStatus.VALID
    # The battery of the robot's moves is a numeric fluent too (unbounded:
    # PDDL has no bounded types, so neither has the engine).
    robot = robot_problem()
    battery = Fluent("battery", IntType())
    robot.add_fluent(battery, default_initial_value=10)
    move = robot.action("move")
    move.add_precondition(GE(battery, 1))
    move.add_decrease_effect(battery, 1)
    assert up_searchlab.SearchlabEngine.supports(robot.kind)
    with OneshotPlanner(name="searchlab", params={"heuristic": "hrmax"}) as planner:
        assert len(planner.solve(robot).plan.actions) == 5


@pytest.mark.skipif(importlib.util.find_spec("up_enhsp") is None, reason="up-enhsp is not installed")
def test_a_numeric_problem_costs_what_enhsp_finds() -> None:
    problem = counters_problem()
    with OneshotPlanner(name="enhsp-opt") as planner:
        enhsp = planner.solve(problem)
    with OneshotPlanner(name="searchlab", params={"heuristic": "hrmax"}) as planner:
        ours = planner.solve(problem)
    assert len(ours.plan.actions) == len(enhsp.plan.actions) == 6


def test_an_invalid_plan_is_said_in_the_problems_names() -> None:
    problem = robot_problem()
    with OneshotPlanner(name="searchlab") as planner:
        plan = planner.solve(problem).plan
    with PlanValidator(name="searchlab") as validator:
        skipped = validator.validate(problem, up.plans.SequentialPlan(plan.actions[1:]))
        short = validator.validate(problem, up.plans.SequentialPlan(plan.actions[:-1]))
        rooms = list(problem.objects(problem.user_type("Location")))
        move = up.plans.ActionInstance(problem.action("move"), (ObjectExp(rooms[0]), ObjectExp(rooms[3])))
        stray = validator.validate(problem, up.plans.SequentialPlan([move]))
    assert skipped.status == short.status == stray.status == ValidationResultStatus.INVALID
    # Which step fails depends on the plan found; the message names it in
    # the problem's own names.
    assert re.search(r"\w+\(Room\d(, Room\d)?\) \(step 1\) is not applicable: atom \w+\(Room\d\)", error_messages(skipped)[0])
    assert "goal atom robot_at(Room4)" in error_messages(short)[0]
    assert error_messages(stray) == ["step 1: move(Room0, Room3) is not an action of this task"]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"heuristic": "hmx"}, "searchlab: heuristic='hmx': unknown heuristic hmx (known: "),
        ({"max_memory_mb": -1}, "searchlab: max_memory_mb=-1: "),
        ({"max_time": -1.0}, "searchlab: max_time=-1.0: "),
        ({"algorithm": "wastar:0.5"}, "searchlab: algorithm='wastar:0.5': "),
    ],
)
def test_usage_errors_name_the_param(params: dict, message: str) -> None:
    with pytest.raises(up.exceptions.UPUsageError) as raised:
        OneshotPlanner(name="searchlab", params=params)
    assert str(raised.value).startswith(message), raised.value
    assert "`" not in str(raised.value) and not LOCATED.search(str(raised.value))
