"""The command line: ``objmcp [run] TARGET [options]``.

TARGET, split on its last ``:``, is ``path/to/file.py:name``, ``package.module:name``,
``package.module`` or ``file.py`` (its public functions). A class is
instantiated when its ``__init__`` needs no arguments; ``name()`` calls a factory.
Verbs are reserved only in the first position, so that later verbs can be added
while a bare TARGET keeps meaning ``run``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import logging
import os
import sys
from pathlib import Path

__all__ = ["load_target", "main"]

VERBS = ("run",)


def main(argv: list[str]) -> int:
    """Parse ``argv`` and run the verb; returns the exit status."""
    if argv and argv[0] in VERBS:
        verb, argv = argv[0], argv[1:]
    else:
        verb = "run"
    parser = argparse.ArgumentParser(
        prog="objmcp", description="Serve a Python object as an MCP server over stdio."
    )
    parser.add_argument("target", help="file.py[:name], package.module[:name], name() calls")
    parser.add_argument("--name", help="the server's name (default: the target's)")
    parser.add_argument("--include", action="append", help="serve only these tools (globs)")
    parser.add_argument("--exclude", action="append", help="leave these tools out (globs)")
    parser.add_argument("--framing", choices=("auto", "newline", "content-length"), default="auto")
    parser.add_argument("--concurrency", choices=("threads", "serial"), default="threads")
    parser.add_argument("--log-level", default="WARNING", help="stderr log level")
    parser.add_argument("--version", action="version", version=_version())
    options = parser.parse_args(argv)
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setLevel(options.log_level.upper())
    stderr.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
    logging.getLogger().addHandler(stderr)
    logging.getLogger().setLevel(logging.DEBUG)  # what reaches clients is their own choice
    from . import Server, TargetError

    try:
        target = load_target(options.target)
        server = Server(
            options.name or _default_name(options.target),
            target,
            framing=options.framing,
            include=options.include,
            exclude=options.exclude,
            concurrency=options.concurrency,
        )
    except (TargetError, ImportError, AttributeError, OSError, TypeError) as error:
        sys.stderr.write(f"objmcp: {error}\n")
        return 2
    assert verb == "run"
    server.run()
    return 0


def _version() -> str:
    from . import __version__

    return f"objmcp {__version__}"


def _default_name(spec: str) -> str:
    module, _, attribute = spec.rpartition(":") if ":" in spec else (spec, "", "")
    if attribute:
        return attribute.removesuffix("()")
    return Path(module).stem if module.endswith(".py") else module.rpartition(".")[2]


def load_target(spec: str) -> object:
    """The object a TARGET names (see the module docstring)."""
    where, _, attribute = spec.rpartition(":") if _has_attribute(spec) else (spec, "", "")
    module = _load_module(where)
    if not attribute:
        return module
    call = attribute.endswith("()")
    value: object = module
    for part in attribute.removesuffix("()").split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            raise AttributeError(f"{where} has no attribute {attribute!r}") from None
    if call:
        if not callable(value):
            raise TypeError(f"{attribute} is not callable")
        value = value()
    return value


def _has_attribute(spec: str) -> bool:
    head, colon, tail = spec.rpartition(":")
    # A Windows drive letter ("C:\\x.py") is not a separator.
    return bool(colon) and bool(tail) and not (len(head) == 1 and tail.startswith(("\\", "/")))


def _load_module(where: str) -> object:
    if where.endswith(".py") or os.sep in where or "/" in where:
        path = Path(where).resolve()
        if not path.exists():
            raise OSError(f"no such file: {where}")
        name = f"_objmcp_target_{path.stem}"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {where}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        sys.path.insert(0, str(path.parent))
        spec.loader.exec_module(module)
        return module
    sys.path.insert(0, os.getcwd())
    return importlib.import_module(where)
