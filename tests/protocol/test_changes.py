"""What is served changes while it is served: tools, resources and prompts added and
removed (``notifications/*/list_changed``), resources updated
(``notifications/resources/updated``), through ``resources/subscribe`` in the
handshake era and ``subscriptions/listen`` streams in the modern one; caching hints
per resource. Through the official SDK client against a real server process, and
raw pipes where the exact bytes and their order are the point."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
from conftest import RawServer, stdio_server
from mcp import Client, StdioServerParameters, types
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import ResourcesListChanged, ResourceUpdated, ToolsListChanged

import objmcp
import objmcp.testing

LAB = Path(__file__).resolve().parents[1] / "servers" / "lab.py"
sys.path.insert(0, str(LAB.parent))
from lab import Gadget, Lab, serve  # noqa: E402

MODERN = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId"

pytestmark = pytest.mark.anyio


def params(*options: str) -> StdioServerParameters:
    return stdio_server(LAB, *options)


def text_of(result: Any) -> str:
    assert not result.is_error, result
    return "".join(block.text for block in result.content)


class Heard:
    """The notifications a handshake-era SDK client received, as they came."""

    def __init__(self) -> None:
        self.messages: list[Any] = []
        self.arrived = anyio.Event()

    async def __call__(self, message: Any) -> None:
        if isinstance(message, types.ServerNotification):
            self.messages.append(message)
            self.arrived.set()

    async def next(self, kind: type[Any]) -> Any:
        """The first notification of ``kind`` not taken yet, waited for."""
        with anyio.fail_after(10):
            while True:
                for index, message in enumerate(self.messages):
                    if isinstance(message, kind):
                        return self.messages.pop(index)
                self.arrived = anyio.Event()
                await self.arrived.wait()


async def test_handshake_clients_hear_the_lists_change() -> None:
    heard = Heard()
    # the lab has no prompts until its annex opens: it is told to declare them
    async with Client(params("declare=prompts"), mode="legacy", message_handler=heard) as client:
        capabilities = client.session.initialize_result.capabilities  # type: ignore[attr-defined]
        before = [tool.name for tool in (await client.list_tools()).tools]
        assert json.loads(text_of(await client.call_tool("install", {"label": "fan"}))) == [
            "fan_spin"
        ]
        await heard.next(types.ToolListChangedNotification)
        during = [tool.name for tool in (await client.list_tools()).tools]
        spun = text_of(await client.call_tool("fan_spin", {"times": 3}))
        await client.call_tool("uninstall", {"name": "fan_spin"})
        await heard.next(types.ToolListChangedNotification)
        after = [tool.name for tool in (await client.list_tools()).tools]
        with pytest.raises(MCPError) as gone:
            await client.call_tool("fan_spin", {"times": 3})

        await client.call_tool("open_annex", {})
        await heard.next(types.ResourceListChangedNotification)
        await heard.next(types.PromptListChangedNotification)
        motto = await client.read_resource("annex://motto")
        prompts = [prompt.name for prompt in (await client.list_prompts()).prompts]
        await client.call_tool("close_annex", {})
        await heard.next(types.ResourceListChangedNotification)
        with pytest.raises(MCPError) as closed:
            await client.read_resource("annex://motto")
    assert capabilities.tools.list_changed is True
    assert capabilities.resources.list_changed is True and capabilities.resources.subscribe
    assert capabilities.prompts.list_changed is True
    assert "fan_spin" not in before and during == [*before, "fan_spin"] and after == before
    assert spun == "fan spun 3 times"
    assert gone.value.error.code == -32602 and "Unknown tool: fan_spin" in str(gone.value)
    assert motto.contents[0].text == "Measure twice"  # type: ignore[union-attr]
    assert prompts == ["cheer"]
    assert closed.value.error.code == -32002


@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")
async def test_handshake_clients_hear_of_the_resources_they_subscribed_to() -> None:
    heard = Heard()
    async with Client(params(), mode="legacy", message_handler=heard) as client:
        await client.subscribe_resource("readings://1")
        await client.call_tool("record", {"number": 1, "value": "hot"})
        first = await heard.next(types.ResourceUpdatedNotification)
        await client.call_tool("record_async", {"number": 1, "value": "hotter"})
        second = await heard.next(types.ResourceUpdatedNotification)
        await client.call_tool("record_elsewhere", {"number": 1, "value": "hottest"})
        third = await heard.next(types.ResourceUpdatedNotification)
        read = await client.read_resource("readings://1")
        with pytest.raises(MCPError) as unknown:
            await client.subscribe_resource("nowhere://1")
    assert [str(n.params.uri) for n in (first, second, third)] == ["readings://1"] * 3
    assert read.contents[0].text == "hottest"  # type: ignore[union-attr]
    assert unknown.value.error.code == -32002
    # readings://all changed too, but nobody subscribed to it
    updated = [m for m in heard.messages if isinstance(m, types.ResourceUpdatedNotification)]
    assert updated == []


async def test_modern_clients_hear_what_their_listen_stream_asked_for() -> None:
    async with (
        Client(params(), mode="2026-07-28") as client,
        client.listen(
            tools_list_changed=True,
            prompts_list_changed=True,  # the lab has no prompts: not honored
            resources_list_changed=True,
            resource_subscriptions=["readings://2", "nowhere://1"],
        ) as stream,
    ):
        honored = stream.honored
        await client.call_tool("install", {"label": "fan"})
        installed = await anext(stream)
        await client.call_tool("record", {"number": 2, "value": "hot"})
        updated = await anext(stream)
        await client.call_tool("open_annex", {})
        opened = await anext(stream)
        tools = [tool.name for tool in (await client.list_tools()).tools]
    assert honored.tools_list_changed and honored.resources_list_changed
    assert not honored.prompts_list_changed
    assert honored.resource_subscriptions == ["readings://2"]
    assert installed == ToolsListChanged()
    assert updated == ResourceUpdated("readings://2")  # readings://all was not asked for
    assert opened == ResourcesListChanged()
    assert "fan_spin" in tools


def listen(request_id: object, **notifications: object) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "subscriptions/listen",
        "params": {"_meta": MODERN, "notifications": notifications},
    }


def modern_call(request_id: int, tool: str, **arguments: object) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"_meta": MODERN, "name": tool, "arguments": arguments},
    }


def test_listen_streams_on_the_wire_and_their_graceful_end() -> None:
    server = RawServer(str(LAB))
    try:
        ack = server.request(
            listen("s1", toolsListChanged=True, resourceSubscriptions=["readings://1"])
        )
        assert ack == {
            "jsonrpc": "2.0",
            "method": "notifications/subscriptions/acknowledged",
            "params": {
                "_meta": {SUBSCRIPTION: "s1"},
                "notifications": {
                    "toolsListChanged": True,
                    "resourceSubscriptions": ["readings://1"],
                },
            },
        }
        second = server.request(listen(7, resourceSubscriptions=["readings://1"]))
        assert second["params"]["_meta"] == {SUBSCRIPTION: 7}
        reused = server.request(modern_call(7, "record", number=1, value="x"))
        assert reused["id"] == 7 and reused["error"]["code"] == -32600  # the stream holds id 7

        server.send(modern_call(1, "record", number=1, value="hot"))
        heard = [server.read(), server.read(), server.read()]
        assert heard[2]["id"] == 1 and heard[2]["result"]["content"][0]["text"] == "hot"
        assert {m["params"]["_meta"][SUBSCRIPTION] for m in heard[:2]} == {7, "s1"}
        assert all(
            m["method"] == "notifications/resources/updated"
            and m["params"]["uri"] == "readings://1"
            for m in heard[:2]
        )

        # the client ends stream 7; only s1 hears of the next change
        server.send(
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}}
        )
        server.send(modern_call(2, "record", number=1, value="hotter"))
        only = server.read()
        assert only["params"]["_meta"] == {SUBSCRIPTION: "s1"}
        assert server.read()["id"] == 2

        bad = server.request(listen(8, toolsListChanged="yes"))
        assert bad["id"] == 8 and bad["error"]["code"] == -32602
        missing = server.request(
            {
                "jsonrpc": "2.0",
                "id": 9,
                "method": "subscriptions/listen",
                "params": {"_meta": MODERN},
            }
        )
        assert missing["error"]["code"] == -32602

        out, err, status = server.close()
        ending = [json.loads(line) for line in out.splitlines()]
        assert ending == [
            {
                "jsonrpc": "2.0",
                "id": "s1",
                "result": {
                    "resultType": "complete",
                    "_meta": {
                        "io.modelcontextprotocol/serverInfo": {"name": "lab", "version": "1.0.0"},
                        SUBSCRIPTION: "s1",
                    },
                },
            },
            {
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": "s1", "reason": "The server is shutting down"},
            },
        ], err.decode()
        assert status == 0
    finally:
        if server.process.poll() is None:
            server.process.kill()


def test_subscribing_is_of_its_era() -> None:
    server = RawServer(str(LAB))
    try:
        declared = server.initialize("2025-11-25")["capabilities"]
        plain = listen(1, toolsListChanged=True)
        del plain["params"]["_meta"]
        refused = server.request(plain)
        assert refused["error"]["code"] == -32601  # a handshake session has no listen
        subscribed = server.request(
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "resources/subscribe",
                "params": {"uri": "readings://2"},
            }
        )
        assert subscribed == {"jsonrpc": "2.0", "id": 2, "result": {}}
        server.send(
            {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "tools/call",
                "params": {"name": "record", "arguments": {"number": 2, "value": "a"}},
            }
        )
        assert server.read() == {
            "jsonrpc": "2.0",
            "method": "notifications/resources/updated",
            "params": {"uri": "readings://2"},
        }
        assert server.read()["id"] == 3
        unsubscribed = server.request(
            {
                "jsonrpc": "2.0",
                "id": 4,
                "method": "resources/unsubscribe",
                "params": {"uri": "readings://2"},
            }
        )
        assert unsubscribed["result"] == {}
        answer = server.request(
            {
                "jsonrpc": "2.0",
                "id": 5,
                "method": "tools/call",
                "params": {"name": "record", "arguments": {"number": 2, "value": "b"}},
            }
        )
        assert answer["id"] == 5  # no notification came before it
        no_uri = server.request(
            {"jsonrpc": "2.0", "id": 6, "method": "resources/subscribe", "params": {}}
        )
        assert no_uri["error"]["code"] == -32602
        # prompts were not declared at initialize: the annex's prompt stays out of this
        # session (no prompts/list_changed, prompts/list empty), its resource comes in
        assert "prompts" not in declared
        server.send(
            {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "open_annex"}}
        )
        assert server.read()["method"] == "notifications/resources/list_changed"
        assert server.read()["id"] == 7
        prompts = server.request({"jsonrpc": "2.0", "id": 8, "method": "prompts/list"})
        assert prompts["result"] == {"prompts": []}
        got = {"name": "cheer", "arguments": {"who": "Ada"}}
        prompt = server.request({"jsonrpc": "2.0", "id": 9, "method": "prompts/get", "params": got})
        assert prompt["error"]["code"] == -32601
    finally:
        server.close()


async def test_a_resource_says_how_long_its_reads_may_be_cached() -> None:
    async with objmcp.testing.connect(Lab(), era="modern") as client:
        one = await client.request("resources/read", {"uri": "readings://1"})
        every = await client.request("resources/read", {"uri": "readings://all"})
    assert (one["ttlMs"], one["cacheScope"]) == (30_000, "public")
    assert (every["ttlMs"], every["cacheScope"]) == (0, "private")  # the default
    with pytest.raises(ValueError, match="milliseconds"):
        objmcp.resource("a://b", cache=(-1, "public"))
    with pytest.raises(ValueError, match="milliseconds"):
        objmcp.resource("a://b", cache=(10, "everyone"))  # type: ignore[arg-type]


async def test_a_server_changed_from_another_thread_tells_its_clients() -> None:
    lab = Lab()
    server = serve(lab)
    async with objmcp.testing.connect(server) as client:
        before = {tool["name"] for tool in await client.list_tools()}

        def elsewhere() -> None:
            server.add(Gadget("fan"), tools={"spin": {"name": "fan_spin"}})
            server.notify_resource_updated("readings://1")  # nobody subscribed: nothing sent

        worker = threading.Thread(target=elsewhere)
        worker.start()
        await anyio.to_thread.run_sync(worker.join)
        after = {tool["name"] for tool in await client.list_tools()}
        changed = [n["method"] for n in client.notifications]
        with pytest.raises(objmcp.TargetError, match="already a tool 'fan_spin'"):
            server.add(Gadget("fan"), tools={"spin": {"name": "fan_spin"}})
        with pytest.raises(KeyError, match="nothing published is called 'nothing'"):
            server.remove("nothing")
    assert after - before == {"fan_spin"}
    assert changed == ["notifications/tools/list_changed"]


@pytest.mark.parametrize("declare", [["tools"], "prompts", ["prompts", "roots"]])
def test_only_resources_and_prompts_can_be_declared_in_advance(declare: Any) -> None:
    with pytest.raises(ValueError, match="declare takes 'resources' and/or 'prompts'"):
        objmcp.Server("lab", Lab(), about=objmcp.About(declare=declare))


@pytest.mark.parametrize(("mode", "code"), [("legacy", -32002), ("2026-07-28", -32602)])
async def test_an_unknown_resource_has_the_revisions_error_code(mode: str, code: int) -> None:
    # 2026-07-28 (server/resources): a URI no resource has is invalid params; the handshake
    # revisions answer -32002, as their examples do
    async with Client(params(), mode=mode) as client:
        with pytest.raises(MCPError) as unknown:
            await client.read_resource("nowhere://1")
        await client.call_tool("open_annex", {})
        assert (await client.read_resource("annex://motto")).contents
        await client.call_tool("close_annex", {})
        with pytest.raises(MCPError) as closed:
            await client.read_resource("annex://motto")
    assert unknown.value.error.code == code and "nowhere://1" in str(unknown.value)
    assert closed.value.error.code == code
