"""The command line's options, built from the option records' fields
(:mod:`objmcp.serving.option_fields`): one table for the flags, the records they make, the
arguments a child server is started with, and the keys of a config file.

A record's field ``Limits.call_timeout`` is the flag ``--call-timeout``, stored in the
parsed options as ``limits.call_timeout`` (None when not given: the record's default then
holds); :func:`records_from` makes the records from what was given.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from .._exceptions import TargetError
from .._options import OFF, SERVER_RECORDS, seconds_or_off
from ..serving.option_fields import Flag, flag_of

__all__ = [
    "SERVING_FLAGS",
    "UVICORN_DEFAULTS",
    "UVICORN_FLAGS",
    "add_flags",
    "add_record_flags",
    "records_from",
    "server_arguments",
    "serving_pairs",
]

SERVING_FLAGS: dict[str, Flag] = {
    "name": Flag("--name", "the server's name (default: from the target)"),
    "server_version": Flag(
        "--server-version", "the version the server reports (1.0.0)", metavar="VERSION"
    ),
    "framing": Flag(
        "--framing", "the framing on stdio (auto)", choices=("auto", "newline", "content-length")
    ),
    "log_level": Flag("--log-level", "the level of log records on stderr (WARNING)"),
    "include": Flag("--include", "only these tools (names or globs; repeat)", repeat=True),
    "exclude": Flag("--exclude", "leave these tools out (repeat)", repeat=True),
    "sandbox": Flag(
        "--sandbox",
        "serve in a box (Linux, bubblewrap; over HTTP the code runs in boxed children): no "
        "network, no program started, the filesystem read-only and limited to Python's, the "
        "target's folder and --readable",
        switch=True,
    ),
    "readable": Flag(
        "--readable", "a folder the box may read (repeat)", metavar="DIR", repeat=True
    ),
    "writable": Flag(
        "--writable", "a folder the box may write (repeat)", metavar="DIR", repeat=True
    ),
    "allow_net": Flag(
        "--allow-net",
        "an address the box may connect to, by its host's name or 127.0.0.1 (repeat)",
        metavar="HOST:PORT",
        repeat=True,
    ),
    "box_memory": Flag("--box-memory", "the box's address space (4 GiB)", int, "BYTES"),
}
"""The options of a served target that are no record's, by the name they are parsed to.
With the records' flags they are what a child server is given (:func:`server_arguments`):
a server started by ``call``, ``config``, ``dev`` or ``bundle`` with ``--sandbox`` runs boxed
(and inside the box, ``run`` knows it is in one and makes no other)."""

UVICORN_DEFAULTS: dict[str, float | int] = {
    "read_timeout": 30.0,
    "keep_alive": 5,
    "max_connections": 1000,
    "max_header": 16384,
}
"""The defaults of the options of ``run --http`` that bound what uvicorn's connections hold."""

UVICORN_FLAGS: dict[str, Flag] = {
    "read_timeout": Flag(
        "--read-timeout",
        "close a connection whose request (headers and body) takes longer to arrive",
        float,
        "SECONDS",
    ),
    "keep_alive": Flag(
        "--keep-alive", "close a connection idle that long between requests", int, "SECONDS"
    ),
    "max_connections": Flag(
        "--max-connections",
        "connections and requests at once; beyond, requests are answered 503",
        int,
        "N",
    ),
    "max_header": Flag("--max-header", "a request's line and headers; beyond, 400", int, "BYTES"),
}


def add_flags(
    container: argparse._ActionsContainer,
    flags: Mapping[str, Flag],
    defaults: Mapping[str, object] | None = None,
) -> None:
    """Add ``flags`` to a parser or group, each parsed to its key (None when not given:
    its default in ``defaults`` then holds, which its help says)."""
    for dest, flag in flags.items():
        _add(container, dest, flag, (defaults or {}).get(dest))


def add_record_flags(
    parser: argparse.ArgumentParser, records: Mapping[str, type], titles: Mapping[str, str]
) -> None:
    """Add the flags of the ``records`` (keyword: record class) to ``parser``, a group
    each, titled by ``titles`` (the keyword when not there)."""
    for key, record in records.items():
        group = parser.add_argument_group(titles.get(key, key))
        for field in dataclasses.fields(record):
            flag = flag_of(field)
            if flag is not None:
                _add(group, f"{key}.{field.name}", flag, field.default)


