"""The search benchmark's requests for ``builtins``: written from its documentation (the
docstrings of the 15 sampled built-ins and of ``ascii``, read with ``inspect.getdoc``, and the
Python library reference's "Built-in Functions" page), before any search was run on them
(issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "builtins"

REQUESTS: tuple[Request, ...] = (
    Request("module-level variables dictionary", "terse", ("globals",)),
    Request(
        "I want to build a lookup table of keys to values from a list of pairs.",
        "sentence",
        ("dict",),
    ),
    Request("Unicode code point of a single character", "jargon", ("ord",)),
    Request(
        "show exactly what's inside this text, with quotes and hidden line breaks, for debugging",
        "layman",
        ("repr", "ascii"),
    ),
    Request(
        "show a number with comas between thousands and two decimal plces", "typos", ("format",)
    ),
    Request("remove named attribute from object", "terse", ("delattr",)),
    Request(
        "I need a number raised to an exponent, modulo m, without huge intermediate values.",
        "sentence",
        ("pow",),
    ),
    Request(
        "unique integer tag of an object for its lifetime, its address in CPython",
        "jargon",
        ("id",),
    ),
    Request(
        "turn text like '3.14' that someone typed into a number with decimals I can do math with",
        "layman",
        ("float",),
    ),
    Request("apply a funtion to every item in a list and get the resluts back", "typos", ("map",)),
    Request("integer to base-8 string", "terse", ("oct",)),
    Request(
        "I want to turn the text '42' into a whole number I can add to other numbers.",
        "sentence",
        ("int",),
    ),
    Request(
        "runtime type check against a class, honouring subclasses and ABCs",
        "jargon",
        ("isinstance",),
    ),
    Request("show a number in the 0-9 and A-F style used for web colour codes", "layman", ("hex",)),
    Request("await the folowing value from an asyncronous generator", "typos", ("anext",)),
)
