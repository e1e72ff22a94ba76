"""What a callable's own code does, read from its bytecode, for a callable no table names.

:func:`read_effect` reads the bytecode of a Python function (a class: its ``__init__``
and ``__new__``), of the functions of its own package that it calls, and of the private
helpers (a name with a leading ``_`` on its way) those call, breadth first, at most
:data:`MAX_DEPTH` calls deep and :data:`MAX_READ` functions in all, and says the first
thing found that a model should not be handed unasked:

- a reference to a callable :data:`~.effects.TABLE` gives an effect (``eval``, ``exec``,
  ``subprocess.run``, ``os.remove``, ``shutil.rmtree``, ``sys.setrecursionlimit``,
  ``locale.setlocale``, ``signal.signal``, ...), resolved through the module's globals, a
  local ``import``, ``self``'s class and attribute chains; unsafe deserialisation
  (``pickle.load``) only in the tool's own function, since deeper down libraries unpickle
  their own data (babel's locale tables);
- a change to ``os.environ`` (an item set or deleted, or a method that changes it);
- a module attribute set in another package (``json.decoder.scanstring = ...``);
- a process-wide setting taken from an argument, in the function the tool calls or the
  ones it calls: a ``global`` assigned, or an attribute of a module or a class set, in a
  statement that reads one of the function's parameters (a lazily filled cache reads
  none, and is left alone);
- an import of a module whose name the tool's own function takes from an argument
  (``importlib.import_module(name)``); deeper down, imports by name are how libraries
  load their own plugins, and are left alone.

Only the tool's own package is followed: what another package does is that package's
business, known by the table when it is dangerous (``subprocess.run``), else not judged;
its own functions are read even where the table names them (``yaml.safe_load`` calls
``yaml.load`` with the safe loader). Past the first call only private helpers are
followed, since a public function is a tool of its own, judged by its own reading: so
``sympy.sympify`` is found to run ``parse_expr``'s ``exec``, and the hundreds of sympy
functions that call ``sympify`` on their arguments are not all withheld with it
(``bench/effects.py`` measures what the rule withholds on the zoos). The table's
effects on files and descriptors (``open``, ``os.close``) are not looked for: libraries
open, write and close their own all the time. Nothing is called or imported: globals
are looked up, attributes read with :func:`inspect.getattr_static`.
"""

from __future__ import annotations

import builtins
import functools
import inspect
import os
import sys
import types
from collections.abc import Iterator
from dataclasses import dataclass

from .bytecode import instructions
from .effects import (
    DESCRIPTORS,
    DESERIALISES,
    ENVIRONMENT,
    PROCESS_SETTING,
    WRITES,
    Effect,
    effect_named,
    effect_of,
    unwrapped,
)

__all__ = ["MAX_DEPTH", "MAX_READ", "Finding", "read_effect"]

MAX_DEPTH = 2
"""How many calls deep the reading follows a tool's function into its own package (0:
its own code only; past 1, private helpers only). On the zoos, 2 withholds 20 of 2,657
callables of the first and 74 of 3,739 of the chosen; 4 would withhold 159 of the first
(sympy's functions that reach ``parse_expr`` through private helpers)."""

MAX_READ = 150
"""The most functions read for one tool."""

_NOT_READ = frozenset({WRITES, DESCRIPTORS})
"""Effects the table gives a tool but the reading does not look for: libraries open,
write and close their own files and descriptors all the time (a cache, a data file)."""

_BY_ARGUMENT = frozenset({"import_module", "__import__", "reload", "compile"})
"""Callables with an effect only when what they take comes from the caller."""

_ENVIRON_CHANGES = frozenset(
    {"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__", "putenv"}
)

_ENVIRON = os.environ

_STATEMENT_ENDS = frozenset({"POP_TOP", "RETURN_VALUE", "RETURN_CONST", "DELETE_SUBSCR"})
"""Where a statement ends (and a store, unless another follows: ``a, b = ...``)."""
_PASS_THROUGH = frozenset({"CACHE", "EXTENDED_ARG", "NOP", "PUSH_NULL", "PRECALL", "RESUME"})
_LOAD_LOCAL = frozenset({"LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_AND_CLEAR", "LOAD_DEREF"})


