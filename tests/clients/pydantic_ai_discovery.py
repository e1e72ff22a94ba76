"""Driver: a Pydantic AI agent finds and calls one tool of a whole library through search.

Runs under ``.venv-clients/bin/python``, started by ``tests/peers/test_client_pydantic_ai.py``::

    pydantic_ai_discovery.py PYTHON ROOT  # StdioTransport spawns PYTHON -m objmcp run sympy

sympy served whole is 476 tools, so objmcp lists ``search_tools``, ``describe_tools`` and
``call_tool`` instead (discovery ``auto``). An offline ``FunctionModel`` plays a model that
knows only what it is shown: it searches for what the user asked, reads the hits, and calls
through ``call_tool`` the first whose required parameters it has values for. It prints ONE
JSON object on stdout: the tools listed, and the run's tool calls and returns.
"""

from __future__ import annotations

import asyncio
import json
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

QUERY = "factor a polynomial into irreducible factors"
ARGUMENTS = {"f": "x**2 - 1"}


def returned(messages: list[ModelMessage], tool: str) -> Any:
    """What the last call of ``tool`` returned, as the model was shown it."""
    part = last_return(messages, tool)
    return None if part is None else part.content


def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """Search, then call what the search ranked first, then answer with what it gave."""
    searched = returned(messages, "search_tools")
    called = returned(messages, "call_tool")
    if called is not None:
        return ModelResponse(parts=[TextPart(str(called))])
    if searched is None:
        return ModelResponse(parts=[ToolCallPart("search_tools", {"query": QUERY, "limit": 5})])
    hits = json.loads(searched) if isinstance(searched, str) else searched
    chosen = next(hit["name"] for hit in hits if fits(hit["parameters"]))
    return ModelResponse(
        parts=[ToolCallPart("call_tool", {"name": chosen, "arguments": ARGUMENTS})]
    )


def fits(parameters: str) -> bool:
    """Whether a search hit's parameters in brief (``f: any, gens?: array``) are all
    given by ``ARGUMENTS`` where required: the tool a model with them would pick."""
    names = [entry.split(":")[0].strip() for entry in parameters.split(",") if entry.strip()]
    required = {name for name in names if not name.endswith("?")}
    return bool(required) and required <= set(ARGUMENTS)


async def main(python: str, root: Path) -> dict[str, Any]:
    """The run's report."""
    client = StdioTransport(
        command=python,
        args=["-m", "objmcp", "run", "sympy"],
        env={"PYTHONPATH": str(root)},
        cwd=str(root),
        keep_alive=False,
    )
    toolset: MCPToolset[Any] = MCPToolset(client, id="sympy", init_timeout=60, read_timeout=60)
    async with toolset:
        listed = sorted(tool.name for tool in await toolset.list_tools())
        agent = Agent(FunctionModel(model), toolsets=[toolset])
        with capture_run_messages() as messages:
            result = await agent.run("Factor x**2 - 1.")
    parts = parts_of(messages)
    calls, returns = parts["calls"], parts["returns"]
    return {"listed": listed, "calls": calls, "returns": returns, "output": result.output}


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    print(json.dumps(asyncio.run(main(sys.argv[1], Path(sys.argv[2]))), default=repr))
