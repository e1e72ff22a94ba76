"""A class chosen by name: what a ``type[X]`` parameter takes.

A parameter that takes a class (``encoder: type[Encoder] = HexEncoder``) takes the name
of one of ``X``'s public subclasses (``X`` too when it is concrete), those loaded when
the tools are built (:func:`class_choices`): the schema is an enum of their names
(qualified by module where two share a name), and the name comes back as the class.
"""

from __future__ import annotations

import inspect
import threading
import typing

from ..describe.hints import is_union

__all__ = ["MAX_CHOICES", "choice_name", "chosen_base", "class_choices"]

MAX_CHOICES = 64
"""The most classes a ``type[X]`` parameter offers: a base with more (``Exception``) is
no choice to list, and such a parameter is left out as before."""

_CHOICES: dict[type, dict[str, type]] = {}
_LOCK = threading.Lock()


def chosen_base(hint: object) -> type | None:
    """``X`` of a ``type[X]`` hint (``typing.Type[X]`` too), else None."""
    if typing.get_origin(hint) is not type:
        return None
    args = typing.get_args(hint)
    return args[0] if len(args) == 1 and isinstance(args[0], type) else None


def class_choices(base: type) -> dict[str, type]:
    """The classes a ``type[base]`` parameter takes, by the name a model sends: ``base``
    itself when it is concrete and public, and its public subclasses at any depth, as
    loaded when first asked (the tools' schemas and their conversion then agree); none
    when there are more than :data:`MAX_CHOICES`."""
    with _LOCK:
        known = _CHOICES.get(base)
        if known is None:
            known = _CHOICES[base] = _choices(base)
        return known


def choice_name(hint: object, value: object) -> str | None:
    """The name ``value`` (a default) has among the choices of ``hint`` (``type[X]`` or
    ``type[X] | None``), or None when it has none."""
    members = typing.get_args(hint) if is_union(hint) else (hint,)
    for member in members:
        base = chosen_base(member)
        if base is None:
            continue
        for name, cls in class_choices(base).items():
            if cls is value:
                return name
    return None


def _choices(base: type) -> dict[str, type]:
    found: list[type] = []
    waiting = [base]
    while waiting:
        cls = waiting.pop(0)
        if cls in found:
            continue
        found.append(cls)
        try:
            waiting.extend(type.__subclasses__(cls))
        except TypeError:
            continue
    kept = [cls for cls in found if _public(cls) and not inspect.isabstract(cls)]
    if len(kept) > MAX_CHOICES:
        return {}
    counts: dict[str, int] = {}
    for cls in kept:
        counts[cls.__name__] = counts.get(cls.__name__, 0) + 1
    return {
        (cls.__name__ if counts[cls.__name__] == 1 else f"{cls.__module__}.{cls.__qualname__}"): cls
        for cls in kept
    }


def _public(cls: type) -> bool:
    return not cls.__name__.startswith("_") and "<locals>" not in cls.__qualname__
