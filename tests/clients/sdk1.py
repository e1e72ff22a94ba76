"""Driver: the official MCP Python SDK **1.x** client (``mcp`` 1.30, ``mcp.ClientSession``)
against objmcp's ``tests/servers/clients.py`` servers, every scenario step in one run.

Runs under ``.venv-clients/bin/python`` (the 1.x SDK; the main test environment has the 2.x
one), started by ``tests/peers/test_client_sdk1.py``::

    sdk1.py stdio PYTHON ROOT          # spawns PYTHON -m objmcp run ROOT/tests/servers/clients.py:…
    sdk1.py http DESK_URL LIBRARY_URL  # servers already running (objmcp run --http)

It opens a session to ``Desk`` (tools only) and one to ``Library`` (tools, a resource, a
template, a prompt), performs each step, and prints ONE JSON object on stdout:
``{"client": ..., "transport": ..., "steps": {name: outcome}}``. An outcome is what the step
observed (``text`` and ``isError`` for a tool call, the listed names, ...) or, when the step
raised, ``{"error": {"type", "message", "code"}}``. A failing step never stops the run. When
a step ends the session (the SDK gives a session up on an HTTP error status, or a step times
out), the next steps run in a new session, except a step checking that the session survived
(``after_...``), reported as not run; ``<server>.session`` lists the sessions that ended so.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import timedelta
from importlib.metadata import version
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.context import RequestContext
from pydantic import AnyUrl

# driver_helpers.py, beside this file; its folder goes last on sys.path (see its docstring)
sys.path.append(str(Path(__file__).resolve().parent))
from driver_helpers import STEP_TIMEOUT, Outcome, SessionRun, Step, error_of

Action = Callable[[ClientSession], Awaitable[Outcome]]
Connect = Callable[[], AbstractAsyncContextManager[ClientSession]]


class Run(SessionRun[ClientSession]):
    """The report being written: each step's outcome, by name."""


