"""The search benchmark's requests for ``math``: written from its documentation (the docstrings
of the 15 sampled functions, read with ``inspect.getdoc``, and the Python library reference's
``math`` page), before any search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "math"

REQUESTS: tuple[Request, ...] = (
    Request("float magnitude without sign", "terse", ("fabs",)),
    Request(
        "I want to drop the digits after the decimal point, so -3.7 becomes -3.",
        "sentence",
        ("trunc",),
    ),
    Request("check a float is not NaN and not ±inf under IEEE 754", "jargon", ("isfinite",)),
    Request(
        "precisely work out the smooth nonstop growth rate equal to a very small percentage gain",
        "layman",
        ("log1p",),
    ),
    Request("convert an anlge from radains so a full turn is 360", "typos", ("degrees",)),
    Request("IEEE modulo nearest multiple", "terse", ("remainder",)),
    Request(
        "I need the hyperbolic cosine of a value to model the shape of a hanging cable.",
        "sentence",
        ("cosh",),
    ),
    Request(
        "decompose a float into signed integral and fractional components", "jargon", ("modf",)
    ),
    Request(
        "how big is the smallest step from this number to the next one the computer can hold",
        "layman",
        ("ulp",),
    ),
    Request(
        "floating pont modulo like in C, where the sign folows the dividend", "typos", ("fmod",)
    ),
    Request("split float mantissa exponent", "terse", ("frexp",)),
    Request(
        "I need to round a number up to the next whole number, so 2.1 becomes 3.",
        "sentence",
        ("ceil",),
    ),
    Request(
        "accurate e**x - 1 for small arguments, avoiding catastrophic cancellation",
        "jargon",
        ("expm1",),
    ),
    Request(
        "are these two numbers basically the same, ignoring tiny leftovers from arithmetic",
        "layman",
        ("isclose",),
    ),
    Request(
        "take the sign from one numbr and put it on anohter, keeping its size",
        "typos",
        ("copysign",),
    ),
)