def records_from(options: argparse.Namespace, records: Mapping[str, type]) -> dict[str, Any]:
    """The ``records`` (keyword: class) made from what ``options`` gives of their fields,
    the defaults standing for the rest; a value a record refuses is a
    :class:`~objmcp.TargetError` naming its flag."""
    made: dict[str, Any] = {}
    for key, record in records.items():
        given = {
            field.name: _value(field, value)
            for field in dataclasses.fields(record)
            if (value := getattr(options, f"{key}.{field.name}", None)) is not None
        }
        try:
            made[key] = record(**given)
        except (TypeError, ValueError) as error:
            raise TargetError(f"{_flags_named(record, error)}") from None
    return made


def _value(field: dataclasses.Field[Any], given: object) -> object:
    """What a field's record takes for the value its flag gave (``off``: None)."""
    flag = flag_of(field)
    return None if flag is not None and flag.parse is seconds_or_off and given == OFF else given


def server_arguments(options: argparse.Namespace) -> list[str]:
    """The ``objmcp run`` arguments that serve a target as ``options`` ask, for a child
    process: every serving option given, as it was given."""
    return [word for _, words in serving_pairs(options) for word in words]


def serving_pairs(options: argparse.Namespace) -> Iterator[tuple[str, list[str]]]:
    """Each serving option given in ``options``: its destination (``limits.call_timeout``)
    and its ``objmcp run`` arguments."""
    for dest, flag in _serving_flags():
        value = getattr(options, dest, None)
        if value is None:
            continue
        if flag.switch is not None:
            yield dest, [flag.name]
        elif flag.repeat:
            yield dest, [word for item in value for word in (flag.name, _word(item))]
        else:
            yield dest, [flag.name, _word(value)]


def _word(value: object) -> str:
    """A flag's value as the command line writes it (``30``, not ``30.0``)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def _serving_flags() -> Iterator[tuple[str, Flag]]:
    yield from SERVING_FLAGS.items()
    for key, record in SERVER_RECORDS.items():
        for field in dataclasses.fields(record):
            flag = flag_of(field)
            if flag is not None:
                yield f"{key}.{field.name}", flag


def _add(container: argparse._ActionsContainer, dest: str, flag: Flag, default: object) -> None:
    shown = _default_text(default) if flag.switch is None else None
    text = f"{flag.help} ({shown})" if shown else flag.help
    if flag.switch is not None:
        container.add_argument(
            flag.name, dest=dest, action="store_const", const=flag.switch, default=None, help=text
        )
        return
    metavar = flag.metavar
    if metavar is None and flag.choices is None:
        metavar = flag.key.upper().replace("-", "_")
    container.add_argument(
        flag.name,
        dest=dest,
        action="append" if flag.repeat else "store",
        type=str if flag.parse in (None, str) else _reader(flag),
        choices=flag.choices,
        metavar=metavar,
        default=None,
        help=text,
    )


def _reader(flag: Flag) -> Callable[[str], Any]:
    """``flag.parse``, its ValueError said as argparse says a bad value."""
    parse = flag.parse or str

    def read(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    read.__name__ = getattr(parse, "__name__", "value")
    return read


def _default_text(default: object) -> str | None:
    """A default as a flag's help shows it (None: not shown)."""
    if default is None or isinstance(default, bool) or default in ((), ""):
        return None
    if isinstance(default, int) and default >= 1 << 20 and default % (1 << 20) == 0:
        return f"{default >> 20} Mi"
    if isinstance(default, float):
        return f"{default:g}"
    return str(default)


def _flags_named(record: type, error: Exception) -> str:
    """``error``'s message, its fields named by their flags (``call_timeout`` is
    ``--call-timeout``)."""
    message = str(error)
    for field in dataclasses.fields(record):
        flag = flag_of(field)
        if flag is None:
            continue
        for name in (flag.key.replace("-", "_"), field.name):
            if message.startswith(name + " "):
                return flag.name + message[len(name) :]
    return message
