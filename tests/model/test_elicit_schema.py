"""Elicitation forms: Python types and JSON Schema dicts -> ``requestedSchema``, and answers back.

Every form made is checked against the MCP SDK's own models of the
2025-11-25 schema (``ElicitRequestFormParams`` and, property by property,
``PrimitiveSchemaDefinition``, which must keep every keyword we send). Values of
the supported types, sent as the client would send them, come back equal.
"""

import dataclasses
import enum
import json
import typing
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcp_types import _v2025_11_25 as spec
from pydantic import BaseModel, TypeAdapter, ValidationError
from typing_extensions import NotRequired, TypedDict

from objmcp import ElicitError
from objmcp.model.asking.elicit import Question, make_question, read_answer
from objmcp.model.values.jsonable import to_jsonable

# --- the types --------------------------------------------------------------------------------


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Mood(str, enum.Enum):
    HAPPY = "happy"
    GLUM = "glum"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


Size = Literal["S", "M", "L"]


@dataclass
class Profile:
    """Who the user is.

    Attributes:
        name: The user's name.
        age: Age in years.
    """

    name: str
    age: int
    height: float = 1.75
    subscribed: bool = False
    color: Color = Color.GREEN
    mood: Mood | None = None
    size: Size = "M"
    nickname: str | None = None
    note: Annotated[str, "Anything else."] = ""


class Settings(TypedDict):
    """Settings.

    Args:
        verbose: Say more.
    """

    verbose: bool
    retries: NotRequired[int]
    theme: Color | None


@dataclass
class Inner:
    x: int


@dataclass
class Nested:
    inner: Inner


PROFILE_ALL: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "The user's name."},
        "age": {"type": "integer", "description": "Age in years."},
        "height": {"type": "number", "default": 1.75},
        "subscribed": {"type": "boolean", "default": False},
        "color": {"type": "string", "enum": ["red", "green"], "default": "green"},
        "mood": {"type": "string", "enum": ["happy", "glum"]},
        "size": {"type": "string", "enum": ["S", "M", "L"], "default": "M"},
        "nickname": {"type": "string"},
        "note": {"type": "string", "description": "Anything else.", "default": ""},
    },
    "required": ["name", "age"],
}


def wrapped(prop: dict[str, Any], required: bool = True) -> dict[str, Any]:
    form: dict[str, Any] = {"type": "object", "properties": {"value": prop}}
    return {**form, "required": ["value"]} if required else form


BARE: list[tuple[object, dict[str, Any]]] = [
    (bool, wrapped({"type": "boolean"})),
    (int, wrapped({"type": "integer"})),
    (float, wrapped({"type": "number"})),
    (str, wrapped({"type": "string"})),
    (Color, wrapped({"type": "string", "enum": ["red", "green"]})),
    (Mood, wrapped({"type": "string", "enum": ["happy", "glum"]})),
    (Size, wrapped({"type": "string", "enum": ["S", "M", "L"]})),
    (Annotated[int, "Your age."], wrapped({"type": "integer", "description": "Your age."})),
    (int | None, wrapped({"type": "integer"}, required=False)),
]

RAW: dict[str, Any] = {
    "type": "object",
    "properties": {
        "email": {"type": "string", "format": "email", "title": "E-mail", "minLength": 3},
        "count": {"type": "integer", "minimum": 0, "maximum": 10, "default": 1},
        "ratio": {"type": "number", "description": "A ratio.", "default": 0.5},
        "ok": {"type": "boolean", "default": True},
        "pick": {"type": "string", "enum": ["a", "b"], "default": "b"},
    },
    "required": ["email"],
}

PRIMITIVE = TypeAdapter[Any](spec.PrimitiveSchemaDefinition)
MEMBERS: tuple[type[BaseModel], ...] = typing.get_args(spec.PrimitiveSchemaDefinition)


def assert_spec_valid(schema: dict[str, Any]) -> None:
    """The SDK parses the request, and some primitive model keeps each property whole."""
    params = spec.ElicitRequestFormParams.model_validate(
        {"message": "Tell me", "requestedSchema": schema}
    )
    assert params.requested_schema.model_dump(by_alias=True, exclude_none=True) == schema
    for prop in schema["properties"].values():
        PRIMITIVE.validate_python(prop)
        kept = []
        for member in MEMBERS:
            try:
                kept.append(
                    member.model_validate(prop).model_dump(by_alias=True, exclude_none=True)
                )
            except ValidationError:
                continue
        assert prop in kept, f"no model of the SDK keeps {prop} whole"


