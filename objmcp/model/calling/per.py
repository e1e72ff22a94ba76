"""One object per session, or per caller: a target that makes its objects, and those it made.

``per="shared"`` serves one object to every client (the target itself, as always).
``per="session"`` and ``per="caller"`` take a **factory** instead, a class or a function
that makes the object (:func:`factory_of`), and keep what it made in :class:`Objects`:
one object per session (a connection on stdio, a handshake-era session over HTTP), or
per caller (by :attr:`~objmcp.Caller.key`: its subject, else a digest of its token, as
its sessions and tasks are kept; whichever session it calls in), made at
the first call that needs it, closed when its session ends, or after ``object_idle``
seconds unused (per caller), or when a newer one takes its place beyond
``max_objects`` (the least recently used goes). An object with calls running is closed
after they end.

The tools come from the class once (:func:`shape_of`: an instance never initialised,
whose methods are read and never called); a call runs the method of its own object,
the tool's function bound to it (:meth:`Live.rebound`). Nothing here knows a protocol:
the serving layer names the session a call belongs to (:data:`SESSION`), and the
caller is the one injected parameters get.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import inspect
import logging
import reprlib
import time
import types
import typing
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeVar

import anyio
import anyio.from_thread
import anyio.lowlevel

from ..._exceptions import TargetError, ToolError
from .caller import Caller

__all__ = [
    "DEFAULT_MAX_OBJECTS",
    "DEFAULT_OBJECT_IDLE",
    "NO_SESSION",
    "PER_VALUES",
    "SESSION",
    "Factory",
    "Live",
    "ObjectUnavailable",
    "Objects",
    "Per",
    "factory_of",
    "rebinder",
    "shape_of",
]

logger = logging.getLogger("objmcp")

Per = Literal["shared", "session", "caller"]
PER_VALUES: Final = ("shared", "session", "caller")

DEFAULT_MAX_OBJECTS = 1000
"""Objects kept at once by a per-session or per-caller target unless told otherwise."""
DEFAULT_OBJECT_IDLE = 3600.0
"""Seconds a caller's object is kept unused (``per="caller"``) unless told otherwise."""

SESSION: Final = object()
"""The key, in what a call is given (its injected values), of the session it belongs to:
any hashable value the serving layer chose, or :data:`NO_SESSION`."""
NO_SESSION: Final = object()
"""The session of a call that has none (2026-07-28 over HTTP, stateless HTTP)."""
_LOCAL: Final = object()  # the session of a call made with no serving layer around it

T = TypeVar("T")


class ObjectUnavailable(ToolError):
    """A call's object could not be had: its factory failed, or the call has no session
    to keep one for. The message says which, for the model and the user."""


@dataclass(frozen=True)
class Factory:
    """What makes the objects of a per-session or per-caller target: ``make`` (a class or a
    function), the class of what it makes, and the name of its parameter that takes the
    :class:`~objmcp.Caller` (None when it takes none)."""

    make: Callable[..., object]
    cls: type
    caller_parameter: str | None = None

    def __call__(self, caller: Caller | None) -> object:
        """A new object, for ``caller``."""
        if self.caller_parameter is None:
            return self.make()
        return self.make(**{self.caller_parameter: caller})


def factory_of(target: object) -> Factory:
    """The factory ``target`` is: a class, or a function whose return type is annotated with
    a class (a function that does not say what it makes is refused, rather than called at
    start to find out). It takes no argument but, maybe, the caller: a parameter annotated
    ``objmcp.Caller`` (or ``objmcp.Caller | None``) or named ``caller``. Raises
    :class:`TargetError`."""
    if isinstance(target, type):
        cls, function = target, typing.cast(Any, target).__init__
    elif callable(target) and not isinstance(target, Mapping):
        hints = _hints(target)
        made = hints.get("return")
        if not isinstance(made, type) or made is type(None):
            raise TargetError(
                f"per='session' or 'caller' needs a class, or a function annotated with the "
                f"class it makes (def make() -> Notes); {_name(target)} says no class it "
                f"returns (found {made!r})"
            )
        cls, function = made, target
    else:
        raise TargetError(
            "per='session' or 'caller' serves a class, or a function that makes the object, "
            f"not the {type(target).__name__} {reprlib.repr(target)}: pass the class (Notes, "
            "not Notes())"
        )
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return Factory(typing.cast(Callable[..., object], target), cls)
    hints = _hints(function)
    caller_parameter: str | None = None
    for parameter in signature.parameters.values():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if _is_caller(hints.get(parameter.name), parameter.name):
            if parameter.kind is parameter.POSITIONAL_ONLY:
                raise TargetError(f"{_name(target)} must take the caller by keyword")
            caller_parameter = parameter.name
        elif parameter.default is parameter.empty:
            raise TargetError(
                f"{_name(target)} needs the argument {parameter.name!r}, which objmcp cannot "
                "give: a factory takes nothing but, maybe, the caller (caller: objmcp.Caller)"
            )
    return Factory(typing.cast(Callable[..., object], target), cls, caller_parameter)


