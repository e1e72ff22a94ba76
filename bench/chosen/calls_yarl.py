"""The calls of ``yarl`` (rank 52, held-out).

Written from yarl's documentation (the "Public API" page: ``URL.build`` and its
"Creating URLs" examples), each answer computed by calling yarl itself; a ``URL`` has no JSON
form: its text (``str``). The target is ``yarl:URL``, which objmcp can only make with no
arguments (``URL('')``): the documented way to make a URL from parts, the ``build`` class
method, is what a model calls on it.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _build(**parts: Any) -> str:
    return str(importlib.import_module("yarl").URL.build(**parts))


API = {
    "scheme": "https",
    "host": "example.com",
    "port": 8080,
    "path": "/api/items",
    "query": {"page": 2, "q": "shoes"},
}
SEARCH = {"scheme": "https", "host": "example.com", "path": "/search", "query": [["q", "a b"]]}
LOGIN = {
    "scheme": "ftp",
    "user": "alice",
    "password": "s3cret",
    "host": "files.example.org",
    "path": "/pub/data.csv",
}
DOCS = {"scheme": "http", "host": "docs.example.org", "path": "/guide", "fragment": "install"}

TARGETS: tuple[Target, ...] = (
    Target(
        "yarl:URL",
        (
            Call("build", API, lambda: _build(**API)),
            Call(
                "build",
                SEARCH,
                lambda: _build(**{**SEARCH, "query": [("q", "a b")]}),
            ),
            Call("build", LOGIN, lambda: _build(**LOGIN)),
            Call("build", DOCS, lambda: _build(**DOCS)),
        ),
    ),
)
