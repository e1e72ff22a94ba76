"""What a connection may hold of ``objmcp run --http``: uvicorn's limits, set from its
options, and a deadline for each request to arrive whole.

uvicorn closes a connection idle between requests (``timeout_keep_alive``), answers 503
beyond a number of connections (``limit_concurrency``) and 400 to headers over a size
(``h11_max_incomplete_event_size``), but gives a request as long as it likes to arrive:
a client that sends half a request and no more holds its descriptor for good, and
enough of them leave none for anyone else. :class:`DeadlineProtocol`, uvicorn's h11
protocol, gives each request ``read_timeout`` seconds from the connection's opening or
the request's first byte, headers and body; then it answers 408 (when no answer has
begun) and closes the connection.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from .flags import UVICORN_DEFAULTS

__all__ = ["DeadlineProtocol", "uvicorn_limits"]


_TIMED_OUT = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"


class DeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol, with a deadline for each request to arrive whole: a
    connection that sends nothing, or part of a request and no more, is closed
    ``read_timeout`` seconds after it opened or the request began."""

    def __init__(self, *args: Any, read_timeout: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.read_timeout = read_timeout
        """Seconds a request has to arrive whole, headers and body."""
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A connection opens: its first request's clock starts."""
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        """Bytes of a request: its clock runs until the request is whole."""
        super().data_received(data)
        if self._reading():
            self._arm()
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone: no deadline holds it."""
        self._disarm()
        super().connection_lost(exc)

    def _reading(self) -> bool:
        """Whether a request is arriving: its headers (no request yet, or the last one
        answered) or its body."""
        cycle = self.cycle
        return cycle is None or cycle.response_complete or cycle.more_body

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.read_timeout, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or not self._reading():
            return
        if self.cycle is None or self.cycle.response_complete:
            self.transport.write(_TIMED_OUT)
        self.transport.close()


def uvicorn_limits(options: argparse.Namespace) -> dict[str, Any]:
    """The settings of ``uvicorn.run`` that bound what connections hold, from the
    ``run --http`` options (their defaults where not given)."""

    def given(name: str) -> Any:
        value = getattr(options, name, None)
        return UVICORN_DEFAULTS[name] if value is None else value

    return {
        "http": functools.partial(DeadlineProtocol, read_timeout=float(given("read_timeout"))),
        "timeout_keep_alive": given("keep_alive"),
        "limit_concurrency": given("max_connections"),
        "h11_max_incomplete_event_size": given("max_header"),
    }
