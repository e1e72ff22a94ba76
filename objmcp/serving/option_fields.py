"""The fields of option records (:mod:`objmcp._options`, :mod:`objmcp.serving.http_options`)
and what the command line says of each: one table, from which the CLI builds its flags,
reads a config file's keys and writes a child server's arguments.

A field with a :class:`Flag` is given on the command line as ``flag.name`` and in a config
file as the same name without its dashes (``--task-after`` is ``task-after``). A field
with none is given only in Python (a function, a mapping of settings, a secret).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["Flag", "flag_of", "option"]

T = TypeVar("T")


@dataclasses.dataclass(frozen=True)
class Flag:
    """How an option is written on the command line.

    ``parse`` reads a value's text (``int``, ``float``, ...); a switch (``switch`` True or
    False) takes no value and sets the option to ``switch``; ``repeat`` gathers every
    occurrence in a list. ``help`` says what the option does; its default is added to it
    from the record's field, so that no default is written twice."""

    name: str
    help: str
    parse: Callable[[str], Any] | None = str
    metavar: str | None = None
    choices: tuple[str, ...] | None = None
    switch: bool | None = None
    repeat: bool = False

    @property
    def key(self) -> str:
        """The option's key in a config file: the flag without its dashes."""
        return self.name.lstrip("-")


def option(default: T, flag: Flag | None = None, *, secret: bool = False) -> T:
    """A field of an option record: its ``default``, and its ``flag`` when the command
    line has one; a ``secret`` is left out of the record's repr."""
    metadata = {"flag": flag} if flag is not None else {}
    field: T = dataclasses.field(default=default, metadata=metadata, repr=not secret)
    return field


def flag_of(field: dataclasses.Field[Any]) -> Flag | None:
    """The command-line flag of a record's field, or None."""
    flag = field.metadata.get("flag")
    return flag if isinstance(flag, Flag) else None
