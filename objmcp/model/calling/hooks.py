"""Hooks around tool calls: before, after, on error.

A :class:`Hook` sees every tool call of a :class:`~objmcp.Toolbox` (and so of a
server): :meth:`Hook.before` as it starts (raise :class:`~objmcp.ToolError` to refuse
it, with that message), :meth:`Hook.after` when it ends with a result,
:meth:`Hook.on_error` when it ends with an error result. What a hook sees is what
the object model and the session know of the call (:class:`CallInfo`) and of its
end (:class:`CallEnd`); a hook that raises makes the call an error result that says
so, and never breaks the server. :func:`before` and :func:`after` run the hooks in
order; callers that have none skip both.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..._exceptions import ToolError
from ..values.content import ToolResult
from .caller import Caller

__all__ = ["CallEnd", "CallInfo", "Hook", "after", "before"]

logger = logging.getLogger("objmcp")


@dataclass(frozen=True, eq=False)
class CallInfo:
    """A tool call, as its hooks see it.

    ``tool`` is the tool's name (the real one, behind ``call_tool`` in search mode),
    ``arguments`` what the client sent (a hook must not change them);
    ``request_id`` the JSON-RPC id of the request, ``protocol_version`` the revision
    of MCP it came by, ``client`` the name the client gave in its ``clientInfo``
    (each None when called outside a session, or when the client said none);
    ``started`` the :func:`time.monotonic` reading at its start; ``caller`` who is
    calling, when the transport checked credentials (:class:`~objmcp.Caller`).
    """

    tool: str
    arguments: object = None
    request_id: str | int | None = None
    protocol_version: str | None = None
    client: str | None = None
    started: float = field(default_factory=time.monotonic)
    caller: Caller | None = None


@dataclass(frozen=True, eq=False)
class CallEnd:
    """How a tool call ended: its ``result``, the exception its method raised (``error``,
    None when it raised none) and how long it took (``seconds``, hooks included)."""

    result: ToolResult
    error: BaseException | None
    seconds: float


class Hook:
    """Code run around every tool call; override any of the three methods.

    The methods run where the serving loop runs the call's bookkeeping (the event loop,
    or the stdio reader's thread for a quick sync call), possibly on several threads
    at once: keep them quick, and guard what they share with a lock. A parked or
    cancelled call gets no :meth:`after` or :meth:`on_error` (its retry gets
    :meth:`before` again).
    """

    def before(self, call: CallInfo) -> None:
        """The call is about to run; raise :class:`~objmcp.ToolError` to refuse it (its
        message is the error result's text), and it does not run."""

    def after(self, call: CallInfo, end: CallEnd) -> None:
        """The call ended with a result that is not an error."""

    def on_error(self, call: CallInfo, end: CallEnd) -> None:
        """The call ended with an error result (its method raised, its arguments did not
        convert, or a hook refused it)."""


def before(hooks: Sequence[Hook], call: CallInfo) -> ToolResult | None:
    """Run the hooks' :meth:`Hook.before` in order; the error result that ends the call
    when one refuses it or fails, else None (the call runs)."""
    for hook in hooks:
        try:
            hook.before(call)
        except ToolError as refusal:
            return ToolResult(str(refusal), None, True, error=refusal)
        except Exception as error:
            return _failed(hook, "before", call, error)
    return None


def after(hooks: Sequence[Hook], call: CallInfo, result: ToolResult) -> ToolResult:
    """Run the hooks' :meth:`Hook.after` (or :meth:`Hook.on_error`, for an error result)
    in order; the result the call answers (an error result when a hook failed)."""
    end = CallEnd(result, result.error, time.monotonic() - call.started)
    for hook in hooks:
        try:
            if end.result.is_error:
                hook.on_error(call, end)
            else:
                hook.after(call, end)
        except Exception as error:
            failed = _failed(hook, "on_error" if end.result.is_error else "after", call, error)
            end = CallEnd(failed, end.error, end.seconds)
    return end.result


def _failed(hook: Hook, stage: str, call: CallInfo, error: Exception) -> ToolResult:
    name = f"{type(hook).__qualname__}.{stage}"
    logger.error("hook %s failed on a call to %r", name, call.tool, exc_info=error)
    text = f"A hook of the server failed ({name}): {type(error).__name__}: {error}"
    return ToolResult(text, None, True, error=error)
