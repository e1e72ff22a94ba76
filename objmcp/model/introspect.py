"""Finding the callables an object publishes, and reading their signatures.

One visibility rule (:func:`is_public`), one member walk per kind of target
(:func:`discover`), one callable normaliser (:func:`signature_of`) with a
fallback for C functions that carry no signature, and one docstring reader
(:func:`read_docs`). Nothing here is called on the user's object except what
the target's own kind requires (instantiating a class whose ``__init__`` needs
no arguments); members are read with ``inspect.getattr_static`` so no property
or ``__getattr__`` runs.
"""

from __future__ import annotations

import ast
import functools
import inspect
import logging
import re
import reprlib
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from .._exceptions import TargetError

__all__ = [
    "Docs",
    "Member",
    "discover",
    "is_async",
    "is_public",
    "read_docs",
    "signature_of",
    "type_hints_of",
]

logger = logging.getLogger("objmcp")


@dataclass(eq=False)
class Member:
    """A callable found on a target, under the tool name it will have."""

    name: str
    function: Callable[..., object]
    owner: object = None
    """The instance the method is bound to (closed when serving ends), if any."""


def is_public(name: str) -> bool:
    """Whether a member name may be published: no leading underscore."""
    return not name.startswith("_")


def discover(target: object) -> list[Member]:
    """Every public callable of ``target``, in a deterministic order.

    ``target`` is an instance, a class, a module, a single callable, or a
    mapping of names to any of these (a callable under key ``k`` is tool ``k``;
    an object under key ``k`` gives tools ``k_<method>``).
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
    return inspect.isroutine(value) or isinstance(value, functools.partial)


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
        if _needs_arguments(target):
            logger.warning(
                "%s.__init__ needs arguments, so objmcp serves only its static and class "
                "methods; pass an instance to serve its methods",
                target.__qualname__,
            )
            yield from _class_members(target, None)
        else:
            instance = target()
            plain = getattr(type(instance), "__repr__", None) is object.__repr__
            shown = f"{target.__qualname__}()" if plain else reprlib.repr(instance)
            logger.warning("serving %s: made with no arguments, %s", target.__qualname__, shown)
            yield from _class_members(target, instance)
    else:
        yield from _class_members(type(target), target)


def _module_members(module: types.ModuleType) -> Iterator[Member]:
    exported = getattr(module, "__all__", None)
    if exported is not None:
        # sorted: an __all__ is often built from sets (numpy's), whose order changes from
        # one start to the next
        for name in sorted(exported):
            value = getattr(module, name, None)
            if callable(value) and not isinstance(value, type) and is_public(name):
                yield Member(name, value)
        return
    home = module.__name__
    accelerator = "_" + home.rpartition(".")[2]
    inside = home + "." if hasattr(module, "__path__") else None  # a package's own submodules
    for name, value in list(vars(module).items()):
        where = getattr(value, "__module__", None)
        own = where in (home, accelerator) or (
            inside is not None and isinstance(where, str) and where.startswith(inside)
        )
        if is_public(name) and inspect.isroutine(value) and own:
            yield Member(name, value)


def _needs_arguments(cls: type) -> bool:
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return True
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

    With no instance, only static and class methods are bound.
    """
    if isinstance(static, (staticmethod, classmethod)):
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


# --- signatures -------------------------------------------------------------------------------

_DOC_SIGNATURE = re.compile(r"^\s*[\w.]+\((?P<params>.*)\)\s*(->.*)?$")


def signature_of(function: Callable[..., object]) -> inspect.Signature:
    """The call signature of any callable, bound ``self`` already dropped.

    C functions without ``__text_signature__`` get theirs from the first line of
    their docstring (``hypot(*coordinates) -> value``); failing that, one
    optional array parameter ``args``.
    """
    try:
        return inspect.signature(function)
    except (TypeError, ValueError):
        pass
    parsed = _signature_from_doc(inspect.getdoc(function) or "")
    if parsed is not None:
        return parsed
    return inspect.Signature([inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL)])


