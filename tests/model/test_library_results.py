"""Results of real libraries, readable and complete: numpy arrays and scalars as their numbers,
pandas frames as records, a ``re.Match`` as what it matched, an object with no text of its own
as its public attributes (issue 22, section 4)."""

from __future__ import annotations

import json
import re
from typing import Any

import numpy
import pandas
from hypothesis import given
from hypothesis import strategies as st

from objmcp import Toolbox
from objmcp.model.values.jsonable import to_jsonable

FINITE = st.floats(allow_nan=False, allow_infinity=False)
INT64 = st.integers(-(2**63), 2**63 - 1)


@given(st.lists(INT64, max_size=50) | st.lists(FINITE, max_size=50))
def test_a_numpy_array_is_all_its_numbers(numbers: list[Any]) -> None:
    assert to_jsonable(numpy.array(numbers)) == numbers


@given(st.lists(st.lists(INT64, min_size=3, max_size=3), min_size=1, max_size=5))
def test_a_numpy_matrix_is_its_rows(rows: list[list[int]]) -> None:
    assert to_jsonable(numpy.array(rows)) == rows


SAFE_INT = st.integers(-(2**53), 2**53)  # a column of them may become floats with a None
RECORDS = st.lists(
    st.fixed_dictionaries({"n": SAFE_INT, "x": FINITE | st.none()}), min_size=1, max_size=10
)


@given(RECORDS)
def test_a_dataframe_is_its_records_with_missing_values_as_null(
    records: list[dict[str, Any]],
) -> None:
    assert to_jsonable(pandas.DataFrame(records)) == records


def test_library_results_through_a_tool() -> None:
    def arange(n: int) -> Any:
        """numpy.arange."""
        return numpy.arange(n)

    def isnan(x: float) -> Any:
        """numpy.isnan."""
        return numpy.isnan(x)

    def series() -> Any:
        """A Series with a missing value."""
        return pandas.Series([1.5, None], index=["a", "b"])

    def match(text: str) -> Any:
        """The first word and number."""
        return re.match(r"(?P<word>\w+) (\d+)", text)

    class Point:
        def __init__(self) -> None:
            self.x, self.y, self._hidden = 1, [2, 3], "no"

    def point() -> Point:
        """An object with no text of its own."""
        return Point()

    tools = Toolbox(
        {"arange": arange, "isnan": isnan, "series": series, "match": match, "point": point}
    )
    assert json.loads(tools.call("arange", {"n": 1001}).text) == list(range(1001))
    assert json.loads(tools.call("isnan", {"x": 1.0}).text) is False
    assert json.loads(tools.call("series", {}).text) == {"a": 1.5, "b": None}
    assert json.loads(tools.call("match", {"text": "abc 42!"}).text) == {
        "match": "abc 42",
        "span": [0, 6],
        "groups": ["abc", "42"],
        "named": {"word": "abc"},
    }
    assert json.loads(tools.call("point", {}).text) == {"x": 1, "y": [2, 3]}
