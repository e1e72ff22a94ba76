"""How a call that ended is answered: a tool's result, a resource read's or a prompt's,
an error, or (the modern era) the questions it stopped to ask, ``input_required``.

Plain functions of the :class:`~objmcp.protocol.session.Session` whose call ended; the
runner reaches them through the session's methods of the same names.
"""

from __future__ import annotations

import logging
from typing import Any

from ..model.calling.toolbox import Changes
from ..model.values.content import ToolResult
from ..model.values.jsontext import LONG_TEXT, LongMessage
from ..model.values.media import fits
from . import jsonrpc as rpc
from .actions import Action
from .calls import Call, answer_call, long_texts
from .features import RESOURCE_NOT_FOUND
from .jsonrpc import ProtocolError
from .modern import complete
from .revisions import Revision
from .sessionlike import SessionLike
from .tasks import core as core_tasks
from .tasks import extension_methods as task_methods

__all__ = ["call_finished", "call_needs_input", "call_result", "found", "request_finished"]

logger = logging.getLogger("objmcp")


def call_needs_input(
    session: SessionLike,
    call_id: int,
    requests: dict[str, dict[str, Any]],
    park: bool = False,
    kept: bytes | None = None,
) -> list[Action]:
    """Modern era: a call stopped to ask; it is answered ``input_required``, with its
    questions (``requests``, key -> ``{"method", "params"}``: the ``inputRequests``)
    and a sealed state the client sends back with its answers. With ``park`` the call
    waits, suspended, for the retry that answers them all: that retry comes back as a
    :class:`Resume` (else the retry runs the method again). ``kept`` goes in the state:
    what the call left for its retry."""
    call = session.end_call(call_id)
    if call is None:
        return []
    name = session.parking.open(call_id, call.rounds + 1, call.caller_key) if park else None
    response = session.questions.input_required(call, requests, name, session.info, kept)
    return answer_call(call, call_id, response)


def request_finished(
    session: SessionLike,
    call_id: int,
    body: dict[str, Any] | None,
    error: ProtocolError | None = None,
) -> list[Action]:
    """A started resource read or prompt ended with the result ``body``, or ``error``:
    the answer to send, if it is still wanted."""
    call = session.end_call(call_id)
    if call is None:
        return []
    if call.task is not None:
        failure = error or ProtocolError(rpc.INTERNAL_ERROR, "Internal error")
        if session.is_core(call):
            return core_tasks.errored(session, call.task, failure)
        return task_methods.failed(session, call.task, failure)
    if error is not None or body is None:
        failure = error or ProtocolError(rpc.INTERNAL_ERROR, "Internal error")
        if failure.code == RESOURCE_NOT_FOUND:
            failure = ProtocolError(call.revision.resource_not_found, failure.message, failure.data)
        return answer_call(call, call_id, failure.response(call.request_id))
    cache = call.method if call.method == "resources/read" else None
    result = complete(body, call.revision, session.info, session.cache, cache, call.cache)
    return answer_call(call, call_id, rpc.result_response(call.request_id, result))


def call_finished(session: SessionLike, call_id: int, result: ToolResult) -> list[Action]:
    """A started call ended with ``result``: the answer to send, if it is still wanted."""
    call = session.end_call(call_id)
    if call is None:
        return []
    try:
        answer = call_result(session, result, call.revision)
    except Exception:  # a bug of ours: an internal error for this call alone
        logger.exception("objmcp failed on the answer of a call")
        if call.task is not None:
            failure = ProtocolError(rpc.INTERNAL_ERROR, "Internal error")
            if session.is_core(call):
                return core_tasks.errored(session, call.task, failure)
            return task_methods.failed(session, call.task, failure)
        failed = rpc.error_response(call.request_id, rpc.INTERNAL_ERROR, "Internal error")
        return answer_call(call, call_id, failed)
    if call.task is not None:
        if session.is_core(call):
            return [*core_tasks.finished(session, call.task, answer), *found(session, call, result)]
        news = task_methods.completed(session, call.task, answer)
        return [*news, *found(session, call, result)]
    response = rpc.result_response(call.request_id, answer)
    if result.content is not None or len(result.text) >= LONG_TEXT:
        long = long_texts(result)
        if long:
            response = LongMessage(response, long)
    return [*answer_call(call, call_id, response), *found(session, call, result)]


def found(session: SessionLike, call: Call, result: ToolResult) -> list[Action]:
    """In search mode, the tools a search or a description brought up join the list
    of the call's caller: the ``list_changed`` notifications due when it changed."""
    toolbox, tool = session.toolbox, call.tool
    if not tool or not toolbox.searching:
        return []
    surfaced = session.surfaced_for(call.caller_key)
    if tool in surfaced.names:
        surfaced.touch(tool)
        return []
    found = toolbox.discovery.found(tool, result.value)
    if not found or not surfaced.add(found):
        return []
    return session.changed(Changes(tools=tuple(found)))


def call_result(session: SessionLike, result: ToolResult, revision: Revision) -> dict[str, Any]:
    """The result of a tool call, in the kinds of content block ``revision`` has, with
    its structured content when the revision has output schemas."""
    if result.content is None:
        content = [{"type": "text", "text": result.text}]
    else:
        content = [fits(block, revision.content_types) for block in result.content]
    answer: dict[str, Any] = {"content": content, "isError": result.is_error}
    if result.structured is not None and "outputSchema" in revision.tool_fields:
        answer["structuredContent"] = result.structured
    return complete(answer, revision, session.info, session.cache, cache=None)
