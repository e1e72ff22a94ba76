"""The calls a library's own doctests make, through objmcp: a tuning signal no hand chose.

**The rule** (issue 37, widened). For a target as ``objmcp run`` takes it (the chosen zoo's, by
``sample.targets_of``; the first zoo's, ``zoo_cases.TARGETS``), loaded as the bench loads it
(``zoo_figures.loaded_toolbox``), the docstrings (``inspect.getdoc``) of every served tool's
callable and of the target itself (its module's; for ``module:attr``, the object's too) are
parsed by ``doctest.DocTestParser``. An example is **harvested** when:

- its source is ONE expression statement, a call, which only imports (``import x``,
  ``import x as y``, ``from x import y``) may precede in the same example (an example of imports
  only is setup: counted as such, its names bound for the examples after it);
- its callee is ANY tool the target serves (not only the docstring's own): a name or dotted name
  (``f``, ``module.f``, ``Class.f``, ``np.f`` after ``import numpy as np``) that resolves, by
  the names the docstring's imports bound, else in any of the docstring owner's module, the
  target's module, or a loaded module by that name, to a served tool's callable (the same
  object, or the same bound method); the docstring's own tool first when several serve it; for
  a class target served as an instance made with no arguments, ``Class().method(...)`` is that
  method's tool (that construction is the one the tool calls on); any other ``obj.method(...)``
  needs an instance and is skipped; a callable the target does not serve (or withholds) is skipped;
- it is not marked ``+SKIP`` (the library's own doctest run does not make it);
- its arguments are all literals (``ast.literal_eval``: no names, no calls, no ``*``/``**``);
- its callee's first name is not one the docstring's earlier examples bind other than by an
  import (an assignment, a ``def``, a ``for``...: that disqualifies it); an import binds the
  object imported;
- the arguments bind to the tool's callable's signature (``inspect.signature(...).bind``;
  skipped when it cannot be read or does not bind): each by its parameter's name
  (positional-only ones too, as objmcp's schema lists them), ``*args`` as a list under its name,
  ``**kw`` spread; and they have a JSON form a model sends: tuples and sets as lists, bytes as
  their text when ASCII, dicts with text keys (complex numbers, other bytes, other keys:
  skipped);
- no example before it gave the same tool the same arguments (a duplicate is counted as such).

**Expected**: the callable called directly, here, with the Python values of the example (never
its printed output, which can be stale, and never through objmcp), at most
:data:`EXAMPLE_TIMEOUT` seconds, in a scratch directory, under a guard (an audit hook) that
refuses writing outside it, starting processes, sleeping and the network. Skipped: an example
that raises directly, prints, times out or trips the guard, or whose answer is awaitable (no
plain form). An iterator's answer is its items (as objmcp reads them). An answer with a JSON
form (``zoo_cases.expected_json``) is **checked: value** (``zoo_figures.judge``: equal in JSON's
terms, floats within rounding). An answer with none whose only values without one are real
numbers (``numbers.Real`` values other than ``bool``/``int``/``float``: mpmath's ``mpf``, sympy's
numbers, ``Fraction``, numpy's scalars; and ``Decimal``), alone or within lists, tuples and
dicts, is **checked: number**:
objmcp's answer (a JSON number, or the number's exact text such as ``1/3``) is parsed and equal
as a number (exactly, or within a relative 1e-9; a number that is not rational, given as text,
equal to its own text: ``5.7635`` for a sympy ``Float`` of 5 digits). Any other answer is
**checked: ran** (objmcp's call gave no error).

**Through objmcp**: ``Toolbox.call(tool, arguments)`` in process (the server's pipeline, minus
the wire), under the same guard and timeout, right after the direct calls of the same example (a
later example may change a setting both read); ``--served`` makes the calls through a real
``objmcp run`` process with the SDK's client instead (``zoo_figures.serve_and_call``), but
for the examples that wrote in the scratch directory (a server writes where it runs).

Each library runs in a process of its own (a crash or hang fails only it), under ``unshare -n``
where that works. Run: ``.venv-chosen/bin/python bench/doctest_calls.py --half tuning``
(``--first-zoo``, ``--library X``, ``--json FILE``, ``--markdown``, ``--served``). Failures are
shown, and written, only for the tuning half and the first zoo: for ``--half held-out`` the
counts only (the held-out half is measured, not read).
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import collections
import contextlib
import decimal
import doctest
import fractions
import inspect
import io
import itertools
import json
import math
import numbers
import os
import signal
import sys
import tempfile
import types
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
CHOSEN_DIR = BENCH_DIR / "chosen"
CHOSEN_VENV = ROOT / ".venv-chosen"
MAIN_VENV = ROOT / ".venv"
sys.path.insert(0, str(BENCH_DIR))
if str(CHOSEN_DIR) not in sys.path:
    sys.path.append(str(CHOSEN_DIR))  # after bench/: bench/figures.py stays ``figures``

from zoo_cases import UNCHECKED, Call, Target, expected_json  # noqa: E402
from zoo_figures import close, judge, loaded_toolbox, serve_and_call  # noqa: E402

EXAMPLE_TIMEOUT = 5.0
"""Seconds for one example, called directly and through objmcp."""
WORKER_TIMEOUT = 900.0
"""Seconds for one library's process (beyond, the library is failed)."""
MAX_ITEMS = 10_000
"""An iterator's answer is read up to this many items (objmcp's ``max_items``)."""
FIRST_ZOO = "first zoo"
HALVES = ("tuning", "held-out")
DETAILED = ("tuning", FIRST_ZOO)
"""The groups whose failures are shown; the held-out half's are never read."""

