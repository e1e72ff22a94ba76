"""Questions a method asks when it is called with ``Toolbox.call(elicit=answer,
sample=model)``, with no client: ``answer(message, wanted)`` gives the answer itself (or an
``ElicitResult``), ``model(messages, **options)`` a completion's text (or a
``SampleResult``), and the method reads them as it reads a client's. Held to what the
official SDK's client makes of the same answer (``elicitation_callback``, in memory through
``objmcp.testing``)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Literal

import anyio
import mcp
import mcp_types as types
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import objmcp
from objmcp.testing import sdk_transport


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass
class Person:
    name: str
    age: int = 0


class Desk:
    """Methods that ask, sync and async."""

    def ask_int(self, elicit: objmcp.Elicit) -> str:
        """How many, as the method read it."""
        return repr(elicit("How many?", int).value)

    def ask_text(self, elicit: objmcp.Elicit) -> str:
        """A name, as the method read it."""
        return repr(elicit("Your name?", str).value)

    def ask_number(self, elicit: objmcp.Elicit) -> str:
        """A number, as the method read it."""
        return repr(elicit("How far?", float).value)

    def ask_sure(self, elicit: objmcp.Elicit) -> str:
        """Yes or no, and how it was answered."""
        answer = elicit("Sure?")
        return f"{answer.action}:{answer.value!r}"

    def ask_many(self, elicit: objmcp.Elicit) -> str:
        """A person and a colour, in one go."""
        got = elicit.many({"who": ("Who?", Person), "colour": ("Colour?", Colour)})
        return f"{got['who'].value!r} {got['colour'].value!r}"

    async def ask_async(self, elicit: objmcp.Elicit) -> str:
        """One question, then two together."""
        name = await elicit("Your name?", str)
        both = await objmcp.ask_all(
            who=elicit.question("Who?", Person), n=elicit.question("How many?", int)
        )
        return f"{name.value!r} {both['who'].value!r} {both['n'].value!r}"

    def summarize(self, text: str, sample: objmcp.Sample) -> str:
        """A summary by the client's model, and which model made it."""
        made = sample(f"Summarize: {text}", max_tokens=50, system="Be brief.")
        return f"{made.text} ({made.model})"

    async def both(self, elicit: objmcp.Elicit, sample: objmcp.Sample) -> str:
        """A question and a completion, asked together."""
        got = await objmcp.ask_all(
            name=elicit.question("Your name?", str), poem=sample.question("A haiku")
        )
        return f"{got['name'].value}: {got['poem'].text}"

    def visit(self, elicit: objmcp.Elicit) -> str:
        """A page to open."""
        return elicit.url("Sign in there", "https://example.com/sign-in").action


TOOLBOX = objmcp.Toolbox(Desk())
ASKED_FOR: dict[str, type] = {"ask_int": int, "ask_text": str, "ask_number": float}


def say(reply: object) -> Any:
    """An answering function that gives ``reply`` to every question."""
    return lambda message, wanted: reply


def via_the_sdk(tool: str, content: dict[str, Any]) -> str:
    """What ``tool`` answers when the official SDK's client accepts its question with
    ``content``."""

    async def answer(context: Any, params: Any) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content=content)

    async def called() -> str:
        async with mcp.Client(
            sdk_transport(Desk()), mode="legacy", elicitation_callback=answer
        ) as client:
            result = await client.call_tool(tool, {})
            return str(result.content[0].text)

    return anyio.run(called)


@settings(max_examples=15, deadline=None)
@given(
    st.sampled_from(
        [
            ("ask_int", st.integers(-(2**53), 2**53)),
            ("ask_text", st.text(max_size=20)),
            ("ask_number", st.floats(allow_nan=False, allow_infinity=False)),
        ]
    ).flatmap(lambda pair: st.tuples(st.just(pair[0]), pair[1]))
)
def test_a_bare_answer_is_read_as_the_sdk_client_s_same_answer(case: tuple[str, Any]) -> None:
    tool, value = case
    here = TOOLBOX.call(tool, elicit=say(value))
    assert not here.is_error, here.text
    assert here.text == via_the_sdk(tool, {"value": value})
    assert here.text == repr(ASKED_FOR[tool](value))  # in the type asked for


def test_the_answering_function_gets_the_message_and_what_was_asked_for() -> None:
    asked: list[tuple[str, object]] = []

    def answer(message: str, wanted: object) -> object:
        asked.append((message, wanted))
        return Person("Ada", 36) if wanted is Person else Colour.BLUE

    assert TOOLBOX.call("ask_many", elicit=answer).text == (
        "Person(name='Ada', age=36) <Colour.BLUE: 'blue'>"
    )
    assert asked == [("Who?", Person), ("Colour?", Colour)]
    assert TOOLBOX.call(
        "ask_many", elicit=lambda m, w: {"name": "Bo"} if w is Person else "red"
    ).text == ("Person(name='Bo', age=0) <Colour.RED: 'red'>")


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (True, "accept:True"),
        (False, "accept:False"),
        (objmcp.ElicitResult("accept", {"value": True}), "accept:True"),  # value read from it
        (objmcp.ElicitResult("accept", {"value": True}, value=True), "accept:True"),
        (objmcp.ElicitResult("decline"), "decline:None"),
        (objmcp.ElicitResult("cancel"), "cancel:None"),
    ],
)
def test_a_yes_or_no_and_each_action(reply: object, said: str) -> None:
    assert TOOLBOX.call("ask_sure", elicit=say(reply)).text == said


