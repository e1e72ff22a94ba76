"""Finding the callables an object publishes.

One visibility rule (:func:`is_public`) and one member walk per kind of target
(:func:`discover`); their signatures are :mod:`.signatures`', their docstrings
:mod:`.docs`'. Nothing here is called on the user's object except what
the target's own kind requires (instantiating a class whose ``__init__`` needs
no arguments, or, where nothing says what it needs, trying once); members are read
with ``inspect.getattr_static`` so no property or ``__getattr__`` runs.
"""

from __future__ import annotations

import enum
import functools
import inspect
import logging
import reprlib
import sys
import types
import typing
from collections import abc
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from ..._exceptions import TargetError
from ..describe.signatures import is_ufunc, written_signature_of
from .makers import makes_a_value, member_maker

__all__ = ["Member", "discover", "is_public", "makes_an_iterator"]

logger = logging.getLogger("objmcp")


@dataclass(eq=False)
class Member:
    """A callable found on a target, under the tool name it will have."""

    name: str
    function: Callable[..., object]
    owner: object = None
    """The instance the method is bound to (closed when serving ends), if any."""
    maker: bool = False
    """A module's class served as the tool that makes one (or an enum's member by value):
    left out quietly when JSON cannot carry what it takes, and a function of its name wins."""


def is_public(name: str) -> bool:
    """Whether a member name may be published: no leading underscore."""
    return not name.startswith("_")


def discover(target: object) -> list[Member]:
    """Every public callable of ``target``, in a deterministic order.

    ``target`` is an instance, a class, a module, a single callable, or a
    mapping of names to any of these (a callable under key ``k`` is tool ``k``;
    an object under key ``k`` gives tools ``k_<method>``). A class used as a function
    (:func:`makes_an_iterator`) is a callable here.
    """
    if isinstance(target, Mapping) and type(target).__module__ in _MAPPING_HOMES:
        members: list[Member] = []
        for key, value in target.items():
            if not isinstance(key, str):
                raise TargetError(f"Keys of a target mapping must be strings, not {key!r}")
            if _is_plain_callable(value):
                members.append(Member(key, value))
            else:
                members.extend(
                    Member(f"{key}_{m.name}", m.function, m.owner) for m in _members_of(value)
                )
        return members
    if _is_plain_callable(target):
        return [Member(_callable_name(target), typing.cast(Callable[..., object], target))]
    return list(_members_of(target))


_MAPPING_HOMES = ("builtins", "collections", "types")
"""A mapping from these modules is a mapping of targets; a user's ``Notes(dict)`` is an object."""


def _is_plain_callable(value: object) -> bool:
    return _is_function(value) or isinstance(value, functools.partial) or makes_an_iterator(value)


def _is_function(value: object) -> bool:
    """A function, method or C function, or a numpy ufunc (callable objects all the
    same, not classes or instances with a ``__call__``)."""
    return inspect.isroutine(value) or is_ufunc(value)


def _callable_name(function: object) -> str:
    while isinstance(function, functools.partial):
        function = function.func
    name = getattr(function, "__name__", None)
    if not isinstance(name, str):
        raise TargetError(f"Cannot name the callable {function!r}: serve it in a dict under a key")
    return name


def _members_of(target: object) -> Iterator[Member]:
    if isinstance(target, types.ModuleType):
        yield from _module_members(target)
    elif isinstance(target, type):
        needs = _needs_arguments(target)
        instance: object = _NOT_MADE
        if needs is None:  # nothing says: try once, as a caller would
            try:
                instance = target()
            except Exception as error:
                logger.warning(
                    "%s cannot be made with no arguments (%s: %s), so objmcp serves only its "
                    "static and class methods; pass an instance to serve its methods",
                    target.__qualname__,
                    type(error).__name__,
                    error,
                )
        elif not needs:
            instance = target()
        if instance is _NOT_MADE:
            if needs:
                logger.warning(
                    "%s.__init__ needs arguments, so objmcp serves only its static and class "
                    "methods; pass an instance to serve its methods",
                    target.__qualname__,
                )
            yield from _class_members(target, None)
        else:
            plain = getattr(type(instance), "__repr__", None) is object.__repr__
            shown = f"{target.__qualname__}()" if plain else reprlib.repr(instance)
            logger.info("serving %s: made with no arguments, %s", target.__qualname__, shown)
            yield from _class_members(target, instance)
    else:
        yield from _class_members(type(target), target)


def _module_members(module: types.ModuleType) -> Iterator[Member]:
    """What a module serves: what its ``__all__`` lists, and the public functions and
    classes it makes its own (:func:`_made_own`: defined in it, a package's from its own
    package, a function it names anew), whether or not an ``__all__`` lists them. A class
    is served when it is used as a function (:func:`makes_an_iterator`) or makes a value
    (:func:`.makers.makes_a_value`), from the module's own package only."""
    home = module.__name__
    exported = vars(module).get("__all__")  # as stored: a lazy __getattr__ is never asked
    package = hasattr(module, "__path__")
    own = {
        name
        for name, value in list(vars(module).items())
        if is_public(name) and _made_own(home, package, name, value)
    } - {"main"}  # its command line (it reads sys.argv), not its interface
    if exported is None:
        for name, value in list(vars(module).items()):
            if name not in own:
                continue
            if _is_function(value):
                yield Member(name, typing.cast(Callable[..., object], value))
            elif isinstance(value, type):
                yield from _class_as_tool(name, value)
        return
    # sorted: an __all__ is often built from sets (numpy's), whose order changes from
    # one start to the next; a set too, as some name a member twice (scipy.special's)
    listed = {name for name in exported if isinstance(name, str) and is_public(name)}
    for name in sorted(listed | own):
        value = getattr(module, name, None)
        if isinstance(value, type):
            if name in listed and makes_an_iterator(value):  # from anywhere: a function
                yield Member(name, value)
            elif _in_package(value, home):
                yield from _class_as_tool(name, value)
        elif callable(value) and (name in listed or _is_function(value)):
            yield Member(name, typing.cast(Callable[..., object], value))