# --- the guard ----------------------------------------------------------------------------------

PROCESS_EVENTS = frozenset(
    {
        "subprocess.Popen",
        "os.system",
        "os.exec",
        "os.spawn",
        "os.posix_spawn",
        "os.fork",
        "os.forkpty",
        "pty.spawn",
        "os.kill",
        "os.killpg",
    }
)
NETWORK_EVENTS = frozenset(
    {"socket.connect", "socket.bind", "socket.getaddrinfo", "socket.sendto", "urllib.Request"}
)
PATH_EVENTS = frozenset(
    {
        "os.remove",
        "os.rename",
        "os.rmdir",
        "os.mkdir",
        "os.truncate",
        "os.chmod",
        "os.chown",
        "os.link",
        "os.symlink",
        "os.utime",
        "shutil.rmtree",
        "shutil.copyfile",
        "shutil.move",
        "shutil.copytree",
    }
)
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


class Unsafe(RuntimeError):
    """What the guard raises where an example would act outside its scratch directory."""


class ExampleTimeout(BaseException):
    """An example ran longer than :data:`EXAMPLE_TIMEOUT` (a BaseException: libraries catch
    Exception)."""


@dataclass
class Guard:
    """An audit hook that refuses, while on, what an example must not do."""

    scratch: str = ""
    on: bool = False
    tripped: str | None = None
    wrote: bool = False
    """An example wrote in the scratch directory (allowed, but not where a server runs)."""
    installed: bool = False

    def install(self, scratch: str) -> None:
        """Add the hook, once (for good: audit hooks cannot be removed), examples allowed to
        write in ``scratch`` only."""
        self.scratch = os.path.realpath(scratch)
        if not self.installed:
            sys.addaudithook(self._hook)
            self.installed = True

    @contextlib.contextmanager
    def watching(self) -> Iterator[Guard]:
        """The guard on, and :data:`EXAMPLE_TIMEOUT` running, for the block."""
        self.tripped = None
        self.wrote = False
        self.on = True

        def expire(signum: int, frame: object) -> None:
            raise ExampleTimeout

        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, EXAMPLE_TIMEOUT)
        try:
            yield self
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            self.on = False

    def _hook(self, event: str, args: tuple[Any, ...]) -> None:
        if not self.on:
            return
        refused = self._refused(event, args)
        if refused:
            self.tripped = self.tripped or refused
            raise Unsafe(f"the doctest bench refuses {refused}")

    def _refused(self, event: str, args: tuple[Any, ...]) -> str | None:
        if event in PROCESS_EVENTS:
            return f"a process ({event})"
        if event in NETWORK_EVENTS:
            return f"the network ({event})"
        if event == "time.sleep" and args and args[0] and args[0] > 0:
            return "sleeping"
        if event == "open" and len(args) >= 3 and self._writes(args[1], args[2]):
            if not self._inside(args[0]):
                return f"writing {args[0]!r}"
            self.wrote = True
        if event in PATH_EVENTS:
            outside = [arg for arg in args if _is_path(arg) and not self._inside(arg)]
            if outside:
                return f"{event} on {outside[0]!r}"
            self.wrote = True
        return None

    @staticmethod
    def _writes(mode: object, flags: object) -> bool:
        if isinstance(mode, str):
            return any(letter in mode for letter in "wax+")
        return isinstance(flags, int) and bool(flags & WRITE_FLAGS)

    def _inside(self, path: object) -> bool:
        if isinstance(path, int):
            return True  # an open descriptor: its opening was checked
        text = os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else ""
        full = os.path.realpath(os.path.join(self.scratch, text))
        return bool(self.scratch) and (full + os.sep).startswith(self.scratch + os.sep)


