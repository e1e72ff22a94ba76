"""Values of a library's own classes, built from JSON by their constructors.

A parameter typed as a class JSON cannot carry as it is (no standard kind, dataclass,
model or enum: ``variable: Variable``, ``options: CountOptions``) takes what the class's
constructor takes (:func:`construction`, read as a tool of the class is, from its
signature, stub and docstring): an object of the constructor's arguments by name, and,
when one argument is what it takes alone (``Variable("xm")``, ``Version("1.2")``), that
value on its own. A class whose constructor takes nothing a model can say (or refuses
to be called) is made by its package's factory function of the same name in lower case
when there is one (``array`` for ``Array``), from one value.

A class whose constructor has no lone-value form (it needs more than one value, or refuses
to be called) takes one value by its alternate constructors (:func:`alternates`): public
class methods named ``from_*`` or ``from*`` (``Resource.from_contents``,
``Color.fromhex``) that need exactly one value, typed by the library (an annotation, a
stub or a docstring; any JSON value when a free type variable types it). An object whose
keys all name the constructor's arguments still goes to the constructor; any other value
goes to the first alternate, in the order the class declares them (its own, then its
bases'), whose parameter's schema it fits, else to the first. What an alternate gives
must be an instance of the class, or the value is refused.

:func:`build` calls the constructor; its refusal is :class:`Refused` (which the
converter says as an error naming the class). For the methods of a
served object (an instance: a stateful target), a value built from the same JSON for the
same class is the same object in each call to that object (:func:`remembering`, the
:data:`MEMO_SIZE` most recent per object): a model that names a variable "xm" twice
means one variable. Module functions build afresh each call.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import enum
import inspect
import io
import json
import logging
import re
import sys
import threading
import types
import typing
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..._exceptions import ArgumentError
from ..describe import hints as t
from ..describe.signatures import written_signature_of
from .arrays import array_hint

__all__ = [
    "DEPTH",
    "MEMO_SIZE",
    "Construction",
    "Binding",
    "Memo",
    "Reader",
    "Refused",
    "alternates",
    "build",
    "chosen_form",
    "construction",
    "library_class",
    "read_makers_with",
    "reading_constructor",
    "remembering",
]

MEMO_SIZE = 512
"""How many built values a served object keeps, the most recently used."""


@dataclass(frozen=True, eq=False)
class Construction:
    """How a class is made from JSON: ``maker`` (the class, or its factory), the input
    schema of its arguments (``arguments``, as a tool of it would have), ``bind``, which
    turns JSON arguments into its positional and keyword ones (raising
    :class:`~objmcp.ArgumentError`), and the argument that may come alone (``alone``)."""

    cls: type
    maker: Callable[..., object]
    arguments: dict[str, Any]
    bind: Binding
    alone: str | None
    alternates: tuple[Construction, ...] = ()
    """The alternate constructors that give the lone-value form the maker lacks."""

    def schema(self) -> dict[str, Any]:
        """What a parameter of the class takes: the object of the maker's arguments,
        its lone argument's value (or its alternates'), or any of those."""
        forms: list[dict[str, Any]] = []
        if self.maker is self.cls and self.arguments.get("properties"):
            forms.append({"title": self.cls.__name__, **self.arguments})
        for lone in self.lone_forms():
            form = lone.alone_schema()
            if form == {}:
                return {}  # any value: the alternate takes it
            if form not in forms:
                forms.append(form)
        return forms[0] if len(forms) == 1 else {"anyOf": forms}

    def alone_schema(self) -> dict[str, Any]:
        """The schema of the value that comes alone (``{}`` without one)."""
        if self.alone is None:
            return {}
        alone = self.arguments["properties"][self.alone]
        return {key: value for key, value in alone.items() if key != "default"}

    def lone_forms(self) -> tuple[Construction, ...]:
        """What takes a value that comes alone: this maker when it has a lone argument,
        then its alternates, in order."""
        return ((self,) if self.alone is not None else ()) + self.alternates


Binding = Callable[[dict[str, object]], tuple[list[object], dict[str, object]]]
"""Turns JSON arguments into a callable's positional and keyword ones."""
Reader = Callable[
    [Callable[..., object], str], tuple[dict[str, Any], Binding, frozenset[str]] | None
]
"""How a maker is read (:func:`read_makers_with`): given it and its name, the input schema
and the binding a tool of it has, and the parameters the library types (an annotation, a
stub, a docstring), or None when it makes no tool."""
_READER: list[Reader] = []


