"""Long lists come in pages with opaque cursors, and cacheable results carry the caching
hints the server was given: through the official SDK client (both eras, a real server
process) and on the wire."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from conftest import ZOO, stdio_server
from hypothesis import given
from hypothesis import strategies as st
from mcp import Client

import objmcp
from objmcp.protocol.session import ServerInfo, Session

pytestmark = pytest.mark.anyio


MODERN = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_sdk_client_walks_the_pages_and_gets_every_tool(mode: str) -> None:
    params = stdio_server(ZOO, "auto", "page_size=4")
    whole = stdio_server(ZOO)
    async with Client(whole, mode=mode) as client:
        expected = [tool.name for tool in (await client.list_tools()).tools]
    names: list[str] = []
    pages = 0
    async with Client(params, mode=mode) as client:
        cursor = None
        while True:
            page = await client.list_tools(cursor=cursor)
            pages += 1
            assert len(page.tools) <= 4
            names += [tool.name for tool in page.tools]
            cursor = page.next_cursor
            if cursor is None:
                break
    assert names == expected and len(expected) > 8
    assert pages == -(-len(expected) // 4)


def _constant(number: int) -> Any:
    def tool() -> int:
        return number

    return tool


MANY = {f"tool_{number}": _constant(number) for number in range(10)}


def session(**options: Any) -> Session:
    return Session(objmcp.Toolbox(MANY), ServerInfo("many"), **options)


def listing(session: Session, cursor: object = None, modern: bool = True) -> dict[str, Any]:
    params: dict[str, Any] = {"_meta": MODERN} if modern else {}
    if cursor is not None:
        params["cursor"] = cursor
    (sent,) = session.receive({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params})
    return sent.message  # type: ignore[attr-defined,no-any-return]


@given(st.integers(1, 12))
def test_pages_cover_the_list_once_in_order(size: int) -> None:
    paged = session(page_size=size)
    names: list[str] = []
    cursor = None
    while True:
        result = listing(paged, cursor)["result"]
        assert len(result["tools"]) <= size
        names += [tool["name"] for tool in result["tools"]]
        cursor = result.get("nextCursor")
        if cursor is None:
            break
    assert names == [f"tool_{number}" for number in range(10)]


@given(st.text() | st.integers() | st.none() | st.lists(st.integers()))
def test_a_cursor_we_did_not_make_is_invalid_params(cursor: object) -> None:
    paged = session(page_size=3)
    made = listing(paged)["result"]["nextCursor"]
    if cursor is None or cursor == made:
        return
    answer = listing(paged, cursor)
    assert answer["error"]["code"] == -32602
    assert "cursor" in answer["error"]["message"]


def test_a_cursor_of_another_list_or_past_the_end_is_refused() -> None:
    paged = session(page_size=3)
    other = base64.urlsafe_b64encode(b"prompts/list|3").decode().rstrip("=")
    past = base64.urlsafe_b64encode(b"tools/list|99").decode().rstrip("=")
    for cursor in (other, past):
        assert listing(paged, cursor)["error"]["code"] == -32602


def test_caching_hints_are_private_and_stale_unless_given() -> None:
    plain = listing(session())["result"]
    assert (plain["ttlMs"], plain["cacheScope"]) == (0, "private")
    assert "nextCursor" not in plain and len(plain["tools"]) == 10
    hinted = session(cache={"tools/list": (60_000, "public")})
    result = listing(hinted)["result"]
    assert (result["ttlMs"], result["cacheScope"]) == (60_000, "public")
    assert "ttlMs" not in listing(hinted, modern=False).get("result", {})
