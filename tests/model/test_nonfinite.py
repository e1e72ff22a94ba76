"""Numbers JSON cannot write (issue 37): a NaN or an infinity in a result is the string
``"NaN"``, ``"Infinity"`` or ``"-Infinity"`` (alone, in a list, in a dataclass field, an
exact decimal's), which the result's output schema takes; a float argument given one of
these names (or Python's ``"inf"``, ``"-inf"``, ``"nan"``) is the float it names, and an
integer argument is not. Through a real server process in each era and the official SDK's
client (which checks structured results against their schemas), and property tests: any
float sent as a result and read back as an argument is the same float."""

from __future__ import annotations

import json
import math
from typing import Any

import jsonschema
import pytest
from conftest import PYTHON, ROOT, RawServer, objmcp_run
from hypothesis import example, given, settings
from hypothesis import strategies as st

import objmcp
from objmcp.cli.targets import load_target
from objmcp.model.describe.schema import SchemaBuilder
from objmcp.model.values.jsonable import NotJsonable, argument_form, to_jsonable
from objmcp.model.values.jsontext import dumps
from objmcp.model.values.nonfinite import NAMES, name_of, named_float, named_numbers

QUICK = settings(max_examples=80, deadline=None)
SERVED = f"{ROOT / 'tests' / 'servers' / 'measures.py'}:Measures"
TOOLS = objmcp.Toolbox(load_target(SERVED))

CALLS: dict[str, tuple[str, dict[str, Any], Any]] = {
    "infinity": ("reciprocal", {"x": 0}, "Infinity"),
    "minus infinity": ("reciprocal", {"x": -0.0}, "-Infinity"),
    "a finite float": ("reciprocal", {"x": 4}, 0.25),
    "nan": ("mean", {"values": []}, "NaN"),
    "a list": (
        "ratios",
        {"values": [1, 0, -2, 3], "by": 0},
        ["Infinity", "NaN", "-Infinity", "Infinity"],
    ),
    "a dataclass": ("interval", {"values": []}, {"low": "Infinity", "high": "-Infinity"}),
    "a decimal": ("exact", {"text": "-Infinity"}, "-Infinity"),
    "a decimal nan": ("exact", {"text": "NaN"}, "NaN"),
    "a float given Infinity": ("same", {"x": "Infinity"}, "Infinity"),
    "a float given -inf": ("same", {"x": "-inf"}, "-Infinity"),
    "a float given NaN": ("same", {"x": "NaN"}, "NaN"),
    "a list given names": (
        "ratios",
        {"values": ["-Infinity", "nan", 2], "by": 1},
        ["-Infinity", "NaN", 2.0],
    ),
    "a float read as its sign": ("sign", {"x": "-Infinity"}, -1),
}


def start(server: RawServer, revision: str) -> dict[str, Any] | None:
    """The handshake of ``revision``'s era, or (modern era) the ``_meta`` every request holds."""
    if revision < "2026":
        server.initialize(revision)
        return None
    return {
        "io.modelcontextprotocol/protocolVersion": revision,
        "io.modelcontextprotocol/clientCapabilities": {},
    }


def request(server: RawServer, number: int, method: str, params: dict[str, Any], meta: Any) -> Any:
    if meta is not None:
        params = {**params, "_meta": meta}
    return server.request({"jsonrpc": "2.0", "id": number, "method": method, "params": params})


@pytest.mark.parametrize("revision", ["2025-06-18", "2026-07-28"])
def test_a_server_sends_nan_and_infinities_as_their_names_that_fit_the_output_schema(
    revision: str,
) -> None:
    with objmcp_run(SERVED) as server:
        meta = start(server, revision)
        listed = request(server, 0, "tools/list", {}, meta)["result"]["tools"]
        answers = {
            case: request(server, n, "tools/call", {"name": tool, "arguments": args}, meta)
            for n, (case, (tool, args, _)) in enumerate(CALLS.items(), start=1)
        }
        refused = request(
            server, 99, "tools/call", {"name": "count", "arguments": {"n": "Infinity"}}, meta
        )
    schemas = {tool["name"]: tool["outputSchema"] for tool in listed}
    for case, (tool, _, expected) in CALLS.items():
        answer = answers[case]["result"]
        assert not answer["isError"], (case, answer)
        [block] = answer["content"]
        text = block["text"]
        assert (text if isinstance(expected, str) else json.loads(text)) == expected, case
        structured = answer["structuredContent"]
        wrapped = structured.get("result", structured) if tool != "interval" else structured
        assert wrapped == expected, case
        jsonschema.validate(structured, schemas[tool])  # the schema takes the names
    result = refused["result"]
    assert result["isError"] and "expected integer" in result["content"][0]["text"]
    assert schemas["count"]["properties"]["result"] == {
        "type": "array",
        "items": {"type": "integer"},
    }
    low = schemas["interval"]["properties"]["low"]
    assert low["anyOf"] == [{"type": "number"}, {"enum": list(NAMES)}]


