"""The calls of ``durationpy`` (rank 264, tuning, second walk).

Written from durationpy's documentation (its README on PyPI, the project's only docs: "Parse"
lists the units and shows ``durationpy.from_str("4h3m2s1ms")`` and ``durationpy.to_str(td)``;
the package's own stub types ``to_str``'s ``delta`` as ``datetime.timedelta`` and
``extended`` as ``bool``), each answer computed by calling durationpy itself, in JSON's terms.
``from_str`` answers a ``timedelta``, which has no JSON form: its text (``str``), as
``calls_isodate.py`` gives isodate's. A ``timedelta`` sent to ``to_str`` is ISO 8601 duration
text (``PT4H3M2.001S``), as a model sends a duration.
"""

from __future__ import annotations

import datetime
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _durationpy() -> Any:
    return importlib.import_module("durationpy")


def _parsed(text: str) -> str:
    return str(_durationpy().from_str(text))


def _formatted(delta: datetime.timedelta, extended: bool = False) -> str:
    text: str = _durationpy().to_str(delta, extended=extended)
    return text


TARGETS: tuple[Target, ...] = (
    Target(
        "durationpy",
        (
            Call("from_str", {"duration": "4h3m2s1ms"}, lambda: _parsed("4h3m2s1ms")),
            Call("from_str", {"duration": "1.5h"}, lambda: _parsed("1.5h")),
            Call("from_str", {"duration": "1w2d"}, lambda: _parsed("1w2d")),
            Call(
                "to_str",
                {"delta": "PT4H3M2.001S"},
                lambda: _formatted(
                    datetime.timedelta(hours=4, minutes=3, seconds=2, milliseconds=1)
                ),
            ),
            Call(
                "to_str",
                {"delta": "P400DT3H", "extended": True},
                lambda: _formatted(datetime.timedelta(days=400, hours=3), extended=True),
            ),
            Call(
                "to_str",
                {"delta": "PT0.0015S"},
                lambda: _formatted(datetime.timedelta(microseconds=1500)),
            ),
        ),
    ),
)
