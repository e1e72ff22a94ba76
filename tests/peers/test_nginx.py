"""Two ``objmcp run --http`` processes behind a real nginx (from Debian's packages; the
test script installs it when missing), configured as docs/guides/http-and-deploying.md says:

- a handshake-era session's requests go to the process that holds it, by the route tag
  its ``Mcp-Session-Id`` starts with (``--route``);
- a 2026-07-28 ``tasks/get``, ``tasks/update`` or ``tasks/cancel`` goes to the process that
  holds the task, by the route tag its id (the ``Mcp-Name`` header) starts with; when that
  process is gone, nginx answers 502, and once it is back its tasks are unknown (-32602);
- everything else (``initialize``, and every other 2026-07-28 request) goes round-robin, so
  a modern call that asks is retried on the other process, which replays it.

Spoken to by the official Python SDK client through nginx, and by raw HTTP where which
process answered is the point."""

from __future__ import annotations

import json
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from conftest import PYTHON, server_env
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
from task_helpers import nginx

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

    # A session's requests go to the process whose route tag starts its id, and so do
    # the 2026-07-28 tasks/* requests, by their task's id (Mcp-Name); the rest
    # (initialize, and other 2026-07-28 requests, which need no affinity) round-robin.
    map $http_mcp_method $mcp_task {{
        "~^tasks/" $http_mcp_name;
        default "";
    }}
    map $http_mcp_session_id$mcp_task $mcp_upstream {{
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


BACKEND_OPTIONS = ("--task-after", "0.1")
"""A call still running after 0.1 s is a task (to a client that declares the extension)."""
TASKS_CAPABILITIES = {"extensions": {"io.modelcontextprotocol/tasks": {}}}


class Proxied:
    """nginx on 127.0.0.1 in front of two objmcp processes, routes ``a`` and ``b``."""

    def __init__(self, folder: Path) -> None:
        key = {"OBJMCP_STATE_KEY": "both-processes-share-it"}
        self.backends = [
            HttpServer(*BACKEND_OPTIONS, "--route", route, target=f"{WORKERS}:Workers", env=key)
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


# --- tasks ------------------------------------------------------------------------------------


def modern_request(request_id: int, method: str, **params: Any) -> dict[str, Any]:
    """A 2026-07-28 request that declares the tasks extension."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": TASKS_CAPABILITIES,
    }
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": method,
        "params": {**params, "_meta": meta},
    }


def post_modern(url: str, request_id: int, method: str, named: str, /, **params: Any) -> Any:
    """``modern_request`` through nginx (``named``: its Mcp-Name header): the answer, or the
    HTTP status when no JSON-RPC answer came."""
    headers = {"accept": "application/json, text/event-stream", **modern_headers(method, named)}
    message = modern_request(request_id, method, **params)
    response = httpx.post(url, json=message, headers=headers, timeout=20)
    if not response.headers.get("content-type", "").startswith("application/json"):
        return response.status_code
    return response.json()


def start_task(url: str, request_id: int, seconds: float) -> str:
    created = post_modern(
        url, request_id, "tools/call", "slow_pid", name="slow_pid", arguments={"seconds": seconds}
    )
    assert created["result"]["resultType"] == "task", created
    task_id: str = created["result"]["taskId"]
    return task_id


def poll(url: str, task_id: str, first_id: int) -> tuple[dict[str, Any], int]:
    """tasks/get through nginx until the task ends: the task, and how many polls it took
    (every one must reach the process that holds it)."""
    for number in range(first_id, first_id + 400):
        got = post_modern(url, number, "tasks/get", task_id, taskId=task_id)
        assert "result" in got, got  # another process would say -32602: unknown task
        task: dict[str, Any] = got["result"]
        if task["status"] in ("completed", "failed", "cancelled"):
            return task, number - first_id + 1
        time.sleep(0.05)
    raise AssertionError(f"task {task_id} never ended")


def test_tasks_are_polled_through_nginx_at_the_process_that_holds_them(
    proxied: Proxied,
) -> None:
    held: dict[str, set[int]] = {"a": set(), "b": set()}
    polls = 0
    for round_number in range(4):  # tools/call goes round-robin: tasks on both processes
        task_id = start_task(proxied.url, 100 * round_number, 0.6)
        tag = task_id.split(".", 1)[0]
        task, count = poll(proxied.url, task_id, 100 * round_number + 1)
        assert task["status"] == "completed", task
        held[tag].add(task["result"]["structuredContent"]["result"])
        polls += count
    assert polls >= 8  # round-robin would have sent every other poll to the wrong process
    (pid_a,), (pid_b,) = held["a"], held["b"]  # each tag's tasks ran in one process...
    assert {pid_a, pid_b} == proxied.pids  # ...and the two tags are the two processes

    task_id = start_task(proxied.url, 900, 30)
    acknowledged = post_modern(proxied.url, 901, "tasks/cancel", task_id, taskId=task_id)
    assert "result" in acknowledged, acknowledged
    cancelled, _ = poll(proxied.url, task_id, 902)
    assert cancelled["status"] == "cancelled" and "result" not in cancelled


def start_backend(route: str, port: int) -> subprocess.Popen[bytes]:
    """An objmcp process for ``route`` on ``port`` (a restart of the one that was there)."""
    command = [PYTHON, "-m", "objmcp", "run", "--http", "--port", str(port), *BACKEND_OPTIONS]
    process = subprocess.Popen(
        [*command, "--route", route, f"{WORKERS}:Workers"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**server_env(), "OBJMCP_TOKEN": "", "OBJMCP_STATE_KEY": "both-processes-share-it"},
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        assert process.poll() is None, "the restarted process ended"
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return process
        time.sleep(0.05)
    process.kill()
    raise AssertionError("the restarted process did not start")


def test_a_task_whose_process_is_gone_is_a_502_then_unknown(
    tmp_path: Path,
) -> None:
    proxy = Proxied(tmp_path)
    restarted: Sequence[subprocess.Popen[bytes]] = ()
    try:
        task_id = start_task(proxy.url, 1, 30)
        tag = task_id.split(".", 1)[0]
        holder = proxy.backends[("a", "b").index(tag)]
        holder.process.kill()  # the process that holds the task is gone
        holder.process.wait(20)
        gone = post_modern(proxy.url, 2, "tasks/get", task_id, taskId=task_id)
        assert gone == 502  # nginx: Bad Gateway, no JSON-RPC answer
        restarted = [start_backend(tag, holder.port)]
        unknown = post_modern(proxy.url, 3, "tasks/get", task_id, taskId=task_id)
        assert unknown["error"]["code"] == -32602, unknown  # the new process never had it
    finally:
        for process in restarted:
            process.terminate()
            process.wait(20)
        proxy.stop()
