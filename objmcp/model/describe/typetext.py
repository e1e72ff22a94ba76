"""Types written as text outside any Python code, resolved without running anything.

A C callable's docstring may annotate its parameters (pybind11 writes ``set_seed(arg0:
typing.SupportsInt | typing.SupportsIndex) -> None``): :func:`type_from_text` reads such
an annotation as the expression it is and looks its names up, never calling, importing
or evaluating anything: builtins, :mod:`typing`'s names, the names of the modules the
callable comes from, and dotted names through the modules already loaded
(``collections.abc.Sequence``, ``os.PathLike``, the library's own
``mod.capi.Class``). A name nothing gives (C++'s ``onnx::OpSchema``) gives no type.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import operator
import sys
import types
import typing
from collections.abc import Callable, Mapping

__all__ = ["UNRESOLVED", "namespace_of", "type_from_text"]


class _Unresolved:
    """What :func:`type_from_text` gives for text that names no type it can find."""

    def __repr__(self) -> str:
        return "UNRESOLVED"


UNRESOLVED: typing.Final = _Unresolved()
"""What :func:`type_from_text` gives for text that names no type it can find, or that
could only be read by running an object's code (``ctypes.cdll['libm.so.6']``)."""

_TYPING_NAMES: dict[str, object] = {name: getattr(typing, name) for name in typing.__all__}


def namespace_of(function: Callable[..., object]) -> dict[str, object]:
    """The names a docstring of ``function`` may use unqualified besides the builtins and
    :mod:`typing`'s: those of the module it comes from and of its instance's class's
    module (a bound method's)."""
    namespace: dict[str, object] = {}
    owners: list[object] = [function]
    bound_to = getattr(function, "__self__", None)
    if bound_to is not None and not isinstance(bound_to, types.ModuleType):
        owners.append(type(bound_to))
    for owner in owners:
        module = sys.modules.get(getattr(owner, "__module__", None) or "")
        if module is not None:
            namespace.update(vars(module))
    return namespace


def type_from_text(text: str, namespace: Mapping[str, object]) -> object:
    """The type ``text`` writes (``list[str]``, ``typing.SupportsInt | None``), its names
    looked up in ``namespace``, the builtins, :mod:`typing`'s names and, dotted, the
    loaded modules; ``None`` is
    ``NoneType`` as in an annotation. :data:`UNRESOLVED` when it writes none, or names
    something that is no type (a function of the module, a constant)."""
    try:
        tree = ast.parse(text.strip(), mode="eval").body
        found = _value(tree, namespace)
    except Exception:  # a name not found, a subscript the type refuses: no type
        return UNRESOLVED
    return found if _is_type(found) else UNRESOLVED


def _is_type(found: object) -> bool:
    return (
        isinstance(found, (type, typing.TypeVar))
        or typing.get_origin(found) is not None
        or found is typing.Any
    )


def _value(node: ast.expr, namespace: Mapping[str, object]) -> object:
    """What ``node`` names: a name, an attribute, a subscript, a ``|`` union, a literal;
    anything else (a call, a slice, an operator) raises."""
    if isinstance(node, ast.Name):
        return _named(node.id, namespace)
    if isinstance(node, ast.Attribute):
        return _attribute(_value(node.value, namespace), node.attr)
    if isinstance(node, ast.Subscript):
        base = _value(node.value, namespace)
        if not _generic(base):
            raise LookupError(f"not subscripted, no generic: {ast.unparse(node.value)}")
        return base[_value(node.slice, namespace)]  # type: ignore[index]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = (_value(side, namespace) for side in (node.left, node.right))
        if not (_is_type(left) and _is_type(right)):
            raise LookupError(f"no union of types: {ast.unparse(node)}")
        return operator.or_(left, right)
    if isinstance(node, ast.Tuple):
        return tuple(_value(item, namespace) for item in node.elts)
    if isinstance(node, ast.List):
        return [_value(item, namespace) for item in node.elts]
    if isinstance(node, ast.Constant) and node.value is None:
        return type(None)
    if isinstance(node, ast.Constant) and node.value is Ellipsis:
        return Ellipsis
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, bool)):
        return node.value  # a Literal's choices
    raise LookupError(f"no type: {ast.unparse(node)}")


def _generic(base: object) -> bool:
    """Whether ``base[...]`` is a type's own subscript, as :mod:`typing` builds one: a
    class, a generic alias, or an object of :mod:`typing`'s own classes (``Union``,
    ``Literal``, ``typing.List``); any other object's ``__getitem__`` is its code."""
    if isinstance(base, (type, types.GenericAlias)):
        return True
    kind = type(base)
    home = sys.modules.get(kind.__module__) if kind.__module__ in _TYPING_MODULES else None
    return home is not None and getattr(home, kind.__qualname__, None) is kind


_TYPING_MODULES = ("typing", "typing_extensions")


def _named(name: str, namespace: Mapping[str, object]) -> object:
    for names in (namespace, vars(builtins), _TYPING_NAMES, sys.modules):
        if name in names:
            return names[name]
    raise LookupError(name)


def _attribute(owner: object, name: str) -> object:
    """``owner.name`` as it is stored (no module ``__getattr__`` runs, which may import),
    or the loaded submodule of that name (``numpy.typing``)."""
    try:
        return inspect.getattr_static(owner, name)
    except AttributeError:
        if isinstance(owner, types.ModuleType):
            return sys.modules[f"{owner.__name__}.{name}"]
        raise
