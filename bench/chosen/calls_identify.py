"""The calls of ``identify`` (rank 245, held-out, second walk).

Written from identify's documentation (its README on PyPI, "Usage": ``tags_from_path``,
``tags_from_filename`` and ``tags_from_interpreter`` of ``identify.identify``, each giving "a
set of standardized tags"), each answer computed by calling identify itself. A set has no JSON
form and no order of its own (the order of a set of strings changes from one process to the
next), so it is said as its sorted list.

Fewer than two calls with non-string parameters: every function of the API takes a file name,
a path or an interpreter's name (``is_text`` and ``parse_shebang`` take an open binary file,
which JSON cannot carry). ``tags_from_path`` is called on ``/tmp``, the one path whose answer is
fixed here (a directory: ``{'directory'}``); the README's other examples are files of the
reader's own disk. ``license_id`` (the "Identifying LICENSE files" section) reads a file too and
needs the ``license`` extra, so it is not called.
"""

from __future__ import annotations

import importlib

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _tags(function: str, argument: str) -> list[str]:
    tags: set[str] = getattr(importlib.import_module("identify.identify"), function)(argument)
    return sorted(tags)


TARGETS: tuple[Target, ...] = (
    Target(
        "identify.identify",
        (
            Call(
                "tags_from_filename",
                {"path": "setup.py"},
                lambda: _tags("tags_from_filename", "setup.py"),
            ),
            Call(
                "tags_from_filename",
                {"path": "Dockerfile"},
                lambda: _tags("tags_from_filename", "Dockerfile"),
            ),
            Call(
                "tags_from_filename",
                {"path": "photo.JPG"},
                lambda: _tags("tags_from_filename", "photo.JPG"),
            ),
            Call(
                "tags_from_interpreter",
                {"interpreter": "python3.5"},
                lambda: _tags("tags_from_interpreter", "python3.5"),
            ),
            Call(
                "tags_from_interpreter",
                {"interpreter": "bash"},
                lambda: _tags("tags_from_interpreter", "bash"),
            ),
            Call("tags_from_path", {"path": "/tmp"}, lambda: _tags("tags_from_path", "/tmp")),
        ),
    ),
)
