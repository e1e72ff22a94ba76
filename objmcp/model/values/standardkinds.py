"""The standard library's kinds read from JSON: the ISO 8601 text of a date-time, date or
time (with a UTC offset's microseconds, which Python 3.11 drops), a UUID's, a decimal's
or a fraction's text (or number), a duration, a time zone and a syntax tree
(:mod:`~objmcp.model.values.durations`, :mod:`~objmcp.model.values.timezones`,
:mod:`~objmcp.model.values.pysource`), by :func:`~objmcp.model.describe.hints.standard_kind`.
"""

from __future__ import annotations

import binascii
import re
from collections import abc
from typing import Any

from ..describe import hints as t
from .durations import read_duration
from .mismatch import ConversionError, describe_json, expect_kind
from .pysource import read_source
from .timezones import read_zone

__all__ = ["STANDARD", "Standard"]


def _parse_text(
    value: object,
    path: str,
    kind: str,
    parse: abc.Callable[[str], object],
    *errors: type[Exception],
) -> object:
    """``parse`` of the string ``value``; a :class:`ConversionError` naming ``kind`` when
    it is no string or ``parse`` refuses it (ValueError, TypeError, ``errors``)."""
    text = expect_kind(value, str, f"{kind} string", path)
    refusals: tuple[type[Exception], ...] = (ValueError, TypeError, binascii.Error, *errors)
    try:
        return parse(text)
    except refusals:
        raise ConversionError(path, f"expected {kind}, got {describe_json(value)}") from None


# The standard classes' modules are loaded (a hint names one of their classes) when these run.


def _to_datetime(value: object, path: str) -> object:
    datetime = t.loaded_module("datetime")
    read = datetime.datetime.fromisoformat
    return _parse_text(value, path, "an ISO 8601 date-time", lambda s: _offset(read(_utc(s)), s))


def _to_time(value: object, path: str) -> object:
    datetime = t.loaded_module("datetime")
    read = datetime.time.fromisoformat
    return _parse_text(value, path, "an ISO 8601 time", lambda s: _offset(read(_utc(s)), s))


def _utc(text: str) -> str:
    return text[:-1] + "+00:00" if text.endswith("Z") else text


_FINE_OFFSET = re.compile(r"([+-])([0-9]{2}):([0-9]{2}):([0-9]{2})\.([0-9]{6})$")


def _offset(parsed: Any, text: str) -> Any:
    """``parsed`` with the microseconds of its UTC offset, which Python 3.11's
    ``fromisoformat`` reads and drops (``+00:00:00.000001``, as ``isoformat`` writes it)."""
    fine = _FINE_OFFSET.search(text)
    if fine is None or parsed.tzinfo is None:
        return parsed
    datetime = t.loaded_module("datetime")
    sign, hours, minutes, seconds, micros = fine.groups()
    delta = datetime.timedelta(
        hours=int(hours), minutes=int(minutes), seconds=int(seconds), microseconds=int(micros)
    )
    return parsed.replace(tzinfo=datetime.timezone(-delta if sign == "-" else delta))


def _to_date(value: object, path: str) -> object:
    datetime = t.loaded_module("datetime")
    parsed = _parse_text(value, path, "an ISO 8601 date", datetime.date.fromisoformat)
    if isinstance(parsed, datetime.datetime):
        raise ConversionError(path, f"expected an ISO 8601 date, got {describe_json(value)}")
    return parsed


def _to_uuid(value: object, path: str) -> object:
    return _parse_text(value, path, "a UUID", t.loaded_module("uuid").UUID)


def _to_decimal(value: object, path: str) -> object:
    decimal = t.loaded_module("decimal")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return decimal.Decimal(str(value))
    return _parse_text(value, path, "a decimal number", decimal.Decimal, decimal.InvalidOperation)


def _to_fraction(value: object, path: str) -> object:
    fractions = t.loaded_module("fractions")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return fractions.Fraction(str(value))  # 0.1 is 1/10, not its nearest binary fraction
    return _parse_text(value, path, "a fraction", fractions.Fraction, ZeroDivisionError)


def _reading(read: abc.Callable[[object, type], object]) -> Standard:
    """A converter by ``read`` (a duration's, a time zone's, a syntax tree's), whose
    ValueError, which says what is wrong, becomes a :class:`ConversionError`."""

    def convert(value: object, path: str, cls: type) -> object:
        try:
            return read(value, cls)
        except ValueError as error:
            raise ConversionError(path, str(error)) from None

    return convert


Standard = abc.Callable[[object, str, type], object]
"""A standard kind's converter: the JSON value, its path, and the class asked for."""


STANDARD: dict[t.StandardKind, Standard] = {
    "date-time": lambda v, p, _: _to_datetime(v, p),
    "date": lambda v, p, _: _to_date(v, p),
    "time": lambda v, p, _: _to_time(v, p),
    "uuid": lambda v, p, _: _to_uuid(v, p),
    "decimal": lambda v, p, _: _to_decimal(v, p),
    "fraction": lambda v, p, _: _to_fraction(v, p),
    "duration": _reading(lambda v, _: read_duration(v)),
    "time-zone": _reading(read_zone),
    "ast": _reading(read_source),
}
"""Each standard kind's converter (:func:`~objmcp.model.describe.hints.standard_kind`)."""
