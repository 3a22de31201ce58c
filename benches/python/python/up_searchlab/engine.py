"""The ``searchlab`` engine for Unified Planning: a OneshotPlanner and a
PlanValidator for classical problems, through searchlab's PDDL front end."""

from __future__ import annotations

import warnings
from typing import IO, Any, Callable, Dict, List, Optional

import unified_planning as up
import unified_planning.engines
import unified_planning.engines.mixins
from unified_planning.engines import (
    Credits,
    PlanGenerationResult,
    PlanGenerationResultStatus,
    ValidationResult,
    ValidationResultStatus,
)
from unified_planning.engines.mixins.oneshot_planner import OptimalityGuarantee
from unified_planning.exceptions import UPUsageError
from unified_planning.io import PDDLWriter
from unified_planning.model import ProblemKind

import searchlab

from ._messages import explain, explained_logs

ENGINE_NAME = "searchlab"
OPT_ENGINE_NAME = "searchlab-opt"

credits = Credits(
    "searchlab",
    "the searchlab authors",
    "",
    "",
    "MIT OR Apache-2.0",
    "Heuristic search and GOAP/PDDL planning in Rust.",
    "searchlab grounds STRIPS and ADL PDDL (typing, negative conditions, equality, "
    "action costs) and searches forward, by regression or with both in a parallel "
    "portfolio, with A*, weighted A*, greedy best-first, Dijkstra and others, and "
    "heuristics such as h_max, h_add, FF and LM-cut.",
)

# One-action tasks that check the engine's options by planning them: a
# classical one (the atomic state) and a numeric one (the factored state), so
# that a heuristic of either kind is accepted.
_PROBES = (
    searchlab.pddl_from_text(
        "(define (domain probe) (:predicates (g)) (:action a :parameters () :precondition (and) :effect (g)))",
        "(define (problem probe) (:domain probe) (:init) (:goal (g)))",
    ),
    searchlab.pddl_from_text(
        "(define (domain probe) (:functions (x)) (:action a :parameters () :precondition (and) :effect (increase (x) 1)))",
        "(define (problem probe) (:domain probe) (:init (= (x) 0)) (:goal (>= (x) 1)))",
    ),
)


def _probe(**options: Any) -> None:
    """Plans the probes with ``options``: raises the classical probe's error
    when neither accepts them."""
    try:
        _PROBES[0].plan(**options)
    except searchlab.SearchlabError:
        try:
            _PROBES[1].plan(**options)
        except searchlab.SearchlabError:
            pass
        else:
            return
        raise

# searchlab's longest time limit, in seconds (a year, as its command line's).
_MAX_TIME = 365.0 * 24.0 * 3600.0

# What searchlab.PlanResult.outcome says, as UP's status (a solved plan's
# status depends on the configuration's optimality).
_LIMIT_STATUS = {
    "time": PlanGenerationResultStatus.TIMEOUT,
    "memory": PlanGenerationResultStatus.MEMOUT,
}


