"""Driver: the OpenAI Agents SDK (``openai-agents`` 0.24, ``agents.mcp``) against objmcp's
``tests/servers/clients.py:Desk``, every scenario step in one run; or the SDK's strict-mode
conversions of every tool of every test fixture, in one run.

Runs under ``.venv-clients/bin/python`` (the SDK is not installed in the main test environment),
started by ``tests/peers/test_client_openai_agents.py``::

    openai_agents.py stdio PYTHON ROOT  # MCPServerStdio spawns PYTHON -m objmcp run ROOT/tests/...
    openai_agents.py http DESK_URL      # MCPServerStreamableHttp to a running objmcp run --http
    openai_agents.py strict TOOLS_JSON  # the strict conversions of the tools in a file

In ``strict`` mode no server runs: TOOLS_JSON maps a label (a fixture's TARGET) to the tool
definitions objmcp serves for it (``tools/list``'s, as ``Toolbox.specs("mcp")`` writes them), and
each becomes an ``mcp.types.Tool`` that goes through both conversions described below. It prints
``{"client": ..., "mode": "strict", "tools": {label: {name: outcome}}}``, an outcome being
``{"ensure_strict": ..., "function_tool": ...}`` as the ``strict_schemas`` and ``function_tools``
steps write them, or ``{"error": ...}`` if the tool could not even be read.

It connects the SDK's own server object (``connect``), lists the tools, calls each through
``call_tool``, checks every tool's input schema with the SDK's strict-mode converter
(``agents.strict_schema.ensure_strict_json_schema``) and its MCP-to-FunctionTool conversion
(``MCPUtil.to_function_tool`` with ``convert_schemas_to_strict=True``, which falls back to a
non-strict tool when the converter refuses a schema), then runs a whole agent offline: the SDK's
``ScriptedModel`` asks for tool calls as a strict-mode model would write them, and the runner
sends them through the MCP server. It prints ONE JSON object on stdout:
``{"client": ..., "transport": ..., "steps": {name: outcome}}``. An outcome is what the step
observed or, when the step raised, ``{"error": {"type", "message", "code"}}``; a failing step
never stops the run.
"""

from __future__ import annotations

import os

# Before the SDK is imported: its flags are read at import time. No trace is exported (there is
# no API key, and nothing leaves the machine), and the reason a schema is not made strict is logged.
os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
os.environ["OPENAI_AGENTS_DONT_LOG_TOOL_DATA"] = "0"

import asyncio
import copy
import json
import logging
import sys
from collections.abc import Awaitable, Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

from agents import Agent, FunctionTool, Runner, set_tracing_disabled
from agents.items import ToolCallOutputItem
from agents.mcp import MCPServer, MCPServerStdio, MCPServerStreamableHttp, MCPUtil
from agents.strict_schema import ensure_strict_json_schema
from agents.testing import ScriptedModel, assistant_message, function_call
from mcp.types import Tool as MCPTool

# driver_helpers.py, beside this file; its folder goes last on sys.path (see its docstring)
sys.path.append(str(Path(__file__).resolve().parent))
from driver_helpers import STEP_TIMEOUT, Outcome, error_of
from driver_helpers import StepRun as Run

# The calls the scripted model makes in the agent run, as a model bound by the strict schemas
# writes them: every property present, null for an optional one it leaves unset.
AGENT_CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "call_add": ("add", {"a": 2, "b": 3}),
    "call_scale": ("scale", {"value": 1.5, "factor": 3, "exact": True}),
    "call_tag": ("tag", {"title": "memo", "tags": ["a", "b"]}),
    "call_tag_null": ("tag", {"title": "memo", "tags": None}),
    "call_place": ("place", {"point": {"x": 1, "y": 2}}),
    "call_paint": ("paint", {"color": "red"}),
    "call_median": ("median", {"data": [3, 1, 2]}),
    "call_fail": ("fail", {"message": "boom"}),
}


