"""Arguments as weaker clients send them: JSON text where the schema wants another kind.

Some clients' converters look only at a property's own ``type``; an ``anyOf`` (an
``Optional[list]``), a ``$ref`` or an untyped parameter has none, so they send the value
as JSON text. objmcp reads such a string when the schema refuses it and the JSON is of a
kind the parameter takes (docs/reference/calls.md). The properties
here: a valid value sent as its JSON text binds exactly as the value does; whatever a
string becomes, it fits the parameter's schema, or the call is refused naming the
parameter; a parameter that takes strings gets its string untouched; ``lenient=False``
reads nothing.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

import objmcp
from objmcp import ArgumentError
from objmcp.model.values.nonfinite import named_float


@dataclass
class Point:
    """A point."""

    x: float
    y: float = 0.0


def tags(tags: list[str] | None = None) -> object:
    """An optional list."""
    return tags


def point(point: Point) -> object:
    """A dataclass."""
    return point


def counts(counts: dict[str, int]) -> object:
    """A mapping."""
    return counts


def number(value: float) -> object:
    """A number."""
    return value


def integer(value: int) -> object:
    """An integer."""
    return value


def flag(value: bool) -> object:
    """A boolean."""
    return value


def level(value: Literal[1, 2, 3]) -> object:
    """Integers only, in an enum."""
    return value


def text_or_list(value: str | list[str]) -> object:
    """A string is one of the kinds it takes."""
    return value


def untyped(data):  # type: ignore[no-untyped-def]
    """No type at all."""
    return data


NON_STRING = [tags, point, counts, number, integer, flag, level]
TOOLS = objmcp.Toolbox({f.__name__: f for f in [*NON_STRING, text_or_list, untyped]})
STRICT = objmcp.Toolbox(
    {f.__name__: f for f in [*NON_STRING, text_or_list, untyped]}, lenient=False
)


def parameter(tool: str) -> tuple[str, dict[str, Any]]:
    schema = TOOLS[tool].input_schema
    ((name, prop),) = schema["properties"].items()
    return name, prop


def bound(toolbox: objmcp.Toolbox, tool: str, value: object) -> object:
    name, _ = parameter(tool)
    positional, keywords = toolbox[tool].bind({name: value})
    return keywords.get(name, positional[0] if positional else None)


@pytest.mark.parametrize("tool", [f.__name__ for f in NON_STRING])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_valid_value_sent_as_json_text_binds_as_the_value_does(
    tool: str, data: st.DataObject
) -> None:
    _, prop = parameter(tool)
    value = data.draw(from_schema(prop), label="value")
    assert bound(TOOLS, tool, json.dumps(value)) == bound(TOOLS, tool, value)
    with pytest.raises(ArgumentError):
        bound(STRICT, tool, json.dumps(value))


@pytest.mark.parametrize("tool", [f.__name__ for f in NON_STRING])
@example(text="INF")
@example(text="-inf")
@example(text="NaN")
@settings(max_examples=60, deadline=None)
@given(
    text=st.text(max_size=12)
    | st.builds(
        json.dumps,
        st.recursive(
            st.none() | st.booleans() | st.floats() | st.text(max_size=3),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.text(max_size=2), inner, max_size=3)
            ),
            max_leaves=5,
        ),
    )
)
def test_any_string_becomes_a_value_the_schema_takes_or_is_refused_by_name(
    tool: str, text: str
) -> None:
    name, prop = parameter(tool)
    validator = TOOLS[tool]._validator
    try:
        read = validator.check({name: text})
    except ArgumentError as error:
        assert f"'{name}" in str(error)
        return
    named = named_float(text)  # a float parameter takes NaN and the infinities by name
    if named is not None:
        assert read[name] == named or (math.isnan(named) and math.isnan(read[name]))
        return
    assert Draft202012Validator(prop).is_valid(read[name]), (text, read)
    assert read[name] == json.loads(text)


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=12) | st.just('["a", "b"]') | st.just("[1]"))
def test_a_parameter_that_takes_strings_keeps_its_string(text: str) -> None:
    assert bound(TOOLS, "text_or_list", text) == text


def test_an_untyped_parameter_takes_a_json_array_text_as_the_list() -> None:
    assert TOOLS.call("untyped", {"data": "[3, 1, 2]"}).value == [3, 1, 2]
    assert TOOLS.call("untyped", {"data": " [1] "}).value == [1]
    assert TOOLS.call("untyped", {"data": "[not json"}).value == "[not json"
    assert TOOLS.call("untyped", {"data": '{"a": 1}'}).value == '{"a": 1}'  # arrays only
    assert TOOLS.call("untyped", {"data": "12"}).value == "12"
    assert STRICT.call("untyped", {"data": "[3, 1, 2]"}).value == "[3, 1, 2]"


def test_what_is_read_and_what_is_not() -> None:
    assert TOOLS.call("tags", {"tags": '["a", "b"]'}).value == ["a", "b"]
    assert TOOLS.call("tags", {"tags": "null"}).value is None
    assert bound(TOOLS, "point", '{"x": 1, "y": 2}') == Point(1.0, 2.0)
    assert TOOLS.call("integer", {"value": "42"}).value == 42
    assert TOOLS.call("flag", {"value": "true"}).value is True
    assert TOOLS.call("level", {"value": "2"}).value == 2
    assert TOOLS.call("number", {"value": "-Infinity"}).value == "-Infinity"  # a name, as sent
    refused = {
        ("tags", "a, b"): "'tags'",
        ("tags", "[1]"): "'tags",
        ("point", '{"z": 1}'): "'point",
        ("integer", "2.5"): "'value'",
        ("integer", "True"): "'value'",
        ("number", "1e400"): "'value'",  # not a finite number
        ("level", "4"): "'value'",
    }
    for (tool, text), named in refused.items():
        result = TOOLS.call(tool, {parameter(tool)[0]: text})
        assert result.is_error and named in result.text, (tool, text, result.text)


@pytest.mark.parametrize("text", ["\x1f0", "0\x1f", "\xa01", "1\u2028"])
def test_only_json_whitespace_surrounds_a_number_read_from_text(text: str) -> None:
    # str.strip takes more for whitespace than JSON does: such text is no JSON number
    name, _ = parameter("integer")
    with pytest.raises(ArgumentError, match=f"'{name}"):
        TOOLS["integer"]._validator.check({name: text})
