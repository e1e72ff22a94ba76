"""Values that give their own plain data: by an export method, or as a mapping.

Many libraries' objects have no JSON form of their own but say how to read them as plain
Python data: an Arrow array or table has ``to_pylist``, an array ``tolist``, a record
``to_dict`` or ``_asdict``. :func:`exported` calls the first of :data:`EXPORTS` a value
has as a method that needs no argument, and gives what it returns when that is a list, a
tuple or a dict with string or number keys; a method that raises, or gives anything else,
is passed over. A value that does not say what it is (its ``str`` is the default
``<X object at 0x...>``) and has ``keys()`` and ``[key]``, the mapping protocol ``dict()``
reads, is that mapping (``sqlite3.Row``). :mod:`objmcp.model.values.convert` asks here after the
forms it knows by kind or shape, for a result only (never for a default shown in a schema:
that would run a library's code while tools are listed).
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from typing import Any

from .shapes import NO_FORM, own_method, says_what_it_is

__all__ = ["EXPORTS", "exported"]


EXPORTS = ("to_pylist", "tolist", "to_list", "to_pydict", "to_dict", "as_dict", "asdict", "_asdict")
"""The export methods, in the order they are tried. Lists before mappings: a table that
has both gives its rows as records from the list form (``to_pylist``) and its columns from
the mapping form (``to_pydict``), and a model reads records. Within each, the most
particular name first (Arrow's ``to_pylist`` before numpy's ``tolist``, then the plain
spellings); ``_asdict`` last, a named tuple's, public in spite of its underscore. Each name
says it reads the value out; none writes, sends or changes anything."""

_KEYS = (str, int, float)
"""The keys of an exported mapping: those whose text is what JSON writes for them."""


def exported(value: object) -> object:
    """The plain data ``value`` gives of itself: what the first of :data:`EXPORTS` that it
    has as a method needing no argument returns, when that is plain data (a list, a tuple,
    or a dict with string or number keys); else, for a value whose ``str`` says nothing,
    the mapping its ``keys()`` and ``[key]`` give; else ``NO_FORM``. Its items are not
    made JSON here."""
    if isinstance(value, type):
        return NO_FORM
    for name in EXPORTS:
        method = own_method(value, name)
        if method is None:
            continue
        try:
            data = _call_without_arguments(method)
        except Exception:  # a library's export that fails: the next, or no export
            continue
        if _plain(data):
            return data
    if says_what_it_is(value):
        return NO_FORM
    return _as_mapping(value)


def _call_without_arguments(method: Callable[..., object]) -> object:
    """What ``method`` gives called with no argument; raises TypeError when its signature
    asks for one (a signature that cannot be read is tried: TypeError, if it asks)."""
    try:
        signature = inspect.signature(method)
    except (TypeError, ValueError):
        return method()
    for parameter in signature.parameters.values():
        variadic = parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)
        if parameter.default is parameter.empty and not variadic:
            raise TypeError(f"{parameter.name} is required")
    return method()


def _plain(data: object) -> bool:
    """Whether an export gave plain data: a list or a tuple, or a dict whose keys are
    strings or numbers."""
    if isinstance(data, (list, tuple)):
        return True
    return isinstance(data, dict) and all(isinstance(key, _KEYS) for key in data)


def _as_mapping(value: object) -> object:
    """``value`` as the mapping ``dict(value)`` reads (its class's ``keys()`` and
    ``[key]``), with string or number keys; ``NO_FORM`` when it has no such protocol or a
    read of it fails."""
    keys = own_method(value, "keys")
    if keys is None or inspect.getattr_static(type(value), "__getitem__", None) is None:
        return NO_FORM
    reader: Any = value
    try:
        mapping = {key: reader[key] for key in typing.cast(Any, _call_without_arguments(keys))}
    except Exception:  # keys() needs an argument, or [key] is not by those keys
        return NO_FORM
    return mapping if _plain(mapping) else NO_FORM
