"""C callables served and called as their documentation names their parameters: a C
class's class methods, functions whose signature only their text writes, numpy ufuncs,
and decorated functions whose wrapper renames what it takes (issue 22, section 2)."""

from __future__ import annotations

import datetime
import json
import logging
import math
import sqlite3
import subprocess
import unicodedata
from typing import Any

import dateutil.parser
import numpy
import pytest
import scipy.optimize
import scipy.special
from conftest import PYTHON, ROOT, server_env
from hypothesis import given, settings
from hypothesis import strategies as st

from objmcp import Toolbox
from objmcp.model.describe.typeshed import typeshed_stub

DAYS = st.dates(min_value=datetime.date(1900, 1, 1), max_value=datetime.date(2200, 12, 31))
MOMENTS = st.datetimes(
    min_value=datetime.datetime(1971, 1, 1), max_value=datetime.datetime(2200, 12, 31)
)
FINITE = st.floats(-1e6, 1e6, allow_nan=False)


def value_of(tools: Toolbox, name: str, arguments: dict[str, Any]) -> Any:
    """What a call gives back, failing the test with the tool's own message on an error."""
    result = tools.call(name, arguments)
    assert not result.is_error, result.text
    return result.value


def test_a_c_class_serves_its_class_methods_and_no_method_it_has_no_instance_for(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="objmcp"):
        tools = Toolbox(datetime.datetime)
    assert {"now", "fromisoformat", "strptime", "fromtimestamp", "combine", "today"} <= set(tools)
    assert not {"strftime", "isoformat", "replace", "weekday"} & set(tools)
    assert "needs arguments" in caplog.text


def test_a_c_callable_s_description_is_what_its_arrow_line_says_comes_back() -> None:
    tools = Toolbox(datetime.datetime)
    for name in ("strptime", "fromtimestamp", "combine"):
        first = (getattr(datetime.datetime, name).__doc__ or "").split("\n")[0]
        said = first.split("->", 1)[1].strip()
        assert "->" in first and tools[name].description.startswith(said), name


def test_a_class_as_a_default_is_no_value_to_show() -> None:
    import numpy

    generator = Toolbox(numpy.random.default_rng())  # its defaults include numpy.float64
    answer = generator.call("integers", {"low": 5, "high": 6, "size": 3})
    assert not answer.is_error and answer.value == [5, 5, 5]


@settings(max_examples=30)
@given(MOMENTS, st.sampled_from(["%Y-%m-%d %H:%M:%S", "%d/%m/%Y %H%M", "%Y%j %S %M %H"]))
def test_a_c_class_method_is_called_with_the_names_its_stub_or_docstring_gives(
    moment: datetime.datetime, layout: str
) -> None:
    tools = Toolbox(datetime.datetime)
    # typeshed's names where it is installed (a dependency), else the docstring's
    string = "date_string" if typeshed_stub("datetime") else "string"
    assert list(tools["strptime"].input_schema["properties"]) == [string, "format"]
    text = moment.strftime(layout)
    parsed = value_of(tools, "strptime", {string: text, "format": layout})
    assert parsed == datetime.datetime.strptime(text, layout).isoformat()
    stamp = moment.timestamp()
    assert value_of(tools, "fromtimestamp", {"timestamp": stamp}) == (
        datetime.datetime.fromtimestamp(stamp).isoformat()
    )
    assert value_of(tools, "fromisoformat", {string: moment.isoformat()}) == moment.isoformat()


def test_an_optional_argument_only_a_docstring_mentions_may_be_left_out() -> None:
    tools = Toolbox(datetime.datetime)
    assert tools["fromtimestamp"].input_schema["required"] == ["timestamp"]
    now = datetime.datetime.fromisoformat(value_of(tools, "now", {}))
    assert abs(now - datetime.datetime.now()) < datetime.timedelta(minutes=1)


@settings(max_examples=30)
@given(DAYS, st.sampled_from(["%d/%m/%Y", "%A %j", "%Y-W%W-%w"]))
def test_a_c_instance_method_with_no_text_signature_takes_its_documented_name(
    day: datetime.date, layout: str
) -> None:
    tools = Toolbox(day)
    assert value_of(tools, "strftime", {"format": layout}) == day.strftime(layout)


def test_an_unrepresentable_default_leaves_a_parameter_optional() -> None:
    connection = sqlite3.connect(":memory:")
    try:
        tools = Toolbox(connection)
        schema = tools["execute"].input_schema
        assert list(schema["properties"]) == ["sql", "parameters"]
        assert schema["required"] == ["sql"]
        assert value_of(tools, "execute", {"sql": "select 6 * 7"}) == [[42]]
        both = {"sql": "select ? || ?", "parameters": ["ab", "cd"]}
        assert value_of(tools, "execute", both) == [["abcd"]]
    finally:
        connection.close()


@given(st.characters(), st.text(max_size=5))
def test_a_module_function_s_own_parameter_names_reach_it_by_position(
    char: str, default: str
) -> None:
    tools = Toolbox(unicodedata, include=["name"])
    given_default = value_of(tools, "name", {"chr": char, "default": default})
    assert given_default == unicodedata.name(char, default)
    alone = tools.call("name", {"chr": char})
    assert alone.is_error == (unicodedata.name(char, None) is None)