def _hints(function: object) -> dict[str, Any]:
    try:
        return typing.get_type_hints(function)
    except Exception:
        return {}


def _is_caller(hint: object, name: str) -> bool:
    if hint is None:
        return name == "caller"
    return hint is Caller or set(typing.get_args(hint)) == {Caller, type(None)}


def _name(target: object) -> str:
    return str(getattr(target, "__qualname__", None) or type(target).__qualname__)


def shape_of(cls: type) -> object:
    """An instance of ``cls`` that was never initialised: its tools are read from it (by
    the class's members, nothing of it run), and its methods are never called."""
    try:
        return typing.cast(Any, cls).__new__(cls)
    except Exception as error:
        raise TargetError(
            f"Cannot read the tools of {cls.__qualname__} without making one "
            f"({cls.__qualname__}.__new__ raised {type(error).__name__}: {error})"
        ) from None


def rebinder(function: Callable[..., object], shape: object) -> Callable[[object], Any] | None:
    """How to bind ``function`` (found on ``shape``) to another object: None when it is not
    bound to ``shape`` (a static or class method: every object shares it). Raises
    :class:`TargetError` for a member bound to it in a way objmcp cannot bind again."""
    if isinstance(function, functools.partial):  # a functools.partialmethod, bound
        inner = rebinder(function.func, shape)
        if inner is None:
            return None
        args, keywords = function.args, function.keywords
        return lambda owner: functools.partial(inner(owner), *args, **keywords)
    if getattr(function, "__self__", None) is not shape:
        return None
    plain = getattr(function, "__func__", None)
    if plain is None:
        raise TargetError(
            f"{getattr(function, '__name__', function)!r} is bound to its object in a way "
            "objmcp cannot bind to each session's or caller's object: make it a plain method"
        )
    return lambda owner: types.MethodType(plain, owner)


@dataclass(eq=False)
class Live:
    """One object made by the factory, and what uses it."""

    key: Hashable
    made: anyio.Event = field(default_factory=anyio.Event)
    value: object = None
    failed: str | None = None
    running: int = 0
    """Calls using it now."""
    retired: bool = False
    """Its session ended, it was idle too long, or it was evicted: closed once unused."""
    closed: bool = False
    last_used: float = field(default_factory=time.monotonic)
    _rebound: dict[int, tuple[object, object]] = field(default_factory=dict)

    def rebound(self, published: T, binders: Mapping[int, Callable[[object], Any]]) -> T:
        """``published`` (a tool, a resource or a prompt) with its function bound to this
        object, when ``binders`` has a way (by the published's id); else as it is."""
        binder = binders.get(id(published))
        if binder is None:
            return published
        kept = self._rebound.get(id(published))
        if kept is not None and kept[0] is published:
            return typing.cast(T, kept[1])
        twin = copy.copy(published)
        object.__setattr__(twin, "function", binder(self.value))
        self._rebound[id(published)] = (published, twin)
        return twin