class Questions:
    """The elicitation callback: records each question, answers accept with ``{"value": "Ada"}``."""

    def __init__(self) -> None:
        self.asked: list[Outcome] = []

    async def __call__(
        self, context: RequestContext[ClientSession, Any], params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        self.asked.append(params.model_dump(mode="json", by_alias=True, exclude_none=True))
        return types.ElicitResult(action="accept", content={"value": "Ada"})


def connector(
    transport: str,
    target: str,
    root: Path | None,
    python: str | None,
    questions: Questions,
    initialized: list[types.InitializeResult],
) -> Connect:
    """How to open an initialized session to ``target`` (a TARGET for stdio, a URL for HTTP);
    each handshake's result is appended to ``initialized``."""

    @asynccontextmanager
    async def connect() -> AsyncIterator[ClientSession]:
        timeout = timedelta(seconds=STEP_TIMEOUT)
        if transport == "stdio":
            assert python is not None and root is not None
            server = StdioServerParameters(
                command=python,
                args=["-m", "objmcp", "run", target],
                env={"PYTHONPATH": str(root)},
                cwd=str(root),
            )
            async with (
                stdio_client(server) as (read, write),
                ClientSession(read, write, timeout, elicitation_callback=questions) as session,
            ):
                initialized.append(await session.initialize())
                yield session
        else:
            async with (
                streamable_http_client(target) as (read, write, _),
                ClientSession(read, write, timeout, elicitation_callback=questions) as session,
            ):
                initialized.append(await session.initialize())
                yield session

    return connect


def text_of(result: types.CallToolResult) -> Outcome:
    """A tool result as data: its joined text, ``isError`` and structured content."""
    text = "".join(block.text for block in result.content if isinstance(block, types.TextContent))
    return {
        "text": text,
        "isError": result.isError,
        "kinds": [block.type for block in result.content],
        "structured": result.structuredContent,
    }


def call(name: str, tool: str, arguments: dict[str, Any], follows: bool = False) -> Step:
    """A step calling ``tool`` with ``arguments``."""

    async def action(session: ClientSession) -> Outcome:
        return text_of(await session.call_tool(tool, arguments))

    return Step(name, action, follows)


async def lists(session: ClientSession) -> Outcome:
    """resources/list, resources/templates/list and prompts/list, each recorded on its own."""
    outcome: Outcome = {}
    try:
        outcome["resources"] = [str(r.uri) for r in (await session.list_resources()).resources]
    except Exception as exc:
        outcome["resources"] = {"error": error_of(exc)}
    try:
        templates = (await session.list_resource_templates()).resourceTemplates
        outcome["templates"] = [t.uriTemplate for t in templates]
    except Exception as exc:
        outcome["templates"] = {"error": error_of(exc)}
    try:
        prompts = (await session.list_prompts()).prompts
        outcome["prompts"] = {
            p.name: [a.model_dump(exclude_none=True) for a in p.arguments or []] for p in prompts
        }
    except Exception as exc:
        outcome["prompts"] = {"error": error_of(exc)}
    return outcome


def desk_steps(questions: Questions, initialized: list[types.InitializeResult]) -> list[Step]:
    """Every tool step, on the Desk."""

    async def initialize(session: ClientSession) -> Outcome:
        result = initialized[0]  # the first session's handshake
        return {
            "protocolVersion": result.protocolVersion,
            "serverInfo": result.serverInfo.model_dump(exclude_none=True),
            "capabilities": sorted(result.capabilities.model_dump(exclude_none=True)),
        }

    async def list_tools(session: ClientSession) -> Outcome:
        tools = (await session.list_tools()).tools
        return {
            "names": sorted(tool.name for tool in tools),
            "schemas": {tool.name: tool.inputSchema for tool in tools},
            "descriptions": {tool.name: tool.description for tool in tools},
        }

    async def ask(session: ClientSession) -> Outcome:
        first = len(questions.asked)
        outcome = text_of(await session.call_tool("ask", {}))
        outcome["asked"] = questions.asked[first:]
        return outcome

    async def count(session: ClientSession) -> Outcome:
        notes: list[Outcome] = []

        async def report(progress: float, total: float | None, message: str | None) -> None:
            notes.append({"progress": progress, "total": total, "message": message})

        outcome = text_of(await session.call_tool("count", {"n": 3}, progress_callback=report))
        outcome["notifications"] = notes
        return outcome

    return [
        Step("initialize", initialize),
        Step("list_tools", list_tools),
        call("add", "add", {"a": 2, "b": 3}),
        call("scale", "scale", {"value": 1.5, "factor": 3, "exact": True}),
        call("tag_list", "tag", {"title": "memo", "tags": ["a", "b"]}),
        call("tag_none", "tag", {"title": "memo"}),
        call("tag_json_string", "tag", {"title": "memo", "tags": '["a"]'}),
        call("place", "place", {"point": {"x": 1, "y": 2}}),
        call("place_json_string", "place", {"point": '{"x": 1, "y": 2}'}),
        call("paint", "paint", {"color": "red"}),
        call("median", "median", {"data": [3, 1, 2]}),
        call("fail", "fail", {"message": "boom"}),
        call("unknown_tool", "no_such_tool", {}),
        call("after_unknown_tool", "add", {"a": 1, "b": 1}, follows=True),
        Step("desk_lists", lists),
        call("after_desk_lists", "add", {"a": 2, "b": 2}, follows=True),
        Step("elicitation", ask),
        Step("progress", count),
        call("after_progress", "add", {"a": 3, "b": 3}, follows=True),
    ]


def library_steps(initialized: list[types.InitializeResult]) -> list[Step]:
    """The documents steps, on the Library."""

    async def initialize(session: ClientSession) -> Outcome:
        result = initialized[0]
        return {"capabilities": sorted(result.capabilities.model_dump(exclude_none=True))}

    def read(uri: str) -> Action:
        async def action(session: ClientSession) -> Outcome:
            contents = (await session.read_resource(AnyUrl(uri))).contents
            return {
                "contents": [
                    {
                        "uri": str(item.uri),
                        "mimeType": item.mimeType,
                        "text": getattr(item, "text", None),
                    }
                    for item in contents
                ]
            }

        return action

    async def prompt(session: ClientSession) -> Outcome:
        result = await session.get_prompt("review", {"topic": "objmcp"})
        messages = [
            {"role": m.role, "text": getattr(m.content, "text", None)} for m in result.messages
        ]
        return {"messages": messages}

    return [
        Step("library_initialize", initialize),
        Step("library_lists", lists),
        Step("library_read", read("library://readme")),
        Step("library_read_template", read("library://books/7")),
        Step("library_prompt", prompt),
        call("library_add", "add", {"a": 20, "b": 22}),
    ]


async def main(arguments: list[str]) -> Outcome:
    """Run every step; the report."""
    transport = arguments[0]
    run = Run()
    questions = Questions()
    desk_initialized: list[types.InitializeResult] = []
    library_initialized: list[types.InitializeResult] = []
    if transport == "stdio":
        python, root = arguments[1], Path(arguments[2])
        fixture = root / "tests" / "servers" / "clients.py"
        desk, library = f"{fixture}:Desk", f"{fixture}:Library"
    elif transport == "http":
        python, root = None, None
        desk, library = arguments[1], arguments[2]
    else:
        raise SystemExit(f"unknown transport {transport!r}: stdio or http")
    connect_desk = connector(transport, desk, root, python, questions, desk_initialized)
    connect_library = connector(transport, library, root, python, questions, library_initialized)
    await run.sessions("desk", connect_desk, desk_steps(questions, desk_initialized))
    await run.sessions("library", connect_library, library_steps(library_initialized))
    return {"client": f"mcp {version('mcp')}", "transport": transport, "steps": run.steps}


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    print(json.dumps(anyio.run(main, sys.argv[1:]), default=repr))
