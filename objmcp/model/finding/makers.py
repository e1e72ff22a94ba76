"""Which classes of a module a model may make: served as tools that make one.

A module target serves its public class (one the module defines, or its package does) as
a tool of the class's name that makes one and answers with its JSON form, as any result is
sent, when :func:`makes_a_value` says so: the class is concrete (not abstract, a protocol,
an exception, a metaclass, nor a C class Python makes no instance of), it is no iterator
(one is used as a function, :func:`.introspect.makes_an_iterator`, or is a service such as
a file), something writes what making one takes (its signature, a stub, a text
signature) and names it (not only ``*args, **options``), and what it makes has a form to
answer with (:func:`has_a_form`), so that the tool does not only ever answer
``<ClassName>``. An enum is made from a value (:func:`member_maker`): ``Change(1)``, its
member, sent as its value. Whether JSON can carry what the constructor needs is the
tool's own check, as for any callable; a class whose instances hold something to close is
withheld by :mod:`.danger`.
"""

from __future__ import annotations

import dataclasses
import dis
import enum
import inspect
from collections import abc
from collections.abc import Callable

from ..describe.signatures import written_signature_of
from ..values.shapes import has_own_text

__all__ = ["has_a_form", "makes_a_value", "member_maker"]


def makes_a_value(value: object) -> bool:
    """Whether ``value`` is a class a model may make: concrete, made from what its
    signature (or stub, or text signature) writes and names, with a form to answer with;
    an enum with members."""
    if not isinstance(value, type) or value.__flags__ & _REFUSES_INSTANCES:
        return False
    try:
        if issubclass(value, (BaseException, type, abc.Iterator)) or inspect.isabstract(value):
            return False  # an iterator is used as a function, or is a service (a file)
        if getattr(value, "_is_protocol", False):
            return False
        if issubclass(value, enum.Enum):
            return len(value.__members__) > 0
    except TypeError:  # a class that refuses class checks (a TypedDict's kind)
        return False
    if not has_a_form(value):
        return False
    signature = written_signature_of(value)
    return signature is not None and _names_what_it_takes(signature)


def _names_what_it_takes(signature: inspect.Signature) -> bool:
    """Whether ``signature`` takes nothing or names a parameter: not only ``*args`` and
    ``**options`` (a pygments lexer's), which say nothing of what making one takes."""
    kinds = {p.kind for p in signature.parameters.values()}
    return not kinds or bool(
        kinds - {inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD}
    )


_REFUSES_INSTANCES = 1 << 7
"""``Py_TPFLAGS_DISALLOW_INSTANTIATION``: a C class Python makes no instance of
(``re.Match``, whose instances only a search makes)."""


def has_a_form(cls: type) -> bool:
    """Whether what ``cls`` makes has a form to answer with, read from the class: a text
    (a ``__str__`` or ``__repr__`` of its own, not ``object``'s), plain data (a dataclass,
    a model with ``model_dump``, a mapping, a collection), or public
    attributes its ``__init__`` sets."""
    if has_own_text(cls):
        return True
    if dataclasses.is_dataclass(cls) or callable(getattr(cls, "model_dump", None)):
        return True
    if issubclass(cls, (abc.Mapping, abc.Collection)):
        return True
    return any(_sets_public_attributes(klass) for klass in cls.__mro__)


def _sets_public_attributes(cls: type) -> bool:
    """Whether ``cls``'s own ``__init__``, written in Python, sets a public attribute of
    the instance (``self.sections = ...``)."""
    init = inspect.unwrap(vars(cls).get("__init__"))  # type: ignore[arg-type]
    if not inspect.isfunction(init) or not init.__code__.co_varnames:
        return False
    itself = init.__code__.co_varnames[0]
    previous: dis.Instruction | None = None
    for instruction in dis.get_instructions(init):
        if (
            instruction.opname == "STORE_ATTR"
            and not str(instruction.argval).startswith("_")
            and previous is not None
            and previous.opname.startswith("LOAD_FAST")
            # 3.13 loads two names at once: (value, self)
            and itself in (previous.argval, *_last(previous.argval))
        ):
            return True
        previous = instruction
    return False


def _last(names: object) -> tuple[object, ...]:
    return (names[-1],) if isinstance(names, tuple) and names else ()


def member_maker(cls: type[enum.Enum]) -> Callable[..., object]:
    """The tool that makes a member of the enum ``cls`` from its value: the parameter
    ``value`` takes one of the members' values (its schema lists them)."""

    def make(value: object) -> object:
        return cls(value)

    make.__name__ = cls.__name__
    make.__qualname__ = cls.__qualname__
    make.__module__ = cls.__module__
    own = cls.__doc__ if cls.__doc__ and cls.__doc__ != enum.Enum.__doc__ else None
    said = f"The member of {cls.__name__} with this value (one of its members' values)."
    make.__doc__ = f"{own.strip()}\n\n{said}" if own else said
    make.__annotations__ = {"value": cls, "return": cls}
    return make
