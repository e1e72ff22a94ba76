"""A parameter hinted with a class of the array protocol (``objmcp.model.values.arrays``) takes a
scalar or nested arrays, made an array by the class's library's ``asarray`` with the dtype the
hint writes; a union with ``Any`` takes any value, its other members converting what fits them
first. Served through a real process from ``tests/servers/arrays.py``."""

from __future__ import annotations

import datetime
import decimal
import fractions
import json
import sys
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Optional

import numpy
import numpy.typing as npt
import pytest
from conftest import ROOT, RawServer, objmcp_cli, objmcp_run
from hypothesis import assume, given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from objmcp.model.describe.schema import SchemaBuilder
from objmcp.model.values.arrays import DEPTH, array_hint
from objmcp.model.values.convert import from_json
from objmcp.model.values.mismatch import ConversionError

ARRAYS = f"{ROOT / 'tests' / 'servers' / 'arrays.py'}"
PROPERTY = typing.Union[bool, datetime.datetime, float, decimal.Decimal, fractions.Fraction, Any]  # noqa: UP007


@pytest.fixture(scope="module")
def served() -> Iterator[RawServer]:
    with objmcp_run(ARRAYS) as server:
        server.initialize("2025-11-25")
        yield server


def _text(result: dict[str, Any]) -> str:
    return "".join(part["text"] for part in result["content"] if part["type"] == "text")


def test_a_dict_of_ndarrays_takes_nested_lists_of_floats(served: RawServer) -> None:
    schema = served.tools()["save"]["inputSchema"]["properties"]["tensors"]
    matrix = [[0.5, -1.5], [1.25, 0.75]]
    assert Draft202012Validator(schema).is_valid({"weight": matrix, "bias": [1, 2]})
    assert not Draft202012Validator(schema).is_valid({"weight": {"shape": [2, 2]}})
    result = served.call_tool(1, "save", tensors={"weight": matrix, "bias": [1, 2], "s": 3})
    assert not result.get("isError"), result
    assert result["structuredContent"] == {
        "weight": f"ndarray f [2, 2] {matrix}",
        "bias": "ndarray i [2] [1, 2]",
        "s": "ndarray i [] 3",
    }


def test_an_ndarray_of_a_dtype_is_made_of_it(served: RawServer) -> None:
    schema = served.tools()["mean"]["inputSchema"]["properties"]["values"]
    assert not Draft202012Validator(schema).is_valid(["a"])  # float64: numbers only
    result = served.call_tool(2, "mean", values=[[1, 2], [3, 4]])
    assert result["structuredContent"]["result"] == "float64 2.5"


def test_an_object_array_takes_any_item_and_is_made_of_objects(served: RawServer) -> None:
    schema = served.tools()["kinds"]["inputSchema"]["properties"]["values"]
    assert Draft202012Validator(schema).is_valid([1, "a", True, 2.5])
    result = served.call_tool(5, "kinds", values=[1, "a", True, 2.5])
    assert not result.get("isError"), result
    assert result["structuredContent"]["result"] == "object ['int', 'str', 'bool', 'float']"


def test_a_datetime64_array_keeps_its_dtype(served: RawServer) -> None:
    schema = served.tools()["dates"]["inputSchema"]["properties"]["values"]
    assert Draft202012Validator(schema).is_valid(["2024-01-01", "2024-02-03"])
    result = served.call_tool(6, "dates", values=["2024-01-01", "2024-02-03"])
    assert not result.get("isError"), result
    assert result["structuredContent"]["result"] == "datetime64[D] ['2024-01-01', '2024-02-03']"


def test_array_like_is_typed_and_takes_arrays(served: RawServer) -> None:
    schema = served.tools()["flat"]["inputSchema"]["properties"]["values"]
    assert schema != {} and Draft202012Validator(schema).is_valid([[1, 2], [3, 4]])
    result = served.call_tool(3, "flat", values=[[1, 2], [3, 4]])
    assert result["structuredContent"]["result"] == [1, 2, 3, 4]


def test_a_ragged_array_is_refused_with_the_library_s_reason(served: RawServer) -> None:
    result = served.call_tool(4, "save", tensors={"weight": [[1.0, 2.0], [3.0]]})
    assert result["isError"]
    assert "ndarray refused it" in _text(result) and "weight" in _text(result)


def test_a_union_with_any_takes_any_value(served: RawServer) -> None:
    assert served.tools()["set_property"]["inputSchema"]["properties"]["value"] == {}
    cases = [
        ("Eve", "str 'Eve'"),
        (42, "int 42"),
        (True, "bool True"),
        ([1, "a"], "list [1, 'a']"),
        ({"k": None}, "dict {'k': None}"),
        ("2024-05-01T10:30:00", "datetime datetime.datetime(2024, 5, 1, 10, 30)"),
    ]
    for number, (value, expected) in enumerate(cases, start=10):
        result = served.call_tool(number, "set_property", name="p", value=value)
        assert not result.get("isError"), result
        assert result["structuredContent"]["result"] == f"p: {expected}"


# --- the conversion, as properties ------------------------------------------------------------

_FLOATS = st.floats(allow_nan=False, allow_infinity=False, width=64)


@st.composite
def rectangular(draw: st.DrawFn, items: st.SearchStrategy[Any] = _FLOATS) -> Any:
    """A scalar or a rectangular nested list of ``items``, up to DEPTH dimensions."""
    shape = draw(st.lists(st.integers(0, 3), max_size=DEPTH))
    size = int(numpy.prod(shape))
    flat = draw(st.lists(items, min_size=size, max_size=size))
    return numpy.reshape(numpy.asarray(flat, dtype=object), shape).tolist()


def _fits_schema(value: Any, hint: object) -> bool:
    return bool(Draft202012Validator(SchemaBuilder(quiet=True).schema(hint)).is_valid(value))


