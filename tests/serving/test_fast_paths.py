"""The fast paths (issue 9) against the general paths they stand in for.

Each speed-up must give exactly what the slower way gives, so each is tested
differentially, with the general way (mostly the standard library) as the oracle:

- ``objmcp.model.values.jsontext``: ``dumps`` and ``encode_message`` write the standard encoder's
  text (or raise the same kind of exception) for any value, odd keys and cycles
  included; ``parse_message`` reads any bytes as the standard decoder does, and
  fails with a :class:`ParseFailure` that says what the decoder says.
- ``objmcp.protocol.limits.text_within_limits`` is sound (what it vouches for is within the
  limits by :func:`over_limits`) and useful (the usual message is vouched for); a
  :class:`Session` given a message's text answers exactly as one that walks it.
- ``objmcp.model.values.content.plain_text`` / ``value_result``: the text of a plain value is its
  JSON text as ``to_jsonable`` and the standard encoder make it; subclasses, enums,
  huge integers and non-finite floats take the general path.
- ``Tool.bind``'s keyword plan gives what the general placing gives (values and
  their types, or the same :class:`ArgumentError`); ``tool_result`` and
  ``run_sync_tool`` give what ``value_result`` and the schema check give.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
import enum
import json
import math
import sys
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal
from unittest import mock

import pytest
from hypothesis import HealthCheck, currently_in_test_context, event, example, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from objmcp import Progress, Toolbox
from objmcp._exceptions import ArgumentError
from objmcp.model.calling.outcome import run_sync_tool, tool_result
from objmcp.model.calling.tool import Tool, make_tool
from objmcp.model.values.content import ToolResult, plain_text, value_result
from objmcp.model.values.jsonable import NotJsonable, to_jsonable
from objmcp.model.values.jsontext import (
    LongMessage,
    ParseFailure,
    dumps,
    encode_message,
    parse_message,
)
from objmcp.protocol import limits as _limits
from objmcp.protocol.limits import (
    DEFAULT_MAX_DEPTH,
    DEFAULT_MAX_STRING,
    over_limits,
    text_within_limits,
)
from objmcp.protocol.session import (
    Action,
    Answer,
    CancelCall,
    Resume,
    Send,
    ServerInfo,
    Session,
    StartCall,
)

SETTINGS = settings(max_examples=100, deadline=None)
FEW = settings(max_examples=30, deadline=None)
FROM_SCHEMA = settings(  # hypothesis-jsonschema is slow to draw from
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

# --- values ---------------------------------------------------------------------------------

SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d"]
CONTROLS = ["\x00", "\x01", "\x1f", "\x7f", "\n", "\t", "\u2028", "\u2029"]
SPECIAL_FLOATS = [
    -0.0,
    0.0,
    5e-324,
    -5e-324,
    2.2250738585072014e-308,
    1.7976931348623157e308,
    -1.7976931348623157e308,
    1e16,
    1e-7,
    1e22,
    0.1,
    123456789.0,
]
BIG_INTS = [
    2**63 - 1,
    2**63,
    2**64,
    -(2**64) - 1,
    10**18 - 1,
    10**18,
    -(10**18) + 1,
    -(10**18),
    10**30,
    -(10**100),
]

characters = st.one_of(
    st.characters(),
    st.characters(exclude_categories=()),  # surrogates too
    st.sampled_from(SURROGATES + CONTROLS + ['"', "\\", "[", "{", "é", "\U0001f600"]),
)
texts = st.text(characters, max_size=12)
integers = st.one_of(
    st.integers(),
    st.integers(min_value=-(2**300), max_value=2**300),
    st.sampled_from(BIG_INTS),
)
floats = st.one_of(st.floats(), st.sampled_from(SPECIAL_FLOATS))
scalars = st.one_of(st.none(), st.booleans(), integers, floats, texts)


def containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(texts, children, max_size=4),
    )


json_values = st.recursive(scalars, containers, max_leaves=20)
"""JSON-like values: NaN, infinities and lone surrogates included."""


class Number(int):
    """An int subclass (the general path, in results)."""


class Word(str):
    """A str subclass (the general path, in results)."""


class Real(float):
    """A float subclass, with a repr of its own (the general path, in results)."""

    def __repr__(self) -> str:
        return "Real()"


class Size(enum.IntEnum):
    SMALL = 1
    HUGE = 10**20


class Mood(str, enum.Enum):
    HAPPY = "happy"


class Ratio(float, enum.Enum):
    HALF = 0.5
    NOTHING = float("nan")


def same(a: object, b: object) -> bool:
    """Equal, and of the same types all the way down: -0.0 is not 0.0, 1 is neither 1.0 nor
    True, NaN is NaN; dataclass instances field by field, enum members by identity."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        assert isinstance(b, float)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple))
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, enum.Enum):
        return a is b
    if dataclasses.is_dataclass(a):
        return same(vars(a), vars(b))
    return a == b


def record(what: str) -> None:
    """A hypothesis event, when in a hypothesis test."""
    if currently_in_test_context():
        event(what)


def attempt(function: Callable[[], object]) -> tuple[bool, object]:
    """(True, what ``function`` returned) or (False, the exception it raised)."""
    try:
        return True, function()
    except Exception as error:
        return False, error


def assert_same_outcome(fast: Callable[[], object], reference: Callable[[], object]) -> None:
    """The same result, or an exception of the same type from both."""
    ok, got = attempt(fast)
    reference_ok, wanted = attempt(reference)
    if reference_ok:
        assert ok, f"the fast path raised {got!r} where the standard one gave {wanted!r}"
        assert type(got) is type(wanted) and got == wanted, (got, wanted)
    else:
        assert not ok, f"the fast path gave {got!r} where the standard one raised {wanted!r}"
        assert type(got) is type(wanted), (got, wanted)
    record(f"reference {'succeeds' if reference_ok else 'raises ' + type(wanted).__name__}")


# --- dumps and encode_message -------------------------------------------------------------------

STANDARD = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)
STANDARD_MESSAGE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def standard_message(value: object) -> bytes:
    """What ``encode_message`` must write: UTF-8, or ASCII escapes for lone surrogates."""
    text = STANDARD_MESSAGE.encode(value)
    try:
        return text.encode()
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":")).encode()


