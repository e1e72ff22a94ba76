"""Where a stub-only package (PEP 561) describes a module: ``regex-stubs/_main.pyi`` for
``regex._main``, as ``pip install types-regex`` installs it beside the library.

Most untyped popular libraries are typed this way: typeshed publishes ``types-<name>``
for hundreds of them, each a folder ``<package>-stubs`` on the path. It is looked for in
the folders of ``sys.path``, in their order, as type checkers do (PEP 561's resolution
order puts stub packages after typeshed's standard library and before a package's own
stubs, so a standard library module is never looked up here). Nothing is imported or
fetched: a few ``stat`` calls per package, only for a module whose callables need a stub.
"""

from __future__ import annotations

import functools
import os
import sys

__all__ = ["stub_package_paths"]


def stub_package_paths(module_name: str) -> tuple[tuple[str, str], ...]:
    """The stubs a stub-only package gives ``module_name`` (``a.b`` in ``a-stubs/b.pyi``
    or ``a-stubs/b/__init__.pyi``), then those of the packages it is in (``a-stubs/
    __init__.pyi``), each with the package its relative imports are read in; empty when
    no folder of ``sys.path`` holds ``a-stubs``, or ``a`` is of the standard library."""
    return _paths(module_name, tuple(sys.path))


@functools.cache
def _paths(module_name: str, search_path: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    top, *rest = module_name.split(".")
    if not top or top in sys.stdlib_module_names:
        return ()
    found: list[tuple[str, str]] = []
    for folder in search_path:
        stubs = os.path.join(folder or os.curdir, top + "-stubs")
        if not os.path.isdir(stubs):
            continue
        for depth in range(len(rest), -1, -1):
            parts = rest[:depth]
            base = os.path.join(stubs, *parts)
            candidates = [os.path.join(base, "__init__.pyi")]
            if parts:
                candidates.insert(0, base + ".pyi")
            for candidate in candidates:
                if os.path.isfile(candidate):
                    inside = parts if candidate.endswith("__init__.pyi") else parts[:-1]
                    found.append((candidate, ".".join([top, *inside])))
                    break
        if found:
            break
    return tuple(found)
