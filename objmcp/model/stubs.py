"""Types from a library's own stub files (``.pyi``, PEP 561), for code that has none inline.

A compiled extension (``jellyfish``'s Rust functions) or a library typed in stubs beside
untyped sources (``matplotlib``) says its types in a ``.pyi`` file next to the module.
:func:`stub_hints` finds the stub of the module a callable is defined in (or of a
package above it that re-exports it), reads the callable's ``def`` there with :mod:`ast`
(never importing the stub), and resolves each annotation in a namespace made of the
stub's own imports and the runtime module. Overloaded definitions say nothing one
schema can hold, and are not read. Parameters are matched by name, or by position when
the runtime names differ (a C function's ``a, b`` against the stub's ``s1, s2``).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["stub_hints"]


def stub_hints(function: Callable[..., object], signature: inspect.Signature) -> dict[str, object]:
    """The types a stub file gives ``function``'s parameters (by the names of
    ``signature``) and its return (``"return"``); empty when no stub says any."""
    module = getattr(function, "__module__", None)
    qualname = getattr(function, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or "<" in qualname:
        return {}
    for owner in _module_and_parents(module):
        found = _definition(owner, qualname) or _definition(owner, qualname.rsplit(".", 1)[-1])
        if found is not None:
            node, is_method = found
            return _resolved(owner, node, is_method, signature)
    return {}


def _module_and_parents(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:end]) for end in range(len(parts), 0, -1)]


@functools.lru_cache(maxsize=256)
def _stub_tree(module: str) -> ast.Module | None:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.has_location:
        return None
    origin = Path(spec.origin)
    stub = origin.with_name(origin.name.split(".", 1)[0] + ".pyi")
    try:
        return ast.parse(stub.read_text(encoding="utf-8"), filename=str(stub))
    except (OSError, SyntaxError, ValueError):
        return None


_Definition = ast.FunctionDef | ast.AsyncFunctionDef


def _definition(module: str, qualname: str) -> tuple[_Definition, bool] | None:
    """The one (not overloaded) ``def`` of ``qualname`` in ``module``'s stub, and whether
    it is a method (its first parameter the instance or class)."""
    tree = _stub_tree(module)
    if tree is None:
        return None
    body: list[ast.stmt] = tree.body
    *classes, name = qualname.split(".")
    is_method = False
    for part in classes:
        owner = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == part), None)
        if owner is None:
            return None
        body, is_method = owner.body, True
    found = [n for n in body if isinstance(n, _Definition) and n.name == name]
    if len(found) != 1:
        return None  # absent, or overloaded
    node = found[0]
    static = any(_decorator_name(d) == "staticmethod" for d in node.decorator_list)
    return node, is_method and not static


def _decorator_name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else getattr(node, "attr", "")


def _resolved(
    module: str, node: _Definition, is_method: bool, signature: inspect.Signature
) -> dict[str, object]:
    stub_params = [*node.args.posonlyargs, *node.args.args]
    if is_method and stub_params:
        stub_params = stub_params[1:]
    by_name = {arg.arg: arg.annotation for arg in [*stub_params, *node.args.kwonlyargs]}
    if node.args.vararg is not None:
        by_name[node.args.vararg.arg] = node.args.vararg.annotation
    if node.args.kwarg is not None:
        by_name[node.args.kwarg.arg] = node.args.kwarg.annotation
    annotations: dict[str, ast.expr | None] = {}
    positional = [
        p
        for p in signature.parameters.values()
        if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]
    if all(p in by_name for p in signature.parameters):
        annotations = {name: by_name[name] for name in signature.parameters}
    elif len(positional) == len(stub_params) and len(positional) == len(signature.parameters):
        annotations = {
            p.name: arg.annotation for p, arg in zip(positional, stub_params, strict=True)
        }
    annotations["return"] = node.returns
    namespace = _namespace(module)
    hints: dict[str, object] = {}
    for name, annotation in annotations.items():
        if annotation is None:
            continue
        with contextlib.suppress(Exception):  # an annotation only a type checker reads
            hints[name] = eval(compile(ast.Expression(annotation), module, "eval"), namespace)
    return hints


@functools.lru_cache(maxsize=64)
def _namespace(module: str) -> dict[str, Any]:
    """The names a stub's annotations use: the stub's own imports (each on its own, so
    one that fails costs only its names) over the runtime module's."""
    namespace: dict[str, Any] = {"__builtins__": __builtins__}
    runtime = sys.modules.get(module)
    if runtime is None:
        with contextlib.suppress(Exception):
            runtime = importlib.import_module(module)
    if runtime is not None:
        namespace.update(vars(runtime))
    tree = _stub_tree(module)
    for statement in tree.body if tree is not None else ():
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            code = compile(ast.Module([statement], type_ignores=[]), module, "exec")
            scope: dict[str, Any] = {"__name__": module, "__package__": _package(module)}
            with contextlib.suppress(Exception):
                exec(code, scope)  # the stub's own import statement
            namespace.update({k: v for k, v in scope.items() if not k.startswith("__")})
    return namespace


def _package(module: str) -> str:
    spec = importlib.util.find_spec(module)
    if spec is not None and spec.submodule_search_locations is not None:
        return module
    return module.rpartition(".")[0]