def read_makers_with(reader: Reader) -> None:
    """Read the makers of classes with ``reader``: the tool module's own reading of a
    callable (signature, stub, docstring), which this module cannot import (the tool
    module converts by it)."""
    _READER[:] = [reader]


DEPTH = 2
"""How deep classes built from JSON nest: a class's constructor may take a value of
another class built from JSON (``timezone(offset: timedelta)``), whose own constructor
then takes only what JSON carries as it is. Deeper, schemas would grow with every level
and a class that takes itself (a tree's node) would never end."""

_MADE: dict[tuple[type, int], Construction | None] = {}
_LOCAL = threading.local()


def reading_constructor() -> bool:
    """Whether this thread is reading a class's constructor as a tool now: what that
    says of its parameters is no tool's, and goes unsaid."""
    return _depth() > 0


def _depth() -> int:
    """How many constructors this thread is reading, one inside another."""
    return int(getattr(_LOCAL, "depth", 0))


def _unless_reading(record: logging.LogRecord) -> bool:
    return not reading_constructor()


logging.getLogger("objmcp").addFilter(_unless_reading)


def construction(cls: object) -> Construction | None:
    """How ``cls`` is made from JSON, or None when it is not (no class of a library; a
    constructor that takes nothing a model can say, or needs an argument nothing types,
    and no factory). Classes nest :data:`DEPTH` deep: a class met while the constructors
    of that many are read is not built. What is found at each depth is kept for that
    depth, so that it does not depend on which class was asked for first."""
    if not isinstance(cls, type) or not library_class(cls):
        return None
    depth = _depth()
    if depth >= DEPTH:
        return None
    try:
        return _MADE[cls, depth]
    except (KeyError, TypeError):
        pass
    _LOCAL.depth = depth + 1
    try:
        made = _construction(cls)
    finally:
        _LOCAL.depth = depth
    with contextlib.suppress(TypeError):  # a class its metaclass makes unhashable
        _MADE[cls, depth] = made
    return made


def library_class(cls: type) -> bool:
    """Whether ``cls`` is a concrete class of a library's own, none of those JSON carries
    another way: no builtin, ``Any``, exception, file, enum, standard kind, array class
    (:mod:`objmcp.model.values.arrays`), model, protocol or abstract class (a JSON value may be
    what ``Hashable`` asks for), nor a typed container (``class Tags(List[str])``); a
    generic class of its own (``class Resource(Generic[D])``) is one."""
    if cls.__module__ == "builtins" or issubclass(cls, (type, BaseException, io.IOBase)):
        return False
    if cls is typing.Any or array_hint(cls) is not None:  # Any is a class from 3.11
        return False
    if issubclass(cls, enum.Enum) or t.standard_kind(cls) or t.standard_base(cls):
        return False
    if t.number_kind(cls) is not None:
        return False
    if t.is_dataclass_type(cls) or t.is_typeddict_type(cls) or t.is_namedtuple_type(cls):
        return False
    if t.is_pydantic_model(cls) or t.path_class(cls) or inspect.isabstract(cls):
        return False
    if typing.Generic in cls.__bases__ and any(
        base.__module__ in _CONTAINER_MODULES
        for base in cls.__bases__
        if base is not typing.Generic
    ):
        return False
    return not getattr(cls, "_is_protocol", False)


_CONTAINER_MODULES = ("builtins", "collections", "collections.abc", "typing")
"""Where the bases of a typed container come from (``List[str]`` is ``list`` and
``Generic``)."""


def _construction(cls: type) -> Construction | None:
    made = _read(cls, cls)
    if made is None or made.alone is None:
        others = alternates(cls)
        if others and made is not None:
            return dataclasses.replace(made, alternates=others)
        if others:
            return dataclasses.replace(others[0], alternates=others[1:])
    if made is not None:
        return made
    factory = _factory(cls)
    if factory is None:
        return None
    made = _read(cls, factory)
    return made if made is not None and made.alone is not None else None


