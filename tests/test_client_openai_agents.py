"""Interoperability: the OpenAI Agents SDK (``openai-agents`` 0.24, ``agents.mcp``) against objmcp.

The SDK cannot be imported here (it lives in ``.venv-clients``, with the ``mcp`` 1.x SDK it is
built on), so the driver ``tests/clients/openai_agents.py`` runs under
``.venv-clients/bin/python``. It connects ``MCPServerStdio`` (spawning ``objmcp run``) or
``MCPServerStreamableHttp`` (to ``objmcp run --http`` started here) to
``tests/servers/clients.py:Desk``; lists and calls the tools; runs every tool's input schema
through the SDK's strict-mode converter (``ensure_strict_json_schema``) and its MCP-to-FunctionTool
conversion with ``convert_schemas_to_strict=True``, which silently falls back to a non-strict tool
when the converter refuses a schema; and runs a whole agent offline, a ``ScriptedModel`` asking
for the calls a strict-mode model would write. A module fixture runs the driver once per
transport; each test checks one behaviour in its report, so a failure names the client, the
transport and the behaviour.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import PYTHON, ROOT
from test_http import HttpServer

CLIENTS_PYTHON = ROOT / ".venv-clients" / "bin" / "python"
DRIVER = ROOT / "tests" / "clients" / "openai_agents.py"
FIXTURE = ROOT / "tests" / "servers" / "clients.py"
TRANSPORTS = ["stdio", "http"]
TOOLS = {"add", "scale", "tag", "place", "paint", "median", "fail", "ask", "count"}

# Generous: a cold start of two interpreters on a slow, busy machine. Never a measure of speed.
TIMEOUT = 300.0

Report = dict[str, Any]


def drive(*arguments: str) -> Report:
    """Run the driver with ``arguments``; its one JSON report, decoded."""
    if not CLIENTS_PYTHON.exists():
        pytest.fail(
            f"{CLIENTS_PYTHON} is missing: make it with `python3 -m venv .venv-clients && "
            ".venv-clients/bin/pip install -r tests/clients/requirements.txt` "
            "(scripts/test.sh does)",
            pytrace=False,
        )
    # The driver's own interpreter and packages only: nothing of this environment's path.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run(
        [str(CLIENTS_PYTHON), "-P", str(DRIVER), *arguments],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=ROOT,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, f"driver exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    lines = done.stdout.strip().split("\n")
    assert len(lines) == 1, f"the driver must print one report line:\n{done.stdout}"
    report: Report = json.loads(lines[0])
    return report


@pytest.fixture(scope="module", params=TRANSPORTS)
def report(request: pytest.FixtureRequest) -> Iterator[Report]:
    """The driver's report over one transport (the HTTP server lives as long as the run)."""
    transport: str = request.param
    if transport == "stdio":
        yield drive("stdio", PYTHON, str(ROOT))
        return
    desk = HttpServer(target=f"{FIXTURE}:Desk")
    try:
        yield drive("http", desk.url)
    finally:
        desk.stop()


def step(report: Report, name: str) -> dict[str, Any]:
    """What step ``name`` observed, failing with the exception it raised, if it did."""
    steps: dict[str, Any] = report["steps"]
    assert name in steps, f"the driver did not report {name!r}: {sorted(steps)}"
    outcome: dict[str, Any] = steps[name]
    error = outcome.get("error")
    assert error is None, f"{name}: {error['type']}: {error['message']} (code {error['code']})"
    return outcome


def called(report: Report, name: str) -> tuple[str, bool]:
    """A tool step's text and isError."""
    outcome = step(report, name)
    return outcome["text"], outcome["isError"]


def closed_objects(schema: Any) -> Iterator[dict[str, Any]]:
    """Every object schema inside ``schema`` (properties, items, anyOf), itself included."""
    if not isinstance(schema, dict):
        return
    if schema.get("type") == "object" or "properties" in schema:
        yield schema
    for child in schema.get("properties", {}).values():
        yield from closed_objects(child)
    yield from closed_objects(schema.get("items"))
    for variant in schema.get("anyOf", []):
        yield from closed_objects(variant)


def test_the_handshake_negotiates_the_latest_revision_of_its_sdk(report: Report) -> None:
    connected = step(report, "connect")
    assert connected["protocolVersion"] == "2025-11-25"  # the newest mcp 1.30 knows
    assert connected["serverInfo"]["name"] == "Desk"


def test_lists_every_tool(report: Report) -> None:
    tools = step(report, "list_tools")
    assert set(tools["names"]) == TOOLS
    for name in TOOLS:
        assert tools["schemas"][name]["type"] == "object", name


def test_calls_a_tool(report: Report) -> None:
    assert called(report, "add") == ("5", False)
    assert step(report, "add")["structured"] == {"result": 5}


def test_passes_a_float_an_int_for_a_float_and_a_bool(report: Report) -> None:
    assert called(report, "scale") == ("4.5 exactly", False)


def test_passes_a_list(report: Report) -> None:
    assert called(report, "tag_list") == ("memo: a, b", False)


