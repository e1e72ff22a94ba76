"""``--config FILE``: a verb's options from a TOML file, every flag a key.

The key is the flag without its dashes (``task-after = 0.5``, ``allow-host = ["a.example"]``,
``jobs = true``), and ``target`` the TARGET; in a ``pyproject.toml`` the keys are those of
its ``[tool.objmcp]`` table. What the command line gives wins over the file, and a repeated
option (``--include``) adds to the file's list. A key the verb does not take, or a value its
flag would refuse, is an error naming the file and the key.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from typing import Any

from .._exceptions import TargetError
from .wording import did_you_mean

__all__ = ["config_path", "read_config", "use_config"]


def config_path(words: list[str]) -> str | None:
    """The file ``--config FILE`` (or ``--config=FILE``) names in ``words``, if any; the
    option is taken out of ``words``."""
    for index, word in enumerate(words):
        if word == "--config" and index + 1 < len(words):
            path = words[index + 1]
            del words[index : index + 2]
            return path
        if word.startswith("--config="):
            del words[index]
            return word.partition("=")[2]
    return None


def read_config(path: str) -> dict[str, Any]:
    """The options in the TOML file ``path`` (its ``[tool.objmcp]`` table for a
    ``pyproject.toml``)."""
    toml = _toml()
    try:
        with open(path, "rb") as file:
            document = toml.load(file)
    except OSError as error:
        raise TargetError(f"--config {path}: {error.strerror or error}") from None
    except toml.TOMLDecodeError as error:
        raise TargetError(f"--config {path}: not TOML: {error}") from None
    if os.path.basename(path) == "pyproject.toml":
        table = document.get("tool", {}).get("objmcp")
        if not isinstance(table, dict):
            raise TargetError(f"--config {path}: it has no [tool.objmcp] table")
        return table
    return dict(document)


def use_config(
    parser: argparse.ArgumentParser,
    path: str,
    served: argparse.ArgumentParser,
    others: Iterable[argparse.ArgumentParser],
) -> dict[str, Any]:
    """Make the options in ``path`` the defaults of ``parser`` (a verb's), and return them.

    The file describes a served target: a key means what it means to ``served`` (``run``'s
    parser), and a verb's own option of the same name (``config --scope``) is not read from
    it. A key of another verb (``others``) is left for it, so that one file serves them
    all; a key of none is an error."""
    actions = _actions_by_key(parser)
    serving = _actions_by_key(served)
    known = {key for other in others for key in _actions_by_key(other)}
    table = read_config(path)
    for key, value in table.items():
        action = actions.get(key)
        where = f"--config {path}: {key}"
        if action is not None and key in serving and serving[key].dest != action.dest:
            continue  # run's option of that name, which this verb does not take
        if action is None:
            if key in known:
                continue
            hint = did_you_mean(key, sorted(known | set(actions)))
            raise TargetError(
                f"--config {path}: {key!r} is not an option of objmcp"
                + (f". {hint}" if hint else "")
            )
        parser.set_defaults(**{action.dest: _default(action, value, where)})
    return table


def _actions_by_key(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The parser's options by their keys in a config file (the long flag without dashes;
    a positional by its name)."""
    keys: dict[str, argparse.Action] = {}
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            continue
        if not action.option_strings:
            keys[action.dest] = action
            continue
        longest = max(action.option_strings, key=len)
        if action.help != argparse.SUPPRESS and longest != "--config":
            keys[longest.lstrip("-")] = action
    return keys


def _default(action: argparse.Action, value: object, where: str) -> object:
    """The default that stands for ``value`` of the file: what the flag would have made of
    it on the command line."""
    if isinstance(action, argparse._StoreConstAction):
        if not isinstance(value, bool):
            raise TargetError(f"{where}: takes true or false, not {value!r}")
        return action.const if value else None
    if isinstance(action, argparse._AppendAction) or action.nargs in ("*", "+"):
        items = value if isinstance(value, list) else [value]
        return [_read(action, item, where) for item in items]
    read = _read(action, value, where)
    # argparse reads a default that is a string as it reads the command line's text
    return str(value) if isinstance(read, str) else read


def _read(action: argparse.Action, value: object, where: str) -> object:
    """One value of the file, read as its flag reads the same text (TargetError when it
    would refuse it)."""
    if isinstance(value, (bool, dict, list)) or value is None:
        raise TargetError(f"{where}: takes a string or a number, not {value!r}")
    text = str(value)
    try:
        read = action.type(text) if callable(action.type) else text
    except (argparse.ArgumentTypeError, TypeError, ValueError) as error:
        raise TargetError(f"{where}: cannot read {text!r}: {error}") from None
    if action.choices is not None and read not in action.choices:
        choices = ", ".join(map(str, action.choices))
        raise TargetError(f"{where}: {read!r} is not one of {choices}")
    return read


def _toml() -> Any:
    """The TOML reader: Python's own from 3.11, else the ``tomli`` package."""
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib
    try:
        import tomli  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise TargetError("--config needs Python 3.11 or later, or: pip install tomli") from None
    return tomli
