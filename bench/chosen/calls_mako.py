"""The calls of ``mako`` (rank 210, tuning, second walk).

Written from Mako's documentation (the "Usage" page: ``Template("hello, ${name}!")`` then
``render(name="jack")``; the "Filtering and Buffering" page: the built-in escape functions of
``mako.filters`` behind the ``h``, ``x``, ``u``, ``entity`` and ``trim`` expression filters),
each answer computed by calling mako itself (a ``Markup`` as its text).

The walk's target, ``mako.template``, holds classes only, and the one its docs lead with,
``Template``, **evaluates code**: Mako is "embedded Python", and a template's module-level
block (``<%! ... %>``) runs as Python when the ``Template`` is made, before any ``render``. So
``Template`` is withheld there, and ``mako.template`` gets no call (its other classes take a
compiled module, a template or a parent object, which JSON cannot carry; ``render`` is a
method of a ``Template``, out of reach of a tool of the module, and ``mako.template:Template``
cannot be made with no argument). The calls go to a target beyond the walk's,
``mako.filters``: the escape functions the docs document, which take a string each: no number,
list or mapping parameter exists there to send.
"""

from __future__ import annotations

import importlib

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

LINK = '<a href="/?q=1&r=2">Tom\'s</a>'
NOTE = '<note to="Tove">Don\'t & forget</note>'
QUERY = "café au lait & more/é"
ACCENTED = "café © 2024 → ok"
ENTITIES = "caf&eacute; &copy; &#8364;"
PADDED = "  padded  \n"


def _filter(name: str, text: str) -> str:
    return str(getattr(importlib.import_module("mako.filters"), name)(text))


TARGETS: tuple[Target, ...] = (
    Target("mako.template", (), withheld=("Template",)),
    Target(
        "mako.filters",
        (
            Call("html_escape", {"s": LINK}, lambda: _filter("html_escape", LINK)),
            Call("xml_escape", {"string": NOTE}, lambda: _filter("xml_escape", NOTE)),
            Call("url_escape", {"string": QUERY}, lambda: _filter("url_escape", QUERY)),
            Call(
                "html_entities_escape",
                {"text": ACCENTED},
                lambda: _filter("html_entities_escape", ACCENTED),
            ),
            Call(
                "html_entities_unescape",
                {"text": ENTITIES},
                lambda: _filter("html_entities_unescape", ENTITIES),
            ),
            Call("trim", {"string": PADDED}, lambda: _filter("trim", PADDED)),
        ),
    ),
)
