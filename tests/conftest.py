"""Shared helpers: start servers as real subprocesses and talk raw JSON-RPC to them; and the
fixtures of more than one folder (``node`` and ``node2``, for the TypeScript SDK's drivers,
1.x and 2.x).

The only conftest.py, at the root of tests/ (see tests/README.md): its folder is on sys.path,
so test modules of every folder import from it, and from ``http_helpers`` beside it."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# Tests never assert a duration: Hypothesis's deadline (200 ms an example) is one, and a
# shared, loaded machine fails it at random. Every property test runs without it.
settings.register_profile("objmcp", deadline=None)
settings.load_profile("objmcp")

ROOT = Path(__file__).resolve().parent.parent
ZOO = ROOT / "tests" / "servers" / "zoo.py"
NOTES = ROOT / "examples" / "notes.py"
JS = ROOT / "tests" / "js"
JS_SDK_PACKAGE = JS / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json"
JS2 = ROOT / "tests" / "js2"
JS2_CLIENT_PACKAGE = JS2 / "node_modules" / "@modelcontextprotocol" / "client" / "package.json"
# The tasks extension's client package, the later of js2's two: with it, the lock's packages are in.
JS2_TASKS_PACKAGE = JS2 / "node_modules" / "@modelcontextprotocol" / "ext-tasks" / "package.json"
PYTHON = sys.executable


def server_env() -> dict[str, str]:
    """The environment for a server subprocess: this interpreter's, with the source tree first."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def objmcp_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m objmcp ARGS`` to its end in ``cwd`` (the source tree), stdin at its
    end; its output as text."""
    return subprocess.run(
        [PYTHON, "-m", "objmcp", *args],
        input="",
        capture_output=True,
        text=True,
        cwd=str(cwd or ROOT),
        env=server_env(),
        timeout=120,
        check=False,
    )


def _interruptible() -> None:
    """In a server's process before it starts: Ctrl-C (SIGINT) back to the default, as
    from a terminal (a shell's background job, as the suite's groups are, ignores it,
    and Python then never raises KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class RawServer:
    """A server subprocess spoken to through raw pipes, newline-delimited."""

    def __init__(
        self, *args: str, stderr: Any = subprocess.PIPE, env: dict[str, str] | None = None
    ) -> None:
        self.process = subprocess.Popen(
            [PYTHON, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env={**server_env(), **(env or {})},
            preexec_fn=_interruptible,  # noqa: PLW1509 (one signal.signal, no lock taken)
        )

    def send(self, message: Any) -> None:
        """Write one message as a line."""
        self.write((json.dumps(message) + "\n").encode())

    def write(self, data: bytes) -> None:
        """Write raw bytes."""
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def read(self) -> Any:
        """Read one line and decode it."""
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, "the server closed its output"
        return json.loads(line)

    def request(self, message: dict[str, Any]) -> Any:
        """Send a request and read the next message."""
        self.send(message)
        return self.read()

    def initialize(
        self, version: str = "2025-06-18", capabilities: dict[str, Any] | None = None
    ) -> Any:
        """Do the handshake; returns the initialize result."""
        answer = self.request(
            {
                "jsonrpc": "2.0",
                "id": "init",
                "method": "initialize",
                "params": {
                    "protocolVersion": version,
                    "capabilities": capabilities or {},
                    "clientInfo": {"name": "raw", "version": "0"},
                },
            }
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer["result"]

    def call_tool(self, request_id: int, tool: str, **arguments: Any) -> dict[str, Any]:
        """The result of calling ``tool`` (a call's answer, never another message)."""
        reply = self.request(
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "method": "tools/call",
                "params": {"name": tool, "arguments": arguments},
            }
        )
        assert reply["id"] == request_id, reply
        return reply["result"]  # type: ignore[no-any-return]

    def tools(self) -> dict[str, Any]:
        """The tools ``tools/list`` gives, by name."""
        reply = self.request({"jsonrpc": "2.0", "id": "list", "method": "tools/list"})
        return {tool["name"]: tool for tool in reply["result"]["tools"]}

    def close(self, timeout: float = 30) -> tuple[bytes, bytes, int]:
        """Close stdin and collect the rest of stdout, stderr and the exit status."""
        out, err = self.process.communicate(timeout=timeout)
        return out, err, self.process.returncode


def on_a_terminal(*args: str, typed: bytes, cwd: Path = ROOT) -> tuple[str, str, int]:
    """``python -m objmcp ARGS`` with a pseudo-terminal for stdin and ``typed`` at it (Ctrl-D
    is ``\\x04``), to its end: its stdout, stderr and exit status (POSIX only)."""
    import pty

    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [PYTHON, "-m", "objmcp", *args],
        stdin=follower,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=str(cwd),
        env=server_env(),
    )
    os.close(follower)
    try:
        os.write(leader, typed)
        out, error = process.communicate(timeout=120)
    finally:
        os.close(leader)
    return out.decode(), error.decode(), process.returncode


def interrupted(
    *args: str, ready: bytes, to_the_group: bool = True, cwd: Path = ROOT, input: bytes = b""
) -> tuple[str, str, int]:
    """``python -m objmcp ARGS`` in a process group of its own, as a shell's foreground job,
    given ``input`` (its stdin kept open), sent Ctrl-C once a line of its stderr starts with
    ``ready``: SIGINT to the group, as a terminal sends it, or to the process alone. To its
    end: its stdout, stderr and exit status (POSIX only)."""
    process = subprocess.Popen(
        [PYTHON, "-m", "objmcp", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=str(cwd),
        env=server_env(),
        start_new_session=True,
        preexec_fn=_interruptible,  # noqa: PLW1509 (one signal.signal, no lock taken)
    )
    lines: list[str] = []
    seen = threading.Event()

    def read() -> None:
        assert process.stderr is not None
        for raw in process.stderr:
            lines.append(raw.decode())
            if raw.startswith(ready):
                seen.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(input)
        process.stdin.flush()
        assert seen.wait(120), "".join(lines)
        if to_the_group:
            os.killpg(process.pid, signal.SIGINT)
        else:
            os.kill(process.pid, signal.SIGINT)
        process.wait(timeout=120)  # stderr is the reader's: not communicate()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdin.close()
    reader.join(10)
    return process.stdout.read().decode(), "".join(lines), process.returncode


@contextlib.contextmanager
def objmcp_run(target: str) -> Iterator[RawServer]:
    """``target`` served by ``objmcp run`` in a process of its own (its stderr dropped),
    closed when done."""
    server = RawServer("-m", "objmcp", "run", target, stderr=subprocess.DEVNULL)
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def anyio_backend() -> str:
    """The event loop of every ``pytest.mark.anyio`` test: asyncio (the official SDK's)."""
    return "asyncio"


def stdio_server(script: Path, *args: str) -> Any:
    """The official SDK's ``StdioServerParameters`` for ``python script *args``, with the
    source tree on ``PYTHONPATH``."""
    from mcp import StdioServerParameters  # here, not at import: conftest is every test's

    return StdioServerParameters(
        command=PYTHON, args=[str(script), *args], env={"PYTHONPATH": str(ROOT)}
    )


@pytest.fixture
def zoo() -> Iterator[RawServer]:
    """The zoo server, as a raw-pipe subprocess."""
    server = RawServer(str(ZOO))
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()


def _tool(name: str) -> str:
    """The path of a command-line tool, failing the test run with a clear message if absent."""
    path = shutil.which(name)
    if path is None:
        pytest.fail(
            f"{name!r} is not on PATH; the TypeScript client tests need Node.js 18+ and npm "
            f"(then run `npm ci` in {JS})",
            pytrace=False,
        )
    return path


def _npm_ci(folder: Path, package: Path) -> None:
    """Install ``folder``'s pinned packages (``npm ci``) unless ``package`` (the
    package.json of the one it is for) is there already; fail the run if that fails."""
    if package.exists():
        return
    npm = _tool("npm")
    done = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0 or not package.exists():
        pytest.fail(
            f"`npm ci` in {folder} failed (exit {done.returncode}):\n{done.stdout}\n{done.stderr}",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def node() -> str:
    """The node executable, with the pinned SDK installed in tests/js/node_modules."""
    node_path = _tool("node")
    _npm_ci(JS, JS_SDK_PACKAGE)
    return node_path


@pytest.fixture(scope="session")
def node2() -> str:
    """The node executable, with the pinned TypeScript client 2.x
    (``@modelcontextprotocol/client``) and the tasks extension's client package
    (``@modelcontextprotocol/ext-tasks``) installed in tests/js2/node_modules."""
    node_path = _tool("node")
    _npm_ci(JS2, JS2_CLIENT_PACKAGE)
    _npm_ci(JS2, JS2_TASKS_PACKAGE)
    return node_path


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real Redis (Debian's ``redis-server``, which scripts/test.sh installs) of the test
    run's own, on 127.0.0.1, nothing kept on disk."""
    process, url = start_redis(tmp_path_factory.mktemp("redis"))
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)


def start_redis(folder: Path, port: int | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """A ``redis-server`` on 127.0.0.1 (on ``port``, else a free one), nothing kept on
    disk, once it takes connections; and its URL."""
    import socket
    import time

    binary = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/sbin:/sbin")
    if binary is None:
        pytest.fail("redis-server is missing: apt-get install redis-server (scripts/test.sh does)")
    if port is None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
    arguments = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    process = subprocess.Popen(
        [binary, *arguments, "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while True:
        assert process.poll() is None, "redis-server stopped at start"
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        assert time.monotonic() < deadline, "redis-server did not start"
        time.sleep(0.05)
    return process, f"redis://127.0.0.1:{port}/0"