# --- forms ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("hint", "expected"), BARE, ids=repr)
def test_bare_types_are_wrapped(hint: object, expected: dict[str, Any]) -> None:
    question = make_question("Tell me", hint)
    assert question == Question("Tell me", expected, hint, True)
    assert_spec_valid(question.schema)


def test_dataclass_form_with_all_defaults() -> None:
    question = make_question("Who are you?", Profile)
    assert question.schema == PROFILE_ALL
    assert not question.wrapped and question.hint is Profile
    assert_spec_valid(question.schema)


def test_dataclass_form_with_boolean_defaults_only() -> None:
    schema = make_question("Who are you?", Profile, defaults="boolean").schema
    expected = json.loads(json.dumps(PROFILE_ALL))
    for name, prop in expected["properties"].items():
        if name != "subscribed":
            prop.pop("default", None)
    assert schema == expected
    assert_spec_valid(schema)


def test_typeddict_form() -> None:
    schema = make_question("Settings?", Settings).schema
    assert schema == {
        "type": "object",
        "properties": {
            "verbose": {"type": "boolean", "description": "Say more."},
            "retries": {"type": "integer"},
            "theme": {"type": "string", "enum": ["red", "green"]},
        },
        "required": ["verbose"],
    }
    assert_spec_valid(schema)


@pytest.mark.parametrize("defaults", ["all", "boolean"])
def test_raw_schema_is_sent_as_given(defaults: Literal["boolean", "all"]) -> None:
    raw = RAW
    if defaults == "boolean":
        raw = json.loads(json.dumps(RAW))
        for name in ("count", "ratio", "pick"):
            del raw["properties"][name]["default"]
    question = make_question("Details?", raw, defaults=defaults)
    assert question == Question("Details?", raw, None, False)
    assert question.schema is not raw  # a copy: later changes to the dict do not leak in
    assert_spec_valid(question.schema)


@pytest.mark.parametrize(
    ("hint", "named"),
    [
        (list[int], "list[int]"),
        (dict[str, int], "dict[str, int]"),
        (bytes, "bytes"),
        (Level, "Level"),
        (Literal[1, 2], "Literal[1, 2]"),
        (Literal[Mood.HAPPY], "Literal[<Mood.HAPPY"),
        (int | str, "int | str"),
        (Nested, "field 'inner' of Nested"),
        (None, "None"),
        (object, "object"),
    ],
    ids=repr,
)
def test_unsupported_types_are_refused(hint: object, named: str) -> None:
    with pytest.raises(TypeError) as caught:
        make_question("Tell me", hint)
    message = str(caught.value)
    assert named in message
    assert "bool, int, float, str, an Enum with str values or a Literal of str" in message


def with_property(prop: object) -> dict[str, Any]:
    return {"type": "object", "properties": {"p": prop}}


@pytest.mark.parametrize(
    ("schema", "named"),
    [
        (
            {"type": "object", "properties": {}, "additionalProperties": False},
            "'additionalProperties'",
        ),
        ({"type": "array", "properties": {}}, "'type' at the top level"),
        ({"type": "object"}, "'properties'"),
        ({"type": "object", "properties": {}, "required": ["x"]}, "'required' names 'x'"),
        (with_property({"type": "array", "items": {"type": "string"}}), "'p': keyword 'items'"),
        (with_property({"type": "array"}), "'p': a multi-select field needs 'items'"),
        (
            with_property({"type": "string", "oneOf": [{"const": "a"}]}),
            "'p': keyword 'oneOf'",
        ),
        (with_property({"type": "object", "properties": {}}), "'p': keyword 'type'"),
        (with_property({"type": ["string", "null"]}), "'p': keyword 'type'"),
        (with_property({"type": "string", "pattern": "^a"}), "'p': keyword 'pattern'"),
        (with_property({"type": "integer", "minLength": 1}), "'p': keyword 'minLength'"),
        (with_property({"type": "string", "format": "uuid"}), "'p': keyword 'format'"),
        (with_property({"type": "string", "enum": []}), "'p': keyword 'enum'"),
        (with_property({"type": "string", "enum": ["a", 1]}), "'p': keyword 'enum'"),
        (with_property({"type": "integer", "enum": [1, 2]}), "'p': keyword 'enum'"),
        (
            with_property({"type": "string", "enumNames": ["A", "B"], "enum": ["a"]}),
            "'enumNames' must name each",
        ),
        (with_property({"type": "number", "minimum": "0"}), "'p': keyword 'minimum'"),
        (with_property({"type": "string", "maxLength": -1}), "'p': keyword 'maxLength'"),
        (with_property({"type": "string", "title": 3}), "'p': keyword 'title'"),
        (with_property({"type": "integer", "default": "3"}), "'p': keyword 'default'"),
        (
            with_property({"type": "string", "enum": ["a"], "default": "b"}),
            "'p': keyword 'default'",
        ),
        (with_property({"anyOf": [{"type": "string"}]}), "'p': keyword 'type'"),
        (with_property(True), "property 'p'"),
    ],
    ids=repr,
)
def test_schemas_outside_the_flat_form_are_refused(schema: dict[str, Any], named: str) -> None:
    with pytest.raises(TypeError, match="elicitation schema") as caught:
        make_question("Tell me", schema)
    assert named in str(caught.value)