class Logged(logging.Handler):
    """Keeps the SDK's log records (``openai.agents``), to read why a schema stayed non-strict."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())

    def since(self, mark: int, prefix: str) -> list[str]:
        return [message for message in self.messages[mark:] if message.startswith(prefix)]


def result_of(result: Any) -> Outcome:
    """A CallToolResult as data: its joined text, ``isError`` and structured content."""
    text = "".join(getattr(block, "text", "") for block in result.content)
    return {
        "text": text,
        "isError": result.isError,
        "kinds": [block.type for block in result.content],
        "structured": result.structuredContent,
    }


def strict_outcome(schema: dict[str, Any]) -> Outcome:
    """The SDK's own strict converter on a copy of ``schema``: the strict schema, or why not."""
    try:
        return {"ok": True, "schema": ensure_strict_json_schema(copy.deepcopy(schema))}
    except Exception as exc:
        return {"ok": False, "failure": error_of(exc)}


def function_tool_outcome(tool: MCPTool, server: MCPServer, logged: Logged) -> Outcome:
    """``MCPUtil.to_function_tool(..., convert_schemas_to_strict=True)`` for ``tool``: is the
    FunctionTool strict, with what schema, and if not, what the SDK logged as the cause."""
    mark = len(logged.messages)
    converted = MCPUtil.to_function_tool(tool, server, True)
    return {
        "strict": converted.strict_json_schema,
        "schema": converted.params_json_schema,
        "fallback": logged.since(mark, "Error converting MCP schema to strict mode"),
    }


def make_server(transport: str, arguments: list[str]) -> MCPServer:
    """The SDK's server object for the Desk, not yet connected."""
    if transport == "stdio":
        python, root = arguments[0], Path(arguments[1])
        target = f"{root / 'tests' / 'servers' / 'clients.py'}:Desk"
        return MCPServerStdio(
            params={
                "command": python,
                "args": ["-m", "objmcp", "run", target],
                "env": {"PYTHONPATH": str(root)},
                "cwd": str(root),
            },
            name="desk",
            client_session_timeout_seconds=STEP_TIMEOUT,
        )
    if transport == "http":
        return MCPServerStreamableHttp(
            params={"url": arguments[0], "timeout": STEP_TIMEOUT},
            name="desk",
            client_session_timeout_seconds=STEP_TIMEOUT,
        )
    raise SystemExit(f"unknown transport {transport!r}: stdio or http")


async def scenario(run: Run, server: MCPServer, logged: Logged) -> None:
    """Every step, on one connected server."""
    listed: list[Any] = []

    async def connect() -> Outcome:
        await server.connect()
        result = getattr(server, "server_initialize_result", None)
        return {
            "protocolVersion": getattr(result, "protocolVersion", None),
            "serverInfo": result.serverInfo.model_dump(exclude_none=True) if result else None,
        }

    async def list_tools() -> Outcome:
        listed[:] = await server.list_tools()
        return {
            "names": sorted(tool.name for tool in listed),
            "schemas": {tool.name: tool.inputSchema for tool in listed},
        }

    def call(tool: str, arguments: dict[str, Any]) -> Callable[[], Awaitable[Outcome]]:
        async def action() -> Outcome:
            return result_of(await server.call_tool(tool, arguments))

        return action

    async def lists() -> Outcome:
        outcome: Outcome = {}
        for key, method in (
            ("resources", server.list_resources),
            ("templates", server.list_resource_templates),
            ("prompts", server.list_prompts),
        ):
            try:
                page = await method()
                items = getattr(page, key if key != "templates" else "resourceTemplates")
                outcome[key] = [getattr(item, "name", None) for item in items]
            except Exception as exc:
                outcome[key] = {"error": error_of(exc)}
        return outcome

    async def strict_schemas() -> Outcome:
        """The SDK's own strict converter on each tool's inputSchema, as it is listed."""
        return {tool.name: strict_outcome(tool.inputSchema) for tool in listed}

    async def function_tools() -> Outcome:
        """Each tool made a strict FunctionTool, or not (:func:`function_tool_outcome`)."""
        return {tool.name: function_tool_outcome(tool, server, logged) for tool in listed}

    async def agent_run() -> Outcome:
        """A whole agent run offline: the scripted model calls tools, then answers."""
        model = ScriptedModel(
            [
                [
                    function_call(tool, args, call_id=cid)
                    for cid, (tool, args) in AGENT_CALLS.items()
                ],
                [assistant_message("done")],
            ]
        )
        agent = Agent(
            name="desk-agent",
            instructions="Use the desk.",
            model=model,
            mcp_servers=[server],
            mcp_config={"convert_schemas_to_strict": True},
        )
        result = await Runner.run(agent, "Use every tool.")
        outputs: Outcome = {}
        for item in result.new_items:
            if isinstance(item, ToolCallOutputItem) and item.call_id is not None:
                outputs[item.call_id] = item.output
        offered = model.calls[0].tools if model.calls else []
        return {
            "final_output": result.final_output,
            "outputs": outputs,
            "offered": {
                tool.name: tool.strict_json_schema
                for tool in offered
                if isinstance(tool, FunctionTool)
            },
        }

    await run.step("connect", connect)
    await run.step("list_tools", list_tools)
    await run.step("add", call("add", {"a": 2, "b": 3}))
    await run.step("scale", call("scale", {"value": 1.5, "factor": 3, "exact": True}))
    await run.step("tag_list", call("tag", {"title": "memo", "tags": ["a", "b"]}))
    await run.step("tag_none", call("tag", {"title": "memo"}))
    await run.step("tag_null", call("tag", {"title": "memo", "tags": None}))
    await run.step("tag_json_string", call("tag", {"title": "memo", "tags": '["a", "b"]'}))
    await run.step("place", call("place", {"point": {"x": 1, "y": 2}}))
    await run.step("place_json_string", call("place", {"point": '{"x": 1, "y": 2}'}))
    await run.step("paint", call("paint", {"color": "red"}))
    await run.step("median", call("median", {"data": [3, 1, 2]}))
    await run.step("fail", call("fail", {"message": "boom"}))
    await run.step("unknown_tool", call("no_such_tool", {}))
    await run.step("after_unknown_tool", call("add", {"a": 1, "b": 1}))
    await run.step("desk_lists", lists)
    await run.step("after_desk_lists", call("add", {"a": 2, "b": 2}))
    await run.step("strict_schemas", strict_schemas)
    await run.step("function_tools", function_tools)
    await run.step("agent_run", agent_run)


