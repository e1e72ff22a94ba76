"""Argument fuzzing: every tool of ``tests/servers/varied.py``, called with arguments made
from its own ``inputSchema`` as the server lists it.

Valid arguments (``hypothesis_jsonschema.from_schema``) must reach the method as the
Python values their type hints ask for: an oracle here builds, from the hint and the JSON
alone, the description (``varied.describe``) the method should answer with. Where no value
of the hinted type can hold a schema-valid argument (a float beyond range, text that is no
decimal, two JSON keys that are one integer), the call must instead be refused naming the
parameter. Arguments broken in one place (a required key dropped, a wrong value, a value
off the enum, garbage deep inside, an unknown key), confirmed invalid by ``jsonschema``,
must be an ``isError`` result naming the parameter, and the server must go on serving.
Most calls go through ``objmcp.testing`` (the real protocol, in memory, one connection for
the module); a few through an ``objmcp run`` process on a stdio pipe, which must answer
the same.
"""

from __future__ import annotations

import base64
import copy
import dataclasses
import datetime
import decimal
import enum
import functools
import inspect
import itertools
import json
import pathlib
import re
import subprocess
import sys
import types
import typing
import uuid
from collections import abc
from collections.abc import Callable, Iterator
from typing import Any, Literal, Union

import pydantic
import pytest
import typing_extensions
from conftest import ZOO, RawServer
from hypothesis import HealthCheck, Phase, assume, event, example, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

from objmcp.testing import CallResult, SyncClient, connect_sync

sys.path.insert(0, str(ZOO.parent))
import varied

