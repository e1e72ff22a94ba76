"""The calls of ``jsonpointer`` (rank 217, held-out, second walk).

Written from jsonpointer's documentation (python-json-pointer.readthedocs.io: the "Tutorial"
page, ``resolve_pointer`` as a deep get with and without a default, ``set_pointer`` with
``inplace=False``, the ``JsonPointer`` class wrapping a path; "The jsonpointer module" page:
``set_pointer``'s ``create=True`` example; ``escape``, of the module's public API, which its
type stubs list), each answer computed by calling jsonpointer itself.
The documents (objects) and the values set (a number) are the non-string values.

A ``JsonPointer`` has no JSON form: it is said as its documented text form, its ``path`` (which
is also its ``str()``). ``pairwise`` is left out: it is deprecated ("Use itertools.pairwise()
instead").
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

OBJ: dict[str, Any] = {"foo": {"anArray": [{"prop": 44}], "another prop": {"baz": "A string"}}}
"""The tutorial's document."""


def _jp() -> Any:
    return importlib.import_module("jsonpointer")


def _obj() -> dict[str, Any]:
    """A fresh copy of the tutorial's document (``set_pointer`` may change what it is given)."""
    return {"foo": {"anArray": [{"prop": 44}], "another prop": {"baz": "A string"}}}


TARGETS: tuple[Target, ...] = (
    Target(
        "jsonpointer",
        (
            Call(
                "resolve_pointer",
                {"doc": OBJ, "pointer": "/foo/anArray/0"},
                lambda: _jp().resolve_pointer(_obj(), "/foo/anArray/0"),
            ),
            Call(
                "resolve_pointer",
                {"doc": OBJ, "pointer": "/foo/another prop/baz"},
                lambda: _jp().resolve_pointer(_obj(), "/foo/another prop/baz"),
            ),
            Call(
                "resolve_pointer",
                {"doc": OBJ, "pointer": "/some/path", "default": None},
                lambda: _jp().resolve_pointer(_obj(), "/some/path", None),
            ),
            Call(
                "set_pointer",
                {"doc": OBJ, "pointer": "/foo/anArray/0/prop", "value": 55, "inplace": False},
                lambda: _jp().set_pointer(_obj(), "/foo/anArray/0/prop", 55, inplace=False),
            ),
            Call(
                "set_pointer",
                {"doc": {}, "pointer": "/cat/name", "value": "whiskers", "create": True},
                lambda: _jp().set_pointer({}, "/cat/name", "whiskers", create=True),
            ),
            Call("JsonPointer", {"pointer": "/foo/1"}, lambda: _jp().JsonPointer("/foo/1").path),
            Call("escape", {"s": "a/b~c"}, lambda: _jp().escape("a/b~c")),
        ),
    ),
)
