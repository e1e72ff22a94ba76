"""Numbers JSON cannot write: NaN and the infinities, sent as their names.

JSON has no NaN or infinity, yet numeric libraries answer with them routinely (a
missing value, an integral that diverges). A result's non-finite number is the string
``"NaN"``, ``"Infinity"`` or ``"-Infinity"`` (:func:`name_of`): the names JavaScript and
Python's ``json`` module write, and the strings pydantic sends with
``ser_json_inf_nan="strings"``. An output schema's number takes these three strings too
(:func:`named_numbers`), and a float argument given one of them, or Python's own
spelling (``"inf"``, ``"-inf"``, ``"nan"``, in any case), is the float it names
(:func:`named_float`), so that a result sent back as an argument is the same number.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["NAMES", "name_of", "named_float", "named_numbers"]

NAMES = ("NaN", "Infinity", "-Infinity")
"""The strings a non-finite number is sent as."""

_SPELLINGS = frozenset({"nan", "inf", "infinity"})
"""What Python's ``float`` reads as NaN or an infinity (after a sign, in any case)."""

_NAMED: dict[str, Any] = {"enum": list(NAMES)}


def name_of(number: float) -> str:
    """The name a non-finite ``number`` is sent as: ``"NaN"``, ``"Infinity"`` or
    ``"-Infinity"``."""
    if math.isnan(number):
        return "NaN"
    return "Infinity" if number > 0 else "-Infinity"


def named_float(text: str) -> float | None:
    """The non-finite float ``text`` names (one of :data:`NAMES`, or Python's spelling of
    one: ``"inf"``, ``"-Infinity"``, ``"nan"``, in any case), or None when it names none
    (``"1e400"``, which Python reads as an infinity, is a number too big, not a name)."""
    word = text[1:] if text.startswith(("+", "-")) else text
    if len(word) > len("infinity") or word.lower() not in _SPELLINGS:
        return None
    return float(text)


def named_numbers(schema: Any) -> Any:
    """``schema`` (a result's) with every number it declares also taking the three names:
    ``{"type": "number"}`` becomes ``{"anyOf": [{"type": "number"}, {"enum": [...]}]}``,
    the node's other keywords kept beside it (a number's bounds, which a name is not held
    to, a title). A type that takes strings already, and the values a schema holds
    (``default``, ``enum``...), are left as they are."""
    if isinstance(schema, list):
        return [named_numbers(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    walked: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _VALUES:
            walked[key] = value
        elif key in _BY_NAME and isinstance(value, dict):
            walked[key] = {name: named_numbers(item) for name, item in value.items()}
        else:
            walked[key] = named_numbers(value)
    kind = walked.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "number" not in kinds or "string" in kinds or "anyOf" in walked:
        return walked
    del walked["type"]
    return {"anyOf": [{"type": kind}, dict(_NAMED)], **walked}


_VALUES = frozenset({"default", "enum", "const", "examples"})
"""The keywords whose values are JSON values, not schemas."""
_BY_NAME = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)
"""The keywords whose values map names to schemas."""
