"""2025-11-25's experimental core tasks through real server processes and raw pipes, as
that revision's schema has them: the ``tasks`` capability and each tool's
``execution.taskSupport``; a ``tools/call`` with ``params.task`` answered with a
``CreateTaskResult`` while the call runs on; ``tasks/get``, ``tasks/result`` (which
waits for the end), ``tasks/list``, ``tasks/cancel`` and ``notifications/tasks/status``;
progress and a question inside a task; the errors; earlier revisions have none; over
HTTP, a task is its caller's alone."""

from __future__ import annotations

import importlib.util
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from conftest import RawServer
from http_helpers import HttpServer, initialize_message, open_session, post, read_event

import objmcp

JOBS = Path(__file__).resolve().parent.parent / "servers" / "jobs.py"
RELATED = "io.modelcontextprotocol/related-task"
ENDED = ("completed", "failed", "cancelled")
TASKS_CAPABILITY = {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}


class Client:
    """Raw requests to a jobs server over stdio, the other messages kept as they come."""

    def __init__(self, server: RawServer) -> None:
        self.server = server
        self.ids = iter(range(1, 10_000))
        self.seen: list[dict[str, Any]] = []
        """Every message read that was not the answer looked for, in order."""
        self.initialized: dict[str, Any] = {}
        """The ``initialize`` result."""

    def send(self, method: str, **params: Any) -> int:
        request_id = next(self.ids)
        self.server.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        return request_id

    def answer(self, request_id: int) -> dict[str, Any]:
        """The response to ``request_id`` (read already, or read now, the messages before it
        kept in :attr:`seen`)."""
        for message in self.seen:
            if message.get("id") == request_id and "method" not in message:
                self.seen.remove(message)
                return message
        while True:
            message: dict[str, Any] = self.server.read()
            if message.get("id") == request_id and "method" not in message:
                return message
            self.seen.append(message)

    def ask(self, method: str, **params: Any) -> dict[str, Any]:
        return self.answer(self.send(method, **params))

    def result(self, method: str, **params: Any) -> dict[str, Any]:
        response = self.ask(method, **params)
        assert "result" in response, response
        result: dict[str, Any] = response["result"]
        return result

    def task(self, tool: str, **arguments: Any) -> str:
        """Call ``tool`` as a task; its id."""
        created = self.result("tools/call", name=tool, arguments=arguments, task={"ttl": 60000})
        assert set(created) == {"task"}, created
        task_id: str = created["task"]["taskId"]
        return task_id

    def until(self, task_id: str, *statuses: str) -> dict[str, Any]:
        """Poll the task until it is in one of ``statuses`` (or ended)."""
        for _ in range(200):
            task = self.result("tasks/get", taskId=task_id)
            if task["status"] in statuses or task["status"] in ENDED:
                return task
            time.sleep(0.05)
        raise AssertionError(f"task {task_id} stayed {task['status']}")

    def statuses(self, task_id: str) -> list[str]:
        """The statuses ``notifications/tasks/status`` told of ``task_id`` so far."""
        return [
            message["params"]["status"]
            for message in self.seen
            if message.get("method") == "notifications/tasks/status"
            and message["params"]["taskId"] == task_id
        ]


def start(*options: str, capabilities: dict[str, Any] | None = None) -> Client:
    server = RawServer("-m", "objmcp", "run", *options, f"{JOBS}:Jobs")
    client = Client(server)
    client.initialized = server.initialize("2025-11-25", capabilities)
    return client


@pytest.fixture(scope="module")
def jobs() -> Iterator[Client]:
    """A jobs server spoken to in 2025-11-25, shared by the module's tests: each makes
    tasks of its own."""
    client = start(capabilities={"elicitation": {}, "tasks": {"list": {}, "cancel": {}}})
    yield client
    client.server.process.kill()
    client.server.process.wait()


