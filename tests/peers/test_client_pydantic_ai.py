"""Interoperability: Pydantic AI (``pydantic-ai-slim[mcp]`` 2.68, ``pydantic_ai.mcp.MCPToolset`` on
the FastMCP 3 client) against objmcp, through whole agent runs.

Pydantic AI cannot be imported here (it lives in ``.venv-clients``, with the ``mcp`` 1.x SDK its
FastMCP client is built on), so the driver ``tests/clients/pydantic_ai_toolset.py`` runs under
``.venv-clients/bin/python``. Its ``MCPToolset`` reaches ``tests/servers/clients.py:Desk`` over
stdio (a FastMCP ``StdioTransport`` spawning ``objmcp run``) or Streamable HTTP (the URL of
``objmcp run --http``, started here), with an elicitation and a progress handler. It calls each
tool the way the agent does (``direct_call_tool``), then runs agents offline: ``TestModel`` calls
the tools with arguments it generates from their schemas, a ``FunctionModel`` sends values
written as JSON text, and the run's messages must hold objmcp's answers. With these pins (FastMCP
3, ``mcp`` 1.30) the client speaks the handshake era only: a modern (2026-07-28) session needs
FastMCP 4 on the ``mcp`` 2.x SDK. A module fixture runs the driver once per transport; each test
checks one behaviour in its report.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from peer_helpers import CLIENTS, TOOLS, Report, served_report, step

DRIVER = CLIENTS / "pydantic_ai_toolset.py"
TRANSPORTS = ["stdio", "http"]


@pytest.fixture(scope="module", params=TRANSPORTS)
def report(request: pytest.FixtureRequest) -> Iterator[Report]:
    """The driver's report over one transport (the HTTP server lives as long as the run)."""
    with served_report(DRIVER, request.param) as found:
        yield found


def value(report: Report, name: str) -> Any:
    """What ``direct_call_tool`` returned in step ``name`` (the structured result unwrapped)."""
    return step(report, name)["value"]


def raised(report: Report, name: str) -> dict[str, Any]:
    """The exception step ``name`` raised, failing if it raised none."""
    outcome: dict[str, Any] = report["steps"][name]
    assert "error" in outcome, f"{name} raised nothing: {outcome}"
    error: dict[str, Any] = outcome["error"]
    return error


def returns(report: Report, name: str) -> dict[str, tuple[Any, str]]:
    """An agent run's tool returns: tool name to (content, outcome)."""
    return {
        part["tool"]: (part["content"], part["outcome"]) for part in step(report, name)["returns"]
    }


def test_speaks_the_handshake_era_only(report: Report) -> None:
    connected = step(report, "connect")
    assert connected["protocolVersion"] == "2025-11-25"  # the newest mcp 1.30 knows
    assert connected["serverInfo"]["name"] == "Desk"
    assert connected["mcp_sdk_v2"] is False  # no modern (2026-07-28) session on FastMCP 3


def test_lists_every_tool(report: Report) -> None:
    tools = step(report, "list_tools")
    assert set(tools["names"]) == TOOLS
    for name in TOOLS:
        assert tools["schemas"][name]["type"] == "object", name


def test_calls_a_tool_and_gets_the_structured_value(report: Report) -> None:
    assert value(report, "add") == 5  # {"result": 5} unwrapped, not the text "5"


def test_passes_a_float_an_int_for_a_float_and_a_bool(report: Report) -> None:
    assert value(report, "scale") == "4.5 exactly"


def test_passes_a_list_and_leaves_it_out(report: Report) -> None:
    assert value(report, "tag_list") == "memo: a, b"
    assert value(report, "tag_none") == "memo: untagged"


def test_passes_an_object_for_a_dataclass(report: Report) -> None:
    assert value(report, "place") == "(1, 2)"


def test_passes_an_enum_value(report: Report) -> None:
    assert value(report, "paint") == "painted red"


def test_passes_a_list_to_an_untyped_parameter(report: Report) -> None:
    assert value(report, "median") == "2"  # no output schema: the text, as it is


def test_an_error_result_becomes_a_model_retry(report: Report) -> None:
    error = raised(report, "fail")
    assert (error["type"], error["message"]) == ("ModelRetry", "ValueError: boom")


def test_an_unknown_tool_becomes_a_model_retry_and_the_session_goes_on(report: Report) -> None:
    error = raised(report, "unknown_tool")
    assert (error["type"], error["code"]) == ("ModelRetry", -32602)
    assert "no_such_tool" in error["message"]
    assert value(report, "after_unknown_tool") == 2


