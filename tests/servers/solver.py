"""A library's own classes as parameters (issue 37): values built from JSON by their
constructors, a class chosen by name, and classes JSON cannot carry at all.

``Solver`` is a stateful object: a variable named twice is one variable. The module's
functions build afresh each call.
"""

from __future__ import annotations


class Variable:
    """A variable of the solver, known by its name (no two are equal: each is itself)."""

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, name: str = "", /) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return self is other


class Strength:
    """How strongly an edit holds."""

    def __init__(self, weight: float = 1.0, required: bool = False) -> None:
        if weight < 0:
            raise ValueError(f"a weight is not negative: {weight}")
        self.weight = weight
        self.required = required


class Version:
    """A version, from its text."""

    def __init__(self, text: str) -> None:
        self.parts = tuple(int(part) for part in text.split("."))


class Pool:
    """A pool of memory: nothing a model can say makes one."""

    def __init__(self) -> None:
        self.used = 0


class Series:
    """Values in order; made by :func:`series`, never by its constructor."""

    def __init__(self) -> None:
        raise TypeError("Do not call Series's constructor directly, use series()")

    values: list[object]


def series(values: list[object]) -> Series:
    """The series of ``values``."""
    made = Series.__new__(Series)
    made.values = list(values)
    return made


class Encoder:
    """Turns bytes into text."""

    @staticmethod
    def encode(data: bytes) -> str:
        """``data`` as text."""
        raise NotImplementedError


class HexEncoder(Encoder):
    """Hexadecimal digits."""

    @staticmethod
    def encode(data: bytes) -> str:
        """``data`` in hexadecimal digits."""
        return data.hex()


class Base64Encoder(Encoder):
    """Base64 text."""

    @staticmethod
    def encode(data: bytes) -> str:
        """``data`` in base64."""
        import base64

        return base64.b64encode(data).decode()


class Solver:
    """Edit variables and suggest their values."""

    def __init__(self) -> None:
        self.edits: list[tuple[Variable, Strength]] = []
        self.values: dict[int, float] = {}

    def add_edit(self, variable: Variable, strength: Strength | None = None) -> int:
        """Make ``variable`` editable; the number of edit variables."""
        self.edits.append((variable, strength or Strength()))
        return len(self.edits)

    def suggest(self, variable: Variable, value: float) -> bool:
        """Suggest a value for an edit variable; whether it was one."""
        if not any(known is variable for known, _ in self.edits):
            return False
        self.values[id(variable)] = value
        return True

    def has_edit(self, variable: Variable) -> bool:
        """Whether ``variable`` is an edit variable."""
        return any(known is variable for known, _ in self.edits)

    def weight(self, variable: Variable) -> float:
        """The weight of an edit variable's strength."""
        return next(strength.weight for known, strength in self.edits if known is variable)

    def same(self, first: Variable, second: Variable) -> bool:
        """Whether two names give one variable."""
        return first is second

    def encode(self, text: str, encoder: type[Encoder] = HexEncoder) -> str:
        """``text``'s UTF-8 bytes in the encoder's form."""
        return f"{encoder.__name__}: {encoder.encode(text.encode())}"

    def is_in(self, value, value_set):  # type: ignore[no-untyped-def]
        """Whether a value is in a set of values.

        Parameters
        ----------
        value : str
            The value.
        value_set : Series
            The values to look in.
        """
        return value in value_set.values

    def newer(self, version, than=None):  # type: ignore[no-untyped-def]
        """Whether a version is newer than another.

        Parameters
        ----------
        version : :class:`Version`
            The version.
        than : Version or None, optional
            The other one (0.0 when none).
        """
        other = than.parts if than is not None else (0, 0)
        return version.parts > other

    def total(self, values, memory_pool=None, scratch: Pool | None = None):  # type: ignore[no-untyped-def]
        """The sum of some numbers.

        Parameters
        ----------
        values : list of float
            The numbers.
        memory_pool : Pool, optional
            Where to allocate (the default pool when none).
        """
        return sum(values)


def same(first: Variable, second: Variable) -> bool:
    """Whether two names give one variable (a module's function builds afresh)."""
    return first is second