def assert_encoded_as_standard(value: object) -> None:
    assert_same_outcome(lambda: dumps(value), lambda: STANDARD.encode(value))
    assert_same_outcome(lambda: encode_message(value), lambda: standard_message(value))


@SETTINGS
@given(json_values)
@example(10**5000)  # beyond the digits an int may have in a text: ValueError both ways
@example([1, float("nan")])
@example({"\ud800": "\udfff"})
@example("\ud83d\ude00\ud83d")
@example([-0.0, 5e-324, 1e16, 1e-7, -(2**64)])
def test_dumps_and_encode_message_write_what_the_standard_encoder_writes(value: Any) -> None:
    assert_encoded_as_standard(value)


keys = st.one_of(
    texts,
    integers,
    st.floats(),  # NaN and infinities too: allowed in messages, refused by dumps
    st.booleans(),
    st.none(),
)
odd_dicts = st.recursive(
    st.dictionaries(keys, scalars, max_size=5),
    lambda children: st.one_of(
        st.dictionaries(keys, children, max_size=3), st.lists(children, max_size=3)
    ),
    max_leaves=12,
)


@SETTINGS
@given(odd_dicts)
@example({1: 2, 1.5: 3, False: 4, None: 5, "x": 6})
@example({True: 1, "true": 2})
@example({float("inf"): 1})
@example({10**5000: 1})
@example({-0.0: "a", 2**70: "b"})
def test_non_string_keys_are_written_as_the_standard_encoder_writes_them(value: Any) -> None:
    assert_encoded_as_standard(value)


class Unknown:
    """A type with no JSON form."""


@SETTINGS
@given(
    st.one_of(
        st.builds(Unknown),
        st.sets(st.integers(), max_size=2),
        st.binary(max_size=3),
        st.tuples(scalars, scalars),
        st.builds(complex, st.integers(), st.integers()),
        st.builds(lambda: [*Size, *Mood, *Ratio]),  # enums of int, str and float
        st.builds(lambda i, t, f: [Number(i), Word(t), Real(f)], integers, texts, floats),
    ),
    json_values,
)
def test_values_of_other_types_raise_or_are_written_as_the_standard_encoder_does(
    odd: object, value: Any
) -> None:
    for whole in (odd, [value, odd], {"k": odd, "v": value}, {(1, 2): value}):
        assert_encoded_as_standard(whole)


def cycles(value: Any) -> list[Any]:
    """Values that hold themselves, somewhere after ``value``."""
    in_list: list[Any] = [value]
    in_list.append(in_list)
    in_dict: dict[str, Any] = {"value": value}
    in_dict["self"] = in_dict
    through: list[Any] = [value]
    through.append({"back": [through]})
    return [in_list, in_dict, through, [value, in_list], {"deep": [[[in_dict]]]}]


@FEW
@given(json_values)
def test_cycles_are_refused_as_the_standard_encoder_refuses_them(value: Any) -> None:
    for cycle in cycles(value):
        assert_encoded_as_standard(cycle)


def test_a_cycle_is_a_value_error_and_deep_nesting_a_recursion_error_as_in_the_standard() -> None:
    cycle = cycles(1)[0]
    for function in (dumps, encode_message):
        with pytest.raises(ValueError, match="Circular reference detected"):
            function(cycle)
    deep: Any = 0
    for _ in range(5000):
        deep = [deep]
    assert_encoded_as_standard(deep)
    shallow: Any = 0
    for _ in range(400):
        shallow = {"a": shallow}
    assert dumps(shallow) == STANDARD.encode(shallow)


def test_dumps_refuses_nan_and_writes_utf_8_characters_as_they_are() -> None:
    assert dumps({"é": ["\U0001f600", 1.5, None, True]}) == '{"é":["\U0001f600",1.5,null,true]}'
    for value in (float("nan"), [float("inf")], {"a": -math.inf}):
        with pytest.raises(ValueError, match="not JSON compliant"):
            dumps(value)
    assert encode_message([float("nan"), "\ud800"]) == b'[NaN,"\\ud800"]'
    assert encode_message({"é": 1}) == '{"é":1}'.encode()


plain_texts = st.text(
    st.characters(codec="utf-8", exclude_characters='"\\' + "".join(map(chr, range(32)))),
    max_size=40,
)


@SETTINGS
@given(json_values, st.one_of(texts, plain_texts), texts, st.data())
def test_long_texts_a_message_names_change_no_byte(
    value: Any, long: str, elsewhere: str, data: st.DataObject
) -> None:
    """The strings named as long (the very objects: in the message once, several times, in
    a tuple, or not at all; needing escapes or not) are written as the standard encoder
    writes them."""
    places = data.draw(st.lists(st.sampled_from(["list", "dict", "tuple", "key"]), max_size=4))
    message: dict[Any, Any] = {"value": value, "list": [], "dict": {}}
    for place in places:
        if place == "list":
            message["list"].append(long)
        elif place == "dict":
            message["dict"][f"k{len(message['dict'])}"] = long
        elif place == "tuple":
            message["tuple"] = (long, value)
        else:
            message[long] = 1
    named = data.draw(st.sampled_from([(long,), (long, elsewhere), (elsewhere, long, long)]))
    assert_same_outcome(
        lambda: encode_message(LongMessage(message, named)), lambda: standard_message(message)
    )


def test_a_long_text_with_nothing_to_escape_is_not_looked_at_character_by_character() -> None:
    long, other = "x" * 100_000, "y" * 100_000 + '"'
    message = {"content": [{"type": "text", "text": long}], "structured": {"result": long}}
    expected = standard_message(message), standard_message({"a": other})
    with mock.patch("json.encoder.encode_basestring", wraps=json.encoder.encode_basestring) as spy:
        assert encode_message(LongMessage(message, (long,))) == expected[0]
        assert spy.call_count == 0
        assert encode_message(LongMessage({"a": other}, (other,))) == expected[1]
        assert spy.call_count == 1


def test_a_message_holding_the_placeholder_itself_is_still_written_as_the_standard() -> None:
    long = "z" * 1000
    with mock.patch("objmcp.model.values.jsontext.os.urandom", return_value=b"\x00" * 8):
        token = f"objmcp-{'00' * 8}-0"
        for message in ({"a": long, "b": token}, {"l": [token, long, long]}, {"only": token}):
            assert encode_message(LongMessage(message, (long,))) == standard_message(message)


