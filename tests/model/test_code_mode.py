"""Code mode (``--discovery code``, issue 44) through real server processes: the tools said
as Python stubs, ``execute`` running a model's Python in pydantic-monty's sandbox with the
tools as its only way out, its answers checked against the library called directly, its
escapes refused within their limits (the server serving on), and a tool that asks the user
from inside the code: the code parked and resumed, never run again from the top."""

from __future__ import annotations

import ast
import json
import math
import os
import signal
import statistics
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PYTHON, ROOT, server_env
from hypothesis import given
from hypothesis import strategies as st

from objmcp import Toolbox
from objmcp.model.discovery.stubs import module_name, placed, python_type, stub

LEDGER = f"{ROOT / 'tests' / 'servers' / 'code_tools.py'}:Ledger"
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
}


class Modern:
    """``objmcp run --discovery code TARGET`` on stdio, spoken to in 2026-07-28."""

    def __init__(self, target: str, *options: str, state_key: str | None = None) -> None:
        command = [PYTHON, "-m", "objmcp", "run", "--discovery", "code", *options, target]
        env = server_env()
        if state_key is not None:
            env["OBJMCP_STATE_KEY"] = state_key
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self.number = 0

    def answer(self, method: str, **params: Any) -> dict[str, Any]:
        """The whole response to a request (its result, or its error)."""
        self.number += 1
        message = {"jsonrpc": "2.0", "id": self.number, "method": method}
        message["params"] = {**params, "_meta": META}
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write((json.dumps(message) + "\n").encode())
        self.process.stdin.flush()
        response: dict[str, Any] = json.loads(self.process.stdout.readline())
        return response

    def request(self, method: str, **params: Any) -> Any:
        return self.answer(method, **params)["result"]

    def retry(self, code: str, asked: dict[str, Any], yes: bool = True) -> dict[str, Any]:
        """The whole response to ``execute(code)`` sent again with the answer ``yes`` to the
        one question ``asked`` (an ``input_required`` result, maybe another server's)."""
        ((key, _),) = asked["inputRequests"].items()
        return self.answer(
            "tools/call",
            name="execute",
            arguments={"code": code},
            inputResponses={key: {"action": "accept", "content": {"value": yes}}},
            requestState=asked["requestState"],
        )

    def describe(self, *names: str) -> str:
        """What ``describe_tools`` says of ``names``: their Python stubs."""
        result = self.request("tools/call", name="describe_tools", arguments={"names": names})
        text: str = result["content"][0]["text"]
        return text

    def execute(self, code: str) -> tuple[bool, str]:
        result = self.request("tools/call", name="execute", arguments={"code": code})
        return result["isError"], result["content"][0]["text"]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)

    def __enter__(self) -> Modern:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@pytest.fixture(scope="module")
def stats_server() -> Iterator[Modern]:
    with Modern("statistics", "--code-time", "2", "--code-calls", "50") as server:
        yield server


def test_the_tools_are_listed_as_search_describe_and_execute(stats_server: Modern) -> None:
    listed = stats_server.request("tools/list")["tools"]
    assert [tool["name"] for tool in listed] == ["search_tools", "describe_tools", "execute"]
    found = stats_server.request("tools/call", name="search_tools", arguments={"query": "median"})[
        "content"
    ][0]["text"]
    module = ast.parse(found)  # Python, as it says
    names = {node.name for node in module.body if isinstance(node, ast.FunctionDef)}
    assert "median" in names and found.startswith("# module statistics")
    described = stats_server.describe("statistics.pstdev", "nope")
    assert "def pstdev(data:" in described and "no tool is called nope" in described


def test_chained_calls_answer_as_the_library_does(stats_server: Modern) -> None:
    data = [2.5, 3.25, 9.0, 1.0, 4.75, 6.5, 3.25, 8.0]
    code = (
        f"data = {data!r}\n"
        "kept = [x for x in data if x > statistics.mean(data) - 2]\n"
        "print(len(kept))\n"
        "[statistics.median(kept), statistics.mode(data), round(statistics.pstdev(kept), 6)]"
    )
    failed, text = stats_server.execute(code)
    kept = [x for x in data if x > statistics.mean(data) - 2]
    expected = [statistics.median(kept), statistics.mode(data), round(statistics.pstdev(kept), 6)]
    assert not failed, text
    printed, value = text.split("\n", 1)
    assert int(printed) == len(kept) and json.loads(value) == expected


def test_an_error_in_the_code_says_its_line(stats_server: Modern) -> None:
    failed, text = stats_server.execute("x = 1\ny = statistics.mean([1, 2])\nz = x / 0")
    assert failed and "line 3" in text and "ZeroDivisionError" in text


