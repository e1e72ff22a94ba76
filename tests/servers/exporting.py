"""Results that are a library's objects with no JSON form of their own (issue 37): a
column and a table that export themselves (``to_pylist``, ``to_pydict``) and print as a
pretty table, a record read by ``keys()`` and ``[key]``, a bag that is a sized iterable,
a release whose text says what it is, a proxy that makes up any method; and calls that
return None, printing nothing."""

from __future__ import annotations

from collections.abc import Iterator


class Column:
    """A column of values that prints as a box and exports itself as a list."""

    def __init__(self, values: list[object]) -> None:
        self._values = list(values)

    def to_pylist(self) -> list[object]:
        """The values, as a list."""
        return list(self._values)

    def __str__(self) -> str:
        return "[\n" + "".join(f"  {value!r},\n" for value in self._values) + "]"


class Table:
    """Columns by name that export themselves as records (a list) and as columns."""

    def __init__(self, columns: dict[str, list[object]]) -> None:
        self._columns = columns

    def to_pydict(self) -> dict[str, list[object]]:
        """The columns by name."""
        return {name: list(values) for name, values in self._columns.items()}

    def to_pylist(self) -> list[dict[str, object]]:
        """One record a row."""
        names = list(self._columns)
        rows = zip(*self._columns.values(), strict=True)
        return [dict(zip(names, row, strict=True)) for row in rows]

    def __str__(self) -> str:
        return f"Table with {len(self._columns)} columns"


class Record:
    """Fields read by ``keys()`` and ``[key]``, as ``dict()`` reads them; not a
    registered mapping, and its text is the default one."""

    def __init__(self, fields: dict[str, object]) -> None:
        self._fields = fields

    def keys(self) -> list[str]:
        """The fields' names."""
        return list(self._fields)

    def __getitem__(self, name: str) -> object:
        return self._fields[name]


class Bag:
    """Items held privately, read by ``len()`` and iteration; its text is the default."""

    def __init__(self, items: list[object]) -> None:
        self._items = list(items)

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[object]:
        return iter(self._items)


class Release:
    """A version that iterates its parts but says what it is as text."""

    def __init__(self, text: str) -> None:
        self._parts = [int(part) for part in text.split(".")]

    def __len__(self) -> int:
        return len(self._parts)

    def __iter__(self) -> Iterator[int]:
        return iter(self._parts)

    def __str__(self) -> str:
        return ".".join(map(str, self._parts))


class Proxy:
    """An object that answers any attribute with a callable (a remote proxy): none of them
    may be called to send it."""

    def __init__(self) -> None:
        self.called: list[str] = []

    def __getattr__(self, name: str) -> object:
        def remote(*args: object) -> list[str]:
            self.called.append(name)
            return ["called", name]

        return remote

    def __str__(self) -> str:
        return "proxy"


class Exporting:
    """Hands out such objects."""

    def column(self, values: list[int]) -> object:
        """A column of ``values``."""
        return Column(values)

    def table(self, names: list[str], ages: list[int]) -> object:
        """A table of names and ages."""
        return Table({"name": names, "age": ages})

    def record(self, name: str, age: int) -> object:
        """A record of a name and an age."""
        return Record({"name": name, "age": age})

    def bag(self, items: list[str]) -> object:
        """A bag of ``items``."""
        return Bag(items)

    def release(self, text: str) -> object:
        """The release ``text`` names."""
        return Release(text)

    def proxy(self) -> object:
        """A proxy, and what it was asked."""
        return Proxy()

    def which(self, name: str) -> object:
        """Where ``name`` is found: nowhere (None), and prints nothing."""
        return None

    def find(self, name: str) -> str | None:
        """The same, its return type declared."""
        return None
