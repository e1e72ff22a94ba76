"""Parameters JSON cannot carry: a tool that needs a callable, a file object, a class or a
module is left out, saying why; an optional one is left out of the schema, its default used
(issue 22, section 2)."""

from __future__ import annotations

import io
import logging
import types
from collections.abc import Callable
from typing import IO, Any

import pytest

from objmcp import Toolbox


def apply(function: Callable[[int], int], x: int) -> int:
    """Apply a function."""
    return function(x)


def save(text: str, fp: IO[str]) -> None:
    """Write text to a file."""
    fp.write(text)


def make(kind: type[Exception]) -> str:
    """Make an exception."""
    return str(kind())


def reload(module: types.ModuleType) -> str:
    """Reload a module."""
    return module.__name__


def stream(source: io.BytesIO) -> bytes:
    """Read a stream."""
    return source.read()


def documented(items, key):  # type: ignore[no-untyped-def]
    """Sort items.

    Parameters
    ----------
    items : list
        What to sort.
    key : callable
        What to sort by.
    """
    return sorted(items, key=key)


def ordered(items: list[int], key: Callable[[int], Any] | None = None, reverse: bool = False):  # type: ignore[no-untyped-def]
    """Sort items, by a key when one is given."""
    return sorted(items, key=key, reverse=reverse)


def test_a_tool_that_needs_what_json_cannot_carry_is_left_out_saying_why(
    caplog: pytest.LogCaptureFixture,
) -> None:
    targets = {
        "apply": apply,
        "save": save,
        "make": make,
        "reload": reload,
        "stream": stream,
        "documented": documented,
        "ordered": ordered,
    }
    with caplog.at_level(logging.WARNING, logger="objmcp"):
        tools = Toolbox(targets)
    assert list(tools) == ["ordered"]
    said = "\n".join(record.getMessage() for record in caplog.records)
    for name, needs in [
        ("apply", "function needs a callable"),
        ("save", "fp needs a file object"),
        ("make", "kind needs a class"),
        ("reload", "module needs a module"),
        ("stream", "source needs a file object"),
        ("documented", "key needs a callable"),
    ]:
        assert f"tool '{name}' left out: its parameter {needs}" in said, (name, said)


def test_an_optional_one_is_left_out_of_the_schema_and_its_default_used() -> None:
    tools = Toolbox({"ordered": ordered})
    schema = tools["ordered"].input_schema
    assert set(schema["properties"]) == {"items", "reverse"}
    assert tools.call("ordered", {"items": [3, 1, 2]}).text == "[1,2,3]"
    assert tools.call("ordered", {"items": [3, 1, 2], "reverse": True}).text == "[3,2,1]"
    refused = tools.call("ordered", {"items": [1], "key": "len"})
    assert refused.is_error and "key" in refused.text


def largest(items, chooser=max):  # type: ignore[no-untyped-def]
    return chooser(items)


def test_a_function_as_a_default_means_the_parameter_takes_one() -> None:
    import difflib
    import urllib.parse

    ndiff = Toolbox(difflib, include=["ndiff"])["ndiff"].input_schema["properties"]
    assert "charjunk" not in ndiff and {"a", "b"} <= set(ndiff)
    # nothing but the default says so (no hint, no docstring, no stub)
    tools = Toolbox({"largest": largest})
    assert set(tools["largest"].input_schema["properties"]) == {"items"}
    assert tools.call("largest", {"items": [3, 9, 2]}).text == "9"
    encode = Toolbox(urllib.parse, include=["urlencode"])
    assert "quote_via" not in encode["urlencode"].input_schema["properties"]
    query = {"q": "a b&c", "n": "1"}
    answer = encode.call("urlencode", {"query": query})
    assert answer.text == urllib.parse.urlencode(query)
