"""The calls of ``pendulum`` (rank 401, held-out, third walk).

Written from pendulum's documentation (its README on PyPI: ``pendulum.datetime(2013, 3, 31, 2,
30, tz='Europe/Paris')``, "2:30 does not exist (Skipped time)"; pendulum.eustace.io/docs,
"Instantiation" (``datetime``, ``from_format``, ``from_timestamp``, ``instance``, ``date``),
"Parsing" (``parse``, with ``tz``; ISO 8601 durations), "Duration" (``duration(days=1177,
seconds=7284, microseconds=1234)``), "Interval" (``interval(start, end)``) and "Timezones"
(``timezone``)), each answer computed by calling pendulum itself, in JSON's terms: a
``DateTime``, ``Date`` or ``Time`` as its ISO 8601 text (``isoformat``); a ``Duration``, an
``Interval`` and a ``Timezone`` have no JSON form, so their text (``str``: the duration in
words, the interval's two ends, the zone's name), as isodate's durations are said. Dates and
datetimes passed in are ISO 8601 text, as a model sends them; ``parse(text, **options)`` takes
its options (``tz``) as keywords, which a model sends as the object ``options``.

The target is the walk's, the module ``pendulum``. ``now``, ``today``, ``tomorrow`` and
``yesterday`` read the clock; ``freeze``, ``travel``, ``travel_to`` and ``travel_back`` move
the module's clock; ``set_locale`` and ``set_local_timezone`` change its settings: none is
called.
"""

from __future__ import annotations

import datetime
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _pendulum() -> Any:
    return importlib.import_module("pendulum")


def _iso(value: Any) -> str:
    text: str = value.isoformat()
    return text


def _interval() -> str:
    start = datetime.datetime.fromisoformat("2024-01-01T00:00:00+00:00")
    end = datetime.datetime.fromisoformat("2024-03-01T12:00:00+00:00")
    return str(_pendulum().interval(start, end))


TARGETS: tuple[Target, ...] = (
    Target(
        "pendulum",
        (
            Call(
                "datetime",
                {
                    "year": 2013,
                    "month": 3,
                    "day": 31,
                    "hour": 2,
                    "minute": 30,
                    "tz": "Europe/Paris",
                },
                lambda: _iso(_pendulum().datetime(2013, 3, 31, 2, 30, tz="Europe/Paris")),
            ),
            Call(
                "parse",
                {"text": "1975-05-21T22:00:00"},
                lambda: _iso(_pendulum().parse("1975-05-21T22:00:00")),
            ),
            Call(
                "parse",
                {"text": "1975-05-21 22:00:00", "options": {"tz": "Europe/Paris"}},
                lambda: _iso(_pendulum().parse("1975-05-21 22:00:00", tz="Europe/Paris")),
            ),
            Call("parse", {"text": "P2Y3DT4H"}, lambda: str(_pendulum().parse("P2Y3DT4H"))),
            Call(
                "from_format",
                {"string": "1975-05-21 22", "fmt": "YYYY-MM-DD HH"},
                lambda: _iso(_pendulum().from_format("1975-05-21 22", "YYYY-MM-DD HH")),
            ),
            Call(
                "from_timestamp",
                {"timestamp": 1262347200, "tz": "Asia/Tokyo"},
                lambda: _iso(_pendulum().from_timestamp(1262347200, tz="Asia/Tokyo")),
            ),
            Call(
                "duration",
                {"days": 1177, "seconds": 7284, "microseconds": 1234},
                lambda: str(_pendulum().duration(days=1177, seconds=7284, microseconds=1234)),
            ),
            Call(
                "date",
                {"year": 2024, "month": 2, "day": 29},
                lambda: _iso(_pendulum().date(2024, 2, 29)),
            ),
            Call(
                "instance",
                {"obj": "2024-01-05T10:30:00", "tz": "Europe/Paris"},
                lambda: _iso(
                    _pendulum().instance(datetime.datetime(2024, 1, 5, 10, 30), tz="Europe/Paris")
                ),
            ),
            Call(
                "interval",
                {"start": "2024-01-01T00:00:00+00:00", "end": "2024-03-01T12:00:00+00:00"},
                _interval,
            ),
            Call(
                "timezone",
                {"name": "Europe/Paris"},
                lambda: str(_pendulum().timezone("Europe/Paris")),
            ),
        ),
    ),
)
