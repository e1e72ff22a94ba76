"""How big a decoded message may be: its nesting depth and its longest string.

:func:`over_limits` walks a message once, without recursion (a message nested
thousands deep is what it must refuse), and names the first place over a
limit by its path in the message (``params.arguments.text``), so that the error
says which argument to fix.
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = [
    "DEFAULT_MAX_CALLS",
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_MAX_STRING",
    "check_limits",
    "check_seconds",
    "over_limits",
    "text_within_limits",
]

DEFAULT_MAX_CALLS = 4096
"""Requests one connection may have running at once (above the 1,000 promised)."""
DEFAULT_MAX_DEPTH = 100
"""Levels of arrays and objects in one message, the message itself counted."""
DEFAULT_MAX_STRING = 32 * 1024 * 1024
"""Characters in one string, keys included (above the 10 MB arguments promised)."""


def over_limits(message: object, max_depth: int, max_string: int) -> str | None:
    """What in ``message`` is over a limit, said for the client; None when nothing is."""
    if isinstance(message, str):
        return _too_long(message, "message", max_string) if len(message) > max_string else None
    if not isinstance(message, (dict, list)):
        return None
    if max_depth < 1:
        return _too_deep([], 1, max_depth)
    if max_depth <= _RECURSION_SAFE and _fits(message, max_depth - 1, max_string):
        return None
    path: list[object] = []  # the keys from the message down to the container being read
    levels: list[Iterator[tuple[object, object]]] = [_members(message)]
    while levels:
        for key, child in levels[-1]:
            if isinstance(key, str) and len(key) > max_string:
                return _too_long(key, f"a key in {_name(path)}", max_string)
            if isinstance(child, str):
                if len(child) > max_string:
                    return _too_long(child, _name([*path, key]), max_string)
            elif isinstance(child, (dict, list)):
                if len(levels) >= max_depth:
                    return _too_deep([*path, key], len(levels) + 1, max_depth)
                path.append(key)
                levels.append(_members(child))
                break
        else:
            levels.pop()
            if path:
                path.pop()
    return None


def text_within_limits(text: bytes, max_depth: int, max_string: int) -> bool:
    """Whether whatever the JSON ``text`` decodes to is within the limits, told from the
    text alone: no string in it is longer than the text (a character takes a byte at
    least), and it nests no deeper than it has opening brackets. A message this vouches
    for is not walked."""
    if len(text) > max_string:
        return False
    if len(text) <= _COUNTED:
        return text.count(b"[") + text.count(b"{") <= max_depth
    return _brackets_at_most(text, max_depth)


_COUNTED = 64 * 1024
"""Up to this many bytes, a text's brackets are counted; in a longer one they are looked
for and no more than ``max_depth + 1`` are found: counting reads every byte (3 ms for 10 MB
here), looking skips to the next bracket (0.2 ms when it is a 10 MB string)."""


def _brackets_at_most(text: bytes, limit: int) -> bool:
    """Whether ``text`` holds no more than ``limit`` of ``[`` and ``{``, together."""
    found = 0
    for bracket in (b"[", b"{"):
        at = text.find(bracket)
        while at >= 0:
            found += 1
            if found > limit:
                return False
            at = text.find(bracket, at + 1)
    return True


_RECURSION_SAFE = 200
"""Up to this ``max_depth``, :func:`_fits` may recurse: the usual message is vouched
for by it, quickly, and only one it refuses is walked to name the place."""


def _fits(container: dict[str, object] | list[object], depth_left: int, max_string: int) -> bool:
    if isinstance(container, dict):
        for key in container:
            if isinstance(key, str) and len(key) > max_string:
                return False
        members: object = container.values()
    else:
        members = container
    for child in members:  # type: ignore[attr-defined]
        if isinstance(child, str):
            if len(child) > max_string:
                return False
        elif isinstance(child, (dict, list)) and (
            depth_left < 1 or not _fits(child, depth_left - 1, max_string)
        ):
            return False
    return True


def _members(container: dict[str, object] | list[object]) -> Iterator[tuple[object, object]]:
    return iter(container.items()) if isinstance(container, dict) else enumerate(container)


def _too_long(text: str, where: str, max_string: int) -> str:
    return (
        f"{where}: a string of {len(text):,} characters is over the limit of "
        f"{max_string:,} (max_string)"
    )


def _too_deep(path: list[object], depth: int, max_depth: int) -> str:
    return (
        f"{_name(path)}: arrays and objects nested {depth} deep are over the limit of "
        f"{max_depth} (max_depth)"
    )


def _name(path: list[object]) -> str:
    name = "message"
    for key in path:
        name += f"[{key}]" if isinstance(key, int) else f".{key}"
    return name


def check_limits(**limits: int) -> None:
    """Raise ValueError for a limit that is not a positive integer (named by its option)."""
    for name, value in limits.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, not {value!r}")


def check_seconds(**durations: float | None) -> None:
    """Raise ValueError for a duration that is neither None nor a positive number."""
    for name, value in durations.items():
        if value is not None and not value > 0:
            raise ValueError(f"{name} must be a positive number of seconds, not {value!r}")
