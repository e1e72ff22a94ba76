"""The calls of ``fonttools`` (rank 165, held-out).

Written from fontTools' documentation (the "agl" page: ``toUnicode(glyph, isZapfDingbats)``,
glyph names to text, ``'longs_t.oldstyle'`` to a long s and a t; the "ttLib" page's
``TTFont``: ``setGlyphOrder``, ``getGlyphOrder``, ``getGlyphID``, ``getGlyphName``,
``getGlyphNameMany``, ``getGlyphIDMany``), each answer computed by calling fontTools itself.

The served ``TTFont()`` is an empty font (made with no file): the calls give it a glyph order,
then ask about it, in order; ``setGlyphOrder``'s own answer (None) is not looked at. ``save``
and ``saveXML`` write files wherever they are told: withheld.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]

GLYPHS = [".notdef", "A", "B", "C"]


def _to_unicode(glyph: str, zapf_dingbats: bool = False) -> Any:
    return importlib.import_module("fontTools.agl").toUnicode(glyph, zapf_dingbats)


def _font() -> Any:
    font = importlib.import_module("fontTools.ttLib").TTFont()
    font.setGlyphOrder(list(GLYPHS))
    return font


TARGETS: tuple[Target, ...] = (
    Target(
        "fontTools.agl",
        (
            Call(
                "toUnicode",
                {"glyph": "longs_t.oldstyle"},
                lambda: _to_unicode("longs_t.oldstyle"),
            ),
            Call("toUnicode", {"glyph": "uni20AC"}, lambda: _to_unicode("uni20AC")),
            Call(
                "toUnicode",
                {"glyph": "a4", "isZapfDingbats": True},
                lambda: _to_unicode("a4", True),
            ),
        ),
    ),
    Target(
        "fontTools.ttLib:TTFont",
        (
            Call("setGlyphOrder", {"glyphOrder": GLYPHS}, lambda: UNCHECKED),
            Call("getGlyphOrder", {}, lambda: _font().getGlyphOrder()),
            Call("getGlyphID", {"glyphName": "B"}, lambda: _font().getGlyphID("B")),
            Call("getGlyphName", {"glyphID": 3}, lambda: _font().getGlyphName(3)),
            Call(
                "getGlyphNameMany",
                {"lst": [0, 2]},
                lambda: _font().getGlyphNameMany([0, 2]),
            ),
            Call(
                "getGlyphIDMany",
                {"lst": ["C", "A"]},
                lambda: _font().getGlyphIDMany(["C", "A"]),
            ),
        ),
        withheld=("save", "saveXML"),
    ),
)
