"""Serving refused while the command line imports a TARGET.

A module that serves when imported (``objmcp.start(...)`` at its top level, with no
``if __name__ == "__main__":`` above it) would take the command's stdin and wait
there: ``objmcp inspect server.py:Notes`` would hang, saying nothing. While
:func:`importing_target` holds, whatever starts serving raises :class:`ServesOnImport`
instead, a :class:`~objmcp.TargetError` that says where to put the call.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ._exceptions import TargetError

__all__ = ["ServesOnImport", "importing_target", "refuse_serving_on_import"]

_importing: list[str] = []
"""The TARGETs being imported now, innermost last."""


class ServesOnImport(TargetError):
    """A TARGET's module started serving while the command line imported it."""


@contextlib.contextmanager
def importing_target(where: str) -> Iterator[None]:
    """Import the TARGET ``where`` (a file or a module name) inside: serving is refused."""
    _importing.append(where)
    try:
        yield
    finally:
        _importing.pop()


def refuse_serving_on_import(call: str) -> None:
    """Raise :class:`ServesOnImport` if a TARGET is being imported; ``call`` is what serves."""
    if _importing:
        where = _importing[-1]
        raise ServesOnImport(
            f"{where} starts serving when it is imported: {call} runs at its top level, "
            "so objmcp cannot load it without serving it. Put the call under\n"
            '    if __name__ == "__main__":\n'
            "so that running it as a script still serves, and objmcp's commands can load it."
        )
