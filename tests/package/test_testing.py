"""objmcp.testing: the in-memory client in both eras, its sync form, and the official SDK's
``Client`` connected through the in-memory transport."""

from __future__ import annotations

import subprocess
import sys
import threading
from typing import Any, Literal

import anyio
import mcp
import mcp_types as types
import pytest
from conftest import ROOT
from mcp.shared.exceptions import MCPError

import objmcp
import objmcp.testing
from objmcp.testing import ResponseError, connect, connect_sync, sdk_transport

sys.path.insert(0, str(ROOT / "tests" / "servers"))
from zoo import Zoo

pytestmark = pytest.mark.anyio
HANDSHAKE = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
Era = Literal["handshake", "modern"]
ERAS: list[Era] = ["handshake", "modern"]


def declared(era: Era, capabilities: dict[str, Any]) -> dict[str, Any]:
    """What the client declares by default: ``capabilities``, and the tasks it follows
    itself: in the modern era the tasks extension, in 2025-11-25 the core ``tasks``."""
    if era == "modern":
        return {"extensions": {"io.modelcontextprotocol/tasks": {}}, **capabilities}
    return {"tasks": {}, **capabilities}


class Script:
    """An answering function that replies from a list and records the params it got."""

    def __init__(self, *answers: Any) -> None:
        self.answers = list(answers)
        self.params: list[dict[str, Any]] = []

    def __call__(self, params: dict[str, Any]) -> Any:
        self.params.append(params)
        return self.answers.pop(0)


class Closable:
    """An object served and closed at the end of serving."""

    def __init__(self) -> None:
        self.closed = False

    def ping(self) -> str:
        """Answer."""
        return "pong"

    def close(self) -> None:
        self.closed = True


class Gate:
    """Two tools that need each other: one waits until the other opens the gate."""

    def __init__(self) -> None:
        self.event = threading.Event()

    def wait(self) -> str:
        """Wait for the gate (in a worker thread)."""
        return "opened" if self.event.wait(10) else "still shut"

    def open(self) -> str:
        """Open the gate."""
        self.event.set()
        return "open"


# --- the in-memory client ---------------------------------------------------------------


@pytest.mark.parametrize("era", ERAS)
async def test_calls_tools_in_either_era(era: Era) -> None:
    async with connect(Zoo(), era=era, name="zoo", instructions="A zoo.") as client:
        assert client.era == era
        assert client.protocol_version == ("2025-11-25" if era == "handshake" else "2026-07-28")
        assert client.server_info is not None and client.server_info["name"] == "zoo"
        assert client.instructions == "A zoo."
        added = await client.call("add", a=1, b=2)
        assert (added.text, added.value, added.is_error) == ("3", 3, False)
        assert added.raw["content"] == [{"type": "text", "text": "3"}]
        echoed = await client.call("echo", {"text": "héllo ✓"})
        assert (echoed.text, echoed.value) == ("héllo ✓", "héllo ✓")
        mixed = await client.call("options", {"name": "abc"}, x=1)
        assert mixed.value == {"len": 3, "x": 1}
        if era == "modern":
            assert added.raw["resultType"] == "complete"


@pytest.mark.parametrize("era", ERAS)
async def test_failures_are_results_and_an_unknown_tool_raises(era: Era) -> None:
    async with connect(Zoo(), era=era) as client:
        failed = await client.call("fail", message="boom")
        assert failed.is_error and failed.text == "ValueError: boom"
        refused = await client.call("refuse", message="not today")
        assert refused.is_error and refused.text == "not today"
        wrong = await client.call("add", a="two", b=3)
        assert wrong.is_error and "'a'" in wrong.text
        with pytest.raises(ResponseError) as unknown:
            await client.call("no_such_tool")
        assert unknown.value.code == -32602 and "no_such_tool" in unknown.value.message
        assert (await client.call("add", a=2, b=2)).value == 4  # the connection goes on


@pytest.mark.parametrize("era", ERAS)
async def test_concurrent_calls_each_get_their_own_answer(era: Era) -> None:
    answers: dict[str, str] = {}
    async with connect(Gate(), era=era) as client:

        async def call(tool: str) -> None:
            answers[tool] = (await client.call(tool)).text

        async with anyio.create_task_group() as group:
            group.start_soon(call, "wait")
            await anyio.sleep(0.05)
            group.start_soon(call, "open")
    assert answers == {"wait": "opened", "open": "open"}


