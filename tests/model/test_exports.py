"""Results that give their own plain data (issue 37): a value with no JSON form that has
an export method (``to_pylist``, ``tolist``, ``to_list``, ``to_pydict``, ``to_dict``,
``as_dict``, ``asdict``, ``_asdict``, in that order) is sent as what it gives; one whose
text says nothing is sent as the mapping its ``keys()`` and ``[key]`` give, or as the items
of a sized iterable; a value whose text says what it is keeps it; and a call that returns
None answers ``null``, whatever it printed or not. Property tests over the data exported,
and a real server process in each era."""

from __future__ import annotations

import importlib.util
import io
import json
import math
import sqlite3
import sys
from collections.abc import Callable
from typing import Any

import pytest
from conftest import ROOT, RawServer, objmcp_run
from hypothesis import given, settings
from hypothesis import strategies as st

import objmcp
from objmcp.model.values.content import ResultLimits, value_result
from objmcp.model.values.exports import EXPORTS
from objmcp.model.values.jsonable import NotJsonable, to_jsonable
from objmcp.model.values.printed import printed_kept

QUICK = settings(max_examples=60, deadline=None)
SERVED = "tests/servers/exporting.py:Exporting"


def fixture_module() -> Any:
    """The served fixture's module, whose classes the tests also use in process."""
    spec = importlib.util.spec_from_file_location(
        "exporting_fixture", ROOT / "tests" / "servers" / "exporting.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FIXTURE = fixture_module()
Bag, Column, Proxy = FIXTURE.Bag, FIXTURE.Column, FIXTURE.Proxy
Record, Release, Table = FIXTURE.Record, FIXTURE.Release, FIXTURE.Table

KEYS = st.text(max_size=6)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=20,
)


def sent(value: object, limits: ResultLimits | None = None) -> Any:
    """What a result of ``value`` reads as on the other side: its JSON text, read."""
    result = value_result(value) if limits is None else value_result(value, limits)
    assert not result.is_error, result.text
    try:
        return json.loads(result.text)
    except ValueError:
        return result.text


# --- export methods ----------------------------------------------------------------------


@QUICK
@given(st.lists(JSON, max_size=5))
def test_a_value_that_exports_itself_as_a_list_is_sent_as_that_list(data: list[Any]) -> None:
    assert sent(Column(data)) == data


@QUICK
@given(st.dictionaries(KEYS, st.lists(st.integers(), min_size=2, max_size=2), max_size=4))
def test_a_table_is_sent_as_its_records_not_its_columns(columns: dict[str, list[int]]) -> None:
    records = [{name: values[row] for name, values in columns.items()} for row in (0, 1)]
    assert sent(Table(columns)) == (records if columns else [])


def exporter(answers: dict[str, Callable[..., object]]) -> object:
    """An object whose class has the methods ``answers`` names, and whose text is its own."""
    namespace: dict[str, object] = dict(answers)
    namespace["__str__"] = lambda self: "its own text"
    return type("Exporter", (), namespace)()


def gives(name: str) -> Callable[[object], object]:
    return lambda self: [name]


def refuses(self: object) -> object:
    raise RuntimeError("no export today")


def needs(self: object, orient: str) -> object:
    return ["needs", orient]


def gives_no_data(self: object) -> object:
    return Release("1.2")


def keyed_by_tuples(self: object) -> object:
    return {(1, 2): "a"}


FAILING = {
    "refuses": refuses,
    "needs an argument": needs,
    "gives no plain data": gives_no_data,
    "keys JSON has no form for": keyed_by_tuples,
}


@QUICK
@given(
    st.dictionaries(
        st.sampled_from(EXPORTS), st.sampled_from(["works", *FAILING]), min_size=1, max_size=8
    )
)
def test_the_first_export_in_the_stated_order_that_gives_plain_data_is_sent(
    ways: dict[str, str],
) -> None:
    value = exporter(
        {name: gives(name) if way == "works" else FAILING[way] for name, way in ways.items()}
    )
    working = [name for name in EXPORTS if ways.get(name) == "works"]
    assert sent(value) == ([working[0]] if working else "its own text")


def test_an_export_whose_options_all_have_defaults_is_called() -> None:
    value = exporter({"to_dict": lambda self, *, orient="dict": {"orient": orient}})
    assert sent(value) == {"orient": "dict"}


class Lazy:
    """Export methods that are not the value's own methods: an attribute of the instance,
    a static and a class method; none is called."""

    def __init__(self) -> None:
        self.to_pylist = lambda: ["an attribute"]

    @staticmethod
    def tolist() -> list[str]:
        return ["a static method"]

    @classmethod
    def to_dict(cls) -> dict[str, str]:
        return {"a": "class method"}

    def __str__(self) -> str:
        return "lazy"


def test_only_the_value_s_own_methods_are_export_methods() -> None:
    assert sent(Lazy()) == "lazy"
    proxy = Proxy()  # answers any name with a callable: nothing is called
    assert sent(proxy) == "proxy"
    assert proxy.called == []
    assert sent(Column) == str(Column)  # a class exports nothing


def test_an_export_holding_nan_sends_its_name_and_one_holding_itself_has_no_json_form() -> None:
    assert sent(Column([1.0, math.nan, -math.inf])) == [1.0, "NaN", "-Infinity"]
    looped = exporter({"to_pylist": lambda self: [self]})
    result = value_result(looped)
    assert result.is_error and "cycle" in result.text


def test_a_default_shown_in_a_schema_is_never_exported() -> None:
    with pytest.raises(NotJsonable):
        to_jsonable(Column([1]), strict=True)


