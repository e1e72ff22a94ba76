"""The resolved annotations of a callable.

:func:`type_hints_of` resolves what it can (through partials, bound methods and
decorators) and leaves out, with a warning, an annotation it cannot. Two places
besides the function's own module give names: the module's ``if TYPE_CHECKING:``
block (humanize writes ``value: dt.date`` with ``import datetime as dt`` there). For a
function with no annotations at all, :func:`stub_hints_of` reads the stub file its
package ships next to the module (``more.pyi`` beside ``more.py``); both sources are
read by :mod:`objmcp.model.sources`.
"""

from __future__ import annotations

import functools
import inspect
import logging
import typing
from collections.abc import Callable

from .signatures import signature_of
from .sources import stub_definition, type_checking_names

__all__ = ["stub_hints_of", "type_hints_of"]

logger = logging.getLogger("objmcp")


def type_hints_of(function: Callable[..., object]) -> dict[str, object]:
    """The resolved annotations of a callable (through partials, bound methods and
    decorators, with the names its module imports only for type checkers); names whose
    annotation cannot be resolved are left out."""
    target = _unwrapped(function)
    raw = getattr(target, "__annotations__", None)
    try:
        return dict(typing.get_type_hints(target, include_extras=True))
    except Exception:
        pass
    if not isinstance(raw, dict):
        return {}
    namespace = dict(getattr(target, "__globals__", {}))
    module = inspect.getmodule(target)
    if module is not None and any(isinstance(a, str) for a in raw.values()):
        namespace = {**type_checking_names(module), **namespace}
    return _resolved(raw, namespace, getattr(target, "__qualname__", target), quiet=False)


def stub_hints_of(function: Callable[..., object]) -> dict[str, object]:
    """The annotations the stub file its package ships gives a callable that has none of
    its own (``more_itertools/more.pyi`` for ``more_itertools.chunked``), resolved;
    what does not resolve is left out, silently (stubs name things only type checkers
    import)."""
    target = _unwrapped(function)
    if getattr(target, "__annotations__", None):
        return {}
    stub = stub_definition(target)
    if stub is None:
        return {}
    raw: dict[str, object] = dict(stub.annotations)
    parameters = signature_of(function).parameters
    if not set(parameters) <= set(raw) and len(stub.positional) == len(parameters):
        # a compiled function's own names (jellyfish's a, b) for the stub's (s1, s2)
        raw = {
            **{
                name: raw[said]
                for name, said in zip(parameters, stub.positional, strict=True)
                if said in raw
            },
            **({"return": raw["return"]} if "return" in raw else {}),
        }
    return _resolved(raw, stub.namespace, getattr(target, "__qualname__", target), quiet=True)


def _unwrapped(function: Callable[..., object]) -> Callable[..., object]:
    target: object = function
    while True:
        if isinstance(target, (functools.partial, functools.partialmethod)):
            target = target.func
        elif inspect.ismethod(target):
            target = target.__func__
        else:
            break
    unwrapped: Callable[..., object] = inspect.unwrap(typing.cast(Callable[..., object], target))
    return unwrapped


def _resolved(
    raw: dict[str, object], namespace: dict[str, object], owner: object, *, quiet: bool
) -> dict[str, object]:
    hints: dict[str, object] = {}
    for name, annotation in raw.items():
        if not isinstance(annotation, str):
            hints[name] = annotation
            continue
        try:
            hints[name] = eval(annotation, namespace)  # the library's own annotation
        except Exception:
            if quiet:
                continue
            logger.warning(
                "cannot resolve the annotation %r of %s; accepting any JSON value",
                annotation,
                owner,
            )
    return hints
