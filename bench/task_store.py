"""The ``store`` phase of ``bench/tasks.py`` (issue 42): tasks kept in Redis
(``objmcp run --http --tasks redis://...``) and calls run from its queue by
``objmcp worker`` processes, against tasks kept in memory. Real processes throughout: a
``redis-server`` of the bench's own (or ``--redis URL``), ``objmcp run --http`` fronts,
``objmcp worker`` processes; one raw HTTP driver (the standard library's), every answer
checked.

- **Round**: a task round (``tools/call`` of ``work(ms)`` answered as a task,
  ``--task-after 1e-6``, then ``tasks/get`` back to back until ``completed``, the result
  inlined) through one front with the store against the same front without it (in
  memory), in alternating blocks of rounds: the ratio of the medians, and of the call to
  its handle.
- **Tasks a second**: ``--store-tasks`` calls of the queued tool ``double(n, ms)``
  (``servers/objmcp_queue.py``: it sleeps ``ms`` on the event loop) through two fronts,
  run by one worker and by two, from the first call to the last task completed (its
  ``lastUpdatedAt``, which the worker stamps on this machine's clock: a task seen late,
  behind one polled longer, does not count late); the runs alternate 1, 2, 1, 2...
  workers (``--store-rounds`` of each), the median of each is reported, and their ratio;
  for each ``--at-once`` (1 and 10, objmcp worker's default: with 1, a worker's rate is
  bounded by the work and the queue's own pace; with 10, by the processor).
- **Load run**: ``--load`` calls (1,000) of ``double`` through two fronts (two
  ``run --http`` processes on two ports, the same store and state key) and two workers,
  the calls spread over both fronts, each task then fetched through the *other* front
  until it ends. None lost: every task ends ``completed`` with ``2n`` and the pid of one
  of the workers. None answered twice: each call ran exactly once (the tool notes ``n``
  in a file of the worker that runs it, and the union of those files has every ``n``
  once, in the file of the worker its answer names).

The driver: :data:`CLIENTS` threads, each with keep-alive connections of its own to
both fronts, share the calls out (call ``n`` through front ``n % 2``); each hands its
calls over one after the other, then polls its tasks, the oldest first, each through the
front it was not called through, every :data:`POLL_WAIT` seconds while it is working
(not the ``pollIntervalMs`` the server advises: the end of a run is seen within a poll).
A task still not ended :data:`STALL` seconds after the last task of its run ended is
lost. The load run's workers run at objmcp worker's default ``--at-once`` (10); every
store process has ``--max-tasks`` above all the tasks the phase makes (a caller's ended
tasks beyond it are forgotten, and the bench's calls are all of one caller).

The work is a sleep, not processor work: on a machine of two cores shared by the
driver, Redis, two fronts and the workers, processor work would measure how they share
the cores, where a sleep measures what the queue costs and how it spreads calls over
workers (each worker's ceiling is ``at_once * 1000 / ms`` tasks a second, reported).
"""

from __future__ import annotations

import collections
import http.client
import importlib.util
import json
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from figures import BENCH_DIR, ratio, server_env, table

TASKS = "io.modelcontextprotocol/tasks"
MODERN = "2026-07-28"
QUEUED = f"{BENCH_DIR / 'servers' / 'objmcp_queue.py'}:Queued"
WORKED = f"{BENCH_DIR / 'servers' / 'objmcp_tasks.py'}:Work"
CLIENTS = 4
"""Driver threads of a queue run."""
POLL_WAIT = 0.01
"""Seconds between two polls of a task still working."""
STALL = 5.0
"""Seconds with no task of a run ending after which the tasks still working are lost."""
BLOCK = 10
"""Rounds in a row through one front before the other's, in the round comparison."""
WARM_UP = 30
ENDED = frozenset({"completed", "failed", "cancelled"})


class StoreError(Exception):
    """A process did not start, or answered wrongly."""


