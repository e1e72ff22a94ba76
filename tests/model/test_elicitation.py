"""Tools that ask the user mid-call: what the answers turn into, in memory through
``objmcp.testing`` in both eras; and the official Python SDK client against the zoo as a
real server, in both eras, for interoperability."""

from __future__ import annotations

import sys
from typing import Any, Literal

import anyio
import mcp_types as types
import pytest
from conftest import ZOO, stdio_server
from mcp import Client, StdioServerParameters

from objmcp.testing import ResponseError, connect

sys.path.insert(0, str(ZOO.parent))
from zoo import Zoo

pytestmark = pytest.mark.anyio
Era = Literal["handshake", "modern"]
ERAS: list[Era] = ["handshake", "modern"]


def params() -> StdioServerParameters:
    return stdio_server(ZOO)


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


# --- in memory, either era: objmcp.testing answers the questions ---------------------------


class Script:
    """An answering function for ``objmcp.testing``: answers from a list (raising the
    errors in it) and records the params of each question."""

    def __init__(self, *answers: dict[str, Any] | Exception) -> None:
        self.answers = list(answers)
        self.params: list[dict[str, Any]] = []

    def __call__(self, params: dict[str, Any]) -> dict[str, Any]:
        self.params.append(params)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


def accept(content: dict[str, Any]) -> dict[str, Any]:
    return {"action": "accept", "content": content}


@pytest.mark.parametrize("era", ERAS)
async def test_every_action_reaches_the_tool(era: Era) -> None:
    answers = Script(accept({"value": True}), {"action": "decline"}, {"action": "cancel"})
    async with connect(Zoo(), era=era, elicit=answers) as client:
        assert (await client.call("ask")).text == "accept:True"
        assert (await client.call("ask")).text == "decline:None"
        assert (await client.call("ask")).text == "cancel:None"
    assert (answers.params[0]["message"], answers.params[0]["requestedSchema"]) == (
        "Sure?",
        {"type": "object", "properties": {"value": {"type": "boolean"}}, "required": ["value"]},
    )


@pytest.mark.parametrize("era", ERAS)
async def test_an_async_tool_asks_and_a_form_comes_back_typed(era: Era) -> None:
    answers = Script(
        accept({"value": "Ada"}), accept({"name": "Ada", "age": 36}), accept({"value": "green"})
    )
    async with connect(Zoo(), era=era, elicit=answers) as client:
        assert (await client.call("ask_name")).text == "hello Ada"
        twice = await client.call("ask_twice")
        assert twice.text == "Details(name='Ada', age=36) <Color.GREEN: 'green'>"
    details = answers.params[1]["requestedSchema"]
    assert details["properties"]["name"]["description"] == "What to call you."
    assert details["required"] == ["name"]


@pytest.mark.parametrize("era", ERAS)
async def test_wrong_answers_and_unaskable_questions_are_tool_errors(era: Era) -> None:
    answers = Script(accept({"value": "yes"}), ResponseError(-32600, "the user is away"))
    async with connect(Zoo(), era=era, elicit=answers) as client:
        wrong = await client.call("ask")
        assert wrong.is_error and "value" in wrong.text
        if era == "handshake":
            refused = await client.call("ask")
            assert refused.is_error and "the user is away" in refused.text
        else:  # an input response cannot be an error: the client gives up the call itself
            with pytest.raises(ResponseError, match="the user is away"):
                await client.call("ask")
        bad = await client.call("ask_badly")
        assert bad.is_error and "TypeError" in bad.text
        assert (await client.call("add", a=1, b=1)).text == "2"


@pytest.mark.parametrize("era", ERAS)
async def test_a_client_without_the_capability_is_told_so(era: Era) -> None:
    async with connect(Zoo(), era=era) as client:
        assert "elicitation" not in client.capabilities
        if era == "modern":  # 2026-07-28: MissingRequiredClientCapabilityError
            with pytest.raises(ResponseError) as refused:
                await client.call("ask")
            assert refused.value.code == -32021 and "elicitation" in str(refused.value)
        else:  # the handshake revisions: an error result that says why
            result = await client.call("ask")
            assert result.is_error and "does not support elicitation" in result.text
    assert client.asked == []  # nothing was asked of a client that cannot answer


@pytest.mark.parametrize("era", ERAS)
async def test_questions_in_flight_at_once_are_each_answered_to_their_own(era: Era) -> None:
    release = anyio.Event()
    asked: list[str] = []

    async def slow(params: dict[str, Any]) -> dict[str, Any]:
        asked.append(params["message"])
        number = len(asked)
        if number < 3:
            await release.wait()  # the first two wait until the third question is asked
        else:
            release.set()
        return accept({"value": f"n{number}"})

    results: list[str] = []
    async with connect(Zoo(), era=era, elicit=slow) as client:

        async def one() -> None:
            results.append((await client.call("ask_name")).text)

        async with anyio.create_task_group() as group:
            for _ in range(3):
                group.start_soon(one)
    assert asked == ["Your name?"] * 3
    assert sorted(results) == ["hello n1", "hello n2", "hello n3"]


@pytest.mark.parametrize("era", ERAS)
async def test_careless_tools_still_ask(era: Era) -> None:
    answers = Script(accept({"value": True}), accept({"value": False}))
    async with connect(Zoo(), era=era, elicit=answers) as client:
        assert (await client.call("ask_in_a_group")).text == "accept:True"
        assert (await client.call("ask_carelessly")).text == "accept:False"


# --- the official SDK client over a real process: interoperability -----------------------


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


# --- the modern era: input_required, a sealed state, and the call parked or replayed -----------


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
