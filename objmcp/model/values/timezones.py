"""Time zones (``datetime.tzinfo``) as a model says them: a name, or an offset from UTC.

:func:`read_zone` takes an IANA name (``"Europe/Paris"``, read by :mod:`zoneinfo`),
``"UTC"`` or ``"Z"``, or a fixed offset (``"+05:30"``, ``"-0800"``, and ``"UTC+05:30"``,
as ``str()`` writes a ``datetime.timezone``), into the class a hint asks for: a
``tzinfo`` is any of them, a ``ZoneInfo`` only a named zone, a ``timezone`` only a fixed
offset (or its constructor's arguments, ``{"offset": ..., "name": ...}``). A zone answers
with its name (``str()``: a ``ZoneInfo``'s key, a ``timezone``'s name), which reads back.
"""

from __future__ import annotations

import re
from typing import Any

from ..describe.hints import loaded_module
from .durations import DurationError, read_duration
from .durations import schema as duration_schema

__all__ = ["ZoneError", "read_zone", "schema", "zone_text"]


class ZoneError(ValueError):
    """A value that says no time zone of the kind asked for; its message says why."""


_UTC = frozenset({"UTC", "Z"})
_OFFSET = re.compile(
    r"(?:UTC|GMT)?([+-])([0-9]{2}):?([0-9]{2})(?::?([0-9]{2})(?:\.([0-9]{1,6}))?)?"
)


def read_zone(value: object, cls: type) -> Any:
    """The time zone of class ``cls`` (``tzinfo``, ``timezone`` or ``ZoneInfo``) that
    ``value`` says; raise :class:`ZoneError`."""
    import datetime  # loaded already: the hint asks for one of its classes

    if cls is datetime.timezone and isinstance(value, dict):
        return _from_arguments(value)
    if not isinstance(value, str):
        raise ZoneError('expected the text of a time zone: "Europe/Paris", "UTC" or "+05:30"')
    text = value.strip()
    if text.upper() in _UTC and cls is not _zone_info():
        return datetime.timezone.utc
    offset = _OFFSET.fullmatch(text.upper())
    if offset is not None:
        if cls is _zone_info():
            raise ZoneError(f'a ZoneInfo is a named zone ("Europe/Paris"), not the offset {text!r}')
        return _fixed(offset.groups(), text)
    if cls is datetime.timezone:
        raise ZoneError(f'expected "UTC" or a fixed offset such as "+05:30", got {text!r}')
    return _named("UTC" if text.upper() == "Z" else text)


def _zone_info() -> type:
    import zoneinfo  # the IANA database's reader, asked only for a zone's text

    return zoneinfo.ZoneInfo


def _named(name: str) -> Any:
    try:
        return _zone_info()(name)
    except (KeyError, ValueError, OSError):  # ZoneInfoNotFoundError is a KeyError
        raise ZoneError(
            f'no time zone is named {name!r}: expected an IANA name ("Europe/Paris"), '
            '"UTC" or an offset ("+05:30")'
        ) from None


def _fixed(parts: tuple[str | None, ...], text: str) -> Any:
    import datetime

    sign, hours, minutes, seconds, fraction = parts
    delta = datetime.timedelta(
        hours=int(hours or 0),
        minutes=int(minutes or 0),
        seconds=int(seconds or 0),
        microseconds=int((fraction or "").ljust(6, "0")),
    )
    try:
        return datetime.timezone(-delta if sign == "-" else delta)
    except ValueError:
        raise ZoneError(f"an offset from UTC is less than a day, not {text!r}") from None


def _from_arguments(arguments: dict[str, Any]) -> Any:
    import datetime

    if set(arguments) - {"offset", "name"} or "offset" not in arguments:
        raise ZoneError('a timezone\'s arguments are "offset" (a duration) and "name"')
    name = arguments.get("name")
    if name is not None and not isinstance(name, str):
        raise ZoneError("a timezone's name is a string")
    try:
        offset = read_duration(arguments["offset"])
        return datetime.timezone(offset) if name is None else datetime.timezone(offset, name)
    except (DurationError, ValueError) as error:
        raise ZoneError(f"offset: {error}") from None


def zone_text(zone: object) -> str | None:
    """The name a ``ZoneInfo`` (its key) or a ``timezone`` (``"UTC+05:30"``, or the name
    it was given) answers with; None for another object, or a zone read from a file
    (no key)."""
    datetime, zoneinfo = loaded_module("datetime"), loaded_module("zoneinfo")
    if datetime is not None and type(zone) is datetime.timezone:
        return str(zone)
    if zoneinfo is not None and isinstance(zone, zoneinfo.ZoneInfo) and zone.key is not None:
        return str(zone.key)
    return None


def schema(cls: type) -> dict[str, Any]:
    """What a parameter of the time zone class ``cls`` takes."""
    import datetime

    named = 'an IANA name ("Europe/Paris")'
    fixed = 'a fixed offset from UTC ("+05:30")'
    if cls is datetime.timezone:
        arguments = {
            "title": "timezone",
            "type": "object",
            "properties": {"offset": duration_schema(), "name": {"type": "string"}},
            "required": ["offset"],
            "additionalProperties": False,
        }
        text = {"type": "string", "description": f'A time zone: "UTC", or {fixed}.'}
        return {"anyOf": [text, arguments]}
    says = named if cls is _zone_info() else f'{named}, "UTC", or {fixed}'
    return {"type": "string", "description": f"A time zone: {says}."}
