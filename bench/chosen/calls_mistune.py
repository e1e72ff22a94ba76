"""The calls of ``mistune`` (rank 395, tuning, third walk).

Written from mistune's documentation (its README on PyPI, "Overview"; mistune.lepture.com's
"How to Use Mistune" guide (docs/guide.rst): ``mistune.html(YOUR_MARKDOWN_TEXT)``, with the
strikethrough, table and footnotes plugins; ``create_markdown(escape=False)``,
``plugins=['strikethrough']``; the "Upgrade Guide": ``renderer='ast'`` for the syntax tree;
the module's ``markdown(text, escape=True, renderer="html", plugins=None)`` and ``escape``),
each answer computed by calling mistune itself: HTML as its text, the syntax tree as its list of
token objects.

The target is the walk's, the module ``mistune``. ``html``, the guide's first call, is a
``Markdown`` instance the module defines, called with its ``__call__(s)``: its tool is its
name in the module, ``html``. ``create_markdown`` answers a ``Markdown`` object whose text is
its address, so the calls reach its options through ``markdown``, which takes the same ones.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

DOC = "# Release notes\n\nThis is **bold**, *italic* and `code`.\n\n- one\n- two\n"
TABLE = "| name | qty |\n| ---- | --: |\n| pear | 3 |\n\n~~old~~ new\n"
NOTES = "Markdown[^1] is light.\n\n[^1]: A markup language.\n"
RAW = '<div class="note">hello</div>\n\nA <b>raw</b> tag.'


def _mistune() -> Any:
    return importlib.import_module("mistune")


TARGETS: tuple[Target, ...] = (
    Target(
        "mistune",
        (
            Call("html", {"s": TABLE}, lambda: _mistune().html(TABLE)),
            Call("markdown", {"text": DOC}, lambda: _mistune().markdown(DOC)),
            Call(
                "markdown",
                {"text": DOC, "renderer": "ast"},
                lambda: expected_json(_mistune().markdown(DOC, renderer="ast")),
            ),
            Call(
                "markdown",
                {"text": TABLE, "plugins": ["table", "strikethrough"]},
                lambda: _mistune().markdown(TABLE, plugins=["table", "strikethrough"]),
            ),
            Call(
                "markdown",
                {"text": NOTES, "escape": False, "plugins": ["footnotes"]},
                lambda: _mistune().markdown(NOTES, escape=False, plugins=["footnotes"]),
            ),
            Call("markdown", {"text": RAW}, lambda: _mistune().markdown(RAW)),
            Call(
                "escape",
                {"s": '<a href="x">Tom & Jerry</a>'},
                lambda: _mistune().escape('<a href="x">Tom & Jerry</a>'),
            ),
        ),
    ),
)
