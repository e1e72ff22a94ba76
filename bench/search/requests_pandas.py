"""The search benchmark's requests for ``pandas``: written from its documentation (the
docstrings of the sampled functions and classes, and of ``pivot_table`` and ``date_range``;
the pandas API reference and user guide pages on IO, reshaping, time series and options),
before any search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "pandas"

REQUESTS: tuple[Request, ...] = (
    Request("guess time series frequency", "terse", ("infer_freq",)),
    Request(
        "I need to load a .sas7bdat dataset exported by our statistician into a data frame.",
        "sentence",
        ("read_sas",),
    ),
    Request(
        "ExtensionDtype describing half-open range values, their bound subtype and closed side",
        "jargon",
        ("IntervalDtype",),
    ),
    Request(
        "spread my long list of rows into a grid with dates down the side and one column per city",
        "layman",
        ("pivot", "pivot_table"),
    ),
    Request(
        "list evry quater between 2020 and 2023 as time spans, not timestamps",
        "typos",
        ("period_range",),
    ),
    Request("index of elapsed durations", "terse", ("TimedeltaIndex",)),
    Request(
        "I want to parse a column of date strings like '10/11/12' into proper timestamps.",
        "sentence",
        ("to_datetime",),
    ),
    Request(
        "query the current value of a config setting such as display.max_rows",
        "jargon",
        ("get_option",),
    ),
    Request(
        "treat a whole month like March 2024 as one thing rather than a single moment",
        "layman",
        ("Period",),
    ),
    Request(
        "load a text file whose colums are lined up at fixed character positons",
        "typos",
        ("read_fwf",),
    ),
    Request("list business days between dates", "terse", ("bdate_range", "date_range")),
    Request(
        "I need a one-dimensional array of values where each entry has a label I can "
        "look it up by.",
        "sentence",
        ("Series",),
    ),
    Request("ingest an xlsx workbook sheet into a DataFrame", "jargon", ("read_excel",)),
    Request(
        "pull a table from our company's shared data lake, as it looked at an earlier snapshot",
        "layman",
        ("read_iceberg",),
    ),
    Request(
        "change how many rows pandas shows when printng a datafram",
        "typos",
        ("set_option",),
    ),
)