def _is_path(value: object) -> bool:
    return isinstance(value, (str, bytes, os.PathLike))


GUARD = Guard()


# --- harvesting ---------------------------------------------------------------------------------


@dataclass
class Example:
    """A harvested example: the tool it calls and how, in Python and in JSON."""

    tool: str
    source: str
    arguments: dict[str, Any]
    """As a model sends them."""
    direct: Callable[[], Any] = field(repr=False)
    """The call made directly, with the example's own Python values."""
    wrote: bool = False
    """Called directly, it wrote in the scratch directory."""


@dataclass
class Harvest:
    """What a target's doctests gave: the examples kept, and why others were not."""

    examples: list[Example] = field(default_factory=list)
    skipped: collections.Counter[str] = field(default_factory=collections.Counter)


class Skip(Exception):
    """Why an example is not harvested (the reason is its message)."""


def harvest(target: Target, toolbox: Any) -> Harvest:
    """The examples of the target's docstrings that the rule keeps (module docstring)."""
    found = Harvest()
    served = Served.of(target, toolbox)
    seen: set[str] = set()
    for own, owner in _docstrings(target, served):
        doc = inspect.getdoc(owner)
        if not doc:
            continue
        try:
            examples = doctest.DocTestParser().get_examples(doc)
        except ValueError:
            continue
        defined: dict[str, object] = {}
        for example in examples:
            try:
                if example.options.get(doctest.SKIP):
                    raise Skip("marked +SKIP")
                kept = _example(example.source, own, owner, defined, target, served)
                key = f"{kept.tool}\0{json.dumps(kept.arguments, sort_keys=True)}"
                if key in seen:
                    raise Skip("a duplicate")
                seen.add(key)
                found.examples.append(kept)
            except Skip as why:
                found.skipped[str(why)] += 1
            _define(example.source, defined)
    return found


@dataclass
class Served:
    """The tools a target serves, found by the callable an example calls."""

    tools: dict[str, Any]
    made: type | None
    """The class of a class target (served as an instance made with no arguments)."""
    named: dict[Hashable, list[str]]
    """The names of the tools serving a callable, by :func:`_identity`."""

    @classmethod
    def of(cls, target: Target, toolbox: Any) -> Served:
        """The tools of ``toolbox`` but those ``target`` withholds."""
        withheld = set(target.withheld)
        tools = {
            name: tool
            for name, tool in toolbox.items()
            if name not in withheld and callable(tool.function)
        }
        named: dict[Hashable, list[str]] = {}
        for name, tool in tools.items():
            named.setdefault(_identity(tool.function), []).append(name)
        return cls(tools, _made_class(target), named)

    def tool_of(self, callable_: object, own: str | None) -> str:
        """The tool serving ``callable_``: ``own`` when it does, else the first."""
        names = self.named.get(_identity(callable_), [])
        if not names:
            raise Skip("calls no served tool")
        return own if own in names else names[0]

    def method_of(self, name: str, own: str | None) -> str:
        """The tool serving the made instance's method ``name``."""
        method = getattr(self.made, name, None)
        names = [
            tool_name
            for tool_name, tool in self.tools.items()
            if type(getattr(tool.function, "__self__", None)) is self.made
            and getattr(tool.function, "__func__", 0) == method
        ]
        if not names:
            raise Skip("a method of another instance")
        return own if own in names else names[0]


def _identity(value: object) -> Hashable:
    """What makes two callables the same: the object, or a bound method's owner and function
    (a bound method is made anew at each look-up)."""
    owner = getattr(value, "__self__", None)
    if (inspect.ismethod(value) or inspect.isbuiltin(value)) and not (
        owner is None or isinstance(owner, types.ModuleType)
    ):
        function = getattr(value, "__func__", None)
        return (id(owner), id(function) if function is not None else getattr(value, "__name__", ""))
    return id(value)


def _docstrings(target: Target, served: Served) -> Iterator[tuple[str | None, object]]:
    """The owners of the docstrings harvested: the target's module, the object a
    ``module:attr`` target names, then every served tool's callable (with its name)."""
    from objmcp.cli.targets import parse_target

    parsed = parse_target(target.spec)
    module = None if parsed.is_path else sys.modules.get(parsed.where)
    if module is not None:
        yield None, module
        value: object = module
        for part in parsed.attribute.split(".") if parsed.attribute else ():
            value = getattr(value, part, None)
        if value is not module and value is not None:
            yield None, value
    for name, tool in served.tools.items():
        yield name, tool.function


