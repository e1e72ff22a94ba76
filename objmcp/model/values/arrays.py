"""Array classes as parameters: nested JSON arrays made a library's own arrays.

A parameter hinted with a class of the array protocol (one with ``__array__`` or
``__array_function__``: numpy's ``ndarray``, ``numpy.typing.NDArray[...]``, the protocol
``numpy.typing.ArrayLike`` is made of, torch's ``Tensor``) whose library has an
``asarray`` takes what a docstring's ``array_like`` says
(:data:`~objmcp.model.describe.doctypes.ARRAY_LIKE`): a scalar, or arrays of numbers, booleans or
strings nested up to :data:`DEPTH` deep. The value is made an array by that ``asarray``,
looked up when the call is made in the hint class's module or a package above it (the
class's library is loaded, since the class is; objmcp imports none), with the ``dtype``
the hint writes (``NDArray[np.float64]``), whose kind narrows the items (numbers only).

A class whose library has no ``asarray`` (pandas' ``DataFrame``) is no array class here:
it is built as any library class is (:mod:`objmcp.model.values.built`). In a union with an array
class, the protocols beside it (numpy's buffers and nested sequences) are other ways of
saying "array-like" and are read as it (:func:`array_union`).
"""

from __future__ import annotations

import inspect
import sys
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..describe import hints as t
from ..describe.doctypes import nested_arrays

__all__ = ["DEPTH", "ITEM", "ArrayHint", "array_hint", "array_union", "to_array"]

DEPTH = 4
"""How deep an array's schema nests: a scalar, a vector, a matrix, up to 4 dimensions."""

ITEM: object = bool | int | float | str
"""The items of an array whose hint writes no ``dtype``: JSON's scalars but null."""

_KINDS: dict[type, object] = {bool: bool, int: int, float: int | float, complex: int | float}
"""The items a ``dtype``'s scalar takes, by the Python value its ``item()`` gives."""


@dataclass(frozen=True)
class ArrayHint:
    """An array class a parameter is hinted with, and what its values are made of."""

    cls: type
    """The class of the array protocol the hint names."""
    dtype: object
    """The scalar class the hint writes as its ``dtype``, passed to ``asarray``; or None."""
    item: object
    """The hint of the array's items: :data:`ITEM`, or what the ``dtype`` narrows it to."""

    def schema_hint(self) -> object:
        """The hint whose schema the parameter offers: the item or nested arrays of it."""
        return nested_arrays(self.item, DEPTH)


def array_hint(hint: object) -> ArrayHint | None:
    """The :class:`ArrayHint` of ``hint`` (a class of the array protocol whose library
    has an ``asarray``, or a generic alias of one), or None for any other hint."""
    origin = typing.get_origin(hint) or hint
    if not isinstance(origin, type):
        return None
    if not (hasattr(origin, "__array__") or hasattr(origin, "__array_function__")):
        return None
    if _asarray(origin) is None:
        return None
    if t.number_kind(origin) is not None or t.standard_base(origin) is not None:
        return None  # numpy's scalars (float64, str_) have the protocol too: they are numbers
    dtype, item = _dtype(origin, typing.get_args(hint))
    return ArrayHint(origin, dtype, item)


def array_union(members: tuple[object, ...]) -> tuple[object, ...]:
    """The members a union of ``members`` takes values of, as to arrays: where one is an
    array class (:func:`array_hint`), the protocols beside it (numpy's ``_Buffer`` and
    ``_NestedSequence`` in ``ArrayLike``) are left out, taken by that array class;
    otherwise ``members`` as they are."""
    if not any(array_hint(member) is not None for member in members):
        return members
    return tuple(
        member
        for member in members
        if array_hint(member) is not None or not _protocol(typing.get_origin(member) or member)
    )


def to_array(value: object, found: ArrayHint) -> object:
    """``value`` (a JSON scalar or nested arrays) made an array by the library's
    ``asarray``; raise ValueError saying what does not fit."""
    wrong = _misfit(value, found.item, DEPTH, "")
    if wrong is not None:
        raise ValueError(f"expected {_said(found)}, got {wrong}")
    make = _asarray(found.cls)
    if make is None:
        raise ValueError(f"the library of {found.cls.__qualname__} has no asarray")
    try:
        return make(value) if found.dtype is None else make(value, dtype=found.dtype)
    except Exception as error:  # the library's own refusal: a ragged array, a dtype's range
        raise ValueError(f"{found.cls.__qualname__} refused it: {error}") from None