def missing() -> str | None:
    """Why the phase cannot run here (no ``redis-server``, no redis extra), or None."""
    for module in ("redis", "docket", "cryptography"):
        if importlib.util.find_spec(module) is None:
            return f"the redis extra is missing ({module}): pip install 'objmcp[redis]'"
    if redis_binary() is None:
        return "redis-server is missing (apt-get install redis-server)"
    return None


def redis_binary() -> str | None:
    return shutil.which("redis-server") or shutil.which("redis-server", path="/usr/sbin:/sbin")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for_port(process: subprocess.Popen[bytes], port: int, what: str) -> None:
    deadline = time.monotonic() + 30
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        if process.poll() is not None or time.monotonic() > deadline:
            raise StoreError(f"{what} did not start (status {process.poll()})")
        time.sleep(0.05)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A ``redis-server`` of the bench's own on 127.0.0.1, nothing kept on disk: its URL."""
    binary = redis_binary()
    if binary is None:
        raise StoreError("redis-server is missing")
    port = free_port()
    arguments = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    process = subprocess.Popen(
        [binary, *arguments, "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(process, port, "redis-server")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(process)


class Http:
    """One keep-alive connection to a front, each request a 2026-07-28 POST of its own."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.ids = 0

    def answer(self, method: str, params: dict[str, Any], extension: bool) -> dict[str, Any]:
        """The JSON-RPC answer to one request (a result or an error)."""
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
        body = json.dumps(message)
        try:
            self.connection.request("POST", "/mcp", body, headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            if method == "tools/call":
                raise  # sent or not: never sent again
            self.connection.close()  # an idle keep-alive the server closed: once more
            self.connection.request("POST", "/mcp", body, headers)
            response = self.connection.getresponse()
        raw = response.read()
        if response.getheader("content-type", "").startswith("text/event-stream"):
            lines = raw.decode().splitlines()
            found = [json.loads(line[6:]) for line in lines if line.startswith("data: {")]
        else:
            found = [json.loads(raw)] if raw else []
        for answered in found:
            if answered.get("id") == self.ids and ("result" in answered or "error" in answered):
                result: dict[str, Any] = answered
                return result
        raise StoreError(f"{method} got {response.status} {raw[:300]!r}")

    def ask(self, method: str, params: dict[str, Any], extension: bool) -> dict[str, Any]:
        """The result of one request (an error answer is a :class:`StoreError`)."""
        answered = self.answer(method, params, extension)
        if "result" not in answered:
            raise StoreError(f"{method} answered {answered!r}")
        result: dict[str, Any] = answered["result"]
        return result

    def close(self) -> None:
        self.connection.close()


class Front:
    """``objmcp run --http`` of ``target`` in a process of its own."""

    def __init__(self, target: str, options: Sequence[str], env: dict[str, str]) -> None:
        self.port = free_port()
        command = [sys.executable, "-m", "objmcp", "run", "--http", "--port", str(self.port)]
        self.process = subprocess.Popen(
            [*command, *options, target],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**server_env(), "OBJMCP_TOKEN": "", **env},
        )
        try:
            wait_for_port(self.process, self.port, f"objmcp run --http {' '.join(options)}")
        except StoreError:
            stop(self.process)
            raise

    def close(self) -> None:
        stop(self.process)


class Worker:
    """``objmcp worker URL TARGET`` in a process of its own, once it takes calls."""

    def __init__(self, url: str, options: Sequence[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        command = [sys.executable, "-m", "objmcp", "worker", url, QUEUED, *options]
        with log.open("wb") as err:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                env={**server_env(), **env},
            )
        deadline = time.monotonic() + 30
        while "running the queued calls" not in log.read_text():
            if self.process.poll() is not None or time.monotonic() > deadline:
                stop(self.process)
                raise StoreError(f"a worker did not start: {log.read_text()[-600:]}")
            time.sleep(0.05)

    @property
    def pid(self) -> int:
        return self.process.pid

    def close(self) -> str:
        """Stop it: what it said on stderr."""
        stop(self.process)
        return self.log.read_text()


def task_round(client: Http, ms: float) -> tuple[float, float, int]:
    """One task round of ``work(ms)``: call -> handle, call -> result (us), and the polls."""
    arguments = {"name": "work", "arguments": {"ms": ms}}
    start = time.perf_counter_ns()
    created = client.ask("tools/call", arguments, True)
    handled = time.perf_counter_ns()
    if created.get("resultType") != "task":
        raise StoreError(f"a call of work({ms}) did not become a task: {created!r}")
    count = 0
    while True:
        count += 1
        task = client.ask("tasks/get", {"taskId": created["taskId"]}, True)
        if task["status"] != "working":
            break
    ended = time.perf_counter_ns()
    texts = "".join(block.get("text", "") for block in task.get("result", {}).get("content", []))
    if task["status"] != "completed" or texts != str(round(ms)):
        raise StoreError(f"a task ended as {task!r}")
    return (handled - start) / 1000, (ended - start) / 1000, count


def store_rounds(
    url: str, env: dict[str, str], ms: float, rounds: int, keep: int
) -> dict[str, Any]:
    """The task round through one front with the store and one without (medians, us)."""
    common = ["--task-after", "1e-6", "--max-tasks", str(keep)]
    figures: dict[str, dict[str, list[float]]] = {}
    with ExitStack() as stack:
        fronts = {}
        for kind, options in (("memory", common), ("store", [*common, "--tasks", url])):
            front = Front(WORKED, options, env)
            stack.callback(front.close)
            client = Http(front.port)
            stack.callback(client.close)
            fronts[kind] = client
            figures[kind] = {"handle": [], "round": [], "polls": []}
            for _ in range(WARM_UP):
                task_round(client, ms)
        done = 0
        while done < rounds:
            block = min(BLOCK, rounds - done)
            order = list(fronts.items()) if (done // BLOCK) % 2 == 0 else list(fronts.items())[::-1]
            for kind, client in order:
                for _ in range(block):
                    handle, whole, polls = task_round(client, ms)
                    figures[kind]["handle"].append(handle)
                    figures[kind]["round"].append(whole)
                    figures[kind]["polls"].append(float(polls))
            done += block
    found: dict[str, Any] = {
        kind: {
            "task_handle_us": statistics.median(lists["handle"]),
            "task_round_us": statistics.median(lists["round"]),
            "polls_per_round": statistics.median(lists["polls"]),
        }
        for kind, lists in figures.items()
    }
    found["rounds"] = rounds
    found["ms"] = ms
    found["ratios"] = {
        "task_round store/memory": ratio(
            found["store"]["task_round_us"], found["memory"]["task_round_us"]
        ),
        "task_handle store/memory": ratio(
            found["store"]["task_handle_us"], found["memory"]["task_handle_us"]
        ),
    }
    return found


def stamp(text: object) -> float:
    """Epoch seconds of an RFC 3339 time the server wrote (0 when there is none)."""
    if not isinstance(text, str):
        return 0.0
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return 0.0


class Progress:
    """When a task of the run was last seen ending (or the run started)."""

    def __init__(self) -> None:
        self.last = time.perf_counter()

    def stalled(self) -> bool:
        return time.perf_counter() - self.last > STALL


class Outcome:
    """What became of one call of a queue run."""

    def __init__(self, n: int, front: int) -> None:
        self.n = n
        self.front = front
        self.task_id: str | None = None
        self.status = "not called"
        self.result: Any = None
        self.problem: str | None = None
        self.polls = 0
        self.seen = 0.0  # perf_counter when its end was seen
        self.stamped = 0.0  # its end as the worker stamped it (lastUpdatedAt), epoch seconds


def client_thread(
    numbers: Sequence[int],
    ports: Sequence[int],
    ms: float,
    outcomes: dict[int, Outcome],
    ready: threading.Barrier,
    progress: Progress,
) -> None:
    """Call ``double(n, ms)`` for each of ``numbers`` through front ``n % 2``, then poll
    each task through the other until it ends."""
    calls = [Http(port) for port in ports]
    polls = [Http(port) for port in ports]
    try:
        ready.wait()
        for n in numbers:
            outcome = outcomes[n]
            try:
                answered = calls[outcome.front].answer(
                    "tools/call", {"name": "double", "arguments": {"n": n, "ms": ms}}, True
                )
            except (OSError, http.client.HTTPException, StoreError) as error:
                outcome.problem = f"the call failed: {error}"
                continue
            result = answered.get("result", {})
            if result.get("resultType") != "task" or not isinstance(result.get("taskId"), str):
                outcome.problem = f"the call was answered {answered!r}"
                continue
            outcome.task_id, outcome.status = result["taskId"], result.get("status", "?")
        for n in numbers:
            outcome = outcomes[n]
            if outcome.task_id is None:
                continue
            other = polls[1 - outcome.front]
            while True:
                outcome.polls += 1
                try:
                    answered = other.answer("tasks/get", {"taskId": outcome.task_id}, True)
                except (OSError, http.client.HTTPException, StoreError) as error:
                    outcome.problem = f"tasks/get failed: {error}"
                    break
                if "result" not in answered:
                    outcome.problem = f"tasks/get answered {answered.get('error')!r}"
                    break
                task = answered["result"]
                outcome.status = task.get("status", "?")
                if outcome.status in ENDED:
                    outcome.seen = progress.last = time.perf_counter()
                    outcome.result = task.get("result", {}).get("structuredContent")
                    outcome.stamped = stamp(task.get("lastUpdatedAt"))
                    break
                if progress.stalled():
                    outcome.problem = f"still {outcome.status}, {STALL:g} s after any task ended"
                    break
                time.sleep(POLL_WAIT)
    finally:
        for client in (*calls, *polls):
            client.close()


def queue_run(
    url: str,
    ports: Sequence[int],
    workers: int,
    count: int,
    ms: float,
    options: Sequence[str],
    env: dict[str, str],
    folder: Path,
) -> dict[str, Any]:
    """``count`` calls of ``double`` through the fronts at ``ports``, run by ``workers``
    new workers: the time from the first call to the last task seen ended, and what
    became of each call (checked)."""
    folder.mkdir(parents=True)
    env = {**env, "BENCH_QUEUE_LOG": str(folder)}
    started: list[Worker] = []
    said: list[str] = []
    try:
        for number in range(workers):
            started.append(Worker(url, options, env, folder / f"worker-{number}.log"))
        outcomes = {n: Outcome(n, n % len(ports)) for n in range(count)}
        ready = threading.Barrier(CLIENTS + 1)
        progress = Progress()
        threads = [
            threading.Thread(
                target=client_thread,
                args=(range(j, count, CLIENTS), ports, ms, outcomes, ready, progress),
            )
            for j in range(CLIENTS)
        ]
        for thread in threads:
            thread.start()
        ready.wait()
        start = progress.last = time.perf_counter()
        wall = time.time()
        for thread in threads:
            thread.join()
    finally:
        said = [worker.close() for worker in started]
    pids = {worker.pid for worker in started}
    return checked(outcomes, pids, folder, (start, wall), said)


def checked(
    outcomes: dict[int, Outcome],
    pids: set[int],
    folder: Path,
    start: tuple[float, float],
    said: list[str],
) -> dict[str, Any]:
    """A queue run's figures, and its calls lost or run more than once."""
    ran: dict[int, list[int]] = collections.defaultdict(list)  # n -> the pids that ran it
    for noted in folder.glob("ran-*"):
        pid = int(noted.name.removeprefix("ran-"))
        for line in noted.read_text().split():
            ran[int(line)].append(pid)
    lost: list[str] = []
    for n, outcome in outcomes.items():
        expected = {"double": 2 * n}
        result = outcome.result if isinstance(outcome.result, dict) else {}
        if outcome.problem is not None:
            lost.append(f"{n}: {outcome.problem}")
        elif outcome.status != "completed":
            lost.append(f"{n}: ended {outcome.status}")
        elif result.get("double") != expected["double"] or result.get("pid") not in pids:
            lost.append(f"{n}: answered {outcome.result!r}")
        elif ran.get(n) != [result["pid"]]:
            lost.append(f"{n}: answered by {result['pid']}, run by {ran.get(n)}")
    twice = sorted(n for n, by in ran.items() if len(by) > 1)
    strays = sorted(n for n in ran if n not in outcomes)
    task_ids = [o.task_id for o in outcomes.values() if o.task_id is not None]
    seen = [o.seen for o in outcomes.values() if o.seen]
    stamped = [o.stamped for o in outcomes.values() if o.status == "completed" and o.stamped]
    took = max(stamped) - start[1] if stamped else None
    by_worker = collections.Counter(pid for by in ran.values() for pid in by)
    completed = sum(o.status == "completed" and o.problem is None for o in outcomes.values())
    return {
        "tasks": len(outcomes),
        "completed": completed,
        "lost": len(lost),
        "lost_examples": lost[:10],
        "run_twice": len(twice),
        "run_twice_examples": twice[:10],
        "run_never_called": strays[:10],
        "distinct_task_ids": len(set(task_ids)) == len(task_ids) == len(outcomes),
        "calls_by_front": dict(collections.Counter(o.front for o in outcomes.values())),
        "runs_by_worker": sorted(by_worker.values(), reverse=True),
        "polls": sum(o.polls for o in outcomes.values()),
        "seconds": took,
        "seconds_seen": max(seen) - start[0] if seen else None,
        "tasks_per_second": None if not took or took <= 0 else completed / took,
        "worker_tracebacks": sum("Traceback" in text for text in said),
    }


def store_phase(
    redis: str | None,
    ms: float,
    rounds: int,
    throughput_tasks: int,
    throughput_rounds: int,
    load: int,
    at_once: Sequence[int],
) -> dict[str, Any]:
    """Every figure of the phase, or ``{"skipped": why}``."""
    why = None if redis is not None else missing()
    if why is not None:
        return {"skipped": why}
    runs_made = len(at_once) * 2 * throughput_rounds
    keep = 2 * (rounds + WARM_UP) + runs_made * throughput_tasks + load + 1000
    env = {"OBJMCP_STATE_KEY": secrets.token_hex(32)}
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-store-")))
        url = redis if redis is not None else stack.enter_context(redis_server(folder))
        found: dict[str, Any] = {"round": store_rounds(url, env, ms, rounds, keep)}
        queue_options = ["--tasks", url, "--queue", "double", "--max-tasks", str(keep)]
        fronts = [Front(QUEUED, queue_options, env) for _ in range(2)]
        for front in fronts:
            stack.callback(front.close)
        ports = [front.port for front in fronts]
        kept = ["--max-tasks", str(keep)]
        found["warm_up"] = queue_run(url, ports, 1, 10, 0, kept, env, folder / "warm-up")
        found["throughput"] = [
            throughput(url, ports, ms, throughput_tasks, throughput_rounds, at, kept, env, folder)
            for at in at_once
        ]
        # the load run: each worker at objmcp worker's default --at-once
        load_run = queue_run(url, ports, 2, load, ms, kept, env, folder / "load")
        found["load"] = load_run | {"ms": ms, "workers": 2, "fronts": 2}
    found["problems"] = problems(found)
    return found


def throughput(
    url: str,
    ports: Sequence[int],
    ms: float,
    count: int,
    rounds: int,
    at_once: int,
    kept: Sequence[str],
    env: dict[str, str],
    folder: Path,
) -> dict[str, Any]:
    """Tasks a second through the queue with 1 worker and with 2 (``at_once`` calls at
    once each), the runs alternating: the median of each, and their ratios."""
    options = [*kept, "--at-once", str(at_once)]
    runs: dict[str, list[dict[str, Any]]] = {"1": [], "2": []}
    for number in range(rounds):
        for workers in (1, 2) if number % 2 == 0 else (2, 1):
            place = folder / f"throughput-{at_once}-{number}-{workers}"
            runs[str(workers)].append(
                queue_run(url, ports, workers, count, ms, options, env, place)
            )
    rates = {
        workers: statistics.median(run["tasks_per_second"] or 0.0 for run in done)
        for workers, done in runs.items()
    }
    ceiling = at_once * 1000 / ms if ms > 0 else None
    return {
        "tasks_a_run": count,
        "rounds": rounds,
        "at_once": at_once,
        "ms": ms,
        "tasks_per_second": rates,
        "ceiling_per_worker": ceiling,
        "runs": runs,
        "ratios": {
            f"at once {at_once}: 2 workers/1 worker": ratio(rates["2"], rates["1"]),
            f"at once {at_once}: 1 worker/its ceiling": ratio(rates["1"], ceiling),
            f"at once {at_once}: 2 workers/their ceiling": ratio(
                rates["2"], 2 * ceiling if ceiling else None
            ),
        },
    }


def problems(found: dict[str, Any]) -> list[str]:
    """What went wrong in the queue runs: calls lost or run twice, a worker's traceback."""
    said = []
    runs = {"the warm-up run": found["warm_up"], "the load run": found["load"]}
    for through in found["throughput"]:
        for workers, done in through["runs"].items():
            for number, run in enumerate(done):
                at = through["at_once"]
                runs[f"throughput run {number + 1}, {workers} worker(s) at once {at}"] = run
    for name, run in runs.items():
        if run["lost"] or run["run_twice"] or not run["distinct_task_ids"]:
            said.append(
                f"{name}: {run['lost']} lost {run['lost_examples'][:3]}, {run['run_twice']} "
                f"run twice {run['run_twice_examples'][:3]}"
            )
        if run["worker_tracebacks"]:
            said.append(f"{name}: a worker wrote a traceback")
    return said


def store_report(found: dict[str, Any]) -> None:
    """Print the phase's figures."""
    print("\n== task store (Redis) and queue, through real fronts and workers")
    if "skipped" in found:
        print(f"skipped: {found['skipped']}; nothing measured")
        return
    rounds = found["round"]
    print(
        f"-- a task round through one HTTP front, work({rounds['ms']:g}), "
        f"{rounds['rounds']} rounds each (median us)"
    )
    rows = [
        [label, *(f"{rounds[kind][key]:.0f}" for kind in ("memory", "store"))]
        for label, key in (
            ("task: call -> handle", "task_handle_us"),
            ("task: call -> handle -> tasks/get... -> result", "task_round_us"),
            ("polls a round (median)", "polls_per_round"),
        )
    ]
    for line in table(["figure", "in memory", "--tasks redis://"], rows):
        print(line)
    first = found["throughput"][0]
    print(
        f"-- tasks a second through the queue: {first['tasks_a_run']} calls of double "
        f"(sleeps {first['ms']:g} ms) a run through 2 fronts, first call -> last task "
        f"completed; median of {first['rounds']} runs each"
    )
    rows = [
        [
            str(through["at_once"]),
            *(f"{through['tasks_per_second'][workers]:.0f}" for workers in ("1", "2")),
            f"{through['ceiling_per_worker']:.0f}",
        ]
        for through in found["throughput"]
    ]
    for line in table(["--at-once", "1 worker", "2 workers", "a worker's ceiling"], rows):
        print(line)
    load = found["load"]
    verdict = "none lost, none run twice" if not (load["lost"] or load["run_twice"]) else "FAILED"
    ran = " + ".join(map(str, load["runs_by_worker"]))
    print(
        f"-- load run: {load['tasks']} calls of double through 2 fronts "
        f"({load['calls_by_front'].get(0, 0)} + {load['calls_by_front'].get(1, 0)}), each task "
        f"fetched through the other front until it ended; 2 workers (ran {ran}): "
        f"{load['completed']} completed with the right result, {load['lost']} lost, "
        f"{load['run_twice']} run twice: {verdict}; {load['tasks_per_second'] or 0:.0f} tasks/s"
    )
    for problem in found["problems"]:
        print(f"PROBLEM: {problem}")
    print("-- ratios (one run; nothing was tuned on these figures, so none is held out)")
    ratios = dict(rounds["ratios"])
    for through in found["throughput"]:
        ratios |= through["ratios"]
    for name, value in ratios.items():
        print(f"{name}: {'-' if value is None else f'{value:.2f}x'}")
