"""Code mode: a whole library as a Python API that a model scripts, run in a sandbox.

``execute(code)`` runs the model's Python in pydantic-monty (``objmcp[code]``): a Python
subset interpreted in worker processes of its own, with no filesystem, no network, no
``import`` beyond what is offered, and limits on time, memory, recursion and the number of
tool calls (:class:`CodeLimits`). The served tools are its only way out: each module of them
(:mod:`objmcp.model.discovery.stubs`) is importable, and already imported, so the code
writes ``statistics.median(data)``; each call of one suspends the code, and objmcp makes it
a real call of the tool (``call``: through the same validation, conversion, hooks, scopes
and per-caller objects as a ``tools/call``, with the injected values of the ``execute``
call, so a tool that asks the user still asks), then resumes the code with its value, or
with its error raised where the code called it.

What ``print`` wrote and the value of the last expression come back as the result; an
exception comes back with its traceback (the line that raised it). A limit reached, a
crash of the sandbox's worker: that ``execute`` call's error, never the server's.

A call whose question ends its request (2026-07-28's ``input_required``) keeps the code
suspended while the call is parked. Whether or not it is, the code is not run again from
the top by the retry that brings the answer (its earlier calls may have had effects): it
left a snapshot of itself in the request state (:class:`~objmcp.model.calling.inject.Carried`),
and the retry resumes it at the call that asked, in whichever process it reaches.
"""

from __future__ import annotations

import contextlib
import json
import threading
import typing
from collections.abc import Callable, Coroutine, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.from_thread
import anyio.to_thread

from ..calling.inject import Carried
from ..calling.tool import Tool
from ..values.content import ToolResult
from .stubs import variadic

__all__ = ["CARRY_LIMIT", "DEFAULT_CODE_LIMITS", "CodeLimits", "SpanMaker", "run_code"]


@dataclass(frozen=True)
class CodeLimits:
    """What one ``execute`` may take: ``time`` seconds of running (time waiting for a tool
    is not counted), ``memory`` bytes of heap, ``calls`` tool calls, ``depth`` of
    recursion, and ``output`` characters of what it prints."""

    time: float = 10.0
    memory: int = 256 << 20
    calls: int = 200
    depth: int = 200
    output: int = 100_000


DEFAULT_CODE_LIMITS = CodeLimits()

Call = Callable[[str, dict[str, Any], int], Coroutine[Any, Any, ToolResult]]
"""A call of a tool by its name with its arguments, through the whole pipeline; the number
of the call in its run (1, 2...) names the questions it asks, so that a run resumed from
its snapshot asks them under the same keys as before."""
SpanMaker = Callable[[str], AbstractContextManager[Any]]
"""What makes the span of one tool call from the code, by the tool's name."""


CARRY_LIMIT = 1 << 20
"""Bytes of suspended code that a request state carries to the retry that brings an
answer (beyond them, only a retry that finds the call parked goes on)."""


class _TooManyCalls(Exception):
    pass


class _Stopped(Exception):
    """The ``execute`` call was cancelled: no tool is called for it any more."""


_POOLS: list[Any] = []  # the one pool of the process, once made
_WORKERS = 8  # runs at once (a run parked at a question keeps its worker)
_CHECKOUT_WAIT = 30.0  # seconds a run waits for a worker before it is refused
_POOL_LOCK = threading.Lock()


def _pool(limits: CodeLimits) -> Any:
    """The process's pool of sandbox workers (made at the first ``execute``)."""
    with _POOL_LOCK:
        if not _POOLS:
            import atexit

            from pydantic_monty import Monty

            pool = Monty(
                min_processes=1,
                max_processes=_WORKERS,
                checkout_timeout=_CHECKOUT_WAIT,
                request_timeout=limits.time + 20,
            )
            pool.__enter__()
            atexit.register(pool.__exit__, None, None, None)
            _POOLS.append(pool)
        return _POOLS[0]


