"""One object per caller or per session (``per=``) seen by the official TypeScript SDK's
client over Streamable HTTP (``tests/js/http.mjs``): two users' clients never see each
other's notes, one user's TypeScript and raw sessions share them, and a session the
TypeScript client terminates has its object closed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import PYTHON, ROOT
from http_helpers import HttpServer, call, post
from test_ts_http import call as ts_call
from test_ts_http import result_of, run_http, step

NOTES = ROOT / "tests" / "servers" / "per_notes.py"


def client(label: str, url: str, token: str | None, *steps: dict[str, Any]) -> dict[str, Any]:
    made: dict[str, Any] = {"label": label, "url": url, "steps": list(steps)}
    if token is not None:
        made["headers"] = {"Authorization": f"Bearer {token}"}
    return made


def notes_of(entry: dict[str, Any]) -> dict[str, Any]:
    structured: dict[str, Any] = result_of(entry)["structuredContent"]
    return structured


def raw_session(url: str, token: str) -> dict[str, str]:
    auth = {"authorization": f"Bearer {token}"}
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"},
        },
    }
    opened = post(url, initialize, **auth)
    headers = {
        "mcp-session-id": opened.headers["mcp-session-id"],
        "mcp-protocol-version": "2025-11-25",
        **auth,
    }
    post(url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, **headers)
    return headers


def test_typescript_clients_of_two_users_keep_apart(node: str, tmp_path: Path) -> None:
    log = tmp_path / "ends.jsonl"
    command = [PYTHON, str(NOTES), "{port}", "caller"]
    server = HttpServer(command=command, env={"PER_NOTES_LOG": str(log)})
    try:
        url = server.url
        reports = run_http(
            node,
            [
                client("alice", url, "alice-1", ts_call("add", "add", text="alice's")),
                client("bob", url, "bob", ts_call("read", "read")),
            ],
        )
        alice = notes_of(reports["alice"]["steps"]["add"])
        bob = notes_of(reports["bob"]["steps"]["read"])
        assert (alice["owner"], alice["notes"]) == ("alice", ["alice's"])
        assert (bob["owner"], bob["notes"]) == ("bob", [])
        answer = post(url, call(2, "read"), **raw_session(url, "alice-2"))
        assert answer.json()["result"]["structuredContent"] == alice
    finally:
        server.stop()


def test_a_session_the_typescript_client_terminates_closes_its_object(
    node: str, tmp_path: Path
) -> None:
    log = tmp_path / "ends.jsonl"
    server = HttpServer(
        "--per", "session", target=f"{NOTES}:Notes", env={"PER_NOTES_LOG": str(log)}
    )
    try:
        steps = (
            ts_call("add", "add", text="short-lived"),
            step("end", "terminateSession", {"settle": True}),
        )
        reports = run_http(node, [client("ts", server.url, None, *steps)])
        made = notes_of(reports["ts"]["steps"]["add"])
        assert "error" not in reports["ts"]["steps"]["end"]
        ends = [json.loads(line) for line in log.read_text().splitlines()]
        assert {"event": "closed", "object": made["object"], "owner": None,
                "notes": ["short-lived"]} in ends  # fmt: skip
    finally:
        server.stop()
