"""Driver: ``langchain-mcp-adapters`` (0.3, on the MCP Python SDK 1.x) against objmcp's
``tests/servers/clients.py`` servers, every scenario step in one run.

Runs under ``.venv-clients/bin/python``, started by ``tests/peers/test_client_langchain.py``::

    langchain_adapters.py stdio PYTHON ROOT  # spawns PYTHON -m objmcp run ROOT/tests/servers/...
    langchain_adapters.py http DESK_URL LIBRARY_URL  # servers running (objmcp run --http)

The way the adapter's documentation shows: a ``MultiServerMCPClient`` with both servers and
``Callbacks`` (``on_elicitation`` answering accept with ``{"value": "Ada"}``, ``on_progress``
collecting notifications), ``client.session(name)`` and ``load_mcp_tools(session)``, then
``tool.ainvoke(arguments)`` on the LangChain tools; resources through ``load_mcp_resources``
and ``client.get_resources``, the prompt through ``load_mcp_prompt`` and ``client.get_prompt``,
and once ``client.get_tools()`` (a new session for each call). A tool-call interceptor records
the arguments the adapter actually sends. Prints ONE JSON object on stdout:
``{"client": ..., "transport": ..., "steps": {name: outcome}}``; a step that raised is
``{"error": {"type", "message", "code"}}``. A failing step never stops the run. When a
step ends the session (the SDK gives a session up on an HTTP error status, or a step times
out), the next steps run in a new session, except a step checking that the session survived
(``after_...``), reported as not run; ``<server>.session`` lists the sessions that ended so.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

import anyio
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool
from langchain_mcp_adapters.callbacks import CallbackContext, Callbacks
from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_mcp_adapters.interceptors import MCPToolCallRequest
from langchain_mcp_adapters.prompts import load_mcp_prompt
from langchain_mcp_adapters.resources import load_mcp_resources
from langchain_mcp_adapters.sessions import Connection
from langchain_mcp_adapters.tools import load_mcp_tools
from mcp import ClientSession, types
from mcp.shared.context import RequestContext

# driver_helpers.py, beside this file; its folder goes last on sys.path (see its docstring)
sys.path.append(str(Path(__file__).resolve().parent))
from driver_helpers import (
    STEP_TIMEOUT,
    Outcome,
    SessionGivenUp,
    SessionRun,
    Step,
    error_of,
)


def plain(value: Any) -> Any:
    """What ``ainvoke`` returned, as JSON: content blocks as they are (their random ``id``
    dropped), messages and blobs by their fields."""
    if isinstance(value, ToolMessage):
        return {
            "message": "ToolMessage",
            "status": value.status,
            "content": plain(value.content),
            "artifact": value.artifact,
        }
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: item for key, item in value.items() if key != "id"}
    return value


def text_of(value: Any) -> str | None:
    """The joined text of what ``ainvoke`` returned (a string, or a list of content blocks)."""
    if isinstance(value, ToolMessage):
        value = value.content
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(
            block.get("text", "") if isinstance(block, dict) else str(block) for block in value
        )
    return None


@dataclass
class Link:
    """A session of the client's and the LangChain tools loaded on it (none: the steps open
    sessions of their own)."""

    session: ClientSession | None = None
    tools: dict[str, BaseTool] = field(default_factory=dict)
    loaded: Outcome = field(default_factory=dict)  # what load_mcp_tools gave, or its error


class Run(SessionRun[Link]):
    """The report being written, and what the callbacks and the interceptor saw."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[Outcome] = []  # each tool call's name and arguments, as sent
        self.asked: list[Outcome] = []
        self.progress: list[Outcome] = []

    async def step(self, step: Step, link: Link) -> None:
        """Run one step and record what it observed (and the tool calls it sent), or how it
        failed."""
        first = len(self.sent)
        try:
            with anyio.fail_after(STEP_TIMEOUT):
                outcome = await step.action(link)
        except TimeoutError as exc:
            self.steps[step.name] = {"error": error_of(exc)}
            raise SessionGivenUp(f"{step.name} timed out") from exc
        except Exception as exc:
            outcome = {"error": error_of(exc), "trace": traceback.format_exception(exc)[-2:]}
        if len(self.sent) > first:
            outcome["sent"] = self.sent[first:]
        self.steps[step.name] = outcome

    async def intercept(self, request: MCPToolCallRequest, handler: Any) -> Any:
        """The tool-call interceptor: record the request, pass it on."""
        self.sent.append({"name": request.name, "args": request.args})
        return await handler(request)

    async def on_elicitation(
        self,
        mcp_context: RequestContext[ClientSession, Any],
        params: types.ElicitRequestParams,
        context: CallbackContext,
    ) -> types.ElicitResult:
        self.asked.append(
            {
                "params": params.model_dump(mode="json", by_alias=True, exclude_none=True),
                "server": context.server_name,
                "tool": context.tool_name,
            }
        )
        return types.ElicitResult(action="accept", content={"value": "Ada"})

    async def on_progress(
        self, progress: float, total: float | None, message: str | None, context: CallbackContext
    ) -> None:
        self.progress.append(
            {"progress": progress, "total": total, "message": message, "tool": context.tool_name}
        )


