"""Standard kinds a model says as text (issue 37, round 3): durations, time zones and Python
syntax trees as parameters, and results whose ``str`` would hold an address (XML elements of
the standard library, and of a class of this module's own with the ElementTree API)."""

from __future__ import annotations

import ast
import datetime
import zoneinfo
from collections.abc import Iterator
from xml.etree import ElementTree


class Node:
    """An element of the ElementTree API that is none of the standard library's (as lxml's
    are not): a tag, attributes, text, a tail and children by iteration."""

    def __init__(self, tag: str, text: str | None = None, **attrib: str) -> None:
        self.tag, self.text, self.tail, self.attrib = tag, text, None, dict(attrib)
        self.children: list[Node] = []

    def __iter__(self) -> Iterator[Node]:
        return iter(self.children)

    def __len__(self) -> int:
        return len(self.children)

    def __repr__(self) -> str:
        return f"<Node {self.tag} at {id(self):#x}>"


class Spoken:
    """Tools that take durations, time zones and syntax trees, and answer with them."""

    def seconds(self, delta: datetime.timedelta) -> float:
        """The seconds in ``delta``."""
        return delta.total_seconds()

    def doubled(self, delta: datetime.timedelta = datetime.timedelta(minutes=90)) -> object:
        """``delta`` twice."""
        return delta * 2

    def local_noon(self, zone: datetime.tzinfo) -> str:
        """Noon of 2026-07-01 in ``zone``, and the class the zone arrived as."""
        noon = datetime.datetime(2026, 7, 1, 12, tzinfo=zone)
        return f"{noon.isoformat()} {type(zone).__name__}"

    def named_zone(self, zone: zoneinfo.ZoneInfo) -> object:
        """``zone`` itself, answered."""
        return zone

    def fixed_zone(self, zone: datetime.timezone) -> object:
        """``zone`` itself, answered."""
        return zone

    def parsed(self, text: str) -> object:
        """``text`` parsed by the standard library's ElementTree."""
        return ElementTree.fromstring(text)

    def listing(self, items: list[str]) -> object:
        """A ``<list>`` of ``<item>`` nodes of this module's own element class."""
        root = Node("list", kind="plain")
        for item in items:
            root.children.append(Node("item", item))
        return root

    def names(self, node: ast.expr) -> list[str]:
        """The names ``node``, an expression, reads."""
        return sorted({n.id for n in ast.walk(node) if isinstance(n, ast.Name)})

    def statement(self, node: ast.stmt) -> str:
        """The kind of ``node``, one statement."""
        return type(node).__name__

    def swapped(self, node: ast.expr) -> ast.expr:
        """``node`` with the operands of each binary operation swapped."""
        for part in ast.walk(node):
            if isinstance(part, ast.BinOp):
                part.left, part.right = part.right, part.left
        return node

    def module(self, tree: ast.Module) -> int:
        """How many statements ``tree`` has."""
        return len(tree.body)