def test_a_tool_error_is_raised_where_the_code_called_it(stats_server: Modern) -> None:
    code = "try:\n    statistics.mean([])\nexcept RuntimeError as e:\n    r = 'caught'\nr"
    assert stats_server.execute(code) == (False, "caught")


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("import subprocess", "ModuleNotFoundError"),
        ("import socket", "ModuleNotFoundError"),
        ("open('/etc/passwd').read()", "PermissionError"),
        ("__import__('os')", "NameError"),
        ("().__class__.__subclasses__()", "AttributeError"),
        ("def f():\n    pass\nf.__globals__", "AttributeError"),
        ("import os\nos.listdir('/')", "PermissionError"),
        ("while True:\n    pass", "time limit"),
        ("x = 'x' * 10**10", "MemoryError"),
        ("def f(n):\n    return f(n + 1)\nf(0)", "RecursionError"),
        ("while True:\n    print('x' * 1000)", "Error"),
        ("for i in range(10_000):\n    statistics.mean([i])", "more than 50 tool calls"),
    ],
    ids=[
        "import",
        "socket",
        "open",
        "__import__",
        "subclasses",
        "globals",
        "os",
        "loop",
        "memory",
        "recursion",
        "output",
        "calls",
    ],
)
def test_escapes_are_refused_and_the_server_serves_on(
    stats_server: Modern, code: str, said: str
) -> None:
    failed, text = stats_server.execute(code)
    assert failed and said in text, text
    assert stats_server.execute("statistics.median([1, 5, 3])") == (False, "3")


RECORDS_TWICE = (
    "ledger.record('first')\n"
    "print('recorded the first')\n"
    "if ledger.confirm('Record the second?'):\n"
    "    ledger.record('second')\n"
    "ledger.recorded()"
)
"""Code that records, prints, asks, then records again if told yes: its retry shows whether
it was resumed (each record made once) or run again from the top."""


@pytest.mark.parametrize("parking", [(), ("--max-parked", "0")], ids=["parked", "not-parked"])
@pytest.mark.parametrize("elsewhere", [False, True], ids=["same-process", "another-process"])
def test_a_question_from_the_code_never_runs_it_again(
    parking: tuple[str, ...], elsewhere: bool
) -> None:
    # the retry resumes the code at the call that asked: from the call kept parked, or from
    # the snapshot the request state carries, also in another process of the deployment (a
    # shared state key: HTTP workers, a restart). Each process has its own ledger, so
    # ledger.record("first") made once is ["first"] in the asking process alone; what the code
    # printed before the question is said with the rest, as if it had never stopped
    key = "code mode's cross-process test key"
    first = Modern(LEDGER, *parking, state_key=key)
    second = Modern(LEDGER, state_key=key) if elsewhere else first
    try:
        asked = first.request("tools/call", name="execute", arguments={"code": RECORDS_TWICE})
        assert asked["resultType"] == "input_required", asked
        ((_, question),) = asked["inputRequests"].items()
        assert question["params"]["message"] == "Record the second?"
        done = second.retry(RECORDS_TWICE, asked)["result"]
        in_first, in_second = (
            first.execute("ledger.recorded()"),
            second.execute("ledger.recorded()"),
        )
    finally:
        first.close()
        if elsewhere:
            second.close()
    assert done["isError"] is False, done
    printed, last = done["content"][0]["text"].split("\n")
    if elsewhere:
        assert (printed, json.loads(last)) == ("recorded the first", ["second"])
        assert (in_first, in_second) == ((False, '["first"]'), (False, '["second"]'))
    else:
        assert (printed, json.loads(last)) == ("recorded the first", ["first", "second"])
        assert in_first == (False, '["first", "second"]')


def test_a_retry_to_a_process_of_another_deployment_is_refused() -> None:
    # a state sealed under another key carries no code into this process: refused, not run
    first, second = Modern(LEDGER, state_key="one deployment's key"), Modern(LEDGER)
    code = "ledger.record('first')\nledger.confirm('Go on?')"
    try:
        asked = first.request("tools/call", name="execute", arguments={"code": code})
        refused = second.retry(code, asked)["error"]
        in_second = second.execute("ledger.recorded()")
    finally:
        first.close()
        second.close()
    assert "forged or altered" in refused["message"]
    assert in_second == (False, "[]")


def test_code_too_big_to_carry_is_refused_at_its_retry_never_run_again() -> None:
    # not parked, and its heap beyond what a request state carries (CARRY_LIMIT): the retry
    # says so, and the code is not run again from the top
    code = "big = list(range(300_000))\nledger.record('once')\nledger.confirm('Go on?')"
    with Modern(LEDGER, "--max-parked", "0") as server:
        asked = server.request("tools/call", name="execute", arguments={"code": code})
        retried = server.retry(code, asked)["result"]
        recorded = server.execute("ledger.recorded()")
    assert retried["isError"] is True
    assert "too much to carry to its retry" in retried["content"][0]["text"]
    assert recorded == (False, '["once"]')


