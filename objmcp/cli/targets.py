"""The object a command-line TARGET names, loaded with errors a person can act on.

A TARGET is split on its last ``:`` into where the code is and what to take
from it:

- ``path/to/file.py`` or ``path/to/package/`` (a file, or a directory with an
  ``__init__.py``; a path has a ``/`` or ends in ``.py``): the module it holds;
  its directory goes first on ``sys.path`` so that it imports its neighbours;
- ``package.module``: a module imported by name, the current directory on ``sys.path``;
- ``...:name``: an attribute of that module, dotted (``module:Class.attribute``)
  if need be; ``...:name()`` calls it with no arguments (a factory).

A class is served as the object model serves classes: instantiated when its
``__init__`` needs no arguments. A Windows drive letter (``C:\\x.py``) is not a
separator. Whatever goes wrong is a :class:`~objmcp.TargetError` whose message
says what was looked for, where, and what is there instead: the import error
and the path searched, the names a module has, the closest ones to a typo, the
traceback of the user's own code when importing it raised.
"""

from __future__ import annotations

import difflib
import functools
import importlib
import importlib.util
import inspect
import os
import pkgutil
import sys
import traceback
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .._exceptions import TargetError
from .._import_guard import ServesOnImport, importing_target
from ..model.values.printed import stand_in_front
from .wording import alternatives as _alternatives

__all__ = [
    "Target",
    "default_name",
    "load_target",
    "making_error",
    "parse_target",
    "target_maker",
    "user_traceback",
]

_SHOWN_NAMES = 30
"""At most this many names are listed when one is not found."""


@dataclass(frozen=True)
class Target:
    """A parsed TARGET: ``where`` (a path or a module name), then ``attribute``."""

    where: str
    attribute: str = ""
    """Dotted, without ``()``; empty for the module itself."""
    call: bool = False
    """``attribute()`` was written: call it, with no arguments."""

    @property
    def is_path(self) -> bool:
        """Whether ``where`` is a file or directory path rather than a module name."""
        return (
            self.where.endswith(".py")
            or "/" in self.where
            or os.sep in self.where
            or (os.altsep is not None and os.altsep in self.where)
        )

    @property
    def path(self) -> Path:
        """``where`` as an absolute path (for path targets)."""
        return Path(self.where).expanduser().resolve()

    def __str__(self) -> str:
        tail = f":{self.attribute}{'()' if self.call else ''}" if self.attribute else ""
        return f"{self.where}{tail}"


def parse_target(spec: str) -> Target:
    """Split a TARGET on its last ``:``; raises :class:`TargetError` for malformed ones."""
    if not spec.strip():
        raise TargetError("The TARGET is empty: give file.py[:name] or package.module[:name]")
    head, colon, tail = spec.rpartition(":")
    drive = len(head) == 1 and tail.startswith(("\\", "/"))
    if not colon or drive:
        return Target(spec)
    if not head:
        raise TargetError(f"{spec!r} names no module or file before ':'")
    call = tail.endswith("()")
    attribute = tail.removesuffix("()")
    parts = attribute.split(".")
    if not attribute or not all(part.isidentifier() for part in parts):
        raise TargetError(
            f"{tail!r} is not a name to take from {head}: write name, name.attribute, or "
            "name() to call a factory with no arguments"
        )
    return Target(head, attribute, call)


def default_name(spec: str) -> str:
    """The server name a TARGET suggests: its attribute, else its module or file stem."""
    try:
        target = parse_target(spec)
    except TargetError:
        return "objmcp"
    if target.attribute:
        return target.attribute.rpartition(".")[2]
    if target.is_path:
        path = target.path
        return path.parent.name if path.name == "__init__.py" else path.stem
    return target.where.rpartition(".")[2]


def load_target(spec: str) -> object:
    """The object a TARGET names (see the module docstring); raises :class:`TargetError`."""
    return target_maker(spec)()


def target_maker(spec: str) -> Callable[[], object]:
    """What makes the object a TARGET names, its module loaded now: for ``name()``, a call of
    the factory that raises :class:`TargetError` as :func:`load_target` does (to be made
    on another thread); else a function that returns the object."""
    target = parse_target(spec)
    stand_in_front()  # what the module keeps as its stdout is where a call is heard
    with importing_target(target.where):
        module = _load_path(target) if target.is_path else _import(target.where)
    value: object = module
    owner = target.where
    for part in target.attribute.split(".") if target.attribute else ():
        value = _attribute(value, part, owner)
        owner = f"{owner}:{part}" if owner == target.where else f"{owner}.{part}"
    if target.call:
        return functools.partial(_call, _factory(value, str(target)), str(target))
    return functools.partial(_identity, value)


# --- modules ----------------------------------------------------------------------------------


def _import(name: str) -> types.ModuleType:
    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        missing = error.name or ""
        if missing and (name == missing or name.startswith(missing + ".")):
            raise TargetError(_not_found(name, missing)) from None
        raise TargetError(
            f"Importing {name} failed: {error}, a module that {name} imports; is it installed "
            f"for {sys.executable}?\n{user_traceback(error)}"
        ) from None
    except ServesOnImport:
        raise
    except Exception as error:
        raise TargetError(f"Importing {name} raised an error:\n{user_traceback(error)}") from None


