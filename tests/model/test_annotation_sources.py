"""Annotations whose names live only in source text (issue 22, section 3): a module's
``if TYPE_CHECKING:`` imports (humanize, babel), and the stub files a package ships
beside an unannotated module (more_itertools, jellyfish)."""

from __future__ import annotations

import collections.abc
import datetime
import json
import typing

import babel.dates
import humanize
import jellyfish
import more_itertools
import pytest

from objmcp import Toolbox
from objmcp.model.describe.annotations import stub_hints_of, type_hints_of


def test_get_type_hints_alone_cannot_read_these_annotations() -> None:
    with pytest.raises(NameError):
        typing.get_type_hints(humanize.naturaldate)
    assert not more_itertools.chunked.__annotations__


def test_names_imported_for_type_checkers_resolve() -> None:
    hints = type_hints_of(humanize.naturaldate)
    assert set(typing.get_args(hints["value"])) == {datetime.date, datetime.datetime}
    format_hint = type_hints_of(babel.dates.format_date)["format"]
    literal = next(arg for arg in typing.get_args(format_hint) if typing.get_origin(arg))
    assert "medium" in typing.get_args(literal), "an alias defined under TYPE_CHECKING"


@pytest.mark.parametrize("day", ["2024-01-05", "1999-12-31", "2031-07-14"])
def test_a_date_time_string_reaches_humanize_as_a_datetime(day: str) -> None:
    tools = Toolbox(humanize, include=["naturaldate"])
    schema = tools["naturaldate"].input_schema["properties"]["value"]
    assert {"type": "string", "format": "date"} in schema["anyOf"]
    answer = tools.call("naturaldate", {"value": day})
    assert not answer.is_error
    assert answer.text == humanize.naturaldate(datetime.date.fromisoformat(day))


def test_a_shipped_stub_types_an_unannotated_function() -> None:
    hints = stub_hints_of(more_itertools.chunked)
    assert hints["n"] == int | None and hints["strict"] is bool
    assert stub_hints_of(jellyfish.levenshtein_distance)["a"] is str  # the stub says s1
    tools = Toolbox(more_itertools, include=["chunked"])
    properties = tools["chunked"].input_schema["properties"]
    assert properties["iterable"]["anyOf"] == [{"type": "string"}, {"type": "array", "items": {}}]
    assert properties["strict"]["type"] == "boolean"
    chunks = tools.call("chunked", {"iterable": [1, 2, 3, 4, 5], "n": 2})
    assert json.loads(chunks.text) == list(more_itertools.chunked([1, 2, 3, 4, 5], 2))


def test_a_stub_with_overloads_types_only_what_they_agree_on() -> None:
    hints = stub_hints_of(more_itertools.first)
    assert typing.get_origin(hints["iterable"]) is collections.abc.Iterable
    assert "return" not in hints, "the overloads return different things"


def test_a_function_with_annotations_of_its_own_takes_none_from_a_stub() -> None:
    assert stub_hints_of(humanize.naturaldate) == {}
