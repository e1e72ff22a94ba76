"""What a task costs (issue 24): a task round against a plain call of the same tool, and
the memory of many live tasks, bounded by ``max_tasks`` and flat after they expire.

Round trips, through a real server process on stdio (``servers/objmcp_tasks.py``, with
``task_after`` a microsecond: a call of a client with the tasks extension still running
then becomes a task), one request at a time, each answer checked:

- the plain call of ``work(ms)`` (it sleeps ``ms`` on the event loop), 2026-07-28 with
  no extension declared, and 2025-06-18 after ``initialize``;
- the task round of the same call, 2026-07-28 with the extension: ``tools/call`` ->
  ``CreateTaskResult`` (the handle), then ``tasks/get`` sent back to back until it is
  ``completed`` -> the result inlined; its polls are counted;
- one ``tasks/get`` of an ended task, against a plain call of ``work(0)``;
- the official SDK's ``MCPServer`` (``servers/sdk_tasks.py``) serving the same tools:
  it has no tasks in 2.x, so only its plain calls are compared.

Memory of live tasks, through a server: ``--tasks`` calls of ``hold`` (each waits until
``release``) written at once; once every one is answered as a task, the server's
``VmRSS`` over its value before is divided by the tasks alive. ``release`` ends them;
after ``--ttl`` the ended tasks are forgotten (a ``tasks/get`` of one is then -32602), and
a second wave shows the memory reused, not grown; a third, of more calls than
``max_tasks``, shows the rest answered as plain calls. Beside it, as many plain calls
held open, in objmcp and in the SDK (what a client that waits on a call costs a server
that has no tasks). In-process, with ``tracemalloc``: the session's own bytes per live
task (``Session`` and ``TaskStore`` driven directly, a fake clock), what is left once they
expire, and the bound.

The task store and its queue (issue 42; ``task_store.py``, run by default, left out with
``--no-store``, alone with ``--only store``; skipped, saying so, when ``redis-server`` or
the redis extra is missing): a task round through one ``objmcp run --http`` front with
``--tasks redis://...`` against the same front with its tasks in memory; tasks a second
through the queue (``--queue``) with one ``objmcp worker`` and with two; and a load run of
``--load`` (1,000) tasks through two fronts and two workers, each task fetched through the
other front, checked: none lost, none run twice (the exit status is 1 when one was).

Usage::

    python bench/tasks.py                   # 300 rounds a kind, 10,000 tasks, 1,000 queued
    python bench/tasks.py --quick           # a smoke run, a few seconds
    python bench/tasks.py --json tasks.json --servers objmcp
    python bench/tasks.py --only store      # the task store and its queue alone

The driver uses only the standard library; the in-process phase imports objmcp's working
copy.
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from figures import (
    BENCH_DIR,
    compile_sources,
    environment,
    library_version,
    ratio,
    server_env,
    source_base,
    table,
)
from task_store import store_phase, store_report

SERVERS = {
    "objmcp": BENCH_DIR / "servers" / "objmcp_tasks.py",
    "sdk": BENCH_DIR / "servers" / "sdk_tasks.py",
}
TASKS = "io.modelcontextprotocol/tasks"
MODERN = "2026-07-28"
HANDSHAKE = "2025-06-18"
WARM_UP = 30


class BenchError(Exception):
    """A server answered wrongly, or not at all."""


class Pipe:
    """A server process spoken to through raw pipes, one JSON text a line."""

    def __init__(self, server: str, **options: str) -> None:
        env = {**server_env(), **options}
        self.process = subprocess.Popen(
            [sys.executable, str(SERVERS[server])],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self.ids = 0

    @property
    def stdin(self) -> IO[bytes]:
        assert self.process.stdin is not None
        return self.process.stdin

    def write(self, message: dict[str, Any]) -> None:
        self.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    def read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise BenchError(f"the server closed its output (status {self.process.poll()})")
        found: dict[str, Any] = json.loads(line)
        return found

    def send(self, method: str, params: dict[str, Any], era: str, extension: bool) -> int:
        """Write one request (not flushed); its id."""
        self.ids += 1
        if era == "modern":
            capabilities: dict[str, Any] = {"extensions": {TASKS: {}}} if extension else {}
            meta = {
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientCapabilities": capabilities,
            }
            params = {**params, "_meta": meta}
        self.write({"jsonrpc": "2.0", "id": self.ids, "method": method, "params": params})
        return self.ids

    def answer(self, request_id: int) -> dict[str, Any]:
        """The answer to ``request_id`` (notifications on the way are skipped)."""
        while True:
            message = self.read()
            if "method" in message:
                continue
            if message.get("id") != request_id:
                raise BenchError(f"an answer to {request_id} was expected: {message!r}")
            return message

    def ask(
        self, method: str, params: dict[str, Any], era: str, extension: bool = False
    ) -> dict[str, Any]:
        """Send one request and wait for its result."""
        request_id = self.send(method, params, era, extension)
        self.stdin.flush()
        message = self.answer(request_id)
        if "result" not in message:
            raise BenchError(f"{method} failed: {message!r}")
        result: dict[str, Any] = message["result"]
        return result

    def initialize(self) -> None:
        params = {
            "protocolVersion": HANDSHAKE,
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "0"},
        }
        self.ask("initialize", params, "handshake")
        self.write({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def rss_mib(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        kib = next(int(line.split()[1]) for line in status.splitlines() if line[:6] == "VmRSS:")
        return kib / 1024

    def close(self) -> None:
        self.stdin.close()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def text_of(result: dict[str, Any]) -> str:
    return "".join(block.get("text", "") for block in result.get("content", []))


def check_plain(result: dict[str, Any], expected: str) -> None:
    if result.get("resultType", "complete") != "complete" or text_of(result) != expected:
        raise BenchError(f"a plain call answered {result!r}, wanted {expected}")


def timed_calls(pipe: Pipe, ms: float, rounds: int, era: str) -> list[float]:
    """``rounds`` plain calls of ``work(ms)``, one at a time: their round trips (us)."""
    took = []
    arguments = {"name": "work", "arguments": {"ms": ms}}
    for _ in range(rounds):
        start = time.perf_counter_ns()
        result = pipe.ask("tools/call", arguments, era)
        took.append((time.perf_counter_ns() - start) / 1000)
        check_plain(result, str(round(ms)))
    return took


def task_rounds(pipe: Pipe, ms: float, rounds: int) -> tuple[dict[str, list[float]], str]:
    """``rounds`` task rounds of ``work(ms)``: the time to the handle, to the result (us),
    and the polls each took; and the last task's id."""
    handles: list[float] = []
    totals: list[float] = []
    polls: list[float] = []
    task_id = ""
    arguments = {"name": "work", "arguments": {"ms": ms}}
    for _ in range(rounds):
        start = time.perf_counter_ns()
        created = pipe.ask("tools/call", arguments, "modern", extension=True)
        handled = time.perf_counter_ns()
        if created.get("resultType") != "task":
            raise BenchError(f"a call of work({ms}) did not become a task: {created!r}")
        task_id, count = created["taskId"], 0
        while True:
            count += 1
            task = pipe.ask("tasks/get", {"taskId": task_id}, "modern", extension=True)
            if task["status"] != "working":
                break
        ended = time.perf_counter_ns()
        if task["status"] != "completed" or text_of(task["result"]) != str(round(ms)):
            raise BenchError(f"a task ended as {task!r}")
        handles.append((handled - start) / 1000)
        totals.append((ended - start) / 1000)
        polls.append(float(count))
    return {"handle": handles, "round": totals, "polls": polls}, task_id


