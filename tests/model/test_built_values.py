"""Values of a library's own classes, built from JSON (issue 37): a docstring's class name
resolves where the function lives; a class is built by its constructor (an object of its
arguments, or its lone argument's value) or its package's factory; a served object's
methods get the same object for the same JSON value; ``type[X]`` takes a subclass's name;
an optional parameter of a class nothing builds is left out, said once per class (a
required one takes any value, as before). Served
through a real process in ``serving/test_built_served.py``."""

from __future__ import annotations

import collections.abc
import json
import logging
import sys
import types
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from objmcp import ArgumentError
from objmcp.model.calling.tool import make_tool
from objmcp.model.describe.classnames import named_class
from objmcp.model.describe.schema import SchemaBuilder
from objmcp.model.values.built import MEMO_SIZE, Memo, construction, remembering
from objmcp.model.values.convert import from_json
from objmcp.model.values.mismatch import ConversionError
from objmcp.model.values.subclasses import MAX_CHOICES, class_choices


def library(name: str, source: str) -> types.ModuleType:
    """A module ``name`` (a package of its own) made from ``source``, imported."""
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(source, module.__dict__)
    return module


LIBRARY = library(
    "builtlib",
    '''
class Variable:
    __hash__ = None
    def __init__(self, name: str = "", /) -> None:
        self.name = name

class Options:
    """Options of a count."""
    def __init__(self, mode: str = "valid", limit: int = 0) -> None:
        if limit < 0:
            raise ValueError("no negative limit")
        self.mode, self.limit = mode, limit

class Version:
    def __init__(self, text: str) -> None:
        self.parts = tuple(int(part) for part in text.split("."))

class Pool:
    def __init__(self) -> None:
        pass

class Loose:
    def __init__(self, data, size: int = 0) -> None:
        self.data = data

class Array:
    def __init__(self) -> None:
        raise TypeError("Do not call Array's constructor directly")

def array(values: list) -> "Array":
    made = Array.__new__(Array)
    made.values = list(values)
    return made

class Codec:
    pass

class Hex(Codec):
    pass

class Plain(Codec):
    pass

class _Hidden(Codec):
    pass

def count(values, options=None, memory_pool=None):
    """Count.

    Parameters
    ----------
    values : list
        The values.
    options : builtlib.Options, optional
        The options.
    memory_pool : Pool, optional
        A pool.
    """
    return len(values)

def member(value, value_set):
    """Is in.

    Parameters
    ----------
    value : str
        The value.
    value_set : Array
        The set.
    """
    return value in value_set.values

def encode(text: str, codec: "type[Codec]" = Hex) -> str:
    return codec.__name__

def uses(pool: "Pool") -> int:
    return 0

def first(values: list, pool: "Pool | None" = None) -> int:
    return len(values)

def second(values: list, spare: "Pool" = Pool()) -> int:
    return len(values)
''',
)


def test_a_docstring_class_name_resolves_in_the_module_its_package_and_the_builtins() -> None:
    count = LIBRARY.count
    assert named_class("Options", count) is LIBRARY.Options
    assert named_class("builtlib.Options, optional", count) is LIBRARY.Options
    assert named_class(":class:`~builtlib.Pool`", count) is LIBRARY.Pool
    assert named_class("Version or None", count) == LIBRARY.Version | None
    assert named_class("json.decoder.JSONDecoder", count) is sys.modules["json"].JSONDecoder
    assert named_class("bytearray", count) is bytearray
    assert named_class("NoSuchClass", count) is named_class("int or Options", count)
    assert named_class("object", count) is named_class("type", count)
    assert named_class("NoSuchClass", count) is not LIBRARY.Options


def test_a_docstring_class_types_the_parameter_from_the_docstring() -> None:
    tool = make_tool("count", LIBRARY.count)
    sources = {p.name: p.type_from for p in tool.parameters}
    assert sources["options"] == "docstring"
    options = tool.input_schema["properties"]["options"]
    forms = options["anyOf"]
    assert {"type": "null"} in forms
    built = next(form for form in forms if form.get("title") == "Options")
    assert built["additionalProperties"] is False
    assert set(built["properties"]) == {"mode", "limit"}
    _, keywords = tool.bind({"values": [1], "options": {"mode": "all", "limit": 2}})
    assert isinstance(keywords["options"], LIBRARY.Options)
    assert (keywords["options"].mode, keywords["options"].limit) == ("all", 2)


def test_a_refusal_of_the_constructor_is_an_argument_error_naming_the_class() -> None:
    tool = make_tool("count", LIBRARY.count)
    with pytest.raises(ArgumentError, match=r"Options refused it.*no negative limit"):
        tool.bind({"values": [], "options": {"limit": -1}})


def test_one_required_argument_may_come_alone_or_by_name() -> None:
    made = construction(LIBRARY.Version)
    assert made is not None and made.alone == "text"
    schema = SchemaBuilder().schema(LIBRARY.Version)
    assert {"type": "string"} in schema["anyOf"]
    alone = from_json("1.2", LIBRARY.Version, "v")
    by_name = from_json({"text": "1.2"}, LIBRARY.Version, "v")
    assert alone.parts == by_name.parts == (1, 2)  # type: ignore[attr-defined]
    with pytest.raises(ConversionError, match="Version refused it"):
        from_json("one.two", LIBRARY.Version, "v")


def test_a_constructor_needing_an_argument_nothing_types_builds_nothing() -> None:
    assert construction(LIBRARY.Loose) is None
    assert SchemaBuilder(quiet=True).schema(LIBRARY.Loose) == {}
    assert from_json([1, 2], LIBRARY.Loose, "x") == [1, 2]  # passed on as it came


