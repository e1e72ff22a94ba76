"""``objmcp run --sandbox`` on stdio, through real processes in a real box (Debian's
bubblewrap, which scripts/test.sh installs): what the served code may do still works,
through the official SDK client; what it may not is refused, each refusal said as the
box's, and the server serves on. Escapes are tried: a symbolic link out, /proc's views of
the host, the parent's environment, ptrace, inherited descriptors."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PYTHON, ROOT, RawServer, server_env
from http_helpers import free_port

BOXED = ROOT / "tests" / "servers" / "boxed.py"
EVERY = ("read", "write", "copy", "link", "run", "connect", "environment", "parent")
EVERY += ("descriptors", "trace", "echo", "fetch")
SECRET = "the-state-key-of-the-host-0123456789abcdef"


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A secret planted outside the box, a folder it may read, one it may write."""
    root = tmp_path_factory.mktemp("box")
    outside, readable, writable = root / "outside", root / "readable", root / "writable"
    for folder in (outside, readable, writable):
        folder.mkdir()
    (outside / "secret.txt").write_text("the host's secret")
    (readable / "notes.txt").write_text("readable notes")
    return {"outside": outside, "readable": readable, "writable": writable}


class Boxed:
    """``objmcp run --sandbox`` of ``target`` (``tests/servers/boxed.py``) with the tools
    ``named`` included, spoken to over raw pipes."""

    def __init__(
        self,
        places: dict[str, Path],
        target: str = str(BOXED),
        named: tuple[str, ...] = EVERY,
        *more: str,
    ) -> None:
        includes = [word for name in named for word in ("--include", name)]
        command = ["-m", "objmcp", "run", "--sandbox", "--discovery", "off", *includes, *more]
        command += ["--readable", str(places["readable"]), "--writable", str(places["writable"])]
        env = {"OBJMCP_STATE_KEY": SECRET, "OBJMCP_TOKEN": SECRET}
        self.server = RawServer(*command, target, env=env, stderr=subprocess.DEVNULL)
        self.server.send(
            _request(
                0,
                "initialize",
                protocolVersion="2025-11-25",
                capabilities={},
                clientInfo={"name": "t", "version": "0"},
            )
        )
        assert "result" in self.server.read()
        self.server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.number = 0

    def call(self, tool: str, **arguments: Any) -> tuple[bool, Any]:
        """Whether the call of ``tool`` failed, and its text (its value, when JSON)."""
        self.number += 1
        self.server.send(_request(self.number, "tools/call", name=tool, arguments=arguments))
        answer = self.server.read()
        result = answer["result"]
        text = result["content"][0]["text"] if result["content"] else ""
        value = result.get("structuredContent", {}).get("result", text)
        return result.get("isError", False), value


