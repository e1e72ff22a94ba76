"""A call in progress, and what its injected parameters get.

The callables handed to a method are thin: each builds what to send (a
question, a completion request, a progress report) and hands it to the
connection through the :class:`Reach` it was made with; none knows the era of
MCP in force. A sync method calls them from its worker thread and blocks; an
async one awaits them on the loop.
"""

from __future__ import annotations

import threading
import typing
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import anyio
import anyio.from_thread
import anyio.lowlevel

from .._exceptions import ElicitationUnavailable, ElicitError, InteractionError, ObjmcpError
from .._exceptions import InteractionUnavailable as Unavailable
from ..model.asking.elicit import make_question, read_answer
from ..model.asking.questions import Question, ask_all, forms, question_key
from ..model.asking.sampling import read_roots, read_sample, sample_request
from ..model.calling.caller import Caller
from ..model.calling.inject import (
    CARRIED,
    DONE,
    REQUEST_CAPABILITIES,
    REQUEST_EXTENSIONS,
    REQUEST_META,
    Cancelled,
    Done,
    Elicit,
    ElicitResult,
    InputNeeded,
    Progress,
    ResourceUpdated,
    Roots,
    Sample,
)
from ..model.calling.threads import Place, ThreadRunner
from ..protocol.jsonrpc import ProtocolError
from ..protocol.session import CallContext, Feature

__all__ = ["STOP", "ClientRequest", "Injections", "Reach", "RunningCall", "Wait", "injections"]


@dataclass(eq=False)
class Wait:
    """What a call waiting for its client is told when the wait ends: the answer to the
    request it sent (handshake era), its retry come (a parked call), or answers brought
    to its task; ``released`` when it ended with none."""

    answered: anyio.Event = field(default_factory=anyio.Event)
    result: Mapping[str, Any] | None = None
    error: dict[str, Any] | None = None
    released: bool = False


@dataclass(eq=False)
class RunningCall:
    """A call in progress. A parked call resumed by a client's retry takes the retry's
    ``call_id`` and ``context``; everything that reports on the call reads them here."""

    call_id: int
    tool: str
    context: CallContext
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    """What the call runs in: cancelled to stop it, and its deadline the server's
    ``call_timeout`` (while the client is asked something, the clock stops)."""
    cancelled: threading.Event = field(default_factory=threading.Event)
    """Set when the call is stopped (by its client, or by the server): a sync tool's
    thread, which runs on, reads it; a deadline passed with it unset is a timeout."""
    keys: set[str] = field(default_factory=set)
    """The keys of the questions asked so far (answered from the state, or new): each
    names one question of the call."""
    questions: dict[str, dict[str, Any]] | None = None
    """Modern era: the questions the call stopped for (its ``inputRequests``), when it
    stops to be replayed."""
    refused: ProtocolError | None = None
    """Modern era: the error the call is answered with, when it asked for what its client
    did not declare (-32021)."""
    task_id: str | None = None
    """2026-07-28: the task the call runs as, once answered with one (or the job)."""
    job: bool = False
    """Whether that task is a job (its client has no tasks, and was answered a text)."""
    watcher: anyio.CancelScope | None = None
    """What waits to make the call a task (``task_after``), while it waits."""
    waiting: Wait | None = None
    """What the call waits for from its client, while it waits (the runner's
    :class:`~objmcp.serving.pending.Pending` finds it by the answer's key)."""
    leave: Callable[[], bytes] | None = None
    """Modern era: what makes what the call leaves for its retry, should it stop to ask
    now (:class:`~objmcp.model.calling.inject.Carried`)."""
    kept: bytes | None = None
    """Modern era: what it left, made when it stopped to ask (its state carries it)."""

    def claim(self, keys: Sequence[str | None]) -> list[str]:
        """The keys of the questions about to be asked, each checked unique in the call
        and taken; a None gets the next free default, ``q<N>`` for the call's N-th
        question. Raises TypeError or ValueError for a key that cannot be used."""
        taken: list[str] = []
        for given in keys:
            key = given
            if key is None:
                number = len(self.keys) + len(taken)
                while f"q{number}" in self.keys or f"q{number}" in taken:
                    number += 1
                key = f"q{number}"
            elif question_key(key) in self.keys or key in taken:
                raise ValueError(
                    f"the question key {key!r} is taken: each question of a call needs a "
                    "key of its own"
                )
            taken.append(key)
        self.keys.update(taken)
        return taken


