"""The resolved annotations of a callable.

:func:`type_hints_of` resolves what it can (through partials, bound methods and
decorators) and leaves out an annotation it cannot: what becomes of that parameter
(and so whether it is worth a warning) is decided where the schema is made. Two places
besides the function's own module give names: the module's ``if TYPE_CHECKING:``
block (humanize writes ``value: dt.date`` with ``import datetime as dt`` there). For a
function with no annotations at all, :func:`stub_hints_of` reads the stub a stub-only
package gives (``regex-stubs/_main.pyi``, from ``types-regex``), else the stub file its
package ships next to the module (``more.pyi`` beside ``more.py``), or typeshed's for
the standard library; the stubs are read by :mod:`objmcp.model.describe.sources`, the names
they are written in bound by :mod:`objmcp.model.describe.boundnames`. A stub
speaks to type checkers (``SupportsFloat``, ``str | bytes | PathLike[str]``): what it
says is taken in what JSON can carry (``float``, ``str``), and a type with no JSON form
is left out.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import operator
import os
import typing
from collections.abc import Callable

from .boundnames import type_checking_names
from .hints import BINARY, MAPPINGS, SEQUENCES, SETS, bytes_like, is_union
from .paramtypes import uncarried
from .schema import has_json_form
from .signatures import signature_of
from .sources import stub_definition
from .typetext import UNRESOLVED, namespace_of, type_from_text

__all__ = ["stub_hints_of", "type_hints_of"]


def type_hints_of(function: Callable[..., object]) -> dict[str, object]:
    """The resolved annotations of a callable (through partials, bound methods and
    decorators, with the names its module imports only for type checkers); names whose
    annotation cannot be resolved are left out, silently (the signature keeps them as
    text: a tool that shows such a parameter says so). A class's are those of what makes
    its instances (its ``__init__``, else its ``__new__``), without a return. A callable
    with none of its own has those its written signature gives (pybind11's docstring
    ``set_seed(arg0: typing.SupportsInt) -> None``), in what JSON can carry."""
    if isinstance(function, type):
        return _maker_hints(function)
    return _own_hints(function) or _written_hints(function)


def _own_hints(function: Callable[..., object]) -> dict[str, object]:
    """The annotations ``function`` itself has, resolved."""
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
    return _resolved(raw, namespace)


def _written_hints(function: Callable[..., object]) -> dict[str, object]:
    """The annotations the text of ``function``'s signature writes
    (:mod:`.textsignatures`), resolved by :func:`~.typetext.type_from_text` and taken in
    what JSON can carry as a stub's are; those naming no type are left out, silently."""
    signature = signature_of(function)
    written = {name: p.annotation for name, p in signature.parameters.items()}
    written["return"] = signature.return_annotation
    texts = {name: text for name, text in written.items() if isinstance(text, str)}
    if not texts:
        return {}
    namespace = namespace_of(function)
    hints: dict[str, object] = {}
    for name, text in texts.items():
        hint = type_from_text(text, namespace)
        if hint is UNRESOLVED:
            continue
        carried = hint if name == "return" else _for_json(hint)
        if carried is not _NONE and carried is not typing.Any:
            hints[name] = carried
    return hints


def _maker_hints(cls: type) -> dict[str, object]:
    """The hints of a call of ``cls``: its ``__init__``'s, or its ``__new__``'s when the
    ``__init__`` is not written in Python (object's, a C class's); no return."""
    for name in ("__init__", "__new__"):
        maker = inspect.getattr_static(cls, name, None)
        maker = maker.__func__ if isinstance(maker, staticmethod) else maker
        if inspect.isfunction(maker):
            hints = type_hints_of(maker)
            hints.pop("return", None)
            return hints
    return {}


def stub_hints_of(
    function: Callable[..., object], signature: inspect.Signature | None = None
) -> dict[str, object]:
    """The annotations the stub file its package ships gives a callable that has none of
    its own (``more_itertools/more.pyi`` for ``more_itertools.chunked``), resolved;
    what does not resolve is left out, silently (stubs name things only type checkers
    import). ``signature``: the callable's, where the caller has it already."""
    target = _unwrapped(function)
    if isinstance(target, type):
        if _maker_hints(target):
            return {}
    elif getattr(target, "__annotations__", None):
        return {}
    stub = stub_definition(target)
    if stub is None:
        return {}
    raw: dict[str, object] = dict(stub.annotations)
    parameters = (signature or signature_of(function)).parameters
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
    if isinstance(function, type):
        raw.pop("return", None)  # its __init__'s None, its __new__'s instance: not a result
    hints = _resolved(raw, stub.namespace)
    carried = {name: _for_json(hint) if name != "return" else hint for name, hint in hints.items()}
    return {name: hint for name, hint in carried.items() if hint not in (_NONE, typing.Any)}


_NONE: object = inspect.Parameter.empty

_STAND_INS: dict[object, type] = {
    typing.SupportsFloat: float,
    typing.SupportsInt: int,
    typing.SupportsIndex: int,
    os.PathLike: str,
}
"""What a model sends for a protocol a stub names: a number for ``SupportsFloat``, a
string for ``PathLike[str]``."""


def _for_json(hint: object) -> object:
    """A stub's ``hint`` in what JSON can carry: protocols by what a model sends
    (:data:`_STAND_INS`; bytes for a bytes-like one, :func:`~.hints.bytes_like`), a
    constrained type variable by its constraints, a union by
    its members JSON can carry (text for ``str | bytes``), a free one as ``Any`` (an
    item of an ``Iterable[_T]``), or :data:`_NONE`: nothing JSON can carry, or nothing
    narrower than any value."""
    if hint is object or hint is typing.Any:
        return typing.Any
    if uncarried(hint, None) is not None:
        return hint  # a callable, a file object: the tool says what it needs
    hint = bytes_like(hint)
    origin = typing.get_origin(hint) or hint
    stand_in = _STAND_INS.get(origin) if _hashable(origin) else None
    if stand_in is not None:
        return stand_in
    if isinstance(hint, typing.TypeVar):
        members: tuple[object, ...] = hint.__constraints__ or (
            (hint.__bound__,) if hint.__bound__ is not None else ()
        )
        return _union_for_json(members) if members else typing.Any
    if is_union(hint):
        return _union_for_json(typing.get_args(hint))
    args = typing.get_args(hint)
    if args and (origin in SEQUENCES or origin in SETS or origin in MAPPINGS):
        carried = tuple(_for_json(arg) for arg in args)
        if _NONE in carried:
            return _NONE
        try:
            hint = origin[carried if len(carried) > 1 else carried[0]]  # type: ignore[index]
        except TypeError:
            return _NONE
    return hint if hint is typing.Any or has_json_form(hint) else _NONE


def _union_for_json(members: tuple[object, ...]) -> object:
    carried: list[object] = []
    for member in members:
        found = _for_json(member) if member is not type(None) else member
        if found is not _NONE and found not in carried:
            carried.append(found)
    if str in carried:
        carried = [m for m in carried if m not in BINARY]
    if float in carried:
        carried = [m for m in carried if m is not int]  # an int is a float to typing
    if not carried or carried == [type(None)] or typing.Any in carried:
        return _NONE
    return functools.reduce(operator.or_, carried)


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


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


def _resolved(raw: dict[str, object], namespace: dict[str, object]) -> dict[str, object]:
    hints: dict[str, object] = {}
    for name, annotation in raw.items():
        if not isinstance(annotation, str):
            hints[name] = annotation
            continue
        with contextlib.suppress(Exception):
            hints[name] = eval(annotation, namespace)  # the library's own annotation
    return hints