@dataclass(frozen=True)
class Finding:
    """What reading a tool's code found, and where."""

    effect: Effect
    what: str
    """What the code does, in a few words (``calls eval``, ``sets os.environ``)."""
    path: tuple[str, ...]
    """The functions from the tool's own to the one that does it, by qualified name."""

    @property
    def reason(self) -> str:
        """The start-up line's words for it."""
        where = self.path[-1]
        via = f", reached from {self.path[0]}" if len(self.path) > 1 else ""
        return f"{self.effect.reason}: its code {self.what}, in {where}{via}"


@dataclass(frozen=True)
class _Instance:
    """What ``self`` is in a method: an instance of ``cls``."""

    cls: type


@dataclass(frozen=True)
class _Named:
    """A reference known only by its dotted name (a module not imported yet)."""

    dotted: str


@dataclass(frozen=True)
class _Read:
    """What one function's own code does: its first finding, and the functions of its
    package it calls."""

    found: tuple[Effect, str] | None
    callees: tuple[types.FunctionType, ...]


def read_effect(function: object) -> Finding | None:
    """The first effect found in ``function``'s code or that of the functions of its
    own package it calls (see the module's docstring), or None: nothing found, or no
    Python code to read (a C function: only the table knows those)."""
    roots = _code_functions(function)
    if not roots:
        return None
    package = _package_of(roots[0])
    seen: set[object] = set()
    queue: list[tuple[types.FunctionType, tuple[str, ...]]] = [
        (root, (root.__qualname__,)) for root in roots
    ]
    read = 0
    while queue and read < MAX_READ:
        current, path = queue.pop(0)
        if current.__code__ in seen:
            continue
        seen.add(current.__code__)
        read += 1
        result = _read(current, package, len(path) == 1)
        if result.found is not None:
            effect, what = result.found
            return Finding(effect, what, path)
        if len(path) <= MAX_DEPTH:
            queue.extend(
                (callee, (*path, callee.__qualname__))
                for callee in result.callees
                if len(path) == 1 or _is_private(callee)
            )
    return None


def _code_functions(function: object) -> list[types.FunctionType]:
    """The Python functions a call of ``function`` runs first: itself, or a class's
    ``__init__`` and ``__new__`` written in Python."""
    function = unwrapped(function)
    if isinstance(function, types.FunctionType):
        return [function]
    if isinstance(function, type):
        found: list[types.FunctionType] = []
        for name in ("__init__", "__new__"):
            method = inspect.getattr_static(function, name, None)
            method = getattr(method, "__func__", method)
            if isinstance(method, types.FunctionType):
                found.append(method)
        return found
    call = inspect.getattr_static(type(function), "__call__", None)
    return [call] if isinstance(call, types.FunctionType) else []


def _is_private(function: types.FunctionType) -> bool:
    """Whether ``function`` is a helper of its package, not part of its API: its name,
    or a name on its way inside the package (module or class), starts with ``_``."""
    module = str(function.__module__ or "")
    inside = [*module.split(".")[1:], *function.__qualname__.split(".")]
    return any(part.startswith("_") and not part.startswith("__") for part in inside)


def _package_of(function: types.FunctionType) -> str:
    return str(getattr(function, "__module__", None) or "").partition(".")[0]


@functools.lru_cache(maxsize=8192)
def _read(function: types.FunctionType, package: str, first: bool) -> _Read:
    code = function.__code__
    parameters = set(
        code.co_varnames[
            : code.co_argcount
            + code.co_kwonlyargcount
            + bool(code.co_flags & inspect.CO_VARARGS)
            + bool(code.co_flags & inspect.CO_VARKEYWORDS)
        ]
    )
    owner = _owner_class(function)
    reader = _Reader(function, package, parameters, owner, first)
    for each in _codes(code):
        found = reader.read(each, top=each is code)
        if found is not None:
            return _Read(found, ())
    return _Read(None, tuple(reader.callees))


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _codes(constant)


