"""A zoo of methods with varied signatures, served by the real-process tests.

Run as a server: ``python tests/servers/zoo.py [framing]``.
"""

from __future__ import annotations

import asyncio
import datetime
import enum
import io
import logging
import math
import os
import struct
import sys
import time
import uuid
import wave
import zlib
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Literal, NamedTuple, TypedDict

from flat_options import as_records

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


@dataclass
class Details:
    """About you.

    Attributes:
        name: What to call you.
        age: In years.
    """

    name: str
    age: int = 30


class Span(NamedTuple):
    start: int
    end: int


class Person(TypedDict):
    name: str
    age: int


class Zoo:
    """Odd signatures, for tests."""

    def add(self, a: int, b: int) -> int:
        """Add two integers.

        Args:
            a: The first.
            b: The second.
        """
        return a + b

    def echo(self, text: str) -> str:
        """Say it back."""
        return text

    def describe(
        self,
        color: Color,
        point: Point,
        span: Span,
        person: Person,
        when: datetime.datetime,
        day: datetime.date,
        ident: uuid.UUID,
        amount: Decimal,
        path: Path,
        mode: Literal["fast", "slow"] = "fast",
        pair: tuple[int, str] = (1, "a"),
        labels: set[str] | None = None,
        note: Annotated[str, "A free note."] = "",
    ) -> dict[str, str]:
        """Report the Python types and values the arguments arrived as."""
        values = {
            "color": color,
            "point": point,
            "span": span,
            "person": person,
            "when": when,
            "day": day,
            "ident": ident,
            "amount": amount,
            "path": path,
            "mode": mode,
            "pair": pair,
            "labels": labels,
            "note": note,
        }
        return {key: f"{type(value).__name__}:{value!r}" for key, value in values.items()}

    def fail(self, message: str) -> None:
        """Raise a ValueError."""
        raise ValueError(message)

    def refuse(self, message: str) -> None:
        """Raise a ToolError."""
        raise objmcp.ToolError(message)

    def sleep(self, seconds: float) -> str:
        """Sleep in a worker thread, then answer."""
        time.sleep(seconds)
        return f"slept {seconds}"

    async def nap(self, seconds: float) -> str:
        """Sleep on the event loop, then answer."""
        await asyncio.sleep(seconds)
        return f"napped {seconds}"

    def noisy(self, text: str) -> str:
        """Write to stdout three ways, then answer."""
        print("print says", text)
        sys.stdout.write("sys.stdout says " + text + "\n")
        sys.stdout.flush()
        os.write(1, b"fd 1 says " + text.encode() + b"\n")
        return "quiet " + text

    def nothing(self) -> None:
        """Return None."""

    def not_a_number(self) -> float:
        """Return NaN."""
        return math.nan

    def total(self, *numbers: float) -> float:
        """Sum any number of numbers."""
        return sum(numbers)

    def options(self, name: str, **extra: int) -> dict[str, int]:
        """Collect keyword arguments."""
        return {"len": len(name), **extra}

    def ask(self, elicit: objmcp.Elicit) -> str:
        """Ask the user a yes/no question (in a worker thread)."""
        answer = elicit("Sure?", bool)
        return f"{answer.action}:{answer.value!r}"

    async def ask_name(self, elicit) -> str:  # type: ignore[no-untyped-def]
        """Ask the user's name (on the event loop); the parameter is found by its name."""
        answer = await elicit("Your name?", str)
        return f"hello {answer.value}" if answer.action == "accept" else answer.action

    def ask_twice(self, elicit: objmcp.Elicit) -> str:
        """Ask two questions in a row, for details and then for a colour."""
        details = elicit("Details?", Details)
        color = elicit("Colour?", Color)
        return f"{details.value!r} {color.value!r}"

    async def ask_in_a_group(self, elicit) -> str:  # type: ignore[no-untyped-def]
        """Ask from inside a task group of the tool's own."""
        import anyio

        answers: list[str] = []

        async def one() -> None:
            answer = await elicit("Sure?", bool)
            answers.append(f"{answer.action}:{answer.value!r}")

        async with anyio.create_task_group() as group:
            group.start_soon(one)
        return answers[0]

    def ask_carelessly(self, elicit: objmcp.Elicit) -> str:
        """Catch everything around a question, as careless code does."""
        try:
            answer = elicit("Sure?", bool)
        except BaseException:
            return "caught"
        return f"{answer.action}:{answer.value!r}"

    def ask_badly(self, elicit: objmcp.Elicit) -> str:
        """Ask for something elicitation cannot ask for."""
        elicit("A list?", list[int])
        return "unreachable"

    def ask_after_work(self, elicit: objmcp.Elicit) -> str:
        """Count the runs of the code before a question, then ask it (parked or replayed)."""
        self.runs_before_question = getattr(self, "runs_before_question", 0) + 1
        answer = elicit("Sure?", bool)
        return f"{answer.action}:{answer.value!r} after {self.runs_before_question} run(s)"

    def summarize(self, text: str, sample: objmcp.Sample) -> str:
        """Ask the client's model to summarize (in a worker thread)."""
        result = sample(
            [text, {"role": "assistant", "content": "Noted."}, "Summarize that."],
            max_tokens=50,
            system="Be brief.",
            temperature=0.5,
            stop=["END"],
            models=["claude-small"],
        )
        return f"{result.text} [{result.model}, {result.stop_reason}]"

    async def async_summarize(self, text: str, sample) -> str:  # type: ignore[no-untyped-def]
        """Ask the client's model to summarize (on the event loop), by name."""
        result = await sample(f"Summarize: {text}")
        return f"{result.text} [{result.model}]"

    def where(self, roots: objmcp.Roots) -> list[str]:
        """List the client's roots."""
        return [f"{root.name}={root.uri}" for root in roots()]

    def sign_in(self, elicit: objmcp.Elicit) -> str:
        """Send the user to a web page, then say it is done."""
        answer = elicit.url("Sign in to continue", "https://example.com/login")
        elicit.complete(answer.elicitation_id)
        return f"{answer.action}:{answer.elicitation_id is not None}"

    def log_levels(self, log: objmcp.Log) -> str:
        """Log through the injected logger at several levels, one of them a JSON value."""
        log.debug("fine detail")
        log.info("working")
        log({"step": 2, "of": 3}, "notice")
        log.error("trouble")
        return "logged"

    def everything(self, context: objmcp.Context) -> str:
        """Use the one context parameter for progress, logging and a question."""
        context.progress(1, 2)
        context.log.info(f"{context.tool} asks")
        answer = context.elicit("Your name?", str)
        context.progress(2, 2)
        return f"{context.tool}: {answer.value}"

    async def async_everything(self, context: objmcp.Context) -> str:
        """The same, async."""
        await context.progress(1, 2)
        await context.log.info(f"{context.tool} asks")
        answer = await context.elicit("Your name?", str)
        await context.progress(2, 2)
        return f"{context.tool}: {answer.value}"

    def origin(self) -> Point:
        """The origin, as a structured result."""
        return Point(0.0, 0.0)

    def liar(self) -> int:
        """Claim an integer, return text: the result does not fit the declared type."""
        return "seven"  # type: ignore[return-value]

    @objmcp.tool(name="shout", title="Shout it", read_only=True, idempotent=True)
    def loud(self, text: str) -> str:
        """Upper-case the text."""
        return text.upper()

    @objmcp.tool(structured=False)
    def plain_total(self, numbers: list[int]) -> int:
        """Add numbers, with no structured output."""
        return sum(numbers)

    @objmcp.hidden
    def secret(self) -> str:
        """Public in Python, hidden from the model."""
        return "hidden"

    def picture(self, size: int) -> bytes:
        """A square grey PNG of ``size`` pixels a side, as bytes (sent as an image)."""
        return png(size)

    def beep(self) -> objmcp.Audio:
        """A tenth of a second of silence, as WAV audio."""
        buffer = io.BytesIO()
        with wave.open(buffer, "wb") as sound:
            sound.setnchannels(1)
            sound.setsampwidth(2)
            sound.setframerate(8000)
            sound.writeframes(b"\0\0" * 800)
        return objmcp.Audio(buffer.getvalue())

    def gallery(self) -> list[object]:
        """Text, an image, an embedded file, a binary file and a link, in one result."""
        return [
            "Here they are:",
            objmcp.Image(png(2)),
            objmcp.File("notes://1", "first note"),
            objmcp.File("blob://raw", b"\x00\x01", "application/octet-stream"),
            objmcp.ResourceLink("notes://2", "second", mime_type="text/plain"),
        ]

    def chatty(self) -> str:
        """Log at three levels, then answer."""
        log = logging.getLogger("zoo.chatty")
        log.debug("details")
        log.info("working")
        log.warning("careful")
        return "chatted"

    @objmcp.tool  # named: what it does is what the test is about
    def leave(self, code: int) -> None:
        """Raise SystemExit, as a careless library might."""
        sys.exit(code)

    def unprintable(self) -> object:
        """Return an object whose text cannot be made."""

        class Broken:
            def __str__(self) -> str:
                raise RuntimeError("no text for you")

        return Broken()

    def count(self, limit: int) -> object:
        """Return an iterator (not a list) of numbers."""
        return iter(range(limit))

    def steps(self, count: int, progress: objmcp.Progress, cancelled: objmcp.Cancelled) -> str:
        """Work in steps, reporting progress, until done or cancelled."""
        for step in range(1, count + 1):
            if cancelled.is_set():
                sys.stderr.write(f"steps stopped early at {step}\n")
                return f"stopped at {step}"
            time.sleep(0.05)
            progress(step, count, f"step {step}")
        return f"did {count}"

    async def async_steps(self, count: int, progress) -> str:  # type: ignore[no-untyped-def]
        """The same, async, with progress found by its name."""
        for step in range(1, count + 1):
            await asyncio.sleep(0.01)
            await progress(step, count)
        return f"did {count}"

    async def cancelled_inside(self) -> str:
        """Await a task that was cancelled: its CancelledError is this tool's failure."""
        task = asyncio.ensure_future(asyncio.sleep(10))
        task.cancel()
        await task
        return "unreachable"

    @property
    def hidden_property(self) -> str:
        """Never a tool."""
        raise AssertionError("properties are never called")

    def _private(self) -> None:
        """Never a tool."""


def png(size: int) -> bytes:
    """A grey square PNG image of ``size`` pixels a side."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", size, size, 8, 0, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x80" * size for _ in range(size))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def _options(words: list[str]) -> dict[str, object]:
    """Server options from ``key=value`` words (numbers as numbers)."""
    options: dict[str, object] = {}
    for word in words:
        key, _, value = word.partition("=")
        try:
            options[key] = float(value) if "." in value else int(value)
        except ValueError:
            options[key] = value
    return options


if __name__ == "__main__":
    framing = sys.argv[1] if len(sys.argv) > 1 else "auto"
    objmcp.start(
        "zoo",
        Zoo(),
        framing=framing,  # type: ignore[arg-type]
        instructions="A zoo of tools.",
        title="The Zoo",
        **as_records(_options(sys.argv[2:])),
    )
