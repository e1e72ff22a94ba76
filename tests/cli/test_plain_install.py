"""Types by default, through real processes: every install brings typeshed (the
``typeshed_client`` dependency), so ``objmcp inspect math`` types the standard library's C
functions and says why where it cannot; without typeshed, one warning says what to install;
and ``objmcp call`` reads ``key=value`` by the tool's schema, so ``json.loads``'s ``s`` stays
the text typed, typed or not (``key:=json`` sends JSON)."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
from typing import Any

import pytest
from conftest import ROOT, server_env
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli import objmcp

from objmcp.cli.arguments import parse_arguments


def test_every_install_depends_on_typeshed_client() -> None:
    unconditional = [r for r in importlib.metadata.requires("objmcp") or [] if ";" not in r]
    names = {re.split(r"[<>=!~\[ ]", r, maxsplit=1)[0].lower() for r in unconditional}
    assert {"typeshed-client", "typeshed_client"} & names, unconditional
    extras = importlib.metadata.metadata("objmcp").get_all("Provides-Extra") or []
    assert "stubs" in extras  # pip install 'objmcp[stubs]' still works


@pytest.fixture(scope="module")
def without_typeshed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment whose ``typeshed_client`` has no typeshed in it, as an install that
    left the data out (or a vendored objmcp with a stand-in) has."""
    folder = tmp_path_factory.mktemp("no-typeshed")
    (folder / "typeshed_client").mkdir()
    (folder / "typeshed_client" / "__init__.py").write_text("")
    env = server_env()
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(folder), env["PYTHONPATH"]])
    return env


def test_inspect_math_types_its_parameters_and_says_why_where_it_cannot() -> None:
    done = objmcp("inspect", "math")
    assert done.returncode == 0, done.stderr.decode()
    rows = {line.split()[0]: line for line in done.stdout.decode().splitlines()[1:]}
    assert "x: number" in rows["sqrt"] and "n: integer" in rows["factorial"]
    assert "p: array[number], q: array[number]" in rows["dist"]
    untyped = sorted(name for name, row in rows.items() if ": any" in row)
    assert untyped == ["ceil", "floor", "prod", "trunc"]
    warnings = [line for line in done.stderr.decode().splitlines() if "warning" in line]
    assert len(warnings) == len(untyped)
    assert (
        "objmcp: warning: tool 'trunc': its stub types parameter x as _SupportsTrunc[_T], "
        "which objmcp cannot read as a JSON type, so any JSON value is accepted"
    ) in warnings
    assert (
        "objmcp: warning: tool 'ceil': its stub's overloads type parameter x differently, so "
        "it has no one type and any JSON value is accepted"
    ) in warnings


def test_inspect_math_without_typeshed_says_once_what_to_install(
    without_typeshed: dict[str, str],
) -> None:
    done = objmcp("inspect", "math", env=without_typeshed)
    assert done.returncode == 0, done.stderr.decode()
    assert "x: any" in done.stdout.decode()
    warnings = [line for line in done.stderr.decode().splitlines() if "warning" in line]
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith("objmcp: warning: 55 tools (acos, acosh, asin, asinh, atan, ...)")
    assert "pip install typeshed_client" in warnings[0]


CALLS = [
    ("installed", ["json", "loads", 's={"a": 1}'], '{"a":1}'),  # typed str: the text typed
    ("missing", ["json", "loads", 's={"a": 1}'], '{"a":1}'),  # untyped: the text typed too
    ("installed", ["json", "dumps", 'obj={"a": 1}'], '"{\\"a\\": 1}"'),  # Any: the same
    ("installed", ["json", "dumps", 'obj:={"a": 1}'], '{"a": 1}'),  # key:=json: the object
]


@pytest.mark.parametrize(("typeshed", "args", "expected"), CALLS)
def test_call_sends_what_was_typed_to_a_parameter_that_takes_text(
    typeshed: str, args: list[str], expected: str, without_typeshed: dict[str, str]
) -> None:
    env = without_typeshed if typeshed == "missing" else server_env()
    done = objmcp("call", *args, env=env)
    assert (done.stdout.decode(), done.returncode) == (expected + "\n", 0), done.stderr.decode()


# --- key=value read by the schema, as a property ----------------------------------------------