VARIED = ZOO.parent / "varied.py"
Place = tuple[str | int, ...]  # a place in a JSON value: keys and indexes
ARGUMENT_ERROR = re.compile(r"(Invalid|Missing required|Unknown) argument")
# Failing cases are reported as found: shrinking through a server, drawing again from
# hypothesis-jsonschema at each step, takes about a minute a failure.
FUZZ = settings(
    max_examples=8,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def _listed() -> dict[str, dict[str, Any]]:
    with connect_sync(varied.Varied()) as client:
        return {tool["name"]: tool["inputSchema"] for tool in client.list_tools()}


SCHEMAS = _listed()
TOOLS = sorted(SCHEMAS)


# --- generating valid arguments ---------------------------------------------------------------


def generation_schema(schema: dict[str, Any], annotations: bool) -> dict[str, Any]:
    """``schema`` in the draft-07 form hypothesis-jsonschema reads: references inlined
    (a recursive one three levels deep, then ``false``), ``prefixItems`` as an ``items``
    list. With ``annotations``, ``contentEncoding: base64`` becomes a format we generate."""
    defs = schema.get("$defs", {})
    data_keys = {"enum", "const", "default", "examples", "required"}

    def inline(node: Any, seen: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [inline(item, seen) for item in node]
        if not isinstance(node, dict):
            return node
        reference = node.get("$ref")
        if isinstance(reference, str):
            name = reference.removeprefix("#/$defs/")
            if seen.count(name) >= 3:
                return False
            target = inline(defs[name], (*seen, name))
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            return {**target, **siblings} if isinstance(target, dict) else target
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "$defs":
                continue
            if key == "properties":
                out[key] = {name: inline(item, seen) for name, item in value.items()}
            else:
                out[key] = value if key in data_keys else inline(value, seen)
        if "prefixItems" in out:
            out["additionalItems"] = out.pop("items", True)
            out["items"] = out.pop("prefixItems")
        if annotations and out.get("contentEncoding") == "base64":
            out["format"] = "base64"
        return out

    return {"$schema": "http://json-schema.org/draft-07/schema#", **inline(schema, ())}


FORMATS = {
    "base64": st.binary(max_size=24).map(lambda data: base64.b64encode(data).decode()),
    "uuid": st.uuids().map(str),
}


@functools.cache
def valid_arguments(tool: str, annotations: bool = True) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments valid against ``tool``'s schema; with ``annotations``, strings also keep to
    its ``format`` and ``contentEncoding`` (which JSON Schema 2020-12 does not assert)."""
    schema = generation_schema(SCHEMAS[tool], annotations)
    formats = FORMATS if annotations else None
    return typing.cast(
        st.SearchStrategy[dict[str, Any]],
        from_schema(schema, custom_formats=formats),
    )


@functools.cache
def validator(tool: str) -> Draft202012Validator:
    """``tool``'s listed schema, compiled."""
    return Draft202012Validator(SCHEMAS[tool])


@st.composite
def respelled(draw: st.DrawFn, value: Any) -> Any:
    """``value`` with some of its whole numbers spelled the other way (2 as 2.0, 2.0 as 2):
    the same JSON numbers, as another client's encoder may write them."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value == int(value) and abs(value) <= 2**53 and draw(st.booleans()):
            return float(value) if isinstance(value, int) else int(value)
        return value
    if isinstance(value, list):
        return [draw(respelled(item)) for item in value]
    if isinstance(value, dict):
        return {key: draw(respelled(item)) for key, item in value.items()}
    return value


def draw_valid(data: st.DataObject, tool: str) -> dict[str, Any]:
    """Valid arguments for ``tool``: keeping to annotations or not, integers respelled or not."""
    annotations = data.draw(st.booleans(), label="keep to annotations")
    arguments = data.draw(valid_arguments(tool, annotations), label="arguments")
    if data.draw(st.booleans(), label="respell"):
        arguments = data.draw(respelled(arguments), label="respelled")
    errors = [error.message for error in validator(tool).iter_errors(arguments)]
    assert not errors, f"the generator broke the schema: {errors}"
    return arguments


# --- the oracle: what the method should receive -----------------------------------------------


class Mismatch(Exception):
    """A JSON value is no form of the type hint at hand (tried members of unions)."""


class Unrepresentable(Exception):
    """A JSON value fits the hint's schema, but no value of the hint's type holds it."""

    def __init__(self, path: Place, why: str) -> None:
        super().__init__(f"{_show(path)}: {why}")
        self.path = path


def _show(path: Place) -> str:
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path)[1:]


def qualified(cls: type) -> str:
    """The type name ``varied.describe`` gives."""
    module = "" if cls.__module__ == varied.__name__ else f"{cls.__module__}."
    return module + cls.__qualname__


def same_json(a: object, b: object) -> bool:
    """Equal as JSON values: 1 is 1.0, but neither is true."""
    return isinstance(a, bool) == isinstance(b, bool) and a == b


def _number(sent: object, path: Place) -> int | float:
    if isinstance(sent, bool) or not isinstance(sent, (int, float)):
        raise Mismatch(path)
    return sent


def _integer(sent: object, path: Place) -> int:
    number = _number(sent, path)
    if isinstance(number, float) and not number.is_integer():
        raise Mismatch(path)
    return int(number)


def _float(sent: object, path: Place) -> float:
    # a JSON integer stays an int, as Python's typing lets an int stand for a float
    return _number(sent, path)


def _exactly(kind: type) -> Callable[[object, Place], object]:
    def same(sent: object, path: Place) -> object:
        if type(sent) is not kind:
            raise Mismatch(path)
        return sent

    return same


def _parsed(parse: Callable[[str], object]) -> Callable[[object, Place], object]:
    def read(sent: object, path: Place) -> object:
        if not isinstance(sent, str):
            raise Mismatch(path)
        try:
            return parse(sent)
        except (ValueError, decimal.InvalidOperation) as error:
            raise Unrepresentable(path, f"{sent!r}: {error}") from None

    return read


def _zulu(text: str) -> str:
    return text[:-1] + "+00:00" if text.endswith("Z") else text


def _decimal(sent: object, path: Place) -> decimal.Decimal:
    if isinstance(sent, str):
        return typing.cast(decimal.Decimal, _parsed(decimal.Decimal)(sent, path))
    return decimal.Decimal(repr(_number(sent, path)))


def _binary(sent: object, path: Place) -> bytes:
    """A bytes argument: a string is its UTF-8 text, an object ``{"base64": ...}`` any bytes."""
    if isinstance(sent, str):
        try:
            return sent.encode("utf-8")
        except UnicodeEncodeError as error:
            raise Unrepresentable(path, f"{sent!r}: {error}") from None
    if isinstance(sent, dict) and list(sent) == ["base64"]:
        return typing.cast(
            bytes,
            _parsed(lambda text: base64.b64decode(text, validate=True))(
                sent["base64"], (*path, "base64")
            ),
        )
    raise Mismatch(path)


LEAVES: dict[type, Callable[[object, Place], object]] = {
    int: _integer,
    float: _float,
    bool: _exactly(bool),
    str: _exactly(str),
    bytes: _binary,
    datetime.datetime: _parsed(lambda text: datetime.datetime.fromisoformat(_zulu(text))),
    datetime.date: _parsed(datetime.date.fromisoformat),
    datetime.time: _parsed(lambda text: datetime.time.fromisoformat(_zulu(text))),
    uuid.UUID: _parsed(uuid.UUID),
    decimal.Decimal: _decimal,
    pathlib.Path: _parsed(pathlib.Path),
}


WRAPPERS = {typing.Annotated, typing_extensions.NotRequired, typing_extensions.Required}


def _bare(hint: object) -> object:
    while True:
        if typing.get_origin(hint) in WRAPPERS:
            hint = typing.get_args(hint)[0]
        elif getattr(hint, "__supertype__", None) is not None:  # NewType
            hint = hint.__supertype__
        else:
            return hint


def _array(sent: object, path: Place) -> list[Any]:
    if not isinstance(sent, list):
        raise Mismatch(path)
    return sent


def _object(sent: object, path: Place) -> dict[str, Any]:
    if not isinstance(sent, dict):
        raise Mismatch(path)
    return sent


def _distinct(items: list[Any], path: Place, what: str) -> None:
    if len({json.dumps(item, sort_keys=True) for item in items}) < len(items):
        raise Unrepresentable(path, f"two {what} are one Python value")


def expected(hint: object, sent: object, path: Place) -> dict[str, Any]:
    """What ``varied.describe`` should say of the value a parameter typed ``hint`` gets
    for the JSON value ``sent``; raises :class:`Mismatch` when ``sent`` is no form of
    ``hint``, :class:`Unrepresentable` when no value of ``hint`` can hold it."""
    hint = _bare(hint)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is Union or origin is types.UnionType:
        return _expected_union(args, sent, path)
    if hint is None or hint is type(None):
        if sent is not None:
            raise Mismatch(path)
        return varied.describe(None)
    if origin is Literal:
        options = [option for option in args if same_json(option, sent)]
        if not options:
            raise Mismatch(path)
        return varied.describe(options[0])
    if origin is tuple:
        items = _array(sent, path)
        if args and args[-1] is not Ellipsis:
            if len(items) != len(args):
                raise Mismatch(path)
            members = list(args)
        else:
            members = [args[0] if args else Any] * len(items)
        described = [
            expected(m, s, (*path, i)) for i, (m, s) in enumerate(zip(members, items, strict=True))
        ]
        return {"type": qualified(tuple), "items": described}
    if origin in (list, abc.Sequence, set, frozenset):
        items = _array(sent, path)
        described = [expected(args[0], item, (*path, i)) for i, item in enumerate(items)]
        if origin in (set, frozenset):  # repeats collapse, as in set([1, 1])
            described = list({json.dumps(d, sort_keys=True): d for d in described}.values())
        kind = {set: set, frozenset: frozenset}.get(origin, list)
        return {"type": qualified(kind), "items": described}
    if origin in (dict, abc.Mapping):
        key_hint, value_hint = args
        pairs = [
            [_expected_key(key_hint, key, path), expected(value_hint, value, (*path, key))]
            for key, value in _object(sent, path).items()
        ]
        _distinct([key for key, _ in pairs], path, "keys")
        return {"type": qualified(dict), "items": pairs}
    if isinstance(hint, type):
        return _expected_class(hint, sent, path)
    raise AssertionError(f"{_show(path)}: the oracle does not know {hint!r}")


def _expected_union(members: tuple[object, ...], sent: object, path: Place) -> dict[str, Any]:
    fits: list[dict[str, Any]] = []
    unrepresentable: list[Unrepresentable] = []
    for member in members:
        try:
            fits.append(expected(member, sent, path))
        except Mismatch:
            pass
        except Unrepresentable as error:
            unrepresentable.append(error)
    assert len(fits) < 2, f"{_show(path)}: {sent!r} fits several members of {members}"
    if fits:
        return fits[0]
    if unrepresentable:
        raise unrepresentable[0]
    raise Mismatch(path)


def _expected_key(hint: object, key: str, path: Place) -> dict[str, Any]:
    hint = _bare(hint)
    if hint is int:
        try:
            return varied.describe(int(key))
        except ValueError:
            raise Mismatch(path) from None
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        members = [member for member in hint if str(member.value) == key]
        if not members:
            raise Mismatch(path)
        return varied.describe(members[0])
    return expected(hint, key, (*path, key))


def _expected_class(cls: type, sent: object, path: Place) -> dict[str, Any]:
    if issubclass(cls, enum.Enum):
        members = [member for member in cls if same_json(member.value, sent)]
        if not members:
            raise Mismatch(path)
        return varied.describe(members[0])
    if cls in LEAVES:
        return varied.describe(LEAVES[cls](sent, path))
    if issubclass(cls, dict):  # a TypedDict: a plain dict, keys in the order sent
        hints = typing.get_type_hints(cls, include_extras=True)
        given = _object(sent, path)
        if set(given) - set(hints) or cls.__required_keys__ - set(given):
            raise Mismatch(path)
        pairs = [[varied.describe(k), expected(hints[k], v, (*path, k))] for k, v in given.items()]
        return {"type": qualified(dict), "items": pairs}
    return {"type": qualified(cls), "fields": _expected_fields(cls, _object(sent, path), path)}


def _pydantic_float(hint: object, sent: object, path: Place) -> object:
    if _bare(hint) is not float or type(sent) is not int:
        return sent
    try:
        return float(sent)
    except OverflowError:
        raise Unrepresentable(path, f"{sent} is beyond a float") from None


def _expected_fields(cls: type, given: dict[str, Any], path: Place) -> dict[str, Any]:
    """Dataclasses, NamedTuples and pydantic models: their fields, given or defaulted."""
    hints = typing.get_type_hints(cls, include_extras=True)
    defaults: dict[str, object] = {}
    if dataclasses.is_dataclass(cls):
        names = [f.name for f in dataclasses.fields(cls)]
        for f in dataclasses.fields(cls):
            if f.default is not dataclasses.MISSING:
                defaults[f.name] = f.default
            elif f.default_factory is not dataclasses.MISSING:
                defaults[f.name] = f.default_factory()
        extra_allowed = False
    elif issubclass(cls, pydantic.BaseModel):
        names = list(cls.model_fields)
        for name, info in cls.model_fields.items():
            if not info.is_required():
                defaults[name] = info.get_default(call_default_factory=True)
        extra_allowed = cls.model_config.get("extra") != "forbid"
    else:
        names = list(cls._fields)
        defaults = dict(cls._field_defaults)
        extra_allowed = False
    if (set(given) - set(names) and not extra_allowed) or set(names) - set(given) - set(defaults):
        raise Mismatch(path)
    if issubclass(cls, pydantic.BaseModel):  # pydantic makes a float field's int a float
        given = {name: _pydantic_float(hints.get(name), sent, path) for name, sent in given.items()}
    return {
        name: expected(hints[name], given[name], (*path, name))
        if name in given
        else varied.describe(defaults[name])
        for name in names
    }


def _spread(arguments: dict[str, Any], parameters: list[inspect.Parameter]) -> dict[str, Any]:
    """``arguments`` with the object sent under the name of ``**NAME`` spread among them
    (the keyword arguments sent whole); a key given twice is refused."""
    name = next((p.name for p in parameters if p.kind is inspect.Parameter.VAR_KEYWORD), None)
    if name is None or not isinstance(arguments.get(name), dict):
        return arguments
    rest = {key: value for key, value in arguments.items() if key != name}
    for key in arguments[name]:
        if key in rest:
            raise Unrepresentable((name, key), f"{key!r} is given twice")
    return {**rest, **arguments[name]}


def expected_arguments(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """What ``tool`` should answer for ``arguments``: each parameter's description."""
    method = getattr(varied.Varied, tool)
    hints = typing.get_type_hints(method, include_extras=True)
    parameters = list(inspect.signature(method).parameters.values())
    own = {p.name for p in parameters}  # self included: no keyword argument can be called so
    arguments = _spread(arguments, parameters)
    named = {p.name for p in parameters[1:] if p.kind is not inspect.Parameter.VAR_KEYWORD}
    extra = {key: value for key, value in arguments.items() if key not in named}
    out: dict[str, Any] = {}
    for p in parameters[1:]:
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            for key in extra:
                if key in own:
                    raise Unrepresentable((key,), f"{tool}() has a parameter {key!r} of its own")
            pairs = [
                [varied.describe(k), expected(hints[p.name], v, (k,))] for k, v in extra.items()
            ]
            out[p.name] = {"type": qualified(dict), "items": pairs}
            extra = {}
        elif p.kind is inspect.Parameter.VAR_POSITIONAL:
            given = arguments.get(p.name, [])
            out[p.name] = expected(tuple[hints[p.name], ...], given, (p.name,))
        elif p.name in arguments:
            out[p.name] = expected(hints[p.name], arguments[p.name], (p.name,))
        else:
            out[p.name] = varied.describe(p.default)
    if extra:
        raise Mismatch(tuple(extra))
    return out


def normalized(node: Any) -> Any:
    """A description with the items of sets in a fixed order."""
    if isinstance(node, list):
        return [normalized(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: normalized(value) for key, value in node.items()}
    if out.get("type") in (qualified(set), qualified(frozenset)):
        out["items"] = sorted(out["items"], key=lambda item: json.dumps(item, sort_keys=True))
    return out


# --- checking answers -------------------------------------------------------------------------


def names(text: str, parameter: str) -> bool:
    """Whether an error text names ``parameter`` (quoted, maybe with a path after it)."""
    return re.search(rf"'{re.escape(parameter)}(?:'|\.|\[)", text) is not None


def assert_refused(result: CallResult, parameter: str) -> None:
    """An argument error, not an exception of the method or the server, naming ``parameter``."""
    assert result.is_error, f"accepted: {result.raw}"
    assert ARGUMENT_ERROR.search(result.text), f"not an argument error: {result.text!r}"
    assert names(result.text, parameter), f"{parameter!r} not named in {result.text!r}"


def answer(result: CallResult) -> tuple[bool, Any]:
    """What a call answered, to compare: its error text, or what the method received."""
    return (True, result.text) if result.is_error else (False, normalized(result.structured))


def assert_received(tool: str, arguments: dict[str, Any], result: CallResult) -> None:
    """``result`` is what valid ``arguments`` must give: the method saw the values the
    oracle expects, or, where none can hold an argument, a refusal naming it."""
    try:
        wanted = expected_arguments(tool, arguments)
    except Mismatch as error:
        raise AssertionError(f"the schema accepts what the hints refuse at {error}") from None
    except Unrepresentable as error:
        assert_refused(result, str(error.path[0]))
        return
    assert not result.is_error, f"valid arguments refused: {result.text}"
    assert normalized(result.structured) == normalized(wanted)


@pytest.fixture(scope="module")
def client() -> Iterator[SyncClient]:
    """One in-memory connection to ``Varied`` for the module."""
    with connect_sync(varied.Varied(), timeout=30) as connected:
        yield connected


# --- valid arguments --------------------------------------------------------------------------


@pytest.mark.parametrize("tool", TOOLS)
@FUZZ
@given(data=st.data())
def test_valid_arguments_reach_the_method_as_their_types(
    client: SyncClient, tool: str, data: st.DataObject
) -> None:
    arguments = draw_valid(data, tool)
    assert_received(tool, arguments, client.call(tool, arguments))


def any_valid_call() -> st.SearchStrategy[tuple[str, dict[str, Any]]]:
    """A tool and valid arguments for it."""
    return st.sampled_from(TOOLS).flatmap(
        lambda tool: valid_arguments(tool).map(lambda arguments: (tool, arguments))
    )


# Schema-valid arguments objmcp once got wrong.
SCALARS = {"n": 1, "x": 0.5, "flag": True, "text": ""}


@settings(FUZZ, max_examples=10)
@given(valid_call=any_valid_call())
# A JSON integer beyond a float's range for a float (it reaches the method as the int).
@example(valid_call=("scalars", {**SCALARS, "x": 10**400}))
@example(valid_call=("optionals", {"maybe": None, "number_or_list": -(10**309)}))
# "1" and "01" both match the int keys' pattern and become the one key 1: an entry is lost.
@example(
    valid_call=(
        "nested",
        {"grid": [], "index": {}, "lookup": {"1": "red", "01": "blue"}, "counts": {}},
    )
)
# 1.0 is the JSON number 1, in the enum [1, 2, "x"]; the Literal's conversion wants an int.
@example(valid_call=("choices", {"color": "red", "level": 1, "mode": "fast", "code": 1.0}))
# A **kwargs key "self" passes the schema, then collides with the bound method's self.
@example(valid_call=("gather", {"label": "", "self": 1.5}))
def test_valid_arguments_at_the_edges(
    client: SyncClient, valid_call: tuple[str, dict[str, Any]]
) -> None:
    tool, arguments = valid_call
    assert validator(tool).is_valid(arguments)
    assert_received(tool, arguments, client.call(tool, arguments))


# --- invalid arguments ------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _places(value: Any, path: Place = ()) -> list[Place]:
    """The places inside a JSON value (not the value itself)."""
    children = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    found: list[Place] = []
    for key, child in children:
        found += [(*path, key), *_places(child, (*path, key))]
    return found


def _at(value: Any, path: Place) -> Any:
    for part in path:
        value = value[part]
    return value


@st.composite
def broken(draw: st.DrawFn, tool: str, arguments: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """``arguments`` broken in one place, and the parameter (or unknown key) that names it."""
    schema = SCHEMAS[tool]
    properties: dict[str, Any] = schema["properties"]
    inside = {k: _places(v) for k, v in arguments.items() if isinstance(v, (dict, list))}
    objects = {
        k: [place for place in [(), *places] if isinstance(_at(arguments[k], place), dict)]
        for k, places in inside.items()
    }
    candidates = {
        "wrong value": list(properties),
        "missing": schema.get("required", []),
        "off the enum": [k for k, s in properties.items() if "enum" in s],
        "garbage inside": [k for k, places in inside.items() if places],
        "unknown key inside": [k for k, owners in objects.items() if owners],
    }
    ways = [way for way, names in candidates.items() if names]
    if schema["additionalProperties"] not in (True, {}):
        ways.append("unknown key")
    way = draw(st.sampled_from(ways), label="way")
    event(way)
    if way == "unknown key":
        name = draw(st.text(min_size=1, max_size=8).filter(lambda key: key not in properties))
    else:
        name = draw(st.sampled_from(candidates[way]), label="parameter")
    out = copy.deepcopy(arguments)
    if way == "missing":
        del out[name]
    elif way == "off the enum":
        options = properties[name]["enum"]
        out[name] = draw((st.text(max_size=8) | st.integers()).filter(lambda v: v not in options))
    elif way == "garbage inside":
        place = draw(st.sampled_from(inside[name]))
        _at(out[name], place[:-1])[place[-1]] = draw(JSON_VALUES)
    elif way == "unknown key inside":
        owner = _at(out[name], draw(st.sampled_from(objects[name])))
        owner[draw(st.text(max_size=8).filter(lambda key: key not in owner))] = draw(JSON_VALUES)
    else:  # a wrong value, or an unknown key
        out[name] = draw(JSON_VALUES)
    assume(not validator(tool).is_valid(out))
    return out, name


@pytest.mark.parametrize("tool", TOOLS)
@FUZZ
@given(data=st.data())
def test_invalid_arguments_are_refused_naming_the_parameter(
    client: SyncClient, tool: str, data: st.DataObject
) -> None:
    arguments = draw_valid(data, tool)
    wrong, parameter = data.draw(broken(tool, arguments), label="broken")
    before = answer(client.call(tool, arguments))
    assert_refused(client.call(tool, wrong), parameter)
    assert answer(client.call(tool, arguments)) == before  # still serving, as before


# --- the same through a server process --------------------------------------------------------


@pytest.fixture(scope="module")
def pipe() -> Iterator[Callable[[str, dict[str, Any]], CallResult]]:
    """``objmcp run tests/servers/varied.py:Varied`` on a stdio pipe: a call function."""
    server = RawServer("-m", "objmcp", "run", f"{VARIED}:Varied", stderr=subprocess.DEVNULL)
    ids = itertools.count(1)
    try:
        server.initialize("2025-11-25")
        listed = server.request({"jsonrpc": "2.0", "id": "list", "method": "tools/list"})
        assert {t["name"]: t["inputSchema"] for t in listed["result"]["tools"]} == SCHEMAS

        def call_tool(tool: str, arguments: dict[str, Any]) -> CallResult:
            params = {"name": tool, "arguments": arguments}
            answer = server.request(
                {"jsonrpc": "2.0", "id": next(ids), "method": "tools/call", "params": params}
            )
            assert "result" in answer, answer
            return CallResult(answer["result"])

        yield call_tool
    finally:
        server.close()


@settings(FUZZ, max_examples=8)
@given(data=st.data())
def test_a_server_process_answers_as_the_memory_one(
    client: SyncClient, pipe: Callable[[str, dict[str, Any]], CallResult], data: st.DataObject
) -> None:
    tool = data.draw(st.sampled_from(TOOLS), label="tool")
    arguments = draw_valid(data, tool)
    wrong, parameter = data.draw(broken(tool, arguments), label="broken")
    there = [pipe(tool, sent) for sent in (arguments, wrong)]
    here = [client.call(tool, sent) for sent in (arguments, wrong)]
    assert [answer(result) for result in there] == [answer(result) for result in here]
    assert_refused(there[1], parameter)
