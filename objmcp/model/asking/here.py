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
together), ``elicit.url`` and ``elicit.complete`` work as with a client. An async method
awaits its questions, as it awaits a client's; a sync one gets the answers. The answering
functions may be sync or async: a sync method's question to an async one is awaited on the
event loop whose worker thread runs the method, else in an event loop of its own.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Awaitable, Callable, Mapping, Sequence
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
    """The questions to the user of one call, each answered by ``answer(message, wanted)``;
    ``awaited`` for an async method's (each question is then to await)."""

    def __init__(self, answer: Callable[[str, object], object], awaited: bool = False) -> None:
        if not callable(answer):
            raise TypeError(f"elicit= takes a callable, not {type(answer).__name__}")
        self.answer = answer
        """What answers each question."""
        self.awaited = awaited
        """Whether the method awaits its questions (an async method)."""

    def __call__(self, message: str, schema: object = bool, *, key: str | None = None) -> Any:
        """Ask ``message`` for ``schema``: the answer (to await on an event loop)."""
        form = make_question(message, schema)
        reply = self.answer(message, schema)
        return _then(reply, lambda answer: _read(form, answer), self.awaited)

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
            self.awaited,
        )

    def complete(self, elicitation_id: str | None) -> Done:
        """Nothing to tell: no client is waiting on a page."""
        return DONE


class SampledHere:
    """The completions one call asks for, each given by ``model(messages, **options)``;
    ``awaited`` for an async method's (each request is then to await)."""

    def __init__(self, model: Callable[..., object], awaited: bool = False) -> None:
        if not callable(model):
            raise TypeError(f"sample= takes a callable, not {type(model).__name__}")
        self.model = model
        """What answers each request."""
        self.awaited = awaited
        """Whether the method awaits its requests (an async method)."""

    def __call__(self, messages: Messages, *, key: str | None = None, **options: Any) -> Any:
        """Ask for a completion of ``messages``: the :class:`~objmcp.SampleResult` (to
        await on an event loop)."""
        sample_request(messages, **options)  # refused now, as a client's asker refuses it
        return _then(self.model(messages, **options), _sampled, self.awaited)

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
    """Ask ``questions`` (made here: each ``request`` asks it): the answers by key (to
    await when the method awaits its questions)."""
    answers = {
        key: typing.cast("Callable[[], Any]", question.request)()
        for key, question in questions.items()
    }
    if not any(inspect.iscoroutine(answer) for answer in answers.values()):
        return answers

    async def awaited() -> dict[str, Any]:
        try:
            return {key: await answer for key, answer in answers.items()}
        finally:  # one raised: the rest are never awaited
            for answer in answers.values():
                answer.close()

    return awaited()


def _then(reply: object, read: Callable[[Any], Any], awaited: bool) -> Any:
    """``read(reply)``, once ``reply`` is awaited when it is awaitable: to await when the
    method awaits its questions (``awaited``), else here and now."""
    if awaited:

        async def later() -> Any:
            return read(await reply if inspect.isawaitable(reply) else reply)

        return later()
    if inspect.isawaitable(reply):
        return read(_settled(reply))
    return read(reply)


def _settled(reply: Awaitable[Any]) -> Any:
    """What ``reply`` (an async answering function's, to a sync method) comes to: awaited
    on the event loop whose worker thread this is, else in an event loop of its own."""

    async def awaited() -> Any:
        return await reply

    try:
        anyio.from_thread.run_sync(lambda: None)  # a worker thread of an event loop?
    except RuntimeError:
        pass
    else:
        return anyio.from_thread.run(awaited)
    try:
        anyio.get_current_task()
    except Exception:  # no event loop runs in this thread: one of its own
        return anyio.run(awaited)
    if inspect.iscoroutine(reply):
        reply.close()
    raise RuntimeError(
        "an async answering function cannot answer a sync method run on the event loop's "
        "own thread (it would wait for the loop it blocks): make the method async, or the "
        "function sync"
    )
