"""Jobs (``jobs=True``, ``objmcp run --jobs``): a call still running after ``task_after``,
from a client with no tasks, answered with a text naming a job, and the tools
``job_status``, ``job_result`` and ``job_cancel``; through real server processes over raw
pipes (a handshake-era revision and 2026-07-28) and Streamable HTTP (two bearer tokens),
and in memory for the names the tools take beside an object's own and in search mode."""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PYTHON, RawServer, server_env
from http_helpers import HttpServer, modern_headers, post

import objmcp
from objmcp.testing import ResponseError, connect

NO_TASKS: dict[str, Any] = {}
"""What a client without tasks declares: the testing client declares its era's tasks else."""

CHORES = Path(__file__).resolve().parent.parent / "servers" / "chores.py"
TASKS = "io.modelcontextprotocol/tasks"
JOB_TOOLS = ["job_status", "job_result", "job_cancel"]


class Pipe:
    """Raw requests to a chores server over stdio, one at a time: in the handshake era
    (2025-06-18) after ``initialize``, or in 2026-07-28 with ``modern`` capabilities."""

    def __init__(self, server: RawServer, modern: dict[str, Any] | None = None) -> None:
        self.server = server
        self.modern = modern
        self.ids = iter(range(1, 10_000))
        self.asked: list[dict[str, Any]] = []
        """The server's requests (questions) read on the way."""

    def ask(self, method: str, **params: Any) -> dict[str, Any]:
        request_id = next(self.ids)
        if self.modern is not None:
            params["_meta"] = {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": self.modern,
            }
        self.server.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        while True:
            message = self.server.read()
            if message.get("id") == request_id and "method" not in message:
                return message
            if "method" in message and "id" in message:
                self.asked.append(message)

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        answer = self.ask("tools/call", name=tool, arguments=arguments)
        assert "result" in answer, answer
        result: dict[str, Any] = answer["result"]
        return result

    def job(self, tool: str, **arguments: Any) -> str:
        """Call ``tool``, which outlives ``task_after``: the job id its answer names."""
        started = self.call(tool, **arguments)
        assert started["isError"] is False and "structuredContent" not in started
        return job_id_in(text(started))

    def result(self, job_id: str) -> dict[str, Any]:
        """``job_result`` until the job has ended (each call waits up to task_after)."""
        for _ in range(100):
            found = self.call("job_result", job_id=job_id)
            if "is still running" not in text(found):
                return found
        raise AssertionError(f"job {job_id} never ended")


def text(result: dict[str, Any]) -> str:
    return "".join(block["text"] for block in result["content"])


def job_id_in(said: str) -> str:
    found = re.search(r'job_id "([^"]+)"', said)
    assert found is not None, said
    return found.group(1)


@pytest.fixture(scope="module")
def served() -> Iterator[RawServer]:
    """One chores server with jobs on and ``task_after`` 0.2 s, shared by the raw-pipe
    tests (each makes jobs of its own; a job is its connection's)."""
    server = RawServer("-m", "objmcp", "run", "--jobs", "--task-after", "0.2", f"{CHORES}:Chores")
    yield server
    server.process.kill()
    server.process.wait()


@pytest.fixture(scope="module")
def legacy(served: RawServer) -> Pipe:
    """The handshake era (2025-06-18), a client that can answer questions."""
    served.initialize("2025-06-18", {"elicitation": {}})
    return Pipe(served)


def test_a_slow_call_becomes_a_job_and_its_result_is_fetched(legacy: Pipe) -> None:
    job_id = legacy.job("slow", seconds=1.0)
    status = text(legacy.call("job_status", job_id=job_id))
    assert status.startswith((f"Job {job_id} is running", f"Job {job_id} has ended"))
    for _ in range(100):  # progress becomes the job's status line
        status = text(legacy.call("job_status", job_id=job_id))
        if "latest progress" in status or "has ended" in status:
            break
        time.sleep(0.05)
    assert "latest progress: half-way" in status or "has ended" in status
    done = legacy.result(job_id)
    assert done == {
        "content": [{"type": "text", "text": "slept 1"}],
        "isError": False,
        "structuredContent": {"result": "slept 1"},
    }
    again = legacy.call("job_result", job_id=job_id)  # kept until it expires
    assert again == done
    assert "has ended" in text(legacy.call("job_status", job_id=job_id))
    assert text(legacy.call("quick")) == "quick"  # a quick call is answered as ever


