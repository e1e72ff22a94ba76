"""The command line, through real processes: TARGETs, inspect, call, config and dev."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import NOTES, PYTHON, ROOT, ZOO, on_a_terminal, server_env

TOOLS_PY = '''
"""Tools for the command-line tests."""

import objmcp


def double(n: int) -> int:
    """Double a number."""
    return 2 * n


def greet(name: str, punctuation: str = "!") -> str:
    """Greet someone."""
    return f"hello {name}{punctuation}"


def show(x, y: int = 0):
    """Show what arrived."""
    return f"{x!r} {y!r}"


class Counter:
    """Counts."""

    def __init__(self, start: int = 0) -> None:
        self.value = start

    def bump(self, by: int = 1) -> int:
        """Add to the count."""
        self.value += by
        return self.value


class Needy:
    def __init__(self, size: int) -> None:
        self.size = size

    def size_of(self) -> int:
        """The size."""
        return self.size


def make_counter() -> Counter:
    return Counter(start=10)


def make_needy(size: int) -> Needy:
    return Needy(size)


class Outer:
    class Inner:
        def inside(self) -> str:
            """From inside."""
            return "inner"


TOOLS = {"double": double, "counter": Counter()}
'''


def objmcp(
    *args: str,
    cwd: Path | None = None,
    input: bytes | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m objmcp ARGS`` to its end."""
    return subprocess.run(
        [PYTHON, "-m", "objmcp", *args],
        input=input if input is not None else b"",
        capture_output=True,
        cwd=str(cwd or ROOT),
        env=env or server_env(),
        timeout=120,
        check=False,
    )


def messages(*items: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(item).encode() + b"\n" for item in items)


