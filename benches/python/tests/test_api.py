"""The public API as Python's tools show it: every docstring in one style
(reST, as Sphinx and ``help`` read it: ``code``, :param x:, :returns:,
:raises SearchlabError:), whether it comes from a Rust doc comment or a
Python docstring, and signatures with their real defaults."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import re
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator, List, Tuple

import pytest

import searchlab

# Rustdoc's section headings, which reST shows as text.
HEADING = re.compile(r"^\s*#{1,6}\s+(Errors|Examples?|Panics|Safety|Arguments|Returns|Notes?)\s*$", re.M)
# reST's code (``x``) and roles (:func:`x`, :class:`x` ...): what is left
# of a docstring without them has no backtick.
DOUBLE = re.compile(r"``.+?``", re.S)
ROLE = re.compile(r":[\w.+-]+(?::[\w.+-]+)?:`[^`]+`")


# Where members the packages' classes did not define come from.
FOREIGN = {"builtins", "typing", "unified_planning.engines.engine"}


def modules() -> List[ModuleType]:
    """The packages' modules: searchlab's, and up_searchlab's when Unified
    Planning is installed."""
    names = ["searchlab", "searchlab._searchlab"]
    if importlib.util.find_spec("unified_planning") is not None:
        names += ["up_searchlab", "up_searchlab.engine", "up_searchlab._messages"]
    return [importlib.import_module(name) for name in names]


def prose(doc: str) -> str:
    """``doc`` without its literal blocks (the indented lines after a line
    ending in ``::``), where backticks and ``#`` are code."""
    kept: List[str] = []
    literal_indent = None
    for line in inspect.cleandoc(doc).split("\n"):
        indent = len(line) - len(line.lstrip())
        if literal_indent is not None:
            if not line.strip() or indent > literal_indent:
                continue
            literal_indent = None
        kept.append(line)
        if line.rstrip().endswith("::"):
            literal_indent = indent
    return "\n".join(kept)


def style_errors(doc: str) -> List[str]:
    """What in ``doc`` is Markdown rather than reST."""
    text = prose(doc)
    errors = [f"Markdown heading {m.group(0).strip()!r}" for m in HEADING.finditer(text)]
    rest = ROLE.sub("", DOUBLE.sub("", text))
    for line in rest.split("\n"):
        if "`" in line:
            errors.append(f"single backticks (reST wants ``code``) in {line.strip()!r}")
    return errors


def public_docs() -> Iterator[Tuple[str, Any]]:
    """``(qualified name, docstring)`` of every module, and of every public
    function, class, method, property and field the packages define."""
    for module in modules():
        yield module.__name__, module.__doc__
        names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
        for name in names:
            value = getattr(module, name)
            if getattr(value, "__module__", None) not in (module.__name__, "searchlab"):
                continue  # imported from elsewhere (typing, UP)
            if isinstance(value, type):
                yield f"{module.__name__}.{name}", value.__doc__
                for attribute, member in vars(value).items():
                    member = getattr(member, "__func__", member)  # a staticmethod's function
                    if attribute.startswith("_") or getattr(member, "__module__", "searchlab") in FOREIGN:
                        continue  # private, or set by UP's metaclass
                    yield f"{module.__name__}.{name}.{attribute}", member.__doc__
            elif callable(value):
                yield f"{module.__name__}.{name}", value.__doc__


def source_docs() -> Iterator[Tuple[str, str]]:
    """``(file:line, docstring)`` of every docstring in the packages' Python
    files and stub, private helpers included."""
    for module in modules():
        if not module.__name__.count(".") and module.__file__ is not None:
            folder = Path(module.__file__).parent
            for path in sorted([*folder.glob("*.py"), *folder.glob("*.pyi")]):
                tree = ast.parse(path.read_text())
                for node in ast.walk(tree):
                    if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                        doc = ast.get_docstring(node, clean=False)
                        if doc is not None:
                            yield f"{path.name}:{getattr(node, 'lineno', 1)}", doc


def test_every_public_item_has_a_docstring() -> None:
    missing = [name for name, doc in public_docs() if not (doc or "").strip()]
    assert missing == []
    assert len(list(public_docs())) > 60  # the walk reaches fields and methods


def test_docstrings_are_rest_not_markdown() -> None:
    errors = [f"{name}: {error}" for name, doc in public_docs() for error in style_errors(doc or "")]
    errors += [f"{name}: {error}" for name, doc in source_docs() for error in style_errors(doc)]
    assert errors == []


@pytest.mark.parametrize(
    ("doc", "caught"),
    [
        ("Plans.\n\n# Errors\n`SearchlabError` for a bad name.", 2),
        ("The outcome: `solved` or ``limit``.", 1),
        ("The outcome: ``solved``, see :func:`plan` and :class:`PlanResult`.", 0),
        ("Use it so::\n\n    # a comment, and `backticks` in code\n    plan()\n\nDone.", 0),
    ],
)
def test_the_style_check_catches_markdown(doc: str, caught: int) -> None:
    assert len(style_errors(doc)) == caught


def test_signatures_show_the_defaults() -> None:
    for plan in [searchlab.Problem.plan, searchlab.PddlTask.plan]:
        parameters = inspect.signature(plan).parameters
        defaults = {name: p.default for name, p in parameters.items() if p.default is not inspect.Parameter.empty}
        assert defaults["max_time"] == 60.0 and defaults["max_memory_mb"] == 512, defaults
        assert defaults["direction"] == "forward" and defaults["max_expansions"] is None
        assert all(p.kind == inspect.Parameter.KEYWORD_ONLY for name, p in parameters.items() if name != "self")
    assert inspect.signature(searchlab.PddlTask.plan).parameters["packing"].default is True
    assert "max_time=60.0" in (searchlab.Problem.plan.__text_signature__ or "")
    assert list(inspect.signature(searchlab.validate_pddl).parameters) == ["domain", "problem", "plan"]
