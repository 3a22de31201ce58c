"""searchlab from Python: heuristic search and GOAP/PDDL planning in Rust.

Load a problem, plan it, read the plan and the statistics::

    import searchlab

    problem = searchlab.load("problems/hungry_agent.toml")
    result = problem.plan(direction="regression", heuristic="hmax")
    print(result.plan, result.cost, result.stats.expanded)

- :func:`load`, :func:`parse`: TOML problem files (atomic or factored).
- :func:`load_pddl`, :func:`pddl_from_text`: PDDL tasks (STRIPS with
  typing, negative preconditions, equality, action costs, and ADL).
- :func:`plan`: load and plan in one call.
- ``Problem.plan`` and ``PddlTask.plan`` take the options by name:
  ``direction`` (``forward``, ``regression``, ``portfolio``,
  ``bidirectional``), ``algorithm``
  (``astar``, ``wastar:2``, ``gbfs``, ``dijkstra``, ``bfs``, ``rwastar``,
  ``lazygbfs``, ``lazytype``), ``heuristic`` (a name from :func:`heuristics`, or a Python
  callable, see :func:`heuristic`) and limits (``max_time`` in seconds,
  ``max_expansions``, ``max_memory_mb``; by default 60 s and 512 MiB, as
  ``searchlab plan``).
- :func:`run_suite`: the built-in default suite or a suite file; the
  records as dicts, :meth:`Records.to_dataframe` with pandas.
- :func:`validate_pddl` (files), :func:`validate_pddl_text` (texts):
  replay an IPC plan on a PDDL task and get its cost.
- ``up_searchlab``: the Unified Planning engines (``import up_searchlab``
  registers ``searchlab`` and ``searchlab-opt`` ahead of UP's other
  planners; see ``help(up_searchlab)``).

Searches run with the GIL released, so other Python threads go on, and
on another thread, so Ctrl-C stops a ``plan(...)``: the search ends at
its next expansion (grounding a PDDL task finishes first; a second Ctrl-C
returns at once) and ``KeyboardInterrupt`` is raised. A suite
(:func:`run_suite`) runs to its end. Bad
input raises :class:`SearchlabError` (a ``ValueError``) with the message
searchlab gives, located in the file where it can be.
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable, Dict, List, Optional, Sequence, TypeVar, Union

from ._searchlab import (
    PddlTask,
    PlanResult,
    Problem,
    SearchlabError,
    Statistics,
    __version__,
    heuristics,
    load,
    load_pddl,
    parse,
    pddl_from_text,
    run_suite_jsonl,
    validate_pddl,
    validate_pddl_text,
)

__all__ = [
    "PddlTask",
    "PlanResult",
    "Problem",
    "Records",
    "SearchlabError",
    "Statistics",
    "__version__",
    "heuristic",
    "heuristics",
    "load",
    "load_pddl",
    "parse",
    "pddl_from_text",
    "plan",
    "run_suite",
    "validate_pddl",
    "validate_pddl_text",
]

PathLike = Union[str, "os.PathLike[str]"]
F = TypeVar("F", bound=Callable[..., Any])


def plan(path: PathLike, problem: Optional[PathLike] = None, **options: Any) -> PlanResult:
    """Loads and plans in one call, as ``searchlab plan`` does.

    :param path: a TOML problem file, or a PDDL domain file when ``problem``
        is given.
    :param problem: the PDDL problem file, for a PDDL task.
    :param options: the keyword arguments of ``Problem.plan`` /
        ``PddlTask.plan`` (``direction``, ``algorithm``, ``heuristic``,
        ``max_time``, ``max_expansions``, ``max_memory_mb``; ``packing``
        for PDDL).
    :returns: the :class:`PlanResult`.
    :raises SearchlabError: for a file that cannot be read or does not
        parse, or a bad option.
    """
    if problem is None:
        return load(path).plan(**options)
    return load_pddl(path, problem).plan(**options)


def heuristic(function: Optional[F] = None, *, admissible: bool = False) -> Any:
    """Marks a Python callable as a heuristic, admissible or not.

    A heuristic is any callable from a state to an estimate; this decorator
    only declares ``admissible`` (which makes ``PlanResult.optimal`` true
    for A*). The state is a ``frozenset`` of the names of the atoms that
    hold (atomic problems; PDDL facts as ``"(at ball1 rooma)"``), or a
    ``dict`` from each variable's name to its value (factored problems).
    Return a number from 0 up (floats are rounded down; ``math.inf`` is a
    dead end; values above 2**31 - 1 count as 2**31 - 1) or ``None`` for a
    dead end. A dead end of a heuristic not declared admissible prunes
    without proof: a search that runs dry then ends in ``no_plan_found``,
    not ``unsolvable``. An exception stops the search and comes out of
    ``plan(...)``.

    Python heuristics serve forward search only, and are slow: every
    estimate takes the GIL and builds the state as a Python object (a few
    microseconds each). They are for prototyping; a Rust heuristic against
    ``planners::heuristics::TaskView`` runs everywhere at full speed.

    Use as ``@searchlab.heuristic`` or ``@searchlab.heuristic(admissible=True)``.

    :param function: the callable, when used as ``@searchlab.heuristic``
        or called as ``searchlab.heuristic(f, admissible=True)``.
    :param admissible: whether the heuristic never overestimates the cost
        to the goal.
    :returns: the callable, marked (a wrapper for one that takes no
        attributes), or, without ``function``, a decorator that marks one.
    """

    def mark(f: F) -> F:
        try:
            f.admissible = admissible  # type: ignore[attr-defined]
            return f
        except AttributeError:
            # A bound method or a builtin takes no attributes: wrap it.
            def wrapped(state: Any) -> Any:
                return f(state)

            wrapped.admissible = admissible  # type: ignore[attr-defined]
            return wrapped  # type: ignore[return-value]

    if function is not None:
        return mark(function)
    return mark


class Records(List[Dict[str, Any]]):
    """A suite's records: a list of dicts, one per run, in run order.

    The fields are those of ``searchlab bench --out``'s ``results.jsonl``:
    ``domain``, ``problem``, ``config``, ``outcome``, ``cost``,
    ``plan_length``, ``expanded``, ``time`` and the rest.
    """

    def to_dataframe(self) -> Any:
        """The records as a pandas ``DataFrame`` (needs pandas installed).

        :returns: a ``DataFrame`` with one row per record.
        :raises ImportError: when pandas is not installed.
        """
        try:
            import pandas
        except ImportError as e:  # pragma: no cover - depends on the venv
            raise ImportError("Records.to_dataframe() needs pandas: pip install pandas") from e
        return pandas.DataFrame(list(self))


def run_suite(
    path: Optional[PathLike] = None,
    *,
    configs: Optional[Sequence[str]] = None,
    problems: Optional[Sequence[str]] = None,
    jobs: Optional[int] = None,
) -> Records:
    """Runs a suite and returns its records.

    :param path: a suite file (TOML, as ``searchlab bench suite.toml``
        reads); ``None`` runs the built-in default suite (528 runs, about
        10 s of planning on two cores).
    :param configs: configuration names (``fwd-astar-hmax``,
        ``reg-gbfs-ff`` ...) to run instead of the suite's.
    :param problems: only the suite's problems with these names.
    :param jobs: worker threads; ``None`` uses every core.
    :returns: :class:`Records`, one dict per run.
    :raises SearchlabError: for a malformed suite file or an unknown name.
    """
    lines = run_suite_jsonl(
        None if path is None else os.fspath(path),
        configs=None if configs is None else list(configs),
        problems=None if problems is None else list(problems),
        jobs=jobs,
    )
    return Records(json.loads(line) for line in lines.splitlines() if line)
