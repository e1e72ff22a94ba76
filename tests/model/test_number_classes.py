"""Classes the :mod:`numbers` ABCs know are numbers (issue 37: sympy's ``convolution(...,
cycle=3)``, whose ``cycle`` its docstring types ``Integer``, was left out as a class nothing
builds): an ``Integral`` one takes a JSON integer, a ``Rational``, ``Real`` or ``Complex``
one a JSON number, made into the class by calling it with the number, or passed as the
number where the class refuses it. Subclasses and registered classes alike; decided by
``issubclass``, never by a name."""

from __future__ import annotations

import enum
import fractions
import json
import numbers
import subprocess
from typing import Any

import jsonschema
import pytest
from conftest import ROOT, RawServer
from hypothesis import given
from hypothesis import strategies as st

from objmcp.model.describe.hints import number_kind
from objmcp.model.describe.schema import SchemaBuilder
from objmcp.model.values.convert import from_json
from objmcp.model.values.mismatch import ConversionError

COUNTS = ROOT / "tests" / "servers" / "counts.py"

# --- through a server process -----------------------------------------------------------------


def test_a_number_class_parameter_takes_a_json_number() -> None:
    server = RawServer("-m", "objmcp", "run", f"{COUNTS}:Counts", stderr=subprocess.DEVNULL)
    try:
        server.initialize("2025-11-25")
        schemas = {name: t["inputSchema"]["properties"] for name, t in server.tools().items()}
        assert schemas["repeat"]["times"] == {"type": "integer"}
        assert schemas["scaled"]["amount"]["type"] == "number"
        assert schemas["cycled"]["cycle"]["type"] == "integer", "optional: no longer left out"
        assert schemas["cycled"]["cycle"]["default"] == 0
        assert schemas["started"]["start"] == {"type": "integer"}
        calls = [
            ("repeat", {"word": "ab", "times": 3}, "ababab"),
            ("scaled", {"amount": 2, "factor": 1.5}, {"value": 3.0, "kinds": ["Measure"] * 2}),
            ("scaled", {"amount": 2.5}, {"value": 2.5, "kinds": ["Measure", "NoneType"]}),
            ("cycled", {"items": [1, 2, 3, 4, 5], "cycle": 3}, [5, 7, 3]),
            ("started", {"start": 4}, "int"),  # Tally() takes no number: the number itself
        ]
        for index, (tool, arguments, expected) in enumerate(calls):
            answer = server.call_tool(index, tool, **arguments)
            assert not answer.get("isError"), (tool, answer)
            text = answer["content"][0]["text"]
            assert (text if isinstance(expected, str) else json.loads(text)) == expected, tool
        answer = server.call_tool(len(calls), "repeat", word="ab", times=2.5)
        assert answer["isError"] and "expected integer" in answer["content"][0]["text"]
    finally:
        server.close()


# --- the rule, for any such class ---------------------------------------------------------------


class Kept:
    """A number class that keeps what it is made of."""

    def __init__(self, value: Any) -> None:
        self.value = value


class Refusing:
    """A number class made of nothing."""

    def __init__(self) -> None:
        self.value = 0


ABCS: list[Any] = [numbers.Integral, numbers.Rational, numbers.Real, numbers.Complex]


def registered(abc: Any, base: type) -> type:
    """A new class of ``base`` registered with ``abc``."""
    cls = type(f"{base.__name__}{abc.__name__}", (base,), {})
    abc.register(cls)
    return cls


@given(
    st.sampled_from(ABCS),
    st.sampled_from([Kept, Refusing]),
    st.one_of(st.integers(-(10**12), 10**12), st.floats(allow_nan=False, allow_infinity=False)),
)
def test_a_json_number_becomes_the_class_or_stays_the_number(
    abc: Any, base: type, number: float
) -> None:
    cls = registered(abc, base)
    whole = abc is numbers.Integral
    assert number_kind(cls) is (int if whole else float)
    assert number_kind(abc) is (int if whole else float), "the ABC itself takes the number"
    schema = SchemaBuilder().schema(cls)
    assert schema == {"type": "integer" if whole else "number"}
    fits = not whole or isinstance(number, int) or number.is_integer()
    assert jsonschema.Draft202012Validator(schema).is_valid(number) == fits
    if not fits:
        with pytest.raises(ConversionError):
            from_json(number, cls)
        return
    made = from_json(number, cls)
    if base is Kept:
        assert isinstance(made, cls) and made.value == number  # type: ignore[attr-defined]
    else:
        assert made == number and not isinstance(made, cls)


class Level(enum.IntEnum):
    LOW = 1


@pytest.mark.parametrize(
    "hint", [bool, int, float, str, object, fractions.Fraction, numbers.Number, Level]
)
def test_the_classes_json_carries_another_way_keep_their_schema(hint: type) -> None:
    assert number_kind(hint) is None


def test_a_complex_class_takes_a_real_number_json_can_say() -> None:
    assert SchemaBuilder().schema(complex) == {"type": "number"}
    assert from_json(2.5, complex) == complex(2.5) and isinstance(from_json(2, complex), complex)
