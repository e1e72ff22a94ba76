"""Parameters documented as a bulleted list under a parameters title (issue 37):
``Parameters:`` then ``* `source` **required**: The input.`` or ``- x: The count.``;
and parameters a docstring leaves to another function (``Parameters: see `other()```)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from objmcp.model.describe.docs import read_docs
from tests.conftest import RawServer

names = st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True)
words = st.lists(st.from_regex(r"[A-Za-z]{1,8}", fullmatch=True), min_size=1, max_size=6)
titles = st.sampled_from(["Parameters:", "Args:", "Arguments:", "Keyword arguments:", "Params"])
bullets = st.sampled_from(["*", "-", "+"])
namings = st.sampled_from(["{}", "`{}`", "``{}``", "{} **required**", "{} (int)"])
separators = st.sampled_from([":", " --", " -"])


def documented(function_doc: str) -> Callable[[], None]:
    """A function whose docstring is ``function_doc``."""

    def function() -> None:
        pass

    function.__doc__ = function_doc
    return function


@given(
    title=titles,
    entries=st.dictionaries(names, st.tuples(words, words), min_size=1, max_size=4),
    bullet=bullets,
    naming=namings,
    separator=separators,
)
def test_each_item_under_a_parameters_title_describes_its_parameter(
    title: str,
    entries: dict[str, tuple[list[str], list[str]]],
    bullet: str,
    naming: str,
    separator: str,
) -> None:
    items = [
        f"{bullet} {naming.format(name)}{separator} {' '.join(first)}\n  {' '.join(more)}\n"
        for name, (first, more) in entries.items()
    ]
    returned = "".join(f"{bullet} {name}_key: a key\n" for name in entries)
    doc = f"Do a thing.\n\n{title}\n\n" + "\n".join(items) + f"\nReturns:\n\n{returned}"
    params = read_docs(documented(doc)).params
    for name, (first, more) in entries.items():
        assert params[name] == " ".join([*first, *more])
        assert f"{name}_key" not in params  # a list under another title describes no parameter


@given(
    entries=st.dictionaries(names, words, min_size=1, max_size=4),
    title=st.sampled_from(["Parameters", "Other parameters", "Args", "arguments"]),
    quote=st.sampled_from(["", "`", "``"]),
    call=st.sampled_from(["", "()"]),
)
def test_parameters_left_to_another_function_take_its_descriptions(
    entries: dict[str, list[str]], title: str, quote: str, call: str
) -> None:
    listed = "".join(f"{name} : str\n    {' '.join(text)}\n" for name, text in entries.items())
    target = documented(f"Do it.\n\nParameters\n----------\n{listed}")
    pointer = documented(f"Do it too.\n\n{title}: see {quote}target{call}{quote}.\n")
    pointer.__globals__["target"] = target  # another function of the same module
    try:
        params = read_docs(pointer).params
    finally:
        del pointer.__globals__["target"]
    assert params == {name: " ".join(text) for name, text in entries.items()}


def test_a_server_lists_the_bulleted_descriptions() -> None:
    server = RawServer(
        "-m", "objmcp", "run", "tests/servers/bulleted.py:Bulleted", stderr=subprocess.DEVNULL
    )
    try:
        server.initialize("2025-11-25")
        listed = server.request({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        described = {
            tool["name"]: {
                name: schema.get("description")
                for name, schema in tool["inputSchema"]["properties"].items()
            }
            for tool in listed["result"]["tools"]
        }
        source = "The text to render.  Typically a short paragraph. - It may span lines."
        writer = 'The writer\'s name.  Default: "html".'
        assert described == {
            "render": {"source": source, "writer": writer, "strict": "Refuse unknown markup."},
            "preview": {"source": source, "writer": writer},
        }
        called = server.request(
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "preview", "arguments": {"source": "hi\nthere"}},
            }
        )
        assert called["result"]["structuredContent"] == {"result": "html:hi:False"}
    finally:
        server.close()
