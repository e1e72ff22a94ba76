"""Classes built from JSON, round 2 (issue 37): a class whose constructor has no
lone-value form is made from one value by its ``from_*`` class methods (the first, in
declaration order, whose parameter's schema the value fits); a library's generic class
(``Resource[D]``) is built as the class is; a compiled class its module takes from
another by assignment is typed by that module's stub (its maker tool and its
construction agree); a class's constructor may take a class built from JSON, two
levels deep (``Zone(offset: Span)``, as ``datetime.timezone(offset: timedelta)`` was
before both were standard kinds said as text). Served through a real process in
``serving/test_values_round2_served.py``."""

from __future__ import annotations

import importlib
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from altlib_source import write_altlib
from hypothesis import given
from hypothesis import strategies as st

from objmcp.model.calling.tool import make_tool
from objmcp.model.values.built import (
    DEPTH,
    Refused,
    alternates,
    build,
    chosen_form,
    construction,
    library_class,
)


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    folder = str(write_altlib(tmp_path_factory.mktemp("altlib")))
    sys.path.insert(0, folder)
    try:
        yield importlib.import_module("altlib.api")
    finally:
        sys.path.remove(folder)
        for name in [n for n in sys.modules if n == "altlib" or n.startswith("altlib.")]:
            del sys.modules[name]


def test_a_class_needing_two_values_is_made_from_one_by_its_from_methods(api: Any) -> None:
    found = [made.maker.__name__ for made in alternates(api.Document)]
    assert found == ["from_text", "from_fields"]  # from_pair needs two; a staticmethod is none
    made = construction(api.Document)
    assert made is not None and made.maker is api.Document
    forms = made.schema()["anyOf"]
    assert forms[0]["required"] == ["body", "kind"]
    assert {"type": "string"} in forms
    assert {"type": "object", "additionalProperties": {"type": "string"}} in forms
    text = build("hi", api.Document)
    assert (text.kind, text.body) == ("text", "hi")
    fields = build({"a": "1"}, api.Document)
    assert (fields.kind, fields.body) == ("fields", "a=1")
    named = build({"body": "b", "kind": "k"}, api.Document)  # its keys name the arguments
    assert (named.kind, named.body) == ("k", "b")


def test_a_constructor_that_cannot_be_called_gives_way_to_its_from_method(api: Any) -> None:
    made = construction(api.Resource)  # Spec: nothing JSON carries
    assert made is not None and made.maker == api.Resource.from_contents
    assert made.schema() == {}  # a free type variable: any value
    resource = build({"$schema": "draft", "$id": "x"}, api.Resource)
    assert isinstance(resource, api.Resource) and resource.spec.name == "draft"
    tool = make_tool("root_id", api.root_id)
    positional, keywords = tool.bind({"resource": {"$schema": "s", "$id": "y"}})
    assert tool.function(*positional, **keywords) == "s y"


def test_an_alternate_that_gives_no_instance_is_refused(api: Any) -> None:
    with pytest.raises(Refused, match="from_list gave a tuple, not a Odd"):
        build([1, 2], api.Odd)
    assert build({"a": 1, "b": 2}, api.Odd).b == 2


KINDS: dict[str, tuple[type, Any]] = {
    "text": (str, lambda v: isinstance(v, str)),
    "whole": (  # JSON Schema's integer: a number whose fraction is zero (0.0 too)
        int,
        lambda v: (
            not isinstance(v, bool)
            and (isinstance(v, int) or (isinstance(v, float) and v.is_integer()))
        ),
    ),
    "number": (float, lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)),
    "items": (list, lambda v: isinstance(v, list)),
    "fields": (dict, lambda v: isinstance(v, dict)),
}
VALUES = st.one_of(
    st.text(max_size=5),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
    st.booleans(),
    st.none(),
)


def _alternate(kind: str) -> classmethod[Any, Any, Any]:
    def make(cls: type, value: Any) -> object:
        return cls(kind, value, 0)

    make.__name__ = f"from_{kind}"
    make.__annotations__ = {"value": KINDS[kind][0]}
    return classmethod(make)


