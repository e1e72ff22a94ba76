"""A bytes-like hint is read as the class of bytes it stands for (``hints.BYTES_LIKE``):
``typing.ByteString``, ``collections.abc.ByteString`` and PEP 688's ``Buffer`` as ``bytes``,
alone or in a union, in the schema and the conversion alike; a stub's typeshed buffer
aliases, which no runtime can import, as what the table says. Served through a real
process: ``serving/test_stated_types.py``."""

from __future__ import annotations

import collections.abc
import importlib.util
import sys
import typing
import warnings
from typing import Any, Optional

from conftest import ROOT
from hypothesis import given
from hypothesis import strategies as st

from objmcp.model.describe.annotations import stub_hints_of
from objmcp.model.describe.hints import BYTES_LIKE, bytes_like
from objmcp.model.describe.schema import SchemaBuilder
from objmcp.model.values.convert import from_json
from objmcp.model.values.jsonable import binary_form


def _present() -> list[tuple[object, type]]:
    """The bytes-like hints this Python has, each with the class it stands for."""
    found: list[tuple[object, type]] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # ByteString, gone in 3.14
        for (module_name, name), stand_in in BYTES_LIKE.items():
            module = {"typing": typing, "collections.abc": collections.abc}.get(module_name)
            hint = getattr(module, name, None) if module is not None else None
            if hint is not None:
                found.append((hint, stand_in))
    return found


PRESENT = _present()
BUFFERS = ROOT / "tests" / "servers" / "buffers.py"


def schema(hint: object) -> dict[str, Any]:
    return SchemaBuilder(quiet=True).schema(hint)


def test_each_hint_this_python_has_reads_as_its_class() -> None:
    assert PRESENT  # typing.ByteString before 3.14, collections.abc.Buffer from 3.12
    for hint, stand_in in PRESENT:
        assert bytes_like(hint) is stand_in
        assert schema(hint) == schema(stand_in)
        assert schema(Optional[hint]) == schema(Optional[stand_in])  # type: ignore[valid-type]  # noqa: UP045


@given(st.text(), st.sampled_from(PRESENT))
def test_a_text_is_its_utf8_bytes_of_the_class(text: str, case: tuple[object, type]) -> None:
    hint, stand_in = case
    converted = from_json(text, hint)
    assert type(converted) is stand_in and bytes(converted) == text.encode("utf-8")  # type: ignore[call-overload]


@given(st.binary(), st.sampled_from(PRESENT))
def test_any_bytes_come_back_from_their_argument_form(
    data: bytes, case: tuple[object, type]
) -> None:
    hint, stand_in = case
    converted = from_json(binary_form(data), hint)
    assert type(converted) is stand_in and bytes(converted) == data  # type: ignore[call-overload]
    assert from_json([binary_form(data)], list[hint]) == [stand_in(data)]  # type: ignore[valid-type]


@given(st.text(), st.sampled_from(PRESENT))
def test_in_a_union_with_str_a_string_stays_text(text: str, case: tuple[object, type]) -> None:
    hint, _ = case
    union = typing.Union[hint, str]  # type: ignore[valid-type]  # noqa: UP007
    assert from_json(text, union) == text
    assert bytes(from_json({"base64": ""}, union)) == b""  # type: ignore[call-overload]


def test_a_stub_s_bytes_like_types_are_their_classes() -> None:
    """``buffers.pyi`` imports ``ByteString`` from typing and ``SizedBuffer`` and
    ``WriteableBuffer`` from ``_typeshed``, which no runtime can import."""
    spec = importlib.util.spec_from_file_location("buffers", BUFFERS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["buffers"] = module  # where a stub is looked for: its module's file
    try:
        spec.loader.exec_module(module)
        assert stub_hints_of(module.digest)["data"] is bytes
        assert stub_hints_of(module.measure)["data"] is bytes
        assert stub_hints_of(module.fill)["buffer"] is bytearray
    finally:
        sys.modules.pop("buffers", None)
    for kind in (bytes, bytearray, memoryview, str, list[bytes]):
        assert bytes_like(kind) is kind
