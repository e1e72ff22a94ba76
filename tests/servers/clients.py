"""What the client tests serve to the MCP clients other projects ship (the SDK 1.x
client, agent frameworks, the Inspector): the kinds of parameter their converters
handle differently, an error, a question, progress, and a server with and one without
resources and prompts.

Served as ``tests/servers/clients.py:Desk`` (tools only) or ``...:Library`` (tools,
a resource, a resource template and a prompt). ``...:Frontdesk`` is the Library with a sample and a
tool that says ahead what it will ask, for the TypeScript client 2.x
(``tests/peers/test_ts_v2.py``). ``...:Sketchpad`` is for the strict-schema
sweep of ``tests/peers/test_client_openai_agents.py`` alone (the other client tests expect the
Desk's tools exactly).
"""

from __future__ import annotations

import enum
import statistics
from dataclasses import dataclass

import objmcp


class Color(enum.Enum):
    """A colour."""

    RED = "red"
    GREEN = "green"


@dataclass
class Point:
    """A point in the plane.

    Attributes:
        x: Across.
        y: Up.
    """

    x: float
    y: float = 0.0


class Desk:
    """A desk of tools for client tests."""

    def add(self, a: int, b: int) -> int:
        """Add two integers.

        Args:
            a: The first.
            b: The second.
        """
        return a + b

    def scale(self, value: float, factor: float = 2.0, exact: bool = False) -> str:
        """Multiply a number, and say whether it was asked to be exact.

        Args:
            value: The number.
            factor: What to multiply it by.
            exact: Whether to say so.
        """
        return f"{value * factor}" + (" exactly" if exact else "")

    def tag(self, title: str, tags: list[str] | None = None) -> str:
        """File a title under some tags.

        Args:
            title: What to file.
            tags: The labels (none: untagged).
        """
        return f"{title}: {', '.join(tags) if tags else 'untagged'}"

    def place(self, point: Point) -> str:
        """Say where a point is.

        Args:
            point: The point.
        """
        return f"({point.x}, {point.y})"

    def paint(self, color: Color) -> str:
        """Name a colour.

        Args:
            color: The colour.
        """
        return f"painted {color.value}"

    def median(self, data):  # type: ignore[no-untyped-def]
        """The median of some numbers (untyped, as the standard library's is).

        Args:
            data: The numbers.
        """
        return statistics.median(data)

    def fail(self, message: str) -> None:
        """Raise a ValueError with this message.

        Args:
            message: What to say.
        """
        raise ValueError(message)

    def ask(self, elicit: objmcp.Elicit) -> str:
        """Ask the user's name, and greet them."""
        answer = elicit("What is your name?", str)
        if answer.action != "accept":
            return f"no name ({answer.action})"
        return f"hello {answer.value}"

    def count(self, n: int, progress: objmcp.Progress) -> str:
        """Count to n, reporting each step.

        Args:
            n: How far.
        """
        for done in range(1, n + 1):
            progress(done, n, f"step {done}")
        return f"counted to {n}"


class Sketchpad:
    """A tool taking one named type twice, with no Args section: each parameter's schema
    is the type's alone, with nothing of the parameter's own beside it."""

    def shift(self, point: Point, by: Point) -> str:
        """Move a point by another, as a vector."""
        return f"({point.x + by.x}, {point.y + by.y})"


class Library(Desk):
    """A desk with documents: a resource, a template and a prompt."""

    @objmcp.resource("library://readme", mime_type="text/plain")
    def readme(self) -> str:
        """What the library holds."""
        return "A library of one readme."

    @objmcp.resource("library://books/{number}")
    def book(self, number: int) -> str:
        """One book, by number."""
        return f"book {number}"

    @objmcp.prompt
    def review(self, topic: str) -> str:
        """Ask for a review of a topic."""
        return f"Please review {topic}."


class Frontdesk(Library):
    """A library that also asks the client's model, and has a tool that says ahead what it
    will ask (so a client that cannot answer is refused before it runs)."""

    def __init__(self) -> None:
        self.confirmations = 0

    def summarize(self, text: str, sample: objmcp.Sample) -> str:
        """Summarize a text with the client's model.

        Args:
            text: What to summarize.
        """
        answer = sample(f"Summarize in a few words: {text}", max_tokens=40)
        return f"summary by {answer.model}: {answer.text}"

    @objmcp.tool(needs=["elicitation"])
    def confirm(self, action: str, elicit: objmcp.Elicit) -> str:
        """Ask the user to confirm an action (the tool says ahead that it asks).

        Args:
            action: What to confirm.
        """
        self.confirmations += 1
        answer = elicit(f"Confirm {action}?", bool)
        return f"{action}: {'confirmed' if answer.value else 'not confirmed'} ({answer.action})"

    def register(self, elicit: objmcp.Elicit) -> str:
        """Ask the user's name and city, both at once."""
        answers = elicit.many({"name": ("Your name?", str), "city": ("Your city?", str)})
        return f"{answers['name'].value} from {answers['city'].value}"

    def confirmations_started(self) -> int:
        """How many times confirm has started (a refused call never does)."""
        return self.confirmations