@pytest.mark.anyio
async def test_the_sdk_client_takes_the_names_as_fitting_their_schemas() -> None:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=PYTHON, args=["-m", "objmcp", "run", SERVED], env={"PYTHONPATH": str(ROOT)}
    )
    async with Client(params) as client:  # it validates structured content by the schema
        infinite = await client.call_tool("reciprocal", {"x": 0})
        listed = await client.call_tool("ratios", {"values": [0, 1], "by": 0})
        interval = await client.call_tool("interval", {"values": []})
        given = await client.call_tool("same", {"x": "-Infinity"})
    assert infinite.structured_content == {"result": "Infinity"}
    assert listed.structured_content == {"result": ["NaN", "Infinity"]}
    assert interval.structured_content == {"low": "Infinity", "high": "-Infinity"}
    assert given.structured_content == {"result": "-Infinity"}


# --- in process ---------------------------------------------------------------------------


def bound(tool: str, arguments: dict[str, Any], name: str) -> Any:
    positional, keywords = TOOLS[tool].bind(arguments)
    return keywords[name] if name in keywords else positional[0]


def same_float(a: Any, b: Any) -> bool:
    return type(a) is type(b) is float and (a == b or (math.isnan(a) and math.isnan(b)))


def sent_back(value: object) -> Any:
    """What the result ``value`` of ``same`` reads as on the other side: its structured
    content's JSON text (strict: no bare NaN), read."""
    result = TOOLS.call("same", {"x": value} if isinstance(value, float) else value)
    assert not result.is_error, result.text
    return json.loads(dumps(result.structured))["result"]


@QUICK
@given(st.floats())
@example(math.inf)
@example(-math.inf)
@example(math.nan)
@example(-0.0)
def test_any_float_sent_as_a_result_comes_back_as_an_argument_the_same(number: float) -> None:
    back = bound("same", {"x": sent_back(number)}, "x")
    assert same_float(back, number) or (back == number and type(back) is int), (number, back)


@QUICK
@given(st.lists(st.floats(), max_size=6))
def test_a_list_of_floats_comes_back_the_same(numbers: list[float]) -> None:
    result = TOOLS.call("ratios", {"values": numbers, "by": 1})
    assert not result.is_error, result.text
    sent = json.loads(dumps(result.structured))["result"]
    back = bound("ratios", {"values": sent, "by": 1}, "values")
    assert len(back) == len(numbers)
    assert all(same_float(float(b), n) for b, n in zip(back, numbers, strict=True))


@QUICK
@given(st.floats())
def test_to_jsonable_names_what_json_cannot_write_and_keeps_the_rest(number: float) -> None:
    form = to_jsonable([number])
    if math.isfinite(number):
        assert form == [number]
    else:
        assert form == [name_of(number)] and same_float(named_float(form[0]), number)
        with pytest.raises(NotJsonable):  # strict: an argument's default shows none
            argument_form(number)
    dumps(form)  # JSON text writes it


@QUICK
@given(
    st.sampled_from(["nan", "inf", "infinity"]),
    st.sampled_from(["", "+", "-"]),
    st.lists(st.booleans(), min_size=8, max_size=8),
)
def test_python_s_spellings_in_any_case_name_the_float(
    word: str, sign: str, upper: list[bool]
) -> None:
    text = sign + "".join(c.upper() if up else c for c, up in zip(word, upper, strict=False))
    assert same_float(named_float(text), float(text))
    assert same_float(bound("same", {"x": text}, "x"), float(text))


@QUICK
@given(st.text(max_size=12))
@example("1e400")
@example("--inf")
@example(" inf")
@example("infinit")
@example("0")
@example(" 3")
def test_other_text_names_no_float(text: str) -> None:
    if text.lstrip("+-").lower() in ("nan", "inf", "infinity") and text[:2] not in (
        "++",
        "--",
        "+-",
        "-+",
    ):
        return
    assert named_float(text) is None
    result = TOOLS.call("same", {"x": text})
    if _json_number(text) is not None:  # "0", " 3": leniency reads a number's JSON text
        assert not result.is_error and result.value == _json_number(text), result
        return
    assert result.is_error and "expected number" in result.text


def _refuse(constant: str) -> object:
    raise ValueError(constant)


def _json_number(text: str) -> float | None:
    """The number ``text`` is the JSON text of, if it is one."""
    try:
        value = json.loads(text, parse_constant=_refuse)
    except ValueError:
        return None
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return value if number and math.isfinite(value) else None  # "1e400" overflows: refused


def test_an_integer_parameter_takes_no_name() -> None:
    for text in ("Infinity", "-Infinity", "NaN", "inf"):
        result = TOOLS.call("count", {"n": text})
        assert result.is_error and "expected integer" in result.text, text


def test_only_numbers_of_a_result_s_schema_take_the_names() -> None:
    results = SchemaBuilder(results=True)
    assert results.schema(float) == named_numbers({"type": "number"})
    assert results.schema(int) == {"type": "integer"}
    assert results.schema(list[int | float | None])["items"] == {
        "anyOf": [{"type": "integer"}, {"type": "number"}, {"enum": list(NAMES)}, {"type": "null"}]
    }
    assert SchemaBuilder().schema(float) == {"type": "number"}  # an argument's: unchanged
    kept = {
        "type": "object",
        "properties": {"default": {"type": "number", "minimum": 0}},
        "default": {"type": "number"},
    }
    assert named_numbers(kept) == {
        "type": "object",
        "properties": {
            "default": {"anyOf": [{"type": "number"}, {"enum": list(NAMES)}], "minimum": 0}
        },
        "default": {"type": "number"},  # a value, not a schema
    }
    assert named_numbers({"type": ["number", "string"]}) == {"type": ["number", "string"]}