def _read(cls: type, maker: Callable[..., object]) -> Construction | None:
    """``maker`` read as a tool is, when what it takes has a JSON form."""
    signature = written_signature_of(maker)
    if signature is None or not _READER:
        return None
    read = _READER[0](maker, cls.__name__)
    if read is None:
        return None
    arguments, bind, _ = read
    properties = arguments.get("properties", {})
    required = arguments.get("required", [])
    if not properties or any(properties[name] == {} for name in required):
        return None  # nothing to say, or an argument it needs that nothing types
    first = next(iter(signature.parameters.values()))
    alone: str | None = None
    if len(required) == 1:
        alone = required[0]
    elif not required and first.name in properties and first.kind is _POSITIONAL_ONLY:
        alone = first.name  # Variable(name="", /): a name never written, given first
    if alone is not None and not _one_value(properties[alone]):
        alone = None
    if maker is not cls and alone is None:
        return None
    return Construction(cls, maker, arguments, bind, alone)


_POSITIONAL_ONLY = inspect.Parameter.POSITIONAL_ONLY
_ALTERNATE = re.compile(r"from_?[a-z]\w*")
"""The name of an alternate constructor: ``from_contents``, ``fromhex``, ``from_float``."""


def alternates(cls: type) -> tuple[Construction, ...]:
    """The alternate constructors of ``cls`` that take one value: its public class
    methods named ``from_*`` or ``from*`` whose one required argument the library types
    (and JSON carries), in the order the class declares them, its own before its bases'."""
    if not _READER:
        return ()
    found: list[Construction] = []
    seen: set[str] = set()
    for klass in cls.__mro__:
        if klass is object:
            break
        for name, member in list(vars(klass).items()):
            if name in seen or not _ALTERNATE.fullmatch(name):
                continue
            seen.add(name)
            if not isinstance(member, (classmethod, types.ClassMethodDescriptorType)):
                continue
            made = _alternate(cls, getattr(cls, name, None))
            if made is not None:
                found.append(made)
    return tuple(found)


def _alternate(cls: type, method: object) -> Construction | None:
    """``method`` (a class method of ``cls``) as a maker of one value, when it needs
    exactly one that the library types."""
    if not callable(method) or written_signature_of(method) is None:
        return None
    read = _READER[0](method, cls.__name__)
    if read is None:
        return None
    arguments, bind, typed = read
    required = arguments.get("required", [])
    if len(required) != 1 or required[0] not in typed:
        return None
    return Construction(cls, method, arguments, bind, required[0])


def _one_value(schema: dict[str, Any]) -> bool:
    """Whether a model may send a value of ``schema`` on its own for the class: one that
    says what it is (an object of the class's arguments is then told apart by its keys)."""
    return bool(schema) and schema.get("type") != "object"


def _factory(cls: type) -> Callable[..., object] | None:
    """The function of ``cls``'s top package named as the class in lower case."""
    top = sys.modules.get(cls.__module__.partition(".")[0])
    found = getattr(top, cls.__name__.lower(), None) if top is not None else None
    if found is None or isinstance(found, type) or not callable(found):
        return None
    return typing.cast(Callable[..., object], found)


class Refused(ValueError):
    """A class's maker refused the JSON value it was given (its own exception's words)."""


def build(value: object, cls: type) -> object:
    """A ``cls`` made from ``value`` by its :func:`construction` (the one the object being
    served made from the same value before, when it keeps them); ``value`` itself when
    the class is not built from JSON. Raises :class:`Refused`."""
    made = construction(cls)
    if made is None:
        return value
    memo = _ACTIVE.get()
    key: tuple[type, str] | None = None
    if memo is not None:
        with contextlib.suppress(TypeError, ValueError):
            key = (cls, json.dumps(value, sort_keys=True))
        if key is not None and (kept := memo.get(key)) is not _NOTHING:
            return kept
    building = _BUILDING.get()
    if (cls, id(value)) in building:
        raise Refused(f"a {cls.__name__} cannot be made of itself: this value is one in the making")
    token = _BUILDING.set((*building, (cls, id(value))))
    try:
        instance = _made(made, value)
    finally:
        _BUILDING.reset(token)
    if memo is not None and key is not None:
        memo.put(key, instance)
    return instance


_BUILDING: contextvars.ContextVar[tuple[tuple[type, int], ...]] = contextvars.ContextVar(
    "objmcp_building", default=()
)
"""The classes being built now, one inside another, each with the JSON value it is built
from (by identity): a constructor whose argument is typed by its own class (``Cycler(left:
Cycler | Iterable[dict])``) would build the same class from the same value again, without
end; that attempt is refused, and a union goes on to its other members."""


