"""searchlab as a Unified Planning engine.

Importing this package registers the engine with UP's factory under the
name ``searchlab``::

    import up_searchlab  # registers "searchlab"
    from unified_planning.shortcuts import OneshotPlanner

    with OneshotPlanner(name="searchlab", params={"heuristic": "lmcut"}) as planner:
        result = planner.solve(problem)

The engine is a ``OneshotPlanner`` and a ``PlanValidator`` for classical
problems (``searchlab-opt``: optimal configurations only, which the factory
picks when optimality is asked for): it writes the problem as PDDL with UP's ``PDDLWriter``, hands the
text to searchlab's PDDL front end in memory, and maps the plan's actions
back to the problem's with the writer's names.
"""

from __future__ import annotations

from .engine import SearchlabEngine, SearchlabOptEngine, register

__all__ = ["SearchlabEngine", "SearchlabOptEngine", "register"]

register()
