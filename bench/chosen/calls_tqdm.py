"""The calls of ``tqdm`` (rank 69, tuning).

Written from tqdm's documentation (the API reference of ``tqdm.tqdm``: its static helpers
``format_meter``, ``format_interval``, ``format_sizeof`` and ``format_num``), each answer
computed by calling tqdm itself. The target is the class, made with no arguments (a bar of
unknown total, on stderr); the bar's own methods (``update``, ``set_description``) change
state no tool reads back, so they are not called.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _tqdm() -> Any:
    return importlib.import_module("tqdm").tqdm


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
        ),
    ),
)