async def run_code(
    code: str,
    modules: Mapping[str, Mapping[str, Tool]],
    call: Call,
    *,
    limits: CodeLimits = DEFAULT_CODE_LIMITS,
    carried: Carried | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    span: SpanMaker | None = None,
) -> ToolResult:
    """Run ``code`` with ``modules`` (each a module's tools by their Python names)
    importable and imported, each tool call made by ``call`` (in a ``span`` of its own
    when given; none once ``cancelled()``); its result. ``carried`` is the request's: the
    code leaves a snapshot of itself there at each tool call, and a retry that brings
    one resumes it."""
    if not isinstance(code, str):
        return ToolResult(f"code must be a string, not {type(code).__name__}", is_error=True)
    try:
        import pydantic_monty  # noqa: F401
    except ImportError:
        return ToolResult("execute needs pydantic-monty: pip install 'objmcp[code]'", is_error=True)
    if carried is not None and carried.given == b"":
        return ToolResult(
            f"the code stopped at a question with more than {CARRY_LIMIT} bytes of state, "
            "too much to carry to its retry: run it again",
            is_error=True,
        )
    run = _Run(code, modules, call, limits, carried, cancelled, span)
    return await anyio.to_thread.run_sync(run.run, abandon_on_cancel=True)


class _Run:
    """One ``execute``, driven from a worker thread (each tool call made on the loop)."""

    def __init__(
        self,
        code: str,
        modules: Mapping[str, Mapping[str, Tool]],
        call: Call,
        limits: CodeLimits,
        carried: Carried | None,
        cancelled: Callable[[], bool],
        span: SpanMaker | None,
    ) -> None:
        self.code, self.modules, self.call, self.limits = code, modules, call, limits
        self.carried, self.cancelled, self.span = carried, cancelled, span
        self.calls = 0
        self.printed = _Printed("", None)

    def run(self) -> ToolResult:
        from pydantic_monty import CollectString, ExternalModule, MontyCrashedError, MontyError

        external = {
            module: ExternalModule(dict.fromkeys(tools, _never))
            for module, tools in self.modules.items()
        }
        before, given = "", self.carried.given if self.carried is not None else None
        if given:  # what the run printed before it stopped to ask: said with the rest
            self.calls, before, given = _unpacked(given)
        printed = _Printed(
            before, CollectString(max_bytes=max(1, self.limits.output - len(before)))
        )
        self.printed = printed
        checkout_limits = {
            "max_feed_duration_secs": self.limits.time,
            "max_memory": self.limits.memory,
            "max_recursion_depth": self.limits.depth,
            "max_suspensions": self.limits.calls + len(self.modules) + 10,
        }
        try:
            pool = _pool(self.limits)
            with pool.checkout(limits=checkout_limits, external_modules=external) as session:
                if given:  # the retry of a call that asked: resumed where it was
                    snapshot = session.load_snapshot(given, print_callback=printed.collected)
                else:
                    if self.modules:
                        session.feed_run("\n".join(f"import {m}" for m in self.modules))
                    snapshot = session.feed_start(self.code, print_callback=printed.collected)
                output = self._drive(snapshot)
        except _TooManyCalls:
            return _said(printed, f"the code made more than {self.limits.calls} tool calls")
        except _Stopped:
            return _said(printed, "cancelled")
        except TimeoutError:  # no worker came free in time (runs parked at questions keep theirs)
            return _said(printed, f"every sandbox worker stayed busy for {_CHECKOUT_WAIT:g} s")
        except MontyCrashedError as crash:
            return _said(printed, f"the sandbox stopped: {crash}")
        except MontyError as error:
            return _said(printed, _error_text(error))
        text = printed.text()
        if output is not None:
            shown = _shown(output)
            text = f"{text}\n{shown}" if text else shown
        return ToolResult(text, None)

    def _drive(self, snapshot: Any) -> Any:
        from pydantic_monty import FunctionSnapshot, MontyComplete, NameLookupSnapshot

        while not isinstance(snapshot, MontyComplete):
            if isinstance(snapshot, FunctionSnapshot):
                if snapshot.is_os_function:
                    if snapshot.function_name == "import":
                        snapshot = snapshot.resume_auto()
                    else:  # files, the environment, the clock's setting: none of the host's
                        snapshot = snapshot.resume_not_handled()
                    continue
                snapshot = snapshot.resume(typing.cast(Any, self._answer(snapshot)))
            elif isinstance(snapshot, NameLookupSnapshot):
                snapshot = snapshot.resume()  # a NameError where the code read it
            else:
                snapshot = snapshot.resume_auto()
        return snapshot.output

    def _answer(self, snapshot: Any) -> dict[str, Any]:
        """The tool call the code made at ``snapshot``, made: its value, or its error."""
        module, _, name = str(snapshot.function_name).rpartition(".")
        tool = self.modules.get(module, {}).get(name)
        if tool is None:
            return {"exc_type": "NameError", "message": f"no tool {snapshot.function_name}"}
        self.calls += 1
        if self.calls > self.limits.calls:
            raise _TooManyCalls
        if self.cancelled():
            raise _Stopped
        try:
            arguments = _arguments(tool, tuple(snapshot.args), dict(snapshot.kwargs))
        except TypeError as error:
            return {"exc_type": "TypeError", "message": str(error)}
        carried, number = self.carried, self.calls
        if carried is not None:  # should the call stop to ask, the retry resumes it here
            carried.leave(lambda: _kept(snapshot, number, self.printed.raw()))
        try:
            # the span made in this thread, where the execute call's span is current
            with self.span(tool.name) if self.span is not None else contextlib.nullcontext():
                result: ToolResult = anyio.from_thread.run(self.call, tool.name, arguments, number)
        finally:
            if carried is not None:
                carried.leave(None)
        if result.is_error:
            return {"exc_type": "RuntimeError", "message": f"{tool.name}: {result.text}"}
        return {"return_value": _value(tool, result)}


