"""The doctest bench (``bench/doctest_calls.py``, issue 37): a library's own doctests as calls,
harvested by a rule and checked against the library called directly. Here on a module written
by the test, whose docstrings hold one example of each case the rule keeps or skips."""

from __future__ import annotations

import fractions
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(ROOT / "bench"))

from doctest_calls import GUARD, _as_numbers, as_number, measure_target, numbers_match
from zoo_cases import Target

MODULE = '''
"""Functions with doctests, for the doctest bench's test.

>>> doctested.scale([4])
[8]
>>> len([1])
1
>>> count()
0
>>> advance()
1
"""

import decimal
import fractions
import numbers

COUNT = [0]


def count():
    """The count a later example changes."""
    return COUNT[0]


def advance():
    """Count one more (each call gives another answer)."""
    COUNT[0] += 1
    return COUNT[0]


class Rounded:
    """A real number whose text holds fewer digits than its float."""

    def __init__(self, value):
        self.value = value

    def __float__(self):
        return self.value

    def __str__(self):
        return f"{self.value:.4f}"

    __repr__ = __str__


numbers.Real.register(Rounded)


def two_thirds():
    """Two thirds, to 4 digits (a number with no JSON form, not rational).

    >>> two_thirds()
    0.6667
    """
    return Rounded(2 / 3)


def scale(values, factor=2):
    """Each value times ``factor``.

    >>> scale((1, 2), factor=3)
    [3, 6]
    >>> scale([1, 2], 3)
    [3, 6]
    >>> scale(list(range(3)))
    [0, 2, 4]
    >>> total(1)
    1
    >>> from doctested import scale as times
    >>> times([1.5])
    [3.0]
    >>> import doctested as dt; dt.kind(3)
    'int'
    >>> n = 2; third(n)
    Fraction(2, 3)
    >>> scale = lambda values: values
    >>> scale([1])
    [1]
    """
    return [value * factor for value in values]


def total(*numbers, start=0):
    """The sum of ``numbers`` from ``start``.

    >>> total(1, 2, 3, start=10)
    16
    >>> doctested.total(1, b=2)
    3
    >>> total(5)  # doctest: +SKIP
    5
    """
    return sum(numbers, start)


def kind(value):
    """The name of the value's type (the answer is stale: the call decides).

    >>> kind((1, 2))
    'a stale answer'
    >>> kind(b"ascii")
    'bytes'
    """
    return type(value).__name__


def third(n):
    """``n`` thirds, exactly (a number with no JSON form).

    >>> third(2)
    Fraction(2, 3)
    >>> [third(1)]
    [Fraction(1, 3)]
    """
    return fractions.Fraction(n, 3)


def thirds(n):
    """The first ``n`` thirds.

    >>> thirds(2)
    [Fraction(0, 1), Fraction(1, 3)]
    """
    return [fractions.Fraction(i, 3) for i in range(n)]


def exact(text):
    """A decimal number.

    >>> exact("2.50")
    Decimal('2.50')
    >>> exact("-Infinity")
    Decimal('-Infinity')
    """
    return decimal.Decimal(text)


def loud(n):
    """Prints it.

    >>> loud(1)
    1
    1
    """
    print(n)
    return n


def fail(n):
    """Raises.

    >>> fail(1)
    Traceback (most recent call last):
    ValueError: 1
    """
    raise ValueError(n)


def touch(path):
    """Writes a file.

    >>> touch("/tmp/doctest-bench-must-not-write")
    >>> touch("inside.txt")
    """
    with open(path, "w") as file:
        file.write("x")


class Box:
    """A box.

    >>> Box()
    <Box>
    """

    def __repr__(self):
        return "<Box>"
'''


