"""The search benchmark's requests for ``pyarrow.compute``: written from its documentation (the
docstrings of the 15 sampled functions and of and, and_kleene, remainder, modulo_checked,
ascii_trim, ascii_rtrim_whitespace, utf8_is_alnum, fill_null, if_else, scatter,
quarters_between, month_day_nano_interval_between; the Arrow compute functions reference page
known), before any search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "pyarrow.compute"

REQUESTS: tuple[Request, ...] = (
    Request("Q1-Q4 from timestamp column", "terse", ("quarter",)),
    Request(
        "I need to check which strings contain only unaccented A-Z letters and 0-9 digits.",
        "sentence",
        ("ascii_is_alnum",),
    ),
    Request(
        "cap outliers at lower and upper percentile limits",
        "jargon",
        ("winsorize",),
    ),
    Request(
        "I reordered my list using these positions; how do I get the order that undoes it",
        "layman",
        ("inverse_permutation",),
    ),
    Request(
        "chekc whether each date falls in a year that has Febuary 29",
        "typos",
        ("is_leap_year",),
    ),
    Request("strip chosen characters both ends", "terse", ("utf8_trim", "ascii_trim")),
    Request(
        "I want to overwrite the array elements where a boolean flag is true with new values "
        "taken in order.",
        "sentence",
        ("replace_with_mask",),
    ),
    Request(
        "rstrip Unicode whitespace from a string column",
        "jargon",
        ("utf8_rtrim_whitespace",),
    ),
    Request(
        "for each row, take the first box that isn't empty across several columns",
        "layman",
        ("coalesce",),
    ),
    Request(
        "elementwise remaindr with the sign of the divsor, like Python's %",
        "typos",
        ("modulo", "modulo_checked"),
    ),
    Request("hyperbolic cosine elementwise", "terse", ("cosh",)),
    Request(
        "I want to convert every string to Unicode NFC form so accented characters compare equal.",
        "sentence",
        ("utf8_normalize",),
    ),
    Request(
        "count calendar-month boundaries crossed between start and end timestamps",
        "jargon",
        ("month_interval_between",),
    ),
    Request(
        "how many thousandths of a second passed between two clock readings in each row",
        "layman",
        ("milliseconds_between",),
    ),
    Request(
        "elementwise conjuction of two boolean colums, null when either side is null",
        "typos",
        ("and_", "and"),
    ),
)