def test_each_question_of_a_run_resumed_twice_gets_its_own_answer() -> None:
    # not parked: two questions, two retries, each resuming the run at its own question;
    # the second is answered no, and must not read the first's yes
    code = (
        "ledger.record('a')\n"
        "first = ledger.confirm('First?')\n"
        "second = ledger.confirm('Second?')\n"
        "ledger.record(f'{first}-{second}')\n"
        "ledger.recorded()"
    )
    arguments = {"code": code}
    answers: dict[str, Any] = {}
    with Modern(LEDGER, "--max-parked", "0") as server:
        result = server.request("tools/call", name="execute", arguments=arguments)
        asked = []
        while result.get("resultType") == "input_required":
            ((key, question),) = result["inputRequests"].items()
            message = question["params"]["message"]
            asked.append(message)
            answers[key] = {"action": "accept", "content": {"value": message == "First?"}}
            result = server.request(
                "tools/call",
                name="execute",
                arguments=arguments,
                inputResponses={key: answers[key]},
                requestState=result["requestState"],
            )
    assert asked == ["First?", "Second?"]
    assert result["isError"] is False, result
    assert json.loads(result["content"][0]["text"]) == ["a", "True-False"]


def test_keyword_options_a_function_takes_are_said_and_passed() -> None:
    import textwrap

    with Modern("textwrap") as server:
        said = server.describe("textwrap.shorten")
        cut = server.execute("textwrap.shorten('one two three four', 12, placeholder=' [+]')")
    assert "def shorten(text: str, width: int, **options: Any)" in said
    assert cut == (False, textwrap.shorten("one two three four", 12, placeholder=" [+]"))


def test_a_new_call_of_the_same_code_runs_afresh_after_an_abandoned_question() -> None:
    # the first call's question is never answered: the same code sent again is a new call,
    # not the retry, and runs from the top (its snapshot is for the retry alone)
    code = "ledger.record('once')\nledger.confirm('Go on?')\nledger.recorded()"
    with Modern(LEDGER, "--max-parked", "0") as server:
        first = server.request("tools/call", name="execute", arguments={"code": code})
        again = server.request("tools/call", name="execute", arguments={"code": code})
        recorded = server.execute("ledger.recorded()")
    assert first["resultType"] == again["resultType"] == "input_required"
    assert recorded == (False, '["once", "once"]')


@st.composite
def schemas(draw: st.DrawFn, depth: int = 0) -> dict[str, Any]:
    plain = st.sampled_from(["string", "integer", "number", "boolean", "null"])
    if depth > 2:
        return {"type": draw(plain)}
    kind = draw(st.sampled_from(["plain", "list", "array", "object", "enum", "anyOf", "none"]))
    if kind == "plain":
        return {"type": draw(plain)}
    if kind == "list":
        return {"type": draw(st.lists(plain, min_size=1, max_size=3, unique=True))}
    if kind == "array":
        return {"type": "array", "items": draw(schemas(depth + 1))}
    if kind == "object":
        return {"type": "object", "additionalProperties": draw(schemas(depth + 1))}
    if kind == "enum":
        values = st.one_of(st.text(max_size=5), st.integers(), st.booleans(), st.none())
        return {"enum": draw(st.lists(values, min_size=1, max_size=4))}
    if kind == "anyOf":
        return {"anyOf": draw(st.lists(schemas(depth + 1), min_size=1, max_size=3))}
    return {}


@given(schemas())
def test_every_schema_is_said_as_a_python_type(schema: dict[str, Any]) -> None:
    said = python_type(schema)
    ast.parse(said, mode="eval")  # a Python expression
    members = said.split(" | ")
    assert len(members) == len(set(members)) or "[" in said  # no member twice at the top


@given(st.dictionaries(st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True), schemas()))
def test_a_tool_of_any_parameters_is_said_as_a_python_definition(
    properties: dict[str, Any],
) -> None:
    toolbox = Toolbox(statistics)
    tool = toolbox["median"]
    shaped = type(tool)(
        name="shaped",
        description="One line.\nMore.",
        input_schema={"type": "object", "properties": properties},
        function=lambda **kwargs: None,
        schema_given=True,
    )
    parsed = ast.parse(stub(shaped, "shaped"))
    definition = parsed.body[0]
    assert isinstance(definition, ast.FunctionDef) and definition.name == "shaped"
    named = [arg.arg for arg in definition.args.args]
    assert set(named) <= set(properties)
    assert ast.get_docstring(definition) == "One line."