def _kept(snapshot: Any, number: int, printed: str) -> bytes:
    """What a run leaves for its retry at its ``number``-th tool call: the number, what it
    printed so far and the snapshot (:func:`_unpacked` reads it); or nothing, when that is
    too big to carry."""
    dumped: bytes = snapshot.dump()
    text = printed.encode()
    if len(dumped) + len(text) > CARRY_LIMIT:
        return b""
    return number.to_bytes(4, "big") + len(text).to_bytes(4, "big") + text + dumped


def _unpacked(kept: bytes) -> tuple[int, str, bytes]:
    """What :func:`_kept` left: the count of calls made before the one that asked (which
    is made again, under its own number), what was printed, and the snapshot."""
    number, size = int.from_bytes(kept[:4], "big"), int.from_bytes(kept[4:8], "big")
    return number - 1, kept[8 : 8 + size].decode(), kept[8 + size :]


class _Printed:
    """What a run prints: what it printed ``before`` it was resumed, and what it prints
    now, into ``collected``."""

    def __init__(self, before: str, collected: Any) -> None:
        self.before, self.collected = before, collected

    def raw(self) -> str:
        return self.before + str(getattr(self.collected, "output", "") or "")

    def text(self) -> str:
        return self.raw().rstrip("\n")


def _never(*args: object, **kwargs: object) -> None:
    raise RuntimeError("a tool of code mode is called through objmcp, never here")


def _arguments(tool: Tool, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The tool's arguments by name from a Python call's (positional ones in the order of
    its stub: required first; those beyond them, its ``*args``)."""
    schema = tool.input_schema
    rest = variadic(tool)
    properties = [key for key in (schema.get("properties") or {}) if key != rest]
    required = set(schema.get("required") or ())
    order = [k for k in properties if k in required] + [k for k in properties if k not in required]
    named: dict[str, Any] = {}
    if len(args) > len(order):
        if rest is None:
            raise TypeError(f"{tool.name}() takes {len(order)} arguments, {len(args)} given")
        named[rest] = list(args[len(order) :])
    named.update(zip(order, args, strict=False))
    twice = set(named) & set(kwargs)
    if twice:
        raise TypeError(f"{tool.name}() got several values for {sorted(twice)[0]}")
    return {**named, **kwargs}


def _value(tool: Tool, result: ToolResult) -> Any:
    """What the code gets of a tool's result: its structured value, else its JSON value,
    else its text."""
    if result.structured is not None:
        if tool.wraps_output and set(result.structured) == {"result"}:
            return result.structured["result"]
        return result.structured
    if result.value is not None and _jsonable(result.value):
        return result.value
    return result.text


def _jsonable(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return value
    with contextlib.suppress(TypeError, ValueError):
        return json.dumps(value, ensure_ascii=False, default=str)
    return repr(value)


def _said(printed: _Printed, error: str) -> ToolResult:
    text = printed.text()
    return ToolResult(f"{text}\n{error}" if text else error, None, True)


def _error_text(error: Any) -> str:
    """The code's error as its traceback says it (the line that raised), else its type and
    message."""
    with contextlib.suppress(Exception):
        shown = str(error.display("traceback"))
        if shown:
            return shown
    return str(error)
