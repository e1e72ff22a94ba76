"""Driver: the official MCP Python SDK **1.x** client's experimental tasks (``mcp`` 1.30,
``session.experimental``) against objmcp's ``tests/servers/jobs.py``, in 2025-11-25.

Runs under ``.venv-clients/bin/python``, started by ``tests/peers/test_client_sdk1_tasks.py``::

    sdk1_tasks.py stdio PYTHON ROOT   # spawns PYTHON -m objmcp run ROOT/tests/servers/jobs.py:Jobs
    sdk1_tasks.py http URL            # a server already running (objmcp run --http)

It drives a task to its end (``call_tool_as_task``, ``poll_task``, ``get_task_result``),
one through a question (answered by the elicitation callback while ``get_task_result``
waits), cancels one, lists them, and prints ONE JSON object on stdout:
``{"client": ..., "transport": ..., "steps": {name: outcome}}``; a step that raised is
``{"error": {"type", "message", "code"}}``.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from importlib.metadata import version
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.context import RequestContext

sys.path.append(str(Path(__file__).resolve().parent))
from driver_helpers import STEP_TIMEOUT, Outcome, error_of

# 1.30 says its experimental tasks API goes in 2.0: the warning is no step's outcome
warnings.filterwarnings("ignore", category=DeprecationWarning, module=__name__)


ASKED: list[Outcome] = []
"""The questions the elicitation callback answered, with their ``_meta``."""


async def answer(
    context: RequestContext[ClientSession, Any], params: types.ElicitRequestParams
) -> types.ElicitResult:
    """The elicitation callback: accept, with the name Ada."""
    ASKED.append(params.model_dump(mode="json", by_alias=True, exclude_none=True))
    return types.ElicitResult(action="accept", content={"value": "Ada"})


@asynccontextmanager
async def connect(arguments: list[str]) -> AsyncIterator[ClientSession]:
    """An initialized session to the jobs server, over the transport ``arguments`` name."""
    timeout = timedelta(seconds=STEP_TIMEOUT)
    if arguments[0] == "stdio":
        python, root = arguments[1], Path(arguments[2])
        target = f"{root / 'tests' / 'servers' / 'jobs.py'}:Jobs"
        server = StdioServerParameters(
            command=python, args=["-m", "objmcp", "run", target], env={"PYTHONPATH": str(root)}
        )
        async with (
            stdio_client(server) as (read, write),
            ClientSession(read, write, timeout, elicitation_callback=answer) as session,
        ):
            await session.initialize()
            yield session
        return
    async with (
        streamable_http_client(arguments[1]) as (read, write, _),
        ClientSession(read, write, timeout, elicitation_callback=answer) as session,
    ):
        await session.initialize()
        yield session


def text(result: types.CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, types.TextContent))


async def to_the_end(session: ClientSession) -> Outcome:
    created = await session.experimental.call_tool_as_task("slow", {"seconds": 0.5})
    task_id = created.task.taskId
    statuses = [status.status async for status in session.experimental.poll_task(task_id)]
    result = await session.experimental.get_task_result(task_id, types.CallToolResult)
    return {
        "created": created.task.status,
        "statuses": statuses,
        "text": text(result),
        "isError": result.isError,
        "meta": result.meta,
    }


async def through_a_question(session: ClientSession) -> Outcome:
    created = await session.experimental.call_tool_as_task("ask_name")
    task_id = created.task.taskId
    seen = []
    async for status in session.experimental.poll_task(task_id):
        seen.append(status.status)
        if status.status == "input_required":
            break  # the spec's way: tasks/result brings the question, if it has not come
    result = await session.experimental.get_task_result(task_id, types.CallToolResult)
    final = await session.experimental.get_task(task_id)
    return {
        "taskId": task_id,
        "seen": seen,
        "text": text(result),
        "status": final.status,
        "asked": ASKED,
    }


async def cancelled(session: ClientSession) -> Outcome:
    created = await session.experimental.call_tool_as_task("blocking", {"seconds": 10})
    task_id = created.task.taskId
    answered = await session.experimental.cancel_task(task_id)
    later = await session.experimental.get_task(task_id)
    listed = await session.experimental.list_tasks()
    return {
        "answered": answered.status,
        "later": later.status,
        "listed": task_id in [task.taskId for task in listed.tasks],
    }


async def capabilities(session: ClientSession) -> Outcome:
    tools = await session.list_tools()
    support = {
        tool.name: tool.execution.taskSupport if tool.execution is not None else None
        for tool in tools.tools
    }
    declared = session.get_server_capabilities()
    tasks = declared.tasks if declared is not None else None
    return {
        "support": support,
        "tasks": tasks.model_dump(mode="json", exclude_none=True) if tasks else None,
    }


STEPS: dict[str, Callable[[ClientSession], Awaitable[Outcome]]] = {
    "capabilities": capabilities,
    "to_the_end": to_the_end,
    "through_a_question": through_a_question,
    "cancelled": cancelled,
}


async def main(arguments: list[str]) -> None:
    steps: dict[str, Outcome] = {}
    async with connect(arguments) as session:
        for name, step in STEPS.items():
            try:
                with anyio.fail_after(STEP_TIMEOUT):
                    steps[name] = await step(session)
            except Exception as exc:  # reported, and the next step runs
                steps[name] = {"error": error_of(exc)}
    report = {"client": f"mcp {version('mcp')}", "transport": arguments[0], "steps": steps}
    print(json.dumps(report, default=str))


if __name__ == "__main__":
    anyio.run(main, sys.argv[1:])