# --- parse_message ------------------------------------------------------------------------------


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # 1e400: out of a float's range, refused as NaN is (issue 27)
        raise ValueError(f"the number {text[:40]} is out of range: numbers must be finite")
    return value


REFERENCE_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)


def reference_parse(frame: bytes) -> Any:
    return REFERENCE_DECODER.decode(frame.decode())


def described(error: BaseException) -> str:
    """What a ParseFailure must say for an error of the reference decoder."""
    if isinstance(error, RecursionError):
        return "the JSON is nested too deeply"
    if isinstance(error, UnicodeDecodeError):
        return f"the frame is not UTF-8 ({error.reason} at byte {error.start})"
    return str(error)


def canonical(value: object) -> str:
    """A parsed value's text, telling 1 from 1.0 and True, 0.0 from -0.0, and key order."""
    return json.dumps(value)


def assert_parsed_as_reference(frame: bytes) -> None:
    try:
        wanted = reference_parse(frame)
    except (ValueError, RecursionError) as error:
        with pytest.raises(ParseFailure) as caught:
            parse_message(frame)
        assert str(caught.value) == described(error), (frame[:80], error)
        record(f"refused: {type(error).__name__}")
        return
    got = parse_message(frame)
    assert canonical(got) == canonical(wanted), frame[:80]
    record("parsed")


JSON_BLANKS = " \t\n\r"
blanks = st.one_of(
    st.text(st.sampled_from(JSON_BLANKS), max_size=3),
    st.sampled_from(["\x0b", "\x0c", "\u00a0", "\ufeff", "\u2028"]),  # not JSON's
)
CONSTANTS = [b"NaN", b"Infinity", b"-Infinity", b"nan", b"inf", b"-NaN", b"Infinit"]


@st.composite
def frames(draw: st.DrawFn) -> bytes:
    """Bytes that are JSON, nearly JSON, or anything."""
    if draw(st.integers(0, 4)) == 0:
        return draw(st.binary(max_size=40))
    value = draw(json_values)
    text = json.dumps(
        value,
        ensure_ascii=draw(st.booleans()),
        indent=draw(st.sampled_from([None, None, 0, 2, "\t"])),
        separators=draw(st.sampled_from([None, (",", ":"), (" , ", " : ")])),
    )
    text = draw(blanks) + text + draw(blanks)
    data = text.encode("utf-8", "surrogatepass")  # a lone surrogate: bytes that are no UTF-8
    change = draw(st.sampled_from(["none", "none", "truncate", "append", "constant", "replace"]))
    if change == "truncate":
        data = data[: draw(st.integers(0, len(data)))]
    elif change == "append":
        junk = draw(
            st.one_of(
                st.sampled_from([b"x", b"]", b"}", b",", b"1", b" [", b"\x00", b"\xff", b"\n{}"]),
                st.binary(max_size=4),
            )
        )
        data += junk
    elif change == "constant":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from(CONSTANTS)) + data[at:]
    elif change == "replace":  # a number, or a whole token, by a constant
        for token in (b"0", b"1", b"null", b"true", b"false", b"-"):
            if token in data:
                data = data.replace(token, draw(st.sampled_from(CONSTANTS)), 1)
                break
    return data


@SETTINGS
@given(frames())
@example(b"")
@example(b" ")
@example(b"NaN")
@example(b"[NaN]")
@example(b"-Infinity")
@example(b'{"a": Infinity}')
@example(b"\xef\xbb\xbf{}")  # a UTF-8 byte order mark
@example(b"1e400")  # infinity, by way of a number too large: refused
@example(b'{"id": 1, "x": [-1E+999]}')
@example(b"-0")
@example(b"-0.0")
@example(b'"\\ud800"')
@example(b"[1,]")
@example(b'{"a" 1}')
@example(b"01")
@example(b"1" * 5000)  # beyond the digits an int may have: ValueError, not JSONDecodeError
@example(b"\xff")
@example(b"\xed\xa0\x80")  # a surrogate, in UTF-8's way: not UTF-8
@example(b'"\x00"')  # a raw control character in a string
@example(b"[]  ")
@example(b"  []")
@example(b"[] x")
@example(b'{"a":1,"a":2}')
@example(b"[" * 500 + b"]" * 500)
@example(b'["\xc3\xa9", "\xf0\x9f\x98\x80"]')
def test_parse_message_reads_as_the_standard_decoder_and_says_what_it_says(frame: bytes) -> None:
    assert_parsed_as_reference(frame)


JSON_ALPHABET = '[]{},:"0123456789-+.eE tnrufalsNIiy\\/ \n\t'


@SETTINGS
@given(
    st.one_of(
        st.binary(max_size=64),
        st.text(st.sampled_from(JSON_ALPHABET), max_size=30).map(str.encode),
    )
)
def test_parse_message_on_arbitrary_bytes(frame: bytes) -> None:
    assert_parsed_as_reference(frame)


def test_invalid_utf_8_is_described_by_its_reason_and_byte() -> None:
    for frame, wanted in (
        (b'{"a": "\xff"}', "the frame is not UTF-8 (invalid start byte at byte 7)"),
        (b'["\xc3"]', "the frame is not UTF-8 (invalid continuation byte at byte 2)"),
        (b'"\xe2\x82', "the frame is not UTF-8 (unexpected end of data at byte 1)"),
    ):
        with pytest.raises(ParseFailure) as caught:
            parse_message(frame)
        assert str(caught.value) == wanted
        assert_parsed_as_reference(frame)


def test_nesting_deeper_than_the_decoder_goes_is_a_parse_failure() -> None:
    for frame in (
        b"[" * 100_000 + b"]" * 100_000,
        b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
        b"[" * 100_000,  # unclosed as well
    ):
        with pytest.raises(RecursionError):
            reference_parse(frame)
        with pytest.raises(ParseFailure) as caught:
            parse_message(frame)
        assert str(caught.value) == "the JSON is nested too deeply"
    # the scan recovers: the next frame is read as ever
    assert parse_message(b'{"jsonrpc":"2.0","id":1}') == {"jsonrpc": "2.0", "id": 1}