def test_the_job_tools_are_listed_and_output_schemas_left_out(legacy: Pipe) -> None:
    listed = legacy.ask("tools/list")["result"]["tools"]
    tools = {tool["name"]: tool for tool in listed}
    assert [tool["name"] for tool in listed][-3:] == JOB_TOOLS
    for name in JOB_TOOLS:
        assert tools[name]["inputSchema"]["required"] == ["job_id"]
        assert tools[name]["inputSchema"]["properties"]["job_id"]["type"] == "string"
        assert "job" in tools[name]["description"]
    assert tools["job_status"]["annotations"]["readOnlyHint"] is True
    assert tools["job_cancel"]["annotations"]["readOnlyHint"] is False
    assert "outputSchema" not in tools["measure"]  # it may answer with a job's text
    assert "outputSchema" in tools["never"]  # task="never": never a job


def test_a_job_s_structured_result_and_error_result_are_the_call_s_own(legacy: Pipe) -> None:
    measured = legacy.result(legacy.job("measure", seconds=0.4))
    assert measured["structuredContent"] == {"seconds": 0.4, "unit": "s"}
    assert measured["isError"] is False
    failed = legacy.result(legacy.job("failing", seconds=0.4))
    assert failed == {
        "content": [{"type": "text", "text": "the chore went wrong"}],
        "isError": True,
    }
    never = legacy.call("never", seconds=0.4)  # task="never": the plain answer, in time
    assert never["structuredContent"] == {"seconds": 0.4, "unit": "s"}


def test_a_handshake_era_job_still_asks_its_client(legacy: Pipe) -> None:
    job_id = legacy.job("ask_name")
    for _ in range(100):
        legacy.call("job_result", job_id=job_id)
        if legacy.asked:
            break
    (question,) = legacy.asked
    legacy.asked.clear()
    assert question["method"] == "elicitation/create"
    status = text(legacy.call("job_status", job_id=job_id))
    assert "waiting for the answer to a question the client was asked" in status
    legacy.server.send(
        {
            "jsonrpc": "2.0",
            "id": question["id"],
            "result": {"action": "accept", "content": {"value": "Ada"}},
        }
    )
    found = legacy.result(job_id)
    assert text(found) == "Hello, Ada!"


def test_cancel_stops_the_call_and_keeps_no_result(legacy: Pipe) -> None:
    job_id = legacy.job("blocking", seconds=10)
    cancelled = legacy.call("job_cancel", job_id=job_id)
    assert (
        text(cancelled) == f"Job {job_id} is cancelled: its call was stopped, and it has no result."
    )
    result = legacy.call("job_result", job_id=job_id)
    assert result["isError"] is True and "was cancelled" in text(result)
    assert "was cancelled" in text(legacy.call("job_status", job_id=job_id))
    again = legacy.call("job_cancel", job_id=job_id)
    assert text(again) == f"Job {job_id} had ended already (cancelled): nothing to stop."


def test_bad_arguments_and_unknown_jobs_are_error_results(legacy: Pipe) -> None:
    missing = legacy.call("job_result")
    assert missing["isError"] is True and "job_id" in text(missing)
    wrong = legacy.call("job_status", job_id=42)
    assert wrong["isError"] is True and "job_id" in text(wrong)
    for tool in JOB_TOOLS:
        unknown = legacy.call(tool, job_id="no-such-job")
        assert unknown["isError"] is True
        assert text(unknown).startswith("Unknown job 'no-such-job': no job of yours has this id")


def test_2026_07_28_without_tasks_gets_jobs_with_tasks_gets_tasks(served: RawServer) -> None:
    plain = Pipe(served, {"elicitation": {}})
    listed = [tool["name"] for tool in plain.ask("tools/list")["result"]["tools"]]
    assert listed[-3:] == JOB_TOOLS
    started = plain.call("measure", seconds=0.4)
    assert started["resultType"] == "complete" and "as job" in text(started)
    measured = plain.result(job_id_in(text(started)))
    assert measured["resultType"] == "complete"
    assert measured["structuredContent"] == {"seconds": 0.4, "unit": "s"}
    # no request is left to answer input_required: the question fails, and says why
    asked = plain.result(plain.job("ask_name"))
    assert asked["isError"] is True
    assert "runs on as a job" in text(asked) and "no tasks" in text(asked)
    assert plain.asked == []
    tasks = Pipe(served, {"extensions": {TASKS: {}}})
    task = tasks.call("measure", seconds=0.4)
    assert task["resultType"] == "task" and task["status"] == "working"


def test_beyond_max_tasks_a_call_is_answered_plainly() -> None:
    server = RawServer(
        "-m", "objmcp", "run", "--jobs", "--task-after", "0.2", "--max-tasks", "1",
        f"{CHORES}:Chores",
    )  # fmt: skip
    try:
        server.initialize("2025-06-18")
        pipe = Pipe(server)
        first = pipe.job("blocking", seconds=10)
        assert text(pipe.call("slow", seconds=0.4)) == "slept 0.4"
        pipe.call("job_cancel", job_id=first)
    finally:
        server.process.kill()
        server.process.wait()