def test_an_exported_iterator_counts_against_the_result_s_items() -> None:
    value = exporter({"to_pylist": lambda self: [iter(range(100))]})
    result = value_result(value, ResultLimits(max_items=5))
    assert not result.is_error and "cut at 5" in result.text


# --- the mapping protocol, and sized iterables -------------------------------------------


@QUICK
@given(st.dictionaries(KEYS, JSON, max_size=5))
def test_a_value_read_by_keys_and_getitem_is_sent_as_that_mapping(fields: dict[str, Any]) -> None:
    assert sent(Record(fields)) == fields


class Message(Record):
    """A mapping by ``keys()`` whose text says what it is (an email message's)."""

    def __str__(self) -> str:
        return "Subject: hi\n\nthe body"


class Liar(Record):
    """``keys()`` that ``[key]`` does not take."""

    def keys(self) -> list[str]:
        return ["missing"]


def test_the_mapping_protocol_only_reads_values_whose_text_says_nothing() -> None:
    assert sent(Message({"Subject": "hi"})) == "Subject: hi\n\nthe body"
    assert sent(Liar({"a": 1})) == "<Liar>"


def test_a_sqlite_row_is_sent_as_its_columns_by_name() -> None:
    with sqlite3.connect(":memory:") as connection:
        connection.row_factory = sqlite3.Row
        row = connection.execute("select 1 as id, 'ada' as name").fetchone()
    assert sent(row) == {"id": 1, "name": "ada"}


@QUICK
@given(st.lists(JSON, max_size=5))
def test_a_sized_iterable_whose_text_says_nothing_is_sent_as_its_items(
    items: list[Any],
) -> None:
    assert sent(Bag(items)) == items


class Page(Bag):
    """A sized iterable with public data of its own."""

    def __init__(self, items: list[object]) -> None:
        super().__init__(items)
        self.total = len(items)


@QUICK
@given(st.lists(st.integers(min_value=0, max_value=99), min_size=1, max_size=4))
def test_a_sized_iterable_whose_text_says_something_or_with_public_data_keeps_it(
    parts: list[int],
) -> None:
    text = ".".join(map(str, parts))
    assert value_result(Release(text)).text == text
    assert sent(Page(["a", "b"])) == {"total": 2}  # its attributes, as before


def test_a_sized_iterable_s_items_count_against_the_result_s_items() -> None:
    result = value_result(Bag(list(range(50))), ResultLimits(max_items=5))
    assert not result.is_error and "cut at 5" in result.text


# --- None --------------------------------------------------------------------------------


class Quiet:
    """Calls that return None."""

    def which(self, name: str) -> object:
        """Nowhere, printing nothing."""
        return None

    def find(self, name: str) -> str | None:
        """The same, its return type declared."""
        return None

    def say(self, text: str) -> None:
        """Print ``text``."""
        print(text, end="")


@QUICK
@given(st.text(max_size=8))
def test_a_call_returning_none_answers_null_unless_it_printed_something(text: str) -> None:
    tools = objmcp.Toolbox(Quiet())
    before = sys.stdout
    sys.stdout = io.StringIO()
    try:
        with printed_kept():
            said = tools.call("say", {"text": text})
            which = tools.call("which", {"name": "ls"})
            find = tools.call("find", {"name": "ls"})
    finally:
        sys.stdout = before
    assert said.text == (text or "null")
    assert (which.text, which.value, which.structured) == ("null", None, None)
    assert (find.text, find.structured) == ("null", {"result": None})


# --- through a real server ---------------------------------------------------------------


CALLS: dict[str, tuple[dict[str, Any], Any]] = {
    "column": ({"values": [3, 1, 2]}, [3, 1, 2]),
    "table": (
        {"names": ["ada", "bob"], "ages": [36, 41]},
        [{"name": "ada", "age": 36}, {"name": "bob", "age": 41}],
    ),
    "record": ({"name": "ada", "age": 36}, {"name": "ada", "age": 36}),
    "bag": ({"items": ["x", "y"]}, ["x", "y"]),
    "release": ({"text": "1.2.3"}, "1.2.3"),
    "proxy": ({}, "proxy"),
    "which": ({"name": "python3"}, None),
    "find": ({"name": "python3"}, None),
}


def calls(server: RawServer, meta: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Each of ``CALLS`` made on ``server`` (in the modern era when ``meta`` is given)."""
    answers = {}
    for number, (name, (arguments, _)) in enumerate(CALLS.items()):
        params: dict[str, Any] = {"name": name, "arguments": arguments}
        if meta is not None:
            params["_meta"] = meta
        message = {"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": params}
        answers[name] = server.request(message)["result"]
    return answers


@pytest.mark.parametrize("revision", ["2024-11-05", "2025-06-18", "2026-07-28"])
def test_a_server_sends_exports_mappings_and_items_as_json_and_none_as_null(
    revision: str,
) -> None:
    with objmcp_run(SERVED) as server:
        meta = None
        if revision < "2026":
            server.initialize(revision)
        else:
            meta = {
                "io.modelcontextprotocol/protocolVersion": revision,
                "io.modelcontextprotocol/clientCapabilities": {},
            }
        answers = calls(server, meta)
    for name, (_, expected) in CALLS.items():
        answer = answers[name]
        assert not answer["isError"], answer
        [block] = answer["content"]
        got = block["text"] if isinstance(expected, str) else json.loads(block["text"])
        assert got == expected, name
    assert "structuredContent" not in answers["which"]
    if revision != "2024-11-05":  # a revision with output schemas
        assert answers["find"]["structuredContent"] == {"result": None}
