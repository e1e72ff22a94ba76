"""The client side of :mod:`objmcp.testing`: one MCP client over in-memory byte frames.

:class:`Client` sends its requests and notifications over its wire (``_read``, a
task :func:`objmcp.testing.connect` starts, reads the server's output): answers wake
the request waiting for them, notifications are recorded (progress reports go to
the call they belong to, log records to ``logs``), and the server's questions are
answered by the test's functions (``_answer``). It speaks either
era: the handshake (``initialize`` first) or the modern one, where every request
carries its revision and capabilities in ``_meta`` and :meth:`Client.call` drives
the ``input_required`` rounds, and follows a call that became a task (the tasks
extension, which the modern client declares) to its end; in 2025-11-25 it declares the
core tasks and follows a call as a task where the tool requires it. ``call_task`` and
the ``*_task`` methods drive a task step by step, in either era.

The bytes and the JSON-RPC exchange are ``objmcp._testwire``'s part; what each
request carries, ``objmcp._testparams``'s; the blocking form (``SyncClient``),
``objmcp._testsync``'s. What it hands the test (:class:`~objmcp.testing.CallResult`,
...) and how it reads the test's answers are ``objmcp._testanswers``'s part; how the
server is served, and where the bytes come from, :mod:`objmcp.testing`'s. The public
names here are re-exported there, and that is where to import them.
"""

from __future__ import annotations

import inspect
import itertools
import logging
from collections.abc import Mapping
from typing import Any, Literal

import anyio
import anyio.abc
import anyio.lowlevel
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from ._testanswers import (
    READERS,
    CallResult,
    Handler,
    ProgressReport,
    ResponseError,
    Task,
    capabilities_for,
)
from ._testparams import (
    CLIENT_INFO,
    call_params,
    modern_meta,
    raw_answer,
    task_params,
    tasks_meta,
)
from ._testwire import INTERNAL_ERROR, Wire
from .model.calling.inject import LOG_LEVELS
from .protocol.revisions import Era
from .protocol.session import SERVER_INFO_KEY

__all__ = ["Client"]

_MAX_ROUNDS = 64  # modern era: input_required rounds one call drives before it gives up
_METHOD_NOT_FOUND = -32601
_POLL_INTERVAL = 0.05  # seconds between polls of a task whose server suggests none


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
        self._wire = Wire(
            output,
            framing=framing,
            timeout=timeout,
            asked=self.asked,
            notified=self._notified,
            answer=self._answer,
        )
        self._handlers = dict(handlers)
        self._tokens = itertools.count(1)
        self._progress: dict[str, list[ProgressReport]] = {}
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
        params = call_params(tool, token, arguments, keywords)
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
        params = call_params(tool, token, arguments, keywords)
        if self._check_tasks("call_task") == "core":
            params["task"] = {}
            result = await self._request("tools/call", params)
            if not isinstance(result.get("task"), Mapping):
                raise AssertionError(f"{tool} was answered plainly, not as a task: {result}")
            return Task(result["task"])
        params["_meta"].update(tasks_meta(self.capabilities))
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
        params["inputResponses"] = {key: raw_answer(answer) for key, answer in answers.items()}
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
        params: dict[str, Any] = {"taskId": task_id}
        if self.era == "modern":
            params["_meta"] = {**self._modern_meta(), **tasks_meta(self.capabilities)}
        self._wire.send_unawaited("tasks/cancel", params)

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

    def _task_params(self, task_id: str) -> dict[str, Any]:
        return task_params(self.era, self.capabilities, task_id)

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
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._wire.next_id(), "method": method}
        given = dict(params or {})
        if self.era == "modern":
            given["_meta"] = {**self._modern_meta(), **(given.get("_meta") or {})}
        if given or params is not None:
            message["params"] = given
        response = await self._wire.exchange(message)
        error = response.get("error")
        if isinstance(error, dict):
            raise ResponseError(error.get("code", 0), str(error.get("message")), error.get("data"))
        result = response.get("result")
        if not isinstance(result, dict):
            raise ResponseError(INTERNAL_ERROR, f"the server answered {method} with {response}")
        meta = result.get("_meta")
        if isinstance(meta, dict) and isinstance(meta.get(SERVER_INFO_KEY), dict):
            self.server_info = meta[SERVER_INFO_KEY]
        return result

    async def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """Send a notification (``notifications/cancelled``, ...)."""
        self._wire.check()
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = dict(params)
        self._wire.send(message)
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
                    "clientInfo": CLIENT_INFO,
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
        return modern_meta(self.protocol_version, self.capabilities, self.log_level)

    async def _read(
        self, source: MemoryObjectReceiveStream[bytes], group: anyio.abc.TaskGroup
    ) -> None:
        await self._wire.read(source, group)

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
