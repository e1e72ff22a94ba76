"""The calls of ``isodate`` (rank 170, held-out).

Written from isodate's documentation (its README on PyPI: "Documentation" lists
``parse_date``, ``parse_time``, ``parse_datetime``, ``parse_duration`` and the
``*_isoformat`` and ``strftime`` functions), each answer computed by calling isodate itself, in
JSON's terms: a date, time or datetime as its ISO text; a ``Duration`` or ``timedelta`` has no
JSON form, so its text (``str``). Dates and datetimes passed in are ISO 8601 text, as a model
sends them.
"""

from __future__ import annotations

import datetime
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _isodate() -> Any:
    return importlib.import_module("isodate")


TARGETS: tuple[Target, ...] = (
    Target(
        "isodate",
        (
            Call(
                "parse_date",
                {"datestring": "2024-01-05"},
                lambda: _isodate().parse_date("2024-01-05").isoformat(),
            ),
            Call(
                "parse_datetime",
                {"datetimestring": "2024-01-05T10:30:00+02:00"},
                lambda: _isodate().parse_datetime("2024-01-05T10:30:00+02:00").isoformat(),
            ),
            Call(
                "parse_time",
                {"timestring": "10:30:15"},
                lambda: _isodate().parse_time("10:30:15").isoformat(),
            ),
            Call(
                "parse_duration",
                {"datestring": "P1Y2M10DT2H30M"},
                lambda: str(_isodate().parse_duration("P1Y2M10DT2H30M")),
            ),
            Call(
                "date_isoformat",
                {"tdate": "2024-01-05", "format": "%Y-W%W-%w"},
                lambda: _isodate().date_isoformat(datetime.date(2024, 1, 5), "%Y-W%W-%w"),
            ),
            Call(
                "datetime_isoformat",
                {"tdt": "2024-01-05T10:30:00"},
                lambda: _isodate().datetime_isoformat(datetime.datetime(2024, 1, 5, 10, 30)),
            ),
            Call(
                "parse_date",
                {"datestring": "+002024-01-05", "yeardigits": 6, "expanded": True},
                lambda: (
                    _isodate().parse_date("+002024-01-05", yeardigits=6, expanded=True).isoformat()
                ),
            ),
        ),
    ),
)
