"""OpenTelemetry spans for the calls a connection runs, when ``opentelemetry-api`` is there.

:func:`find_tracer` gives the tracer of the global provider, or None when the API is not
installed (it is then never imported), when ``OTEL_SDK_DISABLED`` is ``true``, or when
the server was told ``tracing=False``. :func:`traced` is the span of one call: named and
described after the MCP semantic conventions (``tools/call {name}``,
``mcp.method.name``, ``mcp.protocol.version``, ``mcp.session.id``, ``jsonrpc.request.id``,
``gen_ai.tool.name``, ``gen_ai.operation.name``), the child of the trace the client sent
in ``params._meta.traceparent`` (SEP-414; an HTTP ``traceparent`` header is put there by
the transport when the request has none), and current while the method runs, so its own
spans nest under it (a worker thread gets the context from anyio). :func:`ended` records
how the call ended: an error result or an error answer makes the span's status an error,
with ``error.type`` and the exception the method raised. :func:`question_span` is the span
of a question the call asks the client, inside the call's. :func:`request_started` and
:func:`answered` make the span of a request the session answers itself (``tools/list``,
``initialize``, a call refused before it runs), after the fact. :func:`span_of` is what the
runners use: no span at all while no tracer provider is set (OpenTelemetry's default, a
no-op; a provider set later is seen within a second), so that tracing costs nothing until
someone collects it.
"""

from __future__ import annotations

import importlib.util
import os
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

from ..model.calling.inject import InputNeeded
from ..model.values.content import ToolResult
from ..protocol.jsonrpc import ProtocolError
from ..protocol.session import PROTOCOL_VERSION_KEY, Action, Resume, Send, StartCall

__all__ = [
    "answered",
    "ended",
    "find_tracer",
    "nested_span",
    "question_span",
    "request_started",
    "span_of",
    "traced",
    "with_trace_headers",
]

_MAX_STATUS = 200
"""Characters of an error's text kept as the span's status description."""
_METHODS = {"tool": "tools/call", "resource": "resources/read", "prompt": "prompts/get"}


def find_tracer(enabled: bool = True) -> Any | None:
    """The tracer objmcp's spans go to, or None when tracing is off or not installed."""
    if not enabled or os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return None
    if importlib.util.find_spec("opentelemetry") is None:
        return None
    from opentelemetry import trace

    _otel.append(trace)
    return trace.get_tracer("objmcp")


_otel: list[Any] = []
"""``opentelemetry.trace``, once :func:`find_tracer` imported it (looked up per call)."""


def span_of(
    tracer: Any | None, start: StartCall, session_id: str | None = None
) -> AbstractContextManager[Any | None]:
    """The span of the call ``start`` names (:func:`traced`), or None inside the block when
    there is no ``tracer`` or no tracer provider was set: OpenTelemetry's default no-op
    would cost each call its context switches for nothing."""
    if tracer is None or not _provider_set():
        return _NO_SPAN
    return traced(tracer, start, session_id)


_NO_SPAN: AbstractContextManager[None] = nullcontext()


def nested_span(tracer: Any | None) -> Callable[[str], AbstractContextManager[Any]] | None:
    """What makes the span of a tool call made for another call (code mode's), a child of
    that call's span, which is current where it is made; None where :func:`span_of` makes
    none."""
    if tracer is None or not _provider_set():
        return None
    from opentelemetry.trace import SpanKind

    def span(tool: str) -> AbstractContextManager[Any]:
        attributes = {
            "mcp.method.name": "tools/call",
            "gen_ai.tool.name": tool,
            "gen_ai.operation.name": "execute_tool",
        }
        return tracer.start_as_current_span(  # type: ignore[no-any-return]
            f"tools/call {tool}", kind=SpanKind.INTERNAL, attributes=attributes
        )

    return span


def question_span(
    tracer: Any | None, method: str, ask_id: str
) -> AbstractContextManager[Any | None]:
    """The span of a question a call puts to the client in the handshake era (a request
    of the server's: ``elicitation/create``, ``sampling/createMessage``, ``roots/list``),
    from when it is sent to when its answer comes; a child of the call's span, which is
    current where the call asks. None inside the block as for :func:`span_of`."""
    if tracer is None or not _provider_set():
        return _NO_SPAN
    from opentelemetry.trace import SpanKind

    attributes = {"mcp.method.name": method, "jsonrpc.request.id": ask_id}
    return tracer.start_as_current_span(  # type: ignore[no-any-return]
        method, kind=SpanKind.CLIENT, attributes=attributes
    )


class _Provider:
    """Whether a tracer provider was set: once it is, for good (OpenTelemetry takes one
    per process); until then, looked at again every :data:`LOOK_EVERY` seconds."""

    set = False
    next_look = 0.0


LOOK_EVERY = 1.0
"""Seconds a provider set after serving started may take to get its first spans."""


def _provider_set() -> bool:
    if _Provider.set:
        return True
    now = time.monotonic()
    if now < _Provider.next_look:
        return False
    _Provider.next_look = now + LOOK_EVERY
    trace = _otel[0]
    provider = trace.get_tracer_provider()
    _Provider.set = not isinstance(provider, (trace.ProxyTracerProvider, trace.NoOpTracerProvider))
    return _Provider.set


