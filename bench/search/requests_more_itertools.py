"""The search benchmark's requests for ``more_itertools``: written from its documentation (the
docstrings of the 15 sampled functions and of their neighbours ``rlocate``, ``unzip``,
``collapse``, ``repeat_each``, ``random_combination`` and ``chunked``, read with
``inspect.getdoc``, and the project's API reference on Read the Docs), before any search was
run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "more_itertools"

REQUESTS: tuple[Request, ...] = (
    Request("repeat whole sequence n times", "terse", ("ncycles",)),
    Request(
        "I want to slide a small weighting kernel along a stream of numbers to smooth it.",
        "sentence",
        ("convolve",),
    ),
    Request(
        "iterate a dataset for n epochs, yielding the epoch index with each element",
        "jargon",
        ("count_cycle",),
    ),
    Request(
        "given several shopping lists, which items show up on only one list, for each list",
        "layman",
        ("unique_to_each",),
    ),
    Request("check if evry item in a list is the same valeu", "typos", ("all_equal",)),
    Request("indices where predicate true", "terse", ("locate", "rlocate")),
    Request(
        "I want to pick 5 random items from a huge stream without holding it all in memory.",
        "sentence",
        ("sample",),
    ),
    Request(
        "compute A^T for a matrix stored as nested row tuples", "jargon", ("transpose", "unzip")
    ),
    Request(
        "jump straight to the 500th way of picking 3 scoops from 5 flavours, repeats allowed",
        "layman",
        ("nth_combination_with_replacement",),
    ),
    Request(
        "randomly choose r items from a pool, repeats alowed, order dosen't matter",
        "typos",
        ("random_combination_with_replacement",),
    ),
    Request("inverse of running totals", "terse", ("difference",)),
    Request(
        "I want to differentiate a polynomial given as a list of its coefficients.",
        "sentence",
        ("polynomial_derivative",),
    ),
    Request(
        "un-nest a list of lists by a single level, like chain.from_iterable",
        "jargon",
        ("flatten", "collapse"),
    ),
    Request(
        "rearrange my grid of numbers into rows of a different length, keeping their order",
        "layman",
        ("reshape",),
    ),
    Request(
        "find the repeats that come rigth after an identical value in a sequnce",
        "typos",
        ("duplicates_justseen",),
    ),
)
