"""Type hints for the native module ``searchlab._searchlab`` (PyO3); the
docstrings are on the objects themselves."""

from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Union

__version__: str

_Path = Union[str, PathLike[str]]
_Heuristic = Union[str, Callable[[Any], Optional[float]], None]

class SearchlabError(ValueError): ...

class Statistics:
    expanded: int
    generated: int
    evaluated: int
    duplicates: int
    reopened: int
    dead_ends: int
    expanded_until_last_jump: int
    max_open: int
    stored: int
    estimated_bytes: int
    time: float
    def to_dict(self) -> Dict[str, Any]: ...

class PlanResult:
    problem: str
    config: str
    outcome: str
    limit: Optional[str]
    plan: Optional[List[str]]
    cost: Optional[int]
    optimal: bool
    direction: str
    stats: Statistics
    forward: Optional[Statistics]
    regression: Optional[Statistics]
    time: float
    setup_time: float
    translator_time: Optional[float]
    notes: List[str]
    @property
    def solved(self) -> bool: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Problem:
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def actions(self) -> List[str]: ...
    def plan(
        self,
        *,
        direction: str = "forward",
        algorithm: str = "astar",
        heuristic: _Heuristic = None,
        max_time: Optional[float] = 60.0,
        max_expansions: Optional[int] = None,
        max_memory_mb: Optional[int] = 512,
    ) -> PlanResult: ...

class PddlTask:
    @property
    def name(self) -> str: ...
    def plan(
        self,
        *,
        direction: str = "forward",
        algorithm: str = "astar",
        heuristic: _Heuristic = None,
        max_time: Optional[float] = 60.0,
        max_expansions: Optional[int] = None,
        max_memory_mb: Optional[int] = 512,
        packing: bool = True,
    ) -> PlanResult: ...

def load(path: _Path) -> Problem: ...
def parse(text: str, file_name: str = "problem.toml") -> Problem: ...
def load_pddl(domain: _Path, problem: _Path) -> PddlTask: ...
def pddl_from_text(domain: str, problem: str) -> PddlTask: ...
def validate_pddl(domain: _Path, problem: _Path, plan: _Path) -> int: ...
def validate_pddl_text(domain: str, problem: str, plan: str) -> int: ...
def heuristics() -> List[Dict[str, Any]]: ...
def run_suite_jsonl(
    path: Optional[_Path] = None,
    *,
    configs: Optional[List[str]] = None,
    problems: Optional[List[str]] = None,
    jobs: Optional[int] = None,
) -> str: ...
