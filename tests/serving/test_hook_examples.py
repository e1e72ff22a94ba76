"""The hook examples at work: ``examples/rate_limit.py`` in memory (clients told apart by
their ``clientInfo``), ``examples/audit_log.py`` as a real stdio server driven by the
official SDK client (its sync calls take the reader's fast lane, its async one the loop)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from conftest import PYTHON, ROOT
from http_helpers import MODERN_META, modern, modern_headers
from mcp import Client, StdioServerParameters
from mcp_types import Implementation

import objmcp
from objmcp.protocol.modern import CLIENT_INFO_KEY
from objmcp.testing import connect

sys.path.insert(0, str(ROOT / "examples"))
from rate_limit import Counter, RateLimit

pytestmark = pytest.mark.anyio


async def test_the_rate_limit_counts_each_client_apart() -> None:
    async with connect(Counter(), era="modern", hooks=[RateLimit(per_minute=2)]) as client:

        async def bump(who: str) -> dict[str, Any]:
            meta = {CLIENT_INFO_KEY: {"name": who, "version": "1"}}
            return await client.request("tools/call", {"name": "bump", "_meta": meta})

        assert [(await bump("alice"))["content"][0]["text"] for _ in range(2)] == ["1", "2"]
        refused = await bump("alice")
        assert refused["isError"] is True
        assert refused["content"][0]["text"].startswith("Rate limit: 2 calls a minute")
        assert (await bump("bob"))["content"][0]["text"] == "3"  # the counter ran twice before


async def test_the_rate_limit_over_http() -> None:
    app = objmcp.asgi_app("counter", Counter(), hooks=[RateLimit(per_minute=1)])
    headers = {
        "accept": "application/json, text/event-stream",
        **modern_headers("tools/call", "bump"),
    }
    texts = []
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1"
    ) as client:
        for request_id, who in enumerate(["carol", "carol", "dave"]):
            call = modern("tools/call", request_id, name="bump")
            call["params"]["_meta"] = {**MODERN_META, CLIENT_INFO_KEY: {"name": who}}
            answer = await client.post("/mcp", json=call, headers=headers)
            result = answer.json()["result"]
            texts.append((result.get("isError", False), result["content"][0]["text"][:11]))
    await app.aclose()
    assert texts == [(False, "1"), (True, "Rate limit:"), (False, "2")]


async def test_the_audit_log_writes_a_line_per_call_of_a_real_server(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    server = StdioServerParameters(
        command=PYTHON,
        args=[str(ROOT / "examples" / "audit_log.py")],
        env={"PYTHONPATH": str(ROOT), "AUDIT_LOG": str(log)},
    )
    me = Implementation(name="auditor", version="1.0")
    async with Client(server, mode="legacy", client_info=me) as client:
        await client.call_tool("put", {"name": "door", "value": "1234"})
        assert (await client.call_tool("get", {"name": "door"})).content[0].text == "1234"
        missing = await client.call_tool("get", {"name": "safe"})
        assert missing.is_error
        assert (await client.call_tool("names", {})).content[0].text == '["door"]'
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(line["tool"], line["ok"], line["error"]) for line in lines] == [
        ("put", True, None),
        ("get", True, None),
        ("get", False, "KeyError"),
        ("names", True, None),
    ]
    assert lines[0]["arguments"] == {"name": "door", "value": "1234"}
    assert {line["client"] for line in lines} == {"auditor"}
    assert len({line["request"] for line in lines}) == 4
    assert all(line["protocol"] and line["ms"] >= 0 for line in lines)
