"""Jobs through a real client with no tasks: the official ``mcp`` Python SDK 2.x ``Client``,
in each of its modes, against ``objmcp run --jobs`` serving ``tests/servers/chores.py``
as a real process, over stdio and Streamable HTTP. A slow call is answered with a job's
text; the client (as a model would) calls ``job_status`` and ``job_result`` with the id the
text names, and gets the call's own result; a tool with an output schema is checked by the
SDK as ever; a handshake-era job's question reaches the SDK's elicitation callback."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import PYTHON, ROOT
from http_helpers import HttpServer
from mcp import Client, StdioServerParameters, types

pytestmark = pytest.mark.anyio

CHORES = ROOT / "tests" / "servers" / "chores.py"
MODES = ["legacy", "auto", "2026-07-28"]
OPTIONS = ("--jobs", "--task-after", "0.2")


@pytest.fixture(scope="module", params=["stdio", "http"])
def server(request: pytest.FixtureRequest) -> Iterator[StdioServerParameters | str]:
    """What the SDK's ``Client`` connects to: ``objmcp run --jobs`` over stdio (a process of
    each client's own), or one over Streamable HTTP (its URL)."""
    if request.param == "stdio":
        arguments = ["-m", "objmcp", "run", *OPTIONS, f"{CHORES}:Chores"]
        yield StdioServerParameters(command=PYTHON, args=arguments, env={"PYTHONPATH": str(ROOT)})
        return
    served = HttpServer(*OPTIONS, target=f"{CHORES}:Chores")
    yield served.url
    served.stop()


def text_of(result: Any) -> str:
    return "".join(block.text for block in result.content if block.type == "text")


async def fetched(client: Client, job_id: str) -> Any:
    """``job_result`` until the job has ended."""
    for _ in range(100):
        result = await client.call_tool("job_result", {"job_id": job_id})
        if "is still running" not in text_of(result):
            return result
    raise AssertionError(f"job {job_id} never ended")


@pytest.mark.parametrize("mode", MODES)
async def test_a_slow_call_is_a_job_the_client_comes_back_for(
    server: StdioServerParameters | str, mode: str
) -> None:
    async with Client(server, mode=mode) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert {"job_status", "job_result", "job_cancel"} <= set(tools)
        assert tools["job_result"].input_schema["required"] == ["job_id"]
        assert tools["measure"].output_schema is None  # a job's text would not fit it
        assert tools["never"].output_schema is not None

        started = await client.call_tool("measure", {"seconds": 0.8})
        assert not started.is_error
        found = re.search(r'job_id "([^"]+)"', text_of(started))
        assert found is not None, text_of(started)
        job_id = found.group(1)
        status = await client.call_tool("job_status", {"job_id": job_id})
        assert text_of(status).startswith(f"Job {job_id} ")
        done = await fetched(client, job_id)
        assert not done.is_error
        assert text_of(done) == '{"seconds":0.8,"unit":"s"}'
        assert done.structured_content == {"seconds": 0.8, "unit": "s"}

        never = await client.call_tool("never", {"seconds": 0.4})  # validated by the SDK
        assert never.structured_content == {"seconds": 0.4, "unit": "s"}

        cancelled = await client.call_tool("job_cancel", {"job_id": job_id})
        assert "had ended already" in text_of(cancelled)
        unknown = await client.call_tool("job_result", {"job_id": "nope"})
        assert unknown.is_error and text_of(unknown).startswith("Unknown job")


async def test_a_handshake_era_job_s_question_reaches_the_client(
    server: StdioServerParameters | str,
) -> None:
    asked: list[str] = []

    async def answer(context: Any, params: Any) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"value": "Ada"})

    async with Client(server, mode="legacy", elicitation_callback=answer) as client:
        started = await client.call_tool("ask_name", {})
        found = re.search(r'job_id "([^"]+)"', text_of(started))
        assert found is not None, text_of(started)
        done = await fetched(client, found.group(1))
    assert asked == ["Your name?"]
    assert text_of(done) == "Hello, Ada!"
