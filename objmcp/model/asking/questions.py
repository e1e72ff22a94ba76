"""Several questions to the client at once, and the keys that name questions.

A method asks one thing with an injected callable (``elicit(...)``,
``sample(...)``, ``roots()``). To ask several together, it makes each question
without asking it (``elicit.question(...)``, ``sample.question(...)``,
``roots.question()``: a :class:`Question`) and hands them, each under a key, to
:func:`ask_all`, which asks them in one go and returns the answers under the same
keys. ``elicit.many`` does the same for forms alone. How a question travels is the
server's business: in the modern era the keys are those of the one
``input_required`` result's ``inputRequests``; in the handshake era the questions
go out one after the other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Question", "ask_all", "forms", "question_key"]


@dataclass(frozen=True, eq=False)
class Question:
    """A question to the client, made but not asked yet: what ``elicit.question(...)``,
    ``sample.question(...)`` and ``roots.question()`` return. Ask it, with others, with
    :func:`ask_all`."""

    kind: str
    """What it asks for: ``"elicitation"``, ``"sampling"`` or ``"roots"``."""
    request: object = field(repr=False)
    """What the server makes of it (opaque here)."""
    asker: Callable[[dict[str, Question]], Any] = field(repr=False)
    """Asks questions of the call that made this one, by key."""


def ask_all(questions: Mapping[str, Question] | None = None, /, **named: Question) -> Any:
    """Ask several questions of one call together and return their answers, by key.

    ``questions`` maps each key to a :class:`Question` (or give them as keyword
    arguments: ``ask_all(name=elicit.question("Your name?", str), roots=roots.question())``).
    The answers come back in a dict under the same keys: an
    :class:`~objmcp.ElicitResult`, a :class:`~objmcp.SampleResult` or a list of
    :class:`~objmcp.Root`. A sync method gets the dict; an async one awaits it
    (``await objmcp.ask_all(...)``). A key is the question's ``inputRequests`` key in
    2026-07-28, and must be unique within the call.
    """
    given = dict(questions or {})
    for key in named:
        if key in given:
            raise TypeError(f"ask_all got the key {key!r} twice")
    given.update(named)
    if not given:
        raise ValueError("ask_all needs at least one question")
    for key, question in given.items():
        question_key(key)
        if not isinstance(question, Question):
            raise TypeError(
                f"ask_all: {key!r} is {type(question).__name__}, not a question made with "
                "elicit.question(...), sample.question(...) or roots.question()"
            )
    asker = next(iter(given.values())).asker
    if any(question.asker is not asker for question in given.values()):
        raise ValueError("ask_all asks the questions of one call: these were made by several")
    return asker(given)


def question_key(key: object) -> str:
    """``key`` if it can name a question (a non-empty string, as an ``inputRequests`` key);
    raises TypeError or ValueError saying why not."""
    if not isinstance(key, str):
        raise TypeError(f"a question's key is a string, not {type(key).__name__}")
    if not key:
        raise ValueError("a question's key cannot be empty")
    return key


def forms(
    questions: Mapping[str, str | tuple[str, object]], question: Callable[..., Question]
) -> dict[str, Question]:
    """The questions ``elicit.many(questions)`` asks, by key: each made by
    ``question(message)`` or ``question(message, schema)``; raises TypeError for anything
    else."""
    if not isinstance(questions, Mapping):
        raise TypeError(
            "elicit.many takes a dict of questions, key -> message or (message, schema), "
            f"not {type(questions).__name__}"
        )
    made: dict[str, Question] = {}
    for key, asked in questions.items():
        if isinstance(asked, str):
            made[key] = question(asked)
        elif isinstance(asked, tuple) and len(asked) == 2:
            made[key] = question(*asked)
        else:
            raise TypeError(
                f"elicit.many: the question {key!r} is a message or a (message, schema) "
                f"pair, not {asked!r}"
            )
    return made