SELECTIONS = {  # the enum fields of 2025-11-25, one of each kind
    "untitled_single": {"type": "string", "enum": ["a", "b"]},
    "titled_single": {"type": "string", "oneOf": [{"const": "a", "title": "A"}]},
    "legacy": {"type": "string", "enum": ["x", "y"], "enumNames": ["X", "Y"]},
    "untitled_multi": {
        "type": "array",
        "minItems": 1,
        "maxItems": 2,
        "items": {"type": "string", "enum": ["p", "q"]},
        "default": ["p"],
    },
    "titled_multi": {
        "type": "array",
        "items": {"anyOf": [{"const": "p", "title": "P"}, {"const": "q", "title": "Q"}]},
    },
}


def test_every_enum_field_of_2025_11_25_is_asked_and_its_answer_checked() -> None:
    form = {"type": "object", "properties": SELECTIONS}
    question = make_question("Choose", form)
    assert question.schema == form
    good = {"untitled_multi": ["p", "q"], "titled_multi": ["q"], "titled_single": "a"}
    assert read_answer(question, "accept", good).content == good
    with pytest.raises(ElicitError, match="untitled_multi"):
        read_answer(question, "accept", {"untitled_multi": ["p", "q", "p"]})  # more than 2
    with pytest.raises(ElicitError, match="titled_multi"):
        read_answer(question, "accept", {"titled_multi": ["r"]})
    for name in ("titled_single", "untitled_multi", "titled_multi"):
        alone = {"type": "object", "properties": {name: SELECTIONS[name]}}
        with pytest.raises(TypeError, match="came in protocol revision 2025-11-25"):
            make_question("Choose", alone, defaults="boolean")


def test_defaults_beyond_booleans_are_refused_for_2025_06_18() -> None:
    with pytest.raises(TypeError, match=r"'count': keyword 'default'.*only on boolean"):
        make_question("Details?", RAW, defaults="boolean")
    boolean = with_property({"type": "boolean", "default": True})
    assert make_question("Ok?", boolean, defaults="boolean").schema == boolean


# --- answers ----------------------------------------------------------------------------------


def answer(question: Question, content: object) -> Any:
    """Send ``content`` through JSON, as a client would, and read the accepted answer."""
    return read_answer(question, "accept", json.loads(json.dumps(content))).value


finite = st.floats(allow_nan=False, allow_infinity=False)
VALUES: dict[object, st.SearchStrategy[Any]] = {
    bool: st.booleans(),
    int: st.integers(),
    float: finite,
    str: st.text(),
    Color: st.sampled_from(Color),
    Mood: st.sampled_from(Mood),
    Size: st.sampled_from(["S", "M", "L"]),
    Annotated[int, "Your age."]: st.integers(),
    int | None: st.none() | st.integers(),
}
profiles = st.builds(
    Profile,
    name=st.text(),
    age=st.integers(),
    height=finite,
    subscribed=st.booleans(),
    color=st.sampled_from(Color),
    mood=st.none() | st.sampled_from(Mood),
    size=st.sampled_from(["S", "M", "L"]),
    nickname=st.none() | st.text(),
    note=st.text(),
)


@given(st.data())
@pytest.mark.parametrize("hint", list(VALUES), ids=repr)
def test_bare_values_round_trip(hint: object, data: st.DataObject) -> None:
    value = data.draw(VALUES[hint])
    question = make_question("Tell me", hint)
    jsonable = to_jsonable(value)
    got = answer(question, {} if jsonable is None else {"value": jsonable})
    assert got == value
    assert type(got) is type(value)


def without_nones(content: object) -> dict[str, Any]:
    assert isinstance(content, dict)
    return {k: v for k, v in content.items() if v is not None}  # the form cannot send null