def test_leaves_out_an_optional_list(report: Report) -> None:
    assert called(report, "tag_none") == ("memo: untagged", False)


def test_null_for_an_optional_list_is_its_default(report: Report) -> None:
    # What a strict-mode model sends for an optional parameter it does not set.
    assert called(report, "tag_null") == ("memo: untagged", False)


def test_a_list_written_as_a_json_string_is_accepted(report: Report) -> None:
    assert called(report, "tag_json_string") == ("memo: a, b", False)


def test_passes_an_object_for_a_dataclass(report: Report) -> None:
    assert called(report, "place") == ("(1.0, 2.0)", False)


def test_an_object_written_as_a_json_string_is_accepted(report: Report) -> None:
    assert called(report, "place_json_string") == ("(1.0, 2.0)", False)


def test_passes_an_enum_value(report: Report) -> None:
    assert called(report, "paint") == ("painted red", False)


def test_passes_a_list_to_an_untyped_parameter(report: Report) -> None:
    assert called(report, "median") == ("2", False)


def test_an_exception_is_an_error_result(report: Report) -> None:
    assert called(report, "fail") == ("ValueError: boom", True)


def test_an_unknown_tool_is_a_protocol_error_and_the_session_goes_on(report: Report) -> None:
    error = report["steps"]["unknown_tool"].get("error")
    assert error is not None, f"an unknown tool was answered: {report['steps']['unknown_tool']}"
    assert (error["type"], error["code"]) == ("McpError", -32602)
    assert "no_such_tool" in error["message"]
    assert called(report, "after_unknown_tool") == ("2", False)


def test_a_server_without_documents_lists_none_and_the_session_goes_on(report: Report) -> None:
    assert step(report, "desk_lists") == {"resources": [], "templates": [], "prompts": []}
    assert called(report, "after_desk_lists") == ("4", False)


def test_every_input_schema_converts_to_strict_mode(report: Report) -> None:
    strict = step(report, "strict_schemas")
    assert set(strict) == TOOLS
    refused = {name: outcome["failure"] for name, outcome in strict.items() if not outcome["ok"]}
    assert refused == {}, f"ensure_strict_json_schema refused: {refused}"


def test_the_strict_schemas_are_closed_and_written_out_in_place(report: Report) -> None:
    for name, outcome in step(report, "strict_schemas").items():
        schema = outcome["schema"]
        text = json.dumps(schema)
        assert "$ref" not in text and "$defs" not in text, name
        for inner in closed_objects(schema):
            assert inner["additionalProperties"] is False, (name, inner)
            assert sorted(inner["required"]) == sorted(inner.get("properties", {})), (name, inner)


def test_strict_mode_keeps_an_optional_list_nullable(report: Report) -> None:
    tags = step(report, "strict_schemas")["tag"]["schema"]["properties"]["tags"]
    assert {"type": "null"} in tags["anyOf"]
    assert {"type": "array", "items": {"type": "string"}} in tags["anyOf"]


def test_strict_mode_keeps_the_dataclass_and_the_enum(report: Report) -> None:
    strict = step(report, "strict_schemas")
    point = strict["place"]["schema"]["properties"]["point"]
    assert point["type"] == "object"
    assert set(point["properties"]) == {"x", "y"}
    color = strict["paint"]["schema"]["properties"]["color"]
    assert (color["type"], color["enum"]) == ("string", ["red", "green"])


def test_every_mcp_tool_becomes_a_strict_function_tool(report: Report) -> None:
    converted = step(report, "function_tools")
    assert set(converted) == TOOLS
    fallen_back = {name: tool["fallback"] for name, tool in converted.items() if not tool["strict"]}
    assert fallen_back == {}, f"MCPUtil fell back to non-strict tools: {fallen_back}"
    strict = step(report, "strict_schemas")
    for name, tool in converted.items():
        assert tool["schema"] == strict[name]["schema"], name


def test_an_agent_run_calls_the_tools_through_objmcp(report: Report) -> None:
    run = step(report, "agent_run")
    assert run["final_output"] == "done"
    texts = {call: output["text"] for call, output in run["outputs"].items()}
    assert texts == {
        "call_add": "5",
        "call_scale": "4.5 exactly",
        "call_tag": "memo: a, b",
        "call_tag_null": "memo: untagged",
        "call_place": "(1.0, 2.0)",
        "call_paint": "painted red",
        "call_median": "2",
        "call_fail": "ValueError: boom",
    }


def test_the_agent_offers_every_tool_to_the_model_as_strict(report: Report) -> None:
    assert step(report, "agent_run")["offered"] == dict.fromkeys(sorted(TOOLS), True)


def test_an_error_result_reaches_the_model_as_its_text(report: Report) -> None:
    # The SDK hands the model the content of a result with isError as it does any other: the
    # error's text is all that tells it the call failed.
    output = step(report, "agent_run")["outputs"]["call_fail"]
    assert output == {"type": "text", "text": "ValueError: boom"}


def test_the_session_closes_cleanly(report: Report) -> None:
    assert step(report, "cleanup") == {"closed": True}