class Objects:
    """The live objects of a per-session or per-caller target, by key, the least recently
    used first out beyond ``max_objects``; those of callers unused for ``idle`` seconds
    are closed as calls come (``per="caller"``).

    ``make`` makes an object for a caller (where sync calls run), ``close`` closes one
    (never raising). Used on the event loop only."""

    def __init__(
        self,
        per: Per,
        factory: Factory,
        *,
        make: Callable[[Caller | None], Awaitable[object]],
        close: Callable[[object], Awaitable[None]],
        max_objects: int = DEFAULT_MAX_OBJECTS,
        idle: float | None = DEFAULT_OBJECT_IDLE,
    ) -> None:
        if per not in ("session", "caller"):
            raise ValueError(f"Objects keeps objects per 'session' or 'caller', not {per!r}")
        if max_objects < 1:
            raise ValueError(f"max_objects must be 1 or more, not {max_objects}")
        if idle is not None and idle < 0:
            raise ValueError("object_idle cannot be negative")
        self.per = per
        self.factory = factory
        self.max_objects = max_objects
        self.idle = idle
        self._make = make
        self._close = close
        self.live: OrderedDict[Hashable, Live] = OrderedDict()
        """The objects kept, least recently used first."""
        self._retired: list[Live] = []  # out of `live`, to close once unused
        self._next_sweep = time.monotonic()

    def key_of(self, injected: Mapping[object, object] | None) -> Hashable:
        """The key of the object a call with ``injected`` values uses; raises
        :class:`ObjectUnavailable` for a per-session call that has no session."""
        given = injected or {}
        if self.per == "caller":
            caller = given.get(Caller)
            return ("caller", caller.key if isinstance(caller, Caller) else None)
        session = given.get(SESSION, _LOCAL)
        if session is NO_SESSION:
            raise ObjectUnavailable(
                f"This server keeps one {self.factory.cls.__qualname__} per session "
                "(per='session'), and this request belongs to no session (MCP 2026-07-28 "
                "over HTTP has none, nor has stateless HTTP): connect with a session "
                "(initialize, MCP 2025-11-25 or earlier), or serve with per='caller'"
            )
        return ("session", session)

    @contextlib.asynccontextmanager
    async def lease(self, injected: Mapping[object, object] | None) -> AsyncIterator[Live]:
        """The object of the call with ``injected`` values, made if need be, used while the
        block runs. Raises :class:`ObjectUnavailable` when it cannot be had."""
        key = self.key_of(injected)
        await self.close_idle()
        live = self.live.get(key)
        if live is None:
            live = self.live[key] = Live(key)
            live.running += 1
            await self._evict()
            caller = (injected or {}).get(Caller)
            try:
                live.value = await self._make(caller if isinstance(caller, Caller) else None)
            except BaseException as error:
                live.failed = f"{type(error).__name__}: {error}"
                if self.live.get(key) is live:
                    del self.live[key]
                live.running -= 1
                live.made.set()
                if isinstance(error, Exception):
                    logger.error(
                        "making a %s failed", self.factory.cls.__qualname__, exc_info=error
                    )
                    raise ObjectUnavailable(self._failure(live.failed)) from None
                raise
            live.made.set()
        else:
            self.live.move_to_end(key)
            live.running += 1
            await live.made.wait()
            if live.failed is not None:
                live.running -= 1
                raise ObjectUnavailable(self._failure(live.failed))
        try:
            yield live
        finally:
            live.running -= 1
            live.last_used = time.monotonic()
            if live.retired and not live.running:
                await self._closed(live)

    def releaser(self, live: Live) -> Callable[[], None]:
        """What a call's thread, abandoned while it ran on ``live`` (its call cancelled, its
        session ended), calls when it ends at last: ``live`` may be closed then (by
        :meth:`close_retired`, as calls and requests come). Called on the event loop."""
        token = anyio.lowlevel.current_token()

        def released() -> None:
            live.running -= 1
            if live.retired and not live.running and live not in self._retired:
                self._retired.append(live)

        def release() -> None:
            with contextlib.suppress(RuntimeError):  # the loop is gone: nothing to close
                anyio.from_thread.run_sync(released, token=token)

        return release

    def _failure(self, failed: str) -> str:
        whose = "session" if self.per == "session" else "caller"
        return (
            f"Could not make the {self.factory.cls.__qualname__} object for this {whose}: {failed}"
        )

    async def _evict(self) -> None:
        """Room for the newest object: beyond ``max_objects``, the least recently used goes."""
        while len(self.live) > self.max_objects:
            key = next(iter(self.live))
            logger.info("object %r closed for a newer one (max_objects %d)", key, self.max_objects)
            await self._retire(self.live.pop(key))

    def end(self, session: Hashable) -> None:
        """``session`` ended: its object is closed once its calls end (by
        :meth:`close_retired`, or by the last call's end)."""
        live = self.live.pop(("session", session), None)
        if live is not None:
            live.retired = True
            self._retired.append(live)

    async def close_idle(self) -> None:
        """Close the callers' objects unused for ``idle`` seconds (``per="caller"``; looked
        for no more than every few seconds), and those retired that no call uses."""
        now = time.monotonic()
        if self.per == "caller" and self.idle is not None and now >= self._next_sweep:
            self._next_sweep = now + min(self.idle / 4, 30.0)  # a look every few seconds
            for key, live in list(self.live.items()):
                if not live.running and live.made.is_set() and now - live.last_used > self.idle:
                    logger.info("object %r idle for %.0f s; closed", key, now - live.last_used)
                    self._retired.append(self.live.pop(key))
        await self.close_retired()

    async def close_retired(self) -> None:
        """Close the retired objects no call uses."""
        retired, self._retired = self._retired, []
        for live in retired:
            await self._retire(live)

    async def _retire(self, live: Live) -> None:
        live.retired = True
        if live.running:
            self._retired.append(live)
        else:
            await self._closed(live)

    async def _closed(self, live: Live) -> None:
        if live.closed or live.failed is not None or not live.made.is_set():
            return
        live.closed = True
        if live in self._retired:
            self._retired.remove(live)
        with anyio.CancelScope(shield=True):
            await self._close(live.value)

    async def aclose(self) -> None:
        """Close every object (serving ends), those with calls still running too."""
        everything = [*self.live.values(), *self._retired]
        self.live.clear()
        self._retired = []
        for live in everything:
            live.retired = True
            await self._closed(live)
