"""Where a parameter's type comes from (issue 37): an annotation, the docstring, a stub or a
plain default, each named on the tool's parameter; never the parameter's name. The chosen
zoo's figures (``bench/chosen/figures.py``) count a parameter as typed only when one of these
gave its type."""

from __future__ import annotations

import keyword

from hypothesis import given, settings
from hypothesis import strategies as st

from objmcp.model.calling.tool import make_tool

COMMON_NAMES = ["path", "count", "n", "width", "name", "url", "data", "text", "flag", "items"]
"""Names a guess would type (a path, a count, a flag), among any others."""

names = st.sampled_from(COMMON_NAMES) | st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True)


def tool_of(source: str, name: str) -> tuple[dict[str, object], str | None]:
    """The schema and the type source of parameter ``name`` of the function ``source``
    defines as ``f``."""
    namespace: dict[str, object] = {}
    exec(source, namespace)
    tool = make_tool("f", namespace["f"])  # type: ignore[arg-type]
    (parameter,) = (p for p in tool.parameters if p.name == name)
    return tool.input_schema["properties"][name], parameter.type_from


@settings(max_examples=40)
@given(names.filter(lambda name: not keyword.iskeyword(name)))
def test_a_name_alone_gives_no_type(name: str) -> None:
    schema, source = tool_of(f"def f({name}): pass", name)
    assert source is None and "type" not in schema, (name, schema)
    schema, source = tool_of(f"def f({name}=None): pass", name)
    assert source is None and "type" not in schema, (name, schema)


@settings(max_examples=40)
@given(names.filter(lambda name: not keyword.iskeyword(name)))
def test_each_source_the_library_gives_is_named(name: str) -> None:
    assert tool_of(f"def f({name}: int): pass", name)[1] == "annotation"
    docstring = f'"""Do it.\n\n    Args:\n        {name} (int): how many.\n    """'
    assert tool_of(f"def f({name}):\n    {docstring}", name)[1] == "docstring"
    schema, source = tool_of(f"def f({name}=3): pass", name)
    assert (source, schema["type"]) == ("default", "integer")
    annotated_none = tool_of(f"def f({name}: str = None): pass", name)
    assert annotated_none[1] == "annotation"


def test_a_stub_is_named_as_the_source() -> None:
    import math

    tool = make_tool("gcd", math.gcd)
    assert {p.type_from for p in tool.parameters} == {"stub"}