@pytest.mark.parametrize("era", ERAS)
async def test_lists_the_tools(era: Era) -> None:
    async with connect(Zoo(), era=era) as client:
        tools = {tool["name"]: tool for tool in await client.list_tools()}
    assert {"add", "echo", "ask", "summarize", "where", "steps"} <= set(tools)
    assert "_private" not in tools and "hidden_property" not in tools
    assert tools["add"]["description"] == "Add two integers."
    assert tools["add"]["inputSchema"]["required"] == ["a", "b"]
    assert "elicit" not in tools["ask"]["inputSchema"].get("properties", {})


@pytest.mark.parametrize("era", ERAS)
async def test_elicitation_is_answered_by_the_function_given(era: Era) -> None:
    script = Script(
        objmcp.ElicitResult("accept", {"value": True}),
        {"action": "decline"},
        objmcp.ElicitResult("cancel"),
    )
    async with connect(Zoo(), era=era, elicit=script) as client:
        assert client.capabilities == declared(era, {"elicitation": {"form": {}, "url": {}}})
        accepted = await client.call("ask")
        assert accepted.text == "accept:True"
        assert accepted.rounds == (1 if era == "modern" else 0)
        assert (await client.call("ask")).text == "decline:None"
        assert (await client.call("ask")).text == "cancel:None"
        assert [asked["method"] for asked in client.asked] == ["elicitation/create"] * 3
    assert script.params[0] == {
        "message": "Sure?",
        "requestedSchema": {
            "type": "object",
            "properties": {"value": {"type": "boolean"}},
            "required": ["value"],
        },
    }


@pytest.mark.parametrize("era", ERAS)
async def test_an_async_answering_function_and_two_questions_in_a_row(era: Era) -> None:
    answers: list[dict[str, Any]] = [{"name": "Ada", "age": 36}, {"value": "green"}]
    answers.append({"value": "Grace"})

    async def answer(params: dict[str, Any]) -> objmcp.ElicitResult:
        await anyio.sleep(0)
        return objmcp.ElicitResult("accept", answers.pop(0))

    async with connect(Zoo(), era=era, elicit=answer) as client:
        twice = await client.call("ask_twice")
        assert twice.text == "Details(name='Ada', age=36) <Color.GREEN: 'green'>"
        assert twice.rounds == (2 if era == "modern" else 0)
        assert (await client.call("ask_name")).text == "hello Grace"


@pytest.mark.parametrize("era", ERAS)
async def test_sampling_is_answered_by_the_function_given(era: Era) -> None:
    script = Script(objmcp.SampleResult("Short.", "tiny-model", "endTurn"), "In brief.")
    async with connect(Zoo(), era=era, sample=script) as client:
        assert client.capabilities == declared(era, {"sampling": {}})
        summary = await client.call("summarize", text="A long story.")
        assert summary.text == "Short. [tiny-model, endTurn]"
        assert (await client.call("async_summarize", text="x")).text == (
            "In brief. [objmcp.testing]"
        )
    first = script.params[0]
    assert first["systemPrompt"] == "Be brief." and first["maxTokens"] == 50
    assert first["messages"][0] == {
        "role": "user",
        "content": {"type": "text", "text": "A long story."},
    }


@pytest.mark.parametrize("era", ERAS)
async def test_roots_come_from_a_function_or_a_list(era: Era) -> None:
    def listed(params: dict[str, Any]) -> list[Any]:
        return [objmcp.Root("file:///docs", "docs"), {"uri": "file:///src", "name": "src"}]

    async with connect(Zoo(), era=era, roots=listed) as client:
        assert client.capabilities == declared(era, {"roots": {}})
        assert (await client.call("where")).value == ["docs=file:///docs", "src=file:///src"]
    async with connect(Zoo(), era=era, roots=["file:///tmp"]) as client:
        assert (await client.call("where")).value == ["None=file:///tmp"]


@pytest.mark.parametrize("era", ERAS)
async def test_capabilities_are_declared_only_for_the_functions_given(era: Era) -> None:
    async with connect(Zoo(), era=era) as client:
        assert client.capabilities == declared(era, {})
        for tool, arguments, feature in (
            ("ask", {}, "elicitation"),
            ("summarize", {"text": "x"}, "sampling"),
            ("where", {}, "roots"),
        ):
            if era == "modern":  # 2026-07-28: MissingRequiredClientCapabilityError
                with pytest.raises(ResponseError) as missing:
                    await client.call(tool, **arguments)
                assert missing.value.code == -32021 and feature in str(missing.value)
            else:
                result = await client.call(tool, **arguments)
                assert result.is_error and f"does not support {feature}" in result.text
        assert client.asked == []


