"""The calls of ``multidict`` (rank 54, held-out).

Written from multidict's documentation (the "Reference" page, ``MultiDict``: ``add``,
``getall``, ``getone``, ``get``, ``extend``, ``popall``; an empty ``MultiDict()`` needs no
arguments), each answer computed by calling multidict itself, in JSON's terms. The calls are
made in order on one served instance: ``add`` and ``extend`` change it (``UNCHECKED``), the
later calls read it.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]


def _filled() -> Any:
    """The instance after the changing calls below."""
    headers = importlib.import_module("multidict").MultiDict()
    headers.add("tag", 1)
    headers.add("tag", 2)
    headers.extend([("size", 10), ("tag", 3)])
    return headers


TARGETS: tuple[Target, ...] = (
    Target(
        "multidict:MultiDict",
        (
            Call("add", {"key": "tag", "value": 1}, lambda: UNCHECKED),
            Call("add", {"key": "tag", "value": 2}, lambda: UNCHECKED),
            Call("extend", {"arg": [["size", 10], ["tag", 3]]}, lambda: UNCHECKED),
            Call("getall", {"key": "tag"}, lambda: _filled().getall("tag")),
            Call("getone", {"key": "size"}, lambda: _filled().getone("size")),
            Call("get", {"key": "color", "default": 0}, lambda: _filled().get("color", 0)),
            Call("popall", {"key": "tag"}, lambda: _filled().popall("tag")),
        ),
    ),
)
