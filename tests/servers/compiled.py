"""Functions as a compiled extension shows them (pybind11's, a C module's): no signature
:mod:`inspect` can read, their call written on their docstring's first line, annotated,
over several lines, or as a list of overloads; and a class whose method's line names
``self`` first, as pybind11 writes it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["compress", "describe", "scale"]


class _Compiled:
    """A function as a C extension shows it: ``inspect.signature`` refuses it, as it does
    a builtin with no ``__text_signature__``; its docstring writes its call."""

    def __init__(self, function: Callable[..., Any], doc: str, bound_to: object = None) -> None:
        self._function = function
        self.__doc__ = doc
        self.__name__ = function.__name__
        self.__self__ = bound_to

    @property
    def __signature__(self) -> None:
        raise ValueError(f"no signature found for builtin {self.__name__}")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._function(*args, **kwargs)


class _CompiledMethod:
    """A method as pybind11 makes one: bound to an instance, a :class:`_Compiled` whose
    docstring writes ``self`` first."""

    def __init__(self, function: Callable[..., Any], doc: str) -> None:
        self._function = function
        self._doc = doc

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._function(*args, **kwargs)

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self
        return _Compiled(self._function.__get__(instance), self._doc, instance)


def _scale(number: Any, factor: Any = 2.0, /) -> Any:
    if not isinstance(number, int):
        raise TypeError("scale(): incompatible function arguments")
    return number * factor


def _compress(data: Any, level: Any = 0, checksum: Any = False, store_size: Any = True, /) -> Any:
    return f"{data}:{level}:{checksum}:{store_size}"


def _describe(value: Any, width: Any = None, /) -> Any:
    return f"{type(value).__name__}:{value!s:>{width or 1}}"


scale = _Compiled(
    _scale,
    "scale(arg0: typing.SupportsInt | typing.SupportsIndex, factor: float = 2.0) -> float\n"
    "\n"
    "Multiplies a whole number.\n",
)
compress = _Compiled(
    _compress,
    "compress(data, level=0, checksum=False,\nstore_size=True)\n\nCompresses ``data``.\n",
)
describe = _Compiled(
    _describe,
    "describe(*args, **kwargs)\n"
    "Overloaded function.\n"
    "\n"
    "1. describe(value: int, width: typing.SupportsInt = 4) -> str\n"
    "\n"
    "2. describe(value: str, width: typing.SupportsInt = 8) -> str\n",
)


class Session:
    """A session of entries, its method written as pybind11 writes one."""

    def _add(self, key: Any, value: Any, /) -> Any:
        return f"{key}={value}"

    add_entry = _CompiledMethod(
        _add,
        "add_entry(self: tests.servers.compiled.Session, arg0: str, arg1: str) -> str\n"
        "\n"
        "Adds an entry.\n",
    )
