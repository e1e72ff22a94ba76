"""A string is an iterable (issue 37: more_itertools' ``all_unique('ABCB')``): a parameter
typed by an abstract container a ``str`` is (``Iterable``, ``Sequence``, ``Collection``,
``Reversible``, ``Container``) of items a ``str`` is too takes a string as well as an array,
passed as the string itself; ``list``, ``MutableSequence``, sets and tuples, and iterables of
items no string is, take an array only. One rule for hints and docstring types alike."""

from __future__ import annotations

import json
import subprocess
import typing
from collections import abc
from typing import Any, Protocol, TypeVar

import jsonschema
import pytest
from conftest import ROOT, RawServer
from hypothesis import given
from hypothesis import strategies as st

from objmcp.model.describe.doctypes import doc_type
from objmcp.model.describe.hints import takes_text, text_fits
from objmcp.model.describe.schema import SchemaBuilder
from objmcp.model.values.convert import from_json
from objmcp.model.values.mismatch import ConversionError

LETTERS = ROOT / "tests" / "servers" / "letters.py"

# --- through a server process -----------------------------------------------------------------


def test_a_string_reaches_a_function_typed_by_an_abstract_iterable_as_itself() -> None:
    server = RawServer("-m", "objmcp", "run", f"{LETTERS}:Letters", stderr=subprocess.DEVNULL)
    try:
        server.initialize("2025-11-25")
        schemas = {name: t["inputSchema"]["properties"] for name, t in server.tools().items()}
        for tool, name in [("distinct", "iterable"), ("ends", "sequence"), ("counted", "items")]:
            assert {"type": "string"} in schemas[tool][name]["anyOf"], tool
        assert schemas["total"]["numbers"] == {"type": "array", "items": {"type": "integer"}}
        assert schemas["kept"]["items"] == {"type": "array", "items": {"type": "string"}}
        shared = [letter for letter in "mississippi" if letter in "missouri"]
        calls = [
            ("distinct", {"iterable": "ABCB"}, False),
            ("distinct", {"iterable": "ABC"}, True),
            ("distinct", {"iterable": [1, 2, 1]}, False),
            ("ends", {"sequence": "python"}, ["p", "n"]),
            ("backwards", {"items": "abc"}, ["c", "b", "a"]),
            ("shared", {"groups": ["mississippi", "missouri"]}, shared),
            ("ordered", {"items": "cab"}, ["a", "b", "c"]),
            ("counted", {"items": "four"}, 4),
        ]
        for index, (tool, arguments, expected) in enumerate(calls):
            answer = server.call_tool(index, tool, **arguments)
            assert not answer.get("isError"), (tool, answer)
            assert json.loads(answer["content"][0]["text"]) == expected, tool
        refused = [("total", {"numbers": "123"}), ("kept", {"items": "abc"})]
        for index, (tool, arguments) in enumerate(refused, start=len(calls)):
            answer = server.call_tool(index, tool, **arguments)
            assert answer["isError"] and "expected array" in answer["content"][0]["text"], tool
    finally:
        server.close()


# --- the rule, for any such hint ----------------------------------------------------------------


class Ordered(Protocol):
    def __lt__(self, other: object, /) -> bool: ...


class Numbered(Protocol):
    def __index__(self) -> int: ...


TEXTUAL_ITEMS: list[object] = [
    str,
    Any,
    object,
    abc.Hashable,
    abc.Sized,
    TypeVar("T"),
    TypeVar("S", bound=str),
    TypeVar("C", str, bytes),
    TypeVar("O", bound=Ordered),
    Ordered,
    str | None,
    int | str,
]
OTHER_ITEMS: list[object] = [
    int,
    float,
    bool,
    bytes,
    list[str],
    dict[str, int],
    TypeVar("N", bound=int),
    TypeVar("F", int, float),
    Numbered,
    int | None,
]
TEXTUAL_KINDS: list[Any] = [
    abc.Iterable,
    abc.Sequence,
    abc.Collection,
    abc.Reversible,
    abc.Container,
    typing.Iterable,
    typing.Sequence,
]
OTHER_KINDS: list[Any] = [list, abc.MutableSequence, set, frozenset, abc.Set]


@given(
    st.sampled_from(TEXTUAL_KINDS + OTHER_KINDS),
    st.sampled_from(TEXTUAL_ITEMS + OTHER_ITEMS),
    st.text(max_size=12),
)
def test_a_string_is_taken_exactly_where_python_takes_one(
    kind: Any, item: object, text: str
) -> None:
    hint = kind[item]
    expected = kind in TEXTUAL_KINDS and item in TEXTUAL_ITEMS
    assert takes_text(hint) == expected
    assert text_fits(item) == (item in TEXTUAL_ITEMS)
    schema = SchemaBuilder(quiet=True).schema(hint)
    assert jsonschema.Draft202012Validator(schema).is_valid(text) == expected
    if expected:
        assert from_json(text, hint) is text, "the string itself, never its characters"
    else:
        with pytest.raises(ConversionError):
            from_json(text, hint)


@given(st.sampled_from(TEXTUAL_KINDS), st.lists(st.text(max_size=4), max_size=5))
def test_an_array_is_still_a_list(kind: Any, items: list[str]) -> None:
    hint = kind[str]
    assert jsonschema.Draft202012Validator(SchemaBuilder().schema(hint)).is_valid(items)
    converted = from_json(items, hint)
    assert converted == items and isinstance(converted, list)


@given(
    st.sampled_from(["iterable", "sequence", "collection", "container", "list", "tuple", "set"]),
    st.sampled_from(["", " of str", " of int", " of hashable", " of object"]),
    st.text(max_size=12),
)
def test_a_docstring_type_follows_the_same_rule(kind: str, items: str, text: str) -> None:
    hint = doc_type(kind + items)
    schema = SchemaBuilder(quiet=True).schema(hint)
    takes = kind not in ("list", "tuple", "set") and items != " of int"
    assert jsonschema.Draft202012Validator(schema).is_valid(text) == takes
    assert takes_text(hint) == takes
