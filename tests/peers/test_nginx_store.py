"""A deployment with a shared task store, as docs/guides/http-and-deploying.md draws it: a
real nginx (Debian's) in front of two fronts (one ``--workers 2`` server, one single server,
on two ports, sharing the store in a real Redis and the state key) and two ``objmcp worker``
processes.
With the store, a 2026-07-28 request needs no affinity: nginx sends every one round-robin,
so a client's polls go through a different front each time.

- Queued calls (``--queue``) and calls that became tasks (``--task-after``), started and
  polled through nginx, all end, each answered once, each with its own result.
- A front killed (``kill -9``) in the middle of a task it runs: nginx sends the polls to
  the other front, which answers from the store, ``working`` until the dead front's lease
  runs out, then ``failed`` saying why; never "not found", never working forever. The
  queued calls of the dead front's clients go on in the workers."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from http_helpers import WORKERS, HttpServer, free_port
from task_helpers import GUARD, QueueWorker, lines, nginx, with_tasks

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

    # With --tasks redis://..., every front answers for every task: no map is needed for
    # 2026-07-28 requests (a handshake-era session still goes by its route tag).
    upstream mcp_fronts {{ server 127.0.0.1:{a}; server 127.0.0.1:{b}; }}

    server {{
        listen 127.0.0.1:{port};
        location /mcp {{
            proxy_pass http://mcp_fronts;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_buffering off;
            proxy_read_timeout 1h;
        }}
    }}
}}
"""

TARGET = f"{WORKERS}:Workers"


class Deployment:
    """nginx, two fronts (``a``: ``--workers 2``; ``b``: one process), two workers."""

    def __init__(self, folder: Path, redis_url: str) -> None:
        self.env = {"OBJMCP_STATE_KEY": secrets.token_hex(32)}
        options = ("--tasks", redis_url, "--task-after", "0.2", "--queue", "once_pid")
        self.fronts = [
            HttpServer("--workers", "2", *options, target=TARGET, env=self.env),
            HttpServer(*options, target=TARGET, env=self.env),
        ]
        self.workers: list[QueueWorker] = []
        self.proxy: subprocess.Popen[bytes] | None = None
        try:
            self.workers = [
                QueueWorker(redis_url, self.env, folder / f"worker{n}.log") for n in (1, 2)
            ]
            port = free_port()
            self.url = f"http://127.0.0.1:{port}/mcp"
            a, b = (front.port for front in self.fronts)
            config = folder / "nginx.conf"
            config.write_text(CONFIG.format(dir=folder, a=a, b=b, port=port), encoding="utf-8")
            self.proxy = subprocess.Popen(
                [nginx(), "-p", str(folder), "-c", str(config)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            deadline = time.monotonic() + 20
            while True:
                assert self.proxy.poll() is None, self.proxy.communicate()[1].decode()
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", port)) == 0:
                        break
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.05)
        except BaseException:
            self.stop()
            raise
        self.folder = folder

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.terminate()
            self.proxy.wait(timeout=20)
        for worker in self.workers:
            worker.stop()
        for front in self.fronts:
            if front.process.poll() is None:
                front.stop()


@pytest.fixture
def deployment(tmp_path: Path, redis_url: str) -> Iterator[Deployment]:
    made = Deployment(tmp_path, redis_url)
    yield made
    made.stop()
    log = (made.folder / "error.log").read_text(encoding="utf-8")
    assert "[emerg]" not in log and "[alert]" not in log, log


def ask(url: str, method: str, request_id: int, named: str, **params: Any) -> dict[str, Any]:
    """The answer at ``url`` to a 2026-07-28 ``method`` that declares the tasks extension."""
    headers = {
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        "mcp-name": named,
    }
    message = with_tasks(method, request_id, **params)
    answered: dict[str, Any] = httpx.post(url, json=message, headers=headers, timeout=20).json()
    return answered


def start(url: str, request_id: int, tool: str, **arguments: Any) -> str:
    task = ask(url, "tools/call", request_id, tool, name=tool, arguments=arguments)["result"]
    assert task["resultType"] == "task", task
    task_id: str = task["taskId"]
    return task_id


def ended(url: str, task_id: str, first_id: int) -> dict[str, Any]:
    """The task as ``tasks/get`` through ``url`` answers once it has ended."""
    deadline = time.monotonic() + GUARD
    for request_id in range(first_id, first_id + 100_000):
        answered = ask(url, "tasks/get", request_id, task_id, taskId=task_id)
        assert "result" in answered, answered  # never "not found"
        task: dict[str, Any] = answered["result"]
        if task["status"] in ("completed", "failed", "cancelled"):
            return task
        assert time.monotonic() < deadline, task
        time.sleep(0.05)
    raise AssertionError("unreachable")


def test_queued_and_held_tasks_all_end_through_any_front(
    deployment: Deployment, tmp_path: Path
) -> None:
    url = deployment.url
    queued = {
        n: start(url, n, "once_pid", seconds=0.3, marker=str(tmp_path / f"q{n}"))
        for n in range(1, 7)
    }
    held = [start(url, 10 + n, "slow_pid", seconds=0.6) for n in range(2)]
    done = {
        task_id: ended(url, task_id, 1000 * (k + 1))
        for k, task_id in enumerate([*queued.values(), *held])
    }
    workers = {worker.pid for worker in deployment.workers}
    for n, task_id in queued.items():
        assert done[task_id]["status"] == "completed", done[task_id]
        ran = done[task_id]["result"]["structuredContent"]["result"]
        assert ran in workers
        assert lines(tmp_path / f"q{n}", 1) == [str(ran)]  # run once, where it says
    for task_id in held:
        assert done[task_id]["status"] == "completed", done[task_id]
        ran = done[task_id]["result"]["structuredContent"]["result"]
        assert ran not in workers  # the front's process that took the call ran it


def test_a_front_killed_mid_task_fails_its_task_clearly_and_the_rest_goes_on(
    deployment: Deployment, tmp_path: Path
) -> None:
    front_b = deployment.fronts[1]
    lost = start(front_b.url, 1, "slow_pid", seconds=60)  # held by front b
    queued = start(front_b.url, 2, "once_pid", seconds=1.0, marker=str(tmp_path / "q"))
    os.kill(front_b.process.pid, signal.SIGKILL)
    front_b.process.wait()
    failed = ended(deployment.url, lost, 100)  # nginx: front a, from the store
    completed = ended(deployment.url, queued, 10_000)
    assert failed["status"] == "failed", failed
    assert "stopped before it ended" in failed["statusMessage"], failed
    assert completed["status"] == "completed", completed
    assert completed["result"]["structuredContent"]["result"] in {
        worker.pid for worker in deployment.workers
    }
