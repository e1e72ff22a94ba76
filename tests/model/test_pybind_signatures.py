"""Compiled callables whose signature only their docstring writes, in the forms pybind11
and C modules write it (issue 37, round 4): annotated (``set_seed(arg0:
typing.SupportsInt | typing.SupportsIndex) -> None``), a call over several lines, a list of
overloads, and a bound method's line naming ``self``; the annotations are the parameters'
types where they name one, never an error where they do not."""

from __future__ import annotations

import collections.abc
import ctypes
import inspect
import keyword
import os
import subprocess
import sys
import types
import typing
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from objmcp.model.describe.textsignatures import OMITTED, from_doc_line, signature_line
from objmcp.model.describe.typetext import UNRESOLVED, type_from_text
from tests.conftest import RawServer

P = inspect.Parameter
NAMES = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True).filter(
    lambda name: not keyword.iskeyword(name) and name != "self"
)
QUOTED = st.text("abc xyz<>,()[]{}'\"=:\\-", max_size=6)
"""A string default with the characters a signature's own syntax uses, quotes and escapes."""
LITERALS = st.none() | st.booleans() | st.integers(-1000, 1000) | QUOTED

BASES: dict[str, object] = {
    "int": int,
    "str": str,
    "float": float,
    "bool": bool,
    "bytes": bytes,
    "None": type(None),
    "typing.SupportsInt": typing.SupportsInt,
    "typing.SupportsIndex": typing.SupportsIndex,
    "os.PathLike": os.PathLike,
    "collections.abc.Sequence": collections.abc.Sequence,
}


def _subscripted(pair: tuple[str, object]) -> st.SearchStrategy[tuple[str, object]]:
    text, value = pair
    return st.sampled_from(
        [
            (f"list[{text}]", list[value]),  # type: ignore[valid-type]
            (f"dict[str, {text}]", dict[str, value]),  # type: ignore[valid-type]
            (f"typing.Optional[{text}]", typing.Optional[value]),  # noqa: UP045
            (f"tuple[{text}, ...]", tuple[value, ...]),  # type: ignore[valid-type]
        ]
    )


def _union(pairs: list[tuple[str, object]]) -> tuple[str, object]:
    value = pairs[0][1]
    for _, other in pairs[1:]:
        value = value | other  # type: ignore[operator]
    return " | ".join(text for text, _ in pairs), value


TYPES: st.SearchStrategy[tuple[str, object]] = st.recursive(
    st.sampled_from(sorted(BASES.items())),
    lambda inner: inner.flatmap(_subscripted) | st.lists(inner, min_size=2, max_size=3).map(_union),
    max_leaves=4,
)
"""A type as pybind11 writes it, and the type it is."""

ANNOTATIONS = st.sampled_from(
    [
        "int",
        "str",
        "float",
        "list[str]",
        "dict[str, int]",
        "typing.SupportsInt | typing.SupportsIndex",
        "collections.abc.Sequence[OrtValue]",
        "typing.Annotated[numpy.typing.ArrayLike, numpy.uint8]",
        "typing.Annotated[int, 'x > 1, (y']",
    ]
)


@st.composite
def pybind_signatures(draw: st.DrawFn) -> tuple[list[str], str, inspect.Signature]:
    """The parameters of a call as pybind11 writes them, and the signature they mean:
    positional-only, annotated, defaults written as their repr (a literal, or an object's
    ``<Mode.FAST: 1>`` whose value nobody knows), maybe ``*args, **kwargs``; and the
    arrow and what comes back."""
    names = draw(st.lists(NAMES, unique=True, max_size=6))
    required = draw(st.integers(0, len(names)))
    written: list[str] = []
    params: list[P] = []
    for index, name in enumerate(names):
        annotation = draw(ANNOTATIONS)
        text = f"{name}: {annotation}"
        default: object = P.empty
        if index >= required:
            if draw(st.booleans()):
                default = draw(LITERALS)
                text += f" = {default!r}"
            else:
                default = OMITTED
                text += f" = <Mode.{name.upper()}: {index}>"
        written.append(text)
        params.append(P(name, P.POSITIONAL_ONLY, default=default, annotation=annotation))
    if draw(st.booleans()):
        written += ["*args", "**kwargs"]
        params += [P("args", P.VAR_POSITIONAL), P("kwargs", P.VAR_KEYWORD)]
    returns = draw(ANNOTATIONS | st.none())
    signature = inspect.Signature(params, return_annotation=P.empty if returns is None else returns)
    arrow = "" if returns is None else f" -> {returns}"
    return written, arrow, signature


