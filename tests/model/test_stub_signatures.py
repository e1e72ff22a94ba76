"""Parameters from a stub where the runtime has no signature to read (issue 37): a compiled
function (tomli's ``loads``, mypyc's, whose Python source is beside it), a C method
(kiwisolver's ``strength.create``), a callable that only passes ``(*args, **kwargs)`` on, and
a C class's constructor (kiwisolver's ``Solver``, served only when it can be made with no
arguments)."""

from __future__ import annotations

import ast
import functools
import importlib.machinery
import inspect
import json
import logging
import subprocess
import sys
import textwrap
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, RawServer
from hypothesis import given, settings
from hypothesis import strategies as st

import objmcp
from objmcp.model.describe.signatures import signature_of
from objmcp.model.describe.sources import stub_signature
from objmcp.model.describe.stubsyntax import definitions_in
from objmcp.model.describe.textsignatures import OMITTED
from objmcp.model.describe.writtensignatures import written_signature

LEDGER = ROOT / "tests" / "servers" / "stubbed.py"

# --- through a server process -----------------------------------------------------------------


def test_a_class_and_methods_only_a_stub_describes_are_served_and_called_by_name() -> None:
    """``Ledger``'s constructor is a C base's, which inspect cannot read; its stub says
    ``__init__(self)``, so it is made and its methods served. ``record`` passes
    ``(*args, **kwargs)`` on; its stub's ``__entry`` is positional-only by convention,
    accepted as ``entry`` and passed by position; ``scale``'s overloads agree on names."""
    server = RawServer("-m", "objmcp", "run", f"{LEDGER}:Ledger", stderr=subprocess.DEVNULL)
    try:
        server.initialize("2025-11-25")
        listed = server.request({"jsonrpc": "2.0", "id": "list", "method": "tools/list"})
        schemas = {t["name"]: t["inputSchema"] for t in listed["result"]["tools"]}
        assert schemas["record"]["properties"] == {
            "entry": {"type": "string"},
            "amount": {"type": "number"},
            "note": {"type": "string"},
        }
        assert schemas["record"]["required"] == ["entry"]
        assert list(schemas["scale"]["properties"]) == ["factor"]
        calls = [
            ("record", {"entry": "rent", "amount": 2.5}),
            ("record", {"entry": "food"}),  # the runtime's own default, 1.0
            ("record", {"entry": "rent", "amount": 1, "note": "late"}),
            ("scale", {"factor": 2}),
            ("record", {"s": "rent"}),  # a name the stub does not write
        ]
        answers = []
        for index, (tool, arguments) in enumerate(calls):
            params = {"name": tool, "arguments": arguments}
            answers.append(
                server.request(
                    {"jsonrpc": "2.0", "id": index, "method": "tools/call", "params": params}
                )["result"]
            )
        balances = [json.loads(a["content"][0]["text"]) for a in answers[:4]]
        assert balances == [2.5, 3.5, 4.5, 9.0]
        assert answers[4]["isError"]
        assert "Unknown argument 's'" in answers[4]["content"][0]["text"]
    finally:
        server.close()


# --- what a stub's text gives -----------------------------------------------------------------

_NAMES = st.lists(
    st.from_regex(r"[a-z][a-z0-9]{0,5}", fullmatch=True).filter(
        lambda name: name not in {"self", "if", "in", "is", "or", "as", "def", "for", "and"}
    ),
    min_size=1,
    max_size=6,
    unique=True,
)
_KINDS = (
    inspect.Parameter.POSITIONAL_ONLY,
    inspect.Parameter.POSITIONAL_OR_KEYWORD,
    inspect.Parameter.KEYWORD_ONLY,
)


