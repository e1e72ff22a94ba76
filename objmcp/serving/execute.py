"""Running what a :class:`~objmcp.protocol.actions.StartCall` names, whichever runner runs it.

:func:`execute` runs a tool, reads a resource or gets a prompt, and returns what the
session must be told of its end (a :data:`Finish`): every runner (a connection's calls
on the event loop, :meth:`objmcp.Server.handle`) ends its calls through it, so that a
kind of call is told apart in one place. :func:`stopped` is the end of a call the
server stopped itself (its ``call_timeout``). The stdio reader's fast lane runs sync
tools itself, through the same pipeline (:func:`~objmcp.model.calling.pipeline.call_in_thread`,
no coroutine), and reports them with ``call_finished`` as :func:`execute` would; HTTP's lane
runs a plain call through :func:`execute` in the request's own task
(:meth:`~objmcp.serving.runner.Runner.run_here`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, NoReturn

from .._exceptions import ArgumentError, ToolError, UnknownResourceError
from ..model.calling.hooks import CallInfo
from ..model.calling.toolbox import Toolbox
from ..model.values.content import TooBig, ToolResult, error_result
from ..protocol import answers
from ..protocol import jsonrpc as rpc
from ..protocol.jsonrpc import ProtocolError
from ..protocol.session import RESOURCE_NOT_FOUND, Action, Send, Session, StartCall
from .tracing import ended, span_of

__all__ = [
    "Finish",
    "call_info",
    "execute",
    "internal_error",
    "read_or_get",
    "stopped",
]

logger = logging.getLogger("objmcp")

Finish = Callable[[Session, int], list[Action]]
"""What tells the session a call ended, given the call's id at its end (a parked call
resumed answers as the retry's call), and gives the actions that answer it."""


async def execute(
    tools: Toolbox,
    start: StartCall,
    injected: Mapping[object, object] | None = None,
    tracer: Any | None = None,
    session_id: str | None = None,
) -> Finish:
    """Run the call ``start`` names with ``injected`` parameters, to its end: inside a span
    of ``tracer`` when given (:mod:`objmcp.serving.tracing`)."""
    with span_of(tracer, start, session_id) as span:
        match start.kind:
            case "tool":
                info = call_info(start) if tools.hooks else None
                try:
                    result = await tools.acall(
                        start.tool, start.arguments, injected=injected, info=info
                    )
                except Exception as failure:  # acall turns failures into results: last line
                    logger.exception("calling %r failed inside objmcp", start.tool)
                    result = ToolResult(
                        f"Internal error in objmcp: {type(failure).__name__}", None, True
                    )
                if span is not None:
                    ended(span, result)
                return lambda session, call_id: answers.call_finished(session, call_id, result)
            case "resource" | "prompt":
                body, error = await read_or_get(tools, start, injected)
                if span is not None:
                    ended(span, error=error)
                return lambda session, call_id: answers.request_finished(
                    session, call_id, body, error
                )
    return _unknown(start.kind)


def _unknown(kind: NoReturn) -> NoReturn:
    raise AssertionError(f"a call of no known kind: {kind!r}")


def stopped(start: StartCall, reason: str) -> Finish:
    """The end of a call the server stopped for ``reason``: an error result for a tool,
    an internal error for a resource read or a prompt."""
    if start.kind == "tool":
        result = ToolResult(reason, None, True)
        return lambda session, call_id: answers.call_finished(session, call_id, result)
    error = ProtocolError(rpc.INTERNAL_ERROR, reason)
    return lambda session, call_id: answers.request_finished(session, call_id, None, error)


def call_info(action: StartCall) -> CallInfo:
    """What the hooks see of the tool call ``action`` starts."""
    context = action.context
    return CallInfo(
        action.tool,
        action.arguments,
        context.request_id,
        context.revision.version,
        context.client,
        caller=context.caller,
    )


async def read_or_get(
    tools: Toolbox, action: StartCall, injected: Mapping[object, object] | None = None
) -> tuple[dict[str, Any] | None, ProtocolError | None]:
    """Read the resource or get the prompt an action names: the result's body, or the
    error to answer with."""
    if action.kind not in ("resource", "prompt"):
        raise AssertionError(f"not a resource read or a prompt: {action.kind!r}")
    try:
        if action.kind == "resource":
            return {"contents": await tools.read_resource(action.tool, injected=injected)}, None
        return await tools.get_prompt(action.tool, action.arguments, injected=injected), None
    except UnknownResourceError as error:
        return None, ProtocolError(RESOURCE_NOT_FOUND, str(error), {"uri": error.uri})
    except (ArgumentError, ToolError) as error:
        return None, ProtocolError(rpc.INVALID_PARAMS, str(error))
    except TooBig as error:
        return None, ProtocolError(rpc.INTERNAL_ERROR, str(error))
    except Exception as error:
        failed = error_result(error, f"{action.kind} {action.tool}")
        return None, ProtocolError(rpc.INTERNAL_ERROR, failed.text)


def internal_error(message: object) -> list[Action]:
    """The answer to a message objmcp itself failed on (logged with the traceback): an
    internal error for this message only."""
    logger.exception("objmcp failed on a message")
    request_id = message.get("id") if isinstance(message, dict) else None
    request_id = request_id if rpc.is_request_id(request_id) else None
    return [Send(rpc.error_response(request_id, rpc.INTERNAL_ERROR, "Internal error"))]