def test_a_targets_tools_are_its_module_renamed_where_the_sandbox_has_one() -> None:
    import os.path

    class BookKeeper:
        pass

    places = placed(Toolbox(statistics).values(), module_name(statistics))
    assert places["median"].dotted == "statistics.median"
    assert len({place.dotted for place in places.values()}) == len(places)
    assert [module_name(t) for t in (math, os.path, BookKeeper, BookKeeper())] == [
        "math_lib",
        os.path.__name__,  # posixpath: the module it is
        "book_keeper",
        "book_keeper",
    ]


def test_a_served_module_the_sandbox_has_too_is_reached_and_args_go_one_by_one() -> None:
    with Modern("math") as server:
        found = server.describe("math_lib.gcd")
        answered = server.execute("[math_lib.gcd(84, 126, 210), math_lib.comb(15, 4)]")
    assert "def gcd(*integers: int)" in found
    assert answered == (False, json.dumps([math.gcd(84, 126, 210), math.comb(15, 4)]))


@pytest.mark.anyio
async def test_the_official_client_runs_code_that_asks_the_user() -> None:
    from mcp import ClientSession, StdioServerParameters, types
    from mcp.client.stdio import stdio_client

    asked: list[str] = []

    async def answer(context: Any, request: types.ElicitRequestParams) -> Any:
        asked.append(request.message)
        return types.ElicitResult(action="accept", content={"value": True})

    parameters = StdioServerParameters(
        command=PYTHON,
        args=["-m", "objmcp", "run", "--discovery", "code", LEDGER],
        env=server_env(),
    )
    code = "ledger.record('a')\nif ledger.confirm('And b?'):\n    ledger.record('b')\n"
    code += "ledger.recorded()"
    async with (
        stdio_client(parameters) as (read, write),
        ClientSession(read, write, elicitation_callback=answer) as session,
    ):
        await session.initialize()
        listed = [tool.name for tool in (await session.list_tools()).tools]
        result = await session.call_tool("execute", {"code": code})
    assert listed == ["search_tools", "describe_tools", "execute"]
    assert asked == ["And b?"]
    assert (result.is_error, result.content[0].text) == (False, '["a", "b"]')  # type: ignore[union-attr]


def test_a_crash_of_the_sandbox_ends_that_run_alone() -> None:
    answers: list[tuple[bool, str]] = []
    with Modern("statistics", "--code-time", "20") as server:
        assert server.execute("statistics.median([1, 2, 3])") == (False, "2")  # a worker runs
        running = threading.Thread(
            target=lambda: answers.append(server.execute("while True:\n    pass"))
        )
        running.start()
        killed = _kill_workers(server.process.pid)
        running.join(60)
        after = server.execute("statistics.median([4, 5, 6])")
    assert killed
    assert answers and answers[0][0] and answers[0][1].startswith("the sandbox stopped"), answers
    assert after == (False, "5")


def _kill_workers(parent: int) -> list[int]:
    """Kill the sandbox's worker processes of ``parent`` once one is busy; their ids."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        workers = [
            int(entry)
            for entry in os.listdir("/proc")
            if entry.isdigit() and _parent_of(int(entry)) == parent and _named(int(entry), "monty")
        ]
        busy = [pid for pid in workers if _cpu_ticks(pid) > 50]
        if busy:
            for pid in busy:
                os.kill(pid, signal.SIGKILL)
            return busy
        time.sleep(0.05)
    return []


def _parent_of(pid: int) -> int | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1])


def _named(pid: int, name: str) -> bool:
    try:
        return name in Path(f"/proc/{pid}/comm").read_text()
    except OSError:
        return False


def _cpu_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])  # utime + stime


class _Canvas:
    """A canvas of handles (a class the stubs test serves)."""

    def clear(self) -> None:
        """Wipe it."""

    def handle(self) -> _Handle:
        """A handle on it."""
        return _Handle()

    def area(self, width, height):  # type: ignore[no-untyped-def]
        """The area of a rectangle.

        Returns:
            float: width times height, in square units.
        """
        return width * height


class _Handle:
    def __init__(self) -> None:
        self.lock = threading.Lock()  # no JSON form of its own


def test_what_a_tool_returns_is_said_where_no_output_schema_says_it() -> None:
    import difflib

    import networkx

    def stubs(target: object) -> dict[str, str]:
        return {name: stub(tool, name) for name, tool in Toolbox(target).items()}

    canvas, graph, module = stubs(_Canvas()), stubs(networkx.Graph()), stubs(difflib)
    assert canvas["clear"].startswith("def clear() -> None:")  # annotated None
    assert "Returns _Handle (as JSON)." in canvas["handle"]  # an annotation with no schema
    assert "Returns float: width times height, in square units." in canvas["area"]  # its docs
    # its summary says what it returns already: the Returns section adds its type alone
    assert graph["number_of_nodes"].endswith('Returns int."""\n')
    assert "Returns a new SequenceMatcher, as JSON" in module["SequenceMatcher"]
    for text in [*canvas.values(), *graph.values(), *module.values()]:
        ast.parse(text)
