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

:func:`tool_response` makes the response of a tool call from its
:class:`~objmcp.model.content.ToolResult`, in the shape the revision has. It is on
the hot path of every call: the long strings of a result, which the encoder then
escapes once each (:class:`~objmcp.model.jsontext.LongMessage`), are looked for only
when the result may hold some.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..model.content import ToolResult
from ..model.jsontext import LONG_TEXT, LongMessage
from ..model.media import fits
from . import jsonrpc as rpc
from .actions import Action, CacheHint, Send, ServerInfo
from .jsonrpc import Message, RequestId
from .modern import complete
from .revisions import Revision

__all__ = ["Batch", "Call", "answer_call", "id_of", "tool_response"]

logger = logging.getLogger("objmcp")


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
    answers: tuple[Any, ...] = ()
    expires: float | None = None  # modern era: the first question's deadline, kept
    method: str = "tools/call"
    cache: CacheHint | None = None  # a resource's own caching hint


def answer_call(call: Call, call_id: int, response: Message) -> list[Action]:
    """Send the response that ends ``call``: alone, or in its batch's array once the
    batch's last call has ended."""
    if call.batch is None:
        return [Send(response, call.request_id)]
    call.batch.responses.append(response)
    return call.batch.finish(call_id)


def tool_response(
    call: Call, result: ToolResult, info: ServerInfo, hints: Mapping[str, CacheHint]
) -> Message:
    """The response to the tool call ``call`` that gave ``result``: its content in the
    kinds of block the revision has, its structured content when the revision has
    output schemas; an internal error (-32603) if making it fails."""
    revision = call.revision
    try:
        if result.content is None:
            content = [{"type": "text", "text": result.text}]
        else:
            content = [fits(block, revision.content_types) for block in result.content]
        found: dict[str, Any] = {"content": content, "isError": result.is_error}
        if result.structured is not None and "outputSchema" in revision.tool_fields:
            found["structuredContent"] = result.structured
        found = complete(found, revision, info, hints, cache=None)
    except Exception:  # a bug of ours: an internal error for this call alone
        logger.exception("objmcp failed on the answer of a call")
        return rpc.error_response(call.request_id, rpc.INTERNAL_ERROR, "Internal error")
    response = rpc.result_response(call.request_id, found)
    if result.content is not None or len(result.text) >= LONG_TEXT:
        long_texts = _long_texts(result)
        if long_texts:
            response = LongMessage(response, long_texts)
    return response


def _long_texts(result: ToolResult) -> list[str]:
    """The strings of a tool's result that are long: its text, and those of its blocks."""
    found = [result.text] if len(result.text) >= LONG_TEXT else []
    for block in result.content or ():
        for value in block.values():
            inner = value.values() if isinstance(value, dict) else (value,)
            found.extend(text for text in inner if type(text) is str and len(text) >= LONG_TEXT)
    return found