def _signature_from_doc(doc: str) -> inspect.Signature | None:
    first = doc.split("\n", 1)[0]
    match = _DOC_SIGNATURE.match(first)
    if match is None:
        return None
    params: list[inspect.Parameter] = []
    kind: inspect._ParameterKind = inspect.Parameter.POSITIONAL_ONLY
    optional = False
    for raw in _split_params(match.group("params")):
        piece = raw.strip()
        if piece.startswith("["):
            optional = True
            piece = piece.strip("[] ")
        piece = piece.rstrip("] ")
        if not piece:
            continue
        if piece == "/":
            kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
            continue
        if piece == "*":
            kind = inspect.Parameter.KEYWORD_ONLY
            continue
        if piece == "...":
            continue
        name, _, default_text = piece.partition("=")
        name = name.strip()
        try:
            if name.startswith("**"):
                params.append(inspect.Parameter(name[2:], inspect.Parameter.VAR_KEYWORD))
                continue
            if name.startswith("*"):
                params.append(inspect.Parameter(name[1:], inspect.Parameter.VAR_POSITIONAL))
                kind = inspect.Parameter.KEYWORD_ONLY
                continue
            default: object = inspect.Parameter.empty
            if default_text:
                default = _literal(default_text.strip())
            elif optional:
                default = OMITTED
            params.append(inspect.Parameter(name, kind, default=default))
        except ValueError:
            return None
    try:
        return inspect.Signature(params)
    except ValueError:
        return None


def _split_params(text: str) -> list[str]:
    pieces: list[str] = []
    depth = 0
    current = ""
    for char in text:
        if char in "([{" and char != "[":
            depth += 1
        elif char in ")]}" and char != "]":
            depth -= 1
        if char == "," and depth == 0:
            pieces.append(current)
            current = ""
        else:
            current += char
    pieces.append(current)
    return pieces


def _literal(text: str) -> object:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return OMITTED


class _Omitted:
    """The default of a parameter that may be left out but whose default is unknown."""

    def __repr__(self) -> str:
        return "OMITTED"


OMITTED: typing.Final = _Omitted()


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


# --- docstrings -------------------------------------------------------------------------------


@dataclass(eq=False)
class Docs:
    """What a docstring says: the description, and per parameter its text and type name."""

    description: str = ""
    params: dict[str, str] = field(default_factory=dict)
    type_names: dict[str, str] = field(default_factory=dict)


def read_docs(function: Callable[..., object]) -> Docs:
    """Parse a callable's docstring (Google, NumPy, reST or Epydoc).

    A class is read from its own ``__doc__`` only, not its bases'.
    """
    if isinstance(function, type):
        own = function.__dict__.get("__doc__")
        doc = inspect.cleandoc(own) if isinstance(own, str) else None
    else:
        doc = inspect.getdoc(function)
    if not doc:
        return Docs()
    if _DOC_SIGNATURE.match(doc.split("\n", 1)[0]) and not _has_text_signature(function):
        doc = doc.split("\n", 1)[1].strip() if "\n" in doc else ""
    if ":" not in doc and "@" not in doc and len(doc.splitlines()) == 1:
        return Docs(doc.strip())  # one plain line: all any style reads is the description
    import docstring_parser

    try:
        parsed = docstring_parser.parse(doc)
    except Exception:
        return Docs(description=doc.strip())
    parts = [p for p in (parsed.short_description, parsed.long_description) if p]
    params: dict[str, str] = {}
    type_names: dict[str, str] = {}
    for param in parsed.params:
        name = param.arg_name.lstrip("*")
        if param.description:
            params[name] = param.description.strip()
        if param.type_name:
            type_names[name] = param.type_name.strip()
    return Docs("\n\n".join(parts).strip(), params, type_names)


def _has_text_signature(function: object) -> bool:
    return getattr(function, "__text_signature__", None) is not None or not (
        inspect.isbuiltin(function) or inspect.ismethoddescriptor(function)
    )


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
