"""The SSE streams of the Streamable HTTP transport: what one carries, in order, and
the connection writing it.

A :class:`Stream` is a POST's (until its requests are answered or cancelled) or a
session's GET stream (until the session ends). A handshake-era session numbers its
streams and keeps them for a while, so that a client that lost a connection gets the
rest of a stream with a GET and ``Last-Event-ID``; a :class:`Reader` is the one
connection writing a stream at a time.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Collection, Mapping
from typing import Any

import anyio

from ..protocol.jsonrpc import RequestId
from ..protocol.subscriptions import SUBSCRIPTION_ID_KEY

__all__ = ["COMPLETE_LIMIT", "DELIVERED_KEPT", "Reader", "Stream"]

logger = logging.getLogger("objmcp")


class Stream:
    """The messages of one SSE stream, in order: a POST's (until its requests are all
    answered or cancelled), or a session's GET stream (until the session ends).

    A handshake-era session numbers its streams, and their events carry ids
    (``<stream>-<position>``), so that a client that lost the connection resumes the
    stream where it left off with a GET and ``Last-Event-ID``. A stream that cannot
    be resumed forgets each message once written.

    ``aliases`` maps the ids the session knows the requests by to the client's own (the
    modern era's requests of every client share one session, under ids of the server's
    making): what goes out carries the client's ids again."""

    def __init__(
        self,
        ids: Collection[RequestId] = (),
        aliases: Mapping[RequestId, RequestId] | None = None,
        *,
        number: int | None = None,
        standing: bool = False,
        batch: bool = False,
    ) -> None:
        self.pending = set(ids)
        self.ids = tuple(self.pending)
        """The requests the stream answers, answered or not."""
        self.requested = bool(self.pending)
        """Whether the messages the stream answers held a request."""
        self.aliases = dict(aliases or {})
        self.number = number
        """The stream's number in its session (None: not resumable)."""
        self.standing = standing
        """A session's GET stream: complete only when the session ends."""
        self.batch = batch
        """The messages the stream answers came in a JSON-RPC batch."""
        self.closed = False
        self.readers = 0
        """How many connections have taken the stream (the last one writes it)."""
        self.reading = False
        """Whether a connection is writing the stream now."""
        self._log: list[object] = []
        self._first = 0  # the position of _log[0] in the stream
        self._written = 0  # the position up to which a connection wrote it
        self._overflowed = False
        self._changed: anyio.Event | None = None  # made by the first to wait

    @property
    def end(self) -> int:
        """The position after the last message."""
        return self._first + len(self._log)

    @property
    def complete(self) -> bool:
        """Nothing more will come: every request answered (or the session over)."""
        return self.closed or (not self.standing and not self.pending)

    def put(self, message: object) -> None:
        """Add a message to the stream; its answers tick its requests off."""
        answers = message if isinstance(message, list) else [message]
        for answer in answers:
            if isinstance(answer, dict) and "method" not in answer:
                self.pending.discard(answer.get("id"))
        if self.batch and _refuses_whole(message):
            self.pending.clear()  # none of its requests was taken
            self.requested = False
        if self.aliases and isinstance(message, dict):
            message = self._as_sent(message)
        self._log.append(message)
        if self.standing and len(self._log) > STANDING_LIMIT:
            if not self._overflowed:
                logger.warning("a GET stream nobody reads drops its oldest messages")
                self._overflowed = True
            self._forget(self._first + 1)
        self.wake()

    def drop(self, request_id: RequestId) -> None:
        """The client cancelled ``request_id``: no answer will come for it."""
        if request_id in self.pending:
            self.pending.discard(request_id)
            self.wake()

    def close(self) -> None:
        """The session is over: so is the stream."""
        self.closed = True
        self.wake()

    @property
    def delivered(self) -> bool:
        """Complete, and written to its end on some connection."""
        return self.complete and self._written >= self.end

    def since(self, position: int) -> list[tuple[int, object]]:
        """The messages from ``position`` on, with their positions."""
        if position < self._first:
            missed = self._first - position
            logger.warning("a resumed stream no longer holds %d message(s) it sent", missed)
        start = max(position, self._first)
        return list(enumerate(self._log[start - self._first :], start))

    def written(self, position: int) -> None:
        """Every message before ``position`` was written to a connection."""
        self._written = max(self._written, position)
        self._forget(position if self.number is None else position - WRITTEN_KEPT)

    def event_id(self, position: int) -> str | None:
        """The SSE event id of the message at ``position`` (0 is the priming event)."""
        return None if self.number is None else f"{self.number}-{position}"

    def wake(self) -> None:
        """Wake whoever waits for this stream to change."""
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    async def changed(self) -> None:
        """Wait until the stream changes."""
        if self._changed is None:
            self._changed = anyio.Event()
        await self._changed.wait()

    def _forget(self, position: int) -> None:
        if position > self._first:
            del self._log[: position - self._first]
            self._first = position

    def _as_sent(self, message: dict[str, Any]) -> dict[str, Any]:
        """``message`` with the client's ids where the session put its own."""
        found = dict(message)
        if "method" not in found and found.get("id") in self.aliases:
            found["id"] = self.aliases[found["id"]]
        for key in ("params", "result"):
            part = found.get(key)
            if not isinstance(part, dict):
                continue
            meta = part.get("_meta")
            if isinstance(meta, dict) and meta.get(SUBSCRIPTION_ID_KEY) in self.aliases:
                stream = self.aliases[meta[SUBSCRIPTION_ID_KEY]]
                found[key] = {**part, "_meta": {**meta, SUBSCRIPTION_ID_KEY: stream}}
        return found


def _refuses_whole(message: object) -> bool:
    """Whether ``message`` answers a batch with one error of id null (a batch refused
    whole: in a revision without batches, or empty); a batch taken is answered with an
    array."""
    return isinstance(message, dict) and "error" in message and message.get("id") is None


STANDING_LIMIT = 1000
"""Messages a GET stream keeps for a client that may come back to it."""
WRITTEN_KEPT = 100
"""Messages already written that a resumable stream keeps (the connection they were
written to may have been lost already)."""
DELIVERED_KEPT = 8
"""Streams written to their end that a session keeps for resumption; the oldest go first."""
COMPLETE_LIMIT = 64
"""Complete streams a session keeps in all, delivered or not; the oldest go first."""


class Reader:
    """One connection writing a stream. It stops when its client leaves, when another
    connection resumes the stream, or when its hold runs out (the client polls)."""

    def __init__(self, stream: Stream, hold: float | None) -> None:
        stream.readers += 1
        stream.reading = True
        stream.wake()  # a connection still writing it stops
        self.stream = stream
        self._turn = stream.readers
        self.left = False
        self.held = False
        self._deadline = math.inf if hold is None else anyio.current_time() + hold

    @property
    def stopped(self) -> bool:
        """Whether this connection must write no more."""
        return self.left or self.held or self.stream.readers != self._turn

    def close(self) -> None:
        """This connection is done with the stream."""
        if self.stream.readers == self._turn:
            self.stream.reading = False

    def leave(self) -> None:
        """The client went away."""
        self.left = True
        self.stream.wake()

    async def wait(self, ready: Callable[[], bool]) -> bool:
        """Wait until ``ready()``; False when the connection must stop first."""
        while not self.stopped and not ready():
            with anyio.move_on_after(self._deadline - anyio.current_time()) as waited:
                await self.stream.changed()
            self.held = waited.cancelled_caught
        return not self.stopped
