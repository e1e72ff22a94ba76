"""A request in flight: its record, the batch it came in, and the answer that ends it.

A request the session cannot answer at once (``tools/call``, ``resources/read``,
``prompts/get``) becomes a :class:`Call`: the session starts it, the runner runs
it, and the session answers it when the runner reports its end. The record keeps
what the answer will need then: the request's id and revision, the progress token
and log level it asked for, and, in the modern era, what a sealed request state is
bound to and the answers gathered so far.

A request that came in a JSON-RPC batch (2025-03-26 only) is answered in its
batch's one array, which goes out once the batch has been read and its last call
has ended: :class:`Batch` holds the responses until then, and :func:`answer_call` sends
a call's response alone or puts it in its batch.

:func:`long_texts` finds the long strings of a tool's result, which the encoder
then escapes once each (:class:`~objmcp.model.values.jsontext.LongMessage`); the session
looks for them only when the result may hold some, for it is on the hot path of
every call.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..model.values.content import ToolResult
from ..model.values.jsontext import LONG_TEXT
from . import jsonrpc as rpc
from .actions import Action, CacheHint, Send
from .jsonrpc import Message, ProtocolError, RequestId
from .revisions import Revision
from .state import arguments_digest

__all__ = ["Batch", "Call", "CallBook", "answer_call", "id_of", "long_texts"]


def id_of(message: Message) -> RequestId | None:
    """The id of a response, when it is one a client's request can have."""
    found = message.get("id")
    return found if rpc.is_request_id(found) else None


@dataclass(eq=False)
class Batch:
    """The responses of a JSON-RPC batch, held until all of them are there."""

    responses: list[Message] = field(default_factory=list)
    pending: set[int] = field(default_factory=set)
    open: bool = True
    """Still being read: its answer cannot go out yet, whatever finishes."""

    def finish(self, call_id: int | None = None) -> list[Action]:
        """The call ``call_id`` of the batch is over (or the batch has been read): the
        batch's answer, when nothing is left to wait for."""
        self.pending.discard(call_id)
        if self.pending or self.open or not self.responses:
            return []
        return [Send(self.responses, id_of(self.responses[0]))]


@dataclass(eq=False)
class Call:
    """A request started and not yet answered."""

    request_id: RequestId
    revision: Revision
    batch: Batch | None
    progress_token: str | int | None = None
    capabilities: Mapping[str, Any] = field(default_factory=dict)
    log_level: str | None = None  # modern era: the request's own logLevel
    tool: str = ""  # a tool's name, or "<method> <target>": what a sealed state is bound to
    bound: object = None
    """Modern era: what a sealed state is bound to (the arguments, and the caller), kept
    until a state needs its :attr:`digest`; None once the digest was taken."""
    answers: Mapping[str, Any] = field(default_factory=dict)  # modern era: by question key
    rounds: int = 0  # modern era: the rounds of questions answered so far
    expires: float | None = None  # modern era: the first question's deadline, kept
    method: str = "tools/call"
    cache: CacheHint | None = None  # a resource's own caching hint
    caller_key: str | None = None  # its caller's key, when the transport knows (Session.receive)
    task: str | None = None  # 2026-07-28: the task it runs as, once answered with one
    _digest: str = ""

    @property
    def digest(self) -> str:
        """Modern era: the digest of :attr:`bound`, which a sealed state carries."""
        if not self._digest:
            self._digest = arguments_digest(self.bound)
            self.bound = None
        return self._digest

    @digest.setter
    def digest(self, digest: str) -> None:
        self._digest, self.bound = digest, None


class CallBook:
    """The calls of one session in flight: each by the call id the session gave it, and
    by the id of the request it answers while that request waits for it (not once it is
    answered with a task or a job). At most ``limit`` at once."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._calls: dict[int, Call] = {}
        self._requests: dict[RequestId, int] = {}
        self._ids = itertools.count(1)

    def __len__(self) -> int:
        return len(self._calls)

    def get(self, call_id: int) -> Call | None:
        """The call ``call_id``, while it runs."""
        return self._calls.get(call_id)

    def check_room(self, then: str) -> None:
        """-32000 "Server busy" when no call more may run (``then`` says what the client
        may do)."""
        if len(self._calls) >= self.limit:
            raise ProtocolError(
                rpc.SERVER_BUSY,
                f"Server busy: {len(self._calls)} requests are running on this connection, "
                f"the most it takes at once (max_calls); {then}",
            )

    def add(self, call: Call) -> int:
        """Take ``call`` in (after :meth:`check_room`); its call id."""
        call_id = next(self._ids)
        self._calls[call_id] = call
        self._requests[call.request_id] = call_id
        if call.batch is not None:
            call.batch.pending.add(call_id)
        return call_id

    def end(self, call_id: int) -> Call | None:
        """Forget the call ``call_id``; None when it was forgotten already."""
        call = self._calls.pop(call_id, None)
        if call is not None and call.task is None:  # a task's request was answered already
            self._requests.pop(call.request_id, None)
        return call

    def waits(self, request_id: RequestId) -> bool:
        """Whether the request ``request_id`` waits for a call."""
        return request_id in self._requests

    def let_go(self, request_id: RequestId) -> int | None:
        """The request ``request_id`` waits no more (cancelled, or answered with a task):
        the call id it waited for, if any."""
        return self._requests.pop(request_id, None)


def answer_call(call: Call, call_id: int, response: Message) -> list[Action]:
    """Send the response that ends ``call``: alone, or in its batch's array once the
    batch's last call has ended."""
    if call.batch is None:
        return [Send(response, call.request_id)]
    call.batch.responses.append(response)
    return call.batch.finish(call_id)


def long_texts(result: ToolResult) -> list[str]:
    """The strings of a tool's result that are long: its text, and those of its blocks."""
    found = [result.text] if len(result.text) >= LONG_TEXT else []
    for block in result.content or ():
        for value in block.values():
            inner = value.values() if isinstance(value, dict) else (value,)
            found.extend(text for text in inner if type(text) is str and len(text) >= LONG_TEXT)
    return found