@settings(max_examples=25)
@given(
    st.integers(1, 5).flatmap(
        lambda n: st.lists(st.lists(st.integers(0, 100), min_size=n, max_size=n), min_size=1)
    ),
    st.booleans(),
)
def test_a_numpydoc_parameters_section_names_a_c_function_s_parameters(
    costs: list[list[int]], maximize: bool
) -> None:
    tools = Toolbox({"assign": scipy.optimize.linear_sum_assignment})
    schema = tools["assign"].input_schema
    assert list(schema["properties"]) == ["cost_matrix", "maximize"]
    assert schema["required"] == ["cost_matrix"]
    rows, columns = scipy.optimize.linear_sum_assignment(costs, maximize)
    called = value_of(tools, "assign", {"cost_matrix": costs, "maximize": maximize})
    assert called == [rows.tolist(), columns.tolist()]


def test_a_callable_object_taking_anything_is_read_by_its_docstring_s_first_line() -> None:
    tools = Toolbox(scipy.special, include=["legendre_p"])
    assert list(tools["legendre_p"].input_schema["properties"]) == ["n", "z", "diff_n"]
    called = value_of(tools, "legendre_p", {"n": 3, "z": 0.25, "diff_n": 1})
    assert called == scipy.special.legendre_p(3, 0.25, diff_n=1).tolist()


def test_a_module_naming_a_member_twice_in_its_all_serves_it_once() -> None:
    assert scipy.special.__all__.count("gammaln") > 1  # what this test is about
    tools = Toolbox(scipy.special, include=["gammaln", "gamma"])
    assert sorted(tools) == ["gamma", "gammaln"]


def ufunc_tools() -> Toolbox:
    return Toolbox(numpy, include=["add", "sin", "isnan", "hypot", "divmod", "logical_not"])


def test_a_ufunc_is_one_tool_taking_its_inputs() -> None:
    tools = ufunc_tools()
    for name, tool in tools.items():
        ufunc = getattr(numpy, name)
        inputs = ["x"] if ufunc.nin == 1 else [f"x{i}" for i in range(1, ufunc.nin + 1)]
        assert list(tool.input_schema["properties"]) == inputs, name
        assert tool.input_schema["required"] == inputs, name


@given(FINITE, FINITE)
def test_a_ufunc_served_alone_is_one_tool(x: float, y: float) -> None:
    tools = Toolbox(numpy.hypot)
    assert list(tools) == ["hypot"]
    assert value_of(tools, "hypot", {"x1": x, "x2": y}) == numpy.hypot(x, y)


@given(st.lists(FINITE, max_size=20), FINITE)
def test_a_ufunc_broadcasts_json_numbers_and_lists(numbers: list[float], number: float) -> None:
    tools = ufunc_tools()
    assert value_of(tools, "add", {"x1": numbers, "x2": number}) == (
        numpy.add(numbers, number).tolist()
    )
    assert value_of(tools, "sin", {"x": numbers}) == numpy.sin(numbers).tolist()
    assert value_of(tools, "add", {"x1": [1, 2], "x2": 3}) == [4, 5]


@given(st.lists(st.floats(allow_infinity=True), max_size=20))
def test_a_ufunc_answers_for_every_float_json_text_can_write(numbers: list[float]) -> None:
    tools = ufunc_tools()
    arguments = json.dumps({"x": numbers})  # Python's JSON writes NaN and Infinity
    result = tools.call("isnan", arguments)
    assert not result.is_error, result.text
    assert result.value == [math.isnan(number) for number in numbers]


@given(MOMENTS.map(lambda moment: moment.replace(microsecond=0)))
def test_a_wrapper_renaming_its_parameter_is_called_by_position(
    moment: datetime.datetime,
) -> None:
    tools = Toolbox(dateutil.parser, include=["isoparse"])
    assert list(tools["isoparse"].input_schema["properties"]) == ["dt_str"]
    text = moment.isoformat()
    assert value_of(tools, "isoparse", {"dt_str": text}) == (
        dateutil.parser.isoparse(text).isoformat()
    )


def tool_orders(seed: str) -> dict[str, list[str]]:
    probe = (
        "import datetime, json, logging, numpy, sqlite3, objmcp\n"
        "logging.disable(logging.WARNING)\n"
        "targets = {'numpy': numpy, 'datetime': datetime.datetime,\n"
        "           'connection': sqlite3.connect(':memory:')}\n"
        "print(json.dumps({k: list(objmcp.Toolbox(t)) for k, t in targets.items()}))"
    )
    env = {**server_env(), "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [PYTHON, "-c", probe], capture_output=True, text=True, env=env, cwd=ROOT, check=True
    )
    orders: dict[str, list[str]] = json.loads(done.stdout.splitlines()[-1])
    return orders


def test_whole_targets_list_their_tools_in_one_order_whatever_the_hash_seed() -> None:
    first, second = tool_orders("11"), tool_orders("12")
    assert first == second
    assert len(first["numpy"]) > 300 and {"add", "isnan"} <= set(first["numpy"])
    assert first["datetime"] and first["connection"]
