"""Bytes inside a result (issue 37): a tool with no output schema sends the bytes in a
list or a mapping as it sends bytes returned alone, their text when they are UTF-8 and
base64 when not; a tool whose return type says bytes keeps base64, as its schema says.
Served through a real process in ``serving/test_values_round2_served.py``."""

from __future__ import annotations

import base64
import json

from hypothesis import given
from hypothesis import strategies as st

from objmcp.model.jsonable import to_jsonable
from objmcp.model.outcome import tool_result
from objmcp.model.tool import make_tool

LEAVES = st.one_of(st.binary(max_size=12), st.text(max_size=4).map(str.encode))
NESTED = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)


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
def test_nested_bytes_are_their_text_when_utf8_else_base64(value: object) -> None:
    for data, sent in _pairs(value, to_jsonable(value, bytes_as_text=True)):
        text = _utf8(data)
        if text is not None:
            assert sent == text
        else:
            assert isinstance(sent, str) and base64.b64decode(sent, validate=True) == data


@given(NESTED)
def test_without_the_option_nested_bytes_stay_base64(value: object) -> None:
    for data, sent in _pairs(value, to_jsonable(value)):
        assert isinstance(sent, str) and base64.b64decode(sent, validate=True) == data


def files():  # type: ignore[no-untyped-def]  # no return type: no output schema
    return {"/a.txt": b"hello", "/b.bin": b"\xff"}


def typed_files() -> dict[str, bytes]:
    return {"/a.txt": b"hello", "/b.bin": b"\xff"}


def test_a_tool_without_an_output_schema_sends_nested_text_as_text() -> None:
    tool = make_tool("files", files)
    assert tool.output_schema is None
    result = tool_result(tool, files())
    assert json.loads(result.text) == {"/a.txt": "hello", "/b.bin": "/w=="}


def test_a_tool_whose_return_type_says_bytes_keeps_base64() -> None:
    tool = make_tool("typed_files", typed_files)
    assert tool.output_schema is not None
    result = tool_result(tool, typed_files())
    assert result.structured == {"/a.txt": "aGVsbG8=", "/b.bin": "/w=="}
    assert json.loads(result.text) == result.structured
