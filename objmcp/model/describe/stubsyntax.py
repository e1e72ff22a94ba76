"""A stub's (or a Python source's) syntax, read with :mod:`ast` and never run: its tree,
the statements that hold for this Python (a stub's ``if sys.version_info >= ...:`` and
``if sys.platform == ...:`` blocks are read as this Python would), its ``def`` s by
qualified name, and the names it takes from other modules by ``from`` imports and by
assignment. :mod:`objmcp.model.describe.sources` finds a callable's ``def`` s here;
:mod:`objmcp.model.describe.boundnames` runs the statements that name things.
"""

from __future__ import annotations

import ast
import functools
import keyword
import sys
from collections.abc import Iterable

__all__ = [
    "Definition",
    "assigned_from",
    "definitions_in",
    "file_definitions",
    "imported_from",
    "live",
    "parsed",
]


Definition = ast.FunctionDef | ast.AsyncFunctionDef
"""A ``def`` of a stub or source file, as :mod:`ast` reads it."""


@functools.cache
def parsed(path: str) -> ast.Module | None:
    """The syntax tree of the file ``path``, or None when it does not read or parse."""
    try:
        with open(path, encoding="utf-8") as source:
            return ast.parse(source.read())
    except (OSError, SyntaxError, ValueError):
        return None


def live(body: list[ast.stmt]) -> Iterable[ast.stmt]:
    """The statements of a stub's ``body`` that hold for this Python: the branch of each
    ``if sys.version_info ...`` or ``if sys.platform ...`` it takes (an ``if`` on
    anything else is left out)."""
    for node in body:
        if not isinstance(node, ast.If):
            yield node
            continue
        holds = _holds(node.test)
        if holds is not None:
            yield from live(node.body if holds else node.orelse)


def _holds(test: ast.expr) -> bool | None:
    names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
    if names != {"sys"} or any(isinstance(n, ast.Call) for n in ast.walk(test)):
        return None
    try:
        return bool(eval(compile(ast.Expression(test), "<stub>", "eval"), {"sys": sys}))
    except Exception:
        return None


@functools.cache
def file_definitions(path: str) -> dict[str, list[Definition]]:
    """The ``def`` s of a stub file by qualified name (``Box.put``), overloads together."""
    tree = parsed(path)
    return definitions_in(tree.body if tree is not None else [])


def definitions_in(body: list[ast.stmt]) -> dict[str, list[Definition]]:
    """The ``def`` s of a stub's statements by qualified name, overloads together."""
    found: dict[str, list[Definition]] = {}

    def walk(body: list[ast.stmt], prefix: str) -> None:
        for node in live(body):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                _dunder_names_positional_only(node.args, skip=1 if prefix else 0)
                found.setdefault(prefix + node.name, []).append(node)
            elif isinstance(node, ast.ClassDef):
                walk(node.body, f"{prefix}{node.name}.")

    walk(body, "")
    return found


def _dunder_names_positional_only(arguments: ast.arguments, skip: int) -> None:
    """Make the leading parameters named ``__name`` (after ``skip``: a method's
    ``self``) positional-only under the name ``name``, as type checkers read the older
    convention (tomli's ``loads(__s: str)``), where ``/`` is not written."""
    if arguments.posonlyargs:
        return
    taken = {a.arg for a in [*arguments.args, *arguments.kwonlyargs]}
    count = skip
    while count < len(arguments.args) and _is_dunder_name(arguments.args[count].arg):
        count += 1
    if count == skip:
        return
    for argument in arguments.args[skip:count]:
        bare = argument.arg[2:]
        if bare not in taken and bare.isidentifier() and not keyword.iskeyword(bare):
            argument.arg = bare
    arguments.posonlyargs, arguments.args = arguments.args[:count], arguments.args[count:]


def _is_dunder_name(name: str) -> bool:
    return name.startswith("__") and not name.endswith("__")


@functools.cache
def imported_from(path: str) -> dict[str, tuple[str, str]]:
    """What a stub file imports by absolute ``from`` imports: each name it binds, the
    module and the name there (``posix.pyi``'s ``stat``: ``("os", "stat")``)."""
    tree = parsed(path)
    found: dict[str, tuple[str, str]] = {}
    for node in live(tree.body if tree is not None else []):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                found.setdefault(alias.asname or alias.name, (node.module, alias.name))
    return found


@functools.cache
def assigned_from(path: str, name: str) -> str | None:
    """The dotted module path a source's top-level ``name = a.b.name`` takes ``name``
    from (``a.b``), or None."""
    tree = parsed(path)
    for node in live(tree.body if tree is not None else []):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        named = isinstance(target, ast.Name) and target.id == name
        if named and isinstance(value, ast.Attribute) and value.attr == name:
            written = ast.unparse(value.value)
            return written if all(p.isidentifier() for p in written.split(".")) else None
    return None