UNDEFINED = object()
"""What a name the doctest binds other than by an import stands for."""


def _define(source: str, defined: dict[str, object]) -> None:
    """Note the names an example's source binds: an import's object, else :data:`UNDEFINED`."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                defined[bound] = _imported(node, alias)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined[node.id] = UNDEFINED
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined[node.name] = UNDEFINED
        elif isinstance(node, ast.arg):
            defined[node.arg] = UNDEFINED


def _imported(node: ast.Import | ast.ImportFrom, alias: ast.alias) -> object:
    """What an import binds, found among the modules loaded (nothing is imported here)."""
    if isinstance(node, ast.Import):
        name = alias.name if alias.asname else alias.name.split(".")[0]
        return sys.modules.get(name, UNDEFINED)
    if node.level or not node.module:
        return UNDEFINED
    module = sys.modules.get(node.module)
    if module is None:
        return UNDEFINED
    return getattr(module, alias.name, sys.modules.get(f"{node.module}.{alias.name}", UNDEFINED))


def _made_class(target: Target) -> type | None:
    """The class of a class target (served as an instance made with no arguments)."""
    from objmcp.cli.targets import load_target, parse_target

    if parse_target(target.spec).call or ":" not in target.spec:
        return None
    loaded = load_target(target.spec)
    return loaded if isinstance(loaded, type) else None


def _example(
    source: str,
    own: str | None,
    owner: object,
    defined: dict[str, object],
    target: Target,
    served: Served,
) -> Example:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        raise Skip("not Python") from None
    *setup, last = tree.body or [ast.Pass()]
    imports = (ast.Import, ast.ImportFrom)
    if isinstance(last, imports) and all(isinstance(node, imports) for node in setup):
        raise Skip("setup: imports only")
    if not isinstance(last, ast.Expr) or not all(isinstance(node, imports) for node in setup):
        raise Skip("not one expression")
    call = last.value
    if not isinstance(call, ast.Call):
        raise Skip("not a call")
    if setup:
        defined = dict(defined)
        _define(ast.unparse(ast.Module(body=setup, type_ignores=[])), defined)
    name, callee = _callee(call.func, own, owner, defined, target, served)
    function = served.tools[name].function
    args, kwargs = _literals(call)
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        raise Skip("no signature") from None
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        raise Skip("does not bind") from None
    arguments: dict[str, Any] = {}
    for parameter_name, value in bound.arguments.items():
        kind = signature.parameters[parameter_name].kind
        if kind is inspect.Parameter.VAR_KEYWORD:
            arguments.update({key: as_json(item) for key, item in value.items()})
        else:
            arguments[parameter_name] = as_json(
                list(value) if kind.name == "VAR_POSITIONAL" else value
            )
    return Example(name, source.strip(), arguments, lambda: callee(*args, **kwargs))


def _callee(
    node: ast.expr,
    own: str | None,
    owner: object,
    defined: dict[str, object],
    target: Target,
    served: Served,
) -> tuple[str, Callable[..., Any]]:
    """The tool an example calls, and the callable to call directly (else :class:`Skip`)."""
    made = served.made
    if (
        made is not None
        and isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Call)
        and not node.value.args
        and not node.value.keywords
    ):
        if not any(value is made for value in _meanings(node.value.func, owner, defined, target)):
            raise Skip("a method of another instance")
        name = served.method_of(node.attr, own)
        cls: type = made
        attribute = node.attr
        return name, lambda *a, **k: getattr(cls(), attribute)(*a, **k)  # noqa: PLW0108
    if isinstance(node, ast.Attribute) and not _dotted(node):
        raise Skip("a method of an instance")
    for value in _meanings(node, owner, defined, target):
        with contextlib.suppress(Skip):
            name = served.tool_of(value, own)
            return name, served.tools[name].function
    raise Skip("calls no served tool")


def _dotted(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _meanings(
    node: ast.expr, owner: object, defined: dict[str, object], target: Target
) -> list[object]:
    """What a (dotted) name may mean: bound by the docstring's imports, else in the docstring
    owner's module, the target's module, or as a module loaded (each that has it)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        raise Skip("a method of an instance")
    root = node.id
    if root in defined:
        if defined[root] is UNDEFINED:
            raise Skip("uses a name the doctest defines")
        roots = [defined[root]]
    else:
        roots = _lookup(root, owner, target)
    found = []
    for root_value in roots:
        value = root_value
        for part in parts:
            value = getattr(value, part, UNDEFINED)
            if value is UNDEFINED:
                break
        else:
            found.append(value)
    return found