def _not_found(name: str, missing: str) -> str:
    parent, _, last = missing.rpartition(".")
    if parent:
        module = sys.modules.get(parent)
        where = list(getattr(module, "__path__", []))
        known = [info.name for info in pkgutil.iter_modules(where)]
        lines = [f"No module named {missing!r}: package {parent} has no module {last!r}"]
    else:
        where = list(sys.path)
        known = sorted(
            {info.name for info in pkgutil.iter_modules()} | set(sys.builtin_module_names)
        )
        lines = [f"No module named {missing!r}"]
    close = difflib.get_close_matches(last, known, n=3)
    if close:
        lines[0] += (
            f". Did you mean {_alternatives([f'{parent}.{c}' if parent else c for c in close])}?"
        )
    if missing != name:
        lines.append(f"(while importing {name})")
    if Path(f"{name.replace('.', os.sep)}.py").exists():
        lines.append(f"A file {name.replace('.', os.sep)}.py is here: give its path instead.")
    lines.append("Searched:")
    lines.extend(f"  {entry or '.'}" for entry in dict.fromkeys(where))
    return "\n".join(lines)


def _load_path(target: Target) -> types.ModuleType:
    path = target.path
    if path.is_dir():
        init = path / "__init__.py"
        if not init.exists():
            raise TargetError(
                f"{target.where} is a directory without __init__.py: give a file in it "
                f"({_listing(sorted(p.name for p in path.glob('*.py')))})"
            )
        return _exec_file(init, path.name, package=path)
    if not path.exists():
        folder = path.parent
        found = sorted(p.name for p in folder.glob("*.py")) if folder.is_dir() else []
        close = difflib.get_close_matches(path.name, found, n=3)
        hint = f" Did you mean {_alternatives(close)}?" if close else ""
        there = f" It has: {_listing(found)}." if found else ""
        where = folder if folder.is_dir() else f"{folder} (no such directory)"
        raise TargetError(f"No such file: {target.where}, looked in {where}.{hint}{there}")
    return _exec_file(path, path.stem, package=None)


def _exec_file(path: Path, stem: str, package: Path | None) -> types.ModuleType:
    name = f"_objmcp_target_{stem}"
    locations = [str(package)] if package is not None else None
    spec = importlib.util.spec_from_file_location(name, path, submodule_search_locations=locations)
    if spec is None or spec.loader is None:
        raise TargetError(f"Cannot load {path}: Python does not know how to import that file")
    module = importlib.util.module_from_spec(spec)
    folder = str((package or path).parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        if isinstance(error, ServesOnImport):
            raise
        raise TargetError(f"Importing {path} raised an error:\n{user_traceback(error)}") from None
    return module


# --- attributes and factories -----------------------------------------------------------------


def _attribute(value: object, part: str, owner: str) -> object:
    try:
        return getattr(value, part)
    except AttributeError:
        pass
    except Exception as error:
        raise TargetError(
            f"Reading {part} of {owner} raised an error:\n{user_traceback(error)}"
        ) from None
    names = sorted(name for name in dir(value) if not name.startswith("_"))
    close = difflib.get_close_matches(part, names, n=3)
    lines = [f"{owner} has no attribute {part!r}."]
    if close:
        lines.append(f"Did you mean {_alternatives(close)}?")
    lines.append(f"It has: {_listing(names)}." if names else "It has no public names.")
    raise TargetError(" ".join(lines))


def _factory(value: object, spec: str) -> Callable[[], object]:
    if not callable(value):
        raise TargetError(f"{spec}: {type(value).__name__} object is not callable")
    try:
        inspect.signature(value).bind()
    except TypeError as error:
        raise TargetError(
            f"{spec}: objmcp calls it with no arguments, but {error}; give it defaults, "
            "or write a small factory that supplies them"
        ) from None
    except ValueError:
        pass  # no signature to check (some C callables): just call it
    return typing.cast("Callable[[], object]", value)


def _call(value: Callable[[], object], spec: str) -> object:
    try:
        return value()
    except Exception as error:
        raise TargetError(f"Calling {spec} raised an error:\n{user_traceback(error)}") from None


# --- words ------------------------------------------------------------------------------------


def _identity(value: object) -> object:
    return value


def _listing(names: list[str]) -> str:
    shown = ", ".join(names[:_SHOWN_NAMES])
    more = len(names) - _SHOWN_NAMES
    return f"{shown} and {more} more" if more > 0 else shown


def making_error(spec: str, error: BaseException) -> TargetError:
    """The error to raise when making the tools of ``spec`` raised ``error``: what was being
    made (the class objmcp called with no arguments, when the error came from there) and the
    traceback of the user's own code."""
    made = _class_being_made(error)
    what = (
        f"Making {made}() for {spec} (objmcp calls a class with no arguments to serve its methods)"
        if made
        else f"Making the tools of {spec}"
    )
    return TargetError(f"{what} raised an error:\n{user_traceback(error)}")


def _class_being_made(error: BaseException) -> str | None:
    """The name of the class whose making raised ``error``, when objmcp's last frame before
    the user's code is the one where the object model calls a class with no arguments."""
    package = str(Path(__file__).parent.parent)
    caller: types.FrameType | None = None
    frame = error.__traceback__
    while frame is not None and frame.tb_frame.f_code.co_filename.startswith(package):
        caller = frame.tb_frame
        frame = frame.tb_next
    if frame is None or caller is None or caller.f_code.co_name != "_members_of":
        return None
    target = caller.f_locals.get("target")
    return target.__qualname__ if isinstance(target, type) else None


def user_traceback(error: BaseException) -> str:
    """The traceback of ``error`` without importlib's frames and objmcp's own."""
    here = str(Path(__file__).parent.parent)
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if not frame.filename.startswith(("<frozen importlib", here))
    ]
    text = "".join(traceback.format_list(frames)) if frames else ""
    header = "Traceback (most recent call last):\n" if frames else ""
    return (header + text + "".join(traceback.format_exception_only(type(error), error))).rstrip()