def test_jobs_are_off_by_default() -> None:
    server = RawServer("-m", "objmcp", "run", "--task-after", "0.2", f"{CHORES}:Chores")
    try:
        server.initialize("2025-06-18")
        pipe = Pipe(server)
        listed = [tool["name"] for tool in pipe.ask("tools/list")["result"]["tools"]]
        assert not set(JOB_TOOLS) & set(listed)
        assert text(pipe.call("slow", seconds=0.4)) == "slept 0.4"
        unknown = pipe.ask("tools/call", name="job_status", arguments={"job_id": "x"})
        assert unknown["error"]["code"] == -32602
    finally:
        server.process.kill()
        server.process.wait()


# --- over HTTP: a job is its caller's alone ------------------------------------------------


def _modern_call(url: str, token: str, request_id: int, tool: str, **arguments: Any) -> Any:
    message = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {
            "name": tool,
            "arguments": arguments,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        },
    }
    headers = {**modern_headers("tools/call", tool), "authorization": f"Bearer {token}"}
    response = post(url, message, **headers)
    assert response.status_code == 200, response.text
    return response.json()["result"]


def test_over_http_a_job_is_its_callers_alone_and_names_its_process() -> None:
    server = HttpServer(command=[PYTHON, str(CHORES), "{port}"])
    try:
        url = server.url
        started = _modern_call(url, "alice-token", 1, "slow", seconds=0.6)
        job_id = job_id_in(text(started))
        assert job_id.startswith("p1.")  # its process's route tag, for the proxy
        for number, tool in enumerate(JOB_TOOLS, 2):
            theirs = _modern_call(url, "bob-token", number, tool, job_id=job_id)
            assert theirs["isError"] is True and text(theirs).startswith("Unknown job")
        for number in range(10, 100):
            mine = _modern_call(url, "alice-token", number, "job_result", job_id=job_id)
            if "is still running" not in text(mine):
                break
        assert text(mine) == "slept 0.6" and mine["isError"] is False
    finally:
        server.stop()


def test_stateless_http_makes_no_job_it_could_not_keep() -> None:
    server = HttpServer("--stateless", "--jobs", "--task-after", "0.2", target=f"{CHORES}:Chores")
    try:
        message = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "slow", "arguments": {"seconds": 0.6}},
        }
        answered = post(server.url, message).json()["result"]  # each request its own session
        assert text(answered) == "slept 0.6"
    finally:
        server.stop()


# --- the names, in memory -----------------------------------------------------------------


class Ledger:
    """An object with a job_status of its own."""

    def job_status(self) -> str:
        """The ledger's own job status."""
        return "all square"

    async def tally(self, seconds: float) -> str:
        """Tallies slowly."""
        import anyio

        await anyio.sleep(seconds)
        return "tallied"


@pytest.mark.anyio
async def test_a_name_the_object_has_is_prefixed_and_the_text_says_so() -> None:
    async with connect(
        Ledger(), capabilities=NO_TASKS, tasks=objmcp.Tasks(jobs=True, after=0.1)
    ) as client:
        names = [tool["name"] for tool in await client.list_tools()]
        assert names == ["job_status", "tally", "objmcp_job_status", "job_result", "job_cancel"]
        assert (await client.call("job_status")).text == "all square"
        started = await client.call("tally", seconds=0.5)
        job_id = job_id_in(started.text)
        assert "objmcp_job_status to see how it is going" in started.text
        status = await client.call("objmcp_job_status", job_id=job_id)
        assert status.text.startswith((f"Job {job_id} is running", f"Job {job_id} has ended"))
        for _ in range(100):
            done = await client.call("job_result", job_id=job_id)
            if done.text != "" and "is still running" not in done.text:
                break
        assert done.text == "tallied"


@pytest.mark.anyio
async def test_in_2025_11_25_the_job_tools_are_never_tasks_themselves() -> None:
    async with connect(
        Ledger(), era="handshake", tasks=objmcp.Tasks(jobs=True, after=0.1)
    ) as client:
        assert client.protocol_version == "2025-11-25"
        listed = {tool["name"]: tool for tool in await client.list_tools()}
        for name in ("objmcp_job_status", "job_result", "job_cancel"):
            assert listed[name]["execution"] == {"taskSupport": "forbidden"}
        assert listed["tally"]["execution"] == {"taskSupport": "optional"}
        asked = {"name": "job_result", "arguments": {"job_id": "x"}, "task": {}}
        with pytest.raises(ResponseError) as refused:
            await client.request("tools/call", asked)
        assert refused.value.code == -32601 and "job_result" in refused.value.message


class Many:
    """Enough tools for search mode."""

    async def slow_one(self, seconds: float) -> str:
        """Slow."""
        import anyio

        await anyio.sleep(seconds)
        return "one"

    def other(self) -> str:
        """Other."""
        return "other"


