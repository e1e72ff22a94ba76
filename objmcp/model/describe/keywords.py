"""Keyword arguments sent whole: ``**NAME`` given as one object under its own name.

A callable that takes ``**kwargs`` takes any keyword argument; a model given its schema
sends them one by one (``{"color": [...]}``), or, reading the signature
``cycler(*args, **kwargs)``, as one object under the parameter's name
(``{"kwargs": {"color": [...], "linestyle": [...]}}``), as it sends ``*args`` as its list.
Both are read: :func:`spread` puts the keys of such an object among the arguments before
they are checked (each then by its own property, or by the schema of ``**NAME``). A key
given both in the object and on its own is refused, as Python refuses a keyword given
twice, and so is one objmcp fills (an injected parameter, a bound method's ``self``). A
value of ``NAME`` that is no object is left as it is. The input schema does not list
``NAME``: its properties are the callable's parameters, and its open
``additionalProperties`` already lets the object through.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..._exceptions import ArgumentError

__all__ = ["spread"]


def spread(
    arguments: dict[str, Any], name: str, reserved: Collection[str], tool: str
) -> dict[str, Any]:
    """``arguments`` with the object under ``name`` (the callable's ``**name``) spread
    among them; ``arguments`` itself when ``name`` holds no object. Raises
    :class:`~objmcp.ArgumentError` when one of its keys is also given on its own, or is
    one of ``reserved`` (the names objmcp fills)."""
    given = arguments.get(name)
    if not isinstance(given, dict):
        return arguments
    spread_out = {key: value for key, value in arguments.items() if key != name}
    for key, value in given.items():
        if key in spread_out or key in reserved:
            said = "is given twice: on its own and" if key in spread_out else "cannot be given,"
            raise ArgumentError(
                f"Argument '{key}' of tool '{tool}' {said} in '{name}' (the keyword "
                "arguments sent whole)"
            )
        spread_out[key] = value
    return spread_out
