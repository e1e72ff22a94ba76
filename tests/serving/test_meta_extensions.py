"""``_meta`` on resources, resource templates, prompts and the server itself, and the MCP
extensions a server declares (SEP-2133): listed in the revisions that have them, declared
at ``initialize`` and ``server/discover``, negotiated per request in 2026-07-28 (and per
connection in the handshake era), and seen by a call as ``objmcp.Context.extensions``.

The atlas (``tests/servers/atlas.py``) is served in memory for the revision matrix, and as
a real process through raw pipes and over Streamable HTTP for the wiring."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import PYTHON, RawServer
from http_helpers import (
    MODERN_META,
    HttpServer,
    events,
    modern,
    modern_headers,
    open_session,
    post,
)

import objmcp
from objmcp.protocol.extensions import declared
from objmcp.testing import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "servers"))

import atlas  # a fixture of tests/servers

ATLAS = Path(atlas.__file__)
LISTED = {"2024-11-05": False, "2025-03-26": False, "2025-06-18": True, "2025-11-25": True}
CLIENT_EXTENSIONS = {atlas.MAPS: {"zoom": 3}, "org.example/unknown": {}}

MODERN_EXTENSIONS = {**atlas.EXTENSIONS, "io.modelcontextprotocol/tasks": {}}
"""What 2026-07-28 declares: the server's extensions and objmcp's own (tasks, SEP-2663)."""


def answer_of(response: Any) -> Any:
    """The JSON-RPC answer of an HTTP response, a JSON body or an SSE stream's last event."""
    if response.headers["content-type"].startswith("text/event-stream"):
        return events(response)[-1]
    return response.json()


def modern_call(request_id: int, tool: str, extensions: dict[str, Any] | None = None) -> Any:
    capabilities = {} if extensions is None else {"extensions": extensions}
    message = modern("tools/call", request_id, name=tool, arguments={})
    message["params"]["_meta"] = {
        **MODERN_META,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    }
    return message


@pytest.mark.anyio
@pytest.mark.parametrize("revision", [*LISTED, "2026-07-28"])
async def test_resources_templates_and_prompts_list_their_meta_where_the_revision_has_it(
    revision: str,
) -> None:
    listed = LISTED.get(revision, True)
    async with connect(atlas.server(), revision=revision) as client:
        resources = (await client.request("resources/list"))["resources"]
        templates = (await client.request("resources/templates/list"))["resourceTemplates"]
        prompts = (await client.request("prompts/list"))["prompts"]
    metas = {
        item.get("uri") or item.get("uriTemplate") or item["name"]: item.get("_meta")
        for item in [*resources, *templates, *prompts]
    }
    expected = {
        "atlas://index": {"com.example/size": 2},
        "atlas://legend": {"com.example/symbols": 1},  # as data
        "atlas://place/{name}": {"com.example/kind": "place"},
        "tour": {"com.example/tone": "calm"},
        "greet": {"com.example/tone": "warm"},  # as data
    }
    assert metas == (expected if listed else dict.fromkeys(expected))


@pytest.mark.anyio
@pytest.mark.parametrize("revision", [*LISTED, "2026-07-28"])
async def test_a_call_sees_the_extensions_both_sides_declared(revision: str) -> None:
    capabilities = {"extensions": CLIENT_EXTENSIONS}
    async with connect(atlas.server(), revision=revision, capabilities=capabilities) as client:
        declared_extensions = client.server_capabilities.get("extensions")
        negotiated = json.loads((await client.call("negotiated")).text)
        where = (await client.call("where", place="Oslo")).text
    if LISTED.get(revision, True):
        # 2026-07-28 also has objmcp's own: the tasks extension (SEP-2663)
        modern = revision == "2026-07-28"
        assert declared_extensions == (MODERN_EXTENSIONS if modern else atlas.EXTENSIONS)
        assert negotiated == {atlas.MAPS: {"zoom": 3}}  # the client's settings; not unknown
        assert where == "[map of Oslo]"
    else:  # a revision before extensions: none declared, none negotiated
        assert declared_extensions is None
        assert negotiated == {}
        assert where == "Oslo is up north"