@pytest.mark.anyio
async def test_in_search_mode_the_job_tools_are_listed_beside_the_meta_tools() -> None:
    async with connect(
        Many(),
        capabilities=NO_TASKS,
        tasks=objmcp.Tasks(jobs=True, after=0.1),
        discovery=objmcp.Discovery(mode="search"),
    ) as client:
        names = [tool["name"] for tool in await client.list_tools()]
        assert names == ["search_tools", "describe_tools", "call_tool", *JOB_TOOLS]
        found = await client.call("search_tools", query="job")
        assert "job_" not in found.text  # the object's tools only
        slow = {"name": "slow_one", "arguments": {"seconds": 0.5}}
        started = await client.call("call_tool", slow)
        job_id = job_id_in(started.text)
        for _ in range(100):
            fetch = {"name": "job_result", "arguments": {"job_id": job_id}}
            done = await client.call("call_tool", fetch)
            if "is still running" not in done.text:
                break
        assert done.text == "one"


def test_the_option_is_checked() -> None:
    with pytest.raises(TypeError, match="jobs takes True or False"):
        objmcp.Server("x", Many(), tasks=objmcp.Tasks(jobs="yes"))  # type: ignore[arg-type]


def test_config_and_dev_pass_jobs_on(tmp_path: Path) -> None:
    def objmcp_cli(*args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [PYTHON, "-m", "objmcp", *args],
            input=b"",
            capture_output=True,
            cwd=str(tmp_path),
            env=server_env(),
            timeout=120,
            check=False,
        )

    done = objmcp_cli("config", "claude", f"{CHORES}:Chores", "--jobs")
    assert done.returncode == 0, done.stderr.decode()
    (entry,) = json.loads(done.stdout)["mcpServers"].values()
    assert "--jobs" in entry["args"]
    plain = objmcp_cli("config", "claude", f"{CHORES}:Chores")
    (entry,) = json.loads(plain.stdout)["mcpServers"].values()
    assert "--jobs" not in entry["args"]
    assert "--jobs" in objmcp_cli("dev", "--help").stdout.decode()
    helped = " ".join(objmcp_cli("run", "--help").stdout.decode().split())  # however wrapped
    assert "--jobs answer such a call from a client with no tasks" in helped


@pytest.mark.anyio
async def test_with_task_after_off_only_the_tools_that_say_task_become_jobs() -> None:
    tools = {"slow_one": {"task": "always"}}
    async with connect(
        Many(), tools=tools, capabilities=NO_TASKS, tasks=objmcp.Tasks(jobs=True, after=None)
    ) as client:
        started = await client.call("slow_one", seconds=0.3)  # at once: it says so
        job_id = job_id_in(started.text)
        assert "each call waits up to 5 s" in started.text  # task_after off: 5 s
        done = await client.call("job_result", job_id=job_id)
        assert done.text == "one"
    async with connect(
        Many(), capabilities=NO_TASKS, tasks=objmcp.Tasks(jobs=True, after=None)
    ) as client:
        assert (await client.call("slow_one", seconds=0.3)).text == "one"


@pytest.mark.anyio
async def test_server_handle_waits_for_the_call_and_makes_no_job() -> None:
    server = objmcp.Server("many", Many(), tasks=objmcp.Tasks(jobs=True, after=0.1))
    initialize = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "embedder", "version": "1"},
    }
    await server.handle({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize})
    params = {"name": "slow_one", "arguments": {"seconds": 0.3}}
    answer = await server.handle(
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params}
    )
    assert text(answer["result"]) == "one"


class Asks:
    """A tool that says it asks the client."""

    @objmcp.tool(needs=("elicitation",))
    async def slow_question(self, elicit: objmcp.Elicit) -> str:
        """Works, then asks a name."""
        import anyio

        await anyio.sleep(0.3)
        answer = await elicit("Name?", str)
        return f"hi {answer.value}"


@pytest.mark.anyio
async def test_in_2026_07_28_a_tool_that_says_it_asks_is_no_job() -> None:
    def answer(params: Any) -> dict[str, Any]:
        return {"action": "accept", "content": {"value": "Ada"}}

    options: dict[str, Any] = {"tasks": objmcp.Tasks(jobs=True, after=0.1), "elicit": answer}
    no_tasks = {"elicitation": {}}  # the testing client declares its era's tasks else
    async with connect(Asks(), era="modern", capabilities=no_tasks, **options) as client:
        asked = await client.call("slow_question")  # input_required, then the retry
        assert asked.text == "hi Ada" and asked.rounds == 1
    async with connect(Asks(), era="handshake", capabilities=no_tasks, **options) as client:
        started = await client.call("slow_question")  # a job: its question goes as ever
        done = await client.call("job_result", job_id=job_id_in(started.text))
        for _ in range(100):
            if "is still running" not in done.text:
                break
            done = await client.call("job_result", job_id=job_id_in(started.text))
        assert done.text == "hi Ada"
