"""The client side of :mod:`objmcp.testing`: one MCP client over in-memory byte frames.

:class:`Client` frames its requests and notifications onto the server's input and
reads the server's output (``_read``, a task :func:`objmcp.testing.connect` starts):
answers wake the request waiting for them, notifications are recorded (progress
reports go to the call they belong to, log records to ``logs``), and the server's
questions are answered by the test's functions (``_answer``). It speaks either
era: the handshake (``initialize`` first) or the modern one, where every request
carries its revision and capabilities in ``_meta`` and :meth:`Client.call` drives
the ``input_required`` rounds, and follows a call that became a task (the tasks
extension, which the modern client declares) to its end; in 2025-11-25 it declares the
core tasks and follows a call as a task where the tool requires it. ``call_task`` and
the ``*_task`` methods drive a task step by step, in either era. :class:`SyncClient`
is its blocking form.

What it hands the test (:class:`~objmcp.testing.CallResult`, ...) and how it reads
the test's answers are ``objmcp._testanswers``'s part; how the server is served, and
where the bytes come from, :mod:`objmcp.testing`'s. The public names here are
re-exported there, and that is where to import them.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import itertools
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio
import anyio.abc
import anyio.from_thread
import anyio.lowlevel
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from . import __version__
from ._exceptions import FrameError
from ._testanswers import (
    READERS,
    CallResult,
    Handler,
    ProgressReport,
    ResponseError,
    Task,
    capabilities_for,
)
from .model.calling.inject import LOG_LEVELS, ElicitResult, SampleResult
from .protocol.revisions import Era
from .protocol.session import (
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    LOG_LEVEL_KEY,
    PROTOCOL_VERSION_KEY,
    SERVER_INFO_KEY,
)
from .protocol.tasks.extension import TASKS
from .transport.framing import NEED_DATA, FrameDecoder, encode_frame

__all__ = ["Client", "SyncClient"]

_MAX_ROUNDS = 64  # modern era: input_required rounds one call drives before it gives up
_CLIENT_INFO = {"name": "objmcp.testing", "version": __version__}
_METHOD_NOT_FOUND, _INTERNAL_ERROR = -32601, -32603
_POLL_INTERVAL = 0.05  # seconds between polls of a task whose server suggests none


@dataclass(eq=False)
class _Pending:
    done: anyio.Event = field(default_factory=anyio.Event)
    response: dict[str, Any] | None = None


class Client:
    """An MCP client connected in memory to one server; made by :func:`connect`.

    ``notifications`` holds every notification the server sent, as sent;
    ``logs`` the params of its ``notifications/message`` (``level``, ``logger``,
    ``data``); ``asked`` the requests it made of the client (``method`` and
    ``params``: questions, completions, roots), in both eras.
    """

    def __init__(
        self,
        output: MemoryObjectSendStream[bytes],
        *,
        revision: str,
        era: Era,
        handlers: Mapping[str, Handler],
        capabilities: Mapping[str, Any] | None = None,
        log_level: str | None = None,
        timeout: float | None = None,
        framing: Literal["newline", "content-length"] = "newline",
    ) -> None:
        self.protocol_version = revision
        """The revision in force: negotiated by ``initialize``, or the one pinned."""
        self.era: Era = era
        self.capabilities = dict(
            capabilities_for(handlers, era, revision) if capabilities is None else capabilities
        )
        """What the client declares (by default: what the functions given can answer)."""
        self.server_info: dict[str, Any] | None = None
        self.server_capabilities: dict[str, Any] = {}
        """What the server declared (``initialize``, or ``server/discover``)."""
        self.instructions: str | None = None
        self.log_level = log_level
        self.notifications: list[dict[str, Any]] = []
        self.logs: list[dict[str, Any]] = []
        self.asked: list[dict[str, Any]] = []
        self._output = output
        self._framing: Literal["newline", "content-length"] = framing
        self._handlers = dict(handlers)
        self._timeout = timeout
        self._ids = itertools.count(1)
        self._last_id = 0
        self._tokens = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._progress: dict[str, list[ProgressReport]] = {}
        self._failure: BaseException | None = None
        self._closed = False
        self._root_level: int | None = None  # to restore when the connection ends
        self._task_support: dict[str, str] | None = None  # 2025-11-25: tool -> taskSupport

    def __repr__(self) -> str:
        return f"<objmcp.testing.Client {self.era} {self.protocol_version}>"

    # --- requests -------------------------------------------------------------------------

    async def call(
        self, tool: str, /, arguments: Mapping[str, Any] | None = None, **keywords: Any
    ) -> CallResult:
        """Call ``tool`` with the arguments given as one dict, as keywords, or both (a
        parameter named ``arguments``, or one that is no identifier, goes in the dict).

        A progress token goes with every call, so its progress reports land in
        the result. In the modern era the ``input_required`` rounds are driven
        here: each question is answered by the function given to :func:`connect`
        and the call retried with the answers and the request state. A call the
        server answers as a task (2026-07-28, to a client that declares the tasks
        extension, as this one does unless ``capabilities`` says otherwise) is
        followed to its end (:meth:`follow_task`): its result comes back as a plain
        call's, with ``task_id`` set. In 2025-11-25 the client decides: a call is
        plain unless ``tools/list`` says the tool's ``execution.taskSupport`` is
        ``required`` (and the client declared ``tasks``, as it does by default), and
        then it is made a task and followed, as the SDKs' clients do. A JSON-RPC
        error (an unknown tool, or a task that failed) raises
        :class:`ResponseError`; a task cancelled meanwhile, ``RuntimeError``.
        """
        token = f"objmcp-testing-{next(self._tokens)}"
        reports = self._progress[token] = []
        params = _call_params(tool, token, arguments, keywords)
        try:
            if await self._task_required(tool):
                params["task"] = {}
                result, rounds = await self._request("tools/call", params), 0
                if not isinstance(result.get("task"), Mapping):
                    return CallResult(result, reports, rounds)
                task = Task(result["task"])
            else:
                result, rounds = await self._rounds("tools/call", params)
                if result.get("resultType") != "task":
                    return CallResult(result, reports, rounds)
                task = Task(result)
            try:
                task = await self.follow_task(task)
            except BaseException:  # given up (a timeout, a failing function): so is the task
                self._give_up(task.task_id)
                raise
        finally:
            del self._progress[token]
        if task.error is not None:
            raise task.error
        if task.result is None:
            raise RuntimeError(f"the task {task.task_id} of {tool} was {task.status}")
        return CallResult(task.result.raw, reports, rounds, task.task_id)

    async def _task_required(self, tool: str) -> bool:
        """2025-11-25: whether ``tool`` must run as a task, as ``tools/list`` says (listed
        once, when both sides declared the core tasks, and again after
        ``notifications/tools/list_changed``)."""
        if self.era != "handshake" or "tasks" not in self.capabilities:
            return False
        declared = self.server_capabilities.get("tasks")
        requests = declared.get("requests") if isinstance(declared, dict) else None
        tools = requests.get("tools") if isinstance(requests, dict) else None
        if not (isinstance(tools, dict) and "call" in tools):
            return False
        if self._task_support is None:
            await self.list_tools()
        return (self._task_support or {}).get(tool) == "required"

    # --- tasks (2026-07-28's extension io.modelcontextprotocol/tasks; 2025-11-25's core) ---

    async def call_task(
        self, tool: str, /, arguments: Mapping[str, Any] | None = None, **keywords: Any
    ) -> Task:
        """Call ``tool`` as :meth:`call` does, declaring the tasks extension, and return
        the task the server made of the call, as it answered (not followed: see
        :meth:`follow_task`, :meth:`get_task`, :meth:`update_task`, :meth:`cancel_task`).

        Questions asked before the call became a task are answered as :meth:`call`
        answers them. A call the server answered plainly (it ended before
        ``task_after``) raises ``AssertionError``, with the result. In 2025-11-25 the
        call carries ``params.task`` and the server answers with the task at once
        (``CreateTaskResult``); at a revision without tasks (before 2025-11-25), or
        from a server that declared none, it raises ``RuntimeError``.
        """
        token = f"objmcp-testing-{next(self._tokens)}"
        params = _call_params(tool, token, arguments, keywords)
        if self._check_tasks("call_task") == "core":
            params["task"] = {}
            result = await self._request("tools/call", params)
            if not isinstance(result.get("task"), Mapping):
                raise AssertionError(f"{tool} was answered plainly, not as a task: {result}")
            return Task(result["task"])
        params["_meta"].update(self._tasks_meta())
        result, _ = await self._rounds("tools/call", params)
        if result.get("resultType") != "task":
            raise AssertionError(f"{tool} was answered plainly, not as a task: {result}")
        return Task(result)

    async def get_task(self, task_id: str) -> Task:
        """The task ``task_id`` as ``tasks/get`` gives it (an unknown or expired task, or
        another caller's, raises :class:`ResponseError` -32602)."""
        self._check_tasks("get_task")
        return Task(await self.request("tasks/get", self._task_params(task_id)))

    async def update_task(self, task_id: str, answers: Mapping[str, Any]) -> None:
        """Answer the task's questions (``tasks/update``): ``answers`` by the keys of its
        ``input_requests``, each the raw answer or an :class:`~objmcp.ElicitResult`
        or :class:`~objmcp.SampleResult` (answers to other keys are ignored).

        2026-07-28 only: 2025-11-25 has no ``tasks/update`` (a task's questions come
        as requests, answered by the functions given to :func:`connect`), and there
        it raises ``RuntimeError``."""
        if self._check_tasks("update_task") == "core":
            raise RuntimeError(
                "update_task: 2025-11-25 has no tasks/update; a task's questions come as "
                "requests, answered by the functions given to connect()"
            )
        params = self._task_params(task_id)
        params["inputResponses"] = {key: _raw_answer(answer) for key, answer in answers.items()}
        await self.request("tasks/update", params)

    async def cancel_task(self, task_id: str) -> None:
        """Give the task up (``tasks/cancel``): its call is cancelled, it keeps no result
        (in 2025-11-25, a task ended already is -32602)."""
        self._check_tasks("cancel_task")
        await self.request("tasks/cancel", self._task_params(task_id))

    async def follow_task(self, task: Task | str) -> Task:
        """Poll the task (or the task of that id) with ``tasks/get``, every
        ``pollIntervalMs``, until it ends; its questions are answered once each by the
        functions given to :func:`connect` (recorded in ``asked``) through
        ``tasks/update``. Returns the task as it ended: its ``result``, its ``error``,
        or ``cancelled``. It starts from the task's state now (a :class:`Task` given
        may be stale: its questions answered by :meth:`update_task` since).

        In 2025-11-25 it sends ``tasks/result``, which the server answers at the
        task's end (the task's questions come meanwhile as requests, answered by the
        functions given to :func:`connect`), then ``tasks/get``: the task as it
        ended, with the ``result`` or the ``error`` that ``tasks/result`` gave (the
        ``timeout`` given to :func:`connect` bounds that wait, as any request's)."""
        task_id = task.task_id if isinstance(task, Task) else task
        if self._check_tasks("follow_task") == "core":
            return await self._follow_core_task(task_id)
        task = await self.get_task(task_id)
        answered: set[str] = set()
        while not task.ended:
            fresh = {k: q for k, q in task.input_requests.items() if k not in answered}
            if task.status == "input_required" and fresh:
                responses: dict[str, Any] = {}
                for key, asked in fresh.items():
                    self.asked.append(asked)
                    responses[key] = await self._answer(asked["method"], asked.get("params") or {})
                answered.update(responses)
                await self.update_task(task.task_id, responses)
            else:
                await anyio.sleep(task.poll_interval or _POLL_INTERVAL)
            task = await self.get_task(task.task_id)
        return task

    async def _follow_core_task(self, task_id: str) -> Task:
        ended: dict[str, Any] = {}
        try:
            ended["result"] = await self.request("tasks/result", {"taskId": task_id})
        except ResponseError as error:  # the call's error, or a task cancelled, or unknown
            ended["error"] = error.error()
        task = await self.get_task(task_id)
        if task.status == "cancelled":
            return task
        return Task({**task.raw, **ended})

    def _give_up(self, task_id: str) -> None:
        """Send ``tasks/cancel`` without waiting for its answer (which is then ignored), as
        a request given up sends ``notifications/cancelled``."""
        if self._closed or self._failure is not None:
            return
        request_id = self._last_id = next(self._ids)
        params: dict[str, Any] = {"taskId": task_id}
        if self.era == "modern":
            params["_meta"] = {**self._modern_meta(), **self._tasks_meta()}
        message = {"jsonrpc": "2.0", "id": request_id, "method": "tasks/cancel", "params": params}
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._send(message)

    def _check_tasks(self, name: str) -> Literal["extension", "core"]:
        """Which tasks this connection has: 2026-07-28's extension (the modern era) or
        2025-11-25's core tasks (``RuntimeError`` when the server declared none)."""
        if self.era == "modern":
            return "extension"
        if not isinstance(self.server_capabilities.get("tasks"), dict):
            raise RuntimeError(
                f"{name}: the server declared no tasks at {self.protocol_version}; tasks are "
                "2025-11-25's (the handshake era's default) or 2026-07-28's (era='modern')"
            )
        return "core"

    def _tasks_meta(self) -> dict[str, Any]:
        """The ``_meta`` that declares the tasks extension, whatever else is declared."""
        extensions = {**(self.capabilities.get("extensions") or {}), TASKS: {}}
        return {CLIENT_CAPABILITIES_KEY: {**self.capabilities, "extensions": extensions}}

    def _task_params(self, task_id: str) -> dict[str, Any]:
        if self.era == "handshake":
            return {"taskId": task_id}
        return {"taskId": task_id, "_meta": self._tasks_meta()}

    async def list_tools(self) -> list[dict[str, Any]]:
        """The server's tools, as ``tools/list`` gives them (every page)."""
        tools: list[dict[str, Any]] = []
        params: dict[str, Any] = {}
        while True:
            result = await self.request("tools/list", params)
            tools.extend(result.get("tools") or [])
            cursor = result.get("nextCursor")
            if not cursor:
                self._task_support = {
                    str(tool.get("name")): str((tool.get("execution") or {}).get("taskSupport"))
                    for tool in tools
                    if isinstance(tool, dict) and isinstance(tool.get("execution"), dict)
                }
                return tools
            params = {"cursor": cursor}

    async def set_log_level(self, level: str) -> None:
        """Ask for the server's log records at ``level`` and above: ``logging/setLevel`` in
        the handshake era, the ``_meta`` of every later request in the modern one.

        The served object runs in this process, where the test runner may have set
        up ``logging``: until the end of :func:`connect`, the root logger lets
        records of ``level`` through (objmcp lowers it only where nothing is set up).
        """
        if self.era == "handshake":
            await self.request("logging/setLevel", {"level": level})
        self.log_level = level
        root, number = logging.getLogger(), LOG_LEVELS.get(level, logging.DEBUG)
        if root.level > number:
            if self._root_level is None:
                self._root_level = root.level
            root.setLevel(number)

    async def request(self, method: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Send any request and return its result; an error answer raises
        :class:`ResponseError`. In the modern era the ``_meta`` the era needs is
        added (keys already in ``params["_meta"]`` are kept), and ``input_required``
        rounds are driven as :meth:`call` drives them (a resource read or a prompt
        may ask too)."""
        result, _ = await self._rounds(method, params)
        return result

    async def _rounds(
        self, method: str, params: Mapping[str, Any] | None
    ) -> tuple[dict[str, Any], int]:
        """The result of a request, its questions answered; and how many rounds it took."""
        rounds = 0
        result = await self._request(method, params)
        while result.get("resultType") == "input_required":
            rounds += 1
            if rounds > _MAX_ROUNDS:
                raise RuntimeError(f"{method} asked for input more than {_MAX_ROUNDS} times")
            responses: dict[str, Any] = {}
            for key, asked in (result.get("inputRequests") or {}).items():
                self.asked.append(asked)
                responses[key] = await self._answer(asked["method"], asked.get("params") or {})
            params = {
                **(params or {}),
                "inputResponses": responses,
                "requestState": result.get("requestState"),
            }
            result = await self._request(method, params)
        return result, rounds

    async def _request(self, method: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": next(self._ids), "method": method}
        given = dict(params or {})
        if self.era == "modern":
            given["_meta"] = {**self._modern_meta(), **(given.get("_meta") or {})}
        if given or params is not None:
            message["params"] = given
        response = await self._exchange(message)
        error = response.get("error")
        if isinstance(error, dict):
            raise ResponseError(error.get("code", 0), str(error.get("message")), error.get("data"))
        result = response.get("result")
        if not isinstance(result, dict):
            raise ResponseError(_INTERNAL_ERROR, f"the server answered {method} with {response}")
        meta = result.get("_meta")
        if isinstance(meta, dict) and isinstance(meta.get(SERVER_INFO_KEY), dict):
            self.server_info = meta[SERVER_INFO_KEY]
        return result

    async def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """Send a notification (``notifications/cancelled``, ...)."""
        self._check()
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = dict(params)
        self._send(message)
        await anyio.lowlevel.checkpoint()

    # --- the connection -------------------------------------------------------------------

    async def _open(self) -> None:
        if self.era == "modern":
            result = await self.request("server/discover")
        else:
            result = await self.request(
                "initialize",
                {
                    "protocolVersion": self.protocol_version,
                    "capabilities": self.capabilities,
                    "clientInfo": _CLIENT_INFO,
                },
            )
            self.protocol_version = result.get("protocolVersion", self.protocol_version)
            self.server_info = result.get("serverInfo")
            await self.notify("notifications/initialized")
        if self.log_level is not None:
            await self.set_log_level(self.log_level)
        self.instructions = result.get("instructions")
        declared = result.get("capabilities")
        self.server_capabilities = dict(declared) if isinstance(declared, dict) else {}

    def _modern_meta(self) -> dict[str, Any]:
        meta = {
            PROTOCOL_VERSION_KEY: self.protocol_version,
            CLIENT_CAPABILITIES_KEY: self.capabilities,
            CLIENT_INFO_KEY: _CLIENT_INFO,
        }
        if self.log_level is not None:
            meta[LOG_LEVEL_KEY] = self.log_level
        return meta

    async def _exchange(self, message: dict[str, Any]) -> dict[str, Any]:
        self._check()
        request_id = self._last_id = message["id"]
        pending = self._pending[request_id] = _Pending()
        try:
            self._send(message)
            with anyio.fail_after(self._timeout):
                await pending.done.wait()
        finally:
            del self._pending[request_id]
            if not pending.done.is_set() and not self._closed:  # timed out, or cancelled
                self._send(_notification("notifications/cancelled", {"requestId": request_id}))
        self._check()
        if pending.response is None:
            raise ConnectionError(f"the server ended before it answered {message['method']}")
        return pending.response

    def _check(self) -> None:
        if self._failure is not None:
            raise self._failure
        if self._closed:
            raise ConnectionError("the connection to the server is closed")

    def _send(self, message: object) -> None:
        body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()
        self._output.send_nowait(encode_frame(body, self._framing))

    async def _read(
        self, source: MemoryObjectReceiveStream[bytes], group: anyio.abc.TaskGroup
    ) -> None:
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
            self._closed = True
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
            self.asked.append({"method": method, "params": message.get("params") or {}})
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

    def _notified(self, method: str, message: dict[str, Any]) -> None:
        self.notifications.append(message)
        params = message.get("params") or {}
        if method == "notifications/progress":
            reports = self._progress.get(str(params.get("progressToken")))
            if reports is not None:
                reports.append(
                    ProgressReport(params["progress"], params.get("total"), params.get("message"))
                )
        elif method == "notifications/message":
            self.logs.append(params)
        elif method == "notifications/tools/list_changed":
            self._task_support = None  # listed again at the next call that needs it

    async def _answer_request(self, message: dict[str, Any]) -> None:
        """Handshake era: answer the server's request, with the test's function."""
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
        try:
            reply["result"] = await self._answer(message["method"], message.get("params") or {})
        except ResponseError as error:
            reply["error"] = error.error()
        except Exception as error:  # the test's own function failed: the test must see it
            said = f"the test's function failed: {type(error).__name__}: {error}"
            reply["error"] = {"code": _INTERNAL_ERROR, "message": said}
            self._failure = error
            for pending in self._pending.values():
                pending.done.set()
        with contextlib.suppress(anyio.ClosedResourceError):  # the test has left already
            self._send(reply)

    async def _answer(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        handler = self._handlers.get(method)
        if handler is None:
            if method == "ping":
                return {}
            raise ResponseError(
                _METHOD_NOT_FOUND, f"Method not found: {method} (connect() has no function for it)"
            )
        answer = handler(params)
        if inspect.isawaitable(answer):
            answer = await answer
        return READERS[method](answer)


class SyncClient:
    """The blocking form of :class:`Client`, made by :func:`connect_sync`; ``client`` is
    the async client it drives."""

    def __init__(self, client: Client, portal: anyio.from_thread.BlockingPortal) -> None:
        self.client = client
        self._portal = portal

    @property
    def notifications(self) -> list[dict[str, Any]]:
        """See :class:`Client`."""
        return self.client.notifications

    @property
    def logs(self) -> list[dict[str, Any]]:
        """See :class:`Client`."""
        return self.client.logs

    @property
    def asked(self) -> list[dict[str, Any]]:
        """See :class:`Client`."""
        return self.client.asked

    def __repr__(self) -> str:
        return f"<objmcp.testing.SyncClient {self.client.era} {self.client.protocol_version}>"

    def call(
        self, tool: str, /, arguments: Mapping[str, Any] | None = None, **keywords: Any
    ) -> CallResult:
        """See :meth:`Client.call`."""
        return self._portal.call(functools.partial(self.client.call, tool, arguments, **keywords))

    def list_tools(self) -> list[dict[str, Any]]:
        """See :meth:`Client.list_tools`."""
        return self._portal.call(self.client.list_tools)

    def set_log_level(self, level: str) -> None:
        """See :meth:`Client.set_log_level`."""
        self._portal.call(self.client.set_log_level, level)

    def request(self, method: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """See :meth:`Client.request`."""
        return self._portal.call(self.client.request, method, params)

    def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """See :meth:`Client.notify`."""
        self._portal.call(self.client.notify, method, params)

    def call_task(
        self, tool: str, /, arguments: Mapping[str, Any] | None = None, **keywords: Any
    ) -> Task:
        """See :meth:`Client.call_task`."""
        return self._portal.call(
            functools.partial(self.client.call_task, tool, arguments, **keywords)
        )

    def get_task(self, task_id: str) -> Task:
        """See :meth:`Client.get_task`."""
        return self._portal.call(self.client.get_task, task_id)

    def update_task(self, task_id: str, answers: Mapping[str, Any]) -> None:
        """See :meth:`Client.update_task`."""
        self._portal.call(self.client.update_task, task_id, answers)

    def cancel_task(self, task_id: str) -> None:
        """See :meth:`Client.cancel_task`."""
        self._portal.call(self.client.cancel_task, task_id)

    def follow_task(self, task: Task | str) -> Task:
        """See :meth:`Client.follow_task`."""
        return self._portal.call(self.client.follow_task, task)


def _call_params(
    tool: str, token: str, arguments: Mapping[str, Any] | None, keywords: Mapping[str, Any]
) -> dict[str, Any]:
    """``tools/call``'s params, with a progress token."""
    return {
        "name": tool,
        "arguments": {**(arguments or {}), **keywords},
        "_meta": {"progressToken": token},
    }


def _raw_answer(answer: object) -> object:
    """An answer to a task's question as sent: an ElicitResult or SampleResult read as
    the functions' answers are, anything else as it is."""
    if isinstance(answer, ElicitResult):
        return READERS["elicitation/create"](answer)
    if isinstance(answer, SampleResult):
        return READERS["sampling/createMessage"](answer)
    return answer


def _notification(method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": params}
