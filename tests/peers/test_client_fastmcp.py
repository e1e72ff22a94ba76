"""Interoperability: FastMCP's client (``fastmcp`` 4.1.0 with ``fastmcp-tasks`` 4.1.0, its
companion package) drives objmcp's tasks, the 2026-07-28 extension
``io.modelcontextprotocol/tasks``, over stdio and Streamable HTTP.

Importing ``fastmcp_tasks`` folds its client extension into every FastMCP ``Client`` (of
this test process: no other test makes one): the client declares the extension, a call
answered as a task (``resultType: "task"``) is followed by ``tasks/get`` to its result under
``call_tool`` (the caller never knows), a task's question is answered by the client's
``elicitation_handler`` through ``tasks/update``; ``call_tool_task`` returns the task's
handle instead (``status``, ``cancel``, ``result``).
Its client answers only elicitation inside a task (no sampling or roots), and on a
2025-11-25 connection it sends no task at all.

Over Streamable HTTP, ``fastmcp-tasks`` (4.1.0 to 4.1.4) leaves out the ``Mcp-Name`` header
that SEP-2663 says a client MUST set to the ``taskId`` of ``tasks/get``, ``tasks/update`` and
``tasks/cancel`` (its request classes do not set the SDK's ``name_param``), and objmcp refuses
such a request (-32020, HTTP 400) as the transport's server validation says:
``test_as_shipped_its_task_requests_lack_mcp_name_over_http`` pins that. The other HTTP tests
set ``name_param = "taskId"`` on those classes (the fix the package needs), so that the rest
of the flow is checked over HTTP too.

What the extension sent and heard is recorded by wrapping its senders of ``tasks/get``,
``tasks/update`` and ``tasks/cancel`` (the requests still go to the server). The servers are
``tests/servers/jobs.py`` and ``tests/servers/errands.py`` with ``--task-after 0.2``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import fastmcp_tasks
import fastmcp_tasks.client as tasks_client
import fastmcp_tasks.client_models as tasks_models
import pytest
from conftest import PYTHON, ROOT, server_env
from fastmcp import Client
from fastmcp.client.transports import StdioTransport, StreamableHttpTransport
from fastmcp.exceptions import ToolError
from http_helpers import HttpServer
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio

TASK_AFTER = ("--task-after", "0.2")
JOBS = f"{ROOT / 'tests' / 'servers' / 'jobs.py'}:Jobs"
ERRANDS = f"{ROOT / 'tests' / 'servers' / 'errands.py'}:Errands"
TRANSPORTS = ["stdio", "http"]
TIMEOUT = 120  # seconds, per call: generous, a slow and busy machine; never a measure


@dataclass
class Wire:
    """What the tasks extension sent: (method, task id, the task's status after it)."""

    sent: list[tuple[str, str, str | None]] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)

    def methods(self) -> list[str]:
        return [method for method, _, _ in self.sent]

    def task_ids(self) -> set[str]:
        return {task_id for _, task_id, _ in self.sent}

    def statuses(self) -> list[str | None]:
        return [status for method, _, status in self.sent if method == "tasks/get"]


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Wire:
    """Record each tasks/get, tasks/update and tasks/cancel the extension sends."""
    recorded = Wire()
    send_get = tasks_client._send_get
    send_update = tasks_client._send_update
    send_cancel = tasks_client._send_cancel

    async def get(session: Any, task_id: str, read_timeout_seconds: Any = None) -> Any:
        task = await send_get(session, task_id, read_timeout_seconds)
        recorded.sent.append(("tasks/get", task_id, task.status))
        return task

    async def update(session: Any, task_id: str, *args: Any, **kwargs: Any) -> None:
        await send_update(session, task_id, *args, **kwargs)
        recorded.sent.append(("tasks/update", task_id, None))

    async def cancel(session: Any, task_id: str, *args: Any, **kwargs: Any) -> None:
        await send_cancel(session, task_id, *args, **kwargs)
        recorded.sent.append(("tasks/cancel", task_id, None))

    monkeypatch.setattr(tasks_client, "_send_get", get)
    monkeypatch.setattr(tasks_client, "_send_update", update)
    monkeypatch.setattr(tasks_client, "_send_cancel", cancel)
    return recorded


@pytest.fixture(scope="module")
def http_servers() -> Iterator[dict[str, HttpServer]]:
    """Each target over HTTP, shared by the module's tests."""
    servers: dict[str, HttpServer] = {}
    try:
        for target in (JOBS, ERRANDS):
            servers[target] = HttpServer(*TASK_AFTER, target=target)
        yield servers
    finally:
        for server in servers.values():
            server.stop()


TASK_REQUESTS = (
    tasks_models.GetTaskRequest,
    tasks_models.UpdateTaskRequest,
    tasks_models.CancelTaskRequest,
)


def name_the_task(monkeypatch: pytest.MonkeyPatch) -> None:
    """Have the extension's task requests carry ``Mcp-Name`` (the taskId), as SEP-2663 says."""
    for request in TASK_REQUESTS:
        monkeypatch.setattr(request, "name_param", "taskId")


@pytest.fixture(params=TRANSPORTS)
def transport(
    request: pytest.FixtureRequest,
    http_servers: dict[str, HttpServer],
    monkeypatch: pytest.MonkeyPatch,
) -> Any:
    """How a client reaches a target: ``transport(target)``."""
    if request.param == "http":
        name_the_task(monkeypatch)

    def make(target: str) -> StdioTransport | StreamableHttpTransport:
        if request.param == "http":
            return StreamableHttpTransport(http_servers[target].url)
        arguments = ["-m", "objmcp", "run", *TASK_AFTER, target]
        return StdioTransport(PYTHON, arguments, env=server_env())

    return make


