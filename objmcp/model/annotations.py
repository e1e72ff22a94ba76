"""The resolved annotations of a callable.

:func:`type_hints_of` resolves what it can (through partials, bound methods and
decorators) and leaves out, with a warning, an annotation it cannot.
"""

from __future__ import annotations

import functools
import inspect
import logging
import typing
from collections.abc import Callable

__all__ = ["type_hints_of"]

logger = logging.getLogger("objmcp")


def type_hints_of(function: Callable[..., object]) -> dict[str, object]:
    """The resolved annotations of a callable (through partials, bound methods and
    decorators); names whose annotation cannot be resolved are left out."""
    target: object = function
    while True:
        if isinstance(target, (functools.partial, functools.partialmethod)):
            target = target.func
        elif inspect.ismethod(target):
            target = target.__func__
        else:
            break
    target = inspect.unwrap(typing.cast(Callable[..., object], target))
    try:
        return dict(typing.get_type_hints(target, include_extras=True))
    except Exception:
        pass
    raw = getattr(target, "__annotations__", None)
    if not isinstance(raw, dict):
        return {}
    hints: dict[str, object] = {}
    namespace = getattr(target, "__globals__", {})
    for name, annotation in raw.items():
        if not isinstance(annotation, str):
            hints[name] = annotation
            continue
        try:
            hints[name] = eval(annotation, namespace)  # the function's own annotation
        except Exception:
            logger.warning(
                "cannot resolve the annotation %r of %s; accepting any JSON value",
                annotation,
                getattr(target, "__qualname__", target),
            )
    return hints