def polls_of_ended(pipe: Pipe, task_id: str, rounds: int) -> list[float]:
    """``rounds`` ``tasks/get`` of the ended task ``task_id``: their round trips (us)."""
    took = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        task = pipe.ask("tasks/get", {"taskId": task_id}, "modern", extension=True)
        took.append((time.perf_counter_ns() - start) / 1000)
        if task["status"] != "completed":
            raise BenchError(f"an ended task is {task!r}")
    return took


def round_trips(server: str, ms: float, rounds: int) -> dict[str, float]:
    """The round-trip figures of one server (medians, us)."""
    pipe = Pipe(server)
    try:
        pipe.initialize()
        timed_calls(pipe, 0, WARM_UP, "handshake")
        figures = {
            "plain_call_handshake_us": statistics.median(
                timed_calls(pipe, ms, rounds, "handshake")
            ),
            "plain_zero_handshake_us": statistics.median(timed_calls(pipe, 0, rounds, "handshake")),
        }
        if server != "objmcp":
            return figures
        timed_calls(pipe, 0, WARM_UP, "modern")
        figures["plain_call_us"] = statistics.median(timed_calls(pipe, ms, rounds, "modern"))
        figures["plain_zero_us"] = statistics.median(timed_calls(pipe, 0, rounds, "modern"))
        tasks, last = task_rounds(pipe, ms, rounds)
        figures["task_handle_us"] = statistics.median(tasks["handle"])
        figures["task_round_us"] = statistics.median(tasks["round"])
        figures["polls_per_round"] = statistics.median(tasks["polls"])
        figures["poll_us"] = statistics.median(polls_of_ended(pipe, last, rounds))
        return figures
    finally:
        pipe.close()


