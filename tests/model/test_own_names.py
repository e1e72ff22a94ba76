"""What a module makes its own (issue 37, round 3): the names a module target serves
beyond what it defines, a self-referencing class built from JSON, and ``**kwargs`` sent
whole.

A package serves what its own top-level package defines (its ``__init__`` exposes its
submodules' functions, with or without ``__all__``), and any module serves a function it
binds under a name of its own choosing (an alias); a function imported as it is from
another package is not served, nor one imported under the name another package gives it.
A class whose constructor takes its own kind (``Chain(links: Chain[T] | list[T])``) is
built from what JSON carries, without recursing forever. ``**NAME`` may come as one object
under ``NAME``. Packages and modules written here, served by real server processes.
"""

from __future__ import annotations

import os
import subprocess
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, RawServer
from hypothesis import given, settings
from hypothesis import strategies as st

from objmcp import ArgumentError, ToolOptions
from objmcp.model.calling.tool import make_tool
from objmcp.model.describe.keywords import spread

FILES = {
    "toolshed/__init__.py": '''
        """Another top-level package, which names its function anew itself."""

        def _make(text: str) -> str:
            return text.upper()

        make = _make
        ''',
    "shelf/__init__.py": '''
        """A package: a function of its own, re-exports, aliases, imports."""

        import html
        from html import escape
        from toolshed import make

        import toolshed

        from ._helpers import tidy
        from .lexers import guess

        __all__ = ["shelve"]

        quote_html = html.escape
        shout = toolshed.make


        def shelve(title: str) -> str:
            """Shelve a book."""
            return f"shelved {title}"
        ''',
    "shelf/_helpers.py": '''
        """The package's private helpers."""

        def tidy(text: str) -> str:
            """Strip the text."""
            return text.strip()
        ''',
    "shelf/util.py": '''
        """Helpers a sibling package re-exports."""

        def guess(text: str) -> str:
            """Guess what the text is."""
            return "a title" if text.istitle() else "words"
        ''',
    "shelf/lexers/__init__.py": '''
        """A subpackage exposing a function of its top-level package's."""

        from ..util import guess

        from os.path import join
        ''',
    "chain.py": '''
        """Chains of links, and keyword arguments."""

        from __future__ import annotations

        from typing import Generic, TypeVar

        T = TypeVar("T")


        class Chain(Generic[T]):
            """Links, in order.

            Args:
                links: The links, or a chain to copy.
            """

            def __init__(self, links: Chain[T] | list[T]) -> None:
                self.links = list(links.links if isinstance(links, Chain) else links)

            def __repr__(self) -> str:
                return f"Chain({self.links!r})"


        def join(first: Chain[T], second: Chain[T]) -> Chain[T]:
            """The links of ``first`` then those of ``second``."""
            return Chain([*first.links, *second.links])


        def label(*args: str, **kwargs: int) -> str:
            """Words, then names and counts."""
            pairs = ", ".join(f"{key}={value}" for key, value in sorted(kwargs.items()))
            return " ".join(args) + " | " + pairs
        ''',
}


@pytest.fixture
def written(tmp_path: Path) -> Path:
    """The folder of the packages and modules above."""
    for name, text in FILES.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    return tmp_path


@pytest.fixture
def serve(written: Path) -> Iterator[Any]:
    """Serve a module of the folder as ``objmcp run`` does, in a server process."""
    servers: list[RawServer] = []

    def start(target: str) -> RawServer:
        path = os.pathsep.join([str(ROOT), str(written)])
        server = RawServer(
            "-m", "objmcp", "run", target, stderr=subprocess.DEVNULL, env={"PYTHONPATH": path}
        )
        server.initialize()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


def _text(result: dict[str, Any]) -> str:
    return "".join(part.get("text", "") for part in result["content"])


def test_a_package_serves_its_own_re_exports_and_its_aliases(serve: Any) -> None:
    server = serve("shelf")
    tools = server.tools()
    assert {"shelve", "tidy", "guess", "quote_html", "shout"} <= set(tools)
    assert "escape" not in tools, "a function imported as it is from the standard library"
    assert "make" not in tools, "imported under the name another package gives it"
    assert _text(server.call_tool(1, "tidy", text="  Dune ")) == "Dune"
    assert _text(server.call_tool(2, "quote_html", s="<b>")) == "&lt;b&gt;"
    assert _text(server.call_tool(3, "shout", text="dune")) == "DUNE"


def test_a_subpackage_serves_what_its_top_level_package_defines(serve: Any) -> None:
    server = serve("shelf.lexers")
    tools = server.tools()
    assert set(tools) == {"guess"}, "os.path.join is not the package's"
    assert _text(server.call_tool(1, "guess", text="The Hobbit")) == "a title"


def test_a_class_that_takes_its_own_kind_is_built_from_what_json_carries(serve: Any) -> None:
    server = serve("chain")
    joined = server.call_tool(1, "join", first=[1, 2], second=[3])
    assert not joined.get("isError"), joined
    assert _text(joined) == "Chain([1, 2, 3])"
    made = server.call_tool(2, "Chain", links=["a", "b"])
    assert not made.get("isError"), made
    assert _text(made) == "Chain(['a', 'b'])"


def test_keyword_arguments_come_whole_under_their_own_name(serve: Any) -> None:
    server = serve("chain")
    whole = server.call_tool(1, "label", args=["shelf"], kwargs={"b": 2, "a": 1})
    one_by_one = server.call_tool(2, "label", args=["shelf"], b=2, a=1)
    assert _text(whole) == _text(one_by_one) == "shelf | a=1, b=2"
    twice = server.call_tool(3, "label", kwargs={"a": 1}, a=2)
    assert twice.get("isError") and "'a'" in _text(twice) and "twice" in _text(twice)
    wrong = server.call_tool(4, "label", kwargs={"a": "one"})
    assert wrong.get("isError") and "'a'" in _text(wrong)


def _gather(label: str, *numbers: int, **options: float) -> dict[str, Any]:
    """What it is given."""
    return {"label": label, "numbers": numbers, "options": options}


_KEYS = st.text(min_size=1, max_size=6).filter(lambda key: key != "options")
_VALUES = st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(_KEYS, _VALUES, max_size=5), st.dictionaries(_KEYS, _VALUES, max_size=5))
def test_keywords_sent_whole_bind_as_they_do_one_by_one(
    whole: dict[str, float], alone: dict[str, float]
) -> None:
    tool = make_tool("gather", _gather, ToolOptions())
    arguments = {"label": "x", **alone, "options": whole}
    if set(whole) & {"label", *alone}:
        with pytest.raises(ArgumentError, match="twice"):
            tool.bind(arguments)
        return
    assert tool.bind(arguments) == tool.bind({"label": "x", **alone, **whole})
    assert tool.bind({"options": {"label": "y"}}) == tool.bind({"label": "y"})


@settings(max_examples=80, deadline=None)
@given(
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=5),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=5),
    st.sets(st.text(max_size=4), max_size=3),
)
def test_spreading_keeps_every_key_once_or_refuses(
    rest: dict[str, int], whole: dict[str, int], reserved: set[str]
) -> None:
    arguments: dict[str, Any] = {**rest, "kw": whole}
    rest = {key: value for key, value in rest.items() if key != "kw"}
    if set(whole) & (set(rest) | reserved):
        with pytest.raises(ArgumentError):
            spread(arguments, "kw", reserved, "t")
        return
    assert spread(arguments, "kw", reserved, "t") == {**rest, **whole}
    assert spread({**rest, "kw": 3}, "kw", reserved, "t") == {**rest, "kw": 3}
