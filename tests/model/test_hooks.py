"""Hooks around tool calls, on a :class:`~objmcp.Toolbox` and through a server in memory:
what they see, a refusal, a hook that fails, the exception of a failed call."""

from __future__ import annotations

import threading
from typing import Any

import pytest

import objmcp
from objmcp import CallEnd, CallInfo, Hook, Toolbox
from objmcp.testing import connect

pytestmark = pytest.mark.anyio


class Shelf:
    """Books by title."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    def put(self, title: str) -> str:
        """Shelve a book."""
        self.ran.append(title)
        return title.upper()

    async def aput(self, title: str) -> str:
        """Shelve a book, asynchronously."""
        self.ran.append(title)
        return title.lower()

    def fall(self, title: str) -> str:
        """Drop a book."""
        raise KeyError(title)


class Recorder(Hook):
    """Records what it sees; refuses the titles in ``refuse``; fails where told."""

    def __init__(self, refuse: str = "", fail_in: str = "") -> None:
        self.seen: list[tuple[str, Any]] = []
        self.refuse, self.fail_in = refuse, fail_in
        self.threads: set[int] = set()

    def before(self, call: CallInfo) -> None:
        self.threads.add(threading.get_ident())
        self.seen.append(("before", call))
        if self.fail_in == "before":
            raise RuntimeError("hook broke")
        if isinstance(call.arguments, dict) and call.arguments.get("title") == self.refuse:
            raise objmcp.ToolError(f"{self.refuse} is banned here")

    def after(self, call: CallInfo, end: CallEnd) -> None:
        self.seen.append(("after", end))
        if self.fail_in == "after":
            raise ValueError("after broke")

    def on_error(self, call: CallInfo, end: CallEnd) -> None:
        self.seen.append(("on_error", end))


@pytest.mark.parametrize("tool", ["put", "aput"])
def test_a_call_is_seen_before_and_after_from_sync_code(tool: str) -> None:
    shelf, hook = Shelf(), Recorder()
    tools = Toolbox(shelf, hooks=[hook])
    result = tools.call(tool, {"title": "Emma"})
    assert not result.is_error and shelf.ran == ["Emma"]
    (stage, call), (ended, end) = hook.seen
    assert (stage, call.tool, call.arguments, call.request_id) == (
        "before",
        tool,
        {"title": "Emma"},
        None,
    )
    assert ended == "after" and end.result is result and end.error is None and end.seconds >= 0


async def test_a_refusal_stops_the_call_and_is_its_error_result() -> None:
    shelf, hook = Shelf(), Recorder(refuse="Ulysses")
    tools = Toolbox(shelf, hooks=[hook])
    for tool in ("put", "aput"):
        refused = await tools.acall(tool, {"title": "Ulysses"})
        assert (refused.text, refused.is_error) == ("Ulysses is banned here", True)
    assert shelf.ran == []
    assert [stage for stage, _ in hook.seen] == ["before", "on_error"] * 2
    assert isinstance(hook.seen[-1][1].error, objmcp.ToolError)


async def test_on_error_gets_what_the_method_raised() -> None:
    hook = Recorder()
    result = await Toolbox(Shelf(), hooks=[hook]).acall("fall", {"title": "Dune"})
    assert result.is_error and "KeyError" in result.text
    stage, end = hook.seen[-1]
    assert stage == "on_error" and isinstance(end.error, KeyError) and end.result is result


@pytest.mark.parametrize("stage", ["before", "after"])
def test_a_hook_that_fails_makes_the_call_an_error_result_that_says_so(
    stage: str, caplog: pytest.LogCaptureFixture
) -> None:
    shelf = Shelf()
    later = Recorder()
    tools = Toolbox(shelf, hooks=[Recorder(fail_in=stage), later])
    result = tools.call("put", {"title": "Emma"})
    assert result.is_error
    assert f"A hook of the server failed (Recorder.{stage})" in result.text
    assert shelf.ran == ([] if stage == "before" else ["Emma"])
    assert later.seen[-1][0] == "on_error"  # the hooks after it see the failure
    assert "hook" in caplog.text and "broke" in caplog.text


def test_a_hook_must_be_a_hook() -> None:
    with pytest.raises(TypeError, match=r"objmcp\.Hook"):
        Toolbox(Shelf(), hooks=[print])  # type: ignore[list-item]


@pytest.mark.parametrize("era", ["handshake", "modern"])
async def test_served_calls_tell_the_hooks_the_request_revision_and_client(era: Any) -> None:
    shelf, hook = Shelf(), Recorder(refuse="Ulysses")
    async with connect(shelf, era=era, hooks=[hook]) as client:
        assert (await client.call("put", title="Emma")).text == "EMMA"
        assert (await client.call("aput", title="Emma")).text == "emma"
        refused = await client.call("put", title="Ulysses")
        assert refused.is_error and refused.text == "Ulysses is banned here"
        version = client.protocol_version
    befores = [call for stage, call in hook.seen if stage == "before"]
    assert [call.tool for call in befores] == ["put", "aput", "put"]
    assert len({call.request_id for call in befores}) == 3
    assert all(call.request_id is not None for call in befores)
    assert {call.protocol_version for call in befores} == {version}
    assert {call.client for call in befores} == {"objmcp.testing"}
    assert shelf.ran == ["Emma", "Emma"]


async def test_search_mode_hooks_see_the_tool_behind_call_tool() -> None:
    hook = Recorder()
    async with connect(Shelf(), hooks=[hook], discovery=objmcp.Discovery(mode="search")) as client:
        called = await client.call("call_tool", {"name": "put", "arguments": {"title": "Emma"}})
        assert called.text == "EMMA"
    assert [call.tool for stage, call in hook.seen if stage == "before"] == ["put"]
