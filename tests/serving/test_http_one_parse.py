"""A POST's body is parsed once: what checks it, routes it and answers it reads the one
parsed message (issue 41). Every parse of a message goes through ``jsontext.parse_message``,
whose two decoders are counted here while real requests of both eras are served."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2 as httpx  # the HTTP client the mcp SDK ships with
import pytest

import objmcp
from objmcp.model.values import jsontext

pytestmark = pytest.mark.anyio
ACCEPT = {"accept": "application/json, text/event-stream"}


class Adder:
    """One tool."""

    def add(self, a: int, b: int) -> int:
        """Add two integers."""
        return a + b


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The parses of JSON text made so far, by the decoder that made them."""
    made: list[str] = []
    scan, decoder = jsontext._scan, jsontext._DECODER

    def counted_scan(text: str, at: int) -> Any:
        made.append("scan")
        return scan(text, at)

    class CountedDecoder:
        def decode(self, text: str) -> Any:
            made.append("decode")
            return decoder.decode(text)

    monkeypatch.setattr(jsontext, "_scan", counted_scan)
    monkeypatch.setattr(jsontext, "_DECODER", CountedDecoder())
    yield made


def message(request_id: int | None, method: str, **params: Any) -> dict[str, Any]:
    found: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
    if request_id is not None:
        found["id"] = request_id
    return found


async def test_a_modern_call_is_parsed_once(parses: list[str]) -> None:
    app = objmcp.asgi_app("parsed", Adder())
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    body = message(1, "tools/call", name="add", arguments={"a": 1, "b": 2}, _meta=meta)
    headers = {
        **ACCEPT,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "add",
    }
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        answer = await client.post("/mcp", json=body, headers=headers)
    await app.aclose()
    assert answer.json()["result"]["content"] == [{"type": "text", "text": "3"}]
    assert parses == ["scan"]


async def test_each_post_of_a_handshake_session_is_parsed_once(parses: list[str]) -> None:
    app = objmcp.asgi_app("parsed", Adder())
    client_info = {"name": "counter", "version": "0"}
    opening = message(
        0, "initialize", protocolVersion="2025-11-25", capabilities={}, clientInfo=client_info
    )
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        opened = await client.post("/mcp", json=opening, headers=ACCEPT)
        session = {
            **ACCEPT,
            "mcp-session-id": opened.headers["mcp-session-id"],
            "mcp-protocol-version": "2025-11-25",
        }
        told = await client.post(
            "/mcp", json=message(None, "notifications/initialized"), headers=session
        )
        called = await client.post(
            "/mcp",
            json=message(1, "tools/call", name="add", arguments={"a": 2, "b": 2}),
            headers=session,
        )
    await app.aclose()
    assert told.status_code == 202
    assert "4" in called.text
    assert parses == ["scan", "scan", "scan"]