def _request(number: int, method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": number, "method": method, "params": params}


@pytest.fixture(scope="module")
def boxed(places: dict[str, Path]) -> Iterator[Boxed]:
    started = Boxed(places)
    yield started
    started.server.process.stdin.close()  # type: ignore[union-attr]
    started.server.process.wait(timeout=20)


def test_what_the_box_allows_still_works(boxed: Boxed, places: dict[str, Path]) -> None:
    assert boxed.call("read", path=str(places["readable"] / "notes.txt")) == (
        False,
        "readable notes",
    )
    written = places["writable"] / "out.txt"
    assert boxed.call("write", path=str(written), text="from the box")[0] is False
    assert written.read_text() == "from the box"
    copied = places["writable"] / "copy.txt"
    assert boxed.call("copy", source=str(written), destination=str(copied))[0] is False
    assert copied.read_text() == "from the box"
    assert boxed.call("write", path="/tmp/scratch.txt", text="private")[0] is False
    assert (
        not Path("/tmp/scratch.txt").exists() or Path("/tmp/scratch.txt").read_text() != "private"
    )


def test_reading_outside_is_refused_and_said(boxed: Boxed, places: dict[str, Path]) -> None:
    secret = places["outside"] / "secret.txt"
    failed, said = boxed.call("read", path=str(secret))
    assert failed and said.startswith(f"sandbox: cannot read {secret}: outside what the box shows")
    for path in ("/etc/passwd", f"/proc/self/root{secret}", str(Path.home() / ".bashrc")):
        failed, said = boxed.call("read", path=path)
        assert failed and said.startswith("sandbox: cannot read"), said


def test_writing_outside_is_refused_and_said(boxed: Boxed, places: dict[str, Path]) -> None:
    readable = places["readable"] / "changed.txt"
    failed, said = boxed.call("write", path=str(readable), text="no")
    assert failed and said.startswith(f"sandbox: cannot write {readable}: read-only"), said
    assert not readable.exists()
    target = ROOT / "tests" / "servers" / "written-by-the-box.txt"
    failed, said = boxed.call("write", path=str(target), text="no")
    assert failed and "read-only" in said and not target.exists()


def test_a_link_out_of_the_box_leads_nowhere(boxed: Boxed, places: dict[str, Path]) -> None:
    secret = places["outside"] / "secret.txt"
    link = places["writable"] / "to-the-secret"
    assert boxed.call("link", target=str(secret), path=str(link))[0] is False
    failed, said = boxed.call("read", path=str(link))
    assert failed and "sandbox: cannot read" in said, said
    assert link.read_text() == "the host's secret"  # (outside, the link works)


def test_no_program_runs_in_the_box(boxed: Boxed) -> None:
    for program in ("sh", "/bin/sh", sys.executable, shutil.which("python3") or "python3"):
        failed, said = boxed.call("run", program=program)
        assert failed and said.startswith("sandbox: cannot run"), (program, said)


def test_the_network_is_out_of_reach(boxed: Boxed) -> None:
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        failed, said = boxed.call("connect", port=listening.getsockname()[1])
        # a library that wraps the socket's error (urllib's URLError) is read through
        wrapped, through = boxed.call("fetch", port=listening.getsockname()[1])
    assert failed and said.startswith("sandbox: cannot connect"), said
    assert wrapped and through.startswith("sandbox: cannot connect"), through


def test_no_secret_of_the_host_is_in_the_box(boxed: Boxed) -> None:
    failed, environment = boxed.call("environment")
    assert not failed and SECRET not in json.dumps(environment)
    assert not set(environment) & {"OBJMCP_STATE_KEY", "OBJMCP_TOKEN", "HOME_OF_HOST"}
    failed, parent = boxed.call("parent")
    assert not failed and parent == 1  # the box's first process, not the host's
    failed, shown = boxed.call("read", path="/proc/1/environ")
    assert not failed and SECRET not in shown and shown == ""
    failed, said = boxed.call("read", path=f"/proc/{os.getpid()}/environ")  # this test
    assert failed and "sandbox" in said


def test_ptrace_and_inherited_descriptors_lead_nowhere(boxed: Boxed) -> None:
    failed, traced = boxed.call("trace", pid=1)
    assert not failed and traced < 0  # refused
    failed, held = boxed.call("descriptors")
    assert not failed
    numbers = [int(line.split()[0]) for line in held]
    assert numbers[:3] == [0, 1, 2], held
    # beyond stdio, only the server's own event loop (pipes, sockets, epoll): no file
    # of the host's held open across the box's wall
    assert not [line for line in held[3:] if " /" in line], held


def test_modules_served_as_they_are_stay_in_the_box(places: dict[str, Path]) -> None:
    secret = str(places["outside"] / "secret.txt")
    notes = str(places["readable"] / "notes.txt")
    copied = str(places["writable"] / "copied.txt")
    table = places["readable"] / "table.csv"
    table.write_text("a,b\n1,2\n")
    said: dict[str, tuple[bool, Any]] = {}
    for target, named, calls in (
        (
            "shutil",
            ("copyfile",),
            {
                "copy out": ("copyfile", {"src": secret, "dst": copied}),
                "copy in": ("copyfile", {"src": notes, "dst": copied}),
                "copy over": ("copyfile", {"src": notes, "dst": notes + ".2"}),
            },
        ),
        (
            "os",
            ("listdir",),
            {
                "list out": ("listdir", {"path": str(places["outside"])}),
                "list in": ("listdir", {"path": str(places["readable"])}),
            },
        ),
        ("subprocess", ("getoutput",), {"shell": ("getoutput", {"cmd": "id"})}),
        (
            "pandas",
            ("read_csv",),
            {
                "table out": ("read_csv", {"filepath_or_buffer": secret}),
            },
        ),
    ):
        server = Boxed(places, target, named)
        try:
            for label, (tool, arguments) in calls.items():
                said[label] = server.call(tool, **arguments)
        finally:
            server.server.process.stdin.close()  # type: ignore[union-attr]
            server.server.process.wait(timeout=20)
    assert said["copy out"][0] and said["copy out"][1].startswith(f"sandbox: cannot read {secret}")
    assert said["copy in"][0] is False and Path(copied).read_text() == "readable notes"
    assert said["copy over"][0] and "read-only" in said["copy over"][1]
    assert said["list out"][0] and said["list out"][1].startswith("sandbox: cannot read")
    assert said["list in"][0] is False and "notes.txt" in said["list in"][1]
    assert said["shell"][0] and said["shell"][1].startswith("sandbox: cannot run"), said["shell"]
    assert said["table out"][0] and "sandbox: cannot read" in said["table out"][1]


def test_the_official_client_calls_through_the_box(places: dict[str, Path]) -> None:
    notes = str(places["readable"] / "notes.txt")
    script = f"""
import anyio, json
from mcp import StdioServerParameters, ClientSession
from mcp.client.stdio import stdio_client

async def main():
    parameters = StdioServerParameters(command={PYTHON!r}, args=["-m", "objmcp", "run",
        "--sandbox", "--readable", {str(places["readable"])!r}, {str(BOXED)!r}],
        env={json.dumps(server_env())})
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            result = await session.call_tool("read", {{"path": {notes!r}}})
            print(json.dumps([result.is_error, result.content[0].text]))

anyio.run(main)
"""
    done = subprocess.run(
        [PYTHON, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [False, "readable notes"]


@pytest.mark.parametrize("http", [False, True], ids=["stdio", "http"])
def test_without_bubblewrap_the_box_is_refused_at_start(http: bool) -> None:
    # over HTTP, before the front would start a boxed child (or listen)
    over = ("--http", "--port", str(free_port())) if http else ()
    env = {**server_env(), "PATH": "/nonexistent"}
    done = subprocess.run(
        [PYTHON, "-m", "objmcp", "run", *over, "--sandbox", str(BOXED)],
        input=b"",
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == b""
    assert "--sandbox needs bubblewrap (bwrap)" in done.stderr.decode()


def test_an_allowed_address_is_the_only_way_out(places: dict[str, Path]) -> None:
    with socket.socket() as echoing, socket.socket() as other:
        echoing.bind(("127.0.0.1", 0))
        echoing.listen()
        other.bind(("127.0.0.1", 0))
        other.listen()
        port, closed_port = echoing.getsockname()[1], other.getsockname()[1]

        def serve_echo() -> None:
            while True:
                try:
                    connection, _ = echoing.accept()
                except OSError:
                    return
                with connection:
                    got = b""
                    while chunk := connection.recv(4096):
                        got += chunk
                    connection.sendall(b"echo: " + got)

        threading.Thread(target=serve_echo, daemon=True).start()
        server = Boxed(places, str(BOXED), ("echo",), "--allow-net", f"localhost:{port}")
        try:
            reached = server.call("echo", host="localhost", port=port, text="hello")
            by_address = server.call("echo", host="127.0.0.1", port=port, text="again")
            refused = server.call("echo", host="127.0.0.1", port=closed_port, text="no")
        finally:
            server.server.process.stdin.close()  # type: ignore[union-attr]
            server.server.process.wait(timeout=20)
    assert reached == (False, "echo: hello"), reached
    assert by_address == (False, "echo: again"), by_address
    assert refused[0], refused
    assert refused[1].startswith(f"sandbox: cannot connect: it reaches only localhost:{port}")


def test_an_address_to_allow_is_a_name_or_loopback() -> None:
    done = subprocess.run(
        [PYTHON, "-m", "objmcp", "run", "--sandbox", "--allow-net", "10.0.0.1:80", str(BOXED)],
        input=b"",
        capture_output=True,
        env=server_env(),
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == b""
    assert "give the host by its name" in done.stderr.decode()


def test_the_verbs_that_start_a_server_pass_the_box_on(places: dict[str, Path]) -> None:
    secret = str(places["outside"] / "secret.txt")
    called = subprocess.run(
        [
            PYTHON,
            "-m",
            "objmcp",
            "call",
            "--sandbox",
            "--include",
            "read",
            str(BOXED),
            "read",
            f"path={secret}",
        ],
        capture_output=True,
        text=True,
        env=server_env(),
        timeout=60,
        check=False,
    )
    assert called.returncode == 1, called  # an error result
    assert called.stdout.startswith(f"sandbox: cannot read {secret}"), called.stdout
    assert "Traceback" not in called.stderr and "serving" not in called.stderr, called.stderr
    configured = subprocess.run(
        [
            PYTHON,
            "-m",
            "objmcp",
            "config",
            "claude",
            str(BOXED),
            "--sandbox",
            "--readable",
            str(places["readable"]),
        ],
        capture_output=True,
        text=True,
        env=server_env(),
        timeout=60,
        check=False,
    )
    assert configured.returncode == 0, configured.stderr
    entry = json.loads(configured.stdout)["mcpServers"]["boxed"]
    assert entry["args"][-3:] == ["--sandbox", "--readable", str(places["readable"])], entry


def test_an_allowed_low_port_is_listened_to_in_the_box(places: dict[str, Path]) -> None:
    # A port below 1024 needs the one capability the box then keeps (to listen on it in
    # its own network): without it the box's server could not start. Nothing of the host's
    # listens on port 1 here, so the connection the box carries out is closed at once.
    server = Boxed(places, str(BOXED), ("echo",), "--allow-net", "localhost:1")
    try:
        answered = server.call("echo", host="localhost", port=1, text="hello")
    finally:
        server.server.process.stdin.close()  # type: ignore[union-attr]
        server.server.process.wait(timeout=20)
    assert answered == (False, ""), answered


def test_a_program_serves_itself_boxed_from_python(places: dict[str, Path]) -> None:
    script = ROOT / "tests" / "servers" / "boxed_script.py"
    secret = places["outside"] / "secret.txt"
    notes = places["readable"] / "notes.txt"
    server = RawServer(str(script), str(places["readable"]), stderr=subprocess.DEVNULL)
    try:
        server.send(
            _request(
                0,
                "initialize",
                protocolVersion="2025-11-25",
                capabilities={},
                clientInfo={"name": "t", "version": "0"},
            )
        )
        assert "result" in server.read()
        answers = []
        for number, (tool, arguments) in enumerate(
            [("boxed", {}), ("read", {"path": str(notes)}), ("read", {"path": str(secret)})], 1
        ):
            server.send(_request(number, "tools/call", name=tool, arguments=arguments))
            answers.append(server.read()["result"])
    finally:
        server.process.stdin.close()  # type: ignore[union-attr]
        server.process.wait(timeout=20)
    boxed, readable, outside = answers
    assert boxed["structuredContent"] == {"result": True}
    assert readable["content"][0]["text"] == "readable notes" and not readable["isError"]
    assert outside["isError"]
    assert outside["content"][0]["text"].startswith(f"sandbox: cannot read {secret}")


def test_sandbox_options_are_checked_when_made() -> None:
    import objmcp

    with pytest.raises(TypeError, match="list of strings"):
        objmcp.Sandbox(readable="/data")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="number of bytes"):
        objmcp.Sandbox(memory=-1)
    assert objmcp.Sandbox(writable=["/a"]).writable == ("/a",)
