"""The call signature of any callable, C functions and renaming decorators included.

:func:`signature_of` is :func:`inspect.signature` made to fit how the callable is
really called: a numpy ufunc takes its inputs (``x1, x2``); a decorator whose wrapper
takes the wrapped function's arguments under other names gets them by position; and a
C callable :mod:`inspect` cannot read gets the signature its text writes
(:mod:`.textsignatures`).
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable

from .sources import stub_signature
from .textsignatures import (
    DOC_SIGNATURE,
    OMITTED,
    from_doc_line,
    from_parameters_section,
    from_text_signature,
)

__all__ = [
    "DOC_SIGNATURE",
    "OMITTED",
    "has_text_signature",
    "is_async",
    "is_ufunc",
    "signature_of",
    "written_signature_of",
]


def signature_of(function: Callable[..., object]) -> inspect.Signature:
    """The call signature of any callable, bound ``self`` already dropped.

    A numpy ufunc's is its inputs, positional-only. A decorated function's is the
    wrapped one's (its names, hints and defaults), its parameters positional-only up
    to the last one the wrapper takes under another name. A C callable
    :mod:`inspect` cannot read gets the one its ``__text_signature__``, its stub
    (typeshed's ``fromisocalendar(year, week, day)``; for a compiled module, the Python
    source mypyc ships beside it), its docstring's first line
    (``hypot(*coordinates) -> value``, pybind11's ``set_seed(arg0: int) -> None``, its
    ``self`` dropped where the method is bound) or its numpydoc ``Parameters`` section
    writes, annotations as text;
    failing all of them, one optional array parameter ``args``. A callable whose
    signature is ``(*args, **kwargs)`` gets the one its stub writes, else the one its
    docstring's first line writes under its name, if either writes one.
    """
    written = written_signature_of(function)
    if written is None:
        return inspect.Signature([inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL)])
    return written


def written_signature_of(function: Callable[..., object]) -> inspect.Signature | None:
    """:func:`signature_of`, or None where nothing (the runtime, a stub, a docstring)
    writes one: whether a class can be made with no arguments is then unknown."""
    if is_ufunc(function):
        return _ufunc_signature(function)
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        pass
    else:
        if _passes_anything(signature):
            named = getattr(function, "__name__", None)
            written = stub_signature(function)
            if written is not None and _passes_anything_by_name(written):
                written = None  # the runtime's own names (rpds' *maps) are as good
            if written is None and isinstance(named, str):
                written = from_doc_line(inspect.getdoc(function) or "", named)
            if written is not None:
                return _without_bound_self(function, written)
        return _as_the_wrapper_takes(function, signature)
    written = from_text_signature(function)
    if written is not None:
        return written
    doc = inspect.getdoc(function) or ""
    written = stub_signature(function) or from_doc_line(doc) or from_parameters_section(doc)
    if written is None:
        return None
    written = _required_by_position(written)
    if _is_unbound_method(function):  # a docstring leaves out the instance it is called on
        instance = inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)
        return written.replace(parameters=[instance, *written.parameters.values()])
    return _without_bound_self(function, written)


def _without_bound_self(
    function: Callable[..., object], written: inspect.Signature
) -> inspect.Signature:
    """``written`` without the ``self`` it opens with when ``function`` is bound to an
    instance already: pybind11 writes ``name(self: mod.Class, arg0: str)`` for a method."""
    bound_to = getattr(function, "__self__", None)
    parameters = list(written.parameters.values())
    if bound_to is None or isinstance(bound_to, types.ModuleType) or not parameters:
        return written
    if parameters[0].name != "self" or parameters[0].kind not in _BY_POSITION:
        return written
    return written.replace(parameters=parameters[1:])


def _required_by_position(written: inspect.Signature) -> inspect.Signature:
    """A C callable's ``written`` signature (a stub's, a docstring's) with its leading
    required parameters positional-only: their names are the writer's, not always the
    keywords the C code parses (zstandard's stub writes ``frame_content_size(data)``, the
    function takes ``source``), and a required parameter is always given, so passing
    it by position leaves no gap."""
    parameters = list(written.parameters.values())
    for index, parameter in enumerate(parameters):
        if parameter.kind is inspect.Parameter.POSITIONAL_ONLY:
            continue
        if parameter.kind is not _BY_POSITION[1] or parameter.default is not parameter.empty:
            break
        parameters[index] = parameter.replace(kind=inspect.Parameter.POSITIONAL_ONLY)
    return written.replace(parameters=parameters)


def _passes_anything(signature: inspect.Signature) -> bool:
    """Whether ``signature`` is ``(*args, **kwargs)``, which says nothing of what the
    callable wants (a callable object passing its arguments on, such as scipy's
    ``legendre_p``)."""
    kinds = [p.kind for p in signature.parameters.values()]
    return kinds == [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD]


def _passes_anything_by_name(signature: inspect.Signature) -> bool:
    """Whether ``signature`` names no parameter of its own, only ``*args`` or ``**kwargs``."""
    return all(
        p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        for p in signature.parameters.values()
    )


def _is_unbound_method(function: object) -> bool:
    """A C class's method taken from the class (``datetime.date.strftime``), which
    wants the instance first."""
    return (
        inspect.ismethoddescriptor(function)
        and hasattr(function, "__objclass__")
        and not isinstance(function, types.ClassMethodDescriptorType)
    )


def is_ufunc(function: object) -> bool:
    """Whether ``function`` is a numpy universal function (read by its shape: objmcp
    does not import numpy)."""
    kind = type(function)
    return (
        kind.__name__ == "ufunc"
        and kind.__module__ == "numpy"
        and isinstance(getattr(function, "nin", None), int)
    )


def _ufunc_signature(ufunc: Callable[..., object]) -> inspect.Signature:
    """A ufunc's inputs, positional-only, named as its own signature names them (numpy's
    ``x`` or ``x1, x2, ...`` where it has none); ``out``, ``where``, ``dtype`` and the
    like are left out."""
    count: int = ufunc.nin  # type: ignore[attr-defined]
    try:
        names = list(inspect.signature(ufunc).parameters)[:count]
    except (TypeError, ValueError):
        names = []
    if len(names) != count:
        names = ["x"] if count == 1 else [f"x{index}" for index in range(1, count + 1)]
    return inspect.Signature(
        [inspect.Parameter(name, inspect.Parameter.POSITIONAL_ONLY) for name in names]
    )


_BY_POSITION = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
_BY_NAME = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def _as_the_wrapper_takes(
    function: Callable[..., object], wrapped: inspect.Signature
) -> inspect.Signature:
    """``wrapped`` (the signature through ``__wrapped__``), its parameters made
    positional-only up to the last one whose place in the outer wrapper's own
    signature a parameter of another name holds (``dateutil``'s ``isoparse(dt_str)``,
    whose wrapper is ``(str_in, *args, **kwargs)``). A wrapper that takes
    ``(*args, **kwargs)`` passes names through."""
    try:
        own = inspect.signature(function, follow_wrapped=False)
    except (TypeError, ValueError):
        return wrapped
    try:
        same = own == wrapped
    except (TypeError, ValueError):  # a default that refuses comparison (pandas' NA)
        same = False
    if same:
        return wrapped
    own_params = list(own.parameters.values())
    by_name = {p.name for p in own_params if p.kind in _BY_NAME}
    positions = [p for p in own_params if p.kind in _BY_POSITION]
    params = list(wrapped.parameters.values())
    last = -1
    for index, param in enumerate(params):
        if param.kind not in _BY_POSITION or param.name in by_name:
            continue
        if index < len(positions):
            last = index
    if last < 0:
        return wrapped
    return wrapped.replace(
        parameters=[
            p.replace(kind=inspect.Parameter.POSITIONAL_ONLY) if index <= last else p
            for index, p in enumerate(params)
        ]
    )


def has_text_signature(function: object) -> bool:
    """Whether ``function`` has a signature of its own (Python code, or a C callable
    with ``__text_signature__``), not one only its docstring writes (a builtin's, a
    pybind11 method's, anything :func:`inspect.signature` cannot read)."""
    if getattr(function, "__text_signature__", None) is not None:
        return True
    if inspect.isbuiltin(function) or inspect.ismethoddescriptor(function):
        return False
    try:
        inspect.signature(function)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return True


def is_async(function: object) -> bool:
    """Whether calling ``function`` gives a coroutine or an async iterator (through
    ``functools.partial`` and decorators that keep ``__wrapped__``)."""
    while True:
        if inspect.iscoroutinefunction(function) or inspect.isasyncgenfunction(function):
            return True
        inner = getattr(function, "func", None) or getattr(function, "__wrapped__", None)
        if inner is None or inner is function:
            return False
        function = inner
