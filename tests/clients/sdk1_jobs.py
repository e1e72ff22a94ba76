"""Driver: the official MCP Python SDK **1.x** client (``mcp`` 1.30, ``mcp.ClientSession``), a
client with no tasks, against ``objmcp run --jobs`` serving ``tests/servers/chores.py``.

Runs under ``.venv-clients/bin/python``, started by ``tests/peers/test_client_sdk1_jobs.py``::

    sdk1_jobs.py PYTHON ROOT    # spawns PYTHON -m objmcp run --jobs ... chores.py:Chores

It lists the tools, calls a slow tool (answered with a job's text), then ``job_status`` and
``job_result`` with the id the text names (as a model would, until the job has ended), and
prints ONE JSON object on stdout: ``{"client": ..., "steps": {name: outcome}}``, an outcome
being what the step observed or, when it raised, ``{"error": {"type", "message", "code"}}``.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Awaitable, Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

# driver_helpers.py, beside this file; its folder goes last on sys.path (see its docstring)
sys.path.append(str(Path(__file__).resolve().parent))
from driver_helpers import STEP_TIMEOUT, Outcome, error_of


def said(result: Any) -> Outcome:
    """A tool call's text, isError and structured content."""
    text = "".join(block.text for block in result.content if block.type == "text")
    return {"text": text, "isError": result.isError, "structured": result.structuredContent}


async def run(python: str, root: str) -> dict[str, Outcome]:
    chores = f"{root}/tests/servers/chores.py:Chores"
    arguments = ["-m", "objmcp", "run", "--jobs", "--task-after", "0.2", chores]
    params = StdioServerParameters(command=python, args=arguments, env={"PYTHONPATH": root})
    steps: dict[str, Outcome] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:

        async def step(name: str, action: Callable[[], Awaitable[Outcome]]) -> Outcome:
            try:
                with anyio.fail_after(STEP_TIMEOUT):
                    steps[name] = await action()
            except Exception as exc:
                steps[name] = {"error": error_of(exc)}
            return steps[name]

        await step("initialize", lambda: _initialized(session))

        async def listed() -> Outcome:
            tools = (await session.list_tools()).tools
            return {
                "names": [tool.name for tool in tools],
                "output": {tool.name: tool.outputSchema is not None for tool in tools},
            }

        await step("list_tools", listed)
        started = await step("call_slow", lambda: _said(session, "measure", {"seconds": 0.8}))
        found = re.search(r'job_id "([^"]+)"', str(started.get("text", "")))
        job_id = found.group(1) if found else "none"
        await step("job_status", lambda: _said(session, "job_status", {"job_id": job_id}))

        async def fetched() -> Outcome:
            for _ in range(100):
                result = await _said(session, "job_result", {"job_id": job_id})
                if "is still running" not in result["text"]:
                    return result
            return {"text": "never ended", "isError": True, "structured": None}

        await step("job_result", fetched)
        await step("call_never", lambda: _said(session, "never", {"seconds": 0.4}))
    return steps


async def _initialized(session: ClientSession) -> Outcome:
    result = await session.initialize()
    return {"protocolVersion": result.protocolVersion}


async def _said(session: ClientSession, tool: str, arguments: dict[str, Any]) -> Outcome:
    return said(await session.call_tool(tool, arguments))


def main() -> None:
    python, root = sys.argv[1:3]
    steps = anyio.run(run, python, root)
    print(json.dumps({"client": f"mcp {version('mcp')}", "steps": steps}))


if __name__ == "__main__":
    main()
