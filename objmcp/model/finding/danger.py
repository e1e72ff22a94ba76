"""What is dangerous to hand a model, and what a tool's name says it does.

Serving a whole module or object rarely means handing a model a shell. :func:`danger_of`
says what a callable does that a model should not be handed unasked, as a
:class:`Danger`: its :class:`~.effects.Effect` and the reason the start-up line gives.
It is found, in this order, by

1. the table of effects (:mod:`.effects`), by where the callable is defined: every
   public callable of ``os``, ``shutil``, ``pathlib``, ``io``, ``sys``, ``signal`` and
   ``tempfile``, and the known-dangerous ones of other modules (``subprocess``,
   ``pickle``, ``eval``);
2. the shape of a class: one whose instances hold something open (a file, a socket, a
   process: a context manager, or one with ``close``), or a thread;
3. reading its code (:mod:`.codereading`): ``eval`` or ``exec``, programs started, unsafe
   deserialisation, files deleted or process-wide settings changed, in its own bytecode
   or in the functions of its package it calls.

What is found is withheld (left out of what a target publishes) unless the user names
it (``include=["system"]``, by its exact name, not by a glob; or
``tools={"system": {...}}``), except a change to a process-wide setting on a server no
other caller shares (stdio): that is served, and said (:func:`effects_line`).

:func:`inferred_hints` reads a tool's name for MCP's annotations, as defaults that
the author's own options override: a name that starts with delete, remove, drop,
kill, write, unlink and the like is ``destructiveHint``; get, list, find, is, has
and the like is ``readOnlyHint``.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from ..describe.hints import path_class
from .codereading import read_effect
from .effects import Effect, table_entry

__all__ = [
    "HOLDS",
    "THREADS",
    "Danger",
    "danger_of",
    "effects_line",
    "inferred_hints",
    "withheld_line",
]

logger = logging.getLogger("objmcp")

THREADS = Effect("makes a thread, to be started", destructive=False)
HOLDS = Effect(
    "makes an object that holds something open (a file, a socket, a process), to be closed",
    destructive=False,
)
_THREAD_CLASSES = {("threading", "Thread"), ("threading", "Timer")}


@dataclass(frozen=True)
class Danger:
    """What a callable does that a model should not be handed unasked."""

    effect: Effect
    reason: str
    """Why, as the start-up line says it."""


def danger_of(function: object) -> Danger | None:
    """What ``function`` does that a model should not be handed unasked, or None when
    nothing is known or found."""
    classified, effect = table_entry(function)
    if effect is not None:
        return Danger(effect, effect.reason)
    if _is_thread_class(function):
        return Danger(THREADS, THREADS.reason)
    if _holds_something_open(function):
        return Danger(HOLDS, HOLDS.reason)
    if classified:  # the table says it only reads or computes
        return None
    try:
        finding = read_effect(function)
    except Exception:  # code no reading foresaw: nothing found, and said
        logger.debug("could not read the code of %r", function, exc_info=True)
        return None
    return None if finding is None else Danger(finding.effect, finding.reason)


def _is_thread_class(function: object) -> bool:
    return isinstance(function, type) and any(
        (cls.__module__, cls.__qualname__) in _THREAD_CLASSES for cls in function.__mro__
    )


def _holds_something_open(function: object) -> bool:
    """Whether ``function`` is a class whose instances are closed when done with (a
    context manager, or one with ``close``): a file, a socket, an archive, a process, a
    temporary directory. Making one for a model leaves it open, or acts at once (a file
    handler opens its file, a temporary directory is made)."""
    if not isinstance(function, type) or path_class(function):
        return False  # a path's __enter__ (deprecated, gone in 3.13) does nothing
    context = callable(getattr(function, "__enter__", None)) and callable(
        getattr(function, "__exit__", None)
    )
    return context or callable(getattr(function, "close", None))


_DESTRUCTIVE = frozenset(
    {
        *("delete", "remove", "drop", "kill", "write", "unlink", "rmdir", "rmtree"),
        *("destroy", "erase", "purge", "truncate", "terminate", "wipe", "overwrite"),
        *("clear", "reset"),
    }
)
_READ_ONLY = frozenset(
    {
        *("get", "list", "find", "is", "has", "read", "search", "count", "describe"),
        *("show", "lookup", "fetch", "view", "peek", "exists", "contains", "can"),
    }
)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def inferred_hints(name: str) -> tuple[bool | None, bool | None]:
    """What a tool's name says of it, as the options ``(read_only, destructive)``: its
    first word (``delete_note``, ``getName``) names what it does; nothing (None) for
    the rest."""
    words = _WORD.findall(name)
    first = words[0].lower() if words else ""
    if first in _DESTRUCTIVE:
        return False, True
    if first in _READ_ONLY:
        return True, None
    return None, None


def withheld_line(withheld: dict[str, str]) -> str:
    """The start-up line that says which callables were left out, and why."""
    return (
        f"left out {len(withheld)} dangerous callable{'' if len(withheld) == 1 else 's'}, "
        "served only when named "
        f"(include=[...] or --include NAME): {_by_reason(withheld)}"
    )


def effects_line(served: dict[str, str]) -> str:
    """The start-up line that names the tools served although they do something
    dangerous (named by the user, or a process-wide setting on a server no other caller
    shares), and why."""
    return (
        f"serving {len(served)} tool{'' if len(served) == 1 else 's'} "
        f"that may do harm (named, or changing only this one client's process): "
        f"{_by_reason(served)}"
    )


def _by_reason(tools: dict[str, str]) -> str:
    by_reason: dict[str, list[str]] = {}
    for name, reason in tools.items():
        by_reason.setdefault(reason, []).append(name)
    return "; ".join(f"{', '.join(sorted(names))} ({why})" for why, names in by_reason.items())
