"""The calls of ``beautifulsoup4`` (rank 103, tuning), import name ``bs4``.

Written from Beautiful Soup's documentation ("Modifying the tree": ``new_tag``, ``append``,
``insert``; "Searching the tree": ``find_all``; "Output": ``get_text`` and ``decode``), each
answer computed by calling Beautiful Soup itself, in JSON's terms (a tag or string as its
``str``, the markup). The target is the class made with no arguments, an empty document: the
documented first step, ``BeautifulSoup(markup, "html.parser")``, takes the markup in the
constructor, which a class target cannot be given, so the calls build a document instead. The
calls change one document in order, so each answer replays the calls before it.

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``clear``
(``decompose``), ``copy_self`` and ``decode_contents`` (``indent_level``), the first three
methods in ``dir()`` order after those called (``childGenerator`` is deprecated), on the same
document, in order.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

STEPS: tuple[Callable[[Any], Any], ...] = (
    lambda soup: str(soup.new_tag("a", attrs={"href": "https://example.com"}, string="Example")),
    lambda soup: str(soup.append("Hello, world")),
    lambda soup: expected_json([str(part) for part in soup.insert(0, "Title: ")]),
    lambda soup: soup.get_text(separator="|"),
    lambda soup: [str(found) for found in soup.find_all(string="Hello, world")],
    lambda soup: soup.decode(),
    lambda soup: soup.clear(decompose=True),
    lambda soup: str(soup.copy_self()),
    lambda soup: soup.decode_contents(indent_level=2),
)


def _replay(count: int) -> Any:
    """The answer of the last of the first ``count`` calls, made on a fresh empty soup."""
    soup = importlib.import_module("bs4").BeautifulSoup()
    answer: Any = None
    for step in STEPS[:count]:
        answer = step(soup)
    return answer


TARGETS: tuple[Target, ...] = (
    Target(
        "bs4:BeautifulSoup",
        (
            Call(
                "new_tag",
                {"name": "a", "attrs": {"href": "https://example.com"}, "string": "Example"},
                lambda: _replay(1),
            ),
            Call("append", {"tag": "Hello, world"}, lambda: _replay(2)),
            Call("insert", {"position": 0, "new_children": ["Title: "]}, lambda: _replay(3)),
            Call("get_text", {"separator": "|"}, lambda: _replay(4)),
            Call("find_all", {"string": "Hello, world"}, lambda: _replay(5)),
            Call("decode", {}, lambda: _replay(6)),
            Call("clear", {"decompose": True}, lambda: _replay(7)),
            Call("copy_self", {}, lambda: _replay(8)),
            Call("decode_contents", {"indent_level": 2}, lambda: _replay(9)),
        ),
    ),
)
