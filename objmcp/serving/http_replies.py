"""How a Streamable HTTP POST or GET is answered: 202 for no request, JSON when the
answers are all there, else a stream of server-sent events until they are (primed, for the
revisions that resume, with an event that carries only its id and the reconnection
delay), and what a client that leaves mid-stream cancels.

:class:`Replies` holds what every answer of one app shares (the reconnection delay, how
long a 2025-11-25 client's stream is held); the functions write the ASGI messages.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import anyio.abc

from ..model.values.jsontext import encode_message
from ..protocol import jsonrpc as rpc
from .http_checks import Receive
from .http_options import Http
from .http_sessions import HttpSession
from .streams import Reader, Stream

__all__ = ["SSE_HEADERS", "ASGISend", "Replies", "respond", "send_event", "watch"]

ASGISend = Callable[[dict[str, Any]], Awaitable[None]]
SSE_HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-cache, no-transform"),
    (b"x-accel-buffering", b"no"),
]


class Replies:
    """The answers of one app's requests, by its endpoint's options: ``http.retry_ms`` is
    the reconnection delay told to clients, ``http.poll_after`` how long a 2025-11-25
    client's request stream is held before it is left to poll (None: until answered)."""

    def __init__(self, http: Http) -> None:
        self.http = http

    async def answer(
        self,
        connection: HttpSession,
        exchange: Stream,
        modern: bool,
        receive: Receive,
        send: ASGISend,
        calls: anyio.abc.TaskGroup,
    ) -> None:
        """Answer a POST: 202 when it held no request, JSON when its answers are all there
        (or come without anything before them), else an SSE stream until they are.

        A client that leaves cancels its requests, unless it may resume their stream
        (a handshake session's): then they go on, and what they send waits for it."""
        extra = []
        if connection.session_id is not None:
            extra.append((b"mcp-session-id", connection.session_id.encode()))
        if not exchange.pending:  # no request, or answers already given
            ready = [message for _, message in exchange.since(0)]
            if not ready:
                await respond(send, 202, None, extra)
            else:
                only = ready[0] if len(ready) == 1 else ready
                # The status table is the modern era's: a handshake-era request's answer
                # is 200 whatever its error (a 404 there says "session gone"), while an
                # error of no request (a message that is not one) keeps its status.
                status = rpc.http_status(only) if modern or not exchange.requested else 200
                await respond(send, status, only, extra)
            return
        priming = connection.priming
        reader = Reader(exchange, self.http.poll_after if priming else None)
        try:
            async with anyio.create_task_group() as watching:
                watching.start_soon(watch, receive, reader.leave)
                await reader.wait(lambda: exchange.end > 0 or exchange.complete)
                if exchange.end == 1 and exchange.complete and not reader.stopped:
                    ((_, only),) = exchange.since(0)
                    await respond(send, rpc.http_status(only) if modern else 200, only, extra)
                    connection.forget(exchange)
                elif not reader.left:
                    headers = SSE_HEADERS + extra
                    await send({"type": "http.response.start", "status": 200, "headers": headers})
                    if priming:
                        await send_event(send, None, exchange.event_id(0), retry=self.http.retry_ms)
                    await self.write(exchange, reader, send, 0)
                watching.cancel_scope.cancel()
        finally:
            reader.close()
        if reader.left and exchange.pending and exchange.number is None:
            self.gone(connection, exchange, calls)

    async def answered(
        self, connection: HttpSession, exchange: Stream, modern: bool, send: ASGISend
    ) -> None:
        """Answer a POST whose one call ran in its task and has ended: its answer as JSON,
        or, when the call sent something before it, everything on one SSE stream (after
        the priming event its revision asks for); nothing: 202."""
        extra = []
        if connection.session_id is not None:
            extra.append((b"mcp-session-id", connection.session_id.encode()))
        ready = exchange.since(0)
        if len(ready) <= 1:
            only = ready[0][1] if ready else None
            status = 202 if only is None else rpc.http_status(only) if modern else 200
            await respond(send, status, only, extra)
            connection.forget(exchange)
            return
        await send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS + extra})
        if connection.priming:
            await send_event(send, None, exchange.event_id(0), retry=self.http.retry_ms)
        for at, message in ready:
            await send_event(send, message, exchange.event_id(at + 1))
        exchange.written(len(ready))
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def write(
        self,
        stream: Stream,
        reader: Reader,
        send: ASGISend,
        position: int,
    ) -> None:
        """Write ``stream`` from ``position`` on SSE until it is complete or ``reader``
        must stop; then end the response."""

        def ready() -> bool:
            return stream.end > position or stream.complete

        while await reader.wait(ready):
            for at, message in stream.since(position):
                if reader.stopped:
                    break
                await send_event(send, message, stream.event_id(at + 1))
                position = at + 1
            stream.written(position)
            if stream.complete and position >= stream.end:
                break
        if reader.held:
            retry = retry_body(self.http.retry_ms)
            await send({"type": "http.response.body", "body": retry, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    def gone(self, connection: HttpSession, exchange: Stream, calls: anyio.abc.TaskGroup) -> None:
        """The client closed the POST's stream: its requests are cancelled."""
        for request_id in list(exchange.pending):
            cancel = {
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": request_id},
            }
            connection.runner.perform(connection.runner.handle(cancel))
        calls.cancel_scope.cancel()


async def watch(receive: Receive, gone: Callable[[], object]) -> None:
    """Call ``gone`` when the client goes away."""
    while (await receive())["type"] != "http.disconnect":
        pass
    gone()


async def send_event(
    send: ASGISend, message: object | None, event_id: str | None, retry: int | None = None
) -> None:
    """Write one SSE event: ``message`` (None: no data, an event that only carries its id
    and the reconnection delay)."""
    lines = [] if event_id is None else [b"id: " + event_id.encode()]
    if retry is not None:
        lines.append(b"retry: %d" % retry)
    if message is None:
        lines.append(b"data: ")
    else:
        lines += [b"event: message", b"data: " + encode_message(message)]
    body = b"\n".join(lines) + b"\n\n"
    await send({"type": "http.response.body", "body": body, "more_body": True})


def retry_body(milliseconds: int) -> bytes:
    return b"retry: %d\n\n" % milliseconds


async def respond(
    send: ASGISend, status: int, body: object, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    extra = list(headers or [])
    if body is None:
        data = b""
    elif isinstance(body, str):
        data = body.encode()
        extra.append((b"content-type", b"text/plain; charset=utf-8"))
    else:
        data = encode_message(body)
        extra.append((b"content-type", b"application/json"))
    extra.append((b"content-length", str(len(data)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": extra})
    await send({"type": "http.response.body", "body": data})
