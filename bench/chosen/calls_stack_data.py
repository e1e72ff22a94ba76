"""The calls of ``stack-data`` (rank 278, tuning, second walk).

Written from stack_data's documentation (its README on PyPI, the project's only docs: "Basic
usage" for ``Options(before=1, after=0)``; "Rendering lines with ranges and markers" for
``MarkerInLine`` and ``RangeInLine`` with its own values), each answer computed by calling
stack_data itself, in JSON's terms.

The README's main use, ``FrameInfo(frame, options)`` and its ``lines``, ``variables`` and
``Line.render``, starts from a frame or a traceback, which JSON cannot carry; ``Formatter`` and
``Serializer`` can be made with no arguments, but their methods format the serving process's
own current stack or exception, with no fixed answer, or take a frame. So the calls are the
README's classes made from values. ``MarkerInLine`` and ``RangeInLine`` are named tuples: their
answer is the object of their fields, as ``calls_psutil.py`` gives psutil's named tuples.
``Options`` has no JSON form: its text (``str``, its own ``Options(after=0, before=1, ...)``,
no address).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]


def _stack_data() -> Any:
    return importlib.import_module("stack_data")


def _fields(name: str, **arguments: Any) -> Any:
    return expected_json(getattr(_stack_data(), name)(**arguments)._asdict())


TARGETS: tuple[Target, ...] = (
    Target(
        "stack_data",
        (
            Call(
                "Options",
                {"before": 1, "after": 0},
                lambda: str(_stack_data().Options(before=1, after=0)),
            ),
            Call(
                "Options",
                {"before": 2, "after": 2, "include_signature": True, "max_lines_per_piece": 10},
                lambda: str(
                    _stack_data().Options(
                        before=2, after=2, include_signature=True, max_lines_per_piece=10
                    )
                ),
            ),
            Call(
                "MarkerInLine",
                {"position": 6, "is_start": True, "string": "<b>"},
                lambda: _fields("MarkerInLine", position=6, is_start=True, string="<b>"),
            ),
            Call(
                "RangeInLine",
                {"start": 6, "end": 9, "data": "bar"},
                lambda: _fields("RangeInLine", start=6, end=9, data="bar"),
            ),
        ),
    ),
)