class SearchlabEngine(
    up.engines.Engine,
    up.engines.mixins.OneshotPlannerMixin,
    up.engines.mixins.PlanValidatorMixin,
):
    """searchlab as a Unified Planning engine.

    :param direction: ``forward`` (the default), ``regression``,
        ``portfolio`` or ``bidirectional``.
    :param algorithm: ``astar`` (the default), ``wastar:W``, ``gbfs``,
        ``dijkstra``, ``bfs``, ``rwastar``, ``lazygbfs`` or ``lazytype``.
    :param heuristic: a built-in heuristic's name (``searchlab.heuristics()``;
        the default is ``hmax``).
    :param max_expansions: an expansion limit per search (none by default).
    :param max_memory_mb: a memory limit per search in MiB (512 by default).
    :param max_time: a time limit in seconds when ``solve`` gets no
        ``timeout`` (60 by default).

    A solved plan is ``SOLVED_OPTIMALLY`` when the configuration guarantees
    it (A* with an admissible heuristic, or Dijkstra) and the problem has a
    quality metric, ``SOLVED_SATISFICING`` otherwise; an exhausted search is
    ``UNSOLVABLE_PROVEN``; the time and memory limits are ``TIMEOUT`` and
    ``MEMOUT``; bad input is ``INTERNAL_ERROR`` with the message in the log,
    said of the problem (``action go_fast: cost 1.5 is not an integer``),
    and searchlab's own message, located in the PDDL text UP wrote, after
    it at ``DEBUG`` level.

    :raises UPUsageError: for a bad name or limit.
    """

    def __init__(
        self,
        direction: str = "forward",
        algorithm: str = "astar",
        heuristic: str = "hmax",
        max_expansions: Optional[int] = None,
        max_memory_mb: Optional[int] = 512,
        max_time: Optional[float] = 60.0,
    ) -> None:
        up.engines.Engine.__init__(self)
        up.engines.mixins.OneshotPlannerMixin.__init__(self)
        up.engines.mixins.PlanValidatorMixin.__init__(self)
        self._options: Dict[str, Any] = {
            "direction": direction,
            "algorithm": algorithm,
            "heuristic": heuristic,
            "max_expansions": max_expansions,
            "max_memory_mb": max_memory_mb,
        }
        self._max_time = max_time
        # Check the names and limits now: a bad one is the caller's error.
        try:
            _probe(max_time=max_time, **self._options)
        except searchlab.SearchlabError as e:
            # Said of the params, not of the probe's text.
            option = _bad_option({**self._options, "max_time": max_time})
            raise UPUsageError(f"{self.name}: {option}{explain(str(e))}") from e

    @property
    def name(self) -> str:
        """The engine's name."""
        return ENGINE_NAME

    @staticmethod
    def supported_kind() -> ProblemKind:
        """Classical and numeric planning as searchlab's PDDL front end reads it."""
        kind = ProblemKind(version=2)
        kind.set_problem_class("ACTION_BASED")
        kind.set_typing("FLAT_TYPING")
        kind.set_typing("HIERARCHICAL_TYPING")
        kind.set_conditions_kind("NEGATIVE_CONDITIONS")
        kind.set_conditions_kind("DISJUNCTIVE_CONDITIONS")
        kind.set_conditions_kind("EQUALITIES")
        kind.set_conditions_kind("EXISTENTIAL_CONDITIONS")
        kind.set_conditions_kind("UNIVERSAL_CONDITIONS")
        kind.set_effects_kind("CONDITIONAL_EFFECTS")
        kind.set_effects_kind("FORALL_EFFECTS")
        kind.set_quality_metrics("ACTIONS_COST")
        kind.set_quality_metrics("PLAN_LENGTH")
        kind.set_actions_cost_kind("INT_NUMBERS_IN_ACTIONS_COST")
        kind.set_actions_cost_kind("STATIC_FLUENTS_IN_ACTIONS_COST")
        # UP's PDDL reader types every cost as a real; searchlab takes costs
        # that are whole numbers (from 0) and refuses others with a located
        # error (INTERNAL_ERROR), as Fast Downward does.
        kind.set_actions_cost_kind("REAL_NUMBERS_IN_ACTIONS_COST")
        # A static cost function without a value for some arguments drops
        # those operators, as Fast Downward's translator does.
        kind.set_initial_state("UNDEFINED_INITIAL_NUMERIC")
        # Numeric planning (PDDL 2.1 numeric fluents), planned on the
        # factored state: linear conditions and effects after static fluents
        # are folded (a product of two changing fluents is refused by name),
        # metrics that sum fluents actions increase, costs read from the state.
        kind.set_fluents_type("INT_FLUENTS")
        kind.set_fluents_type("REAL_FLUENTS")
        kind.set_problem_type("SIMPLE_NUMERIC_PLANNING")
        kind.set_problem_type("GENERAL_NUMERIC_PLANNING")
        kind.set_effects_kind("INCREASE_EFFECTS")
        kind.set_effects_kind("DECREASE_EFFECTS")
        kind.set_effects_kind("STATIC_FLUENTS_IN_NUMERIC_ASSIGNMENTS")
        kind.set_effects_kind("FLUENTS_IN_NUMERIC_ASSIGNMENTS")
        kind.set_quality_metrics("FINAL_VALUE")
        kind.set_actions_cost_kind("FLUENTS_IN_ACTIONS_COST")
        return kind

    @staticmethod
    def supports(problem_kind: ProblemKind) -> bool:
        """Whether ``problem_kind`` is within :meth:`supported_kind`.

        :param problem_kind: a problem's kind.
        """
        return problem_kind <= SearchlabEngine.supported_kind()

    @staticmethod
    def supports_plan(plan_kind: "up.plans.PlanKind") -> bool:
        """Sequential plans only.

        :param plan_kind: a plan's kind.
        """
        return plan_kind == up.plans.PlanKind.SEQUENTIAL_PLAN

    @staticmethod
    def satisfies(optimality_guarantee: OptimalityGuarantee) -> bool:
        """Satisficing only: optimality depends on the configuration, so the
        factory does not pick this engine when optimality is asked for
        (``searchlab-opt`` is the optimal one).

        :param optimality_guarantee: what the caller asks for.
        :returns: whether it is ``SATISFICING``.
        """
        return optimality_guarantee == OptimalityGuarantee.SATISFICING

    @staticmethod
    def get_credits(**kwargs: Any) -> Optional[Credits]:
        """searchlab's credits.

        :param kwargs: ignored.
        """
        return credits

    def _solve(
        self,
        problem: "up.model.AbstractProblem",
        heuristic: Optional[Callable[["up.model.state.State"], Optional[float]]] = None,
        timeout: Optional[float] = None,
        output_stream: Optional[IO[str]] = None,
    ) -> PlanGenerationResult:
        assert isinstance(problem, up.model.Problem)
        if heuristic is not None:
            warnings.warn(
                "searchlab ignores UP heuristics (use searchlab.heuristic on searchlab problems)",
                UserWarning,
            )
        if output_stream is not None:
            warnings.warn("searchlab does not write to an output stream", UserWarning)
        writer = PDDLWriter(problem)
        max_time = self._max_time if timeout is None else timeout
        if max_time is not None and max_time > _MAX_TIME:
            max_time = None  # beyond searchlab's longest limit (a year): none
        texts = {"domain": writer.get_domain(), "problem": writer.get_problem()}
        try:
            task = searchlab.pddl_from_text(texts["domain"], texts["problem"])
            result = task.plan(max_time=max_time, **self._options)
        except searchlab.SearchlabError as e:
            return PlanGenerationResult(
                PlanGenerationResultStatus.INTERNAL_ERROR,
                None,
                self.name,
                log_messages=explained_logs(str(e), up.engines.LogLevel.ERROR, writer, texts, problem),
            )
        metrics = {
            "engine_internal_time": str(result.time + (result.translator_time or 0.0)),
            "expanded": str(result.stats.expanded),
            "config": result.config,
        }
        if result.plan is not None:
            # A limit may stop an anytime search holding its best plan: a
            # valid plan, not known to be optimal.
            names = _pddl_names(writer, problem)
            plan = up.plans.SequentialPlan(
                [_action_instance(step, names, problem) for step in result.plan or []]
            )
            optimal = result.optimal and len(problem.quality_metrics) > 0
            status = (
                PlanGenerationResultStatus.SOLVED_OPTIMALLY
                if optimal
                else PlanGenerationResultStatus.SOLVED_SATISFICING
            )
            return PlanGenerationResult(status, plan, self.name, metrics=metrics)
        if result.outcome == "unsolvable":
            status = PlanGenerationResultStatus.UNSOLVABLE_PROVEN
        elif result.outcome == "limit":
            status = _LIMIT_STATUS.get(result.limit or "", PlanGenerationResultStatus.UNSOLVABLE_INCOMPLETELY)
        else:
            status = PlanGenerationResultStatus.UNSOLVABLE_INCOMPLETELY
        return PlanGenerationResult(status, None, self.name, metrics=metrics)

    def _validate(self, problem: "up.model.AbstractProblem", plan: "up.plans.Plan") -> ValidationResult:
        assert isinstance(problem, up.model.Problem)
        assert isinstance(plan, up.plans.SequentialPlan)
        writer = PDDLWriter(problem)
        texts = {"domain": writer.get_domain(), "problem": writer.get_problem()}
        try:
            searchlab.pddl_from_text(texts["domain"], texts["problem"])
        except searchlab.SearchlabError as e:
            # searchlab cannot read the problem: nothing is known of the plan.
            return ValidationResult(
                ValidationResultStatus.UNKNOWN,
                self.name,
                log_messages=explained_logs(str(e), up.engines.LogLevel.ERROR, writer, texts, problem),
            )
        texts["plan"] = writer.get_plan(plan)
        try:
            cost = searchlab.validate_pddl_text(texts["domain"], texts["problem"], texts["plan"])
        except searchlab.SearchlabError as e:
            return ValidationResult(
                ValidationResultStatus.INVALID,
                self.name,
                log_messages=explained_logs(str(e), up.engines.LogLevel.INFO, writer, texts, problem, plan),
            )
        return ValidationResult(ValidationResultStatus.VALID, self.name, metrics={"cost": str(cost)})


