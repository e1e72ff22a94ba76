"""The source of ``altlib``, a package written for the tests of alternate constructors,
compiled classes' stubs and classes nested in classes (issue 37): its files by path,
written under a folder by :func:`write_altlib`. ``altlib._native.core`` stands for a
compiled module (its class names ``altlib.api`` as its module, as a Rust class does, and
only the stub beside it types its constructor); ``altlib.api`` takes it by assignment."""

from __future__ import annotations

from pathlib import Path

FILES = {
    "altlib/__init__.py": "",
    "altlib/_native/__init__.py": "",
    "altlib/_native/core.py": '''
class Numbers:
    """Public numbers: an exponent and a modulus."""

    __module__ = "altlib.api"

    def __init__(self, e, n):
        self.e, self.n = e, n

    def __repr__(self):
        return f"Numbers(e={self.e}, n={self.n})"
''',
    "altlib/_native/core.pyi": """
class Numbers:
    def __init__(self, e: int, n: int) -> None: ...
""",
    "altlib/api.py": '''
from __future__ import annotations

import datetime
from typing import Any, Generic, TypeVar

from altlib._native import core as _core

Numbers = _core.Numbers
D = TypeVar("D")


class Spec:
    """How contents are read: nothing JSON carries."""

    def __init__(self, name, rules) -> None:
        self.name = name


class Resource(Generic[D]):
    """Contents under a spec."""

    def __init__(self, contents: D, spec: Spec) -> None:
        self.contents, self.spec = contents, spec

    @classmethod
    def from_contents(cls, contents: D, spec: Spec | None = None) -> Resource[D]:
        """The resource of ``contents``, its spec guessed from them."""
        return cls(contents, spec or Spec(str(contents.get("$schema", "plain")), []))


class Document:
    """A text of some kind."""

    def __init__(self, body: str, kind: str) -> None:
        self.body, self.kind = body, kind

    @classmethod
    def from_text(cls, text: str) -> Document:
        return cls(text, "text")

    @classmethod
    def from_fields(cls, fields: dict[str, str]) -> Document:
        return cls(", ".join(f"{k}={v}" for k, v in fields.items()), "fields")

    @classmethod
    def from_pair(cls, body: str, kind: str) -> Document:
        return cls(body, kind)

    @staticmethod
    def from_nothing(text: str) -> Document:
        return Document(text, "nothing")


class Odd:
    """Made from two numbers; its alternate gives no Odd."""

    def __init__(self, a: int, b: int) -> None:
        self.a, self.b = a, b

    @classmethod
    def from_list(cls, values: list[int]) -> tuple[int, ...]:
        return tuple(values)


def root_id(resource: Resource[Any]) -> str:
    """The spec and contents' id of a resource."""
    return f"{resource.spec.name} {resource.contents.get('$id')}"


def describe(document: Document) -> str:
    """A document's kind and body."""
    return f"{document.kind}: {document.body}"


def odd(value: Odd) -> int:
    """The sum of an Odd's numbers."""
    return value.a + value.b


def shifted(when: datetime.datetime, zone: datetime.timezone) -> str:
    """``when`` in the fixed-offset ``zone``."""
    return when.astimezone(zone).isoformat()


def files():
    """Files' contents by path, as a file system's ``cat`` gives them (no return type)."""
    return {"/a.txt": b"hello", "/b.bin": b"\\xff\\xfe", "/c.txt": b"aGk="}


def ranges():
    """Parts of files (no return type)."""
    return [b"he", b"world"]


def typed_files() -> dict[str, bytes]:
    """The same files, the return type saying bytes."""
    return {"/a.txt": b"hello", "/b.bin": b"\\xff\\xfe"}
''',
}


def write_altlib(folder: Path) -> Path:
    """Write ``altlib`` under ``folder``; give ``folder``."""
    for name, text in FILES.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.lstrip("\n"))
    return folder
