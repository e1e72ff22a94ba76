"""How many values a JSON text holds, told from its text before it is parsed.

Parsing is what a message costs: each array item and object member becomes a Python
object (``[{},{},…]`` takes some 90 bytes a value, and the parser holds the GIL
throughout), so a server that serves many clients counts a large text's values first
and refuses one with too many, unparsed: a request's body, and an argument sent as JSON
text. :func:`values_over` counts the commas and opening brackets (C speed, every
character read once); only when that is over the limit are the strings taken out,
whose commas and brackets are text, not values, and the empty arrays and objects,
whose opening bracket starts none.
"""

from __future__ import annotations

import re

__all__ = ["DEFAULT_MAX_VALUES", "SMALL", "count_values", "small", "values_over"]

DEFAULT_MAX_VALUES = 2_000_000
"""JSON values (array items, object members, and the whole) one text may hold."""

_STRING = re.compile(rb'"[^"]*"')
"""A string, once its escaped quotes and backslashes are taken out."""
_EMPTY = re.compile(rb"[\[{][ \t\n\r]*[\]}]")
"""An empty array or object, strings taken out."""
_STRING_TEXT = re.compile(_STRING.pattern.decode())
_EMPTY_TEXT = re.compile(_EMPTY.pattern.decode())


def values_over(text: bytes | str, limit: int) -> int | None:
    """How many values ``text`` holds (its array items and object members, and itself),
    when that is over ``limit``; None when it is not. Invalid JSON is counted as if it
    were valid: its parser refuses it afterwards."""
    if _upper_bound(text) <= limit:
        return None
    found = count_values(text)
    return found if found > limit else None


def count_values(text: bytes | str) -> int:
    """How many values the JSON text ``text`` holds: its array items and object members,
    however deep, and itself (what :func:`values_over` counts)."""
    # each string becomes a 0, so that ``[""]`` is not taken for an empty array
    if isinstance(text, bytes):
        bare = _STRING.sub(b"0", text.replace(b"\\\\", b"").replace(b'\\"', b""))
        return _upper_bound(bare) - len(_EMPTY.findall(bare))
    bare_text = _STRING_TEXT.sub("0", text.replace("\\\\", "").replace('\\"', ""))
    return _upper_bound(bare_text) - len(_EMPTY_TEXT.findall(bare_text))


def _upper_bound(text: bytes | str) -> int:
    """Every value but the first follows a comma or an opening bracket."""
    if isinstance(text, bytes):
        return 1 + text.count(b",") + text.count(b"[") + text.count(b"{")
    return 1 + text.count(",") + text.count("[") + text.count("{")


SMALL = 256
"""Values (and strings' 256-character runs) of arguments cheap enough to check on the
event loop: well under a millisecond."""


def small(value: object, budget: int = SMALL) -> bool:
    """Whether ``value`` (JSON as parsed, or its text) holds at most ``budget`` values, a
    string counting one more for each 256 characters it has; looked at no further than
    that budget, so that telling costs no more than checking a small value."""
    left = budget
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, (str, bytes)):
            left -= len(item) >> 8
        elif isinstance(item, dict):
            left -= len(item)
            if left >= 0:
                pending.extend(item.values())
        elif isinstance(item, (list, tuple)):
            left -= len(item)
            if left >= 0:
                pending.extend(item)
        if left < 0:
            return False
    return True