@asynccontextmanager
async def connected(
    transport: Any, target: str, wire: Wire, mode: str = "auto"
) -> AsyncIterator[Client[Any]]:
    """A FastMCP client of ``target``, whose elicitation handler answers "Ada" and records
    each question in ``wire.asked``."""

    async def answer(message: str, response_type: Any, params: Any, context: Any) -> Any:
        wire.asked.append(message)
        return {"value": "Ada"}

    client = Client(transport(target), mode=mode, elicitation_handler=answer, timeout=TIMEOUT)
    async with client:
        yield client


def text_of(result: Any) -> str:
    """The one text block of a call's result."""
    (block,) = result.content
    text: str = block.text
    return text


def test_the_companion_package_is_the_one_of_fastmcp() -> None:
    import fastmcp

    assert (fastmcp.__version__, fastmcp_tasks.__version__) == ("4.1.0", "4.1.0")


async def test_a_slow_call_becomes_a_task_followed_to_its_result(
    transport: Any, wire: Wire
) -> None:
    async with connected(transport, JOBS, wire) as client:
        quick = await client.call_tool("quick", {})
        assert wire.sent == []  # answered at once: no task
        slow = await client.call_tool("slow", {"seconds": 0.8})
    assert (text_of(quick), text_of(slow), slow.is_error) == ("quick", "slept 0.8", False)
    assert set(wire.methods()) == {"tasks/get"}
    assert len(wire.task_ids()) == 1
    assert wire.statuses()[-1] == "completed"
    assert set(wire.statuses()[:-1]) <= {"working"}


async def test_a_question_inside_a_task_is_answered_through_tasks_update(
    transport: Any, wire: Wire
) -> None:
    async with connected(transport, JOBS, wire) as client:
        result = await client.call_tool("ask_name", {})
    assert text_of(result) == "Hello, Ada!"
    assert wire.asked == ["Your name?"]
    assert wire.methods().count("tasks/update") == 1
    assert "input_required" in wire.statuses()
    assert wire.statuses()[-1] == "completed"


async def test_a_question_before_the_task_is_answered_by_the_retry(
    transport: Any, wire: Wire
) -> None:
    async with connected(transport, ERRANDS, wire) as client:
        result = await client.call_tool("report", {})
    assert text_of(result) == "Report for Ada"
    assert wire.asked == ["Whose report?"]
    # asked before it was a task (input_required, then the retry), then followed as one
    assert "tasks/update" not in wire.methods()
    assert wire.statuses()[-1] == "completed"


async def test_a_task_handle_is_cancelled(transport: Any, wire: Wire) -> None:
    async with connected(transport, JOBS, wire) as client:
        task = await fastmcp_tasks.call_tool_task(client, "blocking", {"seconds": 60})
        assert task.create_result.status == "working"
        await task.cancel()
        after = await task.status()
        with pytest.raises(ToolError, match="was cancelled"):
            await task.result()
    assert (after.task_id, after.status) == (task.task_id, "cancelled")
    assert wire.methods()[:2] == ["tasks/cancel", "tasks/get"]


async def test_a_task_handle_is_followed_to_its_result(transport: Any, wire: Wire) -> None:
    async with connected(transport, JOBS, wire) as client:
        task = await fastmcp_tasks.call_tool_task(client, "always", {})
        result = await task
        with pytest.raises(ToolError, match="did not run as a task"):
            await fastmcp_tasks.call_tool_task(client, "quick", {})
    assert text_of(result) == "always a task"
    assert wire.task_ids() == {task.task_id}


async def test_a_failure_inside_a_task_is_a_tool_error(transport: Any, wire: Wire) -> None:
    async with connected(transport, ERRANDS, wire) as client:
        with pytest.raises(ToolError, match=r"^ValueError: the printer is on fire$"):
            await client.call_tool("crash", {})
    assert wire.statuses()[-1] == "completed"  # with an error result, as a plain call's


async def test_a_question_the_client_cannot_answer_fails_the_task(
    transport: Any, wire: Wire
) -> None:
    # survey asks a name and a sample together; without a sampling handler the client
    # declares no sampling, so the task fails with the -32021 error, and its question is
    # never put to the client
    async with connected(transport, ERRANDS, wire) as client:
        with pytest.raises(ToolError, match="does not support sampling"):
            await client.call_tool("survey", {})
    assert wire.statuses()[-1] == "failed"
    assert wire.asked == []


async def test_a_legacy_connection_makes_no_task(transport: Any, wire: Wire) -> None:
    async with connected(transport, JOBS, wire, mode="legacy") as client:
        slow = await client.call_tool("slow", {"seconds": 0.6})
        asked = await client.call_tool("ask_name", {})
    assert (text_of(slow), text_of(asked)) == ("slept 0.6", "Hello, Ada!")
    assert wire.sent == []
    assert wire.asked == ["Your name?"]


async def test_as_shipped_its_task_requests_lack_mcp_name_over_http(
    http_servers: dict[str, HttpServer], wire: Wire
) -> None:
    assert all(request.name_param is None for request in TASK_REQUESTS)
    transport = StreamableHttpTransport(http_servers[JOBS].url)
    async with Client(transport, timeout=TIMEOUT) as client:
        with pytest.raises(MCPError) as refused:
            await client.call_tool("slow", {"seconds": 0.8})
    assert refused.value.error.code == -32020
    assert "Mcp-Name header None is not the taskId" in refused.value.error.message
    assert wire.sent == []  # the first tasks/get was refused