class SearchlabOptEngine(SearchlabEngine):
    """searchlab with an optimal configuration only: A* (or Dijkstra) with
    an admissible heuristic, ``lmcut`` by default. Registered as
    ``searchlab-opt``; the factory picks it when optimality is asked for
    (``optimality_guarantee=SOLVED_OPTIMALLY``).

    :param direction: ``forward`` (the default), ``regression``,
        ``portfolio`` or ``bidirectional``.
    :param algorithm: ``astar`` (the default) or ``dijkstra``.
    :param heuristic: an admissible heuristic's name (``lmcut`` by
        default; ``hmax``, ``blind`` ...).
    :raises UPUsageError: for another algorithm or an inadmissible
        heuristic.
    """

    def __init__(
        self,
        direction: str = "forward",
        algorithm: str = "astar",
        heuristic: str = "lmcut",
        max_expansions: Optional[int] = None,
        max_memory_mb: Optional[int] = 512,
        max_time: Optional[float] = 60.0,
    ) -> None:
        if algorithm not in ("astar", "dijkstra"):
            raise UPUsageError(f"{OPT_ENGINE_NAME}: {algorithm} is not optimal; use astar or dijkstra")
        admissible = {h["name"] for h in searchlab.heuristics() if h["admissible"]}
        aliases = {a: h["name"] for h in searchlab.heuristics() for a in h["aliases"]}
        if algorithm == "astar" and aliases.get(heuristic, heuristic) not in admissible:
            raise UPUsageError(
                f"{OPT_ENGINE_NAME}: heuristic {heuristic} is not admissible (admissible: {', '.join(sorted(admissible))})"
            )
        SearchlabEngine.__init__(self, direction, algorithm, heuristic, max_expansions, max_memory_mb, max_time)

    @property
    def name(self) -> str:
        """The engine's name."""
        return OPT_ENGINE_NAME

    @staticmethod
    def satisfies(optimality_guarantee: OptimalityGuarantee) -> bool:
        """Satisficing and optimal: every configuration is optimal.

        :param optimality_guarantee: what the caller asks for.
        :returns: ``True``.
        """
        return True


