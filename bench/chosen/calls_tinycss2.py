"""The calls of ``tinycss2`` (rank 326, held-out, third walk).

Written from tinycss2's documentation (doc.courtbouillon.org/tinycss2: "First Steps", "CSS
Parsing": ``parse_stylesheet('body div { width: 50% }')``; "Common Use Cases": parsing
stylesheets with ``skip_comments`` and ``skip_whitespace``, ``parse_stylesheet_bytes`` for CSS
read as bytes, parsing declarations; the "API Reference": ``parse_declaration_list``,
``parse_one_declaration``, ``serialize_identifier`` and the "Color" section, whose newest
module, ``tinycss2.color5``, is in the stable docs' index), each answer computed by calling
tinycss2 itself.

A node (``QualifiedRule``, ``Declaration`` ...) has no JSON form and its ``str`` is its
``repr``, which elides its content (``<QualifiedRule … { … }>``): its answer is its documented
text form, ``Node.serialize()`` ("Serialize this node to CSS syntax"). A ``Color`` has its
``str``, CSS text (``color(srgb 0.0 0.0 0.0 / 1.0)``); the encoding ``parse_stylesheet_bytes``
gives beside its rules, its ``str`` (``<Encoding utf-8>``); the pair as a list.

``tinycss2.color5`` is a target beyond the walk's: the module target ``tinycss2`` does not
reach the documented colour parsing. tinycss2's API takes CSS text and flags (``serialize``
takes nodes, which a model cannot send): its only non-string parameter a model sends is
``parse_color``'s ``color_schemes`` (a list), so one call has one.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

SHEET = "/* main */ body div { width: 50% } p { color: red }"
DECLARATIONS = "color: red; margin: 0 auto !important"
MARGIN = "margin: 0 auto !important"
BYTES = '@charset "utf-8"; h1 { font-weight: bold }'
LIGHT_DARK = "light-dark(white, black)"


def _m(name: str) -> Any:
    return importlib.import_module(name)


def _texts(nodes: Any) -> list[str]:
    return [node.serialize() for node in nodes]


def _from_bytes(css: str) -> list[Any]:
    rules, encoding = _m("tinycss2").parse_stylesheet_bytes(
        css.encode("utf-8"), skip_whitespace=True
    )
    return [_texts(rules), str(encoding)]


TARGETS: tuple[Target, ...] = (
    Target(
        "tinycss2",
        (
            Call(
                "parse_stylesheet",
                {"input": SHEET, "skip_comments": True, "skip_whitespace": True},
                lambda: _texts(
                    _m("tinycss2").parse_stylesheet(SHEET, skip_comments=True, skip_whitespace=True)
                ),
            ),
            Call(
                "parse_declaration_list",
                {"input": DECLARATIONS, "skip_whitespace": True},
                lambda: _texts(
                    _m("tinycss2").parse_declaration_list(DECLARATIONS, skip_whitespace=True)
                ),
            ),
            Call(
                "parse_one_declaration",
                {"input": MARGIN},
                lambda: _m("tinycss2").parse_one_declaration(MARGIN).serialize(),
            ),
            Call(
                "serialize_identifier",
                {"value": "1st-item"},
                lambda: _m("tinycss2").serialize_identifier("1st-item"),
            ),
            Call(
                "parse_stylesheet_bytes",
                {"css_bytes": BYTES, "skip_whitespace": True},
                lambda: _from_bytes(BYTES),
            ),
        ),
    ),
    Target(
        "tinycss2.color5",
        (
            Call(
                "parse_color",
                {"input": "hsl(120, 100%, 50%)"},
                lambda: str(_m("tinycss2.color5").parse_color("hsl(120, 100%, 50%)")),
            ),
            Call(
                "parse_color",
                {"input": LIGHT_DARK, "color_schemes": ["dark"]},
                lambda: str(_m("tinycss2.color5").parse_color(LIGHT_DARK, color_schemes=["dark"])),
            ),
        ),
    ),
)