def test_a_positional_only_first_argument_comes_alone() -> None:
    made = construction(LIBRARY.Variable)
    assert made is not None and made.alone == "name"
    assert from_json("xm", LIBRARY.Variable).name == "xm"  # type: ignore[attr-defined]


def test_a_class_no_constructor_makes_is_made_by_its_packages_factory() -> None:
    assert construction(LIBRARY.Pool) is None
    made = construction(LIBRARY.Array)
    assert made is not None and made.maker is LIBRARY.array
    tool = make_tool("member", LIBRARY.member)
    assert tool.input_schema["properties"]["value_set"]["type"] == "array"
    positional, keywords = tool.bind({"value": "a", "value_set": ["a", "c"]})
    assert LIBRARY.member(*positional, **keywords) is True


def test_a_served_objects_methods_get_the_same_object_for_the_same_value() -> None:
    class Holder:
        def take(self, variable: LIBRARY.Variable) -> object:  # type: ignore[name-defined]
            return variable

    first, second = Holder(), Holder()
    one = make_tool("take", first.take)
    other = make_tool("take", second.take)
    plain = make_tool("take", Holder.take)
    got = [one.bind({"variable": "xm"})[1]["variable"] for _ in range(2)]
    assert got[0] is got[1]
    assert one.bind({"variable": "ym"})[1]["variable"] is not got[0]
    assert other.bind({"variable": "xm"})[1]["variable"] is not got[0]
    fresh = [plain.bind({"self": None, "variable": "xm"})[1]["variable"] for _ in range(2)]
    assert fresh[0] is not fresh[1]


@given(st.lists(st.text(max_size=3), max_size=40))
def test_a_memo_keeps_the_most_recent_values(names: list[str]) -> None:
    memo = Memo(size=8)
    for name in names:
        kept = memo.get((str, name))
        memo.put((str, name), kept if isinstance(kept, list) else [name])
    recent = list(dict.fromkeys(reversed(names)))[:8]
    for name in recent:
        assert memo.get((str, name)) == [name]
    assert MEMO_SIZE == 512


@given(
    st.one_of(
        st.text(max_size=8),
        st.fixed_dictionaries({}, optional={"mode": st.text(max_size=5), "limit": st.integers(0)}),
    )
)
def test_a_value_of_the_built_schema_builds_an_instance(value: Any) -> None:
    cls = LIBRARY.Options if isinstance(value, dict) else LIBRARY.Variable
    schema = SchemaBuilder().schema(cls)
    sent = json.loads(json.dumps(value))
    Draft202012Validator(schema).validate(sent)
    made = from_json(sent, cls, "x")
    assert isinstance(made, cls)
    if isinstance(value, dict):
        assert made.mode == value.get("mode", "valid")  # type: ignore[attr-defined]
        assert made.limit == value.get("limit", 0)  # type: ignore[attr-defined]
    else:
        assert made.name == value  # type: ignore[attr-defined]
    with remembering(make_tool("count", LIBRARY.count).function):  # a module's: no memo
        assert from_json(sent, cls, "x") is not made


def test_a_class_parameter_takes_the_name_of_a_public_subclass() -> None:
    tool = make_tool("encode", LIBRARY.encode)
    codec = tool.input_schema["properties"]["codec"]
    assert codec == {"type": "string", "enum": ["Codec", "Hex", "Plain"], "default": "Hex"}
    assert tool.bind({"text": "a", "codec": "Plain"})[1]["codec"] is LIBRARY.Plain
    with pytest.raises(ArgumentError, match="expected one of"):
        tool.bind({"text": "a", "codec": "_Hidden"})


@given(st.integers(0, 6), st.data())
def test_a_subclass_chosen_by_name_is_that_class(depth: int, data: st.DataObject) -> None:
    base = type("Base", (), {})
    classes = [base]
    for level in range(depth):
        classes.append(type(f"Kind{level}", (data.draw(st.sampled_from(classes)),), {}))
    choices = class_choices(base)
    assert list(choices.values()) == sorted(set(classes), key=classes.index) or set(
        choices.values()
    ) == set(classes)
    for name, cls in choices.items():
        assert from_json(name, type[base], "c") is cls  # type: ignore[valid-type]


def test_a_class_of_too_many_kinds_is_no_choice() -> None:
    base = type("Many", (), {})
    kinds = [type(f"Many{number}", (base,), {}) for number in range(MAX_CHOICES + 1)]
    assert class_choices(base) == {}
    assert len(kinds) > MAX_CHOICES


def test_what_nothing_builds_is_left_out_once_per_class_when_optional(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="objmcp"):
        tools = [make_tool("first", LIBRARY.first), make_tool("second", LIBRARY.second)]
        make_tool("count", LIBRARY.count)
    for tool in tools:
        assert list(tool.input_schema["properties"]) == ["values"]
    said = [r.getMessage() for r in caplog.records if "builtlib.Pool" in r.getMessage()]
    assert len(said) <= 1  # once per class in a process (another test may have said it)
    uses = make_tool("uses", LIBRARY.uses)  # required: any value, for the library to read
    assert uses.input_schema["properties"]["pool"] == {}
    assert uses.bind({"pool": "default"})[1]["pool"] == "default"


def test_an_abstract_class_or_protocol_a_json_value_may_be_is_not_refused() -> None:
    def keyed(key: collections.abc.Hashable, size: collections.abc.Sized | None = None) -> int:
        return hash(key)

    tool = make_tool("keyed", keyed)
    assert list(tool.input_schema["properties"]) == ["key", "size"]
    assert tool.bind({"key": "a"})[1]["key"] == "a"