@pytest.mark.parametrize("era", ERAS)
async def test_progress_reports_land_in_the_result(era: Era) -> None:
    async with connect(Zoo(), era=era) as client:
        done = await client.call("steps", count=3)
        assert done.text == "did 3"
        assert done.progress == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]
        assert [
            (p.progress, p.total) for p in (await client.call("async_steps", count=2)).progress
        ] == [
            (1, 2),
            (2, 2),
        ]
        assert (await client.call("add", a=1, b=1)).progress == []
        methods = {message["method"] for message in client.notifications}
        assert methods == {"notifications/progress"}


@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("tool", ["everything", "async_everything"])
async def test_one_context_carries_progress_logs_and_a_question(era: Era, tool: str) -> None:
    answer = Script(objmcp.ElicitResult("accept", {"value": "Ada"}))
    async with connect(Zoo(), era=era, elicit=answer, log_level="info") as client:
        result = await client.call(tool)
    assert result.text == f"{tool}: Ada"
    assert [(p.progress, p.total) for p in result.progress] == [(1, 2), (2, 2)]
    assert {"level": "info", "logger": tool, "data": f"{tool} asks"} in client.logs


@pytest.mark.parametrize("era", ERAS)
async def test_log_records_reach_the_client_at_the_level_asked(era: Era) -> None:
    async with connect(Zoo(), era=era) as client:
        await client.call("chatty")
        assert client.logs == []
        await client.set_log_level("warning")
        await client.call("chatty")
    assert client.logs == [{"level": "warning", "logger": "zoo.chatty", "data": "careful"}]


@pytest.mark.parametrize("era", ERAS)
async def test_an_error_raised_by_the_answering_function_comes_out_of_the_call(era: Era) -> None:
    def broken(params: dict[str, Any]) -> Any:
        raise ZeroDivisionError("no answer")

    with pytest.raises(ZeroDivisionError, match="no answer"):
        async with connect(Zoo(), era=era, elicit=broken) as client:
            await client.call("ask")


async def test_a_response_error_is_the_clients_error_answer_in_the_handshake_era() -> None:
    def away(params: dict[str, Any]) -> Any:
        raise ResponseError(-32600, "the user is away")

    async with connect(Zoo(), elicit=away) as client:
        refused = await client.call("ask")
    assert refused.is_error and "the user is away" in refused.text


async def test_a_response_error_comes_out_of_the_call_in_the_modern_era() -> None:
    def away(params: dict[str, Any]) -> Any:
        raise ResponseError(-32600, "the user is away")

    async with connect(Zoo(), era="modern", elicit=away) as client:
        with pytest.raises(ResponseError, match="the user is away"):
            await client.call("ask")
        assert (await client.call("add", a=1, b=1)).value == 2


async def test_a_revision_can_be_pinned_and_unsupported_ones_are_refused() -> None:
    async with connect(Zoo(), revision="2025-06-18", elicit=Script({"action": "decline"})) as c:
        assert c.protocol_version == "2025-06-18"
        assert (await c.call("ask")).text == "decline:None"
    async with connect(Zoo(), revision="2024-11-05", elicit=Script()) as client:
        assert "revision 2024-11-05 has none" in (await client.call("ask")).text
    with pytest.raises(ResponseError) as old:
        async with connect(Zoo(), revision="2020-01-01"):
            pass
    assert old.value.code == -32602
    assert old.value.data == {"supported": list(HANDSHAKE), "requested": "2020-01-01"}
    with pytest.raises(ResponseError) as future:
        async with connect(Zoo(), era="modern", revision="2099-01-01"):
            pass
    assert future.value.code == -32022
    with pytest.raises(ValueError, match="handshake era"):
        async with connect(Zoo(), era="modern", revision="2025-11-25"):
            pass


async def test_a_ready_server_is_served_as_it_is_and_an_object_is_closed_at_the_end() -> None:
    mine = Closable()
    server = objmcp.Server("ready", mine, instructions="Made by the test.")
    for _ in range(2):  # a new connection each time
        async with connect(server) as client:
            assert client.instructions == "Made by the test."
            assert (await client.call("ping")).text == "pong"
    assert not mine.closed
    with pytest.raises(TypeError, match="go to Server"):
        async with connect(server, title="x"):
            pass
    served = Closable()
    async with connect(served) as client:
        assert (await client.call("ping")).text == "pong"
        assert not served.closed
    assert served.closed


async def test_content_length_framing() -> None:
    async with connect(Zoo(), framing="content-length") as client:
        assert (await client.call("add", a=20, b=22)).value == 42


