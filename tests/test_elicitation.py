"""Tools that ask the user mid-call, through the official Python SDK client (handshake era)."""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
import pytest
from conftest import PYTHON, ROOT, ZOO
from mcp import Client, StdioServerParameters

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def params() -> StdioServerParameters:
    return StdioServerParameters(command=PYTHON, args=[str(ZOO)], env={"PYTHONPATH": str(ROOT)})


def text_of(result: Any) -> str:
    return str(result.content[0].text)


class Answers:
    """An elicitation callback that answers from a script and records the questions."""

    def __init__(self, *answers: types.ElicitResult | types.ErrorData) -> None:
        self.answers = list(answers)
        self.asked: list[tuple[str, dict[str, Any]]] = []

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult | types.ErrorData:
        self.asked.append((params.message, params.requested_schema))
        return self.answers.pop(0)


async def test_a_sync_tool_asks_and_gets_the_answer() -> None:
    answers = Answers(
        types.ElicitResult(action="accept", content={"value": True}),
        types.ElicitResult(action="decline"),
        types.ElicitResult(action="cancel"),
    )
    async with Client(params(), mode="legacy", elicitation_callback=answers) as client:
        assert text_of(await client.call_tool("ask", {})) == "accept:True"
        assert text_of(await client.call_tool("ask", {})) == "decline:None"
        assert text_of(await client.call_tool("ask", {})) == "cancel:None"
    assert answers.asked[0] == (
        "Sure?",
        {"type": "object", "properties": {"value": {"type": "boolean"}}, "required": ["value"]},
    )


async def test_an_async_tool_asks_and_a_form_comes_back_typed() -> None:
    answers = Answers(
        types.ElicitResult(action="accept", content={"value": "Ada"}),
        types.ElicitResult(action="accept", content={"name": "Ada", "age": 36}),
        types.ElicitResult(action="accept", content={"value": "green"}),
    )
    async with Client(params(), mode="legacy", elicitation_callback=answers) as client:
        assert text_of(await client.call_tool("ask_name", {})) == "hello Ada"
        twice = await client.call_tool("ask_twice", {})
        assert text_of(twice) == "Details(name='Ada', age=36) <Color.GREEN: 'green'>"
    details = answers.asked[1][1]
    assert details["properties"]["name"]["description"] == "What to call you."
    assert details["required"] == ["name"]


async def test_wrong_answers_and_unaskable_questions_are_tool_errors() -> None:
    answers = Answers(
        types.ElicitResult(action="accept", content={"value": "yes"}),
        types.ErrorData(code=-32600, message="the user is away"),
    )
    async with Client(params(), mode="legacy", elicitation_callback=answers) as client:
        wrong = await client.call_tool("ask", {})
        assert wrong.is_error and "value" in text_of(wrong)
        refused = await client.call_tool("ask", {})
        assert refused.is_error and "the user is away" in text_of(refused)
        bad = await client.call_tool("ask_badly", {})
        assert bad.is_error and "TypeError" in text_of(bad)
        assert text_of(await client.call_tool("add", {"a": 1, "b": 1})) == "2"


async def test_a_client_without_the_capability_is_told_so() -> None:
    async with Client(params(), mode="legacy") as client:
        result = await client.call_tool("ask", {})
    assert result.is_error and "does not support elicitation" in text_of(result)


async def test_questions_in_flight_at_once_are_answered_each_to_its_own() -> None:
    release = anyio.Event()
    asked: list[str] = []

    async def slow(context: Any, params: Any) -> types.ElicitResult:
        asked.append(params.message)
        number = len(asked)
        if number < 3:
            await release.wait()  # the first two wait until the third question is asked
        else:
            release.set()
        return types.ElicitResult(action="accept", content={"value": f"n{number}"})

    results: list[str] = []
    async with Client(params(), mode="legacy", elicitation_callback=slow) as client:

        async def one() -> None:
            results.append(text_of(await client.call_tool("ask_name", {})))

        async with anyio.create_task_group() as group:
            for _ in range(3):
                group.start_soon(one)
    assert sorted(results) == ["hello n1", "hello n2", "hello n3"]


# --- the modern era: input_required, a sealed state, and the call replayed -------------------


@pytest.mark.parametrize("mode", ["2026-07-28", "auto"])
async def test_the_same_methods_ask_in_the_modern_era(mode: str) -> None:
    answers = Answers(
        types.ElicitResult(action="accept", content={"value": True}),
        types.ElicitResult(action="accept", content={"value": "Ada"}),
        types.ElicitResult(action="accept", content={"name": "Ada"}),
        types.ElicitResult(action="accept", content={"value": "red"}),
        types.ElicitResult(action="decline"),
    )
    async with Client(params(), mode=mode, elicitation_callback=answers) as client:
        assert client.protocol_version == "2026-07-28"
        assert text_of(await client.call_tool("ask", {})) == "accept:True"
        assert text_of(await client.call_tool("ask_name", {})) == "hello Ada"
        twice = await client.call_tool("ask_twice", {})
        assert text_of(twice) == "Details(name='Ada', age=30) <Color.RED: 'red'>"
        assert text_of(await client.call_tool("ask", {})) == "decline:None"
    assert [message for message, _ in answers.asked] == [
        "Sure?",
        "Your name?",
        "Details?",
        "Colour?",
        "Sure?",
    ]


async def test_a_modern_client_without_the_capability_is_told_so() -> None:
    async with Client(params(), mode="2026-07-28") as client:
        result = await client.call_tool("ask", {})
    assert result.is_error and "does not support elicitation" in text_of(result)


async def test_careless_tools_still_ask_in_the_modern_era() -> None:
    answers = Answers(
        types.ElicitResult(action="accept", content={"value": True}),
        types.ElicitResult(action="accept", content={"value": False}),
    )
    async with Client(params(), mode="2026-07-28", elicitation_callback=answers) as client:
        assert text_of(await client.call_tool("ask_in_a_group", {})) == "accept:True"
        assert text_of(await client.call_tool("ask_carelessly", {})) == "accept:False"