def _lookup(name: str, owner: object, target: Target) -> list[object]:
    """What ``name`` means in the docstring owner's module, the target's, and as a module."""
    modules = [inspect.getmodule(owner), inspect.getmodule(getattr(owner, "__func__", None))]
    modules.append(sys.modules.get(target.spec.split(":")[0]))
    found = [vars(module)[name] for module in modules if module and name in vars(module)]
    if name in sys.modules:
        found.append(sys.modules[name])
    bound_to = getattr(owner, "__self__", None)
    found += [
        holder for holder in (bound_to, type(bound_to)) if getattr(holder, "__name__", 0) == name
    ]
    return found


def _literals(call: ast.Call) -> tuple[list[Any], dict[str, Any]]:
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    try:
        for arg in call.args:
            if isinstance(arg, ast.Starred):
                raise Skip("a starred argument")
            args.append(ast.literal_eval(arg))
        for keyword in call.keywords:
            if keyword.arg is None:
                raise Skip("a starred argument")
            kwargs[keyword.arg] = ast.literal_eval(keyword.value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise Skip("an argument that is no literal") from None
    return args, kwargs


def as_json(value: Any) -> Any:
    """A literal as a model sends it: tuples and sets as lists, ASCII bytes as their text
    (:class:`Skip` for what JSON cannot carry)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise Skip("an argument with no JSON form")
        return value
    if isinstance(value, bytes):
        try:
            return value.decode("ascii")
        except UnicodeDecodeError:
            raise Skip("bytes that are not ASCII") from None
    if isinstance(value, (list, tuple)):
        return [as_json(item) for item in value]
    if isinstance(value, (set, frozenset)):
        items = [as_json(item) for item in value]
        with contextlib.suppress(TypeError):
            items.sort()
        return items
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise Skip("a dict whose keys are not text")
        return {key: as_json(item) for key, item in value.items()}
    raise Skip("an argument with no JSON form")


# --- checking -----------------------------------------------------------------------------------


@dataclass
class Checked:
    """One example's outcome: how it was checked, whether objmcp passed, and why not."""

    tool: str
    source: str
    arguments: dict[str, Any]
    check: str
    """``"value"``, ``"number"`` or ``"ran"``."""
    passed: bool
    detail: str = ""


def expect(example: Example) -> tuple[str, Any]:
    """The example's answer called directly: ``("value", json)``, ``("number", answer)`` (a
    :class:`NumberAnswer`), ``("ran", None)``, or :class:`Skip` with why it is not checked. It is
    called twice: an answer that differs the second time (a clock, a setting the first call
    changed) is not checked."""
    first, second = _direct(example), _direct(example)
    check, value = _checkable(first)
    if check == "ran":
        return "ran", None
    again = _checkable(second)[1]
    if _shown(again) != _shown(value):
        raise Skip("answers differ directly")
    return check, NumberAnswer(value) if check == "number" else value


def _checkable(answer: Any) -> tuple[str, Any]:
    """How an answer is checked, and what it is in JSON's terms (real numbers that have none
    as :class:`fractions.Fraction` or ``float``)."""
    fields = _fields(answer)
    try:
        return "value", expected_json(fields)
    except (TypeError, ValueError, AttributeError, RecursionError, OverflowError):
        pass
    try:
        return "number", _as_numbers(fields)
    except (TypeError, ValueError, AttributeError, RecursionError, OverflowError):
        return "ran", None


def _as_numbers(value: Any) -> Any:
    """``value`` in JSON's terms but its real numbers that have none, kept as numbers (exact
    when rational); :class:`TypeError` for anything else that has none."""
    if isinstance(value, decimal.Decimal):
        return fractions.Fraction(value) if value.is_finite() else float(value)
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, int, float)):
        if isinstance(value, numbers.Rational):
            return fractions.Fraction(int(value.numerator), int(value.denominator))
        return Inexact(value)
    if isinstance(value, (list, tuple)):
        return [_as_numbers(item) for item in value]
    if isinstance(value, dict):
        return {_json_key(key): _as_numbers(item) for key, item in value.items()}
    return expected_json(value)


class Inexact(float):
    """A real number that is not rational (mpmath's ``mpf``, sympy's ``Float``) as a float,
    with its own text (which holds its own precision: ``5.7635`` at 5 digits)."""

    text: str

    def __new__(cls, value: Any) -> Inexact:
        """``value`` as a float, its text kept."""
        made = super().__new__(cls, float(value))
        made.text = str(value)
        return made


