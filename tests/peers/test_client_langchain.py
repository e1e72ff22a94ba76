"""Interoperability: ``langchain-mcp-adapters`` (LangChain's MCP tools, on the MCP Python
SDK 1.x) against objmcp.

The adapter needs the 1.x SDK, which cannot be imported here, so the driver
``tests/clients/langchain_adapters.py`` runs under ``.venv-clients/bin/python`` (made by
``scripts/test.sh`` from ``tests/clients/requirements.txt``). Through a ``MultiServerMCPClient``
it connects to ``tests/servers/clients.py``'s ``Desk`` (tools only) and ``Library`` (a resource,
a template, a prompt): ``load_mcp_tools`` on one session and ``tool.ainvoke`` for each tool,
``load_mcp_resources``/``load_mcp_prompt``, the client's own ``get_tools``/``get_resources``/
``get_prompt`` (a session per call), its elicitation and progress callbacks, and an
interceptor recording the arguments the adapter sends. It prints one JSON report; a module
fixture runs it once over stdio (the driver spawns ``objmcp run``) and once over Streamable
HTTP (servers started here as ``objmcp run --http``), and each test below checks one behaviour.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from peer_helpers import CLIENTS, TOOLS, Report, served_report, step

DRIVER = CLIENTS / "langchain_adapters.py"
TRANSPORTS = ["stdio", "http"]
README = {"data": "A library of one readme.", "mime_type": "text/plain", "uri": "library://readme"}
REVIEW = [{"type": "human", "content": "Please review objmcp."}]
QUESTION = {
    "mode": "form",
    "message": "What is your name?",
    "requestedSchema": {
        "type": "object",
        "properties": {"value": {"type": "string"}},
        "required": ["value"],
    },
}


@pytest.fixture(scope="module", params=TRANSPORTS)
def report(request: pytest.FixtureRequest) -> Iterator[Report]:
    """The driver's report over one transport (the HTTP servers live as long as the run)."""
    transport: str = request.param
    with served_report(DRIVER, transport, ("Desk", "Library")) as found:
        yield {"mode": transport, **found}


def text(report: Report, name: str) -> str:
    """The text ``tool.ainvoke`` returned at step ``name``."""
    found: str = step(report, name)["text"]
    return found


def sent(report: Report, name: str) -> dict[str, Any]:
    """The arguments the adapter sent at step ``name`` (its one tool call)."""
    calls: list[dict[str, Any]] = step(report, name)["sent"]
    assert len(calls) == 1, calls
    arguments: dict[str, Any] = calls[0]["args"]
    return arguments


def test_loads_every_tool_with_its_schema_as_is(report: Report) -> None:
    loaded = step(report, "load_tools")
    assert set(loaded["names"]) == TOOLS
    schemas = loaded["schemas"]  # the tool's args_schema: the MCP inputSchema, unconverted
    assert schemas["add"]["properties"]["a"] == {"type": "integer", "description": "The first."}
    assert schemas["paint"]["properties"]["color"]["enum"] == ["red", "green"]
    assert set(loaded["args"]["count"]) == {"n"}
    assert loaded["args"]["ask"] == {}


def test_a_dataclass_parameter_is_described_in_place(report: Report) -> None:
    place = step(report, "load_tools")["schemas"]["place"]
    assert "$defs" not in place
    point = place["properties"]["point"]
    assert "$ref" not in point
    assert point["type"] == "object"
    assert set(point["properties"]) == {"x", "y"}


def test_calls_a_tool(report: Report) -> None:
    assert text(report, "add") == "5"
    assert step(report, "add")["value"] == [{"type": "text", "text": "5"}]
    assert sent(report, "add") == {"a": 2, "b": 3}


def test_passes_a_float_an_int_for_a_float_and_a_bool(report: Report) -> None:
    assert text(report, "scale") == "4.5 exactly"
    assert sent(report, "scale") == {"value": 1.5, "factor": 3, "exact": True}


def test_passes_a_list(report: Report) -> None:
    assert text(report, "tag_list") == "memo: a, b"
    assert sent(report, "tag_list") == {"title": "memo", "tags": ["a", "b"]}


def test_leaves_out_an_optional_list(report: Report) -> None:
    assert text(report, "tag_none") == "memo: untagged"
    assert sent(report, "tag_none") == {"title": "memo"}  # no null filled in for the default


