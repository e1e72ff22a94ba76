"""The names a source's annotations are written in, bound by running only its ``import``
statements and simple assignments of names (``_T = TypeVar("_T")``, ``_Format: TypeAlias
= Literal["short", "long"]``), never the rest of the file: a module's ``if
TYPE_CHECKING:`` block, a compiled module's Python source, a library's stub and
typeshed's. What does not import or evaluate is left unbound.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import sys
import types
from collections.abc import Callable

from .hints import BYTES_LIKE
from .stubsyntax import live, parsed
from .typeshed import typeshed_stub

__all__ = [
    "Finder",
    "source_namespace",
    "stub_namespace",
    "type_checking_names",
    "typeshed_namespace",
]


def type_checking_names(module: types.ModuleType) -> dict[str, object]:
    """The names ``module`` binds only for type checkers, in its ``if TYPE_CHECKING:``
    blocks (``import datetime as dt`` there makes ``dt``)."""
    return dict(_type_checking_names(module.__name__, getattr(module, "__file__", None)))


@functools.cache
def _type_checking_names(module_name: str, path: str | None) -> dict[str, object]:
    """What ``module_name``'s ``if TYPE_CHECKING:`` blocks bind, read in the source
    ``path`` (a compiled module's is the one beside it)."""
    module = sys.modules.get(module_name)
    tree = parsed(path) if module is not None and path else None
    if module is None or tree is None:
        return {}
    statements = [
        statement
        for node in tree.body
        if isinstance(node, ast.If) and _is_type_checking(node.test)
        for statement in node.body
    ]
    namespace = dict(vars(module))
    return _bind(statements, module.__package__ or "", namespace)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def source_namespace(module_name: str, path: str) -> dict[str, object]:
    """The names the Python source ``path`` of a compiled module writes its annotations
    in: the compiled module's own (the source's statements are never run again), and
    those of its ``if TYPE_CHECKING:`` block."""
    module = sys.modules.get(module_name)
    return {**_type_checking_names(module_name, path), **(vars(module) if module else {})}


@functools.cache
def stub_namespace(path: str, package: str) -> dict[str, object]:
    """The names a library's stub binds; what it imports from typeshed's own
    (``_typeshed``'s ``StrPath``) or a name only the standard library's stubs have
    (``subprocess._CMD``) is read there."""
    tree = parsed(path)
    return _bind(list(live(tree.body)) if tree else [], package, {}, stub=True, typeshed=True)


_BINDING: set[str] = set()
"""The typeshed stubs whose names are being bound (stubs import from each other)."""


@functools.cache
def typeshed_namespace(module_name: str) -> dict[str, object]:
    """The names typeshed's stub of ``module_name`` binds: what it imports (from the
    module itself, or from another stub where the module has no such name, as
    ``_typeshed``'s aliases) and its aliases."""
    path = typeshed_stub(module_name)
    tree = parsed(path) if path is not None else None
    if tree is None or module_name in _BINDING:
        return {}
    _BINDING.add(module_name)
    try:
        return _bind(list(live(tree.body)), module_name, {}, stub=True, typeshed=True)
    finally:
        _BINDING.discard(module_name)


def _bind(
    statements: list[ast.stmt],
    package: str,
    namespace: dict[str, object],
    *,
    stub: bool = False,
    typeshed: bool = False,
) -> dict[str, object]:
    """Run the imports and name assignments among ``statements`` in ``namespace``;
    return the names they bound (a name that does not import or evaluate stays unbound).
    ``stub``: a stub's imports take only modules loaded already or of the standard
    library (a stub names what type checkers read: ``numpy/__init__.pyi`` imports
    ``numpy.distutils``, which would import setuptools). ``typeshed``: a name a module
    does not have is looked for in its typeshed stub."""
    bound: dict[str, object] = {}
    for statement in statements:
        for name, find in _bindings(statement, package, stub, typeshed):
            try:
                bound[name] = find({**namespace, **bound})
            except Exception:
                continue
    return bound


Finder = Callable[[dict[str, object]], object]
"""How to find the value a statement binds to a name, given the names bound so far."""


def _bindings(
    statement: ast.stmt, package: str, stub: bool, typeshed: bool
) -> list[tuple[str, Finder]]:
    """The names a statement binds, each with how to find its value."""
    if isinstance(statement, ast.Import):
        return [
            (
                alias.asname or alias.name.split(".")[0],
                _importer(alias.name, alias.asname is None, stub),
            )
            for alias in statement.names
        ]
    if isinstance(statement, ast.ImportFrom):
        base = ("." * statement.level) + (statement.module or "")
        return [
            (alias.asname or alias.name, _from_importer(base, package, alias.name, stub, typeshed))
            for alias in statement.names
            if alias.name != "*"
        ]
    value: ast.expr | None = None
    if isinstance(statement, (ast.AnnAssign, ast.Assign)):
        value = statement.value
        targets = [statement.target] if isinstance(statement, ast.AnnAssign) else statement.targets
    if value is None or len(targets) != 1 or not isinstance(targets[0], ast.Name):
        return []
    code = compile(ast.Expression(value), "<annotations>", "eval")
    return [(targets[0].id, lambda namespace: eval(code, namespace))]


def _importer(name: str, top: bool, stub: bool) -> Finder:
    def find(namespace: dict[str, object]) -> object:
        module = _module(name, None, stub)
        return _module(name.split(".", maxsplit=1)[0], None, stub) if top else module

    return find


def _from_importer(base: str, package: str, name: str, stub: bool, typeshed: bool) -> Finder:
    def find(namespace: dict[str, object]) -> object:
        try:
            return _attribute_or_module(_module(base, package or None, stub), name, stub)
        except Exception:
            if (base, name) in BYTES_LIKE:  # _typeshed's ReadableBuffer: never importable
                return BYTES_LIKE[base, name]
            if not typeshed or base.startswith(".") or base == "typing":
                # what typing lacks, its stub does not bind either: a type checker's own
                # name (type_check_only) or a later Python's, and reading it costs 10 ms
                raise
            return typeshed_namespace(base)[name]

    return find


def _attribute_or_module(source: types.ModuleType, name: str, stub: bool) -> object:
    if hasattr(source, name):
        return getattr(source, name)
    return _module(f"{source.__name__}.{name}", None, stub)


def _module(name: str, package: str | None, stub: bool) -> types.ModuleType:
    """The module ``name`` (relative to ``package``), imported; for a stub, only one
    loaded already or of the standard library (ImportError otherwise)."""
    absolute = importlib.util.resolve_name(name, package) if name.startswith(".") else name
    if stub:
        loaded = sys.modules.get(absolute)
        if loaded is not None:
            return loaded
        if absolute.partition(".")[0] not in sys.stdlib_module_names:
            raise ImportError(f"a stub's import of {absolute}, which is not loaded")
    return importlib.import_module(absolute)
