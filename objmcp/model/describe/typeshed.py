"""Where typeshed's stub of a standard library module is, when a copy is installed.

The standard library's C functions (``math.sqrt``, ``os.stat``, ``unicodedata.name``)
carry no annotations and rarely a word on their types; typeshed, the stubs every type
checker reads, types them all. objmcp reads the copy the ``typeshed_client`` package
bundles (a dependency of every install), never imports it, and does without when it is
missing (an install that left it out, a vendored copy of objmcp): those parameters are
then untyped, and :func:`typeshed_missing` lets a warning say why.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys

__all__ = ["typeshed_missing", "typeshed_stub"]


def typeshed_stub(module_name: str) -> str | None:
    """The path of typeshed's stub for the standard library module ``module_name``
    (``os.path`` gives ``os/path.pyi``; ``_typeshed`` is typeshed's own, of the aliases
    the others import), or None: not a standard library module, no
    stub, or no typeshed installed."""
    root = _root()
    top = module_name.partition(".")[0]
    if root is None or (top not in sys.stdlib_module_names and top != "_typeshed"):
        return None
    base = os.path.join(root, *module_name.split("."))
    for path in (base + ".pyi", os.path.join(base, "__init__.pyi")):
        if os.path.isfile(path):
            return path
    return None


def typeshed_missing(module_name: str) -> bool:
    """Whether ``module_name`` is a standard library module that typeshed would type
    but no copy of typeshed is installed."""
    return module_name.partition(".")[0] in sys.stdlib_module_names and _root() is None


@functools.cache
def _root() -> str | None:
    try:
        spec = importlib.util.find_spec("typeshed_client")
    except (ImportError, ValueError):
        return None
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    for folder in folders:
        root = os.path.join(folder, "typeshed")
        if os.path.isdir(root):
            return root
    return None