@pytest.mark.parametrize(
    ("tool", "reply", "error"),
    [
        ("ask_sure", "yes", "The answer's field 'value': expected boolean, got string \"yes\""),
        ("ask_int", 2.5, "The answer's field 'value'"),
        ("ask_many", {"age": 3}, "name"),
        ("ask_sure", objmcp.ElicitResult("accept", {"value": "no"}), "expected boolean"),
        ("ask_text", object(), "not JSON"),
    ],
)
def test_an_answer_that_does_not_fit_is_an_error_result_that_says_why(
    tool: str, reply: object, error: str
) -> None:
    result = TOOLBOX.call(tool, elicit=say(reply))
    assert result.is_error and error in result.text, result.text


@pytest.mark.parametrize("kind", ["sync", "async"])
@pytest.mark.parametrize("entry", ["call", "acall"])
def test_an_async_method_awaits_its_questions_whatever_answers_them(
    kind: Literal["sync", "async"], entry: str
) -> None:
    def answer(message: str, wanted: object) -> object:
        return {"Your name?": "Cy", "Who?": Person("Di"), "How many?": 2}[message]

    async def answer_later(message: str, wanted: object) -> object:
        await anyio.sleep(0)
        return answer(message, wanted)

    given_answer = answer if kind == "sync" else answer_later
    if entry == "call":
        result = TOOLBOX.call("ask_async", elicit=given_answer)
    else:
        result = anyio.run(lambda: TOOLBOX.acall("ask_async", elicit=given_answer))
    assert result.text == "'Cy' Person(name='Di', age=0) 2", result.text


def test_a_sync_method_called_from_async_code_reads_its_answers_as_they_are() -> None:
    result = anyio.run(lambda: TOOLBOX.acall("ask_many", elicit=say({"name": "Ed"})))
    assert result.is_error and "expected string" in result.text  # {"name": ...} is no colour
    result = anyio.run(
        lambda: TOOLBOX.acall(
            "ask_many", elicit=lambda m, w: {"name": "Ed"} if w is Person else "blue"
        )
    )
    assert result.text == "Person(name='Ed', age=0) <Colour.BLUE: 'blue'>"


def test_a_url_question_gets_the_url_and_accepts_unless_told_otherwise() -> None:
    asked: list[object] = []

    def answer(message: str, wanted: object) -> object:
        asked.append(wanted)
        return None

    assert TOOLBOX.call("visit", elicit=answer).text == "accept"
    assert asked == ["https://example.com/sign-in"]
    assert TOOLBOX.call("visit", elicit=say(objmcp.ElicitResult("decline"))).text == "decline"


def test_elicit_must_be_callable() -> None:
    with pytest.raises(TypeError, match="elicit= takes a callable"):
        TOOLBOX.call("ask_sure", elicit="yes")  # type: ignore[arg-type]


def test_a_completion_is_given_the_method_s_request_and_read_as_a_client_s() -> None:
    seen: list[tuple[object, dict[str, Any]]] = []

    def model(messages: object, **options: Any) -> object:
        seen.append((messages, options))
        return "short"

    assert TOOLBOX.call("summarize", {"text": "long"}, sample=model).text == (
        "short (objmcp.Toolbox)"
    )
    assert seen == [("Summarize: long", {"max_tokens": 50, "system": "Be brief."})]
    raw = {"role": "assistant", "content": {"type": "text", "text": "raw"}, "model": "m1"}
    assert TOOLBOX.call("summarize", {"text": "x"}, sample=lambda m, **o: raw).text == ("raw (m1)")
    given = objmcp.SampleResult("given", "m2")
    assert TOOLBOX.call("summarize", {"text": "x"}, sample=lambda m, **o: given).text == (
        "given (m2)"
    )
    wrong = TOOLBOX.call("summarize", {"text": "x"}, sample=lambda m, **o: 42)
    assert wrong.is_error and "returns a string" in wrong.text, wrong.text
    no_model = TOOLBOX.call("summarize", {"text": "x"}, sample=lambda m, **o: {"role": "x"})
    assert no_model.is_error and "names no model" in no_model.text, no_model.text


@pytest.mark.parametrize("entry", ["call", "acall"])
def test_a_question_and_a_completion_are_asked_together(entry: str) -> None:
    async def model(messages: object, **options: Any) -> str:
        return "old pond, a frog"

    options: dict[str, Any] = {"elicit": say("Flo"), "sample": model}
    if entry == "call":
        result = TOOLBOX.call("both", **options)
    else:
        result = anyio.run(lambda: TOOLBOX.acall("both", **options))
    assert result.text == "Flo: old pond, a frog", result.text


async def later(value: object) -> object:
    await anyio.sleep(0)
    return value


@pytest.mark.parametrize("entry", ["call", "acall"])
def test_a_sync_method_gets_the_answer_of_an_async_function(entry: str) -> None:
    def answer(message: str, wanted: object) -> object:
        return later(Person("Gil") if wanted is Person else "red")

    if entry == "call":  # no event loop: one of its own
        result = TOOLBOX.call("ask_many", elicit=answer)
    else:  # a worker thread of the caller's loop: awaited there
        result = anyio.run(lambda: TOOLBOX.acall("ask_many", elicit=answer))
    assert result.text == "Person(name='Gil', age=0) <Colour.RED: 'red'>", result.text


def test_a_sync_method_called_on_a_running_loop_gets_its_answers() -> None:
    async def called_here() -> tuple[objmcp.ToolResult, objmcp.ToolResult]:
        # call() runs a sync tool in the calling thread, which here runs the loop
        answered = TOOLBOX.call("ask_sure", elicit=say(True))
        refused = TOOLBOX.call("ask_sure", elicit=lambda m, w: later(True))
        return answered, refused

    answered, refused = anyio.run(called_here)
    assert answered.text == "accept:True", answered.text
    assert refused.is_error and "make the method async" in refused.text, refused.text