class Web:
    """``objmcp run --http`` of the same tools in a process of its own, spoken to with one
    keep-alive connection, 2026-07-28 (each request a POST of its own)."""

    def __init__(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        target = f"{SERVERS['objmcp']}:Work"
        command = [sys.executable, "-m", "objmcp", "run", "--http", "--port", str(self.port)]
        self.process = subprocess.Popen(
            [*command, "--task-after", "1e-6", target],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**server_env(), "OBJMCP_TOKEN": ""},
        )
        deadline = time.monotonic() + 30
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    break
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise BenchError("the HTTP server did not start")
            time.sleep(0.05)
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        self.ids = 0

    def ask(self, method: str, params: dict[str, Any], extension: bool = False) -> dict[str, Any]:
        """POST one request; its result (an SSE answer is read to the message)."""
        self.ids += 1
        capabilities: dict[str, Any] = {"extensions": {TASKS: {}}} if extension else {}
        meta = {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        }
        message = {"jsonrpc": "2.0", "id": self.ids, "method": method}
        message["params"] = {**params, "_meta": meta}
        headers = {
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
            "mcp-protocol-version": MODERN,
            "mcp-method": method,
        }
        name = params.get("name", params.get("taskId"))
        if name is not None:
            headers["mcp-name"] = str(name)
        self.connection.request("POST", "/mcp", json.dumps(message), headers)
        response = self.connection.getresponse()
        body = response.read()
        if response.getheader("content-type", "").startswith("text/event-stream"):
            lines = body.decode().splitlines()
            found = [json.loads(line[6:]) for line in lines if line.startswith("data: {")]
        else:
            found = [json.loads(body)]
        for answer in found:
            if answer.get("id") == self.ids and "result" in answer:
                result: dict[str, Any] = answer["result"]
                return result
        raise BenchError(f"{method} over HTTP was answered {body[:300]!r}")

    def close(self) -> None:
        self.connection.close()
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def http_round_trips(ms: float, rounds: int) -> dict[str, float]:
    """objmcp over Streamable HTTP: the plain call, the task round and a poll (us)."""
    web = Web()

    def timed(method: str, params: dict[str, Any], extension: bool) -> tuple[float, Any]:
        start = time.perf_counter_ns()
        result = web.ask(method, params, extension)
        return (time.perf_counter_ns() - start) / 1000, result

    def plain(wait: float) -> float:
        took, result = timed("tools/call", {"name": "work", "arguments": {"ms": wait}}, False)
        check_plain(result, str(round(wait)))
        return took

    try:
        for _ in range(WARM_UP):
            plain(0)
        calls = [plain(ms) for _ in range(rounds)]
        zeros = [plain(0) for _ in range(rounds)]
        handles: list[float] = []
        totals: list[float] = []
        polls: list[float] = []
        counts: list[float] = []
        task_id = ""
        for _ in range(rounds):
            start = time.perf_counter_ns()
            took, created = timed("tools/call", {"name": "work", "arguments": {"ms": ms}}, True)
            if created.get("resultType") != "task":
                raise BenchError(f"a call over HTTP did not become a task: {created!r}")
            task_id, count = created["taskId"], 0
            while True:
                count += 1
                _, task = timed("tasks/get", {"taskId": task_id}, True)
                if task["status"] != "working":
                    break
            counts.append(float(count))
            if task["status"] != "completed" or text_of(task["result"]) != str(round(ms)):
                raise BenchError(f"a task over HTTP ended as {task!r}")
            handles.append(took)
            totals.append((time.perf_counter_ns() - start) / 1000)
        for _ in range(rounds):
            took, _ = timed("tasks/get", {"taskId": task_id}, True)
            polls.append(took)
    finally:
        web.close()
    return {
        "plain_call_us": statistics.median(calls),
        "plain_zero_us": statistics.median(zeros),
        "task_handle_us": statistics.median(handles),
        "task_round_us": statistics.median(totals),
        "poll_us": statistics.median(polls),
        "polls_per_round": statistics.median(counts),
    }