@given(pybind_signatures(), st.booleans())
def test_pybind11_s_annotated_line_is_read_with_its_annotations_and_defaults(
    written: tuple[list[str], str, inspect.Signature], method: bool
) -> None:
    params, arrow, signature = written
    text = ", ".join(["self: mod.Session", *params] if method else params)
    read = from_doc_line(f"add({text}){arrow}\n\nAdds it.")
    if method:
        assert read is not None
        first, *others = read.parameters.values()
        assert first == P("self", P.POSITIONAL_ONLY, annotation="mod.Session")
        read = read.replace(parameters=others)
    assert read == signature


@given(pybind_signatures(), st.data())
def test_a_call_written_over_several_lines_is_read_to_its_closing_parenthesis(
    written: tuple[list[str], str, inspect.Signature], data: st.DataObject
) -> None:
    params, arrow, signature = written
    breaks = data.draw(st.lists(st.booleans(), min_size=len(params), max_size=len(params)))
    wrapped = "".join(
        piece + (",\n" if broken else ", ")
        for piece, broken in zip(params[:-1], breaks, strict=False)
    )
    wrapped += params[-1] if params else ""
    assert from_doc_line(f"compress({wrapped}){arrow}\n\nCompresses.\n") == signature


WITHOUT_CLOSING = st.text("abc xyz<>,([]{}'\"=:\\-", max_size=5)
"""QUOTED's characters but the closing parenthesis."""


@given(st.builds(lambda left, right: f"{left}({right}", WITHOUT_CLOSING, WITHOUT_CLOSING))
def test_a_parenthesis_in_a_string_default_opens_no_call(default: str) -> None:
    line = f"f(a: str = {default!r}, b: int = 1) -> None"
    rest = "What f does (at length).\nIt closes) here."
    assert signature_line(f"{line}\n{rest}") == (line, rest)


@given(st.lists(NAMES, unique=True, min_size=1, max_size=4), st.data())
def test_overloads_give_the_parameters_they_agree_on(names: list[str], data: st.DataObject) -> None:
    count = data.draw(st.integers(2, 4), "overloads")
    typed = [[data.draw(ANNOTATIONS) for _ in names] for _ in range(count)]
    defaults = [data.draw(st.integers(0, 2)) for _ in range(count)]
    lines = [
        f"{index + 1}. f("
        + ", ".join(f"{name}: {annotation}" for name, annotation in zip(names, row, strict=True))
        + f", width: int = {default}) -> str"
        for index, (row, default) in enumerate(zip(typed, defaults, strict=True))
    ]
    doc = "f(*args, **kwargs)\nOverloaded function.\n\n" + "\n\n".join(lines) + "\n"
    read = from_doc_line(doc)
    assert read is not None
    assert list(read.parameters) == [*names, "width"]
    for position, name in enumerate(names):
        said = list(dict.fromkeys(row[position] for row in typed))
        expected = said[0] if len(said) == 1 else " | ".join(f"({a})" for a in said)
        assert read.parameters[name].annotation == expected
        assert read.parameters[name].default is P.empty
    width = read.parameters["width"].default
    assert width == defaults[0] if len(set(defaults)) == 1 else width is OMITTED
    assert read.return_annotation == "str"
    renamed = doc.replace(f"{count}. f({names[0]}", f"{count}. f(other_{names[0]}")
    assert from_doc_line(renamed) is None  # overloads naming their parameters apart: none


NAMESPACE: dict[str, object] = {}


@given(TYPES)
def test_a_written_type_resolves_to_the_type_it_names(written: tuple[str, object]) -> None:
    text, value = written
    assert type_from_text(text, NAMESPACE) == value


@given(st.text(max_size=40))
def test_text_naming_no_type_gives_none_and_never_raises(text: str) -> None:
    found = type_from_text(text, NAMESPACE)
    assert found is UNRESOLVED or found is not None
    for unknown in ("onnx::OpSchema", "std::vector<int>", "mod.Missing", "print('x')", "3 + 4"):
        assert type_from_text(unknown, NAMESPACE) is UNRESOLVED