def test_constants_are_refused_wherever_they_are() -> None:
    for frame in (b"NaN", b" [1, Infinity]", b'{"a":-Infinity}', b"[NaN] "):
        with pytest.raises(ParseFailure, match="is not valid JSON"):
            parse_message(frame)


# --- text_within_limits --------------------------------------------------------------------------

limit_characters = st.one_of(
    st.characters(codec="utf-8"),  # no lone surrogates: every text here is UTF-8
    st.sampled_from(['"', "\\", "[", "]", "{", "}", "é", "\U0001f600", "\x00", "\n"]),
)
limit_texts = st.text(limit_characters, max_size=10)
limit_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), limit_texts)
limit_values = st.recursive(
    limit_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(limit_texts, children, max_size=3)
    ),
    max_leaves=8,
)
limit_messages = st.one_of(
    st.lists(limit_values, min_size=1, max_size=3),
    st.dictionaries(limit_texts, limit_values, min_size=1, max_size=3),
    limit_values.filter(lambda value: not isinstance(value, str)),
)
"""Containers mostly, and scalars but a lone string (see the test of over_limits of a
lone string below)."""


@st.composite
def json_texts(draw: st.DrawFn, values: st.SearchStrategy[Any]) -> tuple[Any, bytes]:
    """A value and a JSON text of it: ASCII escapes or UTF-8, compact or spaced."""
    value = draw(values)
    text = json.dumps(
        value,
        ensure_ascii=draw(st.booleans()),
        indent=draw(st.sampled_from([None, None, 1])),
        separators=draw(st.sampled_from([(",", ":"), (", ", ": ")])),
    )
    text = draw(st.text(st.sampled_from(JSON_BLANKS), max_size=2)) + text
    return value, (text + draw(st.text(st.sampled_from(JSON_BLANKS), max_size=2))).encode()


@st.composite
def limits_for(draw: st.DrawFn, text: bytes) -> tuple[int, int]:
    """``max_depth`` in 1..10 and ``max_string`` in 0..40, or both about what the text
    needs (its brackets, its length): where a wrong verdict would show."""
    if draw(st.booleans()):
        return draw(st.integers(1, 10)), draw(st.integers(0, 40))
    brackets = text.count(b"[") + text.count(b"{")
    max_depth = max(1, brackets + draw(st.sampled_from([0, 0, 0, -1, 1])))
    max_string = max(0, len(text) + draw(st.sampled_from([0, 0, 0, -1, 1, -5])))
    return max_depth, max_string


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_text_within_limits_vouches_only_for_messages_within_the_limits(
    data: st.DataObject,
) -> None:
    value, text = data.draw(json_texts(limit_messages), label="value and text")
    max_depth, max_string = data.draw(limits_for(text), label="max_depth, max_string")
    assert_vouches_soundly(value, text, max_depth, max_string)


def assert_vouches_soundly(value: Any, text: bytes, max_depth: int, max_string: int) -> None:
    decoded = json.loads(text)
    assert canonical(decoded) == canonical(value)
    vouched = text_within_limits(text, max_depth, max_string)
    if vouched:
        assert over_limits(decoded, max_depth, max_string) is None, (text, max_depth, max_string)
        strings = b'"' in text
        record(f"vouched, {'with' if strings else 'without'} strings")
    else:
        record("not vouched")


def test_text_within_limits_at_the_edges() -> None:
    """Vouched for at exactly the text's length and brackets (and sound there), not below."""
    for value, text in (
        (["aaa"], b'["aaa"]'),
        (["a"], b'["a"]'),
        ({"\U0001f600" * 3: 1}, '{"\U0001f600\U0001f600\U0001f600":1}'.encode()),
        ({"a": "\\u00e9"}, b'{"a":"\\\\u00e9"}'),
        ({"\u00e9": "\u00e9"}, b'{"\\u00e9":"\\u00e9"}'),
        ([[[]]], b"[[[]]]"),
        ({"a": {"b": {}}}, b'{"a":{"b":{}}}'),
        ([["[[["]], b'[["[[["]]'),
    ):
        max_depth, max_string = text.count(b"[") + text.count(b"{"), len(text)
        assert text_within_limits(text, max_depth, max_string), text
        assert_vouches_soundly(value, text, max_depth, max_string)
        assert not text_within_limits(text, max_depth - 1, max_string), text
        assert not text_within_limits(text, max_depth, max_string - 1), text


def test_over_limits_of_a_lone_string_within_max_string_is_none() -> None:
    """A message that is one string, shorter than max_string, is within the limits; the
    text vouches for it, and over_limits must agree (it says every such string is over)."""
    assert text_within_limits(b'""', 1, 2)
    assert over_limits("", 1, 2) is None
    assert text_within_limits(b'"abc"', 5, 100)
    assert over_limits("abc", 5, 100) is None
    assert over_limits("a" * 101, 5, 100) is not None


def typical_call(arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "search", "arguments": arguments, "_meta": {"progressToken": "p1"}},
    }


def test_text_within_limits_vouches_for_the_usual_message_under_the_default_limits() -> None:
    small = typical_call({"query": "café ☕", "limit": 10, "tags": ["a", "b"]})
    for ascii_only in (True, False):
        text = json.dumps(small, ensure_ascii=ascii_only).encode()
        assert text_within_limits(text, DEFAULT_MAX_DEPTH, DEFAULT_MAX_STRING)
    long = typical_call({"text": "x" * 1_000_000, "rows": [[i, [i]] for i in range(30)]})
    assert text_within_limits(json.dumps(long).encode(), DEFAULT_MAX_DEPTH, DEFAULT_MAX_STRING)
    # and not for what it cannot tell from the text
    assert not text_within_limits(b"[" * 101 + b"]" * 101, DEFAULT_MAX_DEPTH, DEFAULT_MAX_STRING)
    assert not text_within_limits(b'"abcdef"', 10, 5)