@dataclass(eq=False)
class ClientRequest:
    """A request for the client, made on behalf of a call, and how to read its answer."""

    feature: Feature
    method: str
    params: dict[str, Any]
    read: Callable[[Mapping[str, Any]], Any]

    def unavailable(self, reason: str) -> Unavailable:
        """The error for a request this session cannot make."""
        kind = ElicitationUnavailable if self.feature.startswith("elicitation") else Unavailable
        return kind(reason)

    def wire(self) -> dict[str, Any]:
        """The request as an entry of ``inputRequests`` (modern era)."""
        return {"method": self.method, "params": self.params}

    def failed(self, reason: str) -> InteractionError:
        """The error for a client that answered with an error."""
        if self.feature.startswith("elicitation"):
            return ElicitError(f"The client could not ask the user: {reason}")
        return InteractionError(f"The client could not answer {self.method}: {reason}")


class _Stop:
    """What :meth:`Reach.ask` returns when the call must stop and be answered
    ``input_required`` (its question recorded on the call)."""


STOP = _Stop()


class Reach(Protocol):
    """What the injected callables need of the connection."""

    def report_progress(
        self, call: RunningCall, done: float, total: float | None, message: str | None
    ) -> None:
        """Send a progress report of ``call`` (from any thread)."""

    def complete_elicitation(self, elicitation_id: str) -> None:
        """Send ``notifications/elicitation/complete`` (from any thread)."""

    def resource_updated(self, uri: str) -> None:
        """Tell the subscribers of ``uri`` it changed (from any thread)."""

    def ask(
        self, call: RunningCall, requests: Mapping[str, ClientRequest], job: Place | None
    ) -> Coroutine[Any, Any, Any]:
        """Ask the client ``requests`` (by key) for ``call`` and wait for the answers, read
        and by key (or :data:`STOP`)."""
        ...


class Injections(Mapping[object, object]):
    """What the injected parameters of a call get, by marker: made when first looked at
    (most tools inject nothing), in whichever thread binds the call's arguments."""

    __slots__ = ("_call", "_extra", "_loop", "_made", "_reach")

    def __init__(
        self,
        reach: Reach,
        call: RunningCall,
        loop: tuple[int, anyio.lowlevel.EventLoopToken],
        extra: Mapping[object, object],
    ) -> None:
        self._reach, self._call, self._loop, self._extra = reach, call, loop, extra
        self._made: dict[object, object] | None = None

    def _values(self) -> dict[object, object]:
        if self._made is None:
            loop_thread, token = self._loop
            self._made = {**_made(self._reach, self._call, loop_thread, token), **self._extra}
        return self._made

    def __getitem__(self, marker: object) -> object:
        return self._values()[marker]

    def __iter__(self) -> Iterator[object]:
        return iter(self._values())

    def __len__(self) -> int:
        return len(self._values())


def injections(
    reach: Reach,
    call: RunningCall,
    loop: tuple[int, anyio.lowlevel.EventLoopToken] | None = None,
    extra: Mapping[object, object] | None = None,
) -> Injections:
    """What the injected parameters of ``call`` get, by marker, and ``extra``: ``loop`` is
    the event loop's thread and anyio token (this thread's loop when not given)."""
    if loop is None:
        loop = (threading.get_ident(), anyio.lowlevel.current_token())
    return Injections(reach, call, loop, extra or {})