def jobs_object() -> Any:
    """A ``Jobs`` of tests/servers/jobs.py, imported (tests/servers is not a package)."""
    spec = importlib.util.spec_from_file_location("jobs", JOBS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Jobs()


def text(result: dict[str, Any]) -> str:
    return "".join(block["text"] for block in result["content"])


def test_the_server_declares_tasks_and_each_tool_its_task_support(jobs: Client) -> None:
    assert jobs.initialized["capabilities"]["tasks"] == TASKS_CAPABILITY
    tools = {tool["name"]: tool for tool in jobs.result("tools/list")["tools"]}
    support = {name: tool["execution"]["taskSupport"] for name, tool in tools.items()}
    assert support["slow"] == "optional"
    assert support["never"] == "forbidden"
    assert support["always"] == "required"


def test_a_task_call_is_answered_at_once_and_tasks_result_waits_for_its_end(
    jobs: Client,
) -> None:
    created = jobs.result(
        "tools/call", name="slow", arguments={"seconds": 0.6}, task={"ttl": 60000}
    )
    task = created["task"]
    assert task["status"] == "working" and task["createdAt"].endswith("Z")
    assert task["ttl"] is None and isinstance(task["pollInterval"], int)
    assert jobs.result("tasks/get", taskId=task["taskId"])["status"] == "working"
    waited = jobs.send("tasks/result", taskId=task["taskId"])
    answer = jobs.answer(waited)
    # the end was told before the answer came: tasks/result waited for it
    assert jobs.statuses(task["taskId"]) == ["completed"]
    result = answer["result"]
    assert text(result) == "slept 0.6" and result["isError"] is False
    assert result["_meta"] == {RELATED: {"taskId": task["taskId"]}}
    ended = jobs.result("tasks/get", taskId=task["taskId"])
    assert ended["status"] == "completed" and isinstance(ended["ttl"], int)
    assert RELATED not in ended.get("_meta", {})
    again = jobs.result("tasks/result", taskId=task["taskId"])  # at once, now it has ended
    assert again == result


def test_progress_is_the_status_message_and_a_notification_of_the_task(jobs: Client) -> None:
    created = jobs.result(
        "tools/call",
        name="slow",
        arguments={"seconds": 1.2},
        task={},
        _meta={"progressToken": "p-1"},
    )
    task_id = created["task"]["taskId"]
    for _ in range(100):
        task = jobs.result("tasks/get", taskId=task_id)
        if "statusMessage" in task:
            break
        time.sleep(0.05)
    assert task["statusMessage"] == "half-way"
    jobs.result("tasks/result", taskId=task_id)
    (progress,) = [m for m in jobs.seen if m.get("method") == "notifications/progress"]
    assert progress["params"]["progressToken"] == "p-1"
    assert progress["params"]["message"] == "half-way"
    assert progress["params"]["_meta"] == {RELATED: {"taskId": task_id}}


def test_a_question_inside_a_task_goes_to_the_client_at_once(jobs: Client) -> None:
    task_id = jobs.task("ask_name")
    while not [m for m in jobs.seen if m.get("method") == "elicitation/create"]:
        jobs.seen.append(jobs.server.read())  # on stdio it needs no tasks/result to come
    (question,) = [m for m in jobs.seen if m.get("method") == "elicitation/create"]
    jobs.seen.remove(question)
    assert question["params"]["_meta"][RELATED] == {"taskId": task_id}
    assert question["params"]["message"] == "Your name?"
    assert jobs.result("tasks/get", taskId=task_id)["status"] == "input_required"
    assert "input_required" in jobs.statuses(task_id)
    answer = {"action": "accept", "content": {"value": "Ada"}}
    jobs.server.send({"jsonrpc": "2.0", "id": question["id"], "result": answer})
    result = jobs.result("tasks/result", taskId=task_id)
    assert text(result) == "Hello, Ada!"
    assert jobs.statuses(task_id)[-1] == "completed"


def test_over_http_a_question_waits_for_tasks_result_and_comes_on_its_stream() -> None:
    server = HttpServer(target=f"{JOBS}:Jobs")
    try:
        headers = open_session(server.url, {"elicitation": {}})  # and no GET stream
        created = post(server.url, request(2, "tools/call", name="ask_name", task={}), **headers)
        task_id = created.json()["result"]["task"]["taskId"]
        for _ in range(200):
            got = post(server.url, request(3, "tasks/get", taskId=task_id), **headers).json()
            if got["result"]["status"] == "input_required":
                break
            time.sleep(0.05)
        assert got["result"]["status"] == "input_required"
        sent = {"accept": "application/json, text/event-stream", **headers}
        waited = request(4, "tasks/result", taskId=task_id)
        with httpx.stream("POST", server.url, json=waited, headers=sent, timeout=20) as stream:
            lines = stream.iter_lines()
            question = _next_message(lines)
            assert question["method"] == "elicitation/create"
            assert question["params"]["_meta"][RELATED] == {"taskId": task_id}
            answer = {"action": "accept", "content": {"value": "Ada"}}
            said = {"jsonrpc": "2.0", "id": question["id"], "result": answer}
            assert post(server.url, said, **headers).status_code == 202
            found = _next_message(lines)
            while "id" not in found or found.get("method"):  # past the status notifications
                found = _next_message(lines)
        assert found["id"] == 4 and text(found["result"]) == "Hello, Ada!"
    finally:
        server.stop()


def request(request_id: int, method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def _next_message(lines: Iterator[str]) -> dict[str, Any]:
    """The next JSON-RPC message of an SSE stream (past the priming event)."""
    while True:
        data = read_event(lines).get("data")
        if data:
            message: dict[str, Any] = json.loads(data)
            return message


def test_tasks_list_shows_the_callers_tasks_in_pages() -> None:
    client = start("--page-size", "2")
    try:
        # a client that declared no tasks capability knows none: a required tool runs plainly
        assert text(client.result("tools/call", name="always", arguments={})) == "always a task"
        made = [client.task("quick") for _ in range(3)]
        first = client.result("tasks/list")
        assert [task["taskId"] for task in first["tasks"]] == made[:2]
        second = client.result("tasks/list", cursor=first["nextCursor"])
        assert [task["taskId"] for task in second["tasks"]] == made[2:]
        assert "nextCursor" not in second
        wrong = client.ask("tasks/list", cursor="no-such-cursor")
        assert wrong["error"]["code"] == -32602
    finally:
        client.server.process.kill()
        client.server.process.wait()


def test_cancel_stops_the_call_and_a_cancelled_task_stays_so(jobs: Client) -> None:
    task_id = jobs.task("blocking", seconds=5)
    waited = jobs.send("tasks/result", taskId=task_id)
    cancelled = jobs.result("tasks/cancel", taskId=task_id)
    assert cancelled["taskId"] == task_id and cancelled["status"] == "cancelled"
    assert cancelled["statusMessage"]
    refused = jobs.answer(waited)  # the waiting tasks/result: no result, an error
    assert refused["error"]["code"] == -32602
    assert "cancelled" in refused["error"]["message"]
    time.sleep(0.2)
    assert jobs.result("tasks/get", taskId=task_id)["status"] == "cancelled"
    again = jobs.ask("tasks/cancel", taskId=task_id)
    assert again["error"]["code"] == -32602
    assert "terminal status 'cancelled'" in again["error"]["message"]


def test_a_tool_error_fails_the_task_and_tasks_result_gives_the_result(jobs: Client) -> None:
    task_id = jobs.task("slow", seconds="a while")
    result = jobs.result("tasks/result", taskId=task_id)
    assert result["isError"] is True
    failed = jobs.result("tasks/get", taskId=task_id)
    assert failed["status"] == "failed" and failed["statusMessage"]


def test_the_errors_of_task_support_and_unknown_tasks(jobs: Client) -> None:
    required = jobs.ask("tools/call", name="always", arguments={})
    assert required["error"]["code"] == -32601
    assert "Task augmentation required" in required["error"]["message"]
    forbidden = jobs.ask("tools/call", name="never", arguments={"seconds": 0}, task={})
    assert forbidden["error"]["code"] == -32601
    malformed = jobs.ask("tools/call", name="quick", arguments={}, task={"ttl": "soon"})
    assert malformed["error"]["code"] == -32602
    for method in ("tasks/get", "tasks/result", "tasks/cancel"):
        unknown = jobs.ask(method, taskId="no-such-task")
        assert unknown["error"]["code"] == -32602
        assert "Task not found" in unknown["error"]["message"]
    always = jobs.task("always")
    assert text(jobs.result("tasks/result", taskId=always)) == "always a task"
    plain = jobs.result("tools/call", name="quick", arguments={})
    assert text(plain) == "quick"


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18"])
def test_earlier_revisions_have_no_tasks(version: str) -> None:
    server = RawServer("-m", "objmcp", "run", f"{JOBS}:Jobs")
    try:
        client = Client(server)
        initialized = server.initialize(version)
        assert "tasks" not in initialized["capabilities"]
        tools = client.result("tools/list")["tools"]
        assert all("execution" not in tool for tool in tools)
        plain = client.result("tools/call", name="quick", arguments={}, task={"ttl": 1000})
        assert text(plain) == "quick"
        assert client.ask("tasks/get", taskId="x")["error"]["code"] == -32601
    finally:
        server.process.kill()
        server.process.wait()


@pytest.mark.parametrize("max_tasks", ["1"])
def test_beyond_max_tasks_a_task_call_is_refused(max_tasks: str) -> None:
    client = start("--max-tasks", max_tasks)
    try:
        first = client.task("blocking", seconds=5)
        refused = client.ask("tools/call", name="quick", arguments={}, task={})
        assert refused["error"]["code"] == -32000
        assert "max_tasks" in refused["error"]["message"]
        client.result("tasks/cancel", taskId=first)
        assert text(client.result("tasks/result", taskId=client.task("quick"))) == "quick"
    finally:
        client.server.process.kill()
        client.server.process.wait()


@pytest.mark.anyio
async def test_over_http_a_task_is_its_callers_alone() -> None:
    callers = {"alice-token": {"sub": "alice"}, "bob-token": {"sub": "bob"}}
    app = objmcp.asgi_app(
        "jobs", jobs_object(), auth=objmcp.Auth(verify=lambda token: callers.get(token, {}))
    )
    transport = httpx.ASGITransport(app=app)
    ids = iter(range(1, 1000))

    async def post(
        client: httpx.AsyncClient, token: str, session: str | None, method: str, **params: Any
    ) -> httpx.Response:
        headers = {
            "accept": "application/json, text/event-stream",
            "authorization": f"Bearer {token}",
            "mcp-protocol-version": "2025-11-25",
        }
        if session is not None:
            headers["mcp-session-id"] = session
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if method == "initialize":
            message = initialize_message()
            message["params"]["protocolVersion"] = "2025-11-25"
        message["id"] = next(ids)
        return await client.post("/mcp", json=message, headers=headers)

    def answer(response: httpx.Response) -> Any:
        if response.headers["content-type"].startswith("application/json"):
            return response.json()
        found = [line[5:] for line in response.text.splitlines() if line.startswith("data:")]
        return [json.loads(data) for data in found if data.strip()][-1]

    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        sessions = {}
        for token in callers:
            opened = await post(client, token, None, "initialize")
            assert answer(opened)["result"]["capabilities"]["tasks"] == TASKS_CAPABILITY
            sessions[token] = opened.headers["mcp-session-id"]
        alice, bob = sessions["alice-token"], sessions["bob-token"]
        created = answer(
            await post(
                client,
                "alice-token",
                alice,
                "tools/call",
                name="slow",
                arguments={"seconds": 0.3},
                task={},
            )
        )
        task_id = created["result"]["task"]["taskId"]
        theirs = answer(await post(client, "bob-token", bob, "tasks/get", taskId=task_id))
        cancel = answer(await post(client, "bob-token", bob, "tasks/cancel", taskId=task_id))
        listed = answer(await post(client, "bob-token", bob, "tasks/list"))
        mine = answer(await post(client, "alice-token", alice, "tasks/result", taskId=task_id))
        listed_mine = answer(await post(client, "alice-token", alice, "tasks/list"))
    await app.aclose()
    assert theirs["error"]["code"] == -32602 and "result" not in theirs
    assert cancel["error"]["code"] == -32602
    assert listed["result"]["tasks"] == []
    assert text(mine["result"]) == "slept 0.3"
    assert [task["taskId"] for task in listed_mine["result"]["tasks"]] == [task_id]


@pytest.mark.anyio
async def test_stateless_http_declares_no_tasks_and_runs_a_task_call_plainly() -> None:
    app = objmcp.asgi_app("jobs", jobs_object(), http=objmcp.Http(stateless=True))
    headers = {
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
    }
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        opened = await client.post("/mcp", json=initialize_message(), headers=headers)
        call = request(2, "tools/call", name="quick", arguments={}, task={})
        called = await client.post("/mcp", json=call, headers=headers)
        asked = await client.post("/mcp", json=request(3, "tasks/list"), headers=headers)
    await app.aclose()
    assert "tasks" not in opened.json()["result"]["capabilities"]
    assert text(called.json()["result"]) == "quick"  # nothing outlives the request here
    assert asked.json()["error"]["code"] == -32601


def test_in_search_mode_a_required_tool_through_call_tool_runs_as_call_tool_is_listed() -> None:
    # tools/list shows call_tool, optional: a plain call of it runs, even of a required tool
    client = start("--discovery", "search", capabilities={"tasks": {"list": {}, "cancel": {}}})
    try:
        listed = {tool["name"]: tool for tool in client.result("tools/list")["tools"]}
        assert listed["call_tool"]["execution"] == {"taskSupport": "optional"}
        reached = {"name": "always", "arguments": {}}
        plain = client.result("tools/call", name="call_tool", arguments=reached)
        assert text(plain) == "always a task"
        created = client.result("tools/call", name="call_tool", arguments=reached, task={})
        assert created["task"]["status"] in ("working", "completed")
        ended = client.result("tasks/result", taskId=created["task"]["taskId"])
        assert text(ended) == "always a task"
    finally:
        client.server.process.kill()
        client.server.process.wait()
