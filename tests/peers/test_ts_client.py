"""Interoperability: the official TypeScript MCP SDK client drives objmcp servers.

``tests/js/client.mjs`` connects through the SDK's ``StdioClientTransport`` (the handshake era:
``initialize`` offering 2025-11-25), lists the tools, makes the calls in a JSON script and prints
one JSON report. These tests start it, and through it the real server subprocesses, and check the
report. The SDK is installed from ``tests/js/package-lock.json`` with ``npm ci`` when missing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import JS, JS_SDK_PACKAGE, NOTES, PYTHON, ZOO
from peer_helpers import drive_js, is_error, run_script, text_of

DRIVER = JS / "client.mjs"
SDK_VERSION = "1.32.2"
SDK_PACKAGE = JS_SDK_PACKAGE


def run_driver(
    node: str, server: Path, calls: list[dict[str, Any]], *server_args: str
) -> tuple[dict[str, Any], str]:
    """Run the TS driver against ``server``; returns its report and the combined stderr."""
    return run_script(node, DRIVER, server, {"calls": calls}, *server_args)


DESCRIBE_ARGUMENTS: dict[str, Any] = {
    "color": "red",
    "point": {"x": 1, "y": 2.5},
    "span": {"start": 3, "end": 7},
    "person": {"name": "Ada", "age": 36},
    "when": "2024-01-02T03:04:05",
    "day": "2024-01-02",
    "ident": "12345678-1234-5678-1234-567812345678",
    "amount": "1.50",
    "path": "/tmp/some/file.txt",
    "mode": "slow",
    "pair": [2, "b"],
    "labels": ["x"],
    "note": "hi",
}

UNICODE = 'héllo wörld ✓ 🦊 中文 \u0000 \u2028 "quotes" \\ tab\tend\nnew line'

# One zoo session runs every call below, in this order; tests look results up by label.
ZOO_CALLS: dict[str, dict[str, Any]] = {
    "add": {"name": "add", "arguments": {"a": 2, "b": 3}},
    "echo": {"name": "echo", "arguments": {"text": UNICODE}},
    "wrong_type": {"name": "add", "arguments": {"a": "two", "b": 3}},
    "missing": {"name": "add", "arguments": {"a": 2}},
    "unexpected": {"name": "add", "arguments": {"a": 1, "b": 2, "c": 3}},
    "fail": {"name": "fail", "arguments": {"message": "boom at the zoo"}},
    "refuse": {"name": "refuse", "arguments": {"message": "No, not today: «reason» 42."}},
    "unknown": {"name": "no_such_tool", "arguments": {}},
    "private": {"name": "_private", "arguments": {}},
    "property": {"name": "hidden_property", "arguments": {}},
    "describe": {"name": "describe", "arguments": DESCRIBE_ARGUMENTS},
    "bad_enum": {"name": "describe", "arguments": {**DESCRIBE_ARGUMENTS, "color": "blue"}},
    "noisy": {"name": "noisy", "arguments": {"text": "NOISE-7f3a"}},
    "after_noisy": {"name": "add", "arguments": {"a": 40, "b": 2}},
    "total": {"name": "total", "arguments": {"numbers": [1, 2, 3.5]}},
    "total_empty": {"name": "total", "arguments": {}},
    "options": {"name": "options", "arguments": {"name": "abc", "k": 3}},
    "nothing": {"name": "nothing", "arguments": {}},
    "nan": {"name": "not_a_number", "arguments": {}},
    "nap": {"name": "nap", "arguments": {"seconds": 0.01}},
    "sleep": {"name": "sleep", "arguments": {"seconds": 0.01}},
}


class ZooRun:
    """The report of one TS-driven session against the zoo server."""

    def __init__(self, report: dict[str, Any], stderr: str) -> None:
        self.report = report
        self.stderr = stderr
        self.calls: dict[str, dict[str, Any]] = dict(zip(ZOO_CALLS, report["calls"], strict=True))
        self.tools: dict[str, dict[str, Any]] = {tool["name"]: tool for tool in report["tools"]}

    def __getitem__(self, label: str) -> dict[str, Any]:
        entry = self.calls[label]
        assert entry["name"] == ZOO_CALLS[label]["name"]
        return entry


@pytest.fixture(scope="module")
def zoo_run(node: str) -> ZooRun:
    """Every zoo call, made once by the TS client in one session."""
    report, stderr = run_driver(node, ZOO, list(ZOO_CALLS.values()))
    return ZooRun(report, stderr)


def test_sdk_is_the_pinned_version(node: str) -> None:
    installed = json.loads(SDK_PACKAGE.read_text(encoding="utf-8"))
    assert installed["version"] == SDK_VERSION
    declared = json.loads((JS / "package.json").read_text(encoding="utf-8"))
    assert declared["dependencies"]["@modelcontextprotocol/sdk"] == SDK_VERSION
    lock = json.loads((JS / "package-lock.json").read_text(encoding="utf-8"))
    assert lock["packages"]["node_modules/@modelcontextprotocol/sdk"]["version"] == SDK_VERSION


# -- the handshake ---------------------------------------------------------------------------


def test_handshake(zoo_run: ZooRun) -> None:
    report = zoo_run.report
    assert report["serverVersion"]["name"] == "zoo"
    assert report["serverVersion"]["title"] == "The Zoo"
    assert isinstance(report["serverVersion"]["version"], str)
    assert report["serverVersion"]["version"]
    assert report["instructions"] == "A zoo of tools."
    assert "tools" in report["capabilities"]
    # The SDK offers its newest version; a handshake-era server that knows it accepts it.
    assert report["protocolVersion"] == "2025-11-25"


# -- the tool list ---------------------------------------------------------------------------


def test_tool_names(zoo_run: ZooRun) -> None:
    names = [tool["name"] for tool in zoo_run.report["tools"]]
    assert len(names) == len(set(names))
    expected = {
        "add",
        "echo",
        "describe",
        "fail",
        "refuse",
        "sleep",
        "nap",
        "noisy",
        "nothing",
        "not_a_number",
        "total",
        "options",
        "ask",
    }
    assert expected <= set(names)
    assert "_private" not in names
    assert "hidden_property" not in names
    assert not [name for name in names if name.startswith("_")]


def test_add_schema(zoo_run: ZooRun) -> None:
    add = zoo_run.tools["add"]
    assert add["description"] == "Add two integers."
    schema = add["inputSchema"]
    assert schema["type"] == "object"
    assert schema["properties"]["a"]["type"] == "integer"
    assert schema["properties"]["b"]["type"] == "integer"
    assert schema["properties"]["a"]["description"] == "The first."
    assert schema["properties"]["b"]["description"] == "The second."
    assert sorted(schema["required"]) == ["a", "b"]
    assert schema.get("additionalProperties") is False


def test_descriptions_come_from_docstrings(zoo_run: ZooRun) -> None:
    tools = zoo_run.tools
    assert tools["echo"]["description"] == "Say it back."
    assert tools["fail"]["description"] == "Raise a ValueError."
    assert tools["total"]["description"] == "Sum any number of numbers."
    assert tools["describe"]["description"].startswith("Report the Python types")


def test_describe_schema(zoo_run: ZooRun) -> None:
    schema = zoo_run.tools["describe"]["inputSchema"]
    properties = schema["properties"]
    assert properties["color"]["enum"] == ["red", "green"]
    assert properties["mode"]["enum"] == ["fast", "slow"]
    assert properties["mode"].get("default") == "fast"
    assert properties["when"]["format"] == "date-time"
    assert properties["day"]["format"] == "date"
    assert properties["ident"]["format"] == "uuid"
    assert properties["note"]["description"] == "A free note."
    required = set(schema["required"])
    assert {"color", "point", "span", "person", "when", "day", "ident", "amount", "path"} == (
        required
    )


def test_variadic_schemas(zoo_run: ZooRun) -> None:
    total = zoo_run.tools["total"]["inputSchema"]
    assert total["properties"]["numbers"]["type"] == "array"
    assert total["properties"]["numbers"]["items"]["type"] == "number"
    assert "numbers" not in total.get("required", [])
    options = zoo_run.tools["options"]["inputSchema"]
    assert options["required"] == ["name"]
    assert options["additionalProperties"] == {"type": "integer"}
    # Injected parameters (elicitation) are not arguments.
    assert zoo_run.tools["ask"]["inputSchema"]["properties"] == {}


# -- calls -----------------------------------------------------------------------------------


def test_add(zoo_run: ZooRun) -> None:
    assert not is_error(zoo_run["add"])
    assert text_of(zoo_run["add"]) == "5"


def test_echo_keeps_unicode(zoo_run: ZooRun) -> None:
    assert not is_error(zoo_run["echo"])
    assert text_of(zoo_run["echo"]) == UNICODE


def test_wrong_type_names_the_parameter(zoo_run: ZooRun) -> None:
    entry = zoo_run["wrong_type"]
    assert is_error(entry)
    text = text_of(entry)
    assert "'a'" in text
    assert "integer" in text


def test_missing_argument_names_it(zoo_run: ZooRun) -> None:
    entry = zoo_run["missing"]
    assert is_error(entry)
    text = text_of(entry)
    assert "'b'" in text
    assert "missing" in text.lower()


def test_unexpected_argument_names_it(zoo_run: ZooRun) -> None:
    entry = zoo_run["unexpected"]
    assert is_error(entry)
    assert "'c'" in text_of(entry)


def test_exception_is_a_tool_error(zoo_run: ZooRun) -> None:
    entry = zoo_run["fail"]
    assert is_error(entry)
    text = text_of(entry)
    assert "ValueError" in text
    assert "boom at the zoo" in text


def test_tool_error_message_as_is(zoo_run: ZooRun) -> None:
    entry = zoo_run["refuse"]
    assert is_error(entry)
    assert text_of(entry) == "No, not today: «reason» 42."


@pytest.mark.parametrize("label", ["unknown", "private", "property"])
def test_unknown_tool_is_a_protocol_error(zoo_run: ZooRun, label: str) -> None:
    entry = zoo_run[label]
    assert "result" not in entry, entry
    assert entry["error"]["name"] == "McpError"
    assert entry["error"]["code"] == -32602
    assert ZOO_CALLS[label]["name"] in entry["error"]["message"]


def test_describe_converts_to_python_types(zoo_run: ZooRun) -> None:
    entry = zoo_run["describe"]
    assert not is_error(entry), text_of(entry)
    described = json.loads(text_of(entry))
    assert set(described) == set(DESCRIBE_ARGUMENTS)
    assert described["color"].startswith("Color:")
    assert "Color.RED" in described["color"]
    assert described["point"] == "Point:Point(x=1, y=2.5)"
    assert described["span"] == "Span:Span(start=3, end=7)"
    assert described["person"].startswith("dict:")
    assert described["when"] == "datetime:datetime.datetime(2024, 1, 2, 3, 4, 5)"
    assert described["day"] == "date:datetime.date(2024, 1, 2)"
    assert described["ident"] == "UUID:UUID('12345678-1234-5678-1234-567812345678')"
    assert described["amount"] == "Decimal:Decimal('1.50')"
    assert described["path"].endswith("Path('/tmp/some/file.txt')")
    assert described["mode"] == "str:'slow'"
    assert described["pair"] == "tuple:(2, 'b')"
    assert described["labels"] == "set:{'x'}"
    assert described["note"] == "str:'hi'"


def test_invalid_enum_value(zoo_run: ZooRun) -> None:
    entry = zoo_run["bad_enum"]
    assert is_error(entry)
    text = text_of(entry)
    assert "'color'" in text
    assert "blue" in text


def test_noisy_output_never_corrupts_the_protocol(zoo_run: ZooRun) -> None:
    entry = zoo_run["noisy"]
    assert not is_error(entry)
    assert text_of(entry) == "quiet NOISE-7f3a"
    # The session went on cleanly afterwards ...
    assert text_of(zoo_run["after_noisy"]) == "42"
    # ... and the stray output went to stderr (inherited through node), all three kinds of it.
    assert "print says NOISE-7f3a" in zoo_run.stderr
    assert "sys.stdout says NOISE-7f3a" in zoo_run.stderr
    assert "fd 1 says NOISE-7f3a" in zoo_run.stderr


def test_variadic_positional(zoo_run: ZooRun) -> None:
    assert text_of(zoo_run["total"]) == "6.5"
    assert not is_error(zoo_run["total"])
    assert not is_error(zoo_run["total_empty"])
    assert json.loads(text_of(zoo_run["total_empty"])) == 0


def test_variadic_keywords(zoo_run: ZooRun) -> None:
    assert not is_error(zoo_run["options"])
    assert json.loads(text_of(zoo_run["options"])) == {"len": 3, "k": 3}


def test_none_and_nan(zoo_run: ZooRun) -> None:
    assert not is_error(zoo_run["nothing"])
    assert not is_error(zoo_run["nan"]) and text_of(zoo_run["nan"]) == "NaN"


def test_sync_and_async_tools(zoo_run: ZooRun) -> None:
    assert text_of(zoo_run["nap"]) == "napped 0.01"
    assert text_of(zoo_run["sleep"]) == "slept 0.01"


@pytest.mark.parametrize("framing", ["auto", "newline"])
def test_framings_the_ts_client_can_use(node: str, framing: str) -> None:
    report, _ = run_driver(node, ZOO, [ZOO_CALLS["add"]], framing)
    assert report["serverVersion"]["name"] == "zoo"
    assert text_of(report["calls"][0]) == "5"


# -- the notes example ------------------------------------------------------------------------


def test_notes_example(node: str) -> None:
    calls: list[dict[str, Any]] = [
        {"name": "add", "arguments": {"title": "Milk", "body": "Buy two", "tags": ["Shop"]}},
        {"name": "add", "arguments": {"title": "Milk"}},
        {"name": "add", "arguments": {"title": "Call Ada"}},
        {"name": "find", "arguments": {"text": "shop"}},
        {"name": "find", "arguments": {"text": "", "limit": 1}},
        {"name": "remove", "arguments": {"title": "Milk"}},
        {"name": "remove", "arguments": {"title": "Milk"}},
        {"name": "find", "arguments": {"text": "milk"}},
        {"name": "find", "arguments": {"limit": 3}},
    ]
    report, _ = run_driver(node, NOTES, calls)
    assert report["serverVersion"]["name"] == "notes"
    assert report["instructions"] == "Keep short notes; find them by text or tag."

    tools = {tool["name"]: tool for tool in report["tools"]}
    assert set(tools) == {"add", "find", "remove"}
    assert tools["add"]["description"] == "Add a note."
    add_schema = tools["add"]["inputSchema"]
    assert add_schema["required"] == ["title"]
    assert add_schema["properties"]["title"] == {
        "type": "string",
        "description": "Short title, unique.",
    }
    find_schema = tools["find"]["inputSchema"]
    assert find_schema["properties"]["limit"]["type"] == "integer"
    assert find_schema["properties"]["limit"].get("default") == 10

    added, duplicate, second, by_tag, limited, removed, again, gone, no_text = report["calls"]
    assert json.loads(text_of(added)) == {"title": "Milk", "body": "Buy two", "tags": ["Shop"]}
    assert is_error(duplicate)
    assert text_of(duplicate) == "A note titled 'Milk' exists already"
    assert not is_error(second)
    assert [note["title"] for note in json.loads(text_of(by_tag))] == ["Milk"]
    assert len(json.loads(text_of(limited))) == 1
    assert json.loads(text_of(removed)) is True
    assert json.loads(text_of(again)) is False
    assert json.loads(text_of(gone)) == []
    assert is_error(no_text)
    assert "'text'" in text_of(no_text)


def test_a_search_adds_the_tools_it_found_to_the_list(node: str) -> None:
    # sympy served whole (476 tools) lists the search tools (discovery auto); what a search
    # finds joins the session's list, with notifications/tools/list_changed
    script = {
        "calls": [
            {"name": "search_tools", "arguments": {"query": "factor a polynomial", "limit": 3}},
            {"name": "factor", "arguments": {"f": "x**2 - 1"}},
            {"name": "call_tool", "arguments": {"name": "expand", "arguments": {"e": "(x+1)**2"}}},
        ],
        "relist": True,
    }
    report, _ = drive_js(node, DRIVER, script, str(PYTHON), "-m", "objmcp", "run", "sympy")
    before = [tool["name"] for tool in report["tools"]]
    after = [tool["name"] for tool in report["toolsAfter"]]
    searched, direct, through = (call["result"] for call in report["calls"])
    found = [hit["name"] for hit in json.loads(searched["content"][0]["text"])]
    assert before == ["search_tools", "describe_tools", "call_tool"]
    assert "factor" in found and set(found) <= set(after) and report["listChanged"] >= 1
    assert direct["content"][0]["text"] == "(x - 1)*(x + 1)"
    assert through["content"][0]["text"] == "x**2 + 2*x + 1"