def connector(
    run: Run, client: MultiServerMCPClient, name: str
) -> Callable[[], AbstractAsyncContextManager[Link]]:
    """How to open ``client.session(name)`` and load its tools with ``load_mcp_tools``."""

    @asynccontextmanager
    async def connect() -> AsyncIterator[Link]:
        async with client.session(name) as session:
            link = Link(session)
            try:
                loaded = await load_mcp_tools(
                    session,
                    callbacks=client.callbacks,
                    tool_interceptors=[run.intercept],
                    server_name=name,
                )
            except Exception as exc:
                link.loaded = {"error": error_of(exc)}
            else:
                link.tools = {tool.name: tool for tool in loaded}
            yield link

    return connect


@asynccontextmanager
async def no_session() -> AsyncIterator[Link]:
    """The link for steps that open sessions of their own."""
    yield Link()


def invoke(name: str, tool: str, arguments: dict[str, Any], follows: bool = False) -> Step:
    """A step: ``tool.ainvoke(arguments)``, the way an agent's code calls a tool."""

    async def action(link: Link) -> Outcome:
        value = await link.tools[tool].ainvoke(arguments)
        return {"text": text_of(value), "value": plain(value)}

    return Step(name, action, follows)


def invoke_as_call(name: str, tool: str, arguments: dict[str, Any]) -> Step:
    """A step: ``ainvoke`` with a model's tool call, which answers a ``ToolMessage`` (its
    ``status`` says whether the tool failed), the way an agent loop calls a tool."""

    async def action(link: Link) -> Outcome:
        call = {"type": "tool_call", "id": "call-1", "name": tool, "args": arguments}
        value = await link.tools[tool].ainvoke(call)
        return {"text": text_of(value), "value": plain(value)}

    return Step(name, action)


def blobs(found: list[Any]) -> Outcome:
    """LangChain blobs as data."""
    return {
        "blobs": [
            {
                "data": blob.as_string(),
                "mime_type": blob.mimetype,
                "uri": str(blob.metadata.get("uri")),
            }
            for blob in found
        ]
    }


def session_of(link: Link) -> ClientSession:
    assert link.session is not None
    return link.session


def desk_steps(run: Run) -> list[Step]:
    """Every tool step, on the Desk, through a session of the client's."""

    async def load(link: Link) -> Outcome:
        if "error" in link.loaded:
            return link.loaded
        return {
            "names": sorted(link.tools),
            "schemas": {name: tool.args_schema for name, tool in link.tools.items()},
            "args": {name: tool.args for name, tool in link.tools.items()},
        }

    async def unknown(link: Link) -> Outcome:
        # The adapter offers only listed tools; an agent can still be steered to a stale name,
        # which ends as the SDK's call_tool on a name the server does not know.
        result = await session_of(link).call_tool("no_such_tool", {})
        return {"isError": result.isError, "text": str(result.content)}

    async def resources(link: Link) -> Outcome:
        return blobs(await load_mcp_resources(session_of(link)))

    async def ask(link: Link) -> Outcome:
        first = len(run.asked)
        outcome = await invoke("", "ask", {}).action(link)
        outcome["asked"] = run.asked[first:]
        return outcome

    async def count(link: Link) -> Outcome:
        first = len(run.progress)
        outcome = await invoke("", "count", {"n": 3}).action(link)
        outcome["notifications"] = run.progress[first:]
        return outcome

    return [
        Step("load_tools", load),
        invoke("add", "add", {"a": 2, "b": 3}),
        invoke("scale", "scale", {"value": 1.5, "factor": 3, "exact": True}),
        invoke("tag_list", "tag", {"title": "memo", "tags": ["a", "b"]}),
        invoke("tag_none", "tag", {"title": "memo"}),
        invoke("place", "place", {"point": {"x": 1, "y": 2}}),
        # What a model sometimes writes for a list or an object: the adapter passes it on as is.
        invoke("tag_json_string", "tag", {"title": "memo", "tags": '["a"]'}),
        invoke("place_json_string", "place", {"point": '{"x": 1, "y": 2}'}),
        invoke("paint", "paint", {"color": "red"}),
        invoke("median", "median", {"data": [3, 1, 2]}),
        invoke("fail", "fail", {"message": "boom"}),
        invoke_as_call("fail_tool_call", "fail", {"message": "boom"}),
        invoke_as_call("add_tool_call", "add", {"a": 2, "b": 3}),
        Step("unknown_tool", unknown),
        invoke("after_unknown_tool", "add", {"a": 1, "b": 1}, follows=True),
        Step("desk_resources", resources),
        invoke("after_desk_resources", "add", {"a": 2, "b": 2}, follows=True),
        Step("elicitation", ask),
        Step("progress", count),
        invoke("after_progress", "add", {"a": 3, "b": 3}, follows=True),
    ]


