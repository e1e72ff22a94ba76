"""Interoperability: the official MCP Python SDK **1.x** client (``mcp`` 1.30's
``ClientSession``, the one most released Python software still depends on) against objmcp.

The 1.x SDK cannot be imported here (this environment has the 2.x one), so the driver
``tests/clients/sdk1.py`` runs under ``.venv-clients/bin/python`` (made by ``scripts/test.sh``
from ``tests/clients/requirements.txt``). It connects to ``tests/servers/clients.py``'s
``Desk`` (tools only) and ``Library`` (a resource, a template, a prompt), performs every step of
the scenario in one run and prints one JSON report. A module fixture runs it once for each
transport: stdio (the driver spawns ``objmcp run`` itself), Streamable HTTP, and Streamable HTTP
``--stateless`` (the servers started here, as ``objmcp run --http``); each test below checks one
behaviour in that report, so a failure names the client, the transport and the behaviour.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from peer_helpers import CLIENTS, TOOLS, Report, served_report, step

DRIVER = CLIENTS / "sdk1.py"
TRANSPORTS = ["stdio", "http", "http-stateless"]


@pytest.fixture(scope="module", params=TRANSPORTS)
def report(request: pytest.FixtureRequest) -> Iterator[Report]:
    """The driver's report over one transport (the HTTP servers live as long as the run)."""
    transport: str = request.param
    with served_report(DRIVER, transport, ("Desk", "Library")) as found:
        yield {"mode": transport, **found}


def called(report: Report, name: str) -> tuple[str, bool]:
    """A tool step's text and isError."""
    outcome = step(report, name)
    return outcome["text"], outcome["isError"]


def test_the_handshake_negotiates_the_latest_revision(report: Report) -> None:
    initialized = step(report, "initialize")
    assert initialized["protocolVersion"] == "2025-11-25"
    assert initialized["serverInfo"]["name"] == "Desk"
    assert "tools" in initialized["capabilities"]
    assert "resources" not in initialized["capabilities"]
    library = step(report, "library_initialize")
    assert {"tools", "resources", "prompts"} <= set(library["capabilities"])


def test_lists_every_tool_with_a_schema_and_a_description(report: Report) -> None:
    tools = step(report, "list_tools")
    assert set(tools["names"]) == TOOLS
    for name in TOOLS:
        assert tools["schemas"][name]["type"] == "object", name
        assert tools["descriptions"][name], name
    schemas = tools["schemas"]
    assert schemas["add"]["properties"]["a"] == {"type": "integer", "description": "The first."}
    assert schemas["scale"]["properties"]["exact"]["type"] == "boolean"
    assert schemas["paint"]["properties"]["color"]["enum"] == ["red", "green"]
    assert "data" in schemas["median"]["properties"]
    assert schemas["ask"]["properties"] == {}  # the question channel is no parameter
    assert set(schemas["count"]["properties"]) == {"n"}  # nor is the progress reporter


def test_a_dataclass_parameter_is_described_in_place(report: Report) -> None:
    place = step(report, "list_tools")["schemas"]["place"]
    assert "$defs" not in place
    point = place["properties"]["point"]
    assert "$ref" not in point
    assert point["type"] == "object"
    assert set(point["properties"]) == {"x", "y"}
    assert point["required"] == ["x"]


def test_calls_a_tool(report: Report) -> None:
    assert called(report, "add") == ("5", False)
    assert step(report, "add")["structured"] == {"result": 5}  # checked by the SDK on arrival


def test_passes_a_float_an_int_for_a_float_and_a_bool(report: Report) -> None:
    assert called(report, "scale") == ("4.5 exactly", False)


def test_passes_a_list(report: Report) -> None:
    assert called(report, "tag_list") == ("memo: a, b", False)


def test_leaves_out_an_optional_list(report: Report) -> None:
    assert called(report, "tag_none") == ("memo: untagged", False)


def test_a_list_written_as_a_json_string_is_accepted(report: Report) -> None:
    assert called(report, "tag_json_string") == ("memo: a", False)


def test_passes_an_object_for_a_dataclass(report: Report) -> None:
    assert called(report, "place") == ("(1, 2)", False)


def test_an_object_written_as_a_json_string_is_accepted(report: Report) -> None:
    assert called(report, "place_json_string") == ("(1, 2)", False)


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
    assert step(report, "desk_lists") == {"resources": [], "templates": [], "prompts": {}}
    assert called(report, "after_desk_lists") == ("4", False)


def test_lists_the_resource_the_template_and_the_prompt(report: Report) -> None:
    assert step(report, "library_lists") == {
        "resources": ["library://readme"],
        "templates": ["library://books/{number}"],
        "prompts": {"review": [{"name": "topic", "required": True}]},
    }


def test_reads_a_resource(report: Report) -> None:
    assert step(report, "library_read")["contents"] == [
        {"uri": "library://readme", "mimeType": "text/plain", "text": "A library of one readme."}
    ]


def test_reads_a_resource_through_its_template(report: Report) -> None:
    assert step(report, "library_read_template")["contents"] == [
        {"uri": "library://books/7", "mimeType": "text/plain", "text": "book 7"}
    ]


def test_gets_a_prompt(report: Report) -> None:
    assert step(report, "library_prompt")["messages"] == [
        {"role": "user", "text": "Please review objmcp."}
    ]
    assert called(report, "library_add") == ("42", False)


def test_a_question_reaches_the_elicitation_callback(report: Report) -> None:
    outcome = step(report, "elicitation")
    if report["mode"] == "http-stateless":  # no way back to the client: the tool is told so
        assert outcome["asked"] == []
        assert outcome["isError"] is True
        assert "ElicitationUnavailable" in outcome["text"]
        assert "stateless" in outcome["text"]
        return
    assert (outcome["text"], outcome["isError"]) == ("hello Ada", False)
    assert len(outcome["asked"]) == 1
    asked = outcome["asked"][0]
    assert asked["message"] == "What is your name?"
    assert asked["requestedSchema"] == {
        "type": "object",
        "properties": {"value": {"type": "string"}},
        "required": ["value"],
    }


def test_progress_reaches_the_progress_callback(report: Report) -> None:
    outcome = step(report, "progress")
    assert (outcome["text"], outcome["isError"]) == ("counted to 3", False)
    assert outcome["notifications"] == [
        {"progress": float(done), "total": 3.0, "message": f"step {done}"} for done in (1, 2, 3)
    ]
    assert called(report, "after_progress") == ("6", False)


def test_no_session_ends_under_a_step_and_each_closes_cleanly(report: Report) -> None:
    assert step(report, "desk.session") == {"closed": True, "ended": []}
    assert step(report, "library.session") == {"closed": True, "ended": []}