@given(st.lists(st.sampled_from(list(KINDS)), min_size=1, max_size=5, unique=True), VALUES)
def test_a_value_goes_to_the_first_alternate_whose_kind_it_is(
    order: list[str], value: object
) -> None:
    def init(self: Any, via: str, value: object, extra: int) -> None:
        self.via, self.value = via, value

    init.__annotations__ = {"via": str, "value": object, "extra": int}
    body: dict[str, Any] = {"__init__": init, "__module__": __name__}
    body.update({f"from_{kind}": _alternate(kind) for kind in order})
    cls = type("Chosen", (), body)
    made = construction(cls)
    assert made is not None
    expected = next((kind for kind in order if KINDS[kind][1](value)), order[0])
    assert chosen_form(made.lone_forms(), value).maker.__name__ == f"from_{expected}"
    try:
        built = build(value, cls)
    except Refused:
        assert not KINDS[expected][1](value)  # the first, which does not take it, refuses
        return
    assert isinstance(built, cls) and built.via == expected


def test_a_compiled_class_is_typed_by_the_stub_of_the_module_it_comes_from(api: Any) -> None:
    tool = make_tool("Numbers", api.Numbers)
    assert tool.input_schema["properties"] == {
        "e": {"type": "integer"},
        "n": {"type": "integer"},
    }
    assert {p.name: p.type_from for p in tool.parameters} == {"e": "stub", "n": "stub"}
    made = construction(api.Numbers)
    assert made is not None and made.arguments == tool.input_schema  # they agree
    assert repr(build({"e": 3, "n": 33}, api.Numbers)) == "Numbers(e=3, n=33)"


class Span:
    """A span of time, from its parts (as ``timedelta`` is)."""

    def __init__(self, hours: float = 0, minutes: float = 0) -> None:
        self.minutes = hours * 60 + minutes


class Zone:
    """A zone, from a span built from JSON in turn (as ``timezone`` is)."""

    def __init__(self, offset: Span, name: str | None = None) -> None:
        self.offset, self.name = offset, name


def test_a_class_built_from_json_may_take_another_two_levels_deep() -> None:
    assert DEPTH == 2
    made = construction(Zone)
    assert made is not None
    offset = made.schema()["properties"]["offset"]
    assert offset["title"] == "Span" and offset["properties"]["hours"]["type"] == "number"
    zone = build({"offset": {"hours": 2}, "name": "EET"}, Zone)
    assert isinstance(zone, Zone) and zone.offset.minutes == 120 and zone.name == "EET"


def _levels(folder: Path, name: str) -> list[type]:
    """Classes ``Level0`` ... each taking the next, the last a string, in a new module."""
    count = DEPTH + 2
    source = "from __future__ import annotations\n"
    for i in range(count - 1):
        source += f"class Level{i}:\n    def __init__(self, inner: Level{i + 1}) -> None:\n"
        source += "        self.inner = inner\n"
    source += f"class Level{count - 1}:\n    def __init__(self, name: str) -> None:\n"
    source += "        self.name = name\n"
    (folder / f"{name}.py").write_text(source)
    module = importlib.import_module(name)
    return [getattr(module, f"Level{i}") for i in range(count)]


def test_nesting_stops_at_its_depth_whichever_class_is_asked_first(tmp_path: Path) -> None:
    sys.path.insert(0, str(tmp_path))
    try:
        deepest_first = _levels(tmp_path, "levels_up")
        shallowest_first = _levels(tmp_path, "levels_down")
        up = [construction(cls) is not None for cls in reversed(deepest_first)][::-1]
        down = [construction(cls) is not None for cls in shallowest_first]
        assert up == down == [False] * 2 + [True] * DEPTH  # a chain of DEPTH classes
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("levels_up", None)
        sys.modules.pop("levels_down", None)


def test_a_generic_class_of_its_own_is_built_but_a_typed_container_is_not(api: Any) -> None:
    class Tags(typing.List[str]):  # noqa: UP006 (typing's List: Generic among the bases)
        pass

    assert library_class(api.Resource)
    assert not library_class(Tags)
