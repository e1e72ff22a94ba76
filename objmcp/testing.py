"""Test a served object the way a model calls it: the real protocol, in memory.

    import objmcp.testing

    async with objmcp.testing.connect(Notes()) as client:
        result = await client.call("add", title="milk")
        assert not result.is_error

:func:`connect` serves the object with a real :class:`objmcp.Server` in a task
of the running event loop and speaks MCP to it over in-memory byte streams: no
subprocess, no pipes. It speaks either era: the handshake (``initialize``
first) or the modern one (every request names its revision and capabilities in
``_meta``, and the client itself drives the ``input_required`` rounds). The
server's questions (``elicitation/create``, ``sampling/createMessage``,
``roots/list``) are answered by the functions the test gives, in both eras. In the
modern era the client also follows tasks (the extension ``io.modelcontextprotocol/tasks``):
a call that became one is polled to its result, or driven one step at a time
(:meth:`Client.call_task`, :class:`Task`); in the handshake era the same methods drive
2025-11-25's core tasks, and a call is one where its tool requires it.
:func:`connect_sync` is the same for sync tests; :func:`sdk_transport` lets the
official ``mcp`` SDK's ``Client`` connect in memory instead.

This module holds those entry points and the in-memory serving under them: two
byte pipes, the server in a task, its end when the test's block ends. The client
they hand out (:class:`Client`, :class:`SyncClient`) is in ``objmcp._testclient`` and
``objmcp._testsync``, what it hands the test (:class:`CallResult`, :class:`ResponseError`, ...) in
``objmcp._testanswers``; both are re-exported here.

``import objmcp`` does not load this module; ``import objmcp.testing`` does.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING, Any, Literal

import anyio
import anyio.abc
import anyio.from_thread
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from ._server import Server, ServerOptions
from ._testanswers import CallResult, Handler, ProgressReport, ResponseError, Task, constant
from ._testclient import Client
from ._testsync import SyncClient
from .model.calling.inject import Root
from .protocol.revisions import HANDSHAKE_VERSIONS, MODERN_VERSIONS, REVISIONS, Era
from .serving.byte_stream import loop_connection
from .transport.framing import NEED_DATA, FrameDecoder, encode_frame
from .transport.stdio import byte_sink, byte_source

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "CallResult",
    "Client",
    "ConnectOptions",
    "Handler",
    "ProgressReport",
    "ResponseError",
    "ServerOptions",
    "SyncClient",
    "Task",
    "connect",
    "connect_sync",
    "sdk_transport",
]


class ConnectOptions(ServerOptions, total=False):
    """The keywords of :func:`connect` (the client's, and the server's it makes), which
    :func:`connect_sync` passes on."""

    era: Era | None
    revision: str | None
    elicit: Handler | None
    sample: Handler | None
    roots: Handler | Sequence[Root | str | Mapping[str, Any]] | None
    log_level: str | None
    capabilities: Mapping[str, Any] | None
    timeout: float | None
    name: str


for _public in (CallResult, Client, ProgressReport, ResponseError, SyncClient, Task):
    _public.__module__ = __name__  # reprs and tracebacks name the public place
del _public


@asynccontextmanager
async def connect(
    target: object,
    *,
    era: Era | None = None,
    revision: str | None = None,
    elicit: Handler | None = None,
    sample: Handler | None = None,
    roots: Handler | Sequence[Root | str | Mapping[str, Any]] | None = None,
    log_level: str | None = None,
    capabilities: Mapping[str, Any] | None = None,
    timeout: float | None = None,
    name: str = "test",
    **server_options: Unpack[ServerOptions],
) -> AsyncIterator[Client]:
    """Serve ``target`` in memory and connect a :class:`Client` to it.

    ``target`` is what ``objmcp.serve`` takes (served by a ``Server(name, target,
    **server_options)`` made here, and closed at the end as serving closes it), or
    a :class:`~objmcp.Server` (served as it is, on a new connection; not closed).
    ``era`` is ``"handshake"`` (the default; ``initialize`` first, at revision
    2025-11-25) or ``"modern"`` (2026-07-28); ``revision`` picks any revision
    instead (an unsupported one is refused as a server refuses it: the
    :class:`ResponseError` comes out of ``connect``).

    ``elicit``, ``sample`` and ``roots`` answer the server's requests; each is
    called with the request's params, sync or async. ``elicit`` returns an
    :class:`~objmcp.ElicitResult` (``ElicitResult("accept", {"value": True})``)
    or the raw ``{"action", "content"}`` answer; ``sample`` a string, a
    :class:`~objmcp.SampleResult` or the raw result; ``roots`` (or, instead of a
    function, a plain list) a list of :class:`~objmcp.Root`, URIs or raw roots. The
    client declares a capability only for the functions given (and the tasks it
    follows itself: in the modern era the tasks extension, at 2025-11-25 the core
    ``tasks``), unless ``capabilities`` says otherwise. Raise :class:`ResponseError`
    in one to answer with an error; any other exception comes out of the call that
    was waiting.

    ``log_level`` asks for the server's log records (``client.logs``);
    ``timeout`` bounds each request (seconds; it is then cancelled, and
    ``TimeoutError`` raised). At the end of the block the server's input ends:
    calls still running get the server's ``grace`` to finish.
    """
    revision, era = _pick_revision(era, revision)
    handlers: dict[str, Handler] = {}
    if elicit is not None:
        handlers["elicitation/create"] = elicit
    if sample is not None:
        handlers["sampling/createMessage"] = sample
    if roots is not None:
        handlers["roots/list"] = roots if callable(roots) else functools.partial(constant, roots)
    async with _served(target, name, server_options) as (to_server, from_server, framing):
        client = Client(
            to_server,
            revision=revision,
            era=era,
            handlers=handlers,
            capabilities=capabilities,
            log_level=log_level,
            timeout=timeout,
            framing=framing,
        )
        try:
            async with _background() as group:
                group.start_soon(client._read, from_server, group)
                try:
                    await client._open()
                    yield client
                finally:
                    to_server.close()  # end of input: the server finishes, then so does _read
        finally:
            if client._root_level is not None:
                logging.getLogger().setLevel(client._root_level)


@contextmanager
def connect_sync(
    target: object, *, backend: str = "asyncio", **options: Unpack[ConnectOptions]
) -> Iterator[SyncClient]:
    """:func:`connect` for sync tests: the server runs on an event loop in a thread of its
    own (``backend``: ``"asyncio"`` or ``"trio"``); ``options`` are :func:`connect`'s.
    The answering functions run on that loop."""
    with (
        anyio.from_thread.start_blocking_portal(backend) as portal,
        portal.wrap_async_context_manager(connect(target, **options)) as client,
    ):
        yield SyncClient(client, portal)


@asynccontextmanager
async def sdk_transport(
    target: object, *, name: str = "test", **server_options: Unpack[ServerOptions]
) -> AsyncIterator[tuple[MemoryObjectReceiveStream[Any], MemoryObjectSendStream[Any]]]:
    """A transport for the official ``mcp`` SDK: its ``Client`` connects in memory.

    ``async with mcp.Client(objmcp.testing.sdk_transport(Notes()), mode="legacy") as
    client: ...`` (any ``mode``). It yields the SDK's stream pair (``SessionMessage``
    in, ``SessionMessage`` or an exception out), so ``mcp.ClientSession(read, write)``
    takes it too. ``target`` and the options are :func:`connect`'s. Needs the ``mcp``
    package, which objmcp itself never imports.
    """
    try:
        import mcp_types
        from mcp.shared.message import SessionMessage
    except ImportError as error:
        raise ImportError("sdk_transport needs the official SDK: pip install mcp") from error

    to_sdk, read = anyio.create_memory_object_stream[Any](math.inf)
    write, from_sdk = anyio.create_memory_object_stream[Any](math.inf)

    async with _served(target, name, server_options) as (to_server, from_server, framing):

        async def pump_in() -> None:
            async with from_sdk:
                async for message in from_sdk:
                    body = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    to_server.send_nowait(encode_frame(body.encode(), framing))
            to_server.close()

        async def pump_out() -> None:
            decoder = FrameDecoder()
            async with to_sdk:
                async for data in from_server:
                    decoder.feed(data)
                    while (frame := decoder.next_frame()) is not NEED_DATA:
                        item: Any = frame  # a FrameError: the SDK reports it
                        if isinstance(frame, bytes):
                            try:
                                item = SessionMessage(
                                    mcp_types.jsonrpc_message_adapter.validate_json(
                                        frame, by_name=False
                                    )
                                )
                            except ValueError as error:
                                item = error
                        with contextlib.suppress(anyio.BrokenResourceError):  # the SDK left
                            to_sdk.send_nowait(item)

        async with _background() as group:
            group.start_soon(pump_in)
            group.start_soon(pump_out)
            try:
                yield read, write
            finally:
                write.close()  # pump_in ends, the server's input with it
                read.close()


# --- helpers ------------------------------------------------------------------------------


class _PipeReader(anyio.abc.ByteReceiveStream):
    """The server's end of an in-memory byte pipe."""

    def __init__(self, inner: MemoryObjectReceiveStream[bytes]) -> None:
        self._inner = inner
        self._rest = b""

    async def receive(self, max_bytes: int = 65536) -> bytes:
        data = self._rest or await self._inner.receive()
        self._rest = data[max_bytes:]
        return data[:max_bytes]

    async def aclose(self) -> None:
        self._inner.close()


