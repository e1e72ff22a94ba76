"""The calls of ``lxml`` (rank 102, held-out).

Written from lxml's documentation (the "The lxml.etree Tutorial" page: parsing from strings with
``fromstring`` and ``XML``; the "API reference" of ``lxml.etree``: ``canonicalize``, C14N 2.0
with its ``with_comments``, ``exclude_attrs`` and ``exclude_tags`` options), each answer
computed by calling lxml itself. An element has no JSON form, and its ``str()`` holds a memory
address: it is said as its documented serialisation, ``tostring(element, encoding="unicode")``.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

FRUIT = "<root><item id='1'>apple</item><item id='2'>pear</item></root>"
NESTED = "<a><b>1</b><c/></a>"
NOTE = '<root b="2"  a="1"><!-- note --><x>text</x><y/></root>'


def _etree() -> Any:
    return importlib.import_module("lxml.etree")


def _parsed(function: str, text: str) -> str:
    return str(_etree().tostring(getattr(_etree(), function)(text), encoding="unicode"))


TARGETS: tuple[Target, ...] = (
    Target(
        "lxml.etree",
        (
            Call("fromstring", {"text": FRUIT}, lambda: _parsed("fromstring", FRUIT)),
            Call("XML", {"text": NESTED}, lambda: _parsed("XML", NESTED)),
            Call("canonicalize", {"xml_data": NOTE}, lambda: _etree().canonicalize(NOTE)),
            Call(
                "canonicalize",
                {"xml_data": NOTE, "with_comments": True, "exclude_attrs": ["b"]},
                lambda: _etree().canonicalize(NOTE, with_comments=True, exclude_attrs=["b"]),
            ),
            Call(
                "canonicalize",
                {"xml_data": NOTE, "exclude_tags": ["x"]},
                lambda: _etree().canonicalize(NOTE, exclude_tags=["x"]),
            ),
        ),
    ),
)