@settings(max_examples=150, deadline=None)
@given(
    size=st.integers(_limits._COUNTED - 3, _limits._COUNTED + 3_000),
    brackets=st.lists(st.tuples(st.integers(0, 10**9), st.sampled_from(b"[{]}")), max_size=40),
    depth_slack=st.integers(-3, 3),
    string_slack=st.integers(-2, 2),
)
def test_a_long_text_is_vouched_for_exactly_when_its_brackets_counted_allow(
    size: int, brackets: list[tuple[int, int]], depth_slack: int, string_slack: int
) -> None:
    """Past ``_COUNTED`` bytes the brackets are looked for, not counted: the verdict is
    the counting one, at the limit, around it and either side of the switch."""
    text = bytearray(b"x" * size)
    for where, bracket in brackets:
        text[where % size] = bracket
    counted = text.count(b"[") + text.count(b"{")
    max_depth, max_string = max(0, counted + depth_slack), size + string_slack
    expected = size <= max_string and counted <= max_depth
    assert text_within_limits(bytes(text), max_depth, max_string) == expected


# --- the session, told the text or not ------------------------------------------------------------


class Desk:
    """Two tools to call."""

    def echo(self, value: Any = None) -> Any:
        """Say it back."""
        return value

    def add(self, a: int, b: int) -> int:
        """Add two integers."""
        return a + b


TOOLBOX = Toolbox(Desk())
INFO = ServerInfo("fast")

session_texts = st.text(limit_characters, max_size=30)
session_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), session_texts),
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(session_texts, children, max_size=3)
    ),
    max_leaves=8,
)
request_ids = st.one_of(st.integers(0, 5), st.sampled_from(["a", "b", "objmcp-1"]))


@st.composite
def messages(draw: st.DrawFn) -> dict[str, Any]:
    """Requests, notifications and responses, over the limits or under them."""
    value = draw(session_values)
    kind = draw(st.sampled_from(["echo", "add", "ping", "notification", "response", "list"]))
    request_id = draw(request_ids)
    if kind == "echo":
        params: Any = {"name": "echo", "arguments": {"value": value}}
    elif kind == "add":
        params = {"name": "add", "arguments": {"a": draw(st.integers()), "b": value}}
    elif kind == "ping":
        params = {"_meta": {"note": value}}
    elif kind == "notification":
        return {"jsonrpc": "2.0", "method": "notifications/anything", "params": {"x": value}}
    elif kind == "response":
        return {"jsonrpc": "2.0", "id": request_id, "result": {"content": value}}
    else:
        params = {"cursor": value} if draw(st.booleans()) else {}
        return {"jsonrpc": "2.0", "id": request_id, "method": "tools/list", "params": params}
    method = "ping" if kind == "ping" else "tools/call"
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def described_action(action: Action) -> tuple[object, ...]:
    """An action as comparable data (the actions have no ``__eq__``)."""
    if isinstance(action, Send):
        return ("send", action.message, action.related)
    if isinstance(action, StartCall):
        context = action.context
        return (
            "start",
            action.call_id,
            action.tool,
            action.arguments,
            action.kind,
            context.request_id,
            context.revision.version,
            dict(context.client_capabilities),
            dict(context.meta),
            context.answers,
        )
    if isinstance(action, Resume):
        return ("resume", action.parked, described_action(action.start))
    if isinstance(action, CancelCall):
        return ("cancel", action.call_id)
    assert isinstance(action, Answer)
    return ("answer", action.ask_id, action.result, action.error)


def source_of(message: object, ascii_only: bool, spaced: bool) -> bytes:
    separators = (", ", ": ") if spaced else (",", ":")
    return json.dumps(message, ensure_ascii=ascii_only, separators=separators).encode()


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["2025-03-26", "2025-06-18"]),
    st.lists(
        st.one_of(messages(), st.lists(messages(), min_size=1, max_size=3)), min_size=1, max_size=6
    ),
    st.integers(1, 12),
    st.integers(1, 400),
    st.booleans(),
    st.booleans(),
)
def test_a_session_told_the_text_answers_as_one_that_walks_the_message(
    version: str,
    conversation: list[Any],
    max_depth: int,
    max_string: int,
    ascii_only: bool,
    spaced: bool,
) -> None:
    told = Session(TOOLBOX, INFO, max_depth=max_depth, max_string=max_string)
    walking = Session(TOOLBOX, INFO, max_depth=max_depth, max_string=max_string)
    initialize = {
        "jsonrpc": "2.0",
        "id": "init",
        "method": "initialize",
        "params": {"protocolVersion": version, "capabilities": {}},
    }
    for message in [initialize, *conversation]:
        source = source_of(message, ascii_only, spaced)
        vouched = text_within_limits(source, max_depth, max_string)
        record(f"vouched: {vouched}")
        got = [described_action(a) for a in told.receive(message, source=source)]
        wanted = [described_action(a) for a in walking.receive(message)]
        assert got == wanted, (message, max_depth, max_string)
        refused = "(max_depth)" in repr(wanted) or "(max_string)" in repr(wanted)
        record(f"over a limit: {refused}")


def test_a_short_message_with_its_text_is_not_walked_and_a_long_one_is() -> None:
    session = Session(TOOLBOX, INFO, max_depth=5, max_string=1000)
    params = {"protocolVersion": "2025-06-18", "capabilities": {}}
    session.receive({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params})
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 1, "b": 2}},
    }
    with mock.patch("objmcp.protocol.session.over_limits", wraps=over_limits) as walk:
        (start,) = session.receive(call, source=json.dumps(call).encode())
        assert walk.call_count == 0  # vouched for by its text
        assert isinstance(start, StartCall) and start.arguments == {"a": 1, "b": 2}
        deep = {**call, "id": 2, "params": {"name": "echo", "arguments": {"value": [[[1]]]}}}
        (refused,) = session.receive(deep, source=json.dumps(deep).encode())
        assert walk.call_count == 1  # six brackets: walked, and refused
        assert isinstance(refused, Send) and isinstance(refused.message, dict)
        assert "limit of 5 (max_depth)" in refused.message["error"]["message"]
        session.receive(call, source=json.dumps(call).encode())
        assert walk.call_count == 1
        session.receive({**call, "id": 3})  # no text: walked (vouching lasts one message)
        assert walk.call_count == 2


# --- plain_text and value_result -----------------------------------------------------------------


