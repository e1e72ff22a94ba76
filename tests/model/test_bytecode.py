"""The fast reading of bytecode (``objmcp.model.finding.bytecode``) gives what :mod:`dis` gives,
instruction for instruction, on the code of whole libraries: the standard library's and
those the zoo serves (EXTENDED_ARG, closures, comprehensions, imports, jumps)."""

from __future__ import annotations

import importlib
import inspect
import types
from collections.abc import Iterator

import pytest

from objmcp.model.finding import bytecode

MODULES = (
    "os",
    "json",
    "argparse",
    "email.message",
    "statistics",
    "dataclasses",
    "sympy.core.basic",
    "numpy.lib._function_base_impl",
    "pandas.core.frame",
)


def codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from codes(constant)


def functions_of(module: types.ModuleType) -> Iterator[types.FunctionType]:
    for value in vars(module).values():
        if isinstance(value, types.FunctionType):
            yield value
        elif isinstance(value, type):
            for member in vars(value).values():
                function = getattr(member, "__func__", member)
                if isinstance(function, types.FunctionType):
                    yield function


@pytest.mark.parametrize("name", MODULES)
def test_the_fast_reading_is_what_dis_reads(name: str) -> None:
    module = importlib.import_module(name)
    read = 0
    for function in functions_of(module):
        for code in codes(function.__code__):
            fast = list(bytecode._by_bytes(code))
            assert fast == list(bytecode._by_dis(code)), (function, code.co_name)
            read += 1
    assert read > 10, read


def test_a_difference_hands_the_reading_to_dis(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a Python whose bytecode this was not written for meets: dis reads it all."""
    monkeypatch.setattr(bytecode._State, "trusted", True)
    monkeypatch.setattr(bytecode._State, "checked", 0)
    monkeypatch.setattr(bytecode, "_by_bytes", lambda code: iter([("NOP", None)]))
    code = inspect.getsource  # any function
    got = list(bytecode.instructions(code.__code__))
    assert got == list(bytecode._by_dis(code.__code__))
    assert bytecode._State.trusted is False
