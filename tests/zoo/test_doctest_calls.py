"""The doctest bench (``bench/doctest_calls.py``, issue 37): a library's own doctests as calls,
harvested by a rule and checked against the library called directly. Here on a module written
by the test, whose docstrings hold one example of each case the rule keeps or skips."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))

from doctest_calls import GUARD, measure_target
from zoo_cases import Target

MODULE = '''
"""Functions with doctests, for the doctest bench's test."""


def scale(values, factor=2):
    """Each value times ``factor``.

    >>> scale((1, 2), factor=3)
    [3, 6]
    >>> scale(list(range(3)))
    [0, 2, 4]
    >>> total(1)
    1
    >>> from doctested import scale as times
    >>> times([1.5])
    [3.0]
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


def test_the_examples_kept_are_bound_by_name_and_checked_against_the_library(
    doctested: Target,
) -> None:
    checked = by_source(measure_target(doctested))
    assert set(checked) == {
        "scale((1, 2), factor=3)",
        "times([1.5])",
        "total(1, 2, 3, start=10)",
        "kind((1, 2))",
        'kind(b"ascii")',
        'touch("inside.txt")',
        "Box()",
    }
    assert checked["scale((1, 2), factor=3)"]["arguments"] == {"values": [1, 2], "factor": 3}
    assert checked["total(1, 2, 3, start=10)"]["arguments"] == {"numbers": [1, 2, 3], "start": 10}
    assert checked['kind(b"ascii")']["arguments"] == {"value": "ascii"}
    for source in ("scale((1, 2), factor=3)", "times([1.5])", "total(1, 2, 3, start=10)"):
        assert checked[source] | {"detail": ""} == checked[source] | {
            "check": "value",
            "passed": True,
        }
    # the library, called directly, says 'tuple' and 'bytes': objmcp sends a list and a str
    assert (checked["kind((1, 2))"]["check"], checked["kind((1, 2))"]["passed"]) == ("value", False)
    assert "tuple" in checked["kind((1, 2))"]["detail"]
    assert not checked['kind(b"ascii")']["passed"]
    assert (checked["Box()"]["check"], checked["Box()"]["passed"]) == ("ran", True)


def test_the_examples_skipped_are_counted_by_why(doctested: Target) -> None:
    skipped = measure_target(doctested)["skipped"]
    assert skipped == {
        "an argument that is no literal": 1,  # scale(list(range(3)))
        "calls another callable": 1,  # total(1) in scale's docstring
        "not one expression": 2,  # the import, the assignment
        "uses a name the doctest defines": 1,  # scale, once it is the lambda
        "does not bind": 1,  # doctested.total(1, b=2)
        "marked +SKIP": 1,
        "prints": 1,
        "raises directly": 1,
        "unsafe: writing '/tmp/doctest-bench-must-not-write'": 1,
    }
    assert not Path("/tmp/doctest-bench-must-not-write").exists()


def test_served_checks_through_a_real_objmcp_process(doctested: Target) -> None:
    in_process = by_source(measure_target(doctested))
    served = measure_target(doctested, served=True)
    assert served["skipped"]["writes (not served)"] == 1  # touch("inside.txt")
    assert {item["source"]: item["passed"] for item in served["checked"]} == {
        source: item["passed"] for source, item in in_process.items() if "touch" not in source
    }
    assert not (ROOT / "inside.txt").exists()