def test_a_server_without_documents_lists_none_and_the_session_goes_on(report: Report) -> None:
    assert step(report, "desk_lists") == {"resources": [], "templates": [], "prompts": []}
    assert value(report, "after_desk_lists") == 4


def test_a_question_reaches_the_elicitation_handler(report: Report) -> None:
    outcome = step(report, "elicitation")
    assert outcome["value"] == "hello Ada"
    assert len(outcome["asked"]) == 1
    asked = outcome["asked"][0]
    assert asked["message"] == "What is your name?"
    assert asked["requestedSchema"] == {
        "type": "object",
        "properties": {"value": {"type": "string"}},
        "required": ["value"],
    }


def test_progress_reaches_the_progress_handler(report: Report) -> None:
    outcome = step(report, "progress")
    assert outcome["value"] == "counted to 3"
    assert outcome["notifications"] == [
        {"progress": float(done), "total": 3.0, "message": f"step {done}"} for done in (1, 2, 3)
    ]


def test_an_agent_run_calls_every_tool_it_names_through_objmcp(report: Report) -> None:
    run = step(report, "agent_run")
    assert "raised" not in run, run["raised"]
    assert [call["tool"] for call in run["calls"]] == [
        "add",
        "scale",
        "tag",
        "place",
        "paint",
        "median",
        "count",
    ]
    # TestModel's arguments: zeros, "a", the first enum member, required properties only.
    assert returns(report, "agent_run") == {
        "add": (0, "success"),
        "scale": ("0.0", "success"),
        "tag": ("a: untagged", "success"),
        "place": ("(0.0, 0.0)", "success"),
        "paint": ("painted red", "success"),
        "median": ("a", "success"),  # the untyped parameter took the string "a"
        "count": ("counted to 0", "success"),
    }
    assert json.loads(run["output"])["add"] == 0


def test_an_agent_run_retries_an_error_result_until_it_gives_up(report: Report) -> None:
    run = step(report, "agent_run_fail")
    assert run["raised"]["type"] == "UnexpectedModelBehavior"
    assert "exceeded max retries" in run["raised"]["message"]
    assert [call["tool"] for call in run["calls"]] == ["fail", "fail"]  # the call, one retry
    assert returns(report, "agent_run_fail") == {"fail": ("ValueError: a", "retried")}


def test_an_agent_run_shows_a_failed_tool_to_the_model(report: Report) -> None:
    run = step(report, "agent_run_fail_failed")  # tool_error_behavior="failed"
    assert "raised" not in run, run["raised"]
    assert returns(report, "agent_run_fail_failed") == {"fail": ("ValueError: a", "failed")}


def test_an_agent_run_answers_a_question_through_the_handler(report: Report) -> None:
    run = step(report, "agent_run_ask")
    assert "raised" not in run, run["raised"]
    assert returns(report, "agent_run_ask") == {"ask": ("hello Ada", "success")}


def test_values_a_model_writes_as_json_text_reach_objmcp_and_are_read(report: Report) -> None:
    run = step(report, "agent_run_json_text")
    assert "raised" not in run, run["raised"]
    assert run["calls"][0]["args"]["tags"] == '["a", "b"]'  # passed on as written
    assert returns(report, "agent_run_json_text") == {
        "tag": ("memo: a, b", "success"),
        "place": ("(1, 2)", "success"),
        "scale": ("4.5 exactly", "success"),
        "median": ("2", "success"),
    }
    assert run["output"] == "done"


def test_the_session_closes_cleanly(report: Report) -> None:
    assert step(report, "session") == {"closed": True}


def test_an_agent_finds_and_calls_a_tool_of_a_whole_library_through_search() -> None:
    # sympy served whole (476 tools) lists the search tools; an offline FunctionModel searches,
    # picks the hit whose parameters it can fill, and calls it through call_tool
    import sympy
    from peer_helpers import PYTHON, ROOT, drive

    found = drive(CLIENTS / "pydantic_ai_discovery.py", str(PYTHON), str(ROOT))
    assert found["listed"] == ["call_tool", "describe_tools", "search_tools"]
    assert [call["tool"] for call in found["calls"]] == ["search_tools", "call_tool"]
    chosen = found["calls"][1]["args"]["name"]
    hits = [hit["name"] for hit in found["returns"][0]["content"]]
    assert chosen in hits[:5] and chosen == "factor", hits
    x = sympy.Symbol("x")
    assert found["output"] == str(sympy.factor(x**2 - 1))  # what the library itself gives
