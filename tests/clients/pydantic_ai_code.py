"""Driver: a Pydantic AI agent does a three-call task of a whole library in one ``execute``.

Runs under ``.venv-clients/bin/python``, started by
``tests/peers/test_client_pydantic_ai_code.py``::

    pydantic_ai_code.py PYTHON ROOT  # spawns PYTHON -m objmcp run --discovery code statistics

In code mode objmcp lists ``search_tools``, ``describe_tools`` and ``execute``. An offline
``FunctionModel`` plays a model that knows only what it is shown: it searches once, reads
the Python stubs the search gives (each tool's module and name), and writes one program that
chains three calls of them (the mean, then the median and the sample standard deviation of
the values above it), called positionally as the stubs' signatures order them; it answers
with what ``execute`` gave back. It prints ONE JSON object on stdout: the tools listed, the
run's tool calls and returns, and the answer.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
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

# pydantic_ai_parts.py, beside this file
sys.path.append(str(Path(__file__).resolve().parent))
from pydantic_ai_parts import last_return, parts_of

QUERY = "mean median standard deviation"
QUESTION = "Of these values, which are above their mean? Their median and spread?"
DATA = [2.5, 3.1, 4.7, 5.0, 6.2, 7.9, 8.4, 9.6]
NEEDED = ("mean", "median", "stdev")


def returned(messages: list[ModelMessage], tool: str) -> str | None:
    """What the last call of ``tool`` returned, as the model was shown it."""
    part = last_return(messages, tool)
    return None if part is None else part.model_response_str()


def modules_of(stubs: str) -> dict[str, str]:
    """Each function the stubs define, by name, with the module it is in."""
    found: dict[str, str] = {}
    module = None
    for line in stubs.splitlines():
        if heading := re.match(r"# module (\w+)", line):
            module = heading.group(1)
        elif (definition := re.match(r"def (\w+)\(", line)) and module is not None:
            found.setdefault(definition.group(1), module)
    return found


def program(modules: dict[str, str]) -> str:
    """The code: three chained calls, each named as its stub says."""
    mean, median, stdev = (f"{modules[name]}.{name}" for name in NEEDED)
    return "\n".join(
        [
            f"data = {DATA!r}",
            f"centre = {mean}(data)",
            "above = [x for x in data if x > centre]",
            f'{{"mean": centre, "median": {median}(above), "stdev": {stdev}(above)}}',
        ]
    )


def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """Search, write one program from the stubs found, answer with what it gave."""
    executed = returned(messages, "execute")
    if executed is not None:
        return ModelResponse(parts=[TextPart(executed)])
    stubs = returned(messages, "search_tools")
    if stubs is None:
        return ModelResponse(parts=[ToolCallPart("search_tools", {"query": QUERY})])
    modules = modules_of(stubs)
    missing = [name for name in NEEDED if name not in modules]
    if missing:
        return ModelResponse(parts=[TextPart(f"not found: {missing}")])
    return ModelResponse(parts=[ToolCallPart("execute", {"code": program(modules)})])


async def main(python: str, root: Path) -> dict[str, Any]:
    """The run's report."""
    client = StdioTransport(
        command=python,
        args=["-m", "objmcp", "run", "--discovery", "code", "statistics"],
        env={"PYTHONPATH": str(root)},
        cwd=str(root),
        keep_alive=False,
    )
    toolset: MCPToolset[Any] = MCPToolset(client, id="statistics", init_timeout=60)
    async with toolset:
        listed = sorted(tool.name for tool in await toolset.list_tools())
        agent = Agent(FunctionModel(model), toolsets=[toolset])
        with capture_run_messages() as messages:
            result = await agent.run(QUESTION)
    parts = parts_of(messages)
    calls, returns = parts["calls"], parts["returns"]
    return {
        "listed": listed,
        "data": DATA,
        "calls": calls,
        "returns": returns,
        "output": result.output,
    }


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    print(json.dumps(asyncio.run(main(sys.argv[1], Path(sys.argv[2]))), default=repr))
