"""W3C trace context in a request's ``_meta`` (``traceparent``, ``tracestate``,
``baggage``; 2026-07-28, SEP-414, and any revision's ``_meta``) is accepted and handed to
the call: ``objmcp.Context.meta``, so a tool can continue the client's trace."""

from __future__ import annotations

import json
from typing import Any

import pytest

import objmcp
from objmcp.testing import connect

TRACE = {
    "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    "tracestate": "vendor=opaque",
    "baggage": "user=ada",
}


class Traced:
    """A tool that reports the trace context it was handed."""

    def where(self, context: objmcp.Context) -> str:
        return json.dumps({key: context.meta.get(key) for key in TRACE})


@pytest.mark.anyio
@pytest.mark.parametrize("era", ["handshake", "modern"])
async def test_a_tool_is_handed_the_trace_context_of_its_request(era: Any) -> None:
    async with connect(Traced(), era=era) as client:
        params = {"name": "where", "arguments": {}, "_meta": dict(TRACE)}
        traced = await client.request("tools/call", params)
        untraced = await client.request("tools/call", {"name": "where", "arguments": {}})
    assert json.loads(traced["content"][0]["text"]) == TRACE
    assert json.loads(untraced["content"][0]["text"]) == dict.fromkeys(TRACE)


def test_outside_a_protocol_call_the_meta_is_empty() -> None:
    tools = objmcp.Toolbox(Traced())
    assert json.loads(tools.call("where", {}).text) == dict.fromkeys(TRACE)
