"""The 2026-07-28 tasks extension (``io.modelcontextprotocol/tasks``) through real server
processes and raw pipes: a call past ``task_after`` becomes a task for a client that
declared the extension and stays a plain call for one that did not; ``tasks/get``,
``tasks/update`` and ``tasks/cancel``; progress as the status message; the per-tool
``task=`` option; the bounds (``--max-tasks``, ``--task-ttl``); over HTTP, a task is its
caller's alone."""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2 as httpx
import pytest
from conftest import RawServer
from http_helpers import modern_headers

import objmcp
from objmcp.testing import ResponseError, connect

JOBS = Path(__file__).resolve().parent.parent / "servers" / "jobs.py"
TASKS = "io.modelcontextprotocol/tasks"
WITH_TASKS = {"extensions": {TASKS: {}}, "elicitation": {}}
ENDED = ("completed", "failed", "cancelled")


def request(
    request_id: int | str, method: str, capabilities: dict[str, Any] | None = None, **params: Any
) -> dict[str, Any]:
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": (
            WITH_TASKS if capabilities is None else capabilities
        ),
    }
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": method,
        "params": {**params, "_meta": meta},
    }


class Client:
    """Raw requests to a jobs server over stdio, one at a time."""

    def __init__(self, server: RawServer) -> None:
        self.server = server
        self.ids = iter(range(1, 10_000))

    def ask(self, method: str, capabilities: dict[str, Any] | None = None, **params: Any) -> Any:
        request_id = next(self.ids)
        self.server.send(request(request_id, method, capabilities, **params))
        while True:
            message = self.server.read()
            if message.get("id") == request_id:
                return message

    def result(self, method: str, **params: Any) -> dict[str, Any]:
        response = self.ask(method, **params)
        assert "result" in response, response
        result: dict[str, Any] = response["result"]
        return result

    def until(self, task_id: str, *statuses: str) -> dict[str, Any]:
        """Poll the task until it is in one of ``statuses`` (or ended)."""
        for _ in range(200):
            task = self.result("tasks/get", taskId=task_id)
            if task["status"] in statuses or task["status"] in ENDED:
                return task
            time.sleep(0.05)
        raise AssertionError(f"task {task_id} stayed {task['status']}")


@pytest.fixture(scope="module")
def jobs(request: pytest.FixtureRequest) -> Iterator[Client]:
    """A jobs server with ``task_after`` 0.2 s (and the options a test gives as its
    parameter), shared by the module's tests: each makes tasks of its own."""
    options = getattr(request, "param", ())
    server = RawServer("-m", "objmcp", "run", "--task-after", "0.2", *options, f"{JOBS}:Jobs")
    yield Client(server)
    server.process.kill()
    server.process.wait()