def _made(
    reach: Reach, call: RunningCall, loop_thread: int, token: anyio.lowlevel.EventLoopToken
) -> dict[object, object]:
    revision = call.context.revision

    def progress(done: float, total: float | None = None, message: str | None = None) -> Done:
        for name, number in (("done", done), ("total", total)):
            if number is not None and (
                isinstance(number, bool) or not isinstance(number, (int, float))
            ):
                raise TypeError(f"progress {name} must be a number, not {number!r}")
        if message is not None and not isinstance(message, str):
            raise TypeError(f"progress message must be a string, not {message!r}")
        reach.report_progress(call, done, total, message)
        return DONE

    def ask(requests: Mapping[str, ClientRequest], only: str | None = None) -> Any:
        """Ask and return the answers by key (or the ``only`` one): awaitable on the loop,
        blocking in a worker thread."""
        if threading.get_ident() == loop_thread:
            return _ask_on_loop(reach, call, requests, only)
        try:
            job = ThreadRunner.current()
            outcome = anyio.from_thread.run(reach.ask, call, requests, job, token=token)
        except ObjmcpError:
            raise
        except RuntimeError as error:  # the loop is gone
            first = next(iter(requests.values()))
            raise first.unavailable("The server stopped while the tool asked") from error
        if outcome is STOP:
            raise InputNeeded(requests)
        return outcome if only is None else outcome[only]

    def ask_one(request: ClientRequest, key: str | None) -> Any:
        [claimed] = call.claim([key])
        return ask({claimed: request}, claimed)

    def ask_questions(questions: dict[str, Question]) -> Any:
        call.claim(list(questions))
        requests = {key: typing.cast(ClientRequest, q.request) for key, q in questions.items()}
        return ask(requests)

    def elicit_request(message: str, schema: object = bool) -> ClientRequest:
        question = make_question(message, schema, defaults=revision.elicitation_defaults)
        params = {"message": question.message, "requestedSchema": question.schema}

        def read(answer: Mapping[str, Any]) -> ElicitResult:
            return read_answer(question, answer.get("action"), answer.get("content"))

        return ClientRequest("elicitation", "elicitation/create", params, read)

    def elicit(message: str, schema: object = bool, *, key: str | None = None) -> Any:
        return ask_one(elicit_request(message, schema), key)

    def elicit_question(message: str, schema: object = bool) -> Question:
        return Question("elicitation", elicit_request(message, schema), ask_questions)

    def elicit_many(questions: Mapping[str, str | tuple[str, object]]) -> Any:
        return ask_all(forms(questions, elicit_question))

    def elicit_url(message: str, url: str, *, key: str | None = None) -> Any:
        if not isinstance(message, str) or not isinstance(url, str):
            raise TypeError("elicit.url takes the message and the URL as strings")
        params: dict[str, Any] = {"mode": "url", "message": message, "url": url}
        elicitation_id: str | None = None
        if revision.elicitation_ids:
            import secrets  # only a URL question needs it

            elicitation_id = params["elicitationId"] = secrets.token_urlsafe(16)

        def read(answer: Mapping[str, Any]) -> ElicitResult:
            plain = read_answer(_URL_QUESTION, answer.get("action"), {})
            return ElicitResult(plain.action, {}, None, elicitation_id)

        return ask_one(ClientRequest("elicitation.url", "elicitation/create", params, read), key)

    def complete(elicitation_id: str | None) -> Done:
        if elicitation_id is not None:
            reach.complete_elicitation(elicitation_id)
        return DONE

    elicit.url = elicit_url  # type: ignore[attr-defined]
    elicit.complete = complete  # type: ignore[attr-defined]
    elicit.many = elicit_many  # type: ignore[attr-defined]
    elicit.question = elicit_question  # type: ignore[attr-defined]

    def sample_of(messages: str | Sequence[str | Mapping[str, Any]], **options: Any) -> Any:
        params = sample_request(messages, **options)  # objmcp.Sample has the options
        return ClientRequest("sampling", "sampling/createMessage", params, read_sample)

    def sample(
        messages: str | Sequence[str | Mapping[str, Any]], *, key: str | None = None, **options: Any
    ) -> Any:
        return ask_one(sample_of(messages, **options), key)

    def sample_question(messages: str | Sequence[str | Mapping[str, Any]], **options: Any) -> Any:
        return Question("sampling", sample_of(messages, **options), ask_questions)

    sample.question = sample_question  # type: ignore[attr-defined]

    def list_roots(*, key: str | None = None) -> Any:
        return ask_one(ClientRequest("roots", "roots/list", {}, read_roots), key)

    def roots_question() -> Question:
        return Question(
            "roots", ClientRequest("roots", "roots/list", {}, read_roots), ask_questions
        )

    list_roots.question = roots_question  # type: ignore[attr-defined]

    def resource_updated(uri: str) -> Done:
        if not isinstance(uri, str):
            raise TypeError(f"resource_updated takes the resource's URI, not {uri!r}")
        reach.resource_updated(uri)
        return DONE

    made: dict[object, object] = {
        Caller: call.context.caller,
        REQUEST_META: dict(call.context.meta),
        REQUEST_EXTENSIONS: dict(call.context.extensions),
        REQUEST_CAPABILITIES: dict(call.context.client_capabilities),
        Progress: progress,
        Cancelled: call.cancelled,
        Elicit: elicit,
        Sample: sample,
        Roots: list_roots,
        ResourceUpdated: resource_updated,
    }
    if revision.era == "modern":
        made[CARRIED] = _Carried(call)
    return made


class _Carried:
    """A modern-era call's :class:`~objmcp.model.calling.inject.Carried`: the state it
    came with (a resumed call's, its retry's) and the maker of what it leaves."""

    def __init__(self, call: RunningCall) -> None:
        self._call = call

    @property
    def given(self) -> bytes | None:
        return self._call.context.kept

    def leave(self, make: Callable[[], bytes] | None) -> None:
        self._call.leave = make


async def _ask_on_loop(
    reach: Reach, call: RunningCall, requests: Mapping[str, ClientRequest], only: str | None
) -> Any:
    outcome = await reach.ask(call, requests, None)
    if outcome is STOP:
        raise InputNeeded(requests)
    return outcome if only is None else outcome[only]


_URL_QUESTION = make_question("", {"type": "object", "properties": {}})