def _owner_class(function: types.FunctionType) -> type | None:
    """The class a method is defined in, found by its qualified name in its module."""
    parts = function.__qualname__.split(".")
    if len(parts) < 2 or "<locals>" in parts:
        return None
    found: object = sys.modules.get(function.__module__)
    for part in parts[:-1]:
        found = vars(found).get(part) if isinstance(found, (type, types.ModuleType)) else None
    return found if isinstance(found, type) else None


class _Reader:
    """One function's instructions, read for what they do."""

    def __init__(
        self,
        function: types.FunctionType,
        package: str,
        parameters: set[str],
        owner: type | None,
        first: bool,
    ) -> None:
        self.function = function
        self.package = package
        self.parameters = parameters
        self.owner = owner
        self.first = first
        self.globals = function.__globals__
        self.imported: dict[str, object] = {}
        self.callees: list[types.FunctionType] = []
        self._callee_codes: set[types.CodeType] = set()

    def read(self, code: types.CodeType, top: bool) -> tuple[Effect, str] | None:
        chain: object = None  # what the current run of loads and attributes names
        text = ""
        statement: list[object] = []  # what this statement named
        arguments = False  # whether this statement read one of the function's parameters
        by_argument: tuple[Effect, str] | None = None  # harmful only if it did
        module: object = None  # what the import under way imports from
        importing: object = None  # what it binds next
        stored = False  # a store ended the statement, unless another store follows
        for name, value in instructions(code):
            if name in _PASS_THROUGH:
                continue
            if stored and not name.startswith("STORE_"):  # a, b = ... stores in a row
                if by_argument is not None and arguments and self.first:
                    return by_argument
                statement, arguments, by_argument, stored = [], False, None, False
            if name in ("LOAD_ATTR", "LOAD_METHOD") and chain is not None:
                chain, text = _attribute(chain, value), f"{text}.{value}"
                continue
            target = chain  # what an attribute store right here stores on
            if chain is not None:
                statement.append(chain)
                found, needs_argument = self._judge(chain, text)
                if found is not None and not needs_argument:
                    return found
                by_argument = by_argument or found
                chain = None
            if name in ("LOAD_GLOBAL", "LOAD_NAME"):
                chain, text = self._global(value), value
            elif name in _LOAD_LOCAL or name == "LOAD_FAST_LOAD_FAST":
                names = value if isinstance(value, tuple) else (value,)
                arguments = arguments or (top and bool(self.parameters & set(names)))
                last = names[-1]
                if last in self.imported:
                    chain, text = self.imported[last], last
                elif top and self.owner is not None and last == _first(code):
                    chain, text = _Instance(self.owner), last
            elif name == "IMPORT_NAME":
                module = _module(str(value))
                importing = _module(str(value).partition(".")[0])  # import a.b binds a
            elif name == "IMPORT_FROM" and module is not None:
                importing = _attribute(module, value)
            elif name in ("STORE_FAST", "STORE_NAME", "STORE_DEREF") and importing is not None:
                self.imported[value] = importing
                importing = None
            elif name == "STORE_GLOBAL" and arguments:
                return PROCESS_SETTING, f"sets the global {value} of its module from an argument"
            elif name == "STORE_ATTR":
                found = self._stored(target, value, arguments)
                if found is not None:
                    return found
            elif name in ("STORE_SUBSCR", "DELETE_SUBSCR") and any(
                item is _ENVIRON for item in statement
            ):
                return ENVIRONMENT, "changes os.environ"
            if name.startswith("STORE_"):
                stored = True
            elif name in _STATEMENT_ENDS or name.startswith(("JUMP", "POP_JUMP")):
                if by_argument is not None and arguments and self.first:
                    return by_argument
                statement, arguments, by_argument = [], False, None
                module = importing = None
        return None

    def _global(self, name: str) -> object:
        if name in self.globals:
            return self.globals[name]
        return vars(builtins).get(name, _Named(name))

    def _judge(self, found: object, text: str) -> tuple[tuple[Effect, str] | None, bool]:
        """What naming ``found`` does, and whether only an argument makes it harmful;
        a function of the package is kept to be read next, not judged by the table, since
        what it does depends on how the package calls it (``yaml.load`` with the safe
        loader ``safe_load`` gives it)."""
        if isinstance(found, _Named):
            module, _, name = found.dotted.rpartition(".")
            effect = self._looked_for(effect_named(module, name))
            what = (effect, f"calls {found.dotted}") if effect is not None else None
            return what, name in _BY_ARGUMENT
        if isinstance(found, _Instance) or found is None:
            return None, False
        if getattr(found, "__self__", None) is _ENVIRON:
            changes = getattr(found, "__name__", "") in _ENVIRON_CHANGES
            return ((ENVIRONMENT, "changes os.environ") if changes else None), False
        functions = _code_functions(found) if _is_followed(found) else []
        own = [function for function in functions if _package_of(function) == self.package]
        if not functions or functions[0] not in own:
            try:
                effect = self._looked_for(effect_of(found))
            except Exception:  # an object whose attributes raise: nothing known of it
                effect = None
            if effect is not None:
                needs = getattr(found, "__name__", None) in _BY_ARGUMENT
                return (effect, f"calls {_shown(found, text)}"), needs
        for function in own:
            if function.__code__ not in self._callee_codes:
                self._callee_codes.add(function.__code__)
                self.callees.append(function)
        return None, False

    def _looked_for(self, effect: Effect | None) -> Effect | None:
        """``effect`` if the reading looks for it here: not the table's files and
        descriptors, and unsafe deserialisation only in the tool's own function (deeper
        down, a library unpickles its own data)."""
        if effect in _NOT_READ or (effect is DESERIALISES and not self.first):
            return None
        return effect

    def _stored(self, target: object, attribute: str, arguments: bool) -> tuple[Effect, str] | None:
        if isinstance(target, types.ModuleType):
            own = target.__name__.partition(".")[0] == self.package
            if not own or arguments:
                return PROCESS_SETTING, f"sets {target.__name__}.{attribute}"
        elif isinstance(target, type) and arguments:
            return PROCESS_SETTING, f"sets {target.__qualname__}.{attribute}"
        return None