def _jobs_module() -> Any:
    """tests/servers/jobs.py, imported (tests/servers is not a package)."""
    spec = importlib.util.spec_from_file_location("jobs", JOBS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def text(result: dict[str, Any]) -> str:
    return "".join(block["text"] for block in result["content"])


def test_a_slow_call_becomes_a_task_polled_to_its_result(jobs: Client) -> None:
    created = jobs.result("tools/call", name="slow", arguments={"seconds": 0.8})
    assert created["resultType"] == "task"
    assert created["status"] == "working" and "result" not in created
    assert isinstance(created["pollIntervalMs"], int) and created["createdAt"].endswith("Z")
    said = jobs.until(created["taskId"], "never")  # to its end, seeing progress on the way
    assert said["status"] == "completed"
    assert said["resultType"] == "complete"
    assert text(said["result"]) == "slept 0.8"
    assert isinstance(said["ttlMs"], int) and said["ttlMs"] > 0
    quick = jobs.result("tools/call", name="quick", arguments={})
    assert quick["resultType"] == "complete" and text(quick) == "quick"


def test_progress_is_the_status_message(jobs: Client) -> None:
    created = jobs.result("tools/call", name="slow", arguments={"seconds": 1.2})
    for _ in range(100):
        task = jobs.result("tasks/get", taskId=created["taskId"])
        if "statusMessage" in task:
            break
        time.sleep(0.05)
    assert task["statusMessage"] == "half-way"


def test_a_client_without_the_extension_gets_a_plain_answer(jobs: Client) -> None:
    plain = jobs.ask("tools/call", {}, name="slow", arguments={"seconds": 0.4})
    assert plain["result"]["resultType"] == "complete"
    assert text(plain["result"]) == "slept 0.4"
    refused = jobs.ask("tasks/get", {}, taskId="anything")
    assert refused["error"]["code"] == -32021
    assert refused["error"]["data"] == {"requiredCapabilities": {"extensions": {TASKS: {}}}}


def test_a_question_inside_a_task_is_answered_by_tasks_update(jobs: Client) -> None:
    created = jobs.result("tools/call", name="ask_name", arguments={})
    task_id = created["taskId"]
    waiting = jobs.until(task_id, "input_required")
    assert waiting["status"] == "input_required"
    (key,) = waiting["inputRequests"]
    assert waiting["inputRequests"][key]["method"] == "elicitation/create"
    ignored = jobs.result("tasks/update", taskId=task_id, inputResponses={"other": {}})
    assert ignored == {"resultType": "complete", "_meta": ignored["_meta"]}
    assert jobs.result("tasks/get", taskId=task_id)["status"] == "input_required"
    answer = {"action": "accept", "content": {"value": "Ada"}}
    jobs.result("tasks/update", taskId=task_id, inputResponses={key: answer})
    done = jobs.until(task_id, "never")
    assert done["status"] == "completed" and text(done["result"]) == "Hello, Ada!"


def test_cancel_ends_the_call_and_keeps_no_result(jobs: Client) -> None:
    created = jobs.result("tools/call", name="blocking", arguments={"seconds": 5})
    task_id = created["taskId"]
    ack = jobs.result("tasks/cancel", taskId=task_id)
    assert set(ack) == {"resultType", "_meta"}
    task = jobs.result("tasks/get", taskId=task_id)
    assert task["status"] == "cancelled" and "result" not in task
    time.sleep(0.2)
    assert jobs.result("tasks/get", taskId=task_id)["status"] == "cancelled"
    assert set(jobs.result("tasks/cancel", taskId=task_id)) == {"resultType", "_meta"}


def test_the_tool_option_says_never_or_always(jobs: Client) -> None:
    never = jobs.result("tools/call", name="never", arguments={"seconds": 0.4})
    assert never["resultType"] == "complete" and text(never) == "never a task"
    always = jobs.result("tools/call", name="always", arguments={})
    assert always["resultType"] == "task"
    assert text(jobs.until(always["taskId"], "never")["result"]) == "always a task"
    refused = jobs.ask("tools/call", {}, name="always", arguments={})
    assert refused["error"]["code"] == -32021
    assert refused["error"]["data"]["requiredCapabilities"] == {"extensions": {TASKS: {}}}


def test_an_unknown_task_is_invalid_params(jobs: Client) -> None:
    unknown = jobs.ask("tasks/get", taskId="no-such-task")
    assert unknown["error"]["code"] == -32602
    assert jobs.ask("tasks/result", taskId="x")["error"]["code"] == -32601
    assert jobs.ask("tasks/list")["error"]["code"] == -32601


@pytest.mark.parametrize("jobs", [("--max-tasks", "1")], indirect=True)
def test_beyond_max_tasks_a_call_is_answered_plainly(jobs: Client) -> None:
    first = jobs.result("tools/call", name="blocking", arguments={"seconds": 3})
    assert first["resultType"] == "task"
    second = jobs.result("tools/call", name="slow", arguments={"seconds": 0.4})
    assert second["resultType"] == "complete" and text(second) == "slept 0.4"
    jobs.result("tasks/cancel", taskId=first["taskId"])


@pytest.mark.parametrize("jobs", [("--task-ttl", "0.3")], indirect=True)
def test_an_ended_task_is_forgotten_after_its_ttl(jobs: Client) -> None:
    created = jobs.result("tools/call", name="slow", arguments={"seconds": 0.4})
    done = jobs.until(created["taskId"], "never")
    assert done["status"] == "completed"
    time.sleep(0.5)
    gone = jobs.ask("tasks/get", taskId=created["taskId"])
    assert gone["error"]["code"] == -32602


def test_task_after_off_makes_only_the_tools_that_say_so_tasks() -> None:
    server = RawServer("-m", "objmcp", "run", "--task-after", "off", f"{JOBS}:Jobs")
    try:
        jobs = Client(server)
        plain = jobs.result("tools/call", name="slow", arguments={"seconds": 0.4})
        assert plain["resultType"] == "complete"
        assert jobs.result("tools/call", name="always", arguments={})["resultType"] == "task"
    finally:
        server.process.kill()
        server.process.wait()


@pytest.mark.anyio
async def test_over_http_a_task_is_its_callers_alone_and_names_its_process() -> None:
    module = _jobs_module()
    callers = {"alice-token": {"sub": "alice"}, "bob-token": {"sub": "bob"}}
    app = objmcp.asgi_app(
        "jobs",
        module.Jobs(),
        auth=objmcp.Auth(verify=lambda token: callers.get(token, {})),
        tasks=objmcp.Tasks(after=0.1),
        http=objmcp.Http(route="p1"),
    )
    transport = httpx.ASGITransport(app=app)

    async def post(client: httpx.AsyncClient, token: str, message: dict[str, Any]) -> Any:
        method = message["method"]
        name = message["params"].get("name", message["params"].get("taskId"))
        headers = {
            "accept": "application/json, text/event-stream",
            "authorization": f"Bearer {token}",
            **modern_headers(method, name),
        }
        response = await client.post("/mcp", json=message, headers=headers)
        return response.json()

    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        created = await post(
            client, "alice-token", request(1, "tools/call", name="slow", arguments={"seconds": 0.3})
        )
        task_id = created["result"]["taskId"]
        assert task_id.startswith("p1.")  # its process's --route tag, for the proxy
        theirs = await post(client, "bob-token", request(2, "tasks/get", taskId=task_id))
        cancel = await post(client, "bob-token", request(3, "tasks/cancel", taskId=task_id))
        mine = await post(client, "alice-token", request(4, "tasks/get", taskId=task_id))
    await app.aclose()
    assert theirs["error"]["code"] == -32602 and "result" not in theirs
    assert cancel["error"]["code"] == -32602
    assert mine["result"]["status"] == "completed"
    assert text(mine["result"]["result"]) == "slept 0.3"


@pytest.mark.anyio
async def test_hooks_see_a_task_s_call_end_to_end_through_the_testing_client() -> None:
    class Seen(objmcp.Hook):
        def __init__(self) -> None:
            self.ends: list[tuple[str, str]] = []

        def after(self, call: objmcp.CallInfo, end: objmcp.CallEnd) -> None:
            self.ends.append((call.tool, end.result.text))

    module = _jobs_module()
    seen = Seen()
    capabilities = {"extensions": {TASKS: {}}}
    async with connect(
        module.Jobs(),
        era="modern",
        capabilities=capabilities,
        hooks=[seen],
        tasks=objmcp.Tasks(after=0.1),
    ) as client:
        created = await client.request(
            "tools/call", {"name": "slow", "arguments": {"seconds": 0.3}}
        )
        assert created["resultType"] == "task"
        for _ in range(100):
            task = await client.request("tasks/get", {"taskId": created["taskId"]})
            if task["status"] == "completed":
                break
            await anyio.sleep(0.05)
    assert task["status"] == "completed"
    assert seen.ends == [("slow", "slept 0.3")]


@pytest.mark.anyio
async def test_the_task_option_as_data_and_checked() -> None:
    with pytest.raises(TypeError, match="'never', 'optional' or 'always'"):
        objmcp.ToolOptions(task="sometimes")
    tools = {"quick": {"task": "always"}}
    async with connect(_jobs_module().Jobs(), era="modern", tools=tools, capabilities={}) as client:
        with pytest.raises(ResponseError) as refused:
            await client.request("tools/call", {"name": "quick", "arguments": {}})
    assert refused.value.code == -32021
    assert refused.value.data == {"requiredCapabilities": {"extensions": {TASKS: {}}}}
