"""The calls of ``packaging`` (rank 2, held-out), the example of a chosen library's calls module.

Written from packaging's documentation (the "Version Handling", "Utilities" and "Tags" pages),
each answer computed by calling packaging itself, in JSON's terms (a ``Version`` or a ``Tag`` as
its text, a tuple as a list). A chosen library's module defines ``TARGETS`` with the shapes of
``bench/zoo_cases.py``; bench scripts put ``bench/`` on ``sys.path`` before importing it.

``packaging.tags`` is a target beyond the walk's two: the "Tags" page's functions take a Python
version as a list of integers and lists of ABIs and platforms, the numbers and lists a model
sends to packaging.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _m(name: str) -> Any:
    return importlib.import_module(name)


def _sdist(filename: str) -> list[str]:
    name, version = _m("packaging.utils").parse_sdist_filename(filename)
    return [str(name), str(version)]


def _wheel(filename: str) -> list[Any]:
    name, version, build, tags = _m("packaging.utils").parse_wheel_filename(filename)
    return [str(name), str(version), list(build), sorted(str(tag) for tag in tags)]


def _tags(function: str, **arguments: Any) -> list[str]:
    return [str(tag) for tag in getattr(_m("packaging.tags"), function)(**arguments)]


TARGETS: tuple[Target, ...] = (
    Target(
        "packaging.version",
        (
            Call(
                "parse",
                {"version": "1.0.0rc1"},
                lambda: str(_m("packaging.version").parse("1.0.0rc1")),
            ),
            Call(
                "parse",
                {"version": "2024.01.05.post1"},
                lambda: str(_m("packaging.version").parse("2024.01.05.post1")),
            ),
        ),
    ),
    Target(
        "packaging.utils",
        (
            Call(
                "canonicalize_name",
                {"name": "Foo.Bar_baz"},
                lambda: _m("packaging.utils").canonicalize_name("Foo.Bar_baz"),
            ),
            Call(
                "canonicalize_version",
                {"version": "1.4.0.0", "strip_trailing_zero": False},
                lambda: _m("packaging.utils").canonicalize_version(
                    "1.4.0.0", strip_trailing_zero=False
                ),
            ),
            Call(
                "parse_sdist_filename",
                {"filename": "foo_bar-1.0.tar.gz"},
                lambda: _sdist("foo_bar-1.0.tar.gz"),
            ),
            Call(
                "parse_wheel_filename",
                {"filename": "foo_bar-1.0-py3-none-any.whl"},
                lambda: _wheel("foo_bar-1.0-py3-none-any.whl"),
            ),
        ),
    ),
    Target(
        "packaging.tags",
        (
            Call(
                "cpython_tags",
                {
                    "python_version": [3, 11],
                    "abis": ["cp311"],
                    "platforms": ["manylinux_2_17_x86_64"],
                },
                lambda: _tags(
                    "cpython_tags",
                    python_version=(3, 11),
                    abis=["cp311"],
                    platforms=["manylinux_2_17_x86_64"],
                ),
            ),
            Call(
                "compatible_tags",
                {"python_version": [3, 12], "interpreter": "cp312", "platforms": ["win_amd64"]},
                lambda: _tags(
                    "compatible_tags",
                    python_version=(3, 12),
                    interpreter="cp312",
                    platforms=["win_amd64"],
                ),
            ),
            Call(
                "generic_tags",
                {"interpreter": "pp310", "abis": ["pypy310_pp73"], "platforms": ["linux_x86_64"]},
                lambda: _tags(
                    "generic_tags",
                    interpreter="pp310",
                    abis=["pypy310_pp73"],
                    platforms=["linux_x86_64"],
                ),
            ),
        ),
    ),
)
