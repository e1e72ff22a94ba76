"""The calls of ``tomli`` (rank 101, tuning).

Written from tomli's documentation (its README, "Usage": ``tomli.loads(toml_str)``; ``load``
takes a binary file object, which a model cannot send, so every call is ``loads``), each answer
computed by calling tomli itself, in JSON's terms (dates and times as their ISO text). tomli's
API takes only a string (and ``parse_float``, a callable), so it has no call with a non-string
parameter.

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``load`` (a binary
file) is the one callable left and ``TOMLDecodeError`` an exception, so the rule takes three
more ``loads`` calls, from the TOML specification's examples (integers in other bases, nested
arrays, multi-line strings and local date-times).
"""

from __future__ import annotations

import datetime
import importlib
import json
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

CONFIG = '[server]\nhost = "localhost"\nports = [8000, 8001]\nenabled = true\n'
DATES = "released = 1979-05-27T07:32:00Z\nday = 2024-01-05\nat = 10:30:00\n"
TABLES = '[[fruit]]\nname = "apple"\n\n[[fruit]]\nname = "banana"\n'
INLINE = 'point = { x = 1.5, y = -2 }\n"quoted key" = 0x1F\n'
INTEGERS = "int1 = +99\nint2 = 1_000\nhex = 0xDEADBEEF\noct = 0o755\nbin = 0b1101\n"
ARRAYS = 'nested = [[1, 2], ["a", "b"]]\nmixed = [0.1, 1e3, -0.0]\n'
STRINGS = 'text = """\nRoses are red\nViolets are blue"""\nwhen = 1979-05-27T07:32:00\n'


def _loads(text: str) -> Any:
    parsed = importlib.import_module("tomli").loads(text)

    def iso(value: Any) -> Any:
        if isinstance(value, datetime.date | datetime.time):
            return value.isoformat()
        raise TypeError(type(value).__name__)

    return json.loads(json.dumps(parsed, default=iso))


TARGETS: tuple[Target, ...] = (
    Target(
        "tomli",
        (
            Call("loads", {"s": CONFIG}, lambda: _loads(CONFIG)),
            Call("loads", {"s": DATES}, lambda: _loads(DATES)),
            Call("loads", {"s": TABLES}, lambda: _loads(TABLES)),
            Call("loads", {"s": INLINE}, lambda: _loads(INLINE)),
            Call("loads", {"s": INTEGERS}, lambda: _loads(INTEGERS)),
            Call("loads", {"s": ARRAYS}, lambda: _loads(ARRAYS)),
            Call("loads", {"s": STRINGS}, lambda: _loads(STRINGS)),
        ),
    ),
)
