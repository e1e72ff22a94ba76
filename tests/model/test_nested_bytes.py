"""Bytes in a result (issue 37, round 4) take the form a bytes argument takes: their text
when they are UTF-8, else ``{"base64": "..."}``, alone or nested, whether or not the tool
has an output schema; the output schema of bytes is the input schema's, so whatever a tool
answers validates and converts back to the same bytes. Served through a real process in
``serving/test_bytes_answered_served.py`` and ``serving/test_values_round2_served.py``."""

from __future__ import annotations

import base64
import json
from typing import Any

import jsonschema
from hypothesis import given
from hypothesis import strategies as st

from objmcp.model.calling.outcome import tool_result
from objmcp.model.calling.tool import make_tool
from objmcp.model.describe.schema import SchemaBuilder
from objmcp.model.values.convert import from_json
from objmcp.model.values.jsonable import argument_form, binary_form, to_jsonable

LEAVES = st.one_of(st.binary(max_size=12), st.text(max_size=4).map(str.encode))
NESTED = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)
HINTS: list[Any] = [bytes, bytearray, list[bytes], dict[str, bytes], dict[bytes, bytes]]


def _pairs(value: object, sent: object) -> list[tuple[bytes, object]]:
    """Each bytes leaf of ``value`` with what was sent for it."""
    if isinstance(value, bytes):
        return [(value, sent)]
    if isinstance(value, list):
        assert isinstance(sent, list)
        return [pair for v, s in zip(value, sent, strict=True) for pair in _pairs(v, s)]
    assert isinstance(value, dict) and isinstance(sent, dict)
    return [pair for key, v in value.items() for pair in _pairs(v, sent[key])]


def _utf8(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


@given(NESTED)
def test_nested_bytes_are_their_text_when_utf8_else_a_base64_object(value: object) -> None:
    for data, sent in _pairs(value, to_jsonable(value)):
        text = _utf8(data)
        if text is not None:
            assert sent == text
        else:
            assert isinstance(sent, dict) and list(sent) == ["base64"]
            assert base64.b64decode(sent["base64"], validate=True) == data


@given(st.binary(max_size=32))
def test_any_bytes_answered_validate_and_convert_back(data: bytes) -> None:
    sent = to_jsonable(data)
    assert sent == binary_form(data)
    jsonschema.validate(sent, SchemaBuilder(results=True).schema(bytes))
    assert from_json(sent, bytes) == data
    assert from_json(json.loads(json.dumps(sent)), bytes) == data


@given(st.lists(st.binary(max_size=8), max_size=4), st.dictionaries(LEAVES, LEAVES, max_size=3))
def test_nested_bytes_answered_validate_and_convert_back(
    items: list[bytes], table: dict[bytes, bytes]
) -> None:
    for value, hint in [(items, list[bytes]), (table, dict[bytes, bytes])]:
        sent = json.loads(json.dumps(to_jsonable(value)))
        jsonschema.validate(sent, SchemaBuilder(results=True).schema(hint))
        if value is items or all(_utf8(key) is not None for key in table):  # a key is text
            assert from_json(sent, hint) == value


def test_bytes_have_one_schema_for_results_and_arguments() -> None:
    for hint in HINTS:
        assert SchemaBuilder(results=True).schema(hint) == SchemaBuilder().schema(hint)


def files():  # type: ignore[no-untyped-def]  # no return type: no output schema
    return {"/a.txt": b"hello", "/b.bin": b"\xff"}


def typed_files() -> dict[str, bytes]:
    return {"/a.txt": b"hello", "/b.bin": b"\xff"}


def test_a_tool_without_an_output_schema_sends_nested_bytes_in_their_form() -> None:
    tool = make_tool("files", files)
    assert tool.output_schema is None
    result = tool_result(tool, files())
    assert json.loads(result.text) == {"/a.txt": "hello", "/b.bin": {"base64": "/w=="}}


def test_a_tool_whose_return_type_says_bytes_sends_the_same_form() -> None:
    tool = make_tool("typed_files", typed_files)
    assert tool.output_schema is not None
    result = tool_result(tool, typed_files())
    assert result.structured == {"/a.txt": "hello", "/b.bin": {"base64": "/w=="}}
    assert json.loads(result.text) == result.structured
    jsonschema.validate(result.structured, tool.output_schema)


PLAIN_TEXT = st.text(
    st.characters(blacklist_characters="'\"", blacklist_categories=("Cs",)), max_size=3
)
"""Key text that is no bytes' ``str`` (``"b'a'"``): bytes keys written as text beside it."""


@given(st.dictionaries(PLAIN_TEXT | PLAIN_TEXT.map(str.encode), st.integers(), max_size=6))
def test_a_bytes_key_whose_text_another_key_has_loses_no_entry(table: dict[Any, int]) -> None:
    for sent in (to_jsonable(table), argument_form(table)):
        assert isinstance(sent, dict) and sorted(sent.values()) == sorted(table.values())
        for key, value in table.items():
            shared = isinstance(key, bytes) and key.decode() in table
            expected = str(key) if shared else key.decode() if isinstance(key, bytes) else key
            assert sent[expected] == value


def test_a_bytes_key_beside_its_text_keeps_its_str() -> None:
    assert to_jsonable({b"a": 1, "a": 2, b"c": 3}) == {"b'a'": 1, "a": 2, "c": 3}