def library_steps() -> list[Step]:
    """The documents steps, on the Library, through a session of the client's."""

    async def resources(link: Link) -> Outcome:
        return blobs(await load_mcp_resources(session_of(link)))

    async def template(link: Link) -> Outcome:
        return blobs(await load_mcp_resources(session_of(link), uris="library://books/7"))

    async def prompt(link: Link) -> Outcome:
        found = await load_mcp_prompt(session_of(link), "review", arguments={"topic": "objmcp"})
        return {"messages": [{"type": m.type, "content": m.content} for m in found]}

    return [
        Step("library_resources", resources),
        Step("library_template", template),
        Step("library_prompt", prompt),
    ]


def client_steps(run: Run, client: MultiServerMCPClient) -> list[Step]:
    """The client's own one-call helpers, each opening a session of its own."""
    tools: dict[str, BaseTool] = {}

    async def get_tools(link: Link) -> Outcome:
        tools.update({tool.name: tool for tool in await client.get_tools(server_name="library")})
        return {"names": sorted(tools)}

    async def add(link: Link) -> Outcome:
        return {"text": text_of(await tools["add"].ainvoke({"a": 40, "b": 2}))}

    async def ask(link: Link) -> Outcome:
        first = len(run.asked)
        value = await tools["ask"].ainvoke({})
        return {"text": text_of(value), "asked": run.asked[first:]}

    async def count(link: Link) -> Outcome:
        first = len(run.progress)
        value = await tools["count"].ainvoke({"n": 3})
        return {"text": text_of(value), "notifications": run.progress[first:]}

    def get_resources(server: str) -> Callable[[Link], Awaitable[Outcome]]:
        async def action(link: Link) -> Outcome:
            return blobs(await client.get_resources(server))

        return action

    async def get_prompt(link: Link) -> Outcome:
        found = await client.get_prompt("library", "review", arguments={"topic": "objmcp"})
        return {"messages": [{"type": m.type, "content": m.content} for m in found]}

    return [
        Step("client_get_tools", get_tools),
        Step("client_add", add),
        Step("client_elicitation", ask),
        Step("client_progress", count),
        Step("client_desk_resources", get_resources("desk")),
        Step("client_library_resources", get_resources("library")),
        Step("client_library_prompt", get_prompt),
    ]


async def main(arguments: list[str]) -> Outcome:
    """Run every step; the report."""
    transport = arguments[0]
    connections: dict[str, Connection]
    if transport == "stdio":
        python, root = arguments[1], Path(arguments[2])
        fixture = root / "tests" / "servers" / "clients.py"
        connections = {
            name: {
                "transport": "stdio",
                "command": python,
                "args": ["-m", "objmcp", "run", f"{fixture}:{target}"],
                "env": {"PYTHONPATH": str(root)},
                "cwd": str(root),
            }
            for name, target in (("desk", "Desk"), ("library", "Library"))
        }
    elif transport == "http":
        connections = {
            "desk": {"transport": "streamable_http", "url": arguments[1]},
            "library": {"transport": "streamable_http", "url": arguments[2]},
        }
    else:
        raise SystemExit(f"unknown transport {transport!r}: stdio or http")

    run = Run()
    client = MultiServerMCPClient(
        connections,
        callbacks=Callbacks(on_elicitation=run.on_elicitation, on_progress=run.on_progress),
    )
    await run.sessions("desk", connector(run, client, "desk"), desk_steps(run))
    await run.sessions("library", connector(run, client, "library"), library_steps())
    await run.sessions("client", no_session, client_steps(run, client))
    return {
        "client": f"langchain-mcp-adapters {version('langchain-mcp-adapters')}",
        "sdk": f"mcp {version('mcp')}",
        "transport": transport,
        "steps": run.steps,
    }


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    print(json.dumps(anyio.run(main, sys.argv[1:]), default=repr))