SCHEMAS: list[dict[str, Any]] = [
    {"type": "string"},
    {"type": "integer"},
    {"type": "number"},
    {"type": "boolean"},
    {"type": "array", "items": {"type": "integer"}},
    {"type": "object"},
    {},  # untyped: any value
    {"anyOf": [{"type": "integer"}, {"type": "string"}]},
    {"type": ["number", "string", "null"]},
    {"enum": ["a", 1]},
    {"$ref": "#/$defs/Text"},
]
DEFS = {"Text": {"type": "string"}}

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=6,
)


def kinds_of(schema: dict[str, Any]) -> set[str]:
    """What the schema takes, written out here independently of the client's reading."""
    schema = DEFS["Text"] if "$ref" in schema else schema
    if not schema:
        return {"string", "number", "integer", "boolean", "null", "array", "object"}
    if "anyOf" in schema:
        return {option["type"] for option in schema["anyOf"]}
    if "enum" in schema:
        return {"string", "integer", "number"}
    kind = schema["type"]
    return set(kind) if isinstance(kind, list) else {kind}


def kind_of(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return {str: "string", list: "array", dict: "object"}[type(value)]


@given(st.sampled_from(SCHEMAS), JSON)
@settings(max_examples=400, deadline=None)
def test_a_value_is_read_by_what_its_parameter_takes(schema: dict[str, Any], value: Any) -> None:
    text = json.dumps(value)
    tool_schema = {"properties": {"v": schema}, "$defs": DEFS}
    read = parse_arguments([f"v={text}"], tool_schema)["v"]
    assert parse_arguments([f"v:={text}"], tool_schema)["v"] == value
    kinds = kinds_of(schema)
    if "string" not in kinds:
        assert read == value  # JSON, as before
    elif (
        kind_of(value) in kinds - {"string", "array", "object", "null"}
        or (kind_of(value) == "integer" and "number" in kinds)
        or (value is None and not schema)
    ):
        assert read == value and type(read) is type(value)  # a number or boolean it takes
    else:
        assert read == text  # the text as typed


@given(st.sampled_from(SCHEMAS), st.text() | JSON.map(json.dumps))
@settings(max_examples=300, deadline=None)
def test_any_text_for_a_parameter_that_takes_text_is_kept_or_is_a_scalar_it_takes(
    schema: dict[str, Any], text: str
) -> None:
    tool_schema = {"properties": {"v": schema}, "$defs": DEFS}
    read = parse_arguments([f"v={text}"], tool_schema)["v"]
    if "string" in kinds_of(schema) and read != text:
        assert json.loads(text) == read and kind_of(read) in {
            "integer",
            "number",
            "boolean",
            "null",
        }


def test_key_json_that_is_not_json_says_so() -> None:
    with pytest.raises(ValueError, match=r"v:= takes a JSON value .*write v=\.\.\. for text"):
        parse_arguments(["v:={oops"], {"properties": {"v": {}}})


def test_an_unknown_key_goes_by_additional_properties() -> None:
    schema = {"properties": {}, "additionalProperties": {"type": "string"}}
    assert parse_arguments(["k=1", "j:=1"], schema) == {"k": "1", "j": 1}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["math", "isinf", "x=Infinity"], "true"),  # a hang: Python's json read it as inf
        (["math", "fabs", "x=-inf"], "Infinity"),
        (["math", "isnan", "x=NaN"], "true"),
        (["math", "fsum", 'seq=[1, "-Infinity"]'], "-Infinity"),
    ],
)
def test_call_sends_nan_and_infinities_by_name_and_a_float_parameter_takes_them(
    args: list[str], expected: str
) -> None:
    done = objmcp("call", *args, env=server_env())
    assert (done.stdout.decode(), done.returncode) == (expected + "\n", 0), done.stderr.decode()


@given(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "[1, NaN]"]))
def test_python_s_own_json_constants_are_never_sent_as_numbers(text: str) -> None:
    for schema in SCHEMAS:
        tool_schema = {"properties": {"v": schema}, "$defs": DEFS}
        read = parse_arguments([f"v={text}"], tool_schema)["v"]
        assert read == text, (schema, read)  # JSON has no such number: the text as typed
    with pytest.raises(ValueError, match="takes a JSON value"):
        parse_arguments([f"v:={text}"], {"properties": {"v": {}}})
