"""A fixture whose tools cover the parameter types objmcp supports, for the argument fuzz tests.

Every method answers with what it received: :func:`describe` of each argument, the
Python type (module-qualified) and value as JSON, all the way down, so a test can see
which Python values its JSON arguments became. Serve it with
``objmcp run tests/servers/varied.py:Varied``.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import pathlib
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, NamedTuple, NewType, Optional

import pydantic
from typing_extensions import NotRequired, TypedDict


class Color(enum.Enum):
    """A colour, by name."""

    RED = "red"
    GREEN = "green"
    BLUE = "blue"


class Level(enum.Enum):
    """A level, by number."""

    LOW = 1
    HIGH = 2


@dataclass
class Point:
    """A point in the plane."""

    x: float
    y: float = 0.0
    label: str = "origin"


@dataclass
class Segment:
    """Two points, a colour and some tags."""

    start: Point
    end: Point
    color: Color = Color.RED
    tags: list[str] = field(default_factory=list)


class Movie(TypedDict):
    """A movie, some of it optional."""

    title: str
    year: NotRequired[int]
    rating: NotRequired[float | None]


class Span(NamedTuple):
    """A span of integers."""

    start: int
    end: int = 0


@dataclass
class Tree:
    """A tree of integers: a recursive type."""

    value: int
    children: list[Tree] = field(default_factory=list)


class Person(pydantic.BaseModel):
    """A person, as pydantic sees one (extra keys ignored)."""

    name: str
    age: int = pydantic.Field(default=0, ge=0, le=150)
    score: float = 0.0
    email: str | None = None
    tags: list[str] = []


class Badge(pydantic.BaseModel):
    """A pydantic model that forbids extra keys, holding another one."""

    model_config = pydantic.ConfigDict(extra="forbid")

    owner: Person
    level: Level = Level.LOW


UserId = NewType("UserId", int)


def describe(value: object) -> dict[str, Any]:
    """The Python type of ``value`` (``module.qualname``, or the bare name of a type of this
    module, however it was loaded) and its value, as JSON data.

    Scalars give ``value``; bytes their hex; datetimes, UUIDs, decimals and paths their
    text; enum members their value; dataclasses, NamedTuples and pydantic models their
    ``fields``; mappings their ``items`` as ``[key, value]`` pairs and other collections
    their ``items``, each described in turn.
    """
    kind = type(value)
    module = "" if kind.__module__ == __name__ else f"{kind.__module__}."
    described: dict[str, Any] = {"type": module + kind.__qualname__}
    if isinstance(value, enum.Enum):
        described["value"] = value.value
    elif value is None or isinstance(value, (bool, int, float, str)):
        described["value"] = value
    elif isinstance(value, (bytes, bytearray)):
        described["value"] = value.hex()
    elif isinstance(value, (datetime.date, datetime.time)):
        described["value"] = value.isoformat()
    elif isinstance(value, (uuid.UUID, decimal.Decimal, pathlib.PurePath)):
        described["value"] = str(value)
    elif dataclasses.is_dataclass(value):
        names = [f.name for f in dataclasses.fields(value)]
        described["fields"] = {name: describe(getattr(value, name)) for name in names}
    elif isinstance(value, tuple) and hasattr(value, "_fields"):
        described["fields"] = {name: describe(getattr(value, name)) for name in value._fields}
    elif isinstance(value, pydantic.BaseModel):
        names = list(type(value).model_fields)
        described["fields"] = {name: describe(getattr(value, name)) for name in names}
    elif isinstance(value, Mapping):
        described["items"] = [[describe(k), describe(v)] for k, v in value.items()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        described["items"] = [describe(item) for item in value]
    else:
        described["value"] = repr(value)
    return described


def received(arguments: dict[str, Any]) -> dict[str, Any]:
    """:func:`describe` of each argument a method received (its ``locals()``), by name."""
    return {name: describe(value) for name, value in arguments.items() if name != "self"}


class Varied:
    """Tools of every parameter type objmcp supports; each answers what it received."""

    def scalars(self, n: int, x: float, flag: bool, text: str) -> dict[str, Any]:
        """JSON's scalars."""
        return received(locals())

    def defaults(
        self, n: int = 3, x: float = 0.5, text: str = "hi", flag: bool = False, nothing: None = None
    ) -> dict[str, Any]:
        """Nothing required."""
        return received(locals())

    def optionals(
        self,
        maybe: int | None,
        label: Optional[str] = None,  # noqa: UP045 - the typing spelling is a case of its own
        either: int | str = 0,
        number_or_list: float | list[int] = 1.5,
    ) -> dict[str, Any]:
        """Unions, null among them."""
        return received(locals())

    def containers(
        self,
        ints: list[int],
        weights: dict[str, float],
        pair: tuple[int, str],
        tags: set[str],
        frozen: frozenset[int] = frozenset(),
        rest: tuple[float, ...] = (),
    ) -> dict[str, Any]:
        """Lists, a dict, tuples and sets."""
        return received(locals())

    def choices(
        self,
        color: Color,
        level: Level,
        mode: Literal["fast", "slow"],
        code: Literal[1, 2, "x"] = 1,
    ) -> dict[str, Any]:
        """Enums, by string and by number, and literals."""
        return received(locals())

    def moments(
        self,
        when: datetime.datetime,
        day: datetime.date,
        at: datetime.time,
        ident: uuid.UUID,
        where: pathlib.Path,
        blob: bytes,
    ) -> dict[str, Any]:
        """Strings with a format: times, a UUID, a path; and bytes (text, or {"base64": ...})."""
        return received(locals())

    def price(self, amount: decimal.Decimal) -> dict[str, Any]:
        """A decimal, given as a number or a string."""
        return received(locals())

    def shapes(
        self,
        point: Point,
        segment: Segment | None = None,
        movie: Movie | None = None,
        span: Span | None = None,
    ) -> dict[str, Any]:
        """A dataclass holding dataclasses, a TypedDict, a NamedTuple."""
        return received(locals())

    def tree(self, root: Tree) -> dict[str, Any]:
        """A recursive dataclass."""
        return received(locals())

    def nested(
        self,
        grid: list[list[int]],
        index: dict[str, list[Point]],
        lookup: dict[int, Color],
        counts: Mapping[Color, int],
        pairs: Sequence[tuple[str, float]] = (),
    ) -> dict[str, Any]:
        """Containers of containers; mappings keyed by integers and by enum values."""
        return received(locals())

    def positions(
        self, first: int, /, second: str = "b", *, third: bool, fourth: float = 1.0
    ) -> dict[str, Any]:
        """Positional-only and keyword-only parameters."""
        return received(locals())

    async def later(self, points: list[Point], factor: float = 1.0) -> dict[str, Any]:
        """An async method."""
        return received(locals())

    def people(self, person: Person, badge: Badge | None = None) -> dict[str, Any]:
        """Pydantic models."""
        return received(locals())

    def gather(self, label: str, *numbers: int, **options: float) -> dict[str, Any]:
        """``*args`` and ``**kwargs``."""
        return received(locals())

    def annotated(
        self,
        count: Annotated[int, "How many."],
        names: Annotated[list[str], "Who."],
        user: UserId,
    ) -> dict[str, Any]:
        """Annotated hints and a NewType."""
        return received(locals())
