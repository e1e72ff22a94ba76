"""The order a union's members are tried in on a JSON value: the narrower of two of one kind
first (a subclass before its base, a date before a date-time), text before bytes or a
duration, and ``Any`` or ``object`` last.
"""

from __future__ import annotations

from typing import Any

from ..describe import hints as t

__all__ = ["narrow_first"]


def narrow_first(members: list[object]) -> list[object]:
    """``members`` in the order a value is tried on them: each as declared, except that a
    member is tried after those that take fewer values of its own kind (a subclass
    before its base, ``date`` and ``time`` before ``datetime``, whose reading takes a
    date alone too)."""
    pending, ordered = list(members), []
    while pending:
        ready = [m for m in pending if not any(_tried_before(o, m) for o in pending if o is not m)]
        ordered.append(ready[0] if ready else pending[0])
        pending.remove(ordered[-1])
    return ordered


def _tried_before(first: object, then: object) -> bool:
    """Whether the union member ``first`` is tried before ``then``: every member before
    ``Any`` or ``object``, which take any value as it is (so a string that reads as an
    ISO date-time is the ``datetime`` of ``datetime | Any``); a string is text before it
    is bytes, a duration, a time zone or source text, a number is a number and a date or
    time's text is one before it is a duration."""
    if first is str and then in t.BINARY:
        return True
    if then in (Any, object) and first not in (Any, object):
        return True  # any value fits them: the others convert what fits them first
    if t.standard_kind(then) in _SAID_KINDS and (
        first in (str, int, float) or _date_kind(first) is not None
    ):
        return True  # "12:30:00" is a time of day before it is a duration
    kinds = (_date_kind(first), _date_kind(then))
    if None not in kinds and "date-time" in kinds and kinds[0] != kinds[1]:
        return kinds[1] == "date-time"
    if not isinstance(first, type) or not isinstance(then, type) or first is then:
        return False
    try:
        return issubclass(first, then)
    except TypeError:  # a class that refuses the question (a TypedDict)
        return False


_SAID_KINDS = ("duration", "time-zone", "ast")
"""The standard kinds a model says as text (or a number), which text and numbers are
first."""


def _date_kind(hint: object) -> str | None:
    kind = t.standard_kind(hint) or t.standard_kind(t.standard_base(hint))
    return kind if kind in ("date-time", "date", "time") else None