def _first(code: types.CodeType) -> str | None:
    return code.co_varnames[0] if code.co_argcount else None


def _is_followed(found: object) -> bool:
    return isinstance(found, (types.FunctionType, types.MethodType, type, functools.partial))


def _attribute(found: object, name: str) -> object:
    if isinstance(found, _Named):
        return _Named(f"{found.dotted}.{name}")
    if isinstance(found, _Instance):
        value = inspect.getattr_static(found.cls, name, None)
        return getattr(value, "__func__", value) if value is not None else _Named(name)
    if isinstance(found, types.ModuleType):
        value = vars(found).get(name)
        if value is None:
            return _module(f"{found.__name__}.{name}")
        return value
    if found is _ENVIRON:
        return getattr(found, name, None)  # its own methods, bound to it
    try:
        value = inspect.getattr_static(found, name)
    except AttributeError:
        return _Named(name)
    except Exception:  # an object whose attribute lookup raises: nothing known of it
        return None
    return value.__func__ if isinstance(value, (staticmethod, classmethod)) else value


def _module(name: str) -> object:
    return sys.modules.get(name) or _Named(name)


def _shown(found: object, text: str) -> str:
    module = getattr(found, "__module__", None)
    name = getattr(found, "__qualname__", None) or getattr(found, "__name__", None)
    if module == "builtins" and isinstance(name, str):
        return name
    if isinstance(module, str) and isinstance(name, str):
        return f"{module.removeprefix('_').replace('posix', 'os')}.{name}"
    return text