def general_result(value: object) -> ToolResult:
    """The result of a plain value by the general path: ``to_jsonable``, then the standard
    encoder (``value_result`` before its fast path)."""
    try:
        jsonable = to_jsonable(value)
        text = jsonable if isinstance(jsonable, str) else STANDARD.encode(jsonable)
    except (NotJsonable, ValueError, RecursionError) as error:
        said = f"{type(error).__qualname__}: {error}"
        return ToolResult(f"The tool's result has no JSON form: {said}", None, True)
    return ToolResult(text, jsonable)


def fields(result: ToolResult) -> tuple[object, ...]:
    return (result.text, result.value, result.is_error, result.structured, result.content)


def assert_same_result(got: ToolResult, wanted: ToolResult) -> None:
    assert same(fields(got), fields(wanted)), (got, wanted)


DIGITS = sys.get_int_max_str_digits() or 4300
"""The most digits an int may have in a text (the interpreter's limit)."""
huge_ints = st.builds(
    lambda digits, sign, offset: sign * (10**digits + offset),
    st.integers(15, 5000),
    st.sampled_from([1, -1]),
    st.integers(-2, 2),
)
plain_values = st.one_of(
    st.none(),
    st.booleans(),
    integers,
    huge_ints,
    floats,
    texts,
    st.sampled_from([10 ** (DIGITS - 1), 10**DIGITS - 1, 10**DIGITS, -(10**DIGITS), 10**5000]),
)
other_values = st.one_of(
    st.builds(Number, integers),
    st.builds(Number, huge_ints),
    st.builds(Word, texts),
    st.builds(Real, floats),
    st.sampled_from([*Size, *Mood, *Ratio]),
    st.lists(plain_values, max_size=3),
)


@SETTINGS
@given(st.one_of(plain_values, other_values))
@example(10**18)
@example(10**18 - 1)
@example(-(10**18))
@example(-(10**18) + 1)
@example(10**5000)
@example(True)
@example(1)
@example(-0.0)
@example(1e16)
@example(1e-7)
@example(5e-324)
@example(float("inf"))
@example(float("nan"))
@example(Size.SMALL)
@example(Number(5))
@example(Word("w"))
def test_value_result_of_a_plain_value_is_what_the_general_path_gives(value: object) -> None:
    got = value_result(value)
    assert_same_result(got, general_result(value))
    text = plain_text(value)
    exact = type(value) in (str, int, bool, float, type(None))
    if text is not None:
        record("plain")
        assert exact, f"{type(value).__name__} taken as plain"
        assert same(text, got.text) and not got.is_error
    else:
        record("general")
        short = type(value) is int and abs(value) < 10**18
        finite = type(value) is float and math.isfinite(value)
        assert not (type(value) in (str, bool, type(None)) or short or finite), value


def test_plain_text_takes_exactly_the_plain_values() -> None:
    assert plain_text("é") == "é"
    assert plain_text(None) == "null"
    assert plain_text(True) == "true"
    assert plain_text(False) == "false"
    assert plain_text(-(10**18) + 1) == "-999999999999999999"
    assert plain_text(-0.0) == "-0.0"
    assert plain_text(1e16) == "1e+16"
    assert plain_text(5e-324) == "5e-324"
    for other in (10**18, float("nan"), float("inf"), Number(1), Word("w"), Size.SMALL, [1]):
        assert plain_text(other) is None, other
    beyond = value_result(10**5000)
    assert beyond.is_error and beyond.value is None
    assert beyond.text.startswith("The tool's result has no JSON form: ValueError: Exceeds")
    assert value_result(10 ** (DIGITS - 1)).text == "1" + "0" * (DIGITS - 1)
    assert value_result(Size.HUGE) == ToolResult("100000000000000000000", 10**20)


# --- Tool.bind ---------------------------------------------------------------------------------


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


@dataclass
class Point:
    x: int
    y: float = 0.0


def scalars_tool(a: int, b: float, c: str, d: bool) -> list[object]:
    """Four scalars."""
    return [a, b, c, d]


def optional_tool(a: int | None = None, *, b: float = 1.5, c: str = "x", d: bool = True) -> str:
    """Defaults, and keyword-only ones."""
    return f"{a} {b} {c} {d}"


def containers_tool(
    xs: list[int], weights: dict[str, float], point: Point | None = None
) -> dict[str, object]:
    """Containers and a dataclass."""
    return {"xs": xs, "weights": weights, "point": point}


def kinds_tool(color: Color, day: datetime.date, flag: bool = False, ratio: float = 0.0) -> str:
    """An enum and a date."""
    return f"{color} {day} {flag} {ratio}"


def keyword_tool(
    *, n: int, ratio: float = 0.5, name: str = "", when: datetime.date | None = None
) -> tuple[object, ...]:
    """Keyword-only ones only."""
    return (n, ratio, name, when)


def untyped_tool(a, b=2, *, c="c"):  # type: ignore[no-untyped-def]
    """No annotations at all."""
    return (a, b, c)


def empty_tool() -> int:
    """No parameters."""
    return 0


class Scale:
    """A method is a tool too (its ``self`` is bound)."""

    def scale(self, values: list[float], factor: float = 2.0, *, negated: bool = False) -> float:
        """Sum of values times factor."""
        total = sum(values) * factor
        return -total if negated else total


BIND_FUNCTIONS: list[Callable[..., object]] = [
    scalars_tool,
    optional_tool,
    containers_tool,
    kinds_tool,
    keyword_tool,
    untyped_tool,
    empty_tool,
    Scale().scale,
    Point,  # a class: its constructor's parameters
]


def positional_only_tool(a: int, /, b: float = 1.0) -> float:
    return a * b


def star_args_tool(*numbers: int, total: float = 0.0) -> float:
    return sum(numbers) + total


def star_kwargs_tool(a: int = 0, **named: float) -> float:
    return a + sum(named.values())


def progress_tool(n: int, progress: Progress) -> int:
    return n


def test_tools_with_parameters_not_by_keyword_bind_by_the_general_path() -> None:
    for function, arguments, wanted, result in (
        # a JSON integer for a float stays an int, as a Python caller would pass it
        (positional_only_tool, {"a": 2, "b": 3}, ([2], {"b": 3}), 6),
        (star_args_tool, {"numbers": [1, 2], "total": 1.5}, ([1, 2], {"total": 1.5}), 4.5),
        (star_kwargs_tool, {"a": 1, "x": 2}, ([], {"x": 2, "a": 1}), 3),
    ):
        tool = make_tool(function.__name__, function)
        assert tool._by_keyword is None, function
        positional, keywords = tool.bind(arguments)
        assert same(positional, wanted[0]) and same(keywords, wanted[1]), (positional, keywords)
        assert same(tool.function(*positional, **keywords), result)
    assert make_tool("progress_tool", progress_tool)._by_keyword is None