def test_a_list_written_as_a_json_string_is_accepted(report: Report) -> None:
    assert sent(report, "tag_json_string") == {"title": "memo", "tags": '["a"]'}  # passed as is
    assert text(report, "tag_json_string") == "memo: a"


def test_passes_an_object_for_a_dataclass(report: Report) -> None:
    assert text(report, "place") == "(1, 2)"
    assert sent(report, "place") == {"point": {"x": 1, "y": 2}}


def test_an_object_written_as_a_json_string_is_accepted(report: Report) -> None:
    assert text(report, "place_json_string") == "(1, 2)"


def test_passes_an_enum_value(report: Report) -> None:
    assert text(report, "paint") == "painted red"


def test_passes_a_list_to_an_untyped_parameter(report: Report) -> None:
    assert text(report, "median") == "2"
    assert sent(report, "median") == {"data": [3, 1, 2]}


def test_an_error_result_is_a_failed_tool_message(report: Report) -> None:
    # Plain ainvoke does not raise on isError: it returns the error's text as the content.
    assert step(report, "fail")["value"] == [{"type": "text", "text": "ValueError: boom"}]
    # Invoked with a model's tool call, the ToolMessage says it failed.
    failed = step(report, "fail_tool_call")["value"]
    assert (failed["message"], failed["status"]) == ("ToolMessage", "error")
    assert failed["content"] == [{"type": "text", "text": "ValueError: boom"}]
    done = step(report, "add_tool_call")["value"]
    assert (done["status"], done["content"]) == ("success", [{"type": "text", "text": "5"}])
    assert done["artifact"] == {"structured_content": {"result": 5}}


def test_an_unknown_tool_is_a_protocol_error_and_the_session_goes_on(report: Report) -> None:
    error = report["steps"]["unknown_tool"].get("error")
    assert error is not None, f"an unknown tool was answered: {report['steps']['unknown_tool']}"
    assert (error["type"], error["code"]) == ("McpError", -32602)
    assert "no_such_tool" in error["message"]
    assert text(report, "after_unknown_tool") == "2"


def test_a_server_without_resources_loads_none_and_the_session_goes_on(report: Report) -> None:
    assert step(report, "desk_resources") == {"blobs": []}
    assert text(report, "after_desk_resources") == "4"
    assert step(report, "client_desk_resources") == {"blobs": []}


def test_loads_the_resources(report: Report) -> None:
    assert step(report, "library_resources") == {"blobs": [README]}
    assert step(report, "client_library_resources") == {"blobs": [README]}


def test_loads_a_resource_through_its_template(report: Report) -> None:
    assert step(report, "library_template") == {
        "blobs": [{"data": "book 7", "mime_type": "text/plain", "uri": "library://books/7"}]
    }


def test_loads_a_prompt_as_messages(report: Report) -> None:
    assert step(report, "library_prompt") == {"messages": REVIEW}
    assert step(report, "client_library_prompt") == {"messages": REVIEW}


def test_a_question_reaches_the_elicitation_callback(report: Report) -> None:
    outcome = step(report, "elicitation")
    assert outcome["text"] == "hello Ada"
    # On a session of the client's, the callback's context names the server, not the tool.
    assert outcome["asked"] == [{"params": QUESTION, "server": "desk", "tool": None}]


def test_progress_reaches_the_progress_callback(report: Report) -> None:
    outcome = step(report, "progress")
    assert outcome["text"] == "counted to 3"
    assert outcome["notifications"] == [
        {"progress": float(done), "total": 3.0, "message": f"step {done}", "tool": "count"}
        for done in (1, 2, 3)
    ]
    assert text(report, "after_progress") == "6"


def test_the_clients_own_tools_open_a_session_for_each_call(report: Report) -> None:
    assert set(step(report, "client_get_tools")["names"]) == TOOLS
    assert text(report, "client_add") == "42"
    asked = step(report, "client_elicitation")
    assert asked["text"] == "hello Ada"
    assert asked["asked"] == [{"params": QUESTION, "server": "library", "tool": "ask"}]
    counted = step(report, "client_progress")
    assert counted["text"] == "counted to 3"
    assert [note["progress"] for note in counted["notifications"]] == [1.0, 2.0, 3.0]


def test_no_session_ends_under_a_step_and_each_closes_cleanly(report: Report) -> None:
    assert step(report, "desk.session") == {"closed": True, "ended": []}
    assert step(report, "library.session") == {"closed": True, "ended": []}
    assert step(report, "client.session") == {"closed": True, "ended": []}
