"""MCP extensions (SEP-2133): what the server declares, and what a request negotiated.

An extension is named ``{vendor-prefix}/{extension-name}`` (``com.example/maps``,
``io.modelcontextprotocol/ui``) after the rules of ``_meta`` keys, the prefix
mandatory, and comes with a settings object (``{}`` when it has none). The server
declares its extensions in ``capabilities.extensions`` (of ``initialize`` from
2025-06-18, as the SEP shows it, and of ``server/discover``); a client declares its
own in its capabilities: once, at ``initialize``, in the handshake era; in every
request's ``_meta`` in the modern era, where nothing carries over from one request
to the next. An extension is negotiated for a request when both sides declare it:
:func:`negotiated` gives the client's settings of those, which a call sees as
``objmcp.Context.extensions``.

:func:`declared` checks the extensions a server is given and joins them to those
objmcp's own features declare (``io.modelcontextprotocol/tasks``, later): the one
place where both meet.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["Extensions", "declared", "negotiated"]

Extensions = Mapping[str, Mapping[str, Any]]
"""Extension names and the settings object of each."""

_LABEL = r"[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
_NAME = re.compile(
    rf"{_LABEL}(?:\.{_LABEL})*/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?",
)


def declared(given: object, own: Extensions | None = None) -> dict[str, dict[str, Any]]:
    """The extensions a server declares: those it was ``given`` (the ``extensions=``
    option), checked, and those objmcp's own features declare (``own``).

    Raises TypeError for a mapping that is not one of names to JSON objects, and
    ValueError for a name the SEP's rules refuse or one objmcp's features declare
    themselves."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise TypeError(
            'extensions takes a mapping of extension names to settings, such as {"com.example/'
            f'maps": {{}}}}, not {given!r}'
        )
    found = {name: dict(settings) for name, settings in (own or {}).items()}
    for name, settings in given.items():
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise ValueError(
                f"extension name {name!r} is not vendor-prefix/name: the prefix dot-separated "
                "labels (a letter first, a letter or digit last; reverse DNS, com.example), "
                "the name letters, digits, '-', '_' and '.' (a letter or digit at each end)"
            )
        if name in found:
            raise ValueError(f"extension {name!r} is declared by objmcp itself")
        found[name] = _settings(name, settings)
    return found


def negotiated(server: Extensions, client_capabilities: Mapping[str, Any]) -> dict[str, Any]:
    """The extensions both the ``server`` and the client (its ``capabilities.extensions``)
    declare, with the client's settings of each; an entry that is not an object is no
    declaration."""
    offered = client_capabilities.get("extensions")
    if not isinstance(offered, dict) or not server:
        return {}
    return {
        name: settings
        for name, settings in offered.items()
        if name in server and isinstance(settings, dict)
    }


def _settings(name: str, settings: object) -> dict[str, Any]:
    """A copy of an extension's settings; TypeError unless they are a JSON object."""
    problem = f"the settings of extension {name!r} must be a JSON object ({{}} for none)"
    if not isinstance(settings, Mapping) or not all(isinstance(key, str) for key in settings):
        raise TypeError(f"{problem}, not {settings!r}")
    try:
        copy: dict[str, Any] = json.loads(json.dumps(dict(settings), allow_nan=False))
    except (TypeError, ValueError) as error:
        raise TypeError(f"{problem}: {error}") from None
    return copy