INIT: dict[str, Any] = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def request(request_id: Any, method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def serve_once(target: str, tool: str, arguments: dict[str, Any], cwd: Path) -> dict[str, Any]:
    """Serve ``target`` with ``objmcp run``, list its tools and call one; the call's result."""
    data = messages(
        INIT,
        INITIALIZED,
        request(1, "tools/list"),
        request(2, "tools/call", name=tool, arguments=arguments),
    )
    # every tool listed, not the search tools a module of more than 40 gets by default
    done = objmcp("run", "--discovery", "off", target, cwd=cwd, input=data)
    assert done.returncode == 0, done.stderr.decode()
    answers = {m["id"]: m for m in map(json.loads, done.stdout.splitlines())}
    assert tool in [entry["name"] for entry in answers[1]["result"]["tools"]]
    result: dict[str, Any] = answers[2]["result"]
    return result


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A folder with a tools module, a package holding it, and a folder to run from."""
    folder = tmp_path / "project"
    (folder / "pkg").mkdir(parents=True)
    (folder / "tools.py").write_text(TOOLS_PY)
    (folder / "pkg" / "__init__.py").write_text("")
    (folder / "pkg" / "service.py").write_text(TOOLS_PY)
    return folder


# --- TARGETs ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "tool", "arguments", "expected"),
    [
        ("tools.py", "double", {"n": 21}, "42"),  # a file: its functions
        ("./tools.py:greet", "greet", {"name": "Ada"}, "hello Ada!"),  # a function in a file
        ("tools", "greet", {"name": "Bo", "punctuation": "?"}, "hello Bo?"),  # a module by name
        ("pkg.service:Counter", "bump", {"by": 5}, "5"),  # a class, instantiated
        ("pkg.service:make_counter()", "bump", {}, "11"),  # a factory, called
        ("tools:TOOLS", "counter_bump", {"by": 2}, "2"),  # a dict of tools
        ("tools:TOOLS", "double", {"n": 4}, "8"),
        ("tools:Outer.Inner", "inside", {}, "inner"),  # a dotted attribute
        ("statistics", "median", {"data": [5, 1, 3]}, "3"),  # a stdlib module, unchanged
    ],
)
def test_every_target_form_serves(
    project: Path, target: str, tool: str, arguments: dict[str, Any], expected: str
) -> None:
    result = serve_once(target, tool, arguments, project)
    assert result["content"][0]["text"] == expected
    assert result["isError"] is False


def test_a_package_folder_target(project: Path) -> None:
    (project / "pkg" / "__init__.py").write_text(
        'from .service import double\n__all__ = ["double"]\n'
    )
    result = serve_once("pkg/", "double", {"n": 5}, project)
    assert result["content"][0]["text"] == "10"


def test_a_file_target_given_by_absolute_path_from_anywhere(project: Path, tmp_path: Path) -> None:
    result = serve_once(f"{project / 'tools.py'}:Counter", "bump", {"by": 3}, tmp_path)
    assert result["content"][0]["text"] == "3"


def test_verbs_are_reserved_only_in_first_position(tmp_path: Path) -> None:
    # "run inspect" serves the stdlib module inspect; "inspect inspect" lists it.
    result = serve_once("inspect", "cleandoc", {"doc": "  a\n  b"}, tmp_path)
    assert result["content"][0]["text"] == "a\nb"
    listed = objmcp("inspect", "inspect", "--json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr.decode()
    assert "cleandoc" in [tool["name"] for tool in json.loads(listed.stdout)["tools"]]
    off = ("--discovery", "off")  # every tool listed (57: search by default)
    listing = messages(INIT, request(1, "tools/list"))
    served = objmcp("run", *off, "inspect", cwd=tmp_path, input=listing)
    assert served.returncode == 0
    assert "getdoc" in served.stdout.decode()


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("tool.py", ["No such file: tool.py", "Did you mean 'tools.py'?"]),
        ("tools.py:Countr", ["has no attribute 'Countr'", "Did you mean 'Counter'", "It has:"]),
        ("tools:dubble", ["has no attribute 'dubble'", "'double'", "greet"]),
        ("statistcs", ["No module named 'statistcs'", "'statistics'", "Searched:"]),
        ("pkg.servise", ["package pkg has no module 'servise'", "'pkg.service'"]),
        ("tools:make_needy()", ["calls it with no arguments", "'size'"]),
        ("tools:double.nothing", ["has no attribute 'nothing'"]),
        ("tools:2x", ["is not a name to take from tools"]),
        ("broken.py", ["broken.py", "line 3", "ZeroDivisionError"]),
        ("needs_dep", ["No module named 'not_installed_anywhere'", "a module that needs_dep"]),
    ],
)
def test_targets_that_do_not_load_say_what_to_do(
    project: Path, target: str, said: list[str]
) -> None:
    (project / "broken.py").write_text("import os\n\nvalue = 1 / 0\n")
    (project / "needs_dep.py").write_text("import not_installed_anywhere\n")
    for verb in ("inspect", "run"):
        done = objmcp(verb, target, cwd=project)
        assert done.returncode == 2
        assert done.stdout == b""
        error = done.stderr.decode()
        assert error.startswith("objmcp: ")
        for words in said:
            assert words in error, error


def test_a_class_that_needs_arguments_serves_its_static_methods_with_a_warning(
    project: Path,
) -> None:
    done = objmcp("inspect", "tools:Needy", "--json", cwd=project)
    assert done.returncode == 0
    assert json.loads(done.stdout) == {"tools": []}
    assert "needs arguments" in done.stderr.decode()
    assert "no public callables" in done.stderr.decode()


# --- inspect ----------------------------------------------------------------------------------


@pytest.mark.parametrize("target", [f"{ZOO}:Zoo", f"{NOTES}:Notes", "statistics"])
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_inspect_json_is_what_the_sdk_client_lists(target: str, mode: str) -> None:
    import anyio
    from mcp import Client, StdioServerParameters

    async def listed() -> list[dict[str, Any]]:
        server = StdioServerParameters(
            command=PYTHON, args=["-m", "objmcp", "run", target], env=server_env()
        )
        async with Client(server, mode=mode) as client:
            tools = (await client.list_tools()).tools
        return [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in tools]

    done = objmcp("inspect", target, "--json")
    assert done.returncode == 0, done.stderr.decode()
    printed = json.loads(done.stdout)
    assert list(printed) == ["tools"]
    tools = anyio.run(listed)
    if mode == "legacy":  # 2025-11-25 adds each tool's execution.taskSupport (core tasks)
        for tool in tools:
            assert tool.pop("execution") == {"taskSupport": "optional"}, tool["name"]
    assert printed["tools"] == tools


def test_inspect_prints_a_table_and_warns_about_what_has_no_type(project: Path) -> None:
    done = objmcp("inspect", "tools.py", cwd=project)
    assert done.returncode == 0, done.stderr.decode()
    rows = {line.split()[0]: line for line in done.stdout.decode().splitlines()}
    # its classes too, each a tool that makes one (its instance shows its attributes)
    assert list(rows) == [
        *("TOOL", "double", "greet", "show"),
        *("Counter", "Needy", "make_counter", "make_needy"),
    ]
    assert "n: integer" in rows["double"] and "Double a number." in rows["double"]
    assert "name: string, punctuation?: string" in rows["greet"]
    assert "x: any, y?: integer" in rows["show"]
    warnings = done.stderr.decode().splitlines()
    assert (
        "objmcp: warning: tool 'show': parameter x has no type annotation (nor a type in the "
        "docstring or a stub), so any JSON value is accepted"
    ) in warnings
    assert not [line for line in warnings if "'double'" in line or "'greet'" in line]


def test_inspect_passes_on_what_the_object_model_warns(tmp_path: Path) -> None:
    (tmp_path / "odd.py").write_text(
        textwrap.dedent(
            """
            class Opaque:
                pass


            def take(other: "NoSuchName", thing: "Opaque | None" = None) -> None:
                '''Take a thing.'''
            """
        )
    )
    done = objmcp("inspect", "odd.py", "--include", "take", cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    error = done.stderr.decode()
    assert "cannot resolve the annotation 'NoSuchName'" in error
    assert "Opaque are left out" in error  # nothing builds one
    assert "no type annotation" not in error  # both are annotated
    assert done.stdout.decode().splitlines()[1].startswith("take")


# --- call -------------------------------------------------------------------------------------

Z = f"{ZOO}:Zoo"


def call(*args: str, cwd: Path | None = None) -> tuple[str, str, int]:
    done = objmcp("call", *args, cwd=cwd)
    return done.stdout.decode(), done.stderr.decode(), done.returncode


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["add", "a=2", "b=3"], "5"),  # integers, read as JSON
        (["echo", "text=42"], "42"),  # a string parameter: taken as written...
        (["echo", "text=[1, 2]"], "[1, 2]"),  # ... even when it looks like JSON
        (["echo", "text=héllo wörld ✓"], "héllo wörld ✓"),
        (["total", "numbers=[1, 2.5, 3]"], "6.5"),  # an array
        (["options", "name=abc", "x=1", "y=2"], '{"len":3,"x":1,"y":2}'),  # **kwargs: int
        (["nothing"], "null"),  # None is JSON's null, not an empty string
        (["count", "limit=3"], "[0,1,2]"),
    ],
)
def test_call_round_trips(args: list[str], expected: str) -> None:
    out, error, status = call(Z, *args)
    assert status == 0, error
    assert out == (expected + "\n" if expected else "")


def test_call_converts_every_kind_of_value() -> None:
    out, error, status = call(
        Z,
        "describe",
        "color=green",
        'point={"x": 1.5}',
        'span={"start": 1, "end": 4}',
        'person={"name": "Ada", "age": 36}',
        "when=2026-07-28T10:00:00+00:00",
        "day=2026-07-28",
        "ident=12345678-1234-5678-1234-567812345678",
        "amount=10.25",
        "path=/tmp/x.txt",
        "mode=slow",
        'pair=[2, "b"]',
        'labels=["x"]',
        "note=true",
    )
    assert status == 0, error
    seen = json.loads(out)
    assert seen["color"] == "Color:<Color.GREEN: 'green'>"
    assert seen["point"] == "Point:Point(x=1.5, y=0.0)"
    assert seen["span"] == "Span:Span(start=1, end=4)"
    assert seen["person"] == "dict:{'name': 'Ada', 'age': 36}"
    assert seen["day"] == "date:datetime.date(2026, 7, 28)"
    assert seen["amount"] == "Decimal:Decimal('10.25')"
    assert seen["mode"] == "str:'slow'"
    assert seen["pair"] == "tuple:(2, 'b')"
    assert seen["labels"] == "set:{'x'}"
    assert seen["note"] == "str:'true'"  # a string parameter: as written


def test_call_reads_untyped_values_as_scalars_or_text_and_key_json_as_json(
    project: Path,
) -> None:
    cases = {
        "x=hello": "'hello' 0",
        "x=1": "1 0",
        "x=true": "True 0",
        "x=null": "None 0",
        'x={"a": [1]}': """'{"a": [1]}' 0""",  # any value, so the text as typed
        'x:={"a": [1]}': "{'a': [1]} 0",
        'x:="1"': "'1' 0",
    }
    for word, expected in cases.items():
        out, error, status = call("tools.py", "show", word, "y=7", cwd=project)
        assert status == 0, error
        assert out == expected.replace(" 0", " 7") + "\n"


def test_call_exits_1_on_an_error_result() -> None:
    out, error, status = call(Z, "fail", "message=boom")
    assert (out, status) == ("ValueError: boom\n", 1)
    assert "Traceback" not in error and "boom" not in error  # the result says it, once

    out, _, status = call(Z, "add", "a=two", "b=3")
    assert status == 1 and "'a'" in out and "integer" in out

    out, _, status = call(Z, "refuse", "message=not today")
    assert (out, status) == ("not today\n", 1)


def test_call_json_prints_the_whole_result() -> None:
    out, _, status = call(Z, "add", "a=1", "b=1", "--json")
    assert status == 0
    result = json.loads(out)
    assert result["content"] == [{"type": "text", "text": "2"}]
    assert result["isError"] is False


def test_call_errors_that_stop_before_the_call() -> None:
    out, error, status = call(Z, "ad", "a=1")
    assert (out, status) == ("", 2)
    assert "no tool 'ad'" in error and "add" in error

    out, error, status = call(Z, "add", "a")
    assert (out, status) == ("", 2)
    assert "'a' is not key=value" in error

    out, error, status = call("no_such_module_here", "x")
    assert (out, status) == ("", 2)
    assert "No module named 'no_such_module_here'" in error


def test_call_keeps_stdout_for_the_result() -> None:
    out, error, status = call(Z, "noisy", "text=hi")
    assert status == 0
    assert out == "quiet hi\n"
    assert "print says hi" in error


def test_call_declines_questions_when_stdin_is_not_a_terminal() -> None:
    out, error, status = call(Z, "ask")
    assert (out, status) == ("decline:None\n", 0)
    assert "declined a question" in error and "Sure?" in error


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize(
    ("tool", "typed", "expected"),
    [
        ("ask", "y\n", "accept:True"),  # a yes/no question: asked once
        ("ask", "\nmaybe\nno\n", "accept:False"),  # asked again until y or n
        ("ask", "d\n", "decline:None"),
        ("ask", "c\n", "cancel:None"),
        ("ask_name", "\n\nAda Lovelace\n", "hello Ada Lovelace"),
        ("ask_twice", "y\nAda\n\ny\n2\n", "Details(name='Ada', age=30) <Color.GREEN: 'green'>"),
        (
            "ask_twice",
            "y\nAda\nold\n41\ny\nred\n",
            "Details(name='Ada', age=41) <Color.RED: 'red'>",
        ),
    ],
)
def test_call_asks_questions_on_the_terminal(tool: str, typed: str, expected: str) -> None:
    out, said, status = on_a_terminal("call", Z, tool, typed=typed.encode())
    assert status == 0, said
    assert out == expected + "\n"
    assert "The tool asks:" in said


# --- config -----------------------------------------------------------------------------------


def config(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> Any:
    done = objmcp("config", *args, cwd=cwd, env=env)
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("client", "key", "typed"),
    [
        ("claude", "mcpServers", False),
        ("claude-code", "mcpServers", True),
        ("vscode", "servers", True),
        ("cursor", "mcpServers", False),
    ],
)
def test_config_prints_the_clients_entry(
    client: str, key: str, typed: bool, tmp_path: Path
) -> None:
    snippet = config(client, f"{NOTES}:Notes", cwd=tmp_path)
    assert list(snippet) == [key]
    entry = snippet[key]["Notes"]
    assert entry["command"] == PYTHON and os.path.isabs(entry["command"])
    assert entry["args"] == ["-m", "objmcp", "run", f"{NOTES}:Notes"]
    assert ("type" in entry) is typed and entry.get("type", "stdio") == "stdio"


def test_config_makes_a_relative_file_target_absolute_and_passes_options(project: Path) -> None:
    given = ["--name", "counts", "--include", "bump", "--call-timeout", "30", "--grace", "0.5"]
    snippet = config("cursor", "tools.py:Counter", *given, cwd=project)
    entry = snippet["mcpServers"]["counts"]
    expected = ["-m", "objmcp", "run", f"{project / 'tools.py'}:Counter"]
    assert entry["args"] == [*expected, *given]  # as written: 30, not 30.0


def test_a_configured_module_target_starts_from_anywhere(project: Path, tmp_path: Path) -> None:
    snippet = config("claude", "pkg.service:Counter", "--name", "counter", cwd=project)
    entry = snippet["mcpServers"]["counter"]
    assert entry["args"][-3:] == ["pkg.service:Counter", "--name", "counter"]
    assert str(project) in entry["env"]["PYTHONPATH"].split(os.pathsep)
    # Start it as a client would: its own environment, another folder.
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run(
        [entry["command"], *entry["args"]],
        input=messages(INIT, INITIALIZED, request(1, "tools/call", name="bump", arguments={})),
        capture_output=True,
        cwd=str(elsewhere),
        env={**environment, **entry["env"]},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[0]["result"]["serverInfo"]["name"] == "counter"
    assert answers[1]["result"]["content"][0]["text"] == "1"


def test_config_write_merges_and_keeps_a_backup(tmp_path: Path) -> None:
    file = tmp_path / "conf" / "claude_desktop_config.json"
    file.parent.mkdir()
    original: dict[str, Any] = {
        "mcpServers": {"other": {"command": "node", "args": ["x.js"]}},
        "globalShortcut": "Ctrl+Space",
    }
    file.write_text(json.dumps(original))
    done = objmcp("config", "claude", f"{NOTES}:Notes", "--write", "--file", str(file))
    assert done.returncode == 0, done.stderr.decode()
    written = json.loads(file.read_text())
    assert written["globalShortcut"] == "Ctrl+Space"
    assert written["mcpServers"]["other"] == original["mcpServers"]["other"]
    assert written["mcpServers"]["Notes"] == json.loads(done.stdout)["mcpServers"]["Notes"]
    assert (
        json.loads((tmp_path / "conf" / "claude_desktop_config.json.bak").read_text()) == original
    )
    assert "added the entry 'Notes'" in done.stderr.decode()

    again = objmcp(
        "config", "claude", f"{NOTES}:Notes", "--exclude", "remove", "--write", "--file", str(file)
    )
    assert again.returncode == 0
    assert "replaced the entry 'Notes'" in again.stderr.decode()
    rewritten = json.loads(file.read_text())
    assert list(rewritten["mcpServers"]) == ["other", "Notes"]
    assert rewritten["mcpServers"]["Notes"]["args"][-2:] == ["--exclude", "remove"]


def test_config_write_creates_the_file_and_its_folders(tmp_path: Path) -> None:
    file = tmp_path / "a" / "b" / "mcp.json"
    done = objmcp("config", "vscode", "statistics", "--write", "--file", str(file))
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(file.read_text())["servers"]["statistics"]["type"] == "stdio"
    assert not (tmp_path / "a" / "b" / "mcp.json.bak").exists()


def test_config_write_goes_to_the_clients_usual_place(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {**server_env(), "HOME": str(home), "USERPROFILE": str(home)}
    (home / ".cursor").mkdir()
    (home / ".cursor" / "mcp.json").write_text('{"mcpServers": {"mine": {"command": "x"}}}')
    config("cursor", "statistics", "--write", cwd=tmp_path, env=env)
    written = json.loads((home / ".cursor" / "mcp.json").read_text())
    assert set(written["mcpServers"]) == {"mine", "statistics"}

    config("claude-code", "statistics", "--scope", "project", "--write", cwd=tmp_path, env=env)
    assert "statistics" in json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]

    config("claude-code", "statistics", "--scope", "local", "--write", cwd=tmp_path, env=env)
    state = json.loads((home / ".claude.json").read_text())
    assert "statistics" in state["projects"][str(tmp_path.resolve())]["mcpServers"]


def test_config_leaves_a_file_it_cannot_read_alone(tmp_path: Path) -> None:
    file = tmp_path / "mcp.json"
    text = '{\n  // my servers\n  "servers": {}\n}\n'
    file.write_text(text)
    done = objmcp("config", "vscode", "statistics", "--write", "--file", str(file))
    assert done.returncode == 2
    assert "not plain JSON" in done.stderr.decode() and "by hand" in done.stderr.decode()
    assert file.read_text() == text
    assert json.loads(done.stdout)["servers"]["statistics"]  # the snippet, to add by hand


def test_config_refuses_a_target_that_does_not_load(tmp_path: Path) -> None:
    done = objmcp("config", "claude", "statistcs", "--write", "--file", str(tmp_path / "c.json"))
    assert done.returncode == 2
    assert "Did you mean 'statistics'" in done.stderr.decode()
    assert not (tmp_path / "c.json").exists()


# --- dev --------------------------------------------------------------------------------------


class DevServer:
    """``objmcp dev`` through pipes, its messages read by a thread, with deadlines."""

    def __init__(self, target: str, cwd: Path, command: list[str] | None = None) -> None:
        self.process = subprocess.Popen(
            command or [PYTHON, "-m", "objmcp", "dev", target, "--interval", "0.1"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=str(cwd),
            env=server_env(),
        )
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.stderr = b""
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.inbox.put(json.loads(line))

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def next(self, timeout: float = 60) -> Any:
        return self.inbox.get(timeout=timeout)

    def answer(self, message: dict[str, Any]) -> Any:
        """Send a request; its answer (notifications before it are dropped)."""
        self.send(message)
        deadline = time.monotonic() + 60
        while True:
            got = self.next(max(deadline - time.monotonic(), 0.01))
            if got.get("id") == message["id"]:
                return got

    def wait_for(self, method: str) -> list[Any]:
        """Messages up to and including the first notification ``method``."""
        seen = []
        deadline = time.monotonic() + 60
        while True:
            got = self.next(max(deadline - time.monotonic(), 0.01))
            seen.append(got)
            if got.get("method") == method:
                return seen

    def tools(self, request_id: int) -> list[str]:
        return [
            t["name"] for t in self.answer(request(request_id, "tools/list"))["result"]["tools"]
        ]

    def call_text(self, request_id: int, name: str, **arguments: Any) -> str:
        answer = self.answer(request(request_id, "tools/call", name=name, arguments=arguments))
        return str(answer["result"]["content"][0]["text"])

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        status = self.process.wait(timeout=60)
        assert self.process.stderr is not None
        self.stderr = self.process.stderr.read()
        return status


def edit(path: Path, text: str) -> None:
    """Rewrite a file so that the change shows: new content, a newer modification time."""
    before = path.stat().st_mtime_ns
    path.write_text(text)
    if path.stat().st_mtime_ns == before:  # a coarse clock
        os.utime(path, ns=(before + 1_000_000_000, before + 1_000_000_000))


ONE = 'def one() -> str:\n    """One."""\n    return "one"\n'
TWO = 'def two(n: int) -> int:\n    """Two."""\n    return 2 * n\n'
SLOW = """
import pathlib
import time


def slow() -> str:
    \"\"\"Slow.\"\"\"
    pathlib.Path(__file__).with_name("started").touch()
    time.sleep(30)
    return "slept"
"""


@pytest.fixture
def dev(tmp_path: Path) -> Any:
    servers: list[DevServer] = []

    def start(target: str, command: list[str] | None = None) -> DevServer:
        server = DevServer(target, tmp_path, command)
        servers.append(server)
        return server

    yield start
    for server in servers:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()


def test_dev_reloads_after_an_edit(tmp_path: Path, dev: Any) -> None:
    module = tmp_path / "devtools.py"
    module.write_text(ONE)
    server = dev("devtools.py")
    init = server.answer(INIT)["result"]
    assert init["capabilities"]["tools"]["listChanged"] is True
    server.send(INITIALIZED)
    assert server.tools(1) == ["one"]
    assert server.call_text(2, "one") == "one"

    edit(module, ONE.replace('"one"\n', '"uno"\n') + "\n\n" + TWO)
    server.wait_for("notifications/tools/list_changed")
    assert server.tools(3) == ["one", "two"]
    assert server.call_text(4, "two", n=21) == "42"
    assert server.call_text(5, "one") == "uno"
    assert server.close() == 0
    assert b"restarting" in server.stderr


def test_config_dev_writes_an_entry_that_restarts_the_server_after_an_edit(
    tmp_path: Path, dev: Any
) -> None:
    module = tmp_path / "devtools.py"
    module.write_text(ONE)
    snippet = config("claude", "devtools.py", "--dev", "--name", "tools", cwd=tmp_path)
    entry = snippet["mcpServers"]["tools"]
    assert entry["args"] == ["-m", "objmcp", "dev", str(module), "--name", "tools"]
    server = dev("", [entry["command"], *entry["args"]])  # as the client starts it
    server.answer(INIT)
    server.send(INITIALIZED)
    assert server.tools(1) == ["one"]
    edit(module, ONE + "\n\n" + TWO)
    server.wait_for("notifications/tools/list_changed")
    assert server.call_text(2, "two", n=4) == "8"
    assert server.close() == 0


def test_dev_answers_every_request_through_restarts_and_broken_saves(
    tmp_path: Path, dev: Any
) -> None:
    module = tmp_path / "devtools.py"
    module.write_text(ONE + "\n\n" + SLOW)
    server = dev(str(module))
    server.answer(INIT)
    server.send(INITIALIZED)
    server.send(request(1, "tools/call", name="slow", arguments={}))
    deadline = time.monotonic() + 60
    while not (tmp_path / "started").exists():  # the call is running
        assert time.monotonic() < deadline, "the slow call never started"
        time.sleep(0.05)

    edit(module, ONE + "\n\ndef broken(:\n")  # a save with a syntax error
    lost = server.next()
    assert lost["id"] == 1 and "restarted" in lost["error"]["message"]
    deadline = time.monotonic() + 60
    while True:  # the new child fails to load: requests are refused, not left unanswered
        answer = server.answer(request(2, "tools/list"))
        if "error" in answer:
            assert "not running" in answer["error"]["message"]
            break
        assert time.monotonic() < deadline, "the broken file was never noticed"
        time.sleep(0.2)

    edit(module, ONE + "\n\n" + TWO)  # fixed
    server.wait_for("notifications/tools/list_changed")
    assert server.tools(3) == ["one", "two"]
    assert server.close() == 0
    assert b"SyntaxError" in server.stderr


def test_dev_replays_the_session_so_the_client_needs_no_new_handshake(
    tmp_path: Path, dev: Any
) -> None:
    (tmp_path / "pkgdev").mkdir()
    (tmp_path / "pkgdev" / "__init__.py").write_text("")
    helper = tmp_path / "pkgdev" / "helper.py"
    helper.write_text("WORD = 'first'\n")
    (tmp_path / "pkgdev" / "tools.py").write_text(
        "from pkgdev.helper import WORD\n\n\ndef word() -> str:\n    return WORD\n"
    )
    server = dev("pkgdev.tools")
    server.answer({**INIT, "params": {**INIT["params"], "protocolVersion": "2025-06-18"}})
    server.send(INITIALIZED)
    assert server.answer(request(1, "logging/setLevel", level="debug"))["result"] == {}
    assert server.call_text(2, "word") == "first"

    edit(helper, "WORD = 'second'\n")  # a module the target imports, in its package
    server.wait_for("notifications/tools/list_changed")
    assert server.call_text(3, "word") == "second"  # no initialize sent again
    assert server.close() == 0


def test_dev_answers_in_the_clients_framing(tmp_path: Path) -> None:
    (tmp_path / "devtools.py").write_text(ONE)

    def frame(message: dict[str, Any]) -> bytes:
        body = json.dumps(message).encode()
        return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)

    data = frame(INIT) + frame(INITIALIZED) + frame(request(1, "tools/list"))
    done = objmcp("dev", "devtools.py", cwd=tmp_path, input=data)
    assert done.returncode == 0, done.stderr.decode()
    out, answers = done.stdout, []
    while out:
        header, _, rest = out.partition(b"\r\n\r\n")
        assert header.startswith(b"Content-Length: "), out[:80]
        length = int(header.split(b":")[1])
        answers.append(json.loads(rest[:length]))
        out = rest[length:]
    assert [answer["id"] for answer in answers] == [0, 1]
    assert answers[0]["result"]["capabilities"]["tools"]["listChanged"] is True
    assert [tool["name"] for tool in answers[1]["result"]["tools"]] == ["one"]


def test_inspect_says_when_run_would_list_the_search_tools(tmp_path: Path) -> None:
    big = objmcp("inspect", "inspect", cwd=tmp_path)  # 57 tools, over auto's 40
    said = big.stderr.decode()
    assert big.returncode == 0 and "note: objmcp run lists search_tools" in said, said
    assert "discovery auto" in said and "cleandoc" in big.stdout.decode()
    off = objmcp("inspect", "inspect", "--discovery", "off", cwd=tmp_path)
    small = objmcp("inspect", "statistics", cwd=tmp_path)  # 18 tools
    assert "search_tools" not in off.stderr.decode() + small.stderr.decode()
    code = objmcp("inspect", "statistics", "--discovery", "code", cwd=tmp_path).stderr.decode()
    assert "lists search_tools, describe_tools and execute instead" in code, code
    assert "(discovery code;" in code and "discovery auto" not in code


def test_call_reaches_a_tool_of_a_target_that_lists_the_search_tools(tmp_path: Path) -> None:
    # os has 141 tools: objmcp run lists the search tools, objmcp call still takes any by name
    done = objmcp("call", "os", "getcwd", cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().strip() == str(tmp_path)


def test_config_and_dev_pass_the_discovery_options_on(tmp_path: Path) -> None:
    done = objmcp(
        "config",
        "claude",
        "statistics",
        "--discovery",
        "search",
        "--discovery-threshold",
        "5",
        "--max-surfaced",
        "8",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr.decode()
    entry = json.loads(done.stdout)["mcpServers"]["statistics"]
    words = entry["args"]
    for flag, value in (
        ("--discovery", "search"),
        ("--discovery-threshold", "5"),
        ("--max-surfaced", "8"),
    ):
        assert words[words.index(flag) + 1] == value, words
    helped = objmcp("dev", "--help", cwd=tmp_path)
    assert "--discovery" in helped.stdout.decode()