@st.composite
def signatures(draw: st.DrawFn) -> inspect.Signature:
    """A signature of named parameters in Python's order: positional-only, either, then
    keyword-only, each maybe with a default (an int, a string, None or ``...``)."""
    names = draw(_NAMES)
    each = st.sampled_from(_KINDS)
    kinds = sorted(draw(st.lists(each, min_size=len(names), max_size=len(names))))
    defaults = st.one_of(st.integers(-9, 9), st.text("ab", max_size=2), st.none(), st.just(...))
    parameters: list[inspect.Parameter] = []
    for name, kind in zip(names, kinds, strict=True):
        optional = draw(st.booleans()) or (
            kind is not inspect.Parameter.KEYWORD_ONLY
            and any(p.default is not p.empty for p in parameters)
        )
        default = draw(defaults) if optional else inspect.Parameter.empty
        parameters.append(inspect.Parameter(name, kind, default=default))
    return inspect.Signature(parameters)


def _stub_text(signature: inspect.Signature, name: str = "f", dunder: bool = False) -> str:
    """``signature`` written as a stub's ``def``; ``dunder``: positional-only parameters
    written ``__name``, with no ``/`` (the older convention)."""
    if dunder:
        signature = signature.replace(
            parameters=[
                p.replace(name=f"__{p.name}", kind=p.POSITIONAL_OR_KEYWORD)
                if p.kind is p.POSITIONAL_ONLY
                else p
                for p in signature.parameters.values()
            ]
        )
    return f"def {name}{str(signature).replace('Ellipsis', '...')} -> None: ...\n"


def _written(text: str) -> inspect.Signature | None:
    return written_signature(definitions_in(ast.parse(text).body)["f"], method=False)


def _as_read(signature: inspect.Signature) -> inspect.Signature:
    """``signature`` as a stub reader gives it: a default written ``...`` is OMITTED."""
    return signature.replace(
        parameters=[
            p.replace(default=OMITTED) if p.default is ... else p
            for p in signature.parameters.values()
        ]
    )


@settings(max_examples=40)
@given(signatures(), st.booleans())
def test_a_stub_def_gives_the_signature_it_writes(
    signature: inspect.Signature, dunder: bool
) -> None:
    assert _written(_stub_text(signature, dunder=dunder)) == _as_read(signature)


def _redefaulted(signature: inspect.Signature, data: st.DataObject) -> inspect.Signature:
    """``signature``'s parameters, each keeping its default or taking another."""
    redrawn = [
        p.replace(default=data.draw(st.sampled_from([p.default, ..., 0, "a"])))
        if p.default is not p.empty
        else p
        for p in signature.parameters.values()
    ]
    return signature.replace(parameters=redrawn)


@settings(max_examples=40)
@given(signatures(), signatures(), st.booleans(), st.data())
def test_overloads_give_parameters_only_when_they_name_them_alike(
    one: inspect.Signature, unlike: inspect.Signature, alike: bool, data: st.DataObject
) -> None:
    other = _redefaulted(one, data) if alike else unlike
    text = "from typing import overload\n" + "".join(
        "@overload\n" + _stub_text(s) for s in (one, other)
    )
    written = _written(text)
    shape = [(p.name, p.kind) for p in one.parameters.values()]
    if shape != [(p.name, p.kind) for p in other.parameters.values()]:
        assert written is None
        return
    if written is None:  # a default only one gives, before a parameter that has none
        return
    for mine, first, second in zip(
        written.parameters.values(),
        _as_read(one).parameters.values(),
        _as_read(other).parameters.values(),
        strict=True,
    ):
        assert (mine.name, mine.kind) == (first.name, first.kind)
        agreed = first.default is second.default or (
            type(first.default) is type(second.default) and first.default == second.default
        )
        expected = first.default if agreed else OMITTED
        assert mine.default is expected or (agreed and mine.default == expected)


def test_a_source_beside_its_overloads_gives_its_implementation() -> None:
    text = textwrap.dedent(
        """
        from typing import overload
        @overload
        def f(a: int) -> int: ...
        @overload
        def f(a: str, b: str) -> str: ...
        def f(a, b=None): return a
        """
    )
    assert str(_written(text)) == "(a, b=None)"


# --- where the stub is ------------------------------------------------------------------------


