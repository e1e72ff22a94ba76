"""What a ``bytes`` (``bytearray``, ``memoryview``) parameter takes, as a rule with one
reading: a string is always text, taken as its UTF-8 bytes, whatever its characters (a
password, a message, a JSON text; ``"salt"`` is those four bytes, never the base64 reading
of them); bytes that are not UTF-8 text come as ``{"base64": "..."}``. In a union with
``str`` a string stays text. The argument form of any bytes validates against the input
schema and converts back to them; a result's bytes have the same schema (issue 37, round 4).
Served through a real process: ``serving/test_rule_causes1.py``."""

from __future__ import annotations

import base64
from typing import Optional

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from objmcp.model.describe.schema import SchemaBuilder
from objmcp.model.values.convert import from_json
from objmcp.model.values.jsonable import binary_form
from objmcp.model.values.mismatch import ConversionError

BINARY = (bytes, bytearray, memoryview)


def argument_schema(hint: object) -> Draft202012Validator:
    """The validator of the input schema of a parameter typed ``hint``."""
    return Draft202012Validator(SchemaBuilder(quiet=True).schema(hint))


@given(st.text(), st.sampled_from(BINARY))
def test_a_string_is_its_utf8_text_whatever_its_characters(text: str, kind: type) -> None:
    assert argument_schema(kind).is_valid(text)
    assert bytes(from_json(text, kind)) == text.encode("utf-8")  # type: ignore[call-overload]


@given(st.binary(), st.sampled_from(BINARY))
def test_any_bytes_come_back_from_their_argument_form(data: bytes, kind: type) -> None:
    sent = binary_form(data)
    assert argument_schema(kind).is_valid(sent)
    converted = from_json(sent, kind)
    assert type(converted) is kind and bytes(converted) == data  # type: ignore[call-overload]
    wrapped = {"base64": base64.b64encode(data).decode("ascii")}
    assert argument_schema(kind).is_valid(wrapped)
    assert bytes(from_json(wrapped, kind)) == data  # type: ignore[call-overload]


@given(st.text())
def test_in_a_union_with_str_a_string_stays_text(text: str) -> None:
    for hint in (str | bytes, bytes | str, Optional[bytes | str]):  # noqa: UP045
        assert from_json(text, hint) == text
        assert from_json({"base64": base64.b64encode(text.encode()).decode()}, hint) == (
            text.encode()
        )
    assert from_json(text, Optional[bytes]) == text.encode()  # noqa: UP045
    assert from_json(None, Optional[bytes]) is None  # noqa: UP045


@given(st.lists(st.binary(max_size=8), max_size=4))
def test_containers_of_bytes_take_each_item_alike(items: list[bytes]) -> None:
    sent = [binary_form(item) for item in items]
    assert argument_schema(list[bytes]).is_valid(sent)
    assert from_json(sent, list[bytes]) == items
    named = {str(i): item for i, item in enumerate(items)}
    sent_named = {key: binary_form(item) for key, item in named.items()}
    assert from_json(sent_named, dict[str, bytes]) == named


def test_the_union_schema_lists_text_once_and_bytes_by_their_object() -> None:
    schema = SchemaBuilder(quiet=True).schema(Optional[str | bytes])  # noqa: UP045
    assert [option.get("type") for option in schema["anyOf"]] == ["string", "object", "null"]
    result = SchemaBuilder(quiet=True, results=True).schema(bytes)
    assert result == SchemaBuilder(quiet=True).schema(bytes)
    assert [option["type"] for option in result["anyOf"]] == ["string", "object"]


@pytest.mark.parametrize(
    ("sent", "said"),
    [
        ({"base64": "not base64!"}, "expected padded base64 at 'base64'"),
        ({"base64": "aGk"}, "expected padded base64 at 'base64'"),
        ({"base64": 5}, "expected padded base64 at 'base64'"),
        ({"base64": "aGk=", "more": 1}, 'or {"base64": "..."}'),
        (5, 'expected a text (taken as its UTF-8 bytes) or {"base64": "..."}, got integer 5'),
        ("\ud800", "lone surrogate"),
    ],
)
def test_what_is_no_bytes_is_refused_saying_what_to_send(sent: object, said: str) -> None:
    with pytest.raises(ConversionError) as refused:
        from_json(sent, bytes, "data")
    assert refused.value.path == "data" and said in refused.value.message
