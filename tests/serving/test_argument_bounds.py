"""Hole 3 of issue 36: an argument sent as JSON text counts against ``max_values`` before
it is parsed, and an async tool's large arguments are checked and converted off the event
loop, so that other calls are answered meanwhile. Real server processes (``objmcp run``)
through real pipes."""

from __future__ import annotations

import json
from typing import Any

from conftest import ROOT, RawServer

import objmcp

BOUNDED = f"{ROOT / 'tests' / 'servers' / 'bounded.py'}:Bounded"


def bounded(*options: str) -> RawServer:
    """``objmcp run`` of the Bounded object over stdio, initialized."""
    server = RawServer("-m", "objmcp", "run", BOUNDED, *options)
    server.initialize()
    return server


def tool_call(request_id: int, tool: str, **arguments: Any) -> dict[str, Any]:
    """A ``tools/call`` request."""
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    }


def text_of(answer: dict[str, Any]) -> str:
    """The text of a tool call's answer."""
    return str(answer["result"]["content"][0]["text"])


def test_json_text_over_max_values_is_refused_unparsed_and_the_server_serves_on() -> None:
    server = bounded("--max-values", "1000")
    try:
        over = json.dumps(list(range(1000)))  # the list and its items: 1,001 values
        within = json.dumps(list(range(999)))
        for request_id, tool in enumerate(("total", "atotal")):
            refused = server.request(tool_call(request_id, tool, numbers=over))
            assert refused["id"] == request_id
            assert refused["result"]["isError"] is True
            assert text_of(refused) == (
                "Invalid argument 'numbers': its JSON text holds 1,001 values, over the "
                "server's max_values of 1,000; send fewer at a time"
            )
            taken = server.request(tool_call(10 + request_id, tool, numbers=within))
            assert text_of(taken) == str(sum(range(999)))
        # the texts of one call count together
        half = json.dumps([0] * 499)  # 500 values
        assert text_of(server.request(tool_call(30, "pair", left=half, right=half))) == "998"
        refused = server.request(tool_call(31, "pair", left=half, right=json.dumps([0] * 500)))
        assert "with the other arguments' texts), over the server's max_values of 1,000" in (
            text_of(refused)
        )
        # what the text holds counts, not its commas and brackets inside strings
        rows = json.dumps([['"[{,\\' * 50] * 9] * 99)  # 1 + 99 lists + 891 strings
        assert text_of(server.request(tool_call(20, "cells", rows=rows))) == "891"
        rows = json.dumps([["[]"] * 9] * 100)  # 1 + 100 + 900
        assert "max_values" in text_of(server.request(tool_call(21, "cells", rows=rows)))
    finally:
        server.close()


def test_a_large_async_call_is_converted_while_another_call_is_answered() -> None:
    """The records' conversion waits for ``ping`` (tests/servers/bounded.py): converted on
    the event loop, it would hold ``ping`` back, and ``count`` would be answered first."""
    server = bounded()
    try:
        records = [{"name": "wait"}] + [{"name": f"r{i}"} for i in range(300)]
        server.send(tool_call(1, "count", records=records))
        server.send(tool_call(2, "ping"))
        first, second = server.read(), server.read()
        assert (first["id"], text_of(first)) == (2, "pong")
        assert (second["id"], text_of(second)) == (1, "301 records, pinged first: True")
    finally:
        server.close()


def test_asgi_app_gives_max_values_to_the_server_too() -> None:
    class Small:
        def total(self, numbers: list[int]) -> int:
            """The sum."""
            return sum(numbers)

    app = objmcp.asgi_app("small", Small(), limits=objmcp.Limits(max_values=5))
    assert app.max_values == 5
    refused = app.settings.tools.call("total", {"numbers": "[1, 2, 3, 4, 5]"})
    assert refused.is_error
    assert "max_values of 5" in refused.text
    assert app.settings.tools.call("total", {"numbers": "[1, 2, 3, 4]"}).value == 10