@pytest.fixture
def compiled(tmp_path: Path) -> Iterator[types.ModuleType]:
    """A package as compiled libraries ship: ``_parse``, compiled by mypyc with its source
    ``_parse.py`` beside it; ``_core``, a C extension with its stub ``_core.pyi``, whose
    class and function name the package as their module. The compiled files are never
    imported: their modules are made here, their callables Python's, unreadable to
    :mod:`inspect` as C ones are."""
    package = tmp_path / "compiledpkg"
    package.mkdir()
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (package / "__init__.py").write_text("")
    for stem in ("_parse", "_core"):
        (package / f"{stem}{suffix}").write_bytes(b"")
    (package / "_parse.py").write_text(
        textwrap.dedent(
            """
            from typing import TYPE_CHECKING
            if TYPE_CHECKING:
                from collections.abc import Callable
            def loads(__s: str, *, parse_float: "Callable[[str], float]" = float) -> dict: ...
            """
        )
    )
    (package / "_core.pyi").write_text(
        textwrap.dedent(
            """
            class Solver:
                def __init__(self) -> None: ...
                def suggest(self, variable: str, value: float, /) -> None: ...
            class Strict:
                def __init__(self, strength: float) -> None: ...
            """
        )
    )
    sys.path.insert(0, str(tmp_path))
    made = __import__("compiledpkg")
    parse = types.ModuleType("compiledpkg._parse")
    parse.__file__ = str(package / f"_parse{suffix}")
    parse.__package__ = "compiledpkg"
    sys.modules[parse.__name__] = parse

    def unreadable(function: Any, module: str, qualname: str) -> Any:
        function.__module__, function.__qualname__ = module, qualname
        function.__signature__ = "unreadable"  # as a C callable's: inspect raises
        return function

    parse.loads = unreadable(lambda *args, **kwargs: args, parse.__name__, "loads")

    class Solver:
        __signature__ = "unreadable"

        @functools.partial(unreadable, module="compiledpkg", qualname="Solver.suggest")
        def suggest(self, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
            return args

    class Strict(Solver):
        pass

    for cls in (Solver, Strict):
        cls.__module__, cls.__qualname__ = "compiledpkg", cls.__name__
        setattr(made, cls.__name__, cls)
    try:
        yield made
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n.startswith("compiledpkg")]:
            del sys.modules[name]


def test_a_compiled_function_takes_its_parameters_from_the_source_beside_it(
    compiled: types.ModuleType,
) -> None:
    loads = sys.modules["compiledpkg._parse"].loads  # type: ignore[attr-defined]
    assert str(signature_of(loads)) == "(s, /, *, parse_float=OMITTED)"
    tool = objmcp.Toolbox({"loads": loads}).tool("loads")
    assert tool.input_schema["properties"]["s"] == {"type": "string"}


def test_a_c_class_is_made_as_the_stub_of_its_extension_says(
    compiled: types.ModuleType, caplog: pytest.LogCaptureFixture
) -> None:
    assert stub_signature(compiled.Solver) == inspect.Signature()
    with caplog.at_level(logging.WARNING, "objmcp"):
        solver = objmcp.Toolbox(compiled.Solver)
        assert list(solver.tool("suggest").input_schema["properties"]) == ["variable", "value"]
        assert solver.call("suggest", {"variable": "x", "value": 2}).value == ["x", 2]
        assert objmcp.Toolbox(compiled.Strict).specs("mcp") == []  # its stub wants strength
    assert "Strict.__init__ needs arguments" in caplog.text


def test_a_class_nothing_describes_is_tried_once_with_no_arguments(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Tally(dict):  # type: ignore[type-arg]
        """A C base's constructor, and no stub: tried, and made."""

        def add(self, name: str) -> int:
            self[name] = self.get(name, 0) + 1
            return int(self[name])

    class Moment(int):
        """Made only with an argument: tried, refused, served without an instance."""

        def __new__(cls, value: int) -> Moment:
            return super().__new__(cls, value)

        def double(self) -> int:
            return self * 2

    Moment.__signature__ = "unreadable"  # type: ignore[attr-defined]
    with caplog.at_level(logging.WARNING, "objmcp"):
        assert objmcp.Toolbox(Tally).call("add", {"name": "a"}).value == 1
        assert objmcp.Toolbox(Moment).specs("mcp") == []
    assert "Moment cannot be made with no arguments (TypeError" in caplog.text