@given(rectangular())
def test_nested_floats_become_the_array_asarray_makes(value: Any) -> None:
    for hint in (numpy.ndarray, npt.NDArray[numpy.float64], Optional[numpy.ndarray]):  # noqa: UP045
        assert _fits_schema(value, hint)
        made = from_json(value, hint)
        assert isinstance(made, numpy.ndarray)
        assert numpy.array_equal(made, numpy.asarray(value, dtype=float))
    assert from_json(value, npt.NDArray[numpy.float64]).dtype == numpy.float64  # type: ignore[attr-defined]


@given(rectangular(st.integers(-(2**31), 2**31)), st.sampled_from([numpy.int64, numpy.float32]))
def test_the_dtype_the_hint_writes_is_the_array_s(value: Any, dtype: type) -> None:
    made: Any = from_json(value, npt.NDArray[dtype])  # type: ignore[valid-type]
    assert made.dtype == dtype and numpy.array_equal(made, numpy.asarray(value, dtype=dtype))


_ODD = st.one_of(st.none(), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@given(st.lists(_FLOATS, max_size=4), st.integers(0, 4), _ODD)
def test_an_item_that_is_no_number_is_refused_where_it_is(
    items: list[float], at: int, odd: object
) -> None:
    value: list[Any] = list(items)
    value.insert(min(at, len(value)), odd)
    assert not _fits_schema(value, numpy.ndarray)
    with pytest.raises(ConversionError, match=r"expected a scalar or arrays of .* for ndarray"):
        from_json(value, numpy.ndarray)
    words: list[Any] = [*items, "word"]
    with pytest.raises(ConversionError, match=r"got string 'word' at \["):
        from_json(words, npt.NDArray[numpy.float64])


def test_any_class_of_the_array_protocol_is_made_by_its_library_s_asarray() -> None:
    """Not numpy's alone: a library (here made in the test) whose class has ``__array__``
    and whose package has ``asarray``; a class whose library has none is no array class."""
    library = types.ModuleType("arraylib")
    inner = types.ModuleType("arraylib.core")

    class Tensor:
        def __init__(self, data: object) -> None:
            self.data = data

        def __array__(self) -> Any:
            return numpy.asarray(self.data)

    class Frame(Tensor):
        pass

    Tensor.__module__ = "arraylib.core"
    Frame.__module__ = "framelib"
    library.asarray = Tensor  # type: ignore[attr-defined]
    sys.modules.update({"arraylib": library, "arraylib.core": inner})
    try:
        found = array_hint(Tensor)
        assert found is not None and found.dtype is None
        made = from_json([[1, 2]], Tensor)
        assert isinstance(made, Tensor) and made.data == [[1, 2]]
        assert array_hint(Frame) is None
    finally:
        del sys.modules["arraylib"], sys.modules["arraylib.core"]


_LAZY_PACKAGE = """import importlib


def __getattr__(name):
    return importlib.import_module("." + name, __name__)
"""


@pytest.mark.parametrize(
    "imported",
    [
        "from lazylib.plain import Point\n",
        # the package itself is then a name of the served module: reading which names are
        # the module's own must not ask it for a __module__ either
        "import lazylib.plain\n\nPoint = lazylib.plain.Point\n",
    ],
)
def test_a_lazy_package_s_getattr_is_never_run_looking_for_asarray(
    tmp_path: Path, imported: str
) -> None:
    """A package whose ``__getattr__`` imports the submodule of the name asked for raises
    ModuleNotFoundError for ``asarray``; a plain class of it is no array class, and the
    lookup reads what the package stores, never running that ``__getattr__``."""
    (tmp_path / "lazylib").mkdir()
    (tmp_path / "lazylib" / "__init__.py").write_text(_LAZY_PACKAGE)
    (tmp_path / "lazylib" / "plain.py").write_text(
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Point:\n"
        "    x: float\n    y: float\n"
    )
    (tmp_path / "tools.py").write_text(
        imported + "\n\ndef norm(p: Point) -> float:\n"
        '    """The length of p."""\n    return (p.x**2 + p.y**2) ** 0.5\n'
    )
    done = objmcp_cli("inspect", "tools.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "norm" in done.stdout and "p: Point" in done.stdout


def test_a_lazy_package_served_whole_is_never_asked_for_its_all(tmp_path: Path) -> None:
    (tmp_path / "lazylib").mkdir()
    (tmp_path / "lazylib" / "__init__.py").write_text(
        _LAZY_PACKAGE + '\n\ndef ping() -> str:\n    """Answer."""\n    return "pong"\n'
    )
    done = objmcp_cli("inspect", "lazylib", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "ping" in done.stdout and "Traceback" not in done.stderr


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | _FLOATS | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@given(_JSON, st.sampled_from([Any, object]), st.sampled_from([bool, str]))
def test_a_union_with_any_takes_every_json_value(
    value: Any, anything: object, member: type
) -> None:
    union = typing.Union[member, anything]  # type: ignore[valid-type]  # noqa: UP007
    assert from_json(value, union) == value
    assert json.dumps(from_json(value, union)) == json.dumps(value)


@given(st.datetimes())
def test_in_a_union_with_any_an_iso_date_time_is_a_datetime(moment: datetime.datetime) -> None:
    assert from_json(moment.isoformat(), PROPERTY) == moment


@given(st.text())
def test_in_a_union_with_any_other_text_stays_text(text: str) -> None:
    for read in (datetime.datetime.fromisoformat, float, decimal.Decimal, fractions.Fraction):
        try:
            read(text)
        except (ValueError, ArithmeticError):
            continue
        assume(False)  # text that one of the members reads is that member's
    assert from_json(text, PROPERTY) == text
