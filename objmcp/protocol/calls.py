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

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..model.values.content import ToolResult
from ..model.values.jsontext import LONG_TEXT
from . import jsonrpc as rpc
from .actions import Action, CacheHint, Send
from .jsonrpc import Message, RequestId
from .revisions import Revision

__all__ = ["Batch", "Call", "answer_call", "id_of", "long_texts"]


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
    digest: str = ""  # modern era: of what a sealed state is bound to (arguments, caller)
    answers: Mapping[str, Any] = field(default_factory=dict)  # modern era: by question key
    rounds: int = 0  # modern era: the rounds of questions answered so far
    expires: float | None = None  # modern era: the first question's deadline, kept
    method: str = "tools/call"
    cache: CacheHint | None = None  # a resource's own caching hint
    caller_key: str | None = None  # its caller's key, when the transport knows (Session.receive)
    task: str | None = None  # 2026-07-28: the task it runs as, once answered with one


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
