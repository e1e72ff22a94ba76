"""Durations (``datetime.timedelta``) as a model says them, and as they are written back.

A model says a duration as ISO 8601 text (``"PT4H3M2.001S"``, ``"P400DT3H"``, ``"P2W"``,
``"-PT0.5S"``), a number of seconds, or an object of ``timedelta``'s own arguments
(``{"hours": 2}``); :func:`read_duration` takes each, and the text Python writes
(``"1 day, 2:00:00"``, what a ``timedelta`` answers with). Years and months have no fixed
length and are refused. :func:`iso_duration` writes a ``timedelta`` as ISO 8601 text that
reads back as itself.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import datetime

__all__ = ["DurationError", "FIELDS", "iso_duration", "read_duration", "schema"]


class DurationError(ValueError):
    """A value that says no duration; its message says why."""


FIELDS = ("weeks", "days", "hours", "minutes", "seconds", "milliseconds", "microseconds")
"""The arguments of ``timedelta``, each a number of its unit."""

_NUMBER = r"([0-9]+(?:[.,][0-9]+)?)"
_ISO = re.compile(
    rf"([+-])?P(?!$)(?:{_NUMBER}W)?(?:{_NUMBER}D)?"
    rf"(?:T(?=[0-9])(?:{_NUMBER}H)?(?:{_NUMBER}M)?(?:{_NUMBER}S)?)?"
)
_CALENDAR = re.compile(r"[+-]?P(?:[0-9.,]+[YM])")
_PYTHON = re.compile(r"(?:(-?[0-9]+) days?, )?([0-9]+):([0-9]{2}):([0-9]{2})(?:\.([0-9]{6}))?")
_MICROSECONDS = {"W": 604_800_000_000, "D": 86_400_000_000, "H": 3_600_000_000}
_UNITS = (604_800_000_000, 86_400_000_000, 3_600_000_000, 60_000_000, 1_000_000)


def read_duration(value: object) -> datetime.timedelta:
    """The ``timedelta`` ``value`` says: ISO 8601 duration text, Python's text of a
    ``timedelta``, a number of seconds, or an object of ``timedelta``'s arguments; raise
    :class:`DurationError`."""
    import datetime  # loaded already: a timedelta hint asks for this

    try:
        if isinstance(value, str):
            return _from_text(value.strip())
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return datetime.timedelta(seconds=value)
        if isinstance(value, dict):
            return _from_fields(value)
    except DurationError:
        raise
    except (OverflowError, ValueError) as error:
        raise DurationError(f"no timedelta can hold it ({error})") from None
    raise DurationError("expected ISO 8601 duration text, a number of seconds or an object")


def _from_text(text: str) -> datetime.timedelta:
    import datetime
    import decimal  # ISO 8601 fractions, read exactly

    iso = _ISO.fullmatch(text.upper())
    if iso is not None:
        sign, *numbers = iso.groups()
        total = sum(
            (
                (decimal.Decimal(n.replace(",", ".")) * unit)
                for n, unit in zip(numbers, _UNITS, strict=True)
                if n is not None
            ),
            decimal.Decimal(0),
        )
        micros = int(total.to_integral_value(decimal.ROUND_HALF_EVEN))
        return datetime.timedelta(microseconds=-micros if sign == "-" else micros)
    if _CALENDAR.match(text.upper()):
        raise DurationError(
            "years and months have no fixed length: say the duration in weeks, days, "
            'hours, minutes and seconds ("P400DT3H")'
        )
    python = _PYTHON.fullmatch(text)
    if python is not None:
        days, hours, minutes, seconds, fraction = python.groups()
        return datetime.timedelta(
            days=int(days or 0),
            hours=int(hours),
            minutes=int(minutes),
            seconds=int(seconds),
            microseconds=int(fraction or 0),
        )
    raise DurationError(
        f'expected an ISO 8601 duration such as "PT4H3M2.5S", "P2DT3H" or "P1W", got {text!r}'
    )


def _from_fields(fields: dict[str, Any]) -> datetime.timedelta:
    import datetime

    unknown = sorted(set(fields) - set(FIELDS))
    if unknown:
        raise DurationError(f"unknown field {unknown[0]!r}; a duration's fields are {FIELDS}")
    for name, number in fields.items():
        if isinstance(number, bool) or not isinstance(number, (int, float)):
            raise DurationError(f"field {name!r} must be a number")
    return datetime.timedelta(**fields)


def iso_duration(delta: datetime.timedelta) -> str:
    """``delta`` as ISO 8601 duration text (days, hours, minutes, seconds and their
    fraction; a leading ``-`` when it is negative): ``PT4H3M2.001S``, ``P400DT3H``."""
    total = (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
    sign, total = ("-" if total < 0 else ""), abs(total)
    days, rest = divmod(total, _MICROSECONDS["D"])
    hours, rest = divmod(rest, _MICROSECONDS["H"])
    minutes, rest = divmod(rest, 60_000_000)
    seconds, micros = divmod(rest, 1_000_000)
    clock = "".join(f"{n}{unit}" for n, unit in ((hours, "H"), (minutes, "M")) if n)
    if micros:
        clock += f"{seconds}.{micros:06d}".rstrip("0") + "S"
    elif seconds or not (days or clock):
        clock += f"{seconds}S"
    return f"{sign}P{f'{days}D' if days else ''}{'T' + clock if clock else ''}"


def schema() -> dict[str, Any]:
    """What a ``timedelta`` parameter takes: ISO 8601 text, seconds, or its fields."""
    return {
        "anyOf": [
            {
                "type": "string",
                "format": "duration",
                "description": (
                    'An ISO 8601 duration: "PT4H3M2.5S", "P2DT3H", "P1W" (a leading "-" '
                    "for a negative one; no years or months, which have no fixed length)."
                ),
            },
            {"type": "number", "description": "A duration in seconds."},
            {
                "title": "timedelta",
                "type": "object",
                "properties": {name: {"type": "number"} for name in FIELDS},
                "additionalProperties": False,
            },
        ]
    }
