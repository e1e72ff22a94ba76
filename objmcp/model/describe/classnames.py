"""The class a docstring names, found where the documented function lives.

A docstring writes a library's own class by name (``memory_pool : pyarrow.MemoryPool,
optional``, ``value_set : Array``, ``:class:`Options```). :func:`named_class` finds it:
in the function's own module's globals, then among the modules of its package that are
already imported (nothing is imported for this), then among the builtins. The class
then types the parameter as an annotation of it would.
"""

from __future__ import annotations

import builtins
import inspect
import re
import sys
import types
from typing import Any

from .doctypes import alternatives, plain_roles

__all__ = ["capitalised", "named_class"]

_EMPTY: Any = inspect.Parameter.empty
_DOTTED = re.compile(r"~?[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_NOT_CLASSES = (object, type)
"""Builtins whose names say nothing JSON can carry (a class, any object)."""
_NONE_WORDS = ("none", "null", "nonetype")


def named_class(text: str, function: object) -> object:
    """The class ``text`` (a docstring's type) names, as ``function`` (what it
    documents) sees it; ``X | None`` when it says ``or None``; ``inspect.Parameter.empty``
    when it names no one class (several alternatives, a phrase, an unknown name)."""
    text = plain_roles(text).replace("``", "").replace("`", "").strip()
    parts = alternatives(text)
    names = [part for part in parts if part.lower() not in _NONE_WORDS]
    if len(names) != 1 or not _DOTTED.fullmatch(names[0]):
        return _EMPTY
    found = _look_up(names[0].lstrip("~"), _module_of(function))
    if found is None:
        return _EMPTY
    return found | None if len(names) < len(parts) else found


def capitalised(text: str) -> bool:
    """Whether ``text`` writes its one name with a capital (``Array``, ``pa.Table``):
    a class's name, which wins over a generic word (``array``) written alike."""
    parts = alternatives(plain_roles(text).replace("`", "").strip())
    names = [part for part in parts if part.lower() not in _NONE_WORDS]
    return len(names) == 1 and names[0].lstrip("~").rsplit(".", 1)[-1][:1].isupper()


def _module_of(function: object) -> types.ModuleType | None:
    target = getattr(function, "__func__", function)
    name = getattr(target, "__module__", None)
    if not isinstance(name, str) and isinstance(function, type):
        name = function.__module__
    return sys.modules.get(name) if isinstance(name, str) else None


def _look_up(name: str, module: types.ModuleType | None) -> type | None:
    """The class ``name`` (maybe dotted) is in ``module``'s globals, then in an imported
    module of its package, then among the builtins; None when it is no class."""
    first, _, rest = name.partition(".")
    if module is not None:
        found = _attribute_path(vars(module).get(first), rest)
        if found is None and "." in name:
            found = _in_loaded_module(name)
        if found is None and "." not in name:
            found = _in_package(name, module.__name__.partition(".")[0])
        if found is not None:
            return found
    elif "." in name:
        found = _in_loaded_module(name)
        if found is not None:
            return found
    if "." in name:
        return None
    there = getattr(builtins, name, None)
    return there if isinstance(there, type) and there not in _NOT_CLASSES else None


def _attribute_path(start: object, path: str) -> type | None:
    found = start
    for part in filter(None, path.split(".")):
        if part.startswith("_"):
            return None
        found = getattr(found, part, None)
    return found if isinstance(found, type) and found not in _NOT_CLASSES else None


def _in_loaded_module(name: str) -> type | None:
    """``pkg.sub.Options``: the longest prefix that is an imported module, then its
    attributes."""
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = sys.modules.get(".".join(parts[:cut]))
        if module is not None:
            return _attribute_path(module, ".".join(parts[cut:]))
    return None


def _in_package(name: str, package: str) -> type | None:
    """A class of that name in the package's top module, else in the first (by name) of
    its imported modules that has one."""
    top = sys.modules.get(package)
    found = _attribute_path(top, name) if top is not None else None
    if found is not None:
        return found
    prefix = package + "."
    for module_name in sorted(m for m in list(sys.modules) if m.startswith(prefix)):
        module = sys.modules.get(module_name)
        if module is None:
            continue
        there = vars(module).get(name)
        if isinstance(there, type) and there not in _NOT_CLASSES:
            return there
    return None
