"""The calls of ``tzlocal`` (rank 212, tuning, second walk).

Written from tzlocal's documentation (its README on PyPI, "Usage": ``get_localzone()`` answers
the local ``zoneinfo.ZoneInfo``, ``get_localzone_name()`` its IANA name; the module's
``__all__`` adds ``reload_localzone`` and ``assert_tz_offset``, whose docstring says it checks
the system's offset against a zone's), each answer computed by calling tzlocal itself. A
``ZoneInfo`` has no JSON form: it is said as its text, its key (``str``).

The target is the walk's, the module ``tzlocal``. Its answers are the machine's time zone
setting, which does not change between two calls (the caller and the server run on one
machine); the serving process gets no ``TZ`` from the bench (only ``PATH`` and
``PYTHONPATH``), so each expect asks tzlocal with ``TZ`` unset, as the server does, and puts
the caller's back. ``assert_tz_offset`` is sent a fixed zone, ``UTC``, with ``error`` off: it
answers ``None`` on any machine (a mismatch only warns). tzlocal's functions take no argument
but that zone (a ``tzinfo``, sent as its IANA name) and a flag: no number, list or mapping
parameter exists to send.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _without_tz(ask: Callable[[Any], Any]) -> Any:
    """``ask(tzlocal)`` with ``TZ`` unset, as in the serving process."""
    tzlocal = importlib.import_module("tzlocal")
    saved = os.environ.pop("TZ", None)
    try:
        tzlocal.reload_localzone()
        return ask(tzlocal)
    finally:
        if saved is not None:
            os.environ["TZ"] = saved
            tzlocal.reload_localzone()


def _utc() -> Any:
    return importlib.import_module("zoneinfo").ZoneInfo("UTC")


TARGETS: tuple[Target, ...] = (
    Target(
        "tzlocal",
        (
            Call(
                "get_localzone_name",
                {},
                lambda: _without_tz(lambda tzlocal: tzlocal.get_localzone_name()),
            ),
            Call(
                "get_localzone",
                {},
                lambda: _without_tz(lambda tzlocal: str(tzlocal.get_localzone())),
            ),
            Call(
                "reload_localzone",
                {},
                lambda: _without_tz(lambda tzlocal: str(tzlocal.reload_localzone())),
            ),
            Call(
                "assert_tz_offset",
                {"tz": "UTC", "error": False},
                lambda: _without_tz(lambda tzlocal: tzlocal.assert_tz_offset(_utc(), error=False)),
            ),
        ),
    ),
)
