"""A class used as a function (issue 37): a module served whole serves a public class whose
instances are iterators and that has no public instance methods (``itertools.permutations``,
``enumerate``, ``csv.DictReader``) as a tool that makes one, its items the result; an
iterator with methods of its own (a file, a cursor, a generator, ``numpy.nditer``) is a
service, not a result, and stays out. A property test over classes made with and without
each kind of member, and what the rule adds in a few libraries."""

from __future__ import annotations

import collections
import csv
import datetime
import decimal
import fractions
import io
import itertools
import pathlib
import sqlite3
import sys
import textwrap
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import objmcp
from objmcp.model.finding.introspect import discover, makes_an_iterator

MEMBERS: dict[str, Any] = {
    "__iter__": lambda self: self,
    "__next__": lambda self: next(iter(())),
    "__init__": lambda self, start=0: None,
    "__len__": lambda self: 0,
    "limit": 3,
    "size": property(lambda self: 0),
    "of": classmethod(lambda cls, items: cls()),
    "check": staticmethod(lambda: True),
    "reset": lambda self: None,
    "send": lambda self, value: None,
    "_advance": lambda self: None,
}
INSTANCE_METHODS = {"reset", "send"}


@settings(max_examples=60, deadline=None)
@given(st.sets(st.sampled_from(sorted(MEMBERS))), st.booleans())
def test_a_class_is_a_function_when_it_makes_iterators_and_has_no_methods_of_its_own(
    chosen: set[str], inherited: bool
) -> None:
    body = {name: MEMBERS[name] for name in chosen}
    made = type("Made", (), body)
    if inherited:  # the members may come from a base class
        made = type("Child", (made,), {})
    iterator = {"__iter__", "__next__"} <= chosen
    assert makes_an_iterator(made) == (iterator and not chosen & INSTANCE_METHODS)


def classes_served(module: types.ModuleType) -> list[str]:
    """The classes ``module`` serves as functions (not those it serves as makers of values,
    tests/model/test_module_classes.py)."""
    return [
        member.name
        for member in discover(module)
        if isinstance(member.function, type) and not member.maker
    ]


def test_what_the_rule_serves_in_a_few_libraries() -> None:
    assert classes_served(itertools) == [
        name
        for name, value in vars(itertools).items()
        if isinstance(value, type) and not name.startswith("_")
    ]  # every one of its classes: each makes an iterator
    assert sorted(classes_served(np)) == ["ndenumerate", "ndindex"]  # not nditer, flatiter
    assert classes_served(csv) == ["DictReader"]  # not DictWriter: no iterator
    for module in (collections, datetime, decimal, fractions, io, pathlib, sqlite3, types):
        assert classes_served(module) == [], module.__name__


def test_a_served_iterator_class_is_called_and_read_within_max_items() -> None:
    tools = objmcp.Toolbox(itertools, max_items=4)
    made = tools.call("combinations", {"iterable": [1, 2, 3], "r": 2})
    assert made.value == [[1, 2], [1, 3], [2, 3]]
    endless = tools.call("count", {"start": 3, "step": 2})
    assert endless.value == [3, 5, 7, 9] and "cut at 4 items" in endless.text
    grouped = objmcp.Toolbox(itertools).call("groupby", {"iterable": list("aabc")})
    assert grouped.value == [
        ["a", ["a", "a"]],
        ["b", ["b"]],
        ["c", ["c"]],
    ]  # each group read in turn
    grouped = tools.call("groupby", {"iterable": list("aaab")})  # the groups count toward max_items
    assert grouped.value == [["a", ["a", "a", "a"]]] and "cut at 4 items" in grouped.text
    alone = objmcp.Toolbox(itertools.pairwise).call("pairwise", {"iterable": [1, 2, 3]})
    keyed = objmcp.Toolbox({"pairs": itertools.pairwise}).call("pairs", {"iterable": [1, 2]})
    assert alone.value == [[1, 2], [2, 3]] and keyed.value == [[1, 2]]  # served alone too
    rows = objmcp.Toolbox(csv).call("DictReader", {"f": ["a,b", "1,2"]})
    assert rows.value == [{"a": "1", "b": "2"}]


@pytest.fixture
def made(tmp_path: Path) -> Iterator[Any]:
    """A module of iterator classes: one typed in its ``__init__``, one typed only in the
    stub beside it."""
    (tmp_path / "made_pkg.py").write_text(
        textwrap.dedent(
            """
            class typed_chunks:
                def __init__(self, items: list[int], size: int) -> None:
                    self.items, self.size = items, size
                def __iter__(self): return self
                def __next__(self):
                    if not self.items:
                        raise StopIteration
                    chunk, self.items = self.items[: self.size], self.items[self.size :]
                    return chunk
            class stubbed_chunks(typed_chunks):
                def __init__(self, items, size):
                    super().__init__(items, size)
            """
        )
    )
    (tmp_path / "made_pkg.pyi").write_text(
        textwrap.dedent(
            """
            class typed_chunks:
                def __init__(self, items: list[int], size: int) -> None: ...
            class stubbed_chunks(typed_chunks):
                def __init__(self, items: list[str], size: int) -> None: ...
            """
        )
    )
    sys.path.insert(0, str(tmp_path))
    try:
        import made_pkg

        yield made_pkg
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("made_pkg", None)


def test_a_class_used_as_a_function_takes_the_types_of_its_init_or_its_stub(made: Any) -> None:
    tools = objmcp.Toolbox(made)
    typed, stubbed = tools.tool("typed_chunks"), tools.tool("stubbed_chunks")
    assert typed.input_schema["properties"]["items"]["items"] == {"type": "integer"}
    assert stubbed.input_schema["properties"]["items"]["items"] == {"type": "string"}
    for tool in (typed, stubbed):
        assert tool.input_schema["properties"]["size"]["type"] == "integer"
        assert tool.output_schema is None  # an __init__'s None is no result type
    chunked = tools.call("stubbed_chunks", {"items": ["a", "b", "c"], "size": 2})
    assert chunked.value == [["a", "b"], ["c"]]
