"""The wire of :mod:`objmcp.testing`'s client: its end of the in-memory byte connection.

:class:`Wire` frames the client's messages onto the server's input and reads the
server's output (:meth:`Wire.read`, a task :func:`objmcp.testing.connect` starts):
an answer wakes the request waiting for it (:meth:`Wire.exchange`; one given up is
cancelled with ``notifications/cancelled``), a notification goes to the client
(``notified``), and a request of the server's is recorded in ``asked`` and answered
by the client (``answer``: the test's function), its error or failure sent back as
the error answer. JSON-RPC messages as dicts, and of MCP only
``notifications/cancelled``: what the requests say, and what the answers mean, is
``objmcp._testclient``'s part.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio
import anyio.abc
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from ._exceptions import FrameError
from ._testanswers import ResponseError
from .transport.framing import NEED_DATA, FrameDecoder, encode_frame

__all__ = ["INTERNAL_ERROR", "Wire"]

INTERNAL_ERROR = -32603


@dataclass(eq=False)
class _Pending:
    done: anyio.Event = field(default_factory=anyio.Event)
    response: dict[str, Any] | None = None


class Wire:
    """The client's end of the connection: ``output`` is the server's input.

    ``asked`` is the list that records the server's requests (the client's);
    ``notified`` is called with each notification's method and message, as it
    arrives; ``answer`` with each request's method and params, for its result
    (raising :class:`~objmcp.testing.ResponseError` to answer with that error).
    ``timeout`` bounds the wait for each answer (seconds).
    """

    def __init__(
        self,
        output: MemoryObjectSendStream[bytes],
        *,
        framing: Literal["newline", "content-length"],
        timeout: float | None,
        asked: list[dict[str, Any]],
        notified: Callable[[str, dict[str, Any]], None],
        answer: Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]],
    ) -> None:
        self.closed = False
        """Whether the server's output has ended."""
        self.failure: BaseException | None = None
        """The test's function that failed, to raise from every request since."""
        self._output = output
        self._framing: Literal["newline", "content-length"] = framing
        self._timeout = timeout
        self._asked = asked
        self._notified = notified
        self._answer = answer
        self._ids = itertools.count(1)
        self._last_id = 0
        self._pending: dict[int, _Pending] = {}

    def next_id(self) -> int:
        """A request id not used yet."""
        return next(self._ids)

    async def exchange(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send the request ``message`` and return the server's answer, as sent."""
        self.check()
        request_id = self._last_id = message["id"]
        pending = self._pending[request_id] = _Pending()
        try:
            self.send(message)
            with anyio.fail_after(self._timeout):
                await pending.done.wait()
        finally:
            del self._pending[request_id]
            if not pending.done.is_set() and not self.closed:  # timed out, or cancelled
                self.send(_notification("notifications/cancelled", {"requestId": request_id}))
        self.check()
        if pending.response is None:
            raise ConnectionError(f"the server ended before it answered {message['method']}")
        return pending.response

    def send_unawaited(self, method: str, params: dict[str, Any]) -> None:
        """Send a request without waiting for its answer (which is then ignored); nothing
        when the connection is closed or failed."""
        if self.closed or self.failure is not None:
            return
        request_id = self._last_id = self.next_id()
        message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            self.send(message)

    def check(self) -> None:
        """Raise the test's function's failure, or ``ConnectionError`` once closed."""
        if self.failure is not None:
            raise self.failure
        if self.closed:
            raise ConnectionError("the connection to the server is closed")

    def send(self, message: object) -> None:
        """Frame ``message`` onto the server's input."""
        body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()
        self._output.send_nowait(encode_frame(body, self._framing))

    async def read(
        self, source: MemoryObjectReceiveStream[bytes], group: anyio.abc.TaskGroup
    ) -> None:
        """Read the server's output to its end; requests are answered in ``group``."""
        decoder = FrameDecoder()
        try:
            async for data in source:
                decoder.feed(data)
                while (frame := decoder.next_frame()) is not NEED_DATA:
                    if isinstance(frame, FrameError):
                        raise frame
                    assert isinstance(frame, bytes)
                    self._receive(json.loads(frame), group)
        finally:
            self.closed = True
            for pending in self._pending.values():
                pending.done.set()

    def _receive(self, message: Any, group: anyio.abc.TaskGroup) -> None:
        if isinstance(message, list):  # a batch answer
            for each in message:
                self._receive(each, group)
            return
        if not isinstance(message, dict):
            raise ValueError(f"the server sent {message!r}, not a JSON-RPC message")
        method = message.get("method")
        if isinstance(method, str) and "id" in message:
            self._asked.append({"method": method, "params": message.get("params") or {}})
            group.start_soon(self._answer_request, message)
        elif isinstance(method, str):
            self._notified(method, message)
        else:
            request_id = message.get("id")
            pending = self._pending.get(request_id) if isinstance(request_id, int) else None
            if pending is not None:
                pending.response = message
                pending.done.set()
            elif not (isinstance(request_id, int) and 0 < request_id <= self._last_id):
                raise ValueError(f"the server answered no request of ours: {message}")

    async def _answer_request(self, message: dict[str, Any]) -> None:
        """Handshake era: answer the server's request, with the test's function."""
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
        try:
            reply["result"] = await self._answer(message["method"], message.get("params") or {})
        except ResponseError as error:
            reply["error"] = error.error()
        except Exception as error:  # the test's own function failed: the test must see it
            said = f"the test's function failed: {type(error).__name__}: {error}"
            reply["error"] = {"code": INTERNAL_ERROR, "message": said}
            self.failure = error
            for pending in self._pending.values():
                pending.done.set()
        with contextlib.suppress(anyio.ClosedResourceError):  # the test has left already
            self.send(reply)


def _notification(method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": params}
