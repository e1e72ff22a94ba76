"""The search benchmark's requests for ``toolz``: written from its documentation (the
docstrings of the sampled functions, and of ``compose``, ``compose_left``, ``thread_first``
and ``thread_last``; the toolz API reference page), before any search was run on them
(issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "toolz"

REQUESTS: tuple[Request, ...] = (
    Request("running total of list", "terse", ("accumulate",)),
    Request(
        "I want to keep only the dictionary entries whose keys pass a test.",
        "sentence",
        ("keyfilter",),
    ),
    Request(
        "chunk an iterable into fixed-size batches where the last batch may be short",
        "jargon",
        ("partition_all",),
    ),
    Request("pick the three biggest numbers out of a long list", "layman", ("topk",)),
    Request("get the frist item of a sequnce", "typos", ("first",)),
    Request(
        "pass value through several functions",
        "terse",
        ("pipe", "thread_first", "thread_last"),
    ),
    Request(
        "I need to combine several dicts, adding up the values of keys that appear in more "
        "than one.",
        "sentence",
        ("merge_with",),
    ),
    Request(
        "tap a side-effecting function into a pipeline, returning the input unchanged",
        "jargon",
        ("do",),
    ),
    Request(
        "match up entries from two lists that share the same name, like people and their cities",
        "layman",
        ("join",),
    ),
    Request("skip the firts n elements of an iterater", "typos", ("drop",)),
    Request("remove key from dict copy", "terse", ("dissoc",)),
    Request(
        "I want to compare two sequences item by item and get the pairs that do not match.",
        "sentence",
        ("diff",),
    ),
    Request(
        "functor-style transform of a mapping's values, keys unchanged",
        "jargon",
        ("valmap",),
    ),
    Request(
        "bundle several little steps into one reusable step that runs them one after another",
        "layman",
        ("comp", "compose", "compose_left"),
    ),
    Request(
        "count how many items fall in each categry given by a key functon",
        "typos",
        ("countby",),
    ),
)
