"""A parameter's default gives its type when nothing else does, and a ``None`` default
makes a typed parameter nullable (issue 22, section 3)."""

from __future__ import annotations

import json
import math
import textwrap
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from objmcp import Toolbox

DEFAULTS = st.one_of(
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)
KIND = {bool: "boolean", int: "integer", float: "number", str: "string"}


def untyped_with(default: object) -> Toolbox:
    def echo(x=None):  # type: ignore[no-untyped-def]  # untyped, as most libraries are
        """Give x back."""
        return x

    echo.__defaults__ = (default,)
    return Toolbox({"echo": echo})


def schema_of(tools: Toolbox, name: str = "echo") -> dict[str, Any]:
    (spec,) = [spec for spec in tools.specs("mcp") if spec["name"] == name]
    return dict(spec["inputSchema"])


def _refuse(constant: str) -> object:
    raise ValueError(constant)


def as_sent(value: object, default: object) -> object:
    """What a lenient tool reads ``value`` as: a string given where a string is not what
    the parameter takes is read as the JSON it holds, if it holds any (``"0"`` is 0)."""
    if isinstance(value, str) and not isinstance(default, str):
        try:
            return json.loads(value, parse_constant=_refuse)
        except ValueError:
            return value
    return value


@example(default=0, value="0")  # a number sent as its text: read as the number
@example(default=0, value=" 3")
@example(default=0.5, value="[1]")
@given(default=DEFAULTS, value=DEFAULTS)
def test_a_default_gives_the_type_and_values_of_it_pass(default: object, value: object) -> None:
    tools = untyped_with(default)
    schema = schema_of(tools)["properties"]["x"]
    assert schema["type"] == KIND[type(default)], schema
    result = tools.call("echo", {"x": value})
    value = as_sent(value, default)
    fits = (
        type(value) is type(default)
        or (type(default) is float and type(value) is int)
        # JSON Schema's integer is any number with no fraction: 0.0 is one
        or (type(default) is int and type(value) is float and value.is_integer())
    )
    assert result.is_error is not fits, (default, value, result.text)
    if not fits:
        assert "x" in result.text


def test_a_none_default_makes_a_typed_parameter_nullable() -> None:
    class Desk:
        def pick(self, count: int = None, label: str | None = None) -> str:  # type: ignore[assignment]  # noqa: RUF013
            """Pick."""
            return f"{count} {label}"

    tools = Toolbox(Desk())
    properties = schema_of(tools, "pick")["properties"]
    assert {"type": "null"} in properties["count"]["anyOf"]
    assert tools.call("pick", {"count": None}).text == "None None"
    assert tools.call("pick", {"count": 3}).text == "3 None"


def test_the_standard_library_gets_types_from_its_defaults() -> None:
    tools = Toolbox({"wrap": textwrap.wrap, "isclose": math.isclose})
    assert schema_of(tools, "wrap")["properties"]["width"]["type"] == "integer"
    assert schema_of(tools, "isclose")["properties"]["rel_tol"]["type"] == "number"
    assert tools.call("isclose", {"a": 1.0, "b": 1.0 + 1e-12, "rel_tol": 1e-9}).text == "true"
