"""The calls of ``tqdm`` (rank 69, tuning).

Written from tqdm's documentation (the API reference of ``tqdm.tqdm``: its static helpers
``format_meter``, ``format_interval``, ``format_sizeof`` and ``format_num``), each answer
computed by calling tqdm itself. The target is the class, made with no arguments (a bar of
unknown total, on stderr); the bar's own methods (``update``, ``set_description``) change
state no tool reads back, so they are not called.

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``clear``
(``nolock``), ``close`` and ``display`` (``pos``), the first three of the bar's methods in
``dir()`` order, made in order on the served bar and replayed on a bar of its own (they draw on
stderr).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _tqdm() -> Any:
    return importlib.import_module("tqdm").tqdm


def _replay(count: int) -> Any:
    """The answer of the ``count``-th of the bar calls below, after the ones before it."""
    bar = _tqdm()()
    steps = (
        lambda: bar.clear(nolock=True),
        bar.close,
        lambda: bar.display(msg="Downloading", pos=0),
    )
    answer: Any = None
    for step in steps[:count]:
        answer = step()
    return answer


TARGETS: tuple[Target, ...] = (
    Target(
        "tqdm:tqdm",
        (
            Call(
                "format_meter",
                {"n": 50, "total": 200, "elapsed": 12.5, "prefix": "Downloading"},
                lambda: _tqdm().format_meter(50, 200, 12.5, prefix="Downloading"),
            ),
            Call("format_interval", {"t": 3725}, lambda: _tqdm().format_interval(3725)),
            Call(
                "format_sizeof",
                {"num": 123456789, "suffix": "B", "divisor": 1024},
                lambda: _tqdm().format_sizeof(123456789, suffix="B", divisor=1024),
            ),
            Call("format_num", {"n": 0.000123456}, lambda: _tqdm().format_num(0.000123456)),
            Call("clear", {"nolock": True}, lambda: _replay(1)),
            Call("close", {}, lambda: _replay(2)),
            Call("display", {"msg": "Downloading", "pos": 0}, lambda: _replay(3)),
        ),
    ),
)
