"""searchlab's messages said of the user's problem.

The engine hands searchlab the PDDL text UP's ``PDDLWriter`` made of the
problem, so searchlab's errors locate what is wrong in that text
(``domain:12:43: cost `1.5` is not an integer``), which the user never
saw. :func:`explain` finds the construct at the error's place (the
enclosing ``(:action NAME``, ``(:init``, ``(:goal``, ``(:metric``, a
requirement, a plan's step) and names it with the problem's own names,
which the writer maps back from its PDDL names::

    action go_fast: cost 1.5 is not an integer (searchlab takes whole-number costs)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

import unified_planning as up
from unified_planning.io import PDDLWriter

# ``file:line:column: message``, as searchlab locates an error in a text.
_LOCATED = re.compile(r"^(?P<file>domain|problem|plan):(?P<line>\d+):(?P<column>\d+): (?P<message>.*)$", re.S)

# A span in backticks in searchlab's messages: a name, a number or a
# construct from the PDDL text.
_QUOTED = re.compile(r"`([^`]*)`")

# What each requirement searchlab refuses stands for in a UP problem, and
# the parts of the problem that need it.
_REQUIREMENTS = {
    ":numeric-fluents": "numeric fluent",
    ":durative-actions": "durative action",
    ":duration-inequalities": "durative action",
    ":continuous-effects": "continuous effect",
    ":timed-initial-literals": "timed effect",
    ":timed-initial-effects": "timed effect",
    ":constraints": "trajectory constraint or state invariant",
    ":preferences": "preference",
}

# searchlab's refusal of a requirement, and its reason.
_REFUSED = re.compile(r"^unsupported requirement `(?P<requirement>[^`]+)`(?P<reason>.*)$", re.S)

# A cost or a cost function's value that is not a whole number.
_NOT_WHOLE = re.compile(r"\b(cost|function value) \S+ is not an integer")


@dataclass
class _Form:
    """A parenthesized form open at the error's place: where it starts and
    its first two words (``:action``, ``go_fast``)."""

    start: int
    words: List[str] = field(default_factory=list)


@dataclass
class _Place:
    """Where in the PDDL text an error is: the forms open there, outermost
    first, and the word at it, if any."""

    text: str
    forms: List[_Form]
    word: Optional[str]


def _offset(text: str, line: int, column: int) -> Optional[int]:
    """The offset of a line and column in ``text``, or ``None`` if the text
    is shorter.

    :param text: the text.
    :param line: the line, from 1.
    :param column: the column in characters, from 1.
    """
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return None
    return sum(len(before) + 1 for before in lines[: line - 1]) + min(max(column - 1, 0), len(lines[line - 1]))


def _place(text: str, offset: int) -> _Place:
    """The forms open at ``offset`` in the PDDL ``text``, and the word there
    (a form starting at ``offset`` counts as open).

    :param text: PDDL text.
    :param offset: the error's offset in it.
    """
    forms: List[_Form] = []
    word: Optional[str] = None
    i = 0
    while i < len(text) and i <= offset:
        c = text[i]
        if c == ";":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        elif c == "(":
            forms.append(_Form(i))
            i += 1
        elif c == ")":
            if i == offset:
                break  # at a closing parenthesis: still inside its form
            if forms:
                forms.pop()
            i += 1
        elif c.isspace():
            i += 1
        else:
            end = i
            while end < len(text) and not text[end].isspace() and text[end] not in "();":
                end += 1
            token = text[i:end]
            if forms and len(forms[-1].words) < 2:
                forms[-1].words.append(token)
            if i <= offset < end:
                word = token
            i = end
    return _Place(text, forms, word)


def _form_text(text: str, start: int) -> str:
    """The form that starts at ``start`` in ``text``, parentheses balanced
    (the rest of the text if it never closes).

    :param text: PDDL text.
    :param start: the offset of the form's ``(``.
    """
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return text[start:]


class Names:
    """The problem's names of the PDDL names ``writer`` gave.

    :param writer: the writer that made the PDDL text of the problem.
    """

    def __init__(self, writer: Optional[PDDLWriter]) -> None:
        self._writer = writer

    def item(self, pddl_name: str) -> Optional[Any]:
        """The problem's item (action, fluent, object, type, parameter) the
        writer called ``pddl_name``, or ``None``.

        :param pddl_name: a name in the writer's PDDL text, in any case (a
            variable with its ``?``).
        """
        if self._writer is None:
            return None
        name = pddl_name[1:] if pddl_name.startswith("?") else pddl_name
        for candidate in (name, name.lower()):
            try:
                return self._writer.get_item_named(candidate)
            except up.exceptions.UPException:
                continue
        return None

    def __call__(self, pddl_name: str) -> str:
        """The problem's name for ``pddl_name``, or ``pddl_name`` itself when
        the writer made no item of that name (a keyword, a number).

        :param pddl_name: a name in the writer's PDDL text.
        """
        item = self.item(pddl_name)
        name = getattr(item, "name", None)
        return pddl_name if name is None else str(name)

    def expression(self, form: "_Sexp") -> str:
        """A PDDL expression as UP writes one: ``(at r1 room0)`` is
        ``at(R1, Room0)``, ``(not (locked room2))`` is
        ``not locked(Room2)``.

        :param form: the expression, parsed.
        """
        if isinstance(form, str):
            return self(form)
        if not form or not isinstance(form[0], str):
            return " ".join(self.expression(part) for part in form)
        head, args = form[0], form[1:]
        if head.lower() == "not" and len(args) == 1:
            return f"not {self.expression(args[0])}"
        if head == "=" and len(args) == 2:
            return f"{self.expression(args[0])} = {self.expression(args[1])}"
        shown = [self.expression(arg) for arg in args]
        return f"{self(head)}({', '.join(shown)})" if shown else self(head)

    def quoted(self, text: str) -> str:
        """What searchlab quoted, in the problem's words: an atom, an
        action's step (``move room1 room2`` is ``move(Room1, Room2)``), or
        words, each name translated.

        :param text: the quoted text, without its backticks.
        """
        parsed = _parse(text)
        if len(parsed) == 1 and isinstance(parsed[0], list):
            return self.expression(parsed[0])
        words = text.split()
        if len(words) > 1 and all(isinstance(w, str) for w in parsed) and self._is_action(words[0]):
            return self.expression(list(words))
        return " ".join(self(word) for word in words) if words else text

    def _is_action(self, pddl_name: str) -> bool:
        """Whether the writer's ``pddl_name`` is one of the problem's
        actions.

        :param pddl_name: a name in the writer's PDDL text.
        """
        return isinstance(self.item(pddl_name), up.model.Action)

    def message(self, message: str) -> str:
        """searchlab's ``message`` with what it quoted in the problem's
        words, unquoted.

        :param message: a searchlab message without its location.
        """
        return _QUOTED.sub(lambda m: self.quoted(m.group(1)), message)


# A parsed PDDL expression: a word, or a list of expressions.
_Sexp = Union[str, List["_Sexp"]]


def _parse(text: str) -> List[_Sexp]:
    """The expressions in ``text``; an unbalanced ``)`` closes nothing and
    an unclosed ``(`` ends with the text.

    :param text: PDDL text.
    """
    stack: List[List[_Sexp]] = [[]]
    for word in text.replace("(", " ( ").replace(")", " ) ").split():
        if word == "(":
            stack.append([])
        elif word == ")":
            if len(stack) > 1:
                done = stack.pop()
                stack[-1].append(done)
        else:
            stack[-1].append(word)
    while len(stack) > 1:
        done = stack.pop()
        stack[-1].append(done)
    return stack[0]


def _parts_needing(problem: Optional["up.model.Problem"], noun: str) -> List[str]:
    """The names of the problem's parts that a refused requirement stands
    for (its numeric fluents, its durative actions ...).

    :param problem: the user's problem, if known.
    :param noun: what the requirement stands for, as in ``_REQUIREMENTS``.
    """
    if problem is None:
        return []
    if noun == "numeric fluent":
        return [f.name for f in problem.fluents if not f.type.is_bool_type()]
    if noun == "durative action":
        return [a.name for a in problem.actions if isinstance(a, up.model.DurativeAction)]
    return []


def _requirement(requirement: str, reason: str, problem: Optional["up.model.Problem"]) -> str:
    """A refused requirement said of the problem's parts that need it:
    ``numeric fluents battery, fuel (requirement :numeric-fluents) are not
    supported: searchlab reads ADL with :action-costs``.

    :param requirement: the requirement, as the writer wrote it.
    :param reason: searchlab's reason, in parentheses or not.
    :param problem: the user's problem, if known.
    """
    noun = _REQUIREMENTS.get(requirement.lower())
    names = [] if noun is None else _parts_needing(problem, noun)
    if noun is None:
        subject, plural = f"requirement {requirement}", False
    elif not names:
        subject, plural = f"the problem's {noun}s (requirement {requirement})", True
    else:
        plural = len(names) > 1
        subject = f"{noun}{'s' if plural else ''} {', '.join(names)} (requirement {requirement})"
    reason = reason.strip()
    if reason.startswith("(") and reason.endswith(")"):
        reason = reason[1:-1]
    verb = "are" if plural else "is"
    return f"{subject} {verb} not supported" + (f": {reason}" if reason else "")


def _section(place: _Place) -> Optional[str]:
    """The head of the domain's or problem's section at ``place``
    (``:action``, ``:init`` ...), in lower case.

    :param place: where the error is in the writer's text.
    """
    if len(place.forms) < 2 or not place.forms[1].words:
        return None
    return place.forms[1].words[0].lower()


def _where(place: _Place, names: Names) -> Optional[str]:
    """The construct of the problem at ``place`` in its PDDL text, in the
    problem's words: ``action go_fast``, ``the goal`` ..., or ``None``.

    :param place: where the error is in the writer's text.
    :param names: the writer's names, mapped back.
    """
    head = _section(place)
    if head is None:
        return None
    section = place.forms[1]
    inner = place.forms[2] if len(place.forms) > 2 else None
    if head == ":action" and len(section.words) > 1:
        return f"action {names(section.words[1])}"
    if head == ":init":
        if inner is None:
            return "the initial state"
        parsed = _parse(_form_text(place.text, inner.start))
        fact = parsed[0] if parsed else []
        if isinstance(fact, list) and len(fact) == 3 and fact[0] == "=":
            return f"the initial value of {names.expression(fact[1])}"
        return f"the initial state, {names.expression(fact)}"
    if head == ":goal":
        return "the goal"
    if head == ":metric":
        return "the quality metric"
    if head in (":predicates", ":functions") and inner is not None and inner.words:
        return f"fluent {names(inner.words[0])}"
    if head == ":types" and place.word is not None:
        return f"type {names(place.word)}"
    if head in (":constants", ":objects") and place.word is not None:
        return f"object {names(place.word)}"
    return None


def _step(plan: Optional["up.plans.SequentialPlan"], line: int, message: str) -> Optional[str]:
    """The plan's step on ``line`` of the plan text (the writer writes one
    step a line): ``step 3, move(Room2, Room3)``, or ``step 3`` when the
    message shows the step.

    :param plan: the user's plan, if known.
    :param line: the line, from 1.
    :param message: the message about the step, in the problem's words.
    """
    if plan is None or not 1 <= line <= len(plan.actions):
        return None
    step = str(plan.actions[line - 1])
    return f"step {line}" if step in message else f"step {line}, {step}"


def explain(
    message: str,
    writer: Optional[PDDLWriter] = None,
    texts: Optional[Dict[str, str]] = None,
    problem: Optional["up.model.Problem"] = None,
    plan: Optional["up.plans.SequentialPlan"] = None,
) -> str:
    """searchlab's error ``message`` said of the user's problem.

    A message located in the writer's text (``domain:12:43: ...``) is
    said of the construct there, in the problem's names; the location is
    dropped. Quoted PDDL names become the problem's names wherever the
    message is.

    :param message: searchlab's message (``str(SearchlabError)``).
    :param writer: the writer that made the PDDL text.
    :param texts: the texts searchlab read, by the name its messages give
        them: ``domain``, ``problem`` and ``plan``.
    :param problem: the user's problem.
    :param plan: the user's plan, for the validator's messages.
    :returns: the message in the problem's words.
    """
    names = Names(writer)
    located = _LOCATED.match(message)
    if located is None:
        return _hinted(names.message(message))
    what = names.message(located["message"])
    line, column = int(located["line"]), int(located["column"])
    where: Optional[str] = None
    if located["file"] == "plan":
        where = _step(plan, line, what)
    else:
        text = (texts or {}).get(located["file"])
        offset = None if text is None else _offset(text, line, column)
        if text is not None and offset is not None:
            place = _place(text, offset)
            refused = _REFUSED.match(located["message"])
            if refused is not None and _section(place) == ":requirements":
                return _requirement(refused["requirement"], refused["reason"], problem)
            where = _where(place, names)
    if where is None:
        return _hinted(what)
    return _hinted(f"{where}: {what}")


def _hinted(message: str) -> str:
    """``message`` with what searchlab takes, where it refuses a cost that
    is not a whole number (UP's costs may be any number).

    :param message: a message in the problem's words.
    """
    if _NOT_WHOLE.search(message):
        return f"{message} (searchlab takes whole-number costs)"
    return message


def explained_logs(
    message: str,
    level: "up.engines.LogLevel",
    writer: Optional[PDDLWriter] = None,
    texts: Optional[Dict[str, str]] = None,
    problem: Optional["up.model.Problem"] = None,
    plan: Optional["up.plans.SequentialPlan"] = None,
) -> List["up.engines.LogMessage"]:
    """The log messages of an engine's answer to searchlab's ``message``:
    the message in the problem's words at ``level``, then searchlab's own
    at ``DEBUG`` when they differ.

    :param message: searchlab's message.
    :param level: the first message's level.
    :param writer: the writer that made the PDDL text.
    :param texts: the texts searchlab read, by name.
    :param problem: the user's problem.
    :param plan: the user's plan, for the validator.
    :returns: one or two ``LogMessage`` objects.
    """
    explained = explain(message, writer, texts, problem, plan)
    logs = [up.engines.LogMessage(level, explained)]
    if explained != message:
        logs.append(up.engines.LogMessage(up.engines.LogLevel.DEBUG, f"searchlab on the PDDL UP wrote: {message}"))
    return logs