async def test_a_request_past_its_timeout_is_cancelled() -> None:
    # the bound is every request's, the handshake's and the last call's too: wide enough
    # that a loaded machine never makes those race it (steps(1000) takes 50 s)
    async with connect(Zoo(), timeout=2) as client:
        with pytest.raises(TimeoutError):
            await client.call("steps", count=1000)
        assert (await client.call("add", a=1, b=1)).value == 2


async def test_raw_requests_and_notifications() -> None:
    async with connect(Zoo(), era="modern") as client:
        discovered = await client.request("server/discover")
        assert discovered["supportedVersions"] == ["2026-07-28"]
        with pytest.raises(ResponseError) as gone:
            await client.request("ping")
        assert gone.value.code == -32601
        await client.notify("notifications/whatever")
        assert (await client.call("add", a=1, b=1)).value == 2


# --- the sync form ----------------------------------------------------------------------


@pytest.mark.parametrize("era", ERAS)
def test_the_sync_form(era: Era) -> None:
    script = Script(objmcp.ElicitResult("accept", {"value": False}))
    with connect_sync(Zoo(), era=era, elicit=script) as client:
        assert client.call("add", a=1, b=2).value == 3
        assert client.call("ask").text == "accept:False"
        assert "add" in {tool["name"] for tool in client.list_tools()}
        assert client.call("steps", count=2).progress == [(1, 2, "step 1"), (2, 2, "step 2")]
        with pytest.raises(ResponseError):
            client.call("no_such_tool")
        assert client.asked[0]["method"] == "elicitation/create"
        # what the server said of itself, as the async client has it
        assert client.server_capabilities == client.client.server_capabilities
        assert "tools" in client.server_capabilities
        assert client.server_info is not None and client.server_info["name"]
        assert client.protocol_version == client.client.protocol_version


# --- the official SDK's Client, in memory ------------------------------------------------


def text_of(result: Any) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return str(result.content[0].text)


@pytest.mark.parametrize("mode", ["legacy", "auto", "2026-07-28"])
async def test_the_sdk_client_connects_in_memory(mode: str) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def record(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async with mcp.Client(sdk_transport(Zoo(), name="zoo"), mode=mode) as client:
        assert client.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert tools["add"].input_schema["required"] == ["a", "b"]
        added = await client.call_tool("add", {"a": 2, "b": 3})
        assert (text_of(added), added.is_error) == ("5", False)
        failed = await client.call_tool("fail", {"message": "boom"})
        assert failed.is_error and text_of(failed) == "ValueError: boom"
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("no_such_tool", {})
        assert unknown.value.error.code == -32602
        done = await client.call_tool("steps", {"count": 2}, progress_callback=record)
        assert text_of(done) == "did 2"
    assert seen == [(1, 2, "step 1"), (2, 2, "step 2")]


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_sdk_client_answers_questions_through_its_callbacks(mode: str) -> None:
    asked: list[str] = []

    async def answer(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        if params.message == "Sure?":
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content={"value": "Ada"})

    async def model(context: Any, params: types.CreateMessageRequestParams) -> Any:
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="Short."),
            model="tiny",
            stop_reason="endTurn",
        )

    async with mcp.Client(
        sdk_transport(Zoo()), mode=mode, elicitation_callback=answer, sampling_callback=model
    ) as client:
        assert text_of(await client.call_tool("ask_name", {})) == "hello Ada"
        assert text_of(await client.call_tool("ask", {})) == "decline:None"
        summary = await client.call_tool("summarize", {"text": "long"})
        assert text_of(summary) == "Short. [tiny, endTurn]"
    assert asked == ["Your name?", "Sure?"]


async def test_the_sdk_session_takes_the_streams_as_they_are() -> None:
    async with (
        sdk_transport(Zoo()) as (read, write),
        mcp.ClientSession(read, write) as session,
    ):
        await session.initialize()
        result = await session.call_tool("echo", {"text": "hi"})
    assert text_of(result) == "hi"


# --- what loads what --------------------------------------------------------------------


def test_import_objmcp_loads_neither_the_test_kit_nor_the_sdk() -> None:
    code = (
        "import sys, objmcp; a = sorted(m for m in sys.modules if m.startswith(('objmcp.testing',"
        " 'mcp'))); import objmcp.testing; b = sorted(m for m in sys.modules if m.startswith("
        "'mcp')); print(a, b)"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.strip()
    assert shown == "[] []"
    assert objmcp.testing.__all__ == sorted(objmcp.testing.__all__)