def tools_of(function: Callable[..., object]) -> tuple[Tool, Tool]:
    """The tool, and a copy of it that binds by the general path."""
    name = getattr(function, "__name__", "tool")
    tool = make_tool(name, function)
    reference = make_tool(name, function)
    object.__setattr__(reference, "_by_keyword", None)
    assert tool._by_keyword is not None, "the fast path is not taken: nothing is tested"
    return tool, reference


junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from([0, 1, 3, 3.0, -0.0, 2.5, 1e300, 10**400, 2**63, 1e-320]),
    st.sampled_from(["", "x", "red", "RED", "2024-02-29", "2023-02-29", "2024-01-01T00:00:00"]),
    st.lists(st.one_of(st.integers(-3, 3), st.sampled_from([1.0, 1.5, True, "1"])), max_size=3),
    st.sampled_from([{}, {"x": 1}, {"x": 1, "y": 2}, {"x": 1.5}, {"y": 1.0}, {"a": 1}]),
    st.dictionaries(st.sampled_from(["a", "x", "1"]), st.sampled_from([1, 1.5, -0.0, "z"])),
)


def argument_sets(tool: Tool) -> st.SearchStrategy[dict[str, Any]]:
    names = [*tool.input_schema["properties"], "other"]
    # (a copy: hypothesis-jsonschema resolves the $refs of the schema it is given in place)
    valid = typing.cast(
        "st.SearchStrategy[dict[str, Any]]", from_schema(copy.deepcopy(tool.input_schema))
    )

    @st.composite
    def changed(draw: st.DrawFn) -> dict[str, Any]:
        arguments = dict(draw(valid))
        arguments[draw(st.sampled_from(names))] = draw(junk)
        return arguments

    return st.one_of(valid, valid, changed(), st.dictionaries(st.sampled_from(names), junk))


def bound(tool: Tool, arguments: object) -> tuple[list[object], dict[str, object]] | str:
    """The tool's (positional, keywords) for ``arguments``, or its ArgumentError's message."""
    try:
        return tool.bind(arguments)
    except ArgumentError as error:
        return str(error)


def assert_bound_alike(tool: Tool, reference: Tool, arguments: object) -> None:
    got = bound(tool, arguments)
    wanted = bound(reference, arguments)
    if isinstance(wanted, str):
        assert got == wanted
        record("ArgumentError")
        return
    assert not isinstance(got, str), f"the fast path refused with {got!r}"
    assert same(list(got[0]), list(wanted[0])), (got, wanted)
    assert same(got[1], wanted[1]), (got, wanted)
    record("bound")
    positional, keywords = got
    result = tool.function(*positional, **keywords)
    assert same(result, reference.function(*wanted[0], **wanted[1]))


@pytest.mark.parametrize("function", BIND_FUNCTIONS, ids=lambda f: f.__name__)
@FROM_SCHEMA
@given(data=st.data())
def test_bind_by_keyword_gives_what_the_general_placing_gives(
    function: Callable[..., object], data: st.DataObject
) -> None:
    tool, reference = tools_of(function)
    arguments = data.draw(argument_sets(tool), label="arguments")
    assert_bound_alike(tool, reference, arguments)
    assert_bound_alike(tool, reference, json.dumps(arguments))  # as OpenAI's APIs send them


def test_bind_keeps_plain_values_and_converts_others_as_the_general_path() -> None:
    tool, reference = tools_of(scalars_tool)
    for arguments in (
        {"a": 1, "b": 3, "c": "x", "d": True},  # 3 for a float: stays 3
        {"a": 3.0, "b": 2.5, "c": "", "d": False},  # 3.0 for an int: 3
        {"a": 1, "b": 10**400, "c": "x", "d": True},  # no float holds it: the int
        {"a": 1, "b": 1.0, "c": "x", "d": 1},  # 1 is no boolean
        {"a": True, "b": 1.0, "c": "x", "d": True},  # nor True an integer
        {"a": 1, "b": 1.0, "c": "x"},  # d is missing
        {"a": 1, "b": 1.0, "c": "x", "d": True, "e": 0},  # e is unknown
    ):
        assert_bound_alike(tool, reference, arguments)
    positional, keywords = tool.bind({"a": 1, "b": 3, "c": "x", "d": True})
    assert positional == [] and type(keywords["b"]) is int and keywords["b"] == 3
    assert type(tool.bind({"a": 1, "b": 3.0, "c": "x", "d": True})[1]["b"]) is float
    assert type(tool.bind({"a": 3.0, "b": 1, "c": "", "d": True})[1]["a"]) is int
    with pytest.raises(ArgumentError):
        tool.bind({"a": 1, "b": 1.0, "c": "x", "d": 1})
    kinds, kinds_reference = tools_of(kinds_tool)
    arguments = {"color": "green", "day": "2024-02-29", "ratio": 2}
    assert_bound_alike(kinds, kinds_reference, arguments)
    _, keywords = kinds.bind(arguments)
    assert keywords == {"color": Color.GREEN, "day": datetime.date(2024, 2, 29), "ratio": 2}
    assert type(keywords["ratio"]) is int


# --- tool_result and run_sync_tool ----------------------------------------------------------

RETURNED: list[object] = [None]
"""What the tools below return."""


def gives_int() -> int:
    return typing.cast(int, RETURNED[0])


def gives_str() -> str:
    return typing.cast(str, RETURNED[0])


def gives_float() -> float:
    return typing.cast(float, RETURNED[0])


def gives_bool() -> bool:
    return typing.cast(bool, RETURNED[0])


def gives_none() -> None:
    return typing.cast(None, RETURNED[0])


def gives_dict() -> dict:  # type: ignore[type-arg]
    return typing.cast(dict, RETURNED[0])  # type: ignore[type-arg]


def gives_numbers() -> dict[str, float]:
    return typing.cast(dict[str, float], RETURNED[0])


