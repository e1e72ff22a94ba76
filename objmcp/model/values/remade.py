"""A value remade as the class a hint names when that class derives from the value's
kind: a subclass of a standard kind (a ``datetime`` subclass, by its own
``fromisoformat`` or constructor) or a class the :mod:`numbers` ABCs know, made from
the base kind's value.
"""

from __future__ import annotations

from collections import abc
from typing import Any

from ..describe import hints as t
from .mismatch import ConversionError

__all__ = ["to_number_class", "to_subclass"]


def to_subclass(plain: Any, cls: type, path: str) -> object:
    """A value of ``cls``, a subclass of a standard kind, made from ``plain``, the base
    kind's value: by the subclass's own ``fromisoformat`` (dates and times) or
    constructor, the first way that gives an instance equal to ``plain`` (else the
    first that gives an instance: the subclass may read a value its own way). A refusal
    (its ValueError, say) is a :class:`ConversionError`; a subclass none of whose ways
    can take the value (a constructor of other parameters) gets ``plain`` itself."""
    refusal: Exception | None = None
    instances: list[object] = []
    for make in _makers(plain, cls):
        try:
            made = make()
        except (TypeError, AttributeError, NotImplementedError):
            continue  # this way does not take such a value; another may
        except Exception as error:
            refusal = refusal or error
            continue
        if isinstance(made, cls):
            if _equal(made, plain):
                return made
            instances.append(made)
    if instances:
        return instances[0]
    if refusal is not None:
        raise ConversionError(path, f"{cls.__name__} refused it: {refusal}")
    return plain


def to_number_class(plain: object, cls: type) -> object:
    """A ``cls`` (a class the :mod:`numbers` ABCs know: :func:`~.hints.number_kind`) made
    from the number ``plain``, or ``plain`` itself when the class refuses it (an abstract
    class, a constructor of other parameters): a library that accepts such a class takes
    Python's own numbers too, as the ABCs promise."""
    try:
        return cls(plain)
    except Exception:
        return plain


def _equal(made: object, plain: object) -> bool:
    """Whether ``made`` is ``plain``'s value, with the same UTC offset where it has one
    (``==`` compares aware date-times as instants, whatever their offsets)."""
    try:
        same = bool(made == plain)
    except Exception:  # the subclass's own __eq__ failed
        return False
    offset = getattr(plain, "utcoffset", None)
    return same and (offset is None or offset() == made.utcoffset())  # type: ignore[attr-defined]


def _makers(plain: Any, cls: Any) -> list[abc.Callable[[], object]]:
    """The ways to make a ``cls`` from the base kind's value ``plain``, in order."""
    datetime = t.loaded_module("datetime")
    if datetime is not None and isinstance(plain, datetime.timedelta):
        parts = {"days": plain.days, "seconds": plain.seconds, "microseconds": plain.microseconds}
        return [lambda: cls(plain), lambda: cls(**parts)]
    if datetime is None or not isinstance(plain, (datetime.date, datetime.time)):
        uuid = t.loaded_module("uuid")
        given = str(plain) if uuid is not None and isinstance(plain, uuid.UUID) else plain
        return [lambda: cls(given)]

    def by_fields() -> object:
        if isinstance(plain, datetime.time):
            clock = (plain.hour, plain.minute, plain.second, plain.microsecond)
            return cls(*clock, plain.tzinfo, fold=plain.fold)
        day = (plain.year, plain.month, plain.day)
        if not isinstance(plain, datetime.datetime):
            return cls(*day)
        clock = (plain.hour, plain.minute, plain.second, plain.microsecond)
        return cls(*day, *clock, plain.tzinfo, fold=plain.fold)

    return [lambda: cls.fromisoformat(plain.isoformat()), by_fields]
