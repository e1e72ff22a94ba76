"""The calls of ``arrow`` (rank 377, tuning, third walk).

Written from arrow's documentation (its README on PyPI, "Example Usage": ``arrow.get`` of an
ISO 8601 text; arrow.readthedocs.io's guide, "Creation": ``arrow.get`` of a timestamp, of a
text with a format of tokens (``'YYYY-MM-DD HH:mm:ss'``), with ``tzinfo``, and the ``Arrow``
constructor from its year, month, day, ... and ``tzinfo``), each answer computed by calling
arrow itself, in JSON's terms: an ``Arrow`` has no JSON form, so its text (``str``, its ISO
8601 form). ``get(*args, **kwargs)`` takes its values positionally: a model sends them as the
list ``args`` and the keywords (``tzinfo``) as the object ``kwargs``.

The target is the walk's, the module ``arrow``. ``utcnow`` and ``now`` read the clock and are
not called; the README's ``shift``, ``to``, ``format`` and ``humanize`` are methods of an
``Arrow`` made from arguments, out of the module's reach.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _arrow() -> Any:
    return importlib.import_module("arrow")


def _get(*args: Any, **kwargs: Any) -> str:
    return str(_arrow().get(*args, **kwargs))


def _make(*args: Any, **kwargs: Any) -> str:
    return str(_arrow().Arrow(*args, **kwargs))


TARGETS: tuple[Target, ...] = (
    Target(
        "arrow",
        (
            Call(
                "get",
                {"args": ["2013-05-11T21:23:58.970460+07:00"]},
                lambda: _get("2013-05-11T21:23:58.970460+07:00"),
            ),
            Call(
                "get",
                {"args": ["2013-05-05 12:30:45", "YYYY-MM-DD HH:mm:ss"]},
                lambda: _get("2013-05-05 12:30:45", "YYYY-MM-DD HH:mm:ss"),
            ),
            Call("get", {"args": [1565358758]}, lambda: _get(1565358758)),
            Call(
                "get",
                {
                    "args": ["2013-05-05 12:30", "YYYY-MM-DD HH:mm"],
                    "kwargs": {"tzinfo": "US/Pacific"},
                },
                lambda: _get("2013-05-05 12:30", "YYYY-MM-DD HH:mm", tzinfo="US/Pacific"),
            ),
            Call(
                "Arrow",
                {"year": 2013, "month": 5, "day": 5, "hour": 12, "minute": 30},
                lambda: _make(2013, 5, 5, 12, 30),
            ),
            Call(
                "Arrow",
                {"year": 2024, "month": 2, "day": 29, "tzinfo": "Europe/Paris"},
                lambda: _make(2024, 2, 29, tzinfo="Europe/Paris"),
            ),
        ),
    ),
)
