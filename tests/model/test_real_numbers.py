"""Real numbers that are not ``float`` (issue 37): a ``Decimal``, a ``Fraction``, numpy's
scalars are JSON numbers where that loses nothing, else their full text; whatever is sent
reads back as the very value. Property tests over the JSON text a result is."""

from __future__ import annotations

import json
import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import objmcp
from objmcp.model.values.content import value_result

QUICK = settings(max_examples=150, deadline=None)

DECIMALS = st.decimals(allow_nan=False, allow_infinity=False) | st.builds(
    Decimal, st.floats(allow_nan=False, allow_infinity=False)
)
FRACTIONS = st.fractions() | st.builds(Fraction, st.floats(allow_nan=False, allow_infinity=False))


def sent_text(value: object) -> str:
    """The JSON text of ``value`` inside a result (a list: a number stays a number)."""
    result = value_result([value])
    assert not result.is_error, result.text
    return result.text


def means(text: str, number: Fraction | Decimal) -> bool:
    """Whether the one item of a result's JSON text is exactly ``number``: a string as the
    number's own kind reads it; a JSON number by its digits (an integer's, or a fraction's
    such as ``0.1``), or by the double they name where that double is the number."""
    item = json.loads(text, parse_float=str, parse_int=str)[0]
    if text.startswith('["'):
        return type(number)(item) == number
    return Fraction(item) == number or Fraction(float(item)) == number


@QUICK
@given(DECIMALS)
@example(Decimal("2.5"))
@example(Decimal("2.50"))
@example(Decimal(2**70))
@example(Decimal("0.1"))
@example(Decimal("1E-999999999"))
@example(Decimal("3.14159265358979323846264338327950288"))
def test_a_decimal_reads_back_as_itself_and_is_a_number_when_a_double_holds_it(
    number: Decimal,
) -> None:
    text = sent_text(number)
    assert means(text, number), text
    if float(number) == number:  # a double holds it exactly: a number, never text
        assert not text.startswith('["'), text


@QUICK
@given(FRACTIONS)
@example(Fraction(3, 4))
@example(Fraction(1, 3))
@example(Fraction(125303261444452016))
@example(Fraction(1, 2**60))
def test_a_fraction_reads_back_as_itself_and_is_a_number_when_a_double_holds_it(
    number: Fraction,
) -> None:
    text = sent_text(number)
    assert means(text, number), text
    if float(number) == number:
        assert not text.startswith('["'), text
    if text.startswith('["'):  # its exact text, not a rounded one
        assert text == f'["{number.numerator}/{number.denominator}"]'


@QUICK
@given(
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from([np.float16, np.float32, np.float64, np.longdouble]),
)
def test_a_numpy_float_is_the_number_it_holds(number: float, kind: type) -> None:
    with np.errstate(over="ignore"):
        scalar = kind(number)
    assume(np.isfinite(scalar))  # a float16 overflows: then no JSON number holds it
    item = json.loads(sent_text(scalar))[0]
    assert (item == scalar) if isinstance(item, float) else (kind(item) == scalar)


def test_numpy_long_doubles_and_integers_have_a_json_form() -> None:
    third = np.longdouble(1) / 3
    sent = json.loads(sent_text(third))[0]
    assert np.longdouble(sent) == third  # its own text, where a double is not it
    assert json.loads(sent_text(np.int64(2**62)))[0] == 2**62


def test_a_tool_returning_decimals_gives_numbers_in_its_structured_content() -> None:
    class Prices:
        def prices(self) -> list[Decimal]:
            return [Decimal("2.50"), Decimal("0.1"), Decimal("1.000000000000000000001")]

    result = objmcp.Toolbox(Prices()).call("prices", {})
    assert result.structured == {"result": [2.5, 0.1, "1.000000000000000000001"]}


class SaysNumber:
    """A library's scalar object: no numeric kind, a number by Python's protocols only."""

    def __init__(self, number: int | float, text: str) -> None:
        self.number, self.text = number, text

    def __str__(self) -> str:
        return self.text


class SaysWhole(SaysNumber):
    def __index__(self) -> int:
        return int(self.number)


class SaysReal(SaysNumber):
    def __float__(self) -> float:
        return float(self.number)


WHOLES = st.integers(-(2**80), 2**80)
REALS = st.floats(allow_nan=False, allow_infinity=False)


@QUICK
@given(WHOLES, REALS, st.text(min_size=1, max_size=8))
def test_a_scalar_that_says_it_is_a_number_and_prints_as_it_is_that_number(
    whole: int, real: float, more: str
) -> None:
    sent = json.loads(sent_text({"whole": SaysWhole(whole, str(whole))}))
    assert sent == [{"whole": whole}] and type(sent[0]["whole"]) is int
    sent = json.loads(sent_text(SaysReal(real, repr(real))))
    assert sent == [real] and type(sent[0]) is float
    # a text that says more than the number (or no finite number) is sent as it is
    assume(more.strip() and not more.strip().lstrip("+-").replace(".", "").isdecimal())
    assert json.loads(sent_text(SaysWhole(whole, f"{whole} {more}"))) == [f"{whole} {more}"]
    assert json.loads(sent_text(SaysReal(real, f"{real!r} {more}"))) == [f"{real!r} {more}"]
    assert json.loads(sent_text(SaysReal(math.nan, "nan"))) == ["nan"]


@QUICK
@given(REALS)
@example(0.1)
def test_a_scalar_whose_text_writes_more_digits_than_its_double_loses_none_of_them(
    real: float,
) -> None:
    """A text a double rounds (jiter's ``LosslessFloat("1.2345678901234567890")``) is sent as
    it is; a number only where the double writes the same number, digit for digit."""
    exact = str(Decimal(real))  # every digit of the double: more than its repr, mostly
    for text in (exact, repr(real)):
        sent = json.loads(sent_text(SaysReal(real, text)))[0]
        if isinstance(sent, str):
            assert sent == text  # as written
            assert Decimal(text) != Decimal(repr(real))  # only where the double loses digits
        else:
            assert Decimal(repr(sent)) == Decimal(text)  # the same number, digit for digit


@QUICK
@given(st.dictionaries(st.text(max_size=4), st.integers() | st.text(max_size=4), max_size=6))
def test_a_mappings_keys_values_and_items_are_arrays_in_its_order(named: dict[str, object]) -> None:
    assert json.loads(sent_text(named.keys())) == [list(named)]
    assert json.loads(sent_text(named.values())) == [list(named.values())]
    assert json.loads(sent_text(named.items())) == [[[k, v] for k, v in named.items()]]