def _asarray(cls: type) -> Callable[..., object] | None:
    """The ``asarray`` of ``cls``'s module or the nearest package above it, as the module
    stores it: a module's ``__getattr__`` (a lazy package's, which imports) never runs."""
    parts = cls.__module__.split(".")
    while parts:
        make = inspect.getattr_static(sys.modules.get(".".join(parts)), "asarray", None)
        if callable(make):
            return typing.cast(Callable[..., object], make)
        parts.pop()
    return None


def _dtype(cls: type, args: tuple[object, ...]) -> tuple[object, object]:
    """The ``dtype`` scalar class an alias's ``args`` write and the items it takes: an
    argument that is an alias of a class of ``cls``'s library (``np.dtype[np.float64]``)
    whose own argument is a class (the shape's ``tuple[Any, ...]`` is not)."""
    library = cls.__module__.split(".")[0]
    for arg in args:
        holder = typing.get_origin(arg)
        inner = typing.get_args(arg)
        if not isinstance(holder, type) or holder.__module__.split(".")[0] != library:
            continue
        scalar = inner[0] if inner else None
        if isinstance(scalar, type) and scalar is not Any and scalar is not object:
            return _scalar_kind(scalar)
    return None, ITEM


def _scalar_kind(scalar: type) -> tuple[object, object]:
    """The ``dtype`` to pass for ``scalar`` and the items it takes. An abstract scalar
    class (``np.floating``), which refuses to be made (TypeError) and no array is made
    of, narrows by the number it is (:func:`~objmcp.model.describe.hints.number_kind`) and is not
    passed. Any other is passed; its items are the kind of the Python value its
    ``item()`` gives, or any (:data:`ITEM`) when it refuses 0 otherwise
    (``np.datetime64`` wants a unit) or makes something else of it (``np.object_(0)``
    is the int 0)."""
    try:
        made: Any = scalar(0)
    except TypeError:
        number = t.number_kind(scalar)
        return None, ITEM if number is None else _KINDS[number]
    except Exception:
        return scalar, ITEM
    if not isinstance(made, scalar):
        return scalar, ITEM
    try:
        plain = made.item() if hasattr(made, "item") else made
    except Exception:
        return scalar, ITEM
    if isinstance(plain, str):
        return scalar, str
    return scalar, _KINDS.get(type(plain), ITEM)


def _protocol(cls: object) -> bool:
    return isinstance(cls, type) and bool(getattr(cls, "_is_protocol", False))


def _misfit(value: object, item: object, depth: int, where: str) -> str | None:
    """What in ``value`` is no ``item``, or an array nested deeper than ``depth``, and
    where (``where`` is the indexes so far); None when all of it fits."""
    if isinstance(value, list):
        if depth == 0:
            return f"an array nested more than {DEPTH} deep at {where}"
        for index, entry in enumerate(value):
            wrong = _misfit(entry, item, depth - 1, f"{where}[{index}]")
            if wrong is not None:
                return wrong
        return None
    kinds = typing.get_args(item) or (item,)
    fits = any(isinstance(value, kind) for kind in kinds if isinstance(kind, type))
    if isinstance(value, bool) and bool not in kinds:
        fits = False
    elif isinstance(value, float) and value.is_integer() and int in kinds:
        fits = True  # 2.0 is an integer to JSON Schema
    return None if fits else f"{_json_kind(value)} {value!r}" + (f" at {where}" if where else "")


def _json_kind(value: object) -> str:
    kinds = {bool: "boolean", int: "integer", float: "number", str: "string", dict: "object"}
    return "null" if value is None else kinds.get(type(value), type(value).__name__)


def _said(found: ArrayHint) -> str:
    """What an array of ``found`` takes, for an error message."""
    items = {bool: "booleans", int: "integers", str: "strings"}.get(
        typing.cast(type, found.item), "numbers" if found.item == int | float else None
    )
    items = items or "numbers, booleans or strings"
    return f"a scalar or arrays of {items} for {found.cls.__qualname__}"
