"""The served object's log records, sent to the client of the call that logged them.

A :class:`LogToClient` handler on the root logger turns each record of the served
object's own loggers into a ``notifications/message`` at the level the client asked
for. Only those: a library's debug records (an HTTP request's headers, say) never
reach the client. The served object's loggers are those of the top-level packages of
the modules its tools come from (``mylib`` and ``mylib.*`` for a class of
``mylib.sub``; ``zoo`` too for ``python zoo.py``, whose module is ``__main__``), unless the
server names them (``loggers``), and the records of an
injected ``objmcp.Log``. Which call (and so which
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
import os
import sys
import types
import typing
from collections.abc import Callable, Collection

from ..model.calling.inject import LOG_LEVELS, LOG_MARK
from ..model.calling.toolbox import Toolbox
from ..protocol import midcall
from ..protocol.session import Action, Session

__all__ = [
    "LogToClient",
    "ThreadCall",
    "attribute_logs",
    "attribute_thread_logs",
    "served_packages",
]


class Poster(typing.Protocol):
    """Where log records go: a connection, which carries out what the session says of
    them (:meth:`objmcp.serving.runner.Runner.post`)."""

    def post(self, make: Callable[[Session], list[Action]]) -> None: ...


class _Call(typing.Protocol):
    @property
    def call_id(self) -> int | None: ...


def attribute_logs(connection: Poster, call: _Call) -> Callable[[], None]:
    """Log records of the current context belong to ``call`` of ``connection`` from now on;
    returns what undoes that."""
    token = _current.set((connection, call))
    return lambda: _current.reset(token)


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
    _current.set((connection, call))
    return call


_current: contextvars.ContextVar[tuple[Poster, _Call] | None] = contextvars.ContextVar(
    "objmcp_call", default=None
)
"""The connection and the call a log record belongs to (worker threads inherit them from
the call's task)."""

_SYSLOG = sorted(((number, name) for name, number in LOG_LEVELS.items()), reverse=True)


def _syslog_level(number: int) -> str:
    """The MCP level of a ``logging`` level: the most severe one it reaches."""
    return next((name for floor, name in _SYSLOG if number >= floor), "debug")


def served_packages(tools: Toolbox) -> frozenset[str]:
    """The top-level packages of the modules that the tools of ``tools`` and the target
    come from: the names of the served object's own loggers."""
    modules: set[object] = {_module_of(tools.target)}
    if isinstance(tools.target, dict):
        modules.update(_module_of(value) for value in tools.target.values())
    for tool in tools.values():
        modules.add(getattr(tool.function, "__module__", None))
    tops = {name.partition(".")[0] for name in modules if isinstance(name, str) and name}
    return frozenset(tops | {name for top in tops if (name := _file_name(top))})


def _file_name(top: str) -> str | None:
    """The name a module loaded from a file under another name goes by: ``zoo`` for
    ``python zoo.py`` (``__main__``), ``notes`` for ``objmcp run notes.py``."""
    file = getattr(sys.modules.get(top), "__file__", None)
    if not isinstance(file, str):
        return None
    folder, base = os.path.split(file)
    stem = os.path.splitext(base)[0]
    return os.path.basename(folder) if stem == "__init__" else stem


def _module_of(target: object) -> object:
    if isinstance(target, types.ModuleType):
        return target.__name__
    return getattr(target, "__module__", None) or type(target).__module__


class LogToClient(logging.Handler):
    """Sends the records of the served object's loggers to the client, at the level it
    asked for, and keeps writing warnings to stderr as Python does with no handler.

    The served object's loggers are ``loggers`` and their children, or, when None, those
    of :func:`served_packages`; records of an injected ``objmcp.Log`` go in any case."""

    def __init__(
        self, connection: Poster | None, tools: Toolbox, loggers: Collection[str] | None = None
    ) -> None:
        super().__init__(logging.DEBUG)
        self.connection = connection
        """Where records of no call go (None: nowhere but stderr)."""
        self._tools = tools
        self._loggers = None if loggers is None else frozenset(loggers)
        self._seen: tuple[int, frozenset[str]] | None = None  # served_packages, by generation

    def sends(self, name: str) -> bool:
        """Whether records of the logger ``name`` go to the client."""
        names = self._loggers
        if names is None:
            generation = self._tools.generation
            if self._seen is None or self._seen[0] != generation:
                self._seen = (generation, served_packages(self._tools))
            names = self._seen[1]
        while True:
            if name in names:
                return True
            name, dot, _ = name.rpartition(".")
            if not dot:
                return False

    def emit(self, record: logging.LogRecord) -> None:
        root = logging.getLogger()
        if record.levelno >= logging.WARNING and root.handlers == [self]:
            logging.lastResort.handle(record)  # type: ignore[union-attr]
        if record.name == "objmcp" or record.name.startswith("objmcp."):
            return  # objmcp's own records are for the person at the terminal
        if getattr(record, "objmcp_forwarded", False):
            return  # another server of this process sent it already
        if not getattr(record, LOG_MARK, False) and not self.sends(record.name):
            return  # another library's: it may hold what the client must not see
        record.objmcp_forwarded = True
        message: object
        if not isinstance(record.msg, str) and not record.args and _is_json(record.msg):
            message = record.msg  # a JSON value logged as such (objmcp.Log allows it)
        else:
            try:
                message = record.getMessage()
            except Exception:
                message = str(record.msg)
        current = _current.get()
        call_id = current[1].call_id if current is not None else None
        connection = current[0] if current is not None else self.connection
        if connection is None:
            return
        level = _syslog_level(record.levelno)
        connection.post(lambda session: midcall.log(session, call_id, level, record.name, message))


def _is_json(value: object) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return False
    return True
