"""The calls of ``wcwidth`` (rank 132, held-out).

Written from wcwidth's documentation (its README and API page: ``wcwidth``, ``wcswidth``,
``width``, and the ``ljust``/``center``/``wrap``/``clip`` text helpers), each answer computed by
calling wcwidth itself.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

JAPANESE = "コンニチハ"


def _wcwidth() -> Any:
    return importlib.import_module("wcwidth")


TARGETS: tuple[Target, ...] = (
    Target(
        "wcwidth",
        (
            Call("wcwidth", {"wc": "コ"}, lambda: _wcwidth().wcwidth("コ")),
            Call("wcswidth", {"pwcs": JAPANESE}, lambda: _wcwidth().wcswidth(JAPANESE)),
            Call("wcswidth", {"pwcs": JAPANESE, "n": 3}, lambda: _wcwidth().wcswidth(JAPANESE, 3)),
            Call(
                "width",
                {"text": "\x1b[31mred\x1b[0m"},
                lambda: _wcwidth().width("\x1b[31mred\x1b[0m"),
            ),
            Call(
                "ljust",
                {"text": "日本", "dest_width": 8, "fillchar": "."},
                lambda: _wcwidth().ljust("日本", 8, fillchar="."),
            ),
            Call(
                "wrap",
                {"text": "日本語のテキストを折り返す", "width": 10},
                lambda: _wcwidth().wrap("日本語のテキストを折り返す", width=10),
            ),
        ),
    ),
)
