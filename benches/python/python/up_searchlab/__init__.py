"""searchlab as a Unified Planning engine.

Importing this package registers two engines with UP's factory,
``searchlab`` and ``searchlab-opt`` (optimal configurations only), ahead
of the other planners in its preference list::

    import up_searchlab  # registers "searchlab" and "searchlab-opt"
    from unified_planning.shortcuts import OneshotPlanner

    with OneshotPlanner(name="searchlab", params={"heuristic": "lmcut"}) as planner:
        result = planner.solve(problem)

Asked by problem kind, the factory then picks ``searchlab`` for the
classical problems it supports, and ``searchlab-opt`` when optimality is
asked for (``optimality_guarantee=SOLVED_OPTIMALLY``), even with Fast
Downward installed. ``up_searchlab.register(prefer=False)`` puts them
back at the end of the list, where UP puts an engine it adds.

The engines are ``OneshotPlanner`` and ``PlanValidator`` engines for
classical problems: they write the problem as PDDL with UP's
``PDDLWriter``, hand the text to searchlab's PDDL front end in memory, and
map the plan's actions back to the problem's with the writer's names.
searchlab's errors are said of the problem too (``action go_fast: cost
1.5 is not an integer``), not of the PDDL text it read.
"""

from __future__ import annotations

from .engine import SearchlabEngine, SearchlabOptEngine, register

__all__ = ["SearchlabEngine", "SearchlabOptEngine", "register"]

register()