def gives_list() -> list[int]:
    return typing.cast(list[int], RETURNED[0])


def gives_bare_list() -> list:  # type: ignore[type-arg]
    return typing.cast(list, RETURNED[0])  # type: ignore[type-arg]


def gives_anything():  # type: ignore[no-untyped-def]
    return RETURNED[0]


RESULT_FUNCTIONS: list[Callable[[], object]] = [
    gives_int,
    gives_str,
    gives_float,
    gives_bool,
    gives_none,
    gives_dict,
    gives_numbers,
    gives_list,
    gives_bare_list,
    gives_anything,
]
RESULT_TOOLS = [make_tool(f.__name__, f) for f in RESULT_FUNCTIONS]


def general_tool_result(tool: Tool, value: object) -> ToolResult:
    """``tool_result`` as it was: the general value result, then the output schema checked by
    jsonschema itself (no quick check)."""
    result = general_result(value)
    if result.is_error or tool.output_schema is None:
        return result
    checker = make_tool(tool.name, tool.function)
    object.__setattr__(checker, "_output_quick", None)
    try:
        structured = checker.structure(result.value)
    except ValueError as error:
        said = f"The tool's result does not fit its declared return type: {error}"
        return ToolResult(said, None, True)
    return ToolResult(result.text, result.value, False, structured, result.content)


returned_values = st.one_of(
    plain_values,
    other_values,
    st.dictionaries(texts, st.one_of(floats, integers, st.booleans()), max_size=3),
    st.lists(st.one_of(integers, floats, st.booleans(), st.none()), max_size=3),
    json_values,
)


FITTING: dict[str, st.SearchStrategy[Any]] = {
    "gives_int": st.one_of(integers, huge_ints),
    "gives_str": texts,
    "gives_float": st.one_of(floats, integers),
    "gives_bool": st.booleans(),
    "gives_none": st.none(),
    "gives_dict": st.dictionaries(texts, json_values, max_size=3),
    "gives_numbers": st.dictionaries(texts, st.one_of(floats, integers), max_size=3),
    "gives_list": st.lists(integers, max_size=3),
    "gives_bare_list": st.lists(json_values, max_size=3),
    "gives_anything": returned_values,
}
"""Values of each tool's return annotation (or nearly: NaN, huge numbers)."""


@st.composite
def returns(draw: st.DrawFn) -> tuple[Tool, object]:
    """A tool, and a value it returns: of its annotation, or of any other kind."""
    tool = draw(st.sampled_from(RESULT_TOOLS))
    fitting = draw(st.booleans())
    return tool, draw(FITTING[tool.name] if fitting else returned_values)


def result_tool(name: str) -> Tool:
    (tool,) = [tool for tool in RESULT_TOOLS if tool.name == name]
    return tool


@SETTINGS
@given(returns())
@example((result_tool("gives_int"), True))
@example((result_tool("gives_int"), 10**18))
@example((result_tool("gives_int"), 10**5000))
@example((result_tool("gives_int"), Size.SMALL))
@example((result_tool("gives_float"), 3))
@example((result_tool("gives_float"), -0.0))
@example((result_tool("gives_float"), float("nan")))
@example((result_tool("gives_float"), 10**400))
@example((result_tool("gives_bool"), 1))
@example((result_tool("gives_none"), ""))
@example((result_tool("gives_dict"), "not an object"))
@example((result_tool("gives_numbers"), {"a": 1, "b": True}))
@example((result_tool("gives_list"), [1, 2.5]))
@example((result_tool("gives_str"), Word("w")))
def test_tool_result_and_run_sync_tool_give_what_the_general_path_gives(
    tool_and_value: tuple[Tool, object],
) -> None:
    tool, value = tool_and_value
    wanted = general_tool_result(tool, value)
    record(f"{'error' if wanted.is_error else 'result'}, {tool.name}")
    assert_same_result(tool_result(tool, value), wanted)
    RETURNED[0] = value
    try:
        ran = run_sync_tool(tool, {}, None)
    finally:
        RETURNED[0] = None
    assert isinstance(ran, ToolResult)
    assert_same_result(ran, wanted)


def test_structured_content_of_plain_values() -> None:
    by_name = {tool.name: tool for tool in RESULT_TOOLS}
    assert tool_result(by_name["gives_int"], 3) == ToolResult("3", 3, False, {"result": 3})
    assert tool_result(by_name["gives_str"], "é") == ToolResult("é", "é", False, {"result": "é"})
    assert tool_result(by_name["gives_none"], None) == ToolResult("null", None)
    refused = tool_result(by_name["gives_int"], True)
    assert refused.is_error and "does not fit its declared return type" in refused.text
    assert tool_result(by_name["gives_anything"], 2.5) == ToolResult("2.5", 2.5)


# --- a wrapped output of one plain JSON type -------------------------------------------------


def _returns(kind: Any) -> Callable[[], Any]:
    def function() -> Any:
        return None

    function.__annotations__ = {"return": kind}
    return function


PLAIN_OUTPUT_VALUES: list[Any] = [
    0,
    7,
    -(2**70),
    True,
    False,
    1.5,
    2.0,
    -0.0,
    math.nan,
    math.inf,
    "",
    "x",
    None,
    [1],
    {"a": 1},
]


@pytest.mark.parametrize("kind", [int, float, str, bool, int | None, Literal["a", "b"]])
@pytest.mark.parametrize("value", PLAIN_OUTPUT_VALUES, ids=repr)
def test_structure_of_a_plain_output_is_what_the_schema_check_gives(kind: Any, value: Any) -> None:
    """A tool returning one plain JSON type structures a value of exactly that type without
    the schema check; every other value is checked as before: the same dict, or the
    same refusal."""
    tool = make_tool("plain", _returns(kind))
    checked = make_tool("plain", _returns(kind))
    object.__setattr__(checked, "_plain_output", ())
    if kind in (int, float, str, bool):
        assert tool._plain_output  # the shortcut is there to be compared
    try:
        expected: Any = checked.structure(value)
    except ValueError as error:
        expected = ("refused", str(error))
    try:
        got: Any = tool.structure(value)
    except ValueError as error:
        got = ("refused", str(error))
    assert repr(got) == repr(expected)
