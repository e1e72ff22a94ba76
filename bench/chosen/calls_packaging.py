"""The calls of ``packaging`` (rank 2), the example of a chosen library's calls module.

Written from packaging's documentation (the "Utilities" and "Version Handling" pages), each
answer computed by calling packaging itself, in JSON's terms (a ``Version`` as its text, a tuple
as a list). A chosen library's module defines ``TARGETS`` with the shapes of
``bench/zoo_cases.py``; bench scripts put ``bench/`` on ``sys.path`` before importing it.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _utils() -> Any:
    return importlib.import_module("packaging.utils")


def _version() -> Any:
    return importlib.import_module("packaging.version")


def _sdist(filename: str) -> list[str]:
    name, version = _utils().parse_sdist_filename(filename)
    return [str(name), str(version)]


TARGETS: tuple[Target, ...] = (
    Target(
        "packaging.utils",
        (
            Call(
                "canonicalize_name",
                {"name": "Foo.Bar_baz", "validate": True},
                lambda: _utils().canonicalize_name("Foo.Bar_baz", validate=True),
            ),
            Call(
                "canonicalize_version",
                {"version": "1.4.0.0", "strip_trailing_zero": False},
                lambda: _utils().canonicalize_version("1.4.0.0", strip_trailing_zero=False),
            ),
            Call(
                "parse_sdist_filename",
                {"filename": "foo_bar-1.0.tar.gz"},
                lambda: _sdist("foo_bar-1.0.tar.gz"),
            ),
        ),
    ),
    Target(
        "packaging.version",
        (Call("parse", {"version": "1.0.0rc1"}, lambda: str(_version().parse("1.0.0rc1"))),),
    ),
)
