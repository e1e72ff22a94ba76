"""Driver: the official MCP Python SDK **1.x** client's experimental tasks (``mcp`` 1.30,
``session.experimental``: 2025-11-25's core tasks) against two fronts of one objmcp
deployment that share a task store in Redis (``--tasks redis://…``).

Runs under ``.venv-clients/bin/python``, started by ``tests/peers/test_task_store_peers.py``::

    sdk1_task_store.py FRONT_URL OTHER_URL TOKEN MARKER

Two sessions, one on each front, with the same bearer token (the same caller: a
2025-11-25 task is its caller's). Each task is made through the first (``call_tool_as_task``)
and followed through the other: polled to its end (``poll_task``) and its result fetched
(``get_task_result``); fetched while it still runs (``tasks/result`` waits for its end);
cancelled (``cancel_task``) once the tool noted its start in the file MARKER. Prints ONE JSON
object on stdout: ``{"client": ..., "steps": {name: outcome}}``; a step that raised is
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
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

sys.path.append(str(Path(__file__).resolve().parent))
from driver_helpers import STEP_TIMEOUT, Outcome, error_of

# 1.30 says its experimental tasks API goes in 2.0: the warning is no step's outcome
warnings.filterwarnings("ignore", category=DeprecationWarning, module=__name__)


@asynccontextmanager
async def connect(url: str, token: str) -> AsyncIterator[ClientSession]:
    """An initialized session to ``url``, every request carrying the bearer ``token``."""
    client = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    async with (
        client,
        streamable_http_client(url, http_client=client) as (read, write, _),
        ClientSession(read, write, timedelta(seconds=STEP_TIMEOUT)) as session,
    ):
        await session.initialize()
        yield session


def result_of(result: types.CallToolResult) -> Outcome:
    return {
        "structured": result.structuredContent,
        "isError": result.isError,
        "meta": result.meta,
    }


async def followed(front: ClientSession, other: ClientSession, marker: Path) -> Outcome:
    """Made through the front; polled to its end, fetched and listed through the other."""
    created = await front.experimental.call_tool_as_task("slow_pid", {"seconds": 1.0})
    task_id = created.task.taskId
    statuses = [status.status async for status in other.experimental.poll_task(task_id)]
    result = await other.experimental.get_task_result(task_id, types.CallToolResult)
    listed = await other.experimental.list_tasks()
    return {
        "taskId": task_id,
        "created": created.task.status,
        "statuses": statuses,
        "result": result_of(result),
        "listed": [task.taskId for task in listed.tasks],
    }


async def waited(front: ClientSession, other: ClientSession, marker: Path) -> Outcome:
    """Made through the front; its result asked of the other at once, while it runs."""
    created = await front.experimental.call_tool_as_task("slow_pid", {"seconds": 0.5})
    task_id = created.task.taskId
    result = await other.experimental.get_task_result(task_id, types.CallToolResult)
    after = await other.experimental.get_task(task_id)
    return {"taskId": task_id, "result": result_of(result), "after": after.status}


async def cancelled(front: ClientSession, other: ClientSession, marker: Path) -> Outcome:
    """Made through the front; cancelled through the other once it runs."""
    created = await front.experimental.call_tool_as_task("until_cancelled", {"marker": str(marker)})
    task_id = created.task.taskId
    while not marker.exists():  # the step's timeout bounds the wait
        await anyio.sleep(0.05)
    answered = await other.experimental.cancel_task(task_id)
    later = await front.experimental.get_task(task_id)
    return {"taskId": task_id, "answered": answered.status, "later": later.status}


Step = Callable[[ClientSession, ClientSession, Path], Awaitable[Outcome]]
STEPS: dict[str, Step] = {"followed": followed, "waited": waited, "cancelled": cancelled}


async def main(arguments: list[str]) -> None:
    front_url, other_url, token, marker = arguments
    steps: dict[str, Outcome] = {}
    async with connect(front_url, token) as front, connect(other_url, token) as other:
        for name, step in STEPS.items():
            try:
                with anyio.fail_after(STEP_TIMEOUT):
                    steps[name] = await step(front, other, Path(marker))
            except Exception as exc:  # reported, and the next step runs
                steps[name] = {"error": error_of(exc)}
    report: dict[str, Any] = {"client": f"mcp {version('mcp')}", "steps": steps}
    print(json.dumps(report, default=str))


if __name__ == "__main__":
    anyio.run(main, sys.argv[1:])
