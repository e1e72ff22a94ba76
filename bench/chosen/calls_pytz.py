"""The calls of ``pytz`` (rank 62, held-out).

Written from pytz's documentation (its README on PyPI, "Example & Usage" and "Country
Information": ``timezone``, ``country_timezones``, ``FixedOffset``), each answer computed by
calling pytz itself. A time zone has no JSON form: its text (``str``), which is its name, or
``pytz.FixedOffset(-240)`` for a fixed offset.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _pytz() -> Any:
    return importlib.import_module("pytz")


TARGETS: tuple[Target, ...] = (
    Target(
        "pytz",
        (
            Call(
                "timezone",
                {"zone": "Europe/Amsterdam"},
                lambda: str(_pytz().timezone("Europe/Amsterdam")),
            ),
            Call("timezone", {"zone": "UTC"}, lambda: str(_pytz().timezone("UTC"))),
            Call(
                "country_timezones",
                {"iso3166_code": "nz"},
                lambda: list(_pytz().country_timezones("nz")),
            ),
            Call("FixedOffset", {"offset": -240}, lambda: str(_pytz().FixedOffset(-240))),
            Call("FixedOffset", {"offset": 330}, lambda: str(_pytz().FixedOffset(330))),
        ),
    ),
)