def _pddl_names(writer: PDDLWriter, problem: "up.model.Problem") -> Dict[str, Any]:
    """The problem's actions and objects by the names the writer gave them,
    in lower case (searchlab's plans are; PDDL names ignore case).

    :param writer: the writer that made the PDDL text.
    :param problem: the problem it wrote.
    """
    names: Dict[str, Any] = {}
    for item in [*problem.actions, *problem.all_objects]:
        names[writer.get_pddl_name(item).lower()] = item
    return names


def _action_instance(step: str, names: Dict[str, Any], problem: "up.model.Problem") -> "up.plans.ActionInstance":
    """The UP action instance of a plan step ``action arg ...``.

    :param step: a step of searchlab's plan.
    :param names: the problem's actions and objects by PDDL name.
    :param problem: the problem.
    """
    name, *args = step.split()
    em = problem.environment.expression_manager
    params = tuple(em.ObjectExp(names[arg]) for arg in args)
    return up.plans.ActionInstance(names[name], params)


def _bad_option(options: Dict[str, Any]) -> str:
    """The option that searchlab refuses on its own, as ``name=value: ``,
    or nothing when only their combination is refused.

    :param options: the engine's options, as ``plan`` takes them.
    """
    for name, value in options.items():
        try:
            _probe(**{name: value})
        except searchlab.SearchlabError:
            return f"{name}={value!r}: "
    return ""


def _is_planner(factory: Any, name: str) -> bool:
    """Whether the factory's engine ``name`` plans (one-shot or anytime).

    :param factory: UP's engine factory.
    :param name: an engine's name in it.
    """
    try:
        engine = factory.engine(name)
    except KeyError:
        return False
    return any(getattr(engine, test, lambda: False)() for test in ("is_oneshot_planner", "is_anytime_planner"))


def register(prefer: bool = True) -> None:
    """Adds the engines ``searchlab`` and ``searchlab-opt`` to the current
    UP environment's factory and places them in its preference list (done
    on ``import up_searchlab``; calling it again only places them anew).

    UP's factory, asked for a planner by problem kind
    (``OneshotPlanner(problem_kind=...)``), takes the first engine of
    ``factory.preference_list`` that fits; ``factory.add_engine`` puts an
    engine at the end, after Fast Downward and the other planners UP
    knows.

    :param prefer: ``True`` places both engines just ahead of the first
        other planner in the list, so that the factory picks ``searchlab``
        for the classical problems searchlab supports and ``searchlab-opt``
        when optimality is asked for (``PlanValidator(problem_kind=...)``
        picks ``searchlab`` too; name ``sequential_plan_validator`` for
        UP's own). ``False`` keeps UP's order: the engines at the end of
        the list, as ``add_engine`` puts them.
    """
    factory = up.environment.get_environment().factory
    ours = [ENGINE_NAME, OPT_ENGINE_NAME]
    for name, class_name in zip(ours, ["SearchlabEngine", "SearchlabOptEngine"]):
        if name not in factory.engines:
            factory.add_engine(name, __name__, class_name)
    others = [name for name in factory.preference_list if name not in ours]
    first = len(others)
    if prefer:
        first = next((i for i, name in enumerate(others) if _is_planner(factory, name)), first)
    factory.preference_list = others[:first] + ours + others[first:]