class Recorder:
    """A module-level object whose operators record that they ran: none should."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getitem__(self, key: object) -> type:
        self.calls.append("__getitem__")
        return int

    def __or__(self, other: object) -> type:
        self.calls.append("__or__")
        return int

    def __ror__(self, other: object) -> type:
        self.calls.append("__ror__")
        return int


RECORDED = types.ModuleType("recorded_objects")
RECORDED.recorder = Recorder()  # type: ignore[attr-defined]
RUNNING_CODE = [
    "{r}[{t}]",
    "{r}[{t}, {t}]",
    "{r} | {t}",
    "{t} | {r}",
    "{r}[{t}] | {t}",
    "{t} | {r}[{t}]",
    "typing.Optional[{r}[{t}]]",
    "{r} | None",
    "None | {r}",
]


@given(
    TYPES, st.sampled_from(RUNNING_CODE), st.sampled_from(["recorder", "recorded_objects.recorder"])
)
def test_an_object_s_subscript_or_union_is_never_run(
    written: tuple[str, object], template: str, recorder: str
) -> None:
    """``x[...]`` is read only where ``x`` is a class, a generic alias or one of
    :mod:`typing`'s forms, and ``a | b`` only where both are types: any other object's
    ``__getitem__`` or ``__or__`` is its code, never run; the text names no type."""
    sys.modules["recorded_objects"] = RECORDED
    try:
        text = template.format(r=recorder, t=written[0])
        namespace = {"recorder": RECORDED.recorder}
        assert type_from_text(text, namespace) is UNRESOLVED
        assert RECORDED.recorder.calls == []
    finally:
        del sys.modules["recorded_objects"]


def test_a_library_loader_s_subscript_loads_nothing() -> None:
    assert type_from_text("ctypes.cdll['libm.so.6']", {}) is UNRESOLVED
    assert "libm.so.6" not in vars(ctypes.cdll)


def request(server: RawServer, ident: int, method: str, params: dict[str, Any]) -> Any:
    message = {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}
    return server.request(message)


def listed(server: RawServer) -> dict[str, Any]:
    answer = request(server, 1, "tools/list", {})
    return {tool["name"]: tool for tool in answer["result"]["tools"]}


def called(server: RawServer, name: str, arguments: dict[str, Any]) -> Any:
    answer = request(server, 2, "tools/call", {"name": name, "arguments": arguments})
    return answer["result"]


def serve(target: str) -> RawServer:
    server = RawServer("-m", "objmcp", "run", target, stderr=subprocess.DEVNULL)
    server.initialize("2025-11-25")
    return server


def test_a_served_compiled_function_takes_its_annotated_parameters_by_name() -> None:
    server = serve("tests/servers/compiled.py")
    try:
        tools = listed(server)
        scale = tools["scale"]
        assert scale["inputSchema"]["properties"] == {
            "arg0": {"type": "integer"},
            "factor": {"type": "number", "default": 2.0},
        }
        assert scale["inputSchema"]["required"] == ["arg0"]
        assert scale["description"] == "Multiplies a whole number."
        for number, factor in [(3, 0.5), (-7, 2.25), (0, -1.0), (12, 3.0)]:
            answer = called(server, "scale", {"arg0": number, "factor": factor})
            assert answer["structuredContent"] == {"result": number * factor}
        refused = called(server, "scale", {"arg0": "many"})
        assert refused["isError"]
    finally:
        server.close()


def test_a_served_call_over_several_lines_and_overloads_take_their_names() -> None:
    server = serve("tests/servers/compiled.py")
    try:
        tools = listed(server)
        compress = tools["compress"]["inputSchema"]
        assert list(compress["properties"]) == ["data", "level", "checksum", "store_size"]
        assert compress["required"] == ["data"]
        assert tools["compress"]["description"] == "Compresses ``data``."
        answer = called(server, "compress", {"data": "abc", "store_size": False})
        assert not answer["isError"]
        assert answer["content"][0]["text"] == "abc:0:False:False"  # no annotation: no schema
        describe = tools["describe"]["inputSchema"]
        assert describe["properties"]["value"] == {
            "anyOf": [{"type": "integer"}, {"type": "string"}]  # one overload each
        }
        assert describe["required"] == ["value"]
        assert "default" not in describe["properties"]["width"]  # 4 or 8: the overloads differ
        assert called(server, "describe", {"value": 7})["structuredContent"] == {"result": "int:7"}
        wide = called(server, "describe", {"value": "ab", "width": 4})
        assert wide["structuredContent"] == {"result": "str:  ab"}
    finally:
        server.close()


def test_a_served_bound_method_leaves_out_the_self_its_line_names() -> None:
    server = serve("tests/servers/compiled.py:Session")
    try:
        schema = listed(server)["add_entry"]["inputSchema"]
        assert schema["properties"] == {"arg0": {"type": "string"}, "arg1": {"type": "string"}}
        answer = called(server, "add_entry", {"arg0": "colour", "arg1": "blue"})
        assert answer["structuredContent"] == {"result": "colour=blue"}
    finally:
        server.close()
