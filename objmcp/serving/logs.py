"""The served object's log records, sent to the client of the call that logged them.

A :class:`LogToClient` handler on the root logger turns each record into a
``notifications/message`` at the level the client asked for. Which call (and so which
connection) a record belongs to is not passed around: a call's task sets two context
variables (:func:`attribute_logs`), which the worker threads running a sync method
inherit; a reader thread of the fast lane, which runs one call after another, marks
itself once (:func:`attribute_thread_logs`) and names each call as it starts it.

This is Python's ``logging`` seen from MCP, a concern of its own: the connection only
says where a record goes (its :meth:`post`), and nothing here knows of transports.
"""

from __future__ import annotations

import contextvars
import json
import logging
import typing
from collections.abc import Callable

from ..model.inject import LOG_LEVELS
from ..protocol.session import Action, Session

__all__ = ["LogToClient", "ThreadCall", "attribute_logs", "attribute_thread_logs"]


class Poster(typing.Protocol):
    """Where log records go: a connection, which carries out what the session says of
    them (:meth:`objmcp.serving.connection.Connection.post`)."""

    def post(self, make: Callable[[Session], list[Action]]) -> None: ...


class _Call(typing.Protocol):
    @property
    def call_id(self) -> int | None: ...


def attribute_logs(connection: Poster, call: _Call) -> Callable[[], None]:
    """Log records of the current context belong to ``call`` of ``connection`` from now on;
    returns what undoes that."""
    call_token = _current_call.set(call)
    connection_token = _current_connection.set(connection)

    def undo() -> None:
        _current_call.reset(call_token)
        _current_connection.reset(connection_token)

    return undo


class ThreadCall:
    """Which call a thread's log records belong to now (``call_id``; None between calls)."""

    __slots__ = ("call_id",)

    def __init__(self) -> None:
        self.call_id: int | None = None


def attribute_thread_logs(connection: Poster) -> ThreadCall:
    """Log records of this thread belong to ``connection`` from now on (the thread is
    its own; nothing undoes that), and to the call the returned :class:`ThreadCall`
    names: a thread running one call after another sets its ``call_id`` for each."""
    call = ThreadCall()
    _current_connection.set(connection)
    _current_call.set(call)
    return call


_current_call: contextvars.ContextVar[_Call | None] = contextvars.ContextVar(
    "objmcp_call", default=None
)
"""The call a log record belongs to (worker threads inherit it from the call's task)."""
_current_connection: contextvars.ContextVar[Poster | None] = contextvars.ContextVar(
    "objmcp_connection", default=None
)
"""The connection of that call."""

_SYSLOG = sorted(((number, name) for name, number in LOG_LEVELS.items()), reverse=True)


def _syslog_level(number: int) -> str:
    """The MCP level of a ``logging`` level: the most severe one it reaches."""
    return next((name for floor, name in _SYSLOG if number >= floor), "debug")


class LogToClient(logging.Handler):
    """Sends the records of the served object's loggers to the client, at the level it
    asked for, and keeps writing warnings to stderr as Python does with no handler."""

    def __init__(self, connection: Poster | None) -> None:
        super().__init__(logging.DEBUG)
        self.connection = connection
        """Where records of no call go (None: nowhere but stderr)."""

    def emit(self, record: logging.LogRecord) -> None:
        root = logging.getLogger()
        if record.levelno >= logging.WARNING and root.handlers == [self]:
            logging.lastResort.handle(record)  # type: ignore[union-attr]
        if record.name == "objmcp" or record.name.startswith("objmcp."):
            return  # objmcp's own records are for the person at the terminal
        if getattr(record, "objmcp_forwarded", False):
            return  # another server of this process sent it already
        record.objmcp_forwarded = True
        message: object
        if not isinstance(record.msg, str) and not record.args and _is_json(record.msg):
            message = record.msg  # a JSON value logged as such (objmcp.Log allows it)
        else:
            try:
                message = record.getMessage()
            except Exception:
                message = str(record.msg)
        call = _current_call.get()
        call_id = call.call_id if call is not None else None
        connection = _current_connection.get() or self.connection
        if connection is None:
            return
        level = _syslog_level(record.levelno)
        connection.post(lambda session: session.log(call_id, level, record.name, message))


def _is_json(value: object) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return False
    return True