def test_handshake_over_raw_pipes_declares_extensions_and_the_servers_meta() -> None:
    server = RawServer(str(ATLAS))
    try:
        result = server.initialize("2025-11-25", {"extensions": CLIENT_EXTENSIONS})
        assert result["capabilities"]["extensions"] == atlas.EXTENSIONS
        assert result["_meta"] == atlas.SERVER_META
        listed = server.request({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        tools = {tool["name"]: tool for tool in listed["result"]["tools"]}
        assert tools["negotiated"]["_meta"] == atlas.VIEW
        assert "_meta" not in tools["plain"]
        called = server.request(
            {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "tools/call",
                "params": {"name": "negotiated", "arguments": {}},
            }
        )
        assert json.loads(called["result"]["content"][0]["text"]) == {atlas.MAPS: {"zoom": 3}}
    finally:
        out, err, status = server.close()
    assert (out, status) == (b"", 0), err


def test_an_old_handshake_has_the_servers_meta_but_no_extensions() -> None:
    server = RawServer(str(ATLAS))
    try:
        result = server.initialize("2025-03-26", {"extensions": CLIENT_EXTENSIONS})
        assert "extensions" not in result["capabilities"]
        assert result["_meta"] == atlas.SERVER_META  # every Result may carry a _meta
    finally:
        server.close()


def test_modern_over_raw_pipes_negotiates_each_request_on_its_own() -> None:
    server = RawServer(str(ATLAS))
    try:
        discovered = server.request(modern("server/discover", 1))["result"]
        assert discovered["capabilities"]["extensions"] == MODERN_EXTENSIONS
        assert discovered["_meta"] == {
            **atlas.SERVER_META,
            "io.modelcontextprotocol/serverInfo": {"name": "atlas", "version": "1.0.0"},
        }
        with_maps = server.request(modern_call(2, "negotiated", CLIENT_EXTENSIONS))
        without = server.request(modern_call(3, "negotiated"))
        malformed = server.request(modern_call(4, "negotiated", {atlas.MAPS: "yes"}))
    finally:
        server.close()
    assert json.loads(with_maps["result"]["content"][0]["text"]) == {atlas.MAPS: {"zoom": 3}}
    # nothing carries over from the request before: this one declared none
    assert json.loads(without["result"]["content"][0]["text"]) == {}
    assert json.loads(malformed["result"]["content"][0]["text"]) == {}  # settings not an object


def test_over_http_both_eras_declare_and_negotiate() -> None:
    server = HttpServer(command=[PYTHON, str(ATLAS), "http={port}"])
    try:
        discovered = post(
            server.url, modern("server/discover", 1), **modern_headers("server/discover")
        )
        found = answer_of(discovered)["result"]
        assert found["capabilities"]["extensions"] == MODERN_EXTENSIONS
        assert found["_meta"]["com.example/build"] == "42"
        headers = modern_headers("tools/call", "where")
        message = modern_call(2, "where", CLIENT_EXTENSIONS)
        message["params"]["arguments"] = {"place": "Lima"}
        mapped = answer_of(post(server.url, message, **headers))
        assert mapped["result"]["content"][0]["text"] == "[map of Lima]"

        session = open_session(server.url, {"extensions": {atlas.MAPS: {}}})
        listed = post(server.url, {"jsonrpc": "2.0", "id": 3, "method": "prompts/list"}, **session)
        prompts = {prompt["name"]: prompt for prompt in answer_of(listed)["result"]["prompts"]}
        assert prompts["tour"]["_meta"] == {"com.example/tone": "calm"}
        call = {
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {"name": "negotiated", "arguments": {}},
        }
        answered = answer_of(post(server.url, call, **session))
        assert json.loads(answered["result"]["content"][0]["text"]) == {atlas.MAPS: {}}
    finally:
        server.stop()


def test_the_options_are_checked_when_the_server_is_made() -> None:
    for name in ("maps", "/maps", "com.example/", "1com.example/maps", "com..example/x", "a/-x"):
        with pytest.raises(ValueError, match="vendor-prefix/name"):
            objmcp.Server("s", atlas.Atlas(), about=objmcp.About(extensions={name: {}}))
    with pytest.raises(TypeError, match="JSON object"):
        objmcp.Server(
            "s", atlas.Atlas(), about=objmcp.About(extensions={"com.example/maps": ["road"]})
        )
    with pytest.raises(TypeError, match="JSON object"):
        objmcp.Server(
            "s",
            atlas.Atlas(),
            about=objmcp.About(extensions={"com.example/maps": {"f": float("nan")}}),
        )
    with pytest.raises(TypeError, match="mapping of extension names"):
        objmcp.Server("s", atlas.Atlas(), about=objmcp.About(extensions=["com.example/maps"]))
    with pytest.raises(ValueError, match="serverInfo"):
        objmcp.Server(
            "s", atlas.Atlas(), about=objmcp.About(meta={"io.modelcontextprotocol/serverInfo": {}})
        )
    with pytest.raises(TypeError, match="meta"):
        objmcp.Server("s", atlas.Atlas(), about=objmcp.About(meta=["not", "a", "mapping"]))
    with pytest.raises(TypeError, match="resource option meta"):
        objmcp.resource("x://y", meta={1: "one"})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="prompt option meta"):
        objmcp.prompt(meta="tone")  # type: ignore[arg-type]
    fine = {"io.modelcontextprotocol/ui": {}, "com.example.mcp/a_b.c-d": {"n": [1]}}
    server = objmcp.Server("s", atlas.Atlas(), about=objmcp.About(extensions=fine))
    assert server.extensions == {**fine, "io.modelcontextprotocol/tasks": {}}  # and objmcp's
    with pytest.raises(ValueError, match="objmcp itself"):
        objmcp.Server(
            "s", atlas.Atlas(), about=objmcp.About(extensions={"io.modelcontextprotocol/tasks": {}})
        )


def test_objmcps_own_extensions_join_the_given_ones_and_keep_their_names() -> None:
    own = {"io.modelcontextprotocol/tasks": {}}
    assert declared({"com.example/maps": {}}, own) == {**own, "com.example/maps": {}}
    with pytest.raises(ValueError, match="objmcp itself"):
        declared({"io.modelcontextprotocol/tasks": {}}, own)


def test_a_call_outside_a_protocol_request_negotiated_nothing() -> None:
    tools = objmcp.Toolbox(atlas.Atlas())
    assert tools.call("negotiated", {}).text == "{}"