def sweep(path: Path, logged: Logged) -> Outcome:
    """``strict TOOLS_JSON``: both strict conversions of every tool in the file, by label."""
    # Never connected: to_function_tool only reads a server's approval and error policies.
    server = MCPServerStdio(params={"command": sys.executable}, name="fixtures")
    labelled: dict[str, list[dict[str, Any]]] = json.loads(path.read_text(encoding="utf-8"))
    report: dict[str, dict[str, Outcome]] = {}
    for label, specs in labelled.items():
        outcomes: dict[str, Outcome] = {}
        report[label] = outcomes
        for spec in specs:
            try:
                tool = MCPTool.model_validate(spec)
                outcomes[tool.name] = {
                    "ensure_strict": strict_outcome(tool.inputSchema),
                    "function_tool": function_tool_outcome(tool, server, logged),
                }
            except Exception as exc:
                outcomes[str(spec.get("name"))] = {"error": error_of(exc)}
    return report


def client() -> str:
    """The SDK's version, and that of the ``mcp`` SDK under it."""
    return f"openai-agents {version('openai-agents')} (mcp {version('mcp')})"


async def main(arguments: list[str]) -> Outcome:
    """Run every step (or, in ``strict`` mode, the conversions); the report."""
    set_tracing_disabled(True)
    logged = Logged()
    sdk_logger = logging.getLogger("openai.agents")
    sdk_logger.addHandler(logged)
    sdk_logger.setLevel(logging.DEBUG)
    sdk_logger.propagate = False  # nothing on stderr but real trouble; stdout is the report's
    transport = arguments[0]
    if transport == "strict":
        return {"client": client(), "mode": "strict", "tools": sweep(Path(arguments[1]), logged)}
    run = Run()
    server = make_server(transport, arguments[1:])
    try:
        await scenario(run, server, logged)
    finally:
        try:
            await server.cleanup()
            run.steps["cleanup"] = {"closed": True}
        except Exception as exc:
            run.steps["cleanup"] = {"error": error_of(exc)}
    return {
        "client": client(),
        "transport": transport,
        "steps": run.steps,
    }


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        raise SystemExit(__doc__)
    print(json.dumps(asyncio.run(main(sys.argv[1:])), default=repr))
