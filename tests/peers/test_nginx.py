"""Two ``objmcp run --http`` processes behind a real nginx (from Debian's packages; the
test script installs it when missing), configured as the README says:

- a handshake-era session's requests go to the process that holds it, by the route tag
  its ``Mcp-Session-Id`` starts with (``--route``);
- everything else (``initialize``, and every 2026-07-28 request) goes round-robin, so a
  modern call that asks is retried on the other process, which replays it.

Spoken to by the official Python SDK client through nginx, and by raw HTTP where which
process answered is the point."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from http_helpers import (
    WORKERS,
    HttpServer,
    ask_where,
    call,
    free_port,
    modern_headers,
    open_session,
    read_event,
)
from mcp import Client, types

pytestmark = pytest.mark.anyio

CONFIG = """
worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log {dir}/access.log;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;

    # A session's requests go to the process whose route tag starts its id; the rest
    # (initialize, and 2026-07-28 requests, which need no affinity) round-robin.
    map $http_mcp_session_id $mcp_upstream {{
        "~^a\\." mcp_a;
        "~^b\\." mcp_b;
        default mcp_any;
    }}
    upstream mcp_a {{ server 127.0.0.1:{a}; }}
    upstream mcp_b {{ server 127.0.0.1:{b}; }}
    upstream mcp_any {{ server 127.0.0.1:{a}; server 127.0.0.1:{b}; }}

    server {{
        listen 127.0.0.1:{port};
        location /mcp {{
            proxy_pass http://$mcp_upstream;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_buffering off;          # SSE events go out as they come
            proxy_read_timeout 1h;        # calls may wait for the user that long
        }}
    }}
}}
"""


def nginx() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if found is None:
        pytest.fail(
            "nginx is not installed: `apt-get install nginx-light` (scripts/test.sh does "
            "this when it runs as root)",
            pytrace=False,
        )
    return found


class Proxied:
    """nginx on 127.0.0.1 in front of two objmcp processes, routes ``a`` and ``b``."""

    def __init__(self, folder: Path) -> None:
        key = {"OBJMCP_STATE_KEY": "both-processes-share-it"}
        self.backends = [
            HttpServer("--route", route, target=f"{WORKERS}:Workers", env=key)
            for route in ("a", "b")
        ]
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        a, b = (backend.port for backend in self.backends)
        (folder / "nginx.conf").write_text(
            CONFIG.format(dir=folder, a=a, b=b, port=self.port), encoding="utf-8"
        )
        self.process = subprocess.Popen(
            [nginx(), "-p", str(folder), "-c", str(folder / "nginx.conf")],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self.folder = folder
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.process.communicate()[1].decode()
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise AssertionError("nginx did not start")

    @property
    def pids(self) -> set[int]:
        return {backend.process.pid for backend in self.backends}

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=20)
        for backend in self.backends:
            backend.stop()


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxied]:
    started = Proxied(tmp_path_factory.mktemp("nginx"))
    yield started
    started.stop()
    log = (started.folder / "error.log").read_text(encoding="utf-8")
    assert "[emerg]" not in log and "[alert]" not in log, log


def pid_of(result: Any) -> int:
    pid: int = result.structured_content["result"]
    return pid


async def test_each_handshake_session_stays_with_the_process_that_holds_it(
    proxied: Proxied,
) -> None:
    asked: list[str] = []

    async def answer(context: Any, request: types.ElicitRequestParams) -> Any:
        asked.append(request.message)
        return types.ElicitResult(action="accept", content={"value": True})

    served: list[set[int]] = []
    texts: list[str] = []
    for _ in range(4):
        async with Client(proxied.url, mode="legacy", elicitation_callback=answer) as client:
            pids = {pid_of(await client.call_tool("pid", {})) for _ in range(3)}
            asked_at = len(asked)
            result = await client.call_tool("ask_where", {})
            texts.append(result.content[0].text)  # type: ignore[union-attr]
            (pid,) = pids  # every request of the session reached one process...
            assert asked[asked_at:] == [f"Sure? (asked by {pid})"]  # ...its question too
            assert texts[-1] == f"accept:True (answered by {pid})"  # and the answer
            served.append(pids)
    # initialize went round-robin: the sessions live in both processes
    assert set().union(*served) == proxied.pids


async def test_modern_requests_go_round_robin_and_a_question_crosses_processes(
    proxied: Proxied,
) -> None:
    async with Client(proxied.url, mode="2026-07-28") as client:
        pids = [pid_of(await client.call_tool("pid", {})) for _ in range(4)]
    assert set(pids) == proxied.pids

    accept = {"accept": "application/json, text/event-stream"}
    headers = {**accept, **modern_headers("tools/call", "ask_where")}
    asked = httpx.post(proxied.url, json=ask_where(1), headers=headers, timeout=20).json()
    state = asked["result"]["requestState"]
    question = next(iter(asked["result"]["inputRequests"].values()))["params"]["message"]
    answers = {"q0": {"action": "accept", "content": {"value": True}}}
    retry = ask_where(2, requestState=state, inputResponses=answers)
    answered = httpx.post(proxied.url, json=retry, headers=headers, timeout=20).json()
    text = answered["result"]["content"][0]["text"]
    asker = int(question.removeprefix("Sure? (asked by ").removesuffix(")"))
    answerer = int(text.removeprefix("accept:True (answered by ").removesuffix(")"))
    # nginx alternates: the retry reached the other process, which replayed the call
    assert {asker, answerer} == proxied.pids


def test_a_lost_stream_is_resumed_through_nginx(proxied: Proxied) -> None:
    url = proxied.url
    headers = open_session(url, {"elicitation": {"form": {}}})
    sent = {"accept": "application/json, text/event-stream", **headers}
    with (
        httpx.Client(timeout=20) as client,
        client.stream("POST", url, json=call(5, "ask_where"), headers=sent) as stream,
    ):
        lines = stream.iter_lines()
        read_event(lines)  # priming
        question = read_event(lines)
    asked = json.loads(question["data"])
    accepted = {"action": "accept", "content": {"value": True}}
    reply = {"jsonrpc": "2.0", "id": asked["id"], "result": accepted}
    assert httpx.post(url, json=reply, headers=sent, timeout=20).status_code == 202
    resume = {**headers, "accept": "text/event-stream", "last-event-id": question["id"]}
    resumed = httpx.get(url, headers=resume, timeout=20)
    answer = json.loads(read_event(iter(resumed.text.splitlines()))["data"])
    pid = asked["params"]["message"].removeprefix("Sure? (asked by ").removesuffix(")")
    assert answer["id"] == 5
    assert answer["result"]["content"][0]["text"] == f"accept:True (answered by {pid})"
