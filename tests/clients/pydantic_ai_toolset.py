"""Driver: Pydantic AI (``pydantic-ai-slim[mcp]`` 2.68, ``pydantic_ai.mcp.MCPToolset``, built on
the FastMCP client) against objmcp's ``tests/servers/clients.py:Desk``, every step in one run.

Runs under ``.venv-clients/bin/python`` (Pydantic AI is not installed in the main test
environment), started by ``tests/peers/test_client_pydantic_ai.py``::

    pydantic_ai_toolset.py stdio PYTHON ROOT  # StdioTransport spawns PYTHON -m objmcp run ...
    pydantic_ai_toolset.py http DESK_URL  # the URL of objmcp run --http, as MCPToolset takes it

One ``MCPToolset`` (``MCPServerStdio`` is gone from this version: a transport or a URL is the
toolset's ``client``) with an elicitation handler that answers "Ada" and a progress handler. In
one session it lists the tools, calls each through ``direct_call_tool`` (what the agent's calls
go through), then runs whole agents offline: ``TestModel`` calls the tools named with arguments
it generates from their schemas, and the run's messages hold what objmcp returned. It prints ONE
JSON object on stdout: ``{"client": ..., "transport": ..., "steps": {name: outcome}}``. An
outcome is what the step observed or, when the step raised, ``{"error": {"type", "message",
"code"}}``; a failing step never stops the run.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

from fastmcp.client.transports import StdioTransport
from pydantic_ai import Agent, capture_run_messages
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.messages import (
    ModelMessage,
    ModelResponse,
    TextPart,
    ToolCallPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel
from pydantic_core import to_jsonable_python

# driver_helpers.py, beside this file; its folder goes last on sys.path (see its docstring)
sys.path.append(str(Path(__file__).resolve().parent))
import driver_helpers
from driver_helpers import STEP_TIMEOUT, Outcome, StepRun, leaf_of
from pydantic_ai_parts import parts_of

# The tools a TestModel run calls; ``fail`` and ``ask`` get runs of their own.
CALLED = ["add", "scale", "tag", "place", "paint", "median", "count"]

# What a model that writes values as JSON text sends (a FunctionModel plays it): Pydantic AI
# checks only that the arguments are an object, so these reach the server as written.
AS_TEXT: list[tuple[str, dict[str, Any]]] = [
    ("tag", {"title": "memo", "tags": '["a", "b"]'}),
    ("place", {"point": '{"x": 1, "y": 2}'}),
    ("scale", {"value": "1.5", "factor": "3", "exact": "true"}),
    ("median", {"data": "[3, 1, 2]"}),
]


def error_of(exc: BaseException) -> Outcome:
    """An exception as data (``driver_helpers.error_of``), with the JSON-RPC code of the
    McpError a ModelRetry was raised from, when it has none of its own."""
    found = driver_helpers.error_of(exc)
    cause = leaf_of(exc).__cause__
    if found["code"] is None and isinstance(cause, Exception):  # ModelRetry from an McpError
        found["code"] = getattr(getattr(cause, "error", None), "code", None)
    return found


class Run(StepRun):
    """The report being written: each step's outcome, by name (errors as ``error_of`` gives
    them)."""

    def __init__(self) -> None:
        super().__init__(error_of)


class Handlers:
    """The elicitation handler (records each question, answers "Ada") and the progress handler."""

    def __init__(self) -> None:
        self.asked: list[Outcome] = []
        self.progress: list[Outcome] = []

    async def elicit(self, message: str, response_type: Any, params: Any, context: Any) -> str:
        self.asked.append(
            {
                "message": message,
                "requestedSchema": getattr(params, "requestedSchema", None),
                "response_type": getattr(response_type, "__name__", repr(response_type)),
            }
        )
        return "Ada"  # FastMCP wraps a scalar as {"value": ...} for a one-field schema

    async def report(self, progress: float, total: float | None, message: str | None) -> None:
        self.progress.append({"progress": progress, "total": total, "message": message})


def make_toolset(transport: str, arguments: list[str], handlers: Handlers) -> MCPToolset[Any]:
    """The toolset for the Desk, not yet entered."""
    client: Any
    if transport == "stdio":
        python, root = arguments[0], Path(arguments[1])
        client = StdioTransport(
            command=python,
            args=["-m", "objmcp", "run", f"{root / 'tests' / 'servers' / 'clients.py'}:Desk"],
            env={"PYTHONPATH": str(root)},
            cwd=str(root),
            keep_alive=False,
        )
    elif transport == "http":
        client = arguments[0]
    else:
        raise SystemExit(f"unknown transport {transport!r}: stdio or http")
    return MCPToolset(
        client,
        id="desk",
        elicitation_handler=handlers.elicit,
        progress_handler=handlers.report,
        init_timeout=STEP_TIMEOUT,
        read_timeout=STEP_TIMEOUT,
    )


async def scenario(run: Run, toolset: MCPToolset[Any], handlers: Handlers) -> None:
    """Every step, in one session of ``toolset``."""

    async def connect() -> Outcome:
        initialized = toolset.client.initialize_result
        return {
            "protocolVersion": getattr(initialized, "protocolVersion", None),
            "serverInfo": toolset.server_info.model_dump(exclude_none=True),
            "mcp_sdk_v2": int(version("mcp").split(".")[0]) >= 2,
        }

    async def list_tools() -> Outcome:
        tools = await toolset.list_tools()
        return {
            "names": sorted(tool.name for tool in tools),
            "schemas": {tool.name: tool.inputSchema for tool in tools},
        }

    def call(tool: str, arguments: dict[str, Any]) -> Callable[[], Awaitable[Outcome]]:
        async def action() -> Outcome:
            value = await toolset.direct_call_tool(tool, arguments)
            return {"value": to_jsonable_python(value, fallback=repr)}

        return action

    async def lists() -> Outcome:
        outcome: Outcome = {}
        for key, method in (
            ("resources", toolset.list_resources),
            ("templates", toolset.list_resource_templates),
            ("prompts", toolset.list_prompts),
        ):
            try:
                outcome[key] = [getattr(item, "name", None) for item in await method()]
            except Exception as exc:
                outcome[key] = {"error": error_of(exc)}
        return outcome

    async def ask() -> Outcome:
        first = len(handlers.asked)
        outcome = await call("ask", {})()
        outcome["asked"] = handlers.asked[first:]
        return outcome

    async def count() -> Outcome:
        first = len(handlers.progress)
        outcome = await call("count", {"n": 3})()
        outcome["notifications"] = handlers.progress[first:]
        return outcome

    def agent_run(tools: list[str]) -> Callable[[], Awaitable[Outcome]]:
        """A whole agent run, offline: TestModel calls ``tools`` and then answers."""

        async def action() -> Outcome:
            agent = Agent(TestModel(call_tools=tools), toolsets=[toolset])
            with capture_run_messages() as messages:
                try:
                    result = await agent.run("Use the desk.")
                    outcome: Outcome = {"output": result.output}
                except Exception as exc:  # the run's messages are still worth reporting
                    outcome = {"raised": error_of(exc)}
            return {**outcome, **parts_of(messages)}

        return action

    def as_text(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        """The FunctionModel: first the calls of ``AS_TEXT``, then an answer."""
        if any(isinstance(message, ModelResponse) for message in messages):
            return ModelResponse(parts=[TextPart("done")])
        return ModelResponse(
            parts=[
                ToolCallPart(tool, args, tool_call_id=f"text_{index}")
                for index, (tool, args) in enumerate(AS_TEXT)
            ]
        )

    async def agent_run_as_text() -> Outcome:
        agent = Agent(FunctionModel(as_text), toolsets=[toolset])
        with capture_run_messages() as messages:
            try:
                result = await agent.run("Use the desk.")
                outcome: Outcome = {"output": result.output}
            except Exception as exc:
                outcome = {"raised": error_of(exc)}
        return {**outcome, **parts_of(messages)}

    async def fail_as_failed() -> Outcome:
        """The same run with ``tool_error_behavior='failed'``: the model is shown the error."""
        toolset.tool_error_behavior = "failed"
        try:
            return await agent_run(["fail"])()
        finally:
            toolset.tool_error_behavior = "retry"

    await run.step("connect", connect)
    await run.step("list_tools", list_tools)
    await run.step("add", call("add", {"a": 2, "b": 3}))
    await run.step("scale", call("scale", {"value": 1.5, "factor": 3, "exact": True}))
    await run.step("tag_list", call("tag", {"title": "memo", "tags": ["a", "b"]}))
    await run.step("tag_none", call("tag", {"title": "memo"}))
    await run.step("place", call("place", {"point": {"x": 1, "y": 2}}))
    await run.step("paint", call("paint", {"color": "red"}))
    await run.step("median", call("median", {"data": [3, 1, 2]}))
    await run.step("fail", call("fail", {"message": "boom"}))
    await run.step("unknown_tool", call("no_such_tool", {}))
    await run.step("after_unknown_tool", call("add", {"a": 1, "b": 1}))
    await run.step("desk_lists", lists)
    await run.step("after_desk_lists", call("add", {"a": 2, "b": 2}))
    await run.step("elicitation", ask)
    await run.step("progress", count)
    await run.step("agent_run", agent_run(CALLED))
    await run.step("agent_run_fail", agent_run(["fail"]))
    await run.step("agent_run_fail_failed", fail_as_failed)
    await run.step("agent_run_ask", agent_run(["ask"]))
    await run.step("agent_run_json_text", agent_run_as_text)


async def main(arguments: list[str]) -> Outcome:
    """Run every step; the report."""
    transport = arguments[0]
    run = Run()
    handlers = Handlers()
    toolset = make_toolset(transport, arguments[1:], handlers)
    try:
        async with toolset:
            await scenario(run, toolset, handlers)
        run.steps["session"] = {"closed": True}
    except Exception as exc:
        run.steps["session"] = {"error": error_of(exc)}
    return {
        "client": (
            f"pydantic-ai-slim {version('pydantic-ai-slim')} "
            f"(fastmcp-slim {version('fastmcp-slim')}, mcp {version('mcp')})"
        ),
        "transport": transport,
        "steps": run.steps,
    }


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        raise SystemExit(__doc__)
    print(json.dumps(asyncio.run(main(sys.argv[1:])), default=repr))
