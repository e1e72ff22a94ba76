"""The calls of ``defusedxml`` (rank 202, tuning, second walk).

Written from defusedxml's documentation (its README on PyPI: "defusedxml.ElementTree" with
``parse``, ``iterparse``, ``fromstring`` and ``XML`` as drop-in replacements of the standard
library's, and the table of the ``forbid_dtd``, ``forbid_entities`` and ``forbid_external``
arguments), each answer computed by calling ``defusedxml.ElementTree`` itself. An element has no
JSON form and its ``str()`` holds a memory address: it is said as its documented serialisation,
``xml.etree.ElementTree.tostring(element, encoding="unicode")`` (the module's own ``tostring``).

The target is the walk's, ``defusedxml.ElementTree``. Its functions take XML text, a file
(``parse``, ``iterparse``) and the ``forbid_*`` flags: no number, list or mapping parameter
exists to send but ``iterparse``'s ``events``, whose source must be a file, which no call of the
target makes; ``tostring`` takes an element, which JSON cannot carry. So these calls send text
and flags only (one with ``forbid_entities`` off, the README's way to allow an entity). A
refused document (the README's "billion laughs") answers only with an error: not called.
"""

from __future__ import annotations

import importlib

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

FRUIT = "<root><item id='1'>apple</item><item id='2'>pear</item></root>"
ATOM = '<feed xmlns="http://www.w3.org/2005/Atom"><title>News</title></feed>'
ENTITY = '<!DOCTYPE r [<!ENTITY who "World">]><r>Hello &who;</r>'
DTD = "<!DOCTYPE note [<!ELEMENT note (#PCDATA)>]><note>hi</note>"


def _parsed(function: str, text: str, **flags: bool) -> str:
    element = getattr(importlib.import_module("defusedxml.ElementTree"), function)(text, **flags)
    serialised: str = importlib.import_module("xml.etree.ElementTree").tostring(
        element, encoding="unicode"
    )
    return serialised


TARGETS: tuple[Target, ...] = (
    Target(
        "defusedxml.ElementTree",
        (
            Call("fromstring", {"text": FRUIT}, lambda: _parsed("fromstring", FRUIT)),
            Call("XML", {"text": ATOM}, lambda: _parsed("XML", ATOM)),
            Call(
                "fromstring",
                {"text": ENTITY, "forbid_entities": False},
                lambda: _parsed("fromstring", ENTITY, forbid_entities=False),
            ),
            Call(
                "fromstring",
                {"text": DTD, "forbid_dtd": False},
                lambda: _parsed("fromstring", DTD, forbid_dtd=False),
            ),
        ),
    ),
)
