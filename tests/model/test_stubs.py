"""Types from a library's own stub files (``objmcp/model/describe/sources.py``): jellyfish's Rust
functions and matplotlib's untyped sources are typed in ``.pyi`` files beside them."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jellyfish
import matplotlib.colors
import pytest
from hypothesis import given
from hypothesis import strategies as st

import objmcp
from objmcp.model.describe.annotations import stub_hints_of

JELLYFISH = sorted(
    name
    for name in dir(jellyfish)
    if not name.startswith("_") and callable(getattr(jellyfish, name))
)


def test_a_compiled_function_takes_its_types_from_the_package_stub() -> None:
    function = jellyfish.levenshtein_distance
    signature = inspect.signature(function)
    assert list(signature.parameters) == ["a", "b"]  # the stub says s1, s2: by position
    assert stub_hints_of(function) == {"a": str, "b": str, "return": int}


def test_an_untyped_python_function_takes_its_types_from_the_stub_beside_it() -> None:
    function = matplotlib.colors.to_hex
    assert "keep_alpha" not in getattr(function, "__annotations__", {})
    hints = stub_hints_of(function)
    assert hints["keep_alpha"] is bool and hints["return"] is str


@given(st.sampled_from(JELLYFISH))
def test_stub_types_only_name_the_parameters_the_callable_has(name: str) -> None:
    function = getattr(jellyfish, name)
    signature = inspect.signature(function)
    hints = stub_hints_of(function)
    assert set(hints) <= {*signature.parameters, "return"}
    assert hints, f"jellyfish.{name} has a stub that says its types"


@pytest.fixture
def stubbed(tmp_path: Path) -> Iterator[Any]:
    """A package of untyped functions with a stub beside them: one plain, one overloaded,
    one whose stub names a type only the stub imports, a method."""
    package = tmp_path / "stubbed_pkg"
    package.mkdir()
    (package / "__init__.py").write_text(
        textwrap.dedent(
            """
            def plain(x, y=1): return x * y
            def twice(x): return x
            def dated(when): return when
            class Box:
                def put(self, item, times=1): return [item] * times
            """
        )
    )
    (package / "__init__.pyi").write_text(
        textwrap.dedent(
            """
            import datetime as dt
            from typing import overload
            def plain(x: str, y: int = ...) -> str: ...
            @overload
            def twice(x: int) -> int: ...
            @overload
            def twice(x: str) -> str: ...
            def dated(when: dt.date) -> dt.date: ...
            class Box:
                def put(self, item: float, times: int = ...) -> list[float]: ...
            """
        )
    )
    sys.path.insert(0, str(tmp_path))
    try:
        import stubbed_pkg

        yield stubbed_pkg
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("stubbed_pkg", None)


def test_what_a_stub_says_and_what_it_cannot(stubbed: Any) -> None:
    import datetime

    def hints(function: Any) -> dict[str, object]:
        return stub_hints_of(function)

    assert hints(stubbed.plain) == {"x": str, "y": int, "return": str}
    assert hints(stubbed.twice) == {}
    assert hints(stubbed.dated) == {"when": datetime.date, "return": datetime.date}
    box = stubbed.Box()
    assert hints(box.put) == {"item": float, "times": int, "return": list[float]}


def test_a_stubs_imports_load_nothing_new() -> None:
    # numpy's stub imports numpy.distutils (for type checkers), which imports setuptools
    probe = (
        "import os, sys, numpy\n"
        "from objmcp.model.describe.boundnames import stub_namespace as _stub_namespace\n"
        "stub = os.path.join(os.path.dirname(numpy.__file__), '__init__.pyi')\n"
        "names = _stub_namespace(stub, 'numpy')\n"
        "assert 'ArrayLike' in names and len(names) > 100, sorted(names)[:20]\n"
        "print(sorted(m for m in ('setuptools', 'numpy.distutils') if m in sys.modules))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(objmcp.__file__).parents[1])}
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == "[]"
