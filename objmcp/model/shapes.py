"""Values libraries give back, read by their shape: objmcp imports none of the libraries.

:func:`plain_form` gives the plain data of a pandas DataFrame (records) or Series (a
mapping), a numpy array or scalar (its numbers), or a ``re.Match`` (what it matched);
:func:`readable` what a value with no JSON form shows instead of the default
``<X object at 0x...>``. :mod:`objmcp.model.convert` asks them before it gives up on a
value.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

__all__ = ["NO_FORM", "plain_form", "readable"]


NO_FORM = object()
"""What :func:`plain_form` gives for a value it does not know."""


def plain_form(value: object) -> object:
    """The plain data of a value libraries give back, read by its shape (objmcp imports
    none of them): a pandas DataFrame as records and a Series as a mapping (missing
    values as null), a numpy array or scalar as its numbers (``tolist``), a ``re.Match``
    as what it matched; ``NO_FORM`` for anything else, a class among them (``numpy.float64``
    has the shape of its instances)."""
    if isinstance(value, type):
        return NO_FORM
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict) and hasattr(value, "iloc") and hasattr(value, "index"):
        if hasattr(value, "columns"):  # a DataFrame: one record a row
            return _missing_as_null(to_dict(orient="records"))
        return _missing_as_null(to_dict())  # a Series: its values by their index
    to_list = getattr(value, "tolist", None)
    if callable(to_list) and hasattr(value, "dtype") and hasattr(value, "shape"):
        return to_list()
    if isinstance(value, re.Match):
        return {
            "match": value.group(0),
            "span": list(value.span()),
            "groups": list(value.groups()),
            "named": value.groupdict(),
        }
    return NO_FORM


def _missing_as_null(data: object) -> object:
    """pandas' missing values (NaN, NaT, None) as None."""
    if isinstance(data, dict):
        return {key: _missing_as_null(item) for key, item in data.items()}
    if isinstance(data, list):
        return [_missing_as_null(item) for item in data]
    if isinstance(data, float) and math.isnan(data):
        return None
    if type(data).__name__ in ("NaTType", "NAType"):
        return None
    return data


def readable(value: object, part: Callable[[object], object]) -> object:
    """A value with no JSON form: its ``str``, unless that is the default
    ``<X object at 0x...>``, which says nothing; then its public attributes, each made
    JSON by ``part`` (which raises :class:`NotJsonable` for one that cannot be)."""
    kind = type(value)
    if kind.__str__ is not object.__str__ or kind.__repr__ is not object.__repr__:
        return str(value)
    attributes = getattr(value, "__dict__", None)
    public = {
        name: item
        for name, item in (attributes or {}).items()
        if isinstance(name, str) and not name.startswith("_") and not callable(item)
    }
    if not public:
        return f"<{kind.__qualname__}>"
    shown: dict[str, object] = {}
    for name, item in public.items():
        try:
            shown[name] = part(item)
        except TypeError as error:  # NotJsonable: NaN, a cycle
            shown[name] = f"<{error}>"
    return shown