class _PipeWriter(anyio.abc.ByteSendStream):
    """The server's end of an in-memory byte pipe."""

    def __init__(self, inner: MemoryObjectSendStream[bytes]) -> None:
        self._inner = inner

    async def send(self, item: bytes) -> None:
        await self._inner.send(item)

    async def aclose(self) -> None:
        self._inner.close()


@asynccontextmanager
async def _served(
    target: object, name: str, options: ServerOptions
) -> AsyncIterator[
    tuple[
        MemoryObjectSendStream[bytes],
        MemoryObjectReceiveStream[bytes],
        Literal["newline", "content-length"],
    ]
]:
    """Serve ``target`` on two in-memory byte pipes, in a task, until its input ends."""
    to_server, server_input = anyio.create_memory_object_stream[bytes](math.inf)
    server_output, from_server = anyio.create_memory_object_stream[bytes](math.inf)
    source, sink = _PipeReader(server_input), _PipeWriter(server_output)
    if isinstance(target, Server):
        if options:
            raise TypeError(
                f"server options ({', '.join(sorted(options))}) go to Server(...), "
                "not to connect() with a Server made already"
            )
        server = target

        async def run() -> None:
            await loop_connection(server.settings(), byte_source(source), byte_sink(sink)).run()

    else:
        server = Server(name, target, input=source, output=sink, **options)
        run = server.serve

    async def serve() -> None:
        with server_output:
            await run()

    framing: Literal["newline", "content-length"] = (
        "content-length" if server.framing == "content-length" else "newline"
    )
    async with _background() as group:
        group.start_soon(serve)
        try:
            yield to_server, from_server, framing
        finally:
            to_server.close()


@asynccontextmanager
async def _background() -> AsyncIterator[anyio.abc.TaskGroup]:
    """A task group whose body's own exception comes out as it is, not in an exception
    group: the tasks are then cancelled. (A failing task still raises a group.)"""
    failure: BaseException | None = None
    async with anyio.create_task_group() as group:
        try:
            yield group
        except BaseException as error:
            failure = error
            group.cancel_scope.cancel()
    if failure is not None:
        raise failure


def _pick_revision(era: str | None, revision: str | None) -> tuple[str, Era]:
    if era not in (None, "handshake", "modern"):
        raise ValueError(f"era must be 'handshake' or 'modern', not {era!r}")
    if revision is None:
        if era == "modern":
            return MODERN_VERSIONS[-1], "modern"
        return HANDSHAKE_VERSIONS[-1], "handshake"
    known = REVISIONS.get(revision)
    if known is None:  # sent as it is: the server refuses it, as a test may want to see
        return revision, "modern" if era == "modern" else "handshake"
    if era is not None and era != known.era:
        raise ValueError(f"revision {revision} is of the {known.era} era, not {era}")
    return revision, known.era