def _json_key(key: object) -> str:
    key_text: str = next(iter(expected_json({key: None})))
    return key_text


def _shown(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


class NumberAnswer(str):
    """An answer whose real numbers have no JSON form, as ``zoo_figures.judge`` compares it:
    equal to objmcp's text when that text, read as JSON (or as a number's text), holds the
    same numbers within rounding (:func:`numbers_match`)."""

    expected: Any

    def __new__(cls, expected: Any) -> NumberAnswer:
        """The answer ``expected`` (from :func:`_as_numbers`), shown as its JSON."""
        made = super().__new__(cls, json.dumps(expected, default=_number_text))
        made.expected = expected
        return made

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, str):
            return False
        try:
            got = json.loads(other)
        except ValueError:
            got = other
        return numbers_match(got, self.expected)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = str.__hash__

    def __repr__(self) -> str:
        return str.__str__(self)


def _number_text(value: object) -> str:
    return str(value)


def as_number(value: object) -> fractions.Fraction | float | None:
    """A JSON number, or a number's text (``"1/3"``, ``"2.50"``, ``"inf"``), as a number;
    None for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    if isinstance(value, str):
        try:
            return fractions.Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            try:
                return float(value)
            except ValueError:
                return None
    return fractions.Fraction(value) if math.isfinite(value) else value


def _both_nan(first: object, second: object) -> bool:
    return all(isinstance(item, float) and math.isnan(item) for item in (first, second))


def _near(first: fractions.Fraction | float, second: fractions.Fraction | float) -> bool:
    try:
        return math.isclose(float(first), float(second), rel_tol=1e-9, abs_tol=1e-12)
    except OverflowError:
        return False


def numbers_match(got: Any, expected: Any) -> bool:
    """``got`` (objmcp's answer read as JSON) is ``expected`` (from :func:`_as_numbers`), its
    numbers parsed and equal exactly or within a relative 1e-9 (an inexact number given as its
    text: equal to its own text, read as a number)."""
    if isinstance(expected, (fractions.Fraction, float)):
        number = as_number(got)
        if number is None:
            return False
        if number == expected or _both_nan(number, expected):
            return True
        shown = as_number(expected.text) if isinstance(expected, Inexact) else None
        return _near(number, expected) or (shown is not None and _near(number, shown))
    if isinstance(expected, list) and isinstance(got, list):
        return len(got) == len(expected) and all(map(numbers_match, got, expected))
    if isinstance(expected, dict) and isinstance(got, dict):
        return got.keys() == expected.keys() and all(
            numbers_match(got[key], expected[key]) for key in got
        )
    return close(got, expected)


def _direct(example: Example) -> Any:
    printed = io.StringIO()
    try:
        with (
            GUARD.watching(),
            contextlib.redirect_stdout(printed),
            contextlib.redirect_stderr(printed),
        ):
            result = example.direct()
            if inspect.isawaitable(result):
                with contextlib.suppress(Exception):
                    result.close()  # type: ignore[attr-defined]
                raise Skip("no plain form (awaitable)")
            if isinstance(result, Iterator) and not isinstance(result, (str, bytes)):
                result = list(itertools.islice(result, MAX_ITEMS + 1))
                if len(result) > MAX_ITEMS:
                    raise Skip("no plain form (endless)")
    except ExampleTimeout:
        raise Skip("times out directly") from None
    except Skip:
        raise
    except (Exception, SystemExit):
        if GUARD.tripped:
            raise Skip(f"unsafe: {GUARD.tripped}") from None
        raise Skip("raises directly") from None
    if GUARD.tripped:
        raise Skip(f"unsafe: {GUARD.tripped}")
    example.wrote = example.wrote or GUARD.wrote
    if printed.getvalue():
        raise Skip("prints")
    return result


def _fields(value: Any) -> Any:
    """A named tuple as its fields by name (as objmcp, and the first zoo's scipy calls, give
    it), within lists, tuples and dicts too."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {name: _fields(getattr(value, name)) for name in value._fields}
    if isinstance(value, (list, tuple)):
        return [_fields(item) for item in value]
    if isinstance(value, dict):
        return {key: _fields(item) for key, item in value.items()}
    return value


def call_of(example: Example, check: str, value: Any) -> Call:
    """The example as a bench call, its answer the one found directly."""
    return Call(example.tool, example.arguments, lambda: UNCHECKED if check == "ran" else value)


def check_in_process(toolbox: Any, example: Example, check: str, value: Any) -> Checked:
    """The example called through ``Toolbox.call``, judged as the bench judges a call."""
    try:
        with GUARD.watching(), contextlib.redirect_stdout(io.StringIO()):
            result = toolbox.call(example.tool, example.arguments)
    except ExampleTimeout:
        return _checked(example, check, False, "timed out through objmcp")
    except (Exception, SystemExit) as error:
        return _checked(example, check, False, f"raised {type(error).__name__}: {error}"[:300])
    content = [{"type": "text", "text": result.text}]
    outcome = judge(call_of(example, check, value), content, result.is_error)
    if GUARD.tripped:
        return _checked(example, check, False, f"unsafe through objmcp: {GUARD.tripped}")
    return _checked(example, check, outcome.passed, outcome.detail)


def _checked(example: Example, check: str, passed: bool, detail: str) -> Checked:
    return Checked(example.tool, example.source, example.arguments, check, passed, detail)


def measure_target(target: Target, served: bool = False) -> dict[str, Any]:
    """A target's examples harvested, expected and checked (through a real server with
    ``served``): ``{"skipped": {reason: count}, "checked": [Checked...]}``."""
    with loaded_toolbox(target) as toolbox:
        found = harvest(target, toolbox)
        expected: list[tuple[Example, str, Any]] = []
        checked: list[Checked] = []
        for example in found.examples:
            try:
                expected.append((example, *expect(example)))
            except Skip as why:
                found.skipped[str(why)] += 1
            else:  # in process, objmcp's call right after (a later example may change a setting)
                if not served:
                    checked.append(check_in_process(toolbox, *expected[-1]))
        if served:  # a server writes where it runs, not in the scratch directory
            kept = [item for item in expected if not item[0].wrote]
            if len(kept) < len(expected):
                found.skipped["writes (not served)"] += len(expected) - len(kept)
            expected = kept
            calls = tuple(call_of(*item) for item in expected)
            _, outcomes = asyncio.run(serve_and_call(Target(target.spec, calls, target.options)))
            checked = [
                _checked(example, check, outcome.passed, outcome.detail)
                for (example, check, _), outcome in zip(expected, outcomes, strict=True)
            ]
    return {"skipped": dict(found.skipped), "checked": [asdict(item) for item in checked]}


# --- the libraries ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Job:
    """One library, measured in a process of its own."""

    group: str
    name: str

    def targets(self) -> tuple[Target, ...]:
        """Its targets (those of its calls module, or the first zoo's)."""
        if self.group == FIRST_ZOO:
            from zoo_cases import TARGETS

            return tuple(target for target in TARGETS if target.library == self.name)
        from sample import library_named, targets_of

        return targets_of(library_named(self.name))

    def python(self) -> Path:
        """The Python that has its library: the first zoo's is the main venv's."""
        return (MAIN_VENV if self.group == FIRST_ZOO else CHOSEN_VENV) / "bin" / "python"


def jobs(options: argparse.Namespace) -> list[Job]:
    """The libraries the options choose."""
    from libraries import normalized
    from sample import with_calls
    from zoo_cases import TARGETS

    found = [
        Job(library.half, library.distribution)
        for library in with_calls()
        if library.half == options.half
    ]
    if options.first_zoo:
        found += [Job(FIRST_ZOO, name) for name in dict.fromkeys(t.library for t in TARGETS)]
    if options.library:
        named = {normalized(name) for name in options.library}
        found = [job for job in found if normalized(job.name) in named]
    return found


def run_job(job: Job, served: bool) -> dict[str, Any]:
    """Measure ``job`` in a process of its own, offline where ``unshare -n`` works."""
    from chosen_figures import run_offline

    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "doctests.json"
        command = [
            str(job.python()),
            str(Path(__file__)),
            "--worker",
            job.group,
            job.name,
            str(out),
        ]
        command += ["--served"] if served else []
        failed = run_offline(command, WORKER_TIMEOUT, {"PYTHONDONTWRITEBYTECODE": "1"})
        if failed is None and out.is_file():
            return {"error": None, "targets": json.loads(out.read_text())}
    return {"error": (failed or "no results written")[-500:], "targets": {}}


def worker(group: str, name: str, out: Path, served: bool) -> None:
    """In the library's own process: measure each of its targets, in a scratch directory."""
    sys.dont_write_bytecode = True
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as scratch:
        GUARD.install(scratch)
        for target in Job(group, name).targets():
            os.chdir(scratch)
            try:
                results[target.spec] = measure_target(target, served)
            except Exception as error:
                results[target.spec] = {"error": f"{type(error).__name__}: {error}"[:500]}
        os.chdir(ROOT)
    out.write_text(json.dumps(results, default=repr))


def counts(measured: dict[str, Any]) -> dict[str, int]:
    """A library's counts: harvested, checked by value and by running, passing, failing."""
    total = collections.Counter[str]()
    total["error"] = int(bool(measured["error"]))
    for result in measured["targets"].values():
        total["error"] += "error" in result
        skipped = sum(result.get("skipped", {}).values())
        checked = result.get("checked", [])
        directly = sum(
            count
            for reason, count in result.get("skipped", {}).items()
            if reason in DIRECT_SKIPS or reason.startswith("unsafe")
        )
        total["harvested"] += len(checked) + directly
        total["not harvested"] += skipped - directly
        total["skipped directly"] += directly
        total["checked"] += len(checked)
        for item in checked:
            total[f"passed {item['check']}" if item["passed"] else "failed"] += 1
    return dict(total)


DIRECT_SKIPS = frozenset(
    {
        "raises directly",
        "prints",
        "times out directly",
        "no plain form (awaitable)",
        "no plain form (endless)",
        "answers differ directly",
    }
)
"""The reasons found by calling the library (the rest are the harvest's)."""
COLUMNS = (
    "harvested",
    "skipped directly",
    "checked",
    "passed value",
    "passed number",
    "passed ran",
    "failed",
)


def line(job: Job, measured: dict[str, Any]) -> str:
    """One library's line: its counts, and (tuning half and first zoo only) its failures."""
    total = counts(measured)
    text = f"{job.name} ({job.group}): " + ", ".join(f"{total.get(c, 0)} {c}" for c in COLUMNS)
    if job.group not in DETAILED:
        return text + (", library failed" if total["error"] else "")
    lines = [text]
    if measured["error"]:
        lines.append(f"  library failed: {measured['error']}")
    for spec, result in measured["targets"].items():
        if "error" in result:
            lines.append(f"  {spec} not measured: {result['error']}")
        for item in result.get("checked", []):
            if not item["passed"]:
                arguments = json.dumps(item["arguments"])[:200]
                lines.append(f"  {spec} {item['tool']} {arguments}: {item['detail'][:300]}")
                lines.append(f"    >>> {item['source'][:200]}")
    return "\n".join(lines)


def summary(measured: dict[Job, dict[str, Any]]) -> dict[str, dict[str, int]]:
    """The counts summed per group (libraries included)."""
    groups: dict[str, collections.Counter[str]] = {}
    for job, result in measured.items():
        group = groups.setdefault(job.group, collections.Counter())
        group["libraries"] += 1
        group.update(counts(result))
    return {group: dict(total) for group, total in groups.items()}


def table(totals: dict[str, dict[str, int]], as_markdown: bool) -> str:
    """The summary as a table, a column per group."""
    rows = [["", *totals]]
    for label in ("libraries", *COLUMNS):
        rows.append([label, *(str(total.get(label, 0)) for total in totals.values())])
    if as_markdown:
        lines = ["| " + " | ".join(row) + " |" for row in rows]
        lines.insert(1, "|---|" + "---:|" * (len(rows[0]) - 1))
        return "\n".join(lines)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows)


