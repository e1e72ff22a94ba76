"""The calls of ``markdown-it-py`` (rank 48, held-out).

Written from markdown-it-py's documentation (the "Using markdown_it" page: ``MarkdownIt()``,
``render``, ``renderInline``, enabling and disabling rules with ``enable`` and ``disable``; the
API reference of ``MarkdownIt``), each answer computed by calling markdown-it-py itself. The
calls run in order on one served ``MarkdownIt()`` (the "commonmark" preset): ``enable`` and
``disable`` change the rules the calls after them render with, so their own answer (the
parser itself, for chaining) is not looked at.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]

DOCUMENT = "# Title\n\nSome *emphasis* and `code`.\n"
LINK = "**Bold** and [a link](https://example.com)"
TABLE = "| a | b |\n|---|---|\n| 1 | ~~2~~ |\n"
INLINE = "*a* **b** [link](https://example.com)"
ENABLED = ["table", "strikethrough"]
DISABLED = ["emphasis"]


def _parser(enabled: bool = False, disabled: bool = False) -> Any:
    parser = importlib.import_module("markdown_it").MarkdownIt()
    if enabled:
        parser.enable(ENABLED)
    if disabled:
        parser.disable(DISABLED)
    return parser


TARGETS: tuple[Target, ...] = (
    Target(
        "markdown_it:MarkdownIt",
        (
            Call("render", {"src": DOCUMENT}, lambda: _parser().render(DOCUMENT)),
            Call("renderInline", {"src": LINK}, lambda: _parser().renderInline(LINK)),
            Call("enable", {"names": ENABLED}, lambda: UNCHECKED),
            Call("render", {"src": TABLE}, lambda: _parser(enabled=True).render(TABLE)),
            Call("disable", {"names": DISABLED}, lambda: UNCHECKED),
            Call(
                "renderInline",
                {"src": INLINE},
                lambda: _parser(enabled=True, disabled=True).renderInline(INLINE),
            ),
        ),
    ),
)
