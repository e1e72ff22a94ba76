"""What the code reading finds, through real servers (issue 38): a module of innocent names
served whole over stdio and over HTTP. Its function that evaluates an argument is withheld on
both; the one that sets a process-wide default is served on stdio (one client: its own
setting), said on the start-up line and annotated, and withheld over HTTP unless named."""

from __future__ import annotations

import subprocess
from typing import Any

from conftest import PYTHON, ROOT, ZOO, RawServer, server_env
from http_helpers import HttpServer, modern, modern_headers, post

INNOCENT = str(ZOO.parent / "innocent.py")
EVALUATING = {"total", "measure", "load_plugin"}
HARMFUL = {*EVALUATING, "tidy", "refresh_env", "restore"}


def listed(server: RawServer) -> dict[str, dict[str, Any]]:
    server.initialize()
    answer = server.request({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    return {tool["name"]: tool for tool in answer["result"]["tools"]}


def call(server: RawServer, name: str, **arguments: Any) -> Any:
    params = {"name": name, "arguments": arguments}
    return server.request({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": params})


def test_on_stdio_code_that_evaluates_is_withheld_and_a_setting_is_served_and_said() -> None:
    server = RawServer("-m", "objmcp", "run", INNOCENT)
    try:
        tools = listed(server)
        assert not HARMFUL & set(tools), sorted(HARMFUL & set(tools))
        assert {"currency", "price", "rates", "summary", "use_currency"} <= set(tools)
        assert tools["use_currency"]["annotations"] == {
            "readOnlyHint": False,
            "destructiveHint": False,
        }
        refused = call(server, "total", expression="__import__('os').getpid()")
        assert refused["error"]["code"] == -32602 and "total" in refused["error"]["message"]
        assert call(server, "use_currency", code="USD")["result"]["isError"] is False
        assert "USD" in call(server, "currency")["result"]["content"][0]["text"]
    finally:
        _, stderr, _ = server.close()
    said = stderr.decode()
    assert "total" in said and "evaluates code: its code calls eval, in total" in said
    assert "tidy" in said and "calls os.remove, in _sweep, reached from tidy" in said
    serving = next(line for line in said.splitlines() if "serving 1 tool that may do harm" in line)
    assert "use_currency" in serving and "process-wide setting" in serving


def test_a_name_given_in_full_serves_it_with_its_annotations() -> None:
    server = RawServer("-m", "objmcp", "run", INNOCENT, "--include", "total", "--include", "price")
    try:
        tools = listed(server)
        assert set(tools) == {"total", "price"}
        assert tools["total"]["annotations"] == {"readOnlyHint": False, "destructiveHint": True}
        answer = call(server, "total", expression="12.5 + 7")
        assert answer["result"]["content"][0]["text"] == "19.5"
    finally:
        _, stderr, _ = server.close()
    assert "total (evaluates code" in stderr.decode()


def http_tools(server: HttpServer) -> set[str]:
    answer = post(server.url, modern("tools/list"), **modern_headers("tools/list")).json()
    return {tool["name"] for tool in answer["result"]["tools"]}


def test_over_http_a_process_setting_is_withheld_unless_named() -> None:
    server = HttpServer(target=INNOCENT)
    try:
        tools = http_tools(server)
    finally:
        _, stderr = server.stop()
    assert "use_currency" not in tools and not HARMFUL & tools
    assert {"currency", "price"} <= tools
    withheld = [line for line in stderr.splitlines() if "left out" in line]
    assert any("use_currency" in line and "process-wide setting" in line for line in withheld)
    named = HttpServer("--include", "use_currency", target=INNOCENT)
    try:
        assert http_tools(named) == {"use_currency"}
    finally:
        named.stop()


def test_the_bench_lists_what_the_reading_finds() -> None:
    """``bench/effects.py`` (the zoos' false-positive measure), run on one target."""
    done = subprocess.run(
        [PYTHON, "bench/effects.py", "--target", INNOCENT],
        cwd=ROOT,
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    found = {line.split(": ")[1] for line in done.stdout.splitlines() if ": its code " in line}
    assert found == HARMFUL | {"use_currency"}, done.stdout
    assert "1 targets" in done.stdout and "withheld 0 by the table" in done.stdout