def held(pipe: Pipe, count: int, era: str, extension: bool) -> list[int]:
    """Write ``count`` calls of ``hold`` at once; their ids."""
    ids = [
        pipe.send("tools/call", {"name": "hold", "arguments": {"n": n}}, era, extension)
        for n in range(count)
    ]
    pipe.stdin.flush()
    return ids


def release(pipe: Pipe, era: str, waiting: Sequence[int]) -> None:
    """Call ``release`` and read the answers of the calls ``waiting``, and its own."""
    request_id = pipe.send("tools/call", {"name": "release", "arguments": {}}, era, False)
    pipe.stdin.flush()
    left = {*waiting, request_id}
    while left:
        message = pipe.read()
        if "method" in message:
            continue
        if message.get("id") not in left or "result" not in message:
            raise BenchError(f"an answer to nothing held, or a failure: {message!r}")
        left.discard(message["id"])


def task_wave(pipe: Pipe, count: int, limit: int) -> tuple[list[str], list[int]]:
    """``count`` held calls with the extension: the tasks made (at most ``limit``), and
    the calls left plain (answered at ``release``)."""
    ids = held(pipe, count, "modern", True)
    made: list[str] = []
    for _ in range(min(count, limit)):
        message = pipe.read()
        result = message.get("result", {})
        if result.get("resultType") != "task":
            raise BenchError(f"a held call was answered {message!r}")
        made.append(result["taskId"])
    answered = len(made)
    return made, ids[answered:] if answered < count else []


def expire(pipe: Pipe, ttl: float, task_ids: Sequence[str]) -> bool:
    """Wait out the ttl; whether the tasks are then forgotten (the first and the last)."""
    time.sleep(ttl * 1.2 + 0.05)
    for task_id in (task_ids[0], task_ids[-1]):
        request_id = pipe.send("tasks/get", {"taskId": task_id}, "modern", True)
        pipe.stdin.flush()
        if pipe.answer(request_id).get("error", {}).get("code") != -32602:
            return False
    return True


def settle(pipe: Pipe, era: str) -> None:
    """A quick call answered: every request before it has been read and started."""
    pipe.ask("tools/call", {"name": "work", "arguments": {"ms": 0}}, era)


def task_memory(count: int, ttl: float) -> dict[str, Any]:
    """objmcp through a server: RSS per live task, after expiry, a second wave, the bound."""
    pipe = Pipe("objmcp", BENCH_MAX_TASKS=str(count), BENCH_TASK_TTL=str(ttl))
    try:
        pipe.initialize()
        timed_calls(pipe, 0, WARM_UP, "modern")
        before = pipe.rss_mib()
        made, plain = task_wave(pipe, count, count)
        first_live = pipe.rss_mib()
        release(pipe, "modern", plain)
        forgotten = expire(pipe, ttl, made)
        first_after = pipe.rss_mib()
        made, plain = task_wave(pipe, count, count)
        second_live = pipe.rss_mib()
        release(pipe, "modern", plain)
        forgotten = expire(pipe, ttl, made) and forgotten
        second_after = pipe.rss_mib()
        beyond = count + count // 10
        made, plain = task_wave(pipe, beyond, count)
        release(pipe, "modern", plain)
    finally:
        pipe.close()
    return {
        "tasks": count,
        "rss_before_mib": before,
        "rss_live_mib": first_live,
        "rss_after_expiry_mib": first_after,
        "rss_second_wave_live_mib": second_live,
        "rss_second_wave_after_mib": second_after,
        "kib_per_live_task": (first_live - before) * 1024 / count,
        "second_wave_growth_mib": second_live - first_live,
        "forgotten_after_ttl": forgotten,
        "beyond_max_tasks": {"calls": beyond, "tasks": len(made), "plain": len(plain)},
    }