def main(argv: list[str]) -> None:
    """Measure what the options choose, print the summary (and the tuning failures)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--half", choices=HALVES, help="this half of the chosen zoo")
    parser.add_argument("--first-zoo", action="store_true", help="the first zoo too")
    parser.add_argument("--library", action="append", help="only this library (again for more)")
    parser.add_argument("--json", type=Path, help="write the results (held-out: counts only)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--served", action="store_true", help="call through objmcp run")
    parser.add_argument("--jobs", type=int, default=4, help="libraries measured at once")
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.worker:
        group, name, out = options.worker
        worker(group, name, Path(out), options.served)
        return
    chosen = jobs(options)
    if not chosen:
        sys.exit("nothing to measure: give --half and/or --first-zoo (and a --library they hold)")
    measured: dict[Job, dict[str, Any]] = {}

    def run_and_report(job: Job) -> None:
        measured[job] = run_job(job, options.served)
        print(line(job, measured[job]), file=sys.stderr, flush=True)

    with ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        list(pool.map(run_and_report, chosen))
    totals = summary({job: measured[job] for job in chosen})
    if options.json:
        libraries = {
            f"{job.group}: {job.name}": (
                measured[job] if job.group in DETAILED else {"counts": counts(measured[job])}
            )
            for job in chosen
        }
        options.json.write_text(json.dumps({"summary": totals, "libraries": libraries}, indent=1))
    print(table(totals, options.markdown))


if __name__ == "__main__":
    main(sys.argv[1:])