@pytest.fixture
def doctested(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Target:
    module = tmp_path / "modules" / "doctested.py"
    module.parent.mkdir()
    module.write_text(textwrap.dedent(MODULE))
    monkeypatch.syspath_prepend(str(module.parent))
    monkeypatch.setenv("PYTHONPATH", str(module.parent))
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.chdir(scratch)
    GUARD.install(str(scratch))
    return Target("doctested", ())


def by_source(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {item["source"]: item for item in result["checked"]}


def test_the_examples_kept_call_any_served_tool_and_are_checked_against_the_library(
    doctested: Target,
) -> None:
    checked = by_source(measure_target(doctested))
    assert set(checked) == {
        "doctested.scale([4])",  # in the module's docstring
        "count()",
        "two_thirds()",
        "scale((1, 2), factor=3)",
        "total(1)",  # another served tool, in scale's docstring
        "times([1.5])",
        "import doctested as dt; dt.kind(3)",  # only imports before the call
        "total(1, 2, 3, start=10)",
        "kind((1, 2))",
        'kind(b"ascii")',
        "third(2)",
        "thirds(2)",
        'exact("2.50")',
        'exact("-Infinity")',
        'touch("inside.txt")',
        "Box()",
    }
    assert checked["scale((1, 2), factor=3)"]["arguments"] == {"values": [1, 2], "factor": 3}
    assert checked["total(1, 2, 3, start=10)"]["arguments"] == {"numbers": [1, 2, 3], "start": 10}
    assert checked['kind(b"ascii")']["arguments"] == {"value": "ascii"}
    assert (checked["total(1)"]["tool"], checked["total(1)"]["arguments"]) == (
        "total",
        {"numbers": [1]},
    )
    for source in (
        "doctested.scale([4])",
        "scale((1, 2), factor=3)",
        "total(1)",
        "times([1.5])",
        "import doctested as dt; dt.kind(3)",
        "total(1, 2, 3, start=10)",
    ):
        assert checked[source] | {"detail": ""} == checked[source] | {
            "check": "value",
            "passed": True,
        }
    # the library, called directly, says 'tuple' and 'bytes': objmcp sends a list and a str
    assert (checked["kind((1, 2))"]["check"], checked["kind((1, 2))"]["passed"]) == ("value", False)
    assert "tuple" in checked["kind((1, 2))"]["detail"]
    assert not checked['kind(b"ascii")']["passed"]
    # advance(), skipped, changed the count: objmcp's call of count() came before
    assert (checked["count()"]["check"], checked["count()"]["passed"]) == ("value", True)
    assert (checked["Box()"]["check"], checked["Box()"]["passed"]) == ("ran", True)


def test_real_numbers_with_no_json_form_are_checked_as_numbers(doctested: Target) -> None:
    checked = by_source(measure_target(doctested))
    for source in ("third(2)", "thirds(2)", 'exact("2.50")', "two_thirds()"):
        assert checked[source] | {"detail": ""} == checked[source] | {
            "check": "number",
            "passed": True,
        }
    # Decimal('-Infinity') is checked as a number too, not only "ran": objmcp answers it by its
    # name, "-Infinity", which the comparison takes as that number
    infinite = checked['exact("-Infinity")']
    assert (infinite["check"], infinite["passed"]) == ("number", True), infinite


def test_the_examples_skipped_are_counted_by_why(doctested: Target) -> None:
    skipped = measure_target(doctested)["skipped"]
    assert skipped == {
        "calls no served tool": 1,  # len([1]) in the module's docstring
        "a duplicate": 1,  # scale([1, 2], 3): the same tool, the same arguments
        "an argument that is no literal": 1,  # scale(list(range(3)))
        "setup: imports only": 1,  # from doctested import scale as times
        "not one expression": 2,  # n = 2; third(n), and the assignment of scale
        "uses a name the doctest defines": 1,  # scale, once it is the lambda
        "not a call": 1,  # [third(1)]
        "does not bind": 1,  # doctested.total(1, b=2)
        "marked +SKIP": 1,
        "prints": 1,
        "raises directly": 1,
        "answers differ directly": 1,  # advance()
        "unsafe: writing '/tmp/doctest-bench-must-not-write'": 1,
    }
    assert not Path("/tmp/doctest-bench-must-not-write").exists()


BOUND = 10**30


@given(
    st.fractions(min_value=-BOUND, max_value=BOUND)
    | st.decimals(min_value=-BOUND, max_value=BOUND, allow_nan=False, allow_infinity=False)
)
def test_a_real_number_matches_its_exact_text_and_its_json_number(number: Any) -> None:
    expected = _as_numbers([number])
    assert as_number(str(number)) == fractions.Fraction(str(number))
    assert numbers_match([str(number)], expected)
    assert numbers_match(json.loads(json.dumps([float(number)])), expected)
    assert not numbers_match([float(number) + 1 + abs(float(number))], expected)
    assert not numbers_match(["not a number"], expected)


def test_served_checks_through_a_real_objmcp_process(doctested: Target) -> None:
    in_process = by_source(measure_target(doctested))
    served = measure_target(doctested, served=True)
    assert served["skipped"]["writes (not served)"] == 1  # touch("inside.txt")
    # the server counts on its own: its count() is not the count here
    assert {
        item["source"]: item["passed"] for item in served["checked"] if item["source"] != "count()"
    } == {
        source: item["passed"]
        for source, item in in_process.items()
        if "touch" not in source and source != "count()"
    }
    assert not (ROOT / "inside.txt").exists()
