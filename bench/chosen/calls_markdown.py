"""The calls of ``markdown`` (Python-Markdown, rank 302, third walk).

Written from Python-Markdown's documentation ("Using Markdown as a Python Library",
python-markdown.github.io/library/: ``markdown.markdown`` with ``extensions``,
``extension_configs``, ``output_format`` and ``tab_length``; the "Tables" and "Table of
Contents" extensions' pages), each answer computed by calling Python-Markdown itself (the
HTML text ``markdown`` gives). ``markdownFromFile`` reads and writes files and the
``Markdown`` class is the parser behind ``markdown``: the docs lead with ``markdown``.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

TABLE = "| Name | Born |\n| ---- | ---- |\n| Ada | 1815 |\n| Alan | 1912 |"
HEADINGS = "# Introduction\n\nSome text.\n\n## Usage\n\nMore text."
NESTED = "- fruit\n  - apple\n  - pear\n- vegetable"
BREAK = "first line  \nsecond line"


def _markdown(text: str, **options: Any) -> str:
    html: str = importlib.import_module("markdown").markdown(text, **options)
    return html


TARGETS: tuple[Target, ...] = (
    Target(
        "markdown",
        (
            Call(
                "markdown",
                {"text": "Some **Markdown** text."},
                lambda: _markdown("Some **Markdown** text."),
            ),
            Call(
                "markdown",
                {"text": TABLE, "extensions": ["tables"]},
                lambda: _markdown(TABLE, extensions=["tables"]),
            ),
            Call(
                "markdown",
                {
                    "text": HEADINGS,
                    "extensions": ["toc"],
                    "extension_configs": {"toc": {"permalink": True}},
                },
                lambda: _markdown(
                    HEADINGS, extensions=["toc"], extension_configs={"toc": {"permalink": True}}
                ),
            ),
            Call(
                "markdown",
                {"text": NESTED, "tab_length": 2},
                lambda: _markdown(NESTED, tab_length=2),
            ),
            Call(
                "markdown",
                {"text": BREAK, "output_format": "html"},
                lambda: _markdown(BREAK, output_format="html"),
            ),
        ),
    ),
)
