"""The calls of ``linkify-it-py`` (rank 355, held-out, third walk).

Written from linkify-it-py's documentation (its README on PyPI, "Usage examples": "Example 1.
Simple use", ``LinkifyIt().test("Site github.com!")`` and ``match`` of the same text; "Example
2. With options": ``.tlds("onion", True)``, ``.add("git:", "http:")``, ``.set({"fuzzy_ip":
True})``, then ``test`` and ``match`` of "Site tamanegi.onion!"; and the method docstrings of
``LinkifyIt``: ``pretest``, ``test_schema_at(text, name, position)``, ``match_at_start``,
``tlds(list_tlds, keep_old=False)`` with a list of TLDs), each answer computed by calling
linkify-it-py itself.

The calls run in order on one served ``LinkifyIt()``: ``tlds``, ``set`` and ``add`` change
what the calls after them match, and answer with the linkifier itself (for chaining; its text
holds its address), so their own answer is not looked at (``UNCHECKED``). ``_replay`` makes the
same calls on a linkifier of its own to compute each answer. A ``Match`` has no JSON form; the
README shows it as ``Match({...})`` around its attributes, so its answer is that mapping
(``schema``, ``index``, ``last_index``, ``raw``, ``text``, ``url``), a form the writer gave it;
``match`` gives ``None`` (null) when nothing matches.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]

CHAINED = ("tlds", "set", "add")

STEPS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("test", {"text": "Site github.com!"}),
    ("match", {"text": "Site github.com!"}),
    ("pretest", {"text": "Visit https://example.com"}),
    ("test_schema_at", {"text": "Visit https://example.com", "name": "https:", "position": 12}),
    ("test", {"text": "Site tamanegi.onion!"}),
    ("tlds", {"list_tlds": ["onion", "local"], "keep_old": True}),
    ("test", {"text": "Site tamanegi.onion!"}),
    ("match", {"text": "Server at 192.168.0.1:8080/status"}),
    ("set", {"options": {"fuzzy_ip": True}}),
    ("match", {"text": "Server at 192.168.0.1:8080/status"}),
    ("match_at_start", {"text": "https://example.com/page is here"}),
    ("add", {"schema": "git:", "definition": "http:"}),
    ("match", {"text": "Clone git://github.com/tsutsu3/linkify-it-py.git"}),
)


def _json(value: Any) -> Any:
    if isinstance(value, list):
        return [_json(item) for item in value]
    if type(value).__name__ == "Match":
        return dict(vars(value))
    return value


def _replay(count: int) -> Any:
    """The answer of the ``count``-th step, after the steps before it, on a linkifier of its
    own."""
    linkify = importlib.import_module("linkify_it").LinkifyIt()
    answer: Any = None
    for tool, arguments in STEPS[:count]:
        answer = getattr(linkify, tool)(**arguments)
    return _json(answer)


def _step(index: int) -> Call:
    tool, arguments = STEPS[index]
    if tool in CHAINED:
        return Call(tool, arguments, lambda: UNCHECKED)
    return Call(tool, arguments, lambda: _replay(index + 1))


TARGETS: tuple[Target, ...] = (
    Target("linkify_it:LinkifyIt", tuple(_step(index) for index in range(len(STEPS)))),
)