@given(profiles)
def test_dataclass_values_round_trip(profile: Profile) -> None:
    question = make_question("Who are you?", Profile)
    got = answer(question, without_nones(to_jsonable(profile)))
    assert got == profile
    for f in dataclasses.fields(Profile):
        assert type(getattr(got, f.name)) is type(getattr(profile, f.name))


@given(st.booleans(), st.none() | st.integers(), st.none() | st.sampled_from(Color))
def test_typeddict_values_round_trip(
    verbose: bool, retries: int | None, theme: Color | None
) -> None:
    settings: dict[str, Any] = {"verbose": verbose, "theme": theme}
    if retries is not None:
        settings["retries"] = retries
    question = make_question("Settings?", Settings)
    assert answer(question, without_nones(to_jsonable(settings))) == settings


def test_left_out_fields_take_their_defaults() -> None:
    question = make_question("Who are you?", Profile)
    assert answer(question, {"name": "Ann", "age": 40}) == Profile("Ann", 40)


def test_raw_schema_answer_is_the_content() -> None:
    question = make_question("Details?", RAW)
    content = {"email": "a@b.c", "count": 3, "ok": False}
    result = read_answer(question, "accept", content)
    assert result.accepted and result.value == content and result.content == content


@pytest.mark.parametrize("action", ["decline", "cancel"])
@pytest.mark.parametrize("hint", [bool, Profile, RAW], ids=repr)
def test_decline_and_cancel_give_no_value(action: str, hint: object) -> None:
    question = make_question("Tell me", hint)
    result = read_answer(question, action, None)
    assert (result.action, result.content, result.value) == (action, {}, None)
    assert not result.accepted
    assert read_answer(question, action, {"value": True}).value is None


@pytest.mark.parametrize("action", ["yes", None, "Accept", 1, ["accept"]])
def test_unknown_actions_are_refused(action: object) -> None:
    with pytest.raises(ElicitError, match="action"):
        read_answer(make_question("Ok?", bool), action, {"value": True})


@pytest.mark.parametrize(
    ("hint", "content", "named"),
    [
        (bool, {}, "missing required field 'value'"),
        (bool, {"value": "yes"}, "'value': expected boolean"),
        (bool, {"value": None}, "'value': expected boolean"),
        (int, {"value": True}, "'value': expected integer"),
        (int, {"value": 1.5}, "'value': expected integer"),
        (float, {"value": "1.5"}, "'value': expected number"),
        (str, {"value": 3}, "'value': expected string"),
        (Color, {"value": "blue"}, "'value': expected one of"),
        (Size, {"value": "XL"}, "'value': expected one of"),
        (bool, {"value": True, "extra": 1}, "unknown field 'extra'"),
        (int | None, {"value": None}, "'value': expected integer"),
        (Profile, {"name": "Ann"}, "missing required field 'age'"),
        (Profile, {"name": "Ann", "age": "40"}, "'age': expected integer"),
        (Profile, {"name": "Ann", "age": 40, "color": "blue"}, "'color': expected one of"),
        (Profile, {"name": "Ann", "age": 40, "nickname": None}, "'nickname': expected string"),
        (Profile, {"name": "Ann", "age": 40, "email": "a@b.c"}, "unknown field 'email'"),
        (Settings, {"theme": "red"}, "missing required field 'verbose'"),
        (RAW, {"email": "a@b.c", "count": 11}, "'count'"),
        (RAW, {"email": "ab"}, "'email'"),
        (RAW, {"email": "a@b.c", "other": 1}, "unknown field 'other'"),
        (RAW, None, "missing required field 'email'"),
        (bool, [True], "not an object"),
        (bool, "yes", "not an object"),
    ],
    ids=repr,
)
def test_wrong_answers_are_refused(hint: object, content: object, named: str) -> None:
    with pytest.raises(ElicitError) as caught:
        read_answer(make_question("Tell me", hint), "accept", content)
    assert named in str(caught.value)


def test_accept_without_content_fits_a_form_with_nothing_required() -> None:
    assert read_answer(make_question("Age?", int | None), "accept", None).value is None
    assert read_answer(make_question("Age?", int | None), "accept", {}).value is None


def test_a_class_refusing_the_answer_is_an_elicit_error() -> None:
    @dataclass
    class Positive:
        n: int

        def __post_init__(self) -> None:
            if self.n <= 0:
                raise ValueError("n must be positive")

    question = make_question("A number?", Positive)
    assert answer(question, {"n": 2}) == Positive(2)
    with pytest.raises(ElicitError, match="n must be positive"):
        answer(question, {"n": -2})


def test_elicit_error_is_a_value_error() -> None:
    assert issubclass(ElicitError, ValueError)
