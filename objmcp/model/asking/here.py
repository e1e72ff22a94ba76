"""Questions answered in this process: the :class:`~objmcp.Elicit` and
:class:`~objmcp.Sample` a method gets from ``Toolbox.call(elicit=answer, sample=model)``,
with no client to ask.

Each question to the user goes to ``answer(message, wanted)`` (``wanted`` the type or JSON
Schema the method asked for; a URL question's URL), and its reply is read as a client's
would be: an :class:`~objmcp.ElicitResult` is taken as it is (its ``value`` read from its
``content`` when it has none); anything else is the accepted answer itself, checked against
the question and converted into the type asked for. Each request for a completion goes to
``model(messages, **options)`` (what the method passed, but ``key``), whose reply is a
string, a :class:`~objmcp.SampleResult` or a ``CreateMessageResult`` dict.

``elicit.many``, ``elicit.question`` and ``sample.question`` (for :func:`~objmcp.ask_all`,
together), ``elicit.url`` and ``elicit.complete`` work as with a client. On an event loop
every question is awaited, as a client's are (an async method awaits them); the answering
functions may be sync or async.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import anyio

from ..._exceptions import ElicitError, InteractionError
from ..calling.inject import DONE, Done, ElicitResult, SampleResult
from ..values.jsonable import NotJsonable, to_jsonable
from .elicit import Question as Form
from .elicit import make_question, read_answer
from .questions import Question, ask_all, forms
from .sampling import read_sample, sample_request

__all__ = ["AskedHere", "SampledHere"]

MODEL = "objmcp.Toolbox"
"""The model a completion given as a bare string says it came from."""

Messages = str | Sequence[str | Mapping[str, Any]]


class AskedHere:
    """The questions to the user of one call, each answered by ``answer(message, wanted)``."""

    def __init__(self, answer: Callable[[str, object], object]) -> None:
        if not callable(answer):
            raise TypeError(f"elicit= takes a callable, not {type(answer).__name__}")
        self.answer = answer
        """What answers each question."""

    def __call__(self, message: str, schema: object = bool, *, key: str | None = None) -> Any:
        """Ask ``message`` for ``schema``: the answer (to await on an event loop)."""
        form = make_question(message, schema)
        return _then(self.answer(message, schema), lambda reply: _read(form, reply))

    def question(self, message: str, schema: object = bool) -> Question:
        """The question ``self(message, schema)`` asks, for :func:`~objmcp.ask_all`."""
        make_question(message, schema)  # refused now, as a client's asker refuses it
        return Question("elicitation", lambda: self(message, schema), _ask_here)

    def many(self, questions: Mapping[str, str | tuple[str, object]]) -> Any:
        """Ask each key's message (or ``(message, schema)``): the answers by key."""
        return ask_all(forms(questions, self.question))

    def url(self, message: str, url: str, *, key: str | None = None) -> Any:
        """Ask the user to open ``url``: ``answer(message, url)``'s
        :class:`~objmcp.ElicitResult`, or accepted when it gives anything else."""
        if not isinstance(message, str) or not isinstance(url, str):
            raise TypeError("elicit.url takes the message and the URL as strings")
        return _then(
            self.answer(message, url),
            lambda reply: reply if isinstance(reply, ElicitResult) else ElicitResult("accept"),
        )

    def complete(self, elicitation_id: str | None) -> Done:
        """Nothing to tell: no client is waiting on a page."""
        return DONE


class SampledHere:
    """The completions one call asks for, each given by ``model(messages, **options)``."""

    def __init__(self, model: Callable[..., object]) -> None:
        if not callable(model):
            raise TypeError(f"sample= takes a callable, not {type(model).__name__}")
        self.model = model
        """What answers each request."""

    def __call__(self, messages: Messages, *, key: str | None = None, **options: Any) -> Any:
        """Ask for a completion of ``messages``: the :class:`~objmcp.SampleResult` (to
        await on an event loop)."""
        sample_request(messages, **options)  # refused now, as a client's asker refuses it
        return _then(self.model(messages, **options), _sampled)

    def question(self, messages: Messages, **options: Any) -> Question:
        """The request ``self(messages, **options)`` makes, for :func:`~objmcp.ask_all`."""
        sample_request(messages, **options)
        return Question("sampling", lambda: self(messages, **options), _ask_here)


def _read(form: Form, reply: object) -> ElicitResult:
    """``reply`` to the question ``form``, read as a client's answer."""
    if isinstance(reply, ElicitResult):
        if reply.action != "accept" or reply.value is not None:
            return reply
        return read_answer(form, "accept", reply.content)
    try:
        content = to_jsonable(reply, strict=True)
    except NotJsonable as error:
        raise ElicitError(f"The answer is not JSON: {error}") from None
    return read_answer(form, "accept", {"value": content} if form.wrapped else content)


def _sampled(reply: object) -> SampleResult:
    """``reply`` to a request for a completion, read as a client's."""
    if isinstance(reply, str):
        return SampleResult(reply, MODEL, "endTurn")
    if isinstance(reply, SampleResult):
        return reply
    if isinstance(reply, Mapping):
        return read_sample(reply)
    raise InteractionError(
        "a sample= function returns a string, an objmcp.SampleResult or a "
        f"CreateMessageResult dict, not {type(reply).__name__}"
    )


def _ask_here(questions: dict[str, Question]) -> Any:
    """Ask ``questions`` (made here: each ``request`` asks it): the answers by key."""
    answers = {
        key: typing.cast("Callable[[], Any]", question.request)()
        for key, question in questions.items()
    }
    if not any(inspect.isawaitable(answer) for answer in answers.values()):
        return answers

    async def awaited() -> dict[str, Any]:
        return {
            key: await answer if inspect.isawaitable(answer) else answer
            for key, answer in answers.items()
        }

    return awaited()


def _then(reply: object, read: Callable[[Any], Any]) -> Any:
    """``read(reply)``, once ``reply`` is awaited when it is awaitable; to await on an
    event loop (an async method awaits its questions there, a sync one in its thread
    does not)."""
    if not inspect.isawaitable(reply) and not _on_a_loop():
        return read(reply)

    async def awaited() -> Any:
        return read(await reply if inspect.isawaitable(reply) else reply)

    return awaited()


def _on_a_loop() -> bool:
    try:
        anyio.get_current_task()
    except Exception:  # no event loop runs in this thread
        return False
    return True
