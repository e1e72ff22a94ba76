"""Interoperability: a Pydantic AI agent (``pydantic-ai-slim[mcp]`` 2.68, ``MCPToolset`` over
stdio) does a multi-step task through objmcp's code mode, end to end.

The driver ``tests/clients/pydantic_ai_code.py`` runs under ``.venv-clients/bin/python`` (Pydantic
AI is not importable here) against ``objmcp run --discovery code statistics``: its offline
``FunctionModel`` searches once, writes one program from the stubs it was shown that chains three
statistics calls, and answers with what ``execute`` gave back. The answer must be the one
``statistics`` itself gives.
"""

from __future__ import annotations

import json
import statistics

from conftest import PYTHON, ROOT
from peer_helpers import CLIENTS, Report, drive


def test_an_agent_chains_three_calls_in_one_execute() -> None:
    found: Report = drive(CLIENTS / "pydantic_ai_code.py", str(PYTHON), str(ROOT))
    assert found["listed"] == ["describe_tools", "execute", "search_tools"]
    assert [call["tool"] for call in found["calls"]] == ["search_tools", "execute"]
    assert [part["outcome"] for part in found["returns"]] == ["success", "success"]
    code = found["calls"][1]["args"]["code"]
    for name in ("mean", "median", "stdev"):
        assert f"statistics.{name}(" in code, code  # as the stubs the search gave name them
    data = found["data"]
    centre = statistics.mean(data)
    above = [x for x in data if x > centre]
    assert json.loads(found["output"]) == {
        "mean": centre,
        "median": statistics.median(above),
        "stdev": statistics.stdev(above),
    }
