"""A code object's instructions, as the names and arguments the code reading needs, fast.

:func:`instructions` yields each instruction's name and, for those that name something (a
global, an attribute, a local, an import), that name; other arguments are None. It reads
``co_code`` itself, as :mod:`dis` does but without building an ``Instruction`` (with its
line numbers, positions and jump labels) for each: reading a big library's tools at start-up
takes a quarter of the time. The layout of ``co_code`` is CPython's own and changes between
versions, so the first code objects read in a process are also read by :mod:`dis` and
compared: on any difference, or on a Python this was not written for, :mod:`dis` reads
everything from then on.
"""

from __future__ import annotations

import dis
import logging
import sys
import types
from collections.abc import Iterator
from typing import Any

__all__ = ["instructions"]

logger = logging.getLogger("objmcp")

Instruction = tuple[str, Any]
"""An instruction's name, and what it names: a str, a pair of them (two locals), or None."""

_CHECKED = 64
"""How many code objects are read both ways before this reading is trusted."""

_VERSION = sys.version_info[:2]
_KNOWN = (3, 10) <= _VERSION <= (3, 13)
_NAMES = frozenset(dis.hasname)
_LOCALS = frozenset(dis.haslocal)
_FREE = frozenset(dis.hasfree)
_PAIRS = frozenset({"LOAD_FAST_LOAD_FAST", "STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST"})
_SHIFTED = {"LOAD_GLOBAL": 1 if _VERSION >= (3, 11) else 0}
if _VERSION >= (3, 12):
    _SHIFTED.update({"LOAD_ATTR": 1, "LOAD_SUPER_ATTR": 2})


class _State:
    trusted = _KNOWN
    checked = 0


def instructions(code: types.CodeType) -> Iterator[Instruction]:
    """Each instruction of ``code`` (not of the code objects it holds) as ``(opname,
    name or None)``, CACHE entries left out."""
    if not _State.trusted:
        return _by_dis(code)
    found = list(_by_bytes(code))
    if _State.checked < _CHECKED:
        _State.checked += 1
        expected = list(_by_dis(code))
        if found != expected:
            _State.trusted = False
            logger.debug("bytecode read two ways differs for %r: dis reads it", code)
            return iter(expected)
    return iter(found)


def _by_dis(code: types.CodeType) -> Iterator[Instruction]:
    for instruction in dis.get_instructions(code):
        named = instruction.opcode in _NAMES or instruction.opcode in _LOCALS
        named = named or instruction.opcode in _FREE
        yield instruction.opname, instruction.argval if named else None


def _by_bytes(code: types.CodeType) -> Iterator[Instruction]:
    raw = code.co_code
    names = code.co_names
    if _VERSION >= (3, 11):
        cells = tuple(name for name in code.co_cellvars if name not in code.co_varnames)
        local = code.co_varnames + cells + code.co_freevars
        free = local
    else:
        local = code.co_varnames
        free = code.co_cellvars + code.co_freevars
    opname = dis.opname
    extended = 0
    for offset in range(0, len(raw), 2):
        op = raw[offset]
        arg = raw[offset + 1] | extended
        if op == dis.EXTENDED_ARG:
            extended = arg << 8
            yield "EXTENDED_ARG", None  # as dis yields it
            continue
        extended = 0
        name = opname[op]
        if name == "CACHE":
            continue
        if op in _NAMES:
            yield name, names[arg >> _SHIFTED.get(name, 0)]
        elif name in _PAIRS:
            yield name, (local[arg >> 4], local[arg & 15])
        elif op in _LOCALS:
            yield name, local[arg]
        elif op in _FREE:
            yield name, free[arg]
        else:
            yield name, None