def _made_own(home: str, package: bool, name: str, value: object) -> bool:
    """Whether the module ``home`` makes ``value``, bound there as ``name``, its own, as
    a reader of the module takes it (PEP 8: imported names are its implementation, except
    what it exposes on purpose): a function or class defined in it or its accelerator
    (``_heapq`` for ``heapq``); for a package, one defined anywhere in its own top-level
    package (a package's ``__init__`` exposes what its submodules define, PEP 8's own
    example: ``pexpect`` serves ``pexpect.utils.is_executable_file``); and a function it
    binds under a name that is not the function's own (an alias it names on purpose:
    ``html_escape = markupsafe.escape``), from wherever it comes. A name imported as it
    is from another package (``from os import path``, ``re.compile``) is not its own."""
    if not (_is_function(value) or isinstance(value, type)):
        return False  # before any getattr: a lazy package's __getattr__ imports, or raises
    where = getattr(value, "__module__", None)
    if not isinstance(where, str):
        return False
    if where in (home, "_" + home.rpartition(".")[2]):
        return True
    top = home.partition(".")[0]
    if package and where.partition(".")[0] in (top, "_" + top):
        return True
    return (
        _is_function(value)
        and getattr(value, "__name__", name) != name
        and not _named_so(value, name, top)
    )


def _named_so(function: object, name: str, top: str) -> bool:
    """Whether a module of another top-level package than ``top`` binds ``function`` under
    ``name`` (``threading.Lock`` is ``_thread.allocate_lock``): a module importing it by
    that name took the name as it was, not named it."""
    for loaded in list(sys.modules.values()):
        module_name = getattr(loaded, "__name__", None)
        if not isinstance(module_name, str) or module_name.partition(".")[0] == top:
            continue
        if getattr(loaded, "__dict__", {}).get(name) is function:
            return True
    return False


def _in_package(cls: type, home: str) -> bool:
    """Whether ``cls`` comes from the package of the module ``home`` (or its accelerator),
    not from another library, nor the standard library when ``home`` is not in it."""
    top = home.partition(".")[0]
    return str(cls.__module__).partition(".")[0] in (top, "_" + top)


def _class_as_tool(name: str, cls: type) -> Iterator[Member]:
    """A module's class as the tool that makes one, if it is one (none otherwise)."""
    if makes_an_iterator(cls):
        yield Member(name, cls)
    elif makes_a_value(cls):
        maker = member_maker(cls) if issubclass(cls, enum.Enum) else cls
        yield Member(name, maker, maker=True)


def makes_an_iterator(value: object) -> bool:
    """Whether ``value`` is a class used as a function: one whose instances are iterators
    (``itertools.permutations``, ``enumerate``, ``csv.DictReader``) and that has no public
    instance methods besides iterating, so that making one is all a caller does with it.
    A module serves it as a tool that makes one, read as its result. A file, a cursor or a
    generator is an iterator too, but one with methods (``read``, ``execute``, ``send``):
    a service, not a result."""
    if not isinstance(value, type) or not issubclass(value, abc.Iterator):
        return False
    if inspect.isabstract(value):
        return False
    for klass in value.__mro__:
        if klass is object:
            continue
        for name, static in vars(klass).items():
            if is_public(name) and _is_instance_method(static):
                return False
    return True


def _is_instance_method(static: object) -> bool:
    """Whether a class attribute is a method of its instances (not a class or static
    method, an alternative constructor such as ``chain.from_iterable``, nor data)."""
    if isinstance(static, (staticmethod, classmethod, types.ClassMethodDescriptorType)):
        return False
    return inspect.isfunction(static) or inspect.ismethoddescriptor(static)


_NOT_MADE = object()


def _needs_arguments(cls: type) -> bool | None:
    """Whether making ``cls`` takes arguments, by its signature or, where it has none it
    can read (a C class), by what its stub writes of its ``__init__`` or ``__new__``;
    None when nothing says."""
    signature = written_signature_of(cls)
    if signature is None:
        return None
    return any(
        p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        for p in signature.parameters.values()
    )


def _class_members(cls: type, instance: object | None) -> Iterator[Member]:
    """Walk the MRO, first definition wins, builtin bases skipped."""
    seen: set[str] = set()
    for klass in cls.__mro__:
        if klass.__module__ == "builtins":
            continue
        for name, static in vars(klass).items():
            if name in seen:
                continue
            seen.add(name)
            if not is_public(name):
                continue
            bound = _bind(static, cls, instance)
            if bound is not None:
                yield Member(name, bound, instance)


def _bind(static: object, cls: type, instance: object | None) -> Callable[..., object] | None:
    """The callable a class attribute gives on ``instance``, or None when it is not a method.

    With no instance, only static and class methods are bound (a C class's too, such as
    ``datetime.now``).
    """
    if isinstance(static, (staticmethod, classmethod, types.ClassMethodDescriptorType)):
        return typing.cast(Callable[..., object], static.__get__(instance, cls))
    if instance is None or isinstance(static, (type, property)):
        return None
    if isinstance(static, functools.partialmethod):
        return typing.cast(Callable[..., object], static.__get__(instance, cls))
    if isinstance(static, functools.partial) or inspect.isbuiltin(static):
        return typing.cast(Callable[..., object], static)
    if callable(static) and (inspect.isfunction(static) or inspect.ismethoddescriptor(static)):
        getter = type(static).__get__
        return typing.cast(Callable[..., object], getter(static, instance, cls))
    return None