def held_memory(server: str, count: int) -> dict[str, Any]:
    """``count`` plain calls held open at once (no tasks): RSS per call."""
    pipe = Pipe(server)
    try:
        pipe.initialize()
        timed_calls(pipe, 0, WARM_UP, "handshake")
        before = pipe.rss_mib()
        ids = held(pipe, count, "handshake", False)
        settle(pipe, "handshake")
        live = pipe.rss_mib()
        release(pipe, "handshake", ids)
    finally:
        pipe.close()
    return {"calls": count, "kib_per_held_call": (live - before) * 1024 / count}


def in_process(count: int) -> dict[str, Any]:
    """The session's own bytes per live task (``tracemalloc``), what is left after they
    expire, a second wave, and the bound."""
    base = source_base()
    if base is not None and str(base) not in sys.path:
        sys.path.insert(0, str(base))
    from objmcp import Toolbox
    from objmcp.model.values.content import ToolResult
    from objmcp.protocol import answers
    from objmcp.protocol.session import Send, ServerInfo, Session, StartCall
    from objmcp.protocol.tasks import handoff
    from objmcp.protocol.tasks.extension import TaskStore

    sys.path.insert(0, str(BENCH_DIR / "servers"))
    from objmcp_tasks import Work

    keep = 60.0
    clock = [1_000_000.0]
    toolbox = Toolbox(Work())

    def session_of(limit: int) -> Session:
        store = TaskStore(limit=limit, keep=keep)
        return Session(
            toolbox,
            ServerInfo("bench"),
            clock=lambda: clock[0],
            extensions={TASKS: {}},
            tasks=store,
            max_calls=2 * count,
        )

    def wave(session: Session, calls: int, start: int) -> tuple[list[int], int]:
        meta = {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {"extensions": {TASKS: {}}},
        }
        call_ids, made = [], 0
        for n in range(start, start + calls):
            params = {"name": "work", "arguments": {"ms": n}, "_meta": meta}
            message = {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": params}
            (started,) = session.receive(message)
            assert isinstance(started, StartCall)
            call_ids.append(started.call_id)
            actions, task_id = handoff.make_task(session, started.call_id)
            if task_id is not None:
                assert isinstance(actions[0], Send)
                made += 1
        return call_ids, made

    def end(session: Session, call_ids: list[int]) -> None:
        for call_id in call_ids:
            answers.call_finished(session, call_id, ToolResult(str(call_id), call_id))

    session = session_of(count)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        call_ids, made = wave(session, count, 0)
        live = tracemalloc.get_traced_memory()[0]
        end(session, call_ids)
        call_ids.clear()  # the bench's own list: not the session's
        ended = tracemalloc.get_traced_memory()[0]
        clock[0] += keep
        session.tasks.expire(clock[0])
        after = tracemalloc.get_traced_memory()[0]
        kept_after = len(session.tasks)
        call_ids, _ = wave(session, count, count)
        second = tracemalloc.get_traced_memory()[0]
        end(session, call_ids)
        clock[0] += keep
        session.tasks.expire(clock[0])
        bounded = session_of(count // 10)
        call_ids, bounded_made = wave(bounded, count, 0)
        end(bounded, call_ids)
    finally:
        tracemalloc.stop()
    return {
        "tasks": made,
        "bytes_per_live_task": (live - before) / count,
        "bytes_per_ended_task": (ended - before) / count,
        "bytes_left_after_expiry": after - before,
        "tasks_kept_after_expiry": kept_after,
        "second_wave_growth_bytes": second - live,
        "bound": {"max_tasks": count // 10, "calls": count, "tasks": bounded_made},
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Measure, print, and write the JSON asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run, a few seconds")
    parser.add_argument("--rounds", type=int, help="round trips of each kind (300; quick 10)")
    parser.add_argument("--ms", type=float, help="work(ms) of the rounds (20; quick 5)")
    parser.add_argument("--tasks", type=int, help="tasks alive at once (10000; quick 300)")
    parser.add_argument("--ttl", type=float, help="task_ttl, seconds (1; quick 0.2)")
    parser.add_argument("--servers", default="objmcp,sdk", help="objmcp,sdk")
    parser.add_argument("--no-http", action="store_true", help="leave out the HTTP rounds")
    parser.add_argument("--json", help="write the figures here")
    store = parser.add_argument_group("the task store (Redis) and its queue")
    store.add_argument("--only", choices=["store"], help="run only this phase")
    store.add_argument("--no-store", action="store_true", help="leave out the store phase")
    store.add_argument("--redis", metavar="URL", help="use this Redis (else one of its own)")
    store.add_argument("--store-tasks", type=int, help="calls a throughput run (200; quick 20)")
    store.add_argument("--store-rounds", type=int, help="throughput runs a count (3; quick 1)")
    store.add_argument("--load", type=int, help="calls of the load run (1000; quick 40)")
    store.add_argument(
        "--at-once", default="1,10", help="the workers' --at-once of the throughput runs (1,10)"
    )
    options = parser.parse_args(argv)
    rounds = options.rounds or (10 if options.quick else 300)
    ms = options.ms or (5.0 if options.quick else 20.0)
    count = options.tasks or (300 if options.quick else 10_000)
    ttl = options.ttl or (0.2 if options.quick else 1.0)
    servers = [name for name in options.servers.split(",") if name]
    if "objmcp" not in servers or not set(servers) <= set(SERVERS):
        parser.error("--servers: objmcp, and sdk if wanted")
    if options.only == "store" and options.no_store:
        parser.error("--only store and --no-store: nothing to run")
    compile_sources(lambda said: print(said, file=sys.stderr))

    def measure_store() -> dict[str, Any]:
        return store_phase(
            options.redis,
            ms,
            rounds,
            options.store_tasks or (20 if options.quick else 200),
            options.store_rounds or (1 if options.quick else 3),
            options.load or (40 if options.quick else 1000),
            [int(at) for at in options.at_once.split(",") if at],
        )

    if options.only == "store":
        alone = measure_store()
        store_report(alone)
        if options.json:
            written = {"meta": meta(options, rounds, ms, count, ttl), "store": alone}
            Path(options.json).write_text(json.dumps(written, indent=2) + "\n")
        return 1 if alone.get("problems") else 0

    trips = {server: round_trips(server, ms, rounds) for server in servers}
    web = None if options.no_http else http_round_trips(ms, rounds)
    memory = {"objmcp_tasks": task_memory(count, ttl)}
    for server in servers:
        memory[f"{server}_held_calls"] = held_memory(server, count)
    inside = in_process(count)
    stored = None if options.no_store else measure_store()

    ours = trips["objmcp"]
    ratios = {
        "task_round/plain_call": ratio(ours["task_round_us"], ours["plain_call_us"]),
        "task_handle/plain_zero": ratio(ours["task_handle_us"], ours["plain_zero_us"]),
        "poll/plain_zero": ratio(ours["poll_us"], ours["plain_zero_us"]),
    }
    if web is not None:
        ratios["http task_round/plain_call"] = ratio(web["task_round_us"], web["plain_call_us"])
        ratios["http task_handle/plain_zero"] = ratio(web["task_handle_us"], web["plain_zero_us"])
        ratios["http poll/plain_zero"] = ratio(web["poll_us"], web["plain_zero_us"])
    if "sdk" in trips:
        sdk = trips["sdk"]
        ratios["objmcp/sdk plain_call"] = ratio(
            ours["plain_call_handshake_us"], sdk["plain_call_handshake_us"]
        )
        ratios["objmcp/sdk plain_zero"] = ratio(
            ours["plain_zero_handshake_us"], sdk["plain_zero_handshake_us"]
        )
        ratios["objmcp task/sdk held call memory"] = ratio(
            memory["objmcp_tasks"]["kib_per_live_task"],
            memory["sdk_held_calls"]["kib_per_held_call"],
        )
    report(ms, rounds, trips, web, memory, inside, ratios)
    if stored is not None:
        store_report(stored)
    if options.json:
        found = {
            "meta": meta(options, rounds, ms, count, ttl),
            "round_trips": trips,
            "http": web,
            "memory": memory,
            "in_process": inside,
            "ratios": ratios,
            "store": stored,
        }
        Path(options.json).write_text(json.dumps(found, indent=2) + "\n")
    return 1 if stored is not None and stored.get("problems") else 0


def meta(
    options: argparse.Namespace, rounds: int, ms: float, count: int, ttl: float
) -> dict[str, Any]:
    """The options, the machine and the versions, for the JSON."""
    return {
        "options": vars(options) | {"rounds": rounds, "ms": ms, "tasks": count, "ttl": ttl},
        "environment": environment(),
        "versions": {name: library_version(name) for name in ("objmcp", "mcp")},
    }


def report(
    ms: float,
    rounds: int,
    trips: dict[str, dict[str, float]],
    web: dict[str, float] | None,
    memory: dict[str, Any],
    inside: dict[str, Any],
    ratios: dict[str, float | None],
) -> None:
    """Print the figures."""
    print(f"== round trips (median us, {rounds} each; work({ms:g}) sleeps {ms:g} ms)")
    columns = {f"{server} stdio": figures for server, figures in trips.items()}
    if web is not None:
        columns["objmcp http"] = web
    rows = [
        [name, *(f"{c[key]:.0f}" if key in c else "-" for c in columns.values())]
        for name, key in (
            ("plain call, 2025-06-18", "plain_call_handshake_us"),
            ("plain call work(0), 2025-06-18", "plain_zero_handshake_us"),
            ("plain call, 2026-07-28", "plain_call_us"),
            ("plain call work(0), 2026-07-28", "plain_zero_us"),
            ("task: call -> handle", "task_handle_us"),
            ("task: call -> handle -> tasks/get... -> result", "task_round_us"),
            ("tasks/get of an ended task", "poll_us"),
            ("polls a round (median)", "polls_per_round"),
        )
    ]
    for line in table(["figure", *columns], rows):
        print(line)
    print("\n== memory through a server (VmRSS)")
    tasks = memory["objmcp_tasks"]
    print(
        f"objmcp, {tasks['tasks']} live tasks: {tasks['kib_per_live_task']:.2f} KiB a task "
        f"(RSS {tasks['rss_before_mib']:.1f} -> {tasks['rss_live_mib']:.1f} MiB; after the ttl "
        f"{tasks['rss_after_expiry_mib']:.1f}; second wave "
        f"{tasks['rss_second_wave_live_mib']:.1f}, {tasks['second_wave_growth_mib']:+.1f} MiB; "
        "forgotten after the ttl: "
        f"{tasks['forgotten_after_ttl']})"
    )
    beyond = tasks["beyond_max_tasks"]
    print(
        f"  {beyond['calls']} calls with max_tasks {tasks['tasks']}: {beyond['tasks']} tasks, "
        f"{beyond['plain']} answered as plain calls"
    )
    for key, figures in memory.items():
        if key.endswith("_held_calls"):
            print(
                f"{key.removesuffix('_held_calls')}, {figures['calls']} plain calls held open: "
                f"{figures['kib_per_held_call']:.2f} KiB a call"
            )
    print("\n== in process (tracemalloc: the session and its task store)")
    print(
        f"{inside['tasks']} live tasks: {inside['bytes_per_live_task']:.0f} B a task; ended, "
        f"result kept: {inside['bytes_per_ended_task']:.0f} B; after the ttl: "
        f"{inside['bytes_left_after_expiry']} B left, {inside['tasks_kept_after_expiry']} tasks "
        f"kept; a second wave: {inside['second_wave_growth_bytes']:+d} B"
    )
    bound = inside["bound"]
    print(f"  max_tasks {bound['max_tasks']}: {bound['calls']} calls made {bound['tasks']} tasks")
    print("\n== ratios")
    for name, value in ratios.items():
        print(f"{name}: {'-' if value is None else f'{value:.2f}x'}")


if __name__ == "__main__":
    sys.exit(main())
