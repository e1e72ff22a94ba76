"""The search benchmark's requests for ``operator``: written from its documentation (the
docstrings of the 15 sampled functions, read with ``inspect.getdoc``, and the Python library
reference's ``operator`` page with its table of operators), before any search was run on them
(issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "operator"

REQUESTS: tuple[Request, ...] = (
    Request("in-place division /= function", "terse", ("itruediv",)),
    Request(
        "I need a function that tells me whether one value is at most another one.",
        "sentence",
        ("le",),
    ),
    Request("augmented assignment *= as a callable", "jargon", ("imul",)),
    Request(
        "a function that turns negative numbers positive and leaves the rest alone",
        "layman",
        ("abs",),
    ),
    Request("the & operatr as a function for combining bit flags", "typos", ("and_",)),
    Request("numeric plus operator function", "terse", ("add",)),
    Request(
        "I want a function that stores a value under a given key or index in a container.",
        "sentence",
        ("setitem",),
    ),
    Request(
        "the / operator's float quotient as a callable, as opposed to floor division",
        "jargon",
        ("truediv",),
    ),
    Request(
        "make a reusable helper that tells each thing in a list to do a named action, like lower",
        "layman",
        ("methodcaller",),
    ),
    Request("raise a nubmer to an exponnet using a function I can pass to map", "typos", ("pow",)),
    Request("number of occurrences in sequence", "terse", ("countOf",)),
    Request(
        "I want a function that does a |= b, merging one set into another in place.",
        "sentence",
        ("ior",),
    ),
    Request("exclusive disjunction of two operands as a function", "jargon", ("xor",)),
    Request(
        "slide a number's binary digits to the left and store the result back in the same variable",
        "layman",
        ("ilshift",),
    ),
    Request("check two variabels are not the exact same objcet in memory", "typos", ("is_not",)),
)
