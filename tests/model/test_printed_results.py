"""What a call prints is its answer when it returns nothing else (issue 37), kept per call:
sync calls in threads of their own and async calls in tasks of their own, their prints
interleaved, each get exactly their own text, and what nobody keeps (another thread's
prints) goes on to stdout as it was. Property tests over the texts and their order."""

from __future__ import annotations

import contextlib
import io
import sys
import threading
from collections.abc import Iterator

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import objmcp
from objmcp.model.values.printed import printed_kept

QUICK = settings(max_examples=25, deadline=None)

TEXTS = st.lists(st.text(max_size=8), min_size=1, max_size=6)


@contextlib.contextmanager
def serving_into(stream: io.StringIO) -> Iterator[None]:
    """While serving, with ``stream`` as the stdout that calls' prints would go to."""
    before = sys.stdout
    sys.stdout = stream
    try:
        with printed_kept():
            yield
    finally:
        sys.stdout = before


def answered(parts: list[str]) -> str:
    """What a call that printed ``parts`` and returned None answers: its printed text, or,
    when it printed nothing, what a call that returned None answers (null)."""
    return "".join(parts) or "null"


class Talker:
    """Calls that print their parts in turns: each waits for the other's print before its
    next one, so that their writes interleave."""

    def __init__(self, turns: int) -> None:
        self.turn = threading.Barrier(turns)

    def speak(self, parts: list[str]) -> None:
        """Print each part, in turns with the other calls."""
        for part in parts:
            print(part, end="")
            self.turn.wait(10)

    async def speak_async(self, parts: list[str]) -> None:
        """The same, on the event loop."""
        for part in parts:
            print(part, end="")
            await anyio.sleep(0)

    def answer(self, parts: list[str]) -> str:
        """Print the parts, and return an answer of its own."""
        for part in parts:
            print(part, end="")
        return "answered"


@QUICK
@given(TEXTS, TEXTS, st.text(min_size=1, max_size=8))
def test_sync_calls_in_threads_each_answer_with_their_own_printed_text(
    first: list[str], second: list[str], stray: str
) -> None:
    size = max(len(first), len(second))
    first, second = first + [""] * (size - len(first)), second + [""] * (size - len(second))
    talker = Talker(turns=2)
    tools = objmcp.Toolbox(talker)
    results: dict[str, objmcp.ToolResult] = {}
    elsewhere = io.StringIO()
    with serving_into(elsewhere):

        def speak(name: str, parts: list[str]) -> None:
            results[name] = tools.call("speak", {"parts": parts})

        calls = [
            threading.Thread(target=speak, args=(name, parts))
            for name, parts in (("first", first), ("second", second))
        ]
        for call in calls:
            call.start()
        print(stray, end="")  # this thread is no call's: on to stdout
        for call in calls:
            call.join(30)
    assert results["first"].text == answered(first)
    assert results["second"].text == answered(second)
    assert elsewhere.getvalue() == stray


@QUICK
@given(TEXTS, TEXTS)
def test_async_calls_on_one_loop_each_answer_with_their_own_printed_text(
    first: list[str], second: list[str]
) -> None:
    tools = objmcp.Toolbox(Talker(turns=1))
    results: dict[str, objmcp.ToolResult] = {}

    async def both() -> None:
        async def speak(name: str, parts: list[str]) -> None:
            results[name] = await tools.acall("speak_async", {"parts": parts})

        async with anyio.create_task_group() as calls:
            calls.start_soon(speak, "first", first)
            calls.start_soon(speak, "second", second)

    with serving_into(io.StringIO()):
        anyio.run(both)
    assert results["first"].text == answered(first)
    assert results["second"].text == answered(second)


@QUICK
@given(TEXTS)
def test_a_call_that_returns_an_answer_answers_with_it_and_its_prints_go_on(
    parts: list[str],
) -> None:
    elsewhere = io.StringIO()
    with serving_into(elsewhere):
        result = objmcp.Toolbox(Talker(turns=1)).call("answer", {"parts": parts})
    assert result.text == "answered"
    assert elsewhere.getvalue() == "".join(parts)


@pytest.mark.parametrize("parts", [["x" * 6, "y" * 6], ["z" * 11]])
def test_printed_text_longer_than_max_result_is_an_error_result_naming_the_bound(
    parts: list[str],
) -> None:
    tools = objmcp.Toolbox(Talker(turns=1), max_result=10)
    with serving_into(io.StringIO()):
        result = tools.call("speak", {"parts": parts})
    assert result.is_error and "max_result" in result.text


def test_once_serving_ends_stdout_is_what_it_was() -> None:
    before = sys.stdout
    with printed_kept(), printed_kept():
        assert sys.stdout is not before
    assert sys.stdout is before
