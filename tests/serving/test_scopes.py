"""Per-tool scopes over HTTP (the ASGI app through httpx): a caller whose token lacks a
tool's scopes gets the spec's step-up challenge (403, ``insufficient_scope``) for that
call and does not see the tool listed, in both eras; on stdio scopes do not apply."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import httpx2 as httpx  # the HTTP client the mcp SDK ships with
import pytest
from http_helpers import initialize_message, modern, modern_headers

import objmcp
import objmcp.testing

pytestmark = pytest.mark.anyio

ACCEPT = {"accept": "application/json, text/event-stream"}
TOKENS = {
    "reader": {"sub": "rita", "scope": "notes:read"},
    "writer": {"sub": "will", "scope": "notes:read notes:write"},
}


class Notes:
    """Notes, some of them guarded."""

    def read(self) -> str:
        """Every caller may read."""
        return "read"

    @objmcp.tool(scopes=["notes:write"])
    def write(self, text: str) -> str:
        """Only with notes:write."""
        return f"wrote {text}"

    def wipe(self) -> str:
        """Only with notes:admin (said as data)."""
        return "wiped"


def _app(
    discovery: objmcp.Discovery | None = None, authorization_servers: Sequence[str] = ()
) -> objmcp.McpApp:
    return objmcp.asgi_app(
        "notes",
        Notes(),
        tools={"wipe": {"scopes": ["notes:admin"]}},
        discovery=discovery,
        auth=objmcp.Auth(
            verify=lambda token: TOKENS.get(token, {}),
            authorization_servers=authorization_servers,
        ),
    )


def _client(app: objmcp.McpApp) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1")


async def _modern(
    client: httpx.AsyncClient, token: str, method: str, name: str | None = None, **params: Any
) -> httpx.Response:
    headers = {**ACCEPT, "authorization": f"Bearer {token}", **modern_headers(method, name)}
    if name is not None:
        params["name"] = name
    return await client.post("/mcp", json=modern(method, 1, **params), headers=headers)


def _names(listed: dict[str, Any]) -> list[str]:
    return [tool["name"] for tool in listed["result"]["tools"]]


async def test_a_modern_caller_sees_and_calls_only_what_its_scopes_reach() -> None:
    app = _app()
    async with _client(app) as client:
        reader_list = await _modern(client, "reader", "tools/list")
        writer_list = await _modern(client, "writer", "tools/list")
        refused = await _modern(client, "reader", "tools/call", "write", arguments={"text": "x"})
        wrote = await _modern(client, "writer", "tools/call", "write", arguments={"text": "x"})
        wiping = await _modern(client, "writer", "tools/call", "wipe", arguments={})
        reading = await _modern(client, "reader", "tools/call", "read", arguments={})
    await app.aclose()
    assert _names(reader_list.json()) == ["read"]
    assert _names(writer_list.json()) == ["read", "write"]
    assert reader_list.json()["result"]["cacheScope"] == "private"  # each caller's own list
    assert refused.status_code == 403
    assert refused.headers["www-authenticate"] == (
        'Bearer error="insufficient_scope", scope="notes:write"'
    )
    assert wrote.json()["result"]["content"][0]["text"] == "wrote x"
    assert wiping.status_code == 403
    assert 'scope="notes:admin"' in wiping.headers["www-authenticate"]
    assert reading.json()["result"]["content"][0]["text"] == "read"


async def test_a_handshake_session_lists_per_caller_and_points_to_the_metadata() -> None:
    app = _app(authorization_servers=["https://auth.example"])
    async with _client(app) as client:

        def as_(token: str, **more: str) -> dict[str, str]:
            return {**ACCEPT, "authorization": f"Bearer {token}", **more}

        opened = await client.post("/mcp", json=initialize_message(), headers=as_("reader"))
        session = {"mcp-session-id": opened.headers["mcp-session-id"]}
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        listed = await client.post("/mcp", json=listing, headers=as_("reader", **session))
        call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call"}
        call["params"] = {"name": "write", "arguments": {"text": "x"}}
        refused = await client.post("/mcp", json=call, headers=as_("reader", **session))
        after = await client.post("/mcp", json=listing, headers=as_("reader", **session))
    await app.aclose()
    assert _names(listed.json()) == ["read"]
    assert refused.status_code == 403
    assert refused.headers["www-authenticate"] == (
        'Bearer error="insufficient_scope", scope="notes:write", resource_metadata='
        '"http://127.0.0.1/.well-known/oauth-protected-resource/mcp"'
    )
    assert after.status_code == 200  # the session goes on


async def test_scopes_do_not_apply_without_a_caller() -> None:
    async with objmcp.testing.connect(Notes()) as stdio:
        listed = [tool["name"] for tool in await stdio.list_tools()]
        wrote = await stdio.call("write", text="y")
    assert listed == ["read", "write", "wipe"]
    assert wrote.text == "wrote y"
    app = objmcp.asgi_app("notes", Notes())  # no token asked: no caller
    async with _client(app) as client:
        headers = {**ACCEPT, **modern_headers("tools/list")}
        open_list = await client.post("/mcp", json=modern("tools/list", 1), headers=headers)
    await app.aclose()
    assert _names(open_list.json()) == ["read", "write", "wipe"]


def test_scopes_are_a_list_of_names() -> None:
    for wrong in ("notes:write", ["two words"], [""], [3]):
        with pytest.raises(TypeError):
            objmcp.ToolOptions(scopes=wrong)  # type: ignore[arg-type]
    assert objmcp.ToolOptions(scopes=["a", "b"]).scopes == ("a", "b")


async def test_call_tool_in_search_mode_is_held_to_the_scopes_of_the_tool_it_names() -> None:
    app = _app(discovery=objmcp.Discovery(mode="search"))
    async with _client(app) as client:
        through = {"name": "write", "arguments": {"text": "z"}}
        refused = await _modern(client, "reader", "tools/call", "call_tool", arguments=through)
        wrote = await _modern(client, "writer", "tools/call", "call_tool", arguments=through)
    await app.aclose()
    assert refused.status_code == 403
    assert wrote.json()["result"]["content"][0]["text"] == "wrote z"


async def test_search_mode_tells_a_caller_only_of_the_tools_it_reaches() -> None:
    app = _app(discovery=objmcp.Discovery(mode="search"))
    async with _client(app) as client:
        found = {}
        for token in ("reader", "writer"):
            searched = await _modern(
                client, token, "tools/call", "search_tools", arguments={"query": "only with"}
            )
            found[token] = searched.json()["result"]["content"][0]["text"]
        described = await _modern(
            client, "reader", "tools/call", "describe_tools", arguments={"names": ["write"]}
        )
        listed = await _modern(client, "reader", "tools/list")
    await app.aclose()
    assert '"write"' in found["writer"] and '"write"' not in found["reader"]
    assert '"wipe"' not in found["writer"]
    assert "no tool is called so" in described.json()["result"]["content"][0]["text"]
    assert "caller" not in json.dumps(listed.json()["result"]["tools"])  # hidden, injected


async def test_a_fixed_token_grants_no_scope() -> None:
    app = objmcp.asgi_app("notes", Notes(), auth=objmcp.Auth(token="fixed"))
    async with _client(app) as client:
        listed = await _modern(client, "fixed", "tools/list")
        refused = await _modern(client, "fixed", "tools/call", "write", arguments={"text": "x"})
    await app.aclose()
    assert _names(listed.json()) == ["read", "wipe"]
    assert refused.status_code == 403