@contextmanager
def traced(tracer: Any, start: StartCall, session_id: str | None = None) -> Iterator[Any]:
    """The span of the call ``start`` names, current inside the block."""
    from opentelemetry import propagate
    from opentelemetry.trace import SpanKind

    context = start.context
    method = _METHODS[start.kind]
    attributes: dict[str, Any] = {
        "mcp.method.name": method,
        "mcp.protocol.version": context.revision.version,
        "jsonrpc.request.id": str(context.request_id),
    }
    if session_id is not None:
        attributes["mcp.session.id"] = session_id
    name = method
    if start.kind == "tool":
        name = f"{method} {start.tool}"
        attributes["gen_ai.tool.name"] = start.tool
        attributes["gen_ai.operation.name"] = "execute_tool"
    elif start.kind == "prompt":
        name = f"{method} {start.tool}"
        attributes["gen_ai.prompt.name"] = start.tool
    else:
        attributes["mcp.resource.uri"] = start.tool
    carrier = {
        key: value
        for key in ("traceparent", "tracestate")
        if isinstance(value := context.meta.get(key), str)
    }
    parent = propagate.extract(carrier) if carrier else None
    with tracer.start_as_current_span(
        name,
        context=parent,
        kind=SpanKind.SERVER,
        attributes=attributes,
        record_exception=False,
        set_status_on_exception=False,
    ) as span:
        try:
            yield span
        except InputNeeded:
            raise  # the call stops for the client's answer: not a failure
        except BaseException as error:  # a cancellation, a timeout, a failure of objmcp's
            _failed(span, type(error).__qualname__, str(error), error)
            raise


def ended(span: Any, result: ToolResult | None = None, error: ProtocolError | None = None) -> None:
    """Record on ``span`` how its call ended: a tool's ``result``, or the ``error`` a
    resource read or a prompt was answered with."""
    if result is not None and result.is_error:
        _failed(span, "tool_error", result.text, result.error)
    elif error is not None:
        _failed(span, str(error.code), error.message, None)


def _failed(span: Any, kind: str, message: str, error: BaseException | None) -> None:
    from opentelemetry.trace import Status, StatusCode

    span.set_attribute("error.type", kind)
    if error is not None:
        span.record_exception(error)
    span.set_status(Status(StatusCode.ERROR, message[:_MAX_STATUS]))


def with_trace_headers(message: object, headers: Mapping[str, str]) -> object:
    """``message`` with the HTTP ``traceparent`` (and ``tracestate``) headers as its
    ``params._meta`` carries them, when it is a request whose ``_meta`` carries none."""
    if not isinstance(message, dict) or "method" not in message:
        return message
    params = message.get("params", {})
    meta = params.get("_meta", {}) if isinstance(params, dict) else None
    if not isinstance(meta, dict) or "traceparent" in meta:
        return message
    sent = {key: headers[key] for key in ("traceparent", "tracestate") if key in headers}
    return {**message, "params": {**params, "_meta": {**meta, **sent}}}


def request_started(tracer: Any | None) -> int | None:
    """The start time (ns) of the span of a message about to be read, when spans are made."""
    if tracer is None or not _provider_set():
        return None
    return time.time_ns()


def answered(
    tracer: Any,
    started: int,
    message: object,
    actions: list[Action],
    version: str | None,
    session_id: str | None = None,
) -> None:
    """The span of the request ``message``, from ``started`` to now, when the session
    answered it itself (in ``actions``): a call it started has a span of its own
    (:func:`traced`), and notifications, responses and batches have none. ``version`` is
    the revision the handshake chose, if any."""
    if not isinstance(message, dict) or "id" not in message:
        return
    method = message.get("method")
    if not isinstance(method, str) or any(isinstance(a, (StartCall, Resume)) for a in actions):
        return
    from opentelemetry import propagate
    from opentelemetry.trace import SpanKind

    params = message.get("params")
    params = params if isinstance(params, dict) else {}
    meta = params.get("_meta")
    meta = meta if isinstance(meta, dict) else {}
    asked = meta.get(PROTOCOL_VERSION_KEY)
    attributes: dict[str, Any] = {
        "mcp.method.name": method,
        "jsonrpc.request.id": str(message["id"]),
    }
    if isinstance(asked, str) or version is not None:
        attributes["mcp.protocol.version"] = asked if isinstance(asked, str) else version
    if session_id is not None:
        attributes["mcp.session.id"] = session_id
    name, target = method, params.get("name")
    if method in ("tools/call", "prompts/get") and isinstance(target, str):
        name = f"{method} {target}"
        key = "gen_ai.tool.name" if method == "tools/call" else "gen_ai.prompt.name"
        attributes[key] = target
        if method == "tools/call":
            attributes["gen_ai.operation.name"] = "execute_tool"
    uri = params.get("uri")
    if method == "resources/read" and isinstance(uri, str):
        attributes["mcp.resource.uri"] = uri
    carrier = {
        key: meta[key] for key in ("traceparent", "tracestate") if isinstance(meta.get(key), str)
    }
    parent = propagate.extract(carrier) if carrier else None
    span = tracer.start_span(
        name, context=parent, kind=SpanKind.SERVER, attributes=attributes, start_time=started
    )
    for action in actions:
        reply = action.message if isinstance(action, Send) else None
        error = reply.get("error") if isinstance(reply, dict) else None
        if isinstance(error, dict):
            _failed(span, str(error.get("code")), str(error.get("message", "")), None)
    span.end()