def _made(made: Construction, value: object) -> object:
    lone = made.lone_forms()
    by_name = made.maker is made.cls and isinstance(value, dict)
    if by_name and lone:
        names = set(made.arguments.get("properties", {}))
        by_name = set(typing.cast(dict[str, object], value)) <= names
    maker = made if by_name or not lone else chosen_form(lone, value)
    arguments = typing.cast(dict[str, object], value) if by_name else {str(maker.alone): value}
    try:
        positional, keywords = maker.bind(arguments)
    except ArgumentError as error:
        raise Refused(str(error)) from None
    try:
        instance = maker.maker(*positional, **keywords)
    except Exception as error:
        raise Refused(f"{type(error).__name__}: {error}") from None
    alternate = getattr(maker.maker, "__self__", None) is made.cls  # a class method
    if alternate and not isinstance(instance, made.cls):
        said = getattr(maker.maker, "__name__", "its alternate constructor")
        got = type(instance).__qualname__
        raise Refused(f"{said} gave a {got}, not a {made.cls.__name__}")
    return instance


def chosen_form(forms: tuple[Construction, ...], value: object) -> Construction:
    """Of ``forms`` (what takes a lone value, in order), the first whose lone argument's
    schema ``value`` fits, else the first."""
    if len(forms) > 1:
        from jsonschema import Draft202012Validator  # only a class with alternates needs it

        for form in forms:
            if Draft202012Validator(form.alone_schema()).is_valid(value):
                return form
    return forms[0]


_NOTHING: Any = object()


class Memo:
    """The values built for one served object, by class and JSON value, the
    :data:`MEMO_SIZE` most recently used kept."""

    def __init__(self, size: int = MEMO_SIZE) -> None:
        self._values: OrderedDict[tuple[type, str], object] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: tuple[type, str]) -> object:
        """The value kept for ``key``, else a marker no value is."""
        with self._lock:
            value = self._values.get(key, _NOTHING)
            if value is not _NOTHING:
                self._values.move_to_end(key)
            return value

    def put(self, key: tuple[type, str], value: object) -> None:
        """Keep ``value`` for ``key``, the least recently used going beyond the size."""
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self._size:
                self._values.popitem(last=False)


_ACTIVE: contextvars.ContextVar[Memo | None] = contextvars.ContextVar("objmcp_memo", default=None)
_MEMOS: dict[int, tuple[object, Memo]] = {}
"""The memos of served objects by id: a weak reference to the object where it takes one
(its memo goes with it), else the object itself, the :data:`_STRONG_KEPT` most recent."""
_STRONG: OrderedDict[int, None] = OrderedDict()
_STRONG_KEPT = 64
_MEMOS_LOCK = threading.RLock()  # a weak reference's callback may run in its holder (by GC)


def _memo_of(owner: object) -> Memo:
    key = id(owner)
    with _MEMOS_LOCK:
        kept = _MEMOS.get(key)
        if kept is not None:
            held = kept[0]
            if (held() if isinstance(held, weakref.ref) else held) is owner:
                if key in _STRONG:
                    _STRONG.move_to_end(key)
                return kept[1]
        memo = Memo()
        try:
            reference: object = weakref.ref(owner, lambda _: _forget(key))
        except TypeError:
            reference = owner
            _STRONG[key] = None
            while len(_STRONG) > _STRONG_KEPT:
                _MEMOS.pop(_STRONG.popitem(last=False)[0], None)
        _MEMOS[key] = (reference, memo)
        return memo


def _forget(key: int) -> None:
    with _MEMOS_LOCK:
        kept = _MEMOS.get(key)
        if kept is not None and isinstance(kept[0], weakref.ref) and kept[0]() is None:
            del _MEMOS[key]


@contextlib.contextmanager
def remembering(function: object) -> Iterator[None]:
    """While the block runs, values built for a call of ``function`` are kept for the
    object it is a method of (an instance; each session's or caller's its own), and
    the same JSON value for the same class gives the same object. A module's function,
    a class's, or a plain function keeps none: each call builds afresh."""
    owner = getattr(function, "__self__", None)
    if owner is None or isinstance(owner, (types.ModuleType, type)):
        yield
        return
    token = _ACTIVE.set(_memo_of(owner))
    try:
        yield
    finally:
        _ACTIVE.reset(token)
