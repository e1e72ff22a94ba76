"""Interoperability: the official TypeScript MCP client 2.x (``@modelcontextprotocol/client``,
pinned in ``tests/js2``) drives objmcp servers, in both of its eras and over both transports.

``tests/js2/client.mjs`` runs a script of clients one after the other and prints one JSON
report; one node process runs per era and transport (four in all): the 2026-07-28 era (the
client pins it: ``server/discover``, the revision and capabilities in every request's
``_meta``, questions as ``input_required`` results it fulfils through its handlers and
retries) and the legacy one (its default: the ``initialize`` handshake, questions as requests
from the server); over stdio (the client spawns ``objmcp run``) and Streamable HTTP (``objmcp
run --http`` on 127.0.0.1, started here, one plain and one ``--discovery search`` per module).

The fixture is ``tests/servers/clients.py:Frontdesk`` (the client tests' Library, with a
sample and a tool that says ahead what it asks). Its clients:

- ``asking`` declares elicitation and sampling, and runs the surface: tools, a call, the
  questions of :data:`QUESTIONS`, resources (list, templates, read), prompts (list, get);
- ``bare`` declares nothing: a call that asks is -32021 (2026-07-28) or an error result
  (legacy), and a tool that says ahead what it asks is refused before it runs (2026-07-28);
- ``ignoring`` (search mode, no list handling): a search, then the tool found called through
  ``call_tool``, whatever the list did;
- ``searching`` (search mode, the SDK's ``listChanged`` option for tools): a search makes the
  list change (``notifications/tools/list_changed``: unsolicited in the legacy era, on the
  ``subscriptions/listen`` stream the option opens in 2026-07-28), the SDK re-lists, and the
  tool found is called by its own name.

``ignoring`` runs before ``searching``: over HTTP in 2026-07-28 the anonymous callers share
one list of found tools, so the first listing of the search server is the meta-tools alone
only for the first of them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from conftest import JS2, PYTHON, ROOT
from http_helpers import HttpServer
from peer_helpers import TOOLS, drive_js

import objmcp
from objmcp.cli.targets import load_target

DRIVER = JS2 / "client.mjs"
CLIENT_VERSION = "2.4.0"
FIXTURE = ROOT / "tests" / "servers" / "clients.py"
TARGET = f"{FIXTURE}:Frontdesk"
SEARCH = ("--discovery", "search")
META_TOOLS = ["search_tools", "describe_tools", "call_tool"]
ERAS = {"modern": "2026-07-28", "legacy": "2025-11-25"}
"""Each mode of the client, and the revision it ends up speaking with objmcp."""

FRONTDESK: Any = load_target(TARGET)


def call(label: str, tool: str, **arguments: Any) -> dict[str, Any]:
    """A callTool step."""
    return {"label": label, "op": "callTool", "params": {"name": tool, "arguments": arguments}}


def step(label: str, op: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    made: dict[str, Any] = {"label": label, "op": op}
    if params is not None:
        made["params"] = params
    return made


# -- the questions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    """A call that asks the client, and the answers its handlers give, in order. In
    2026-07-28 everything one call asks at once comes in one ``input_required`` round; in
    the legacy era each question is a request of its own. (A call asking several questions
    at once is a row with several answers and ``rounds=1``.)"""

    label: str
    tool: str
    arguments: dict[str, Any]
    kind: str  # the handler that answers: "elicitation" or "sampling"
    answers: list[dict[str, Any]]
    asked: list[str]  # what each question says (the message; for sampling, the text)
    text: str  # the call's result
    rounds: int = 1  # input_required rounds in 2026-07-28


SAMPLE: dict[str, Any] = {
    "model": "tiny-2",
    "role": "assistant",
    "content": {"type": "text", "text": "a short story"},
}
STORY = "a long story about a desk"
QUESTIONS = [
    Question(
        "ask",
        "ask",
        {},
        "elicitation",
        [{"action": "accept", "content": {"value": "Ada"}}],
        ["What is your name?"],
        "hello Ada",
    ),
    Question(
        "ask_declined",
        "ask",
        {},
        "elicitation",
        [{"action": "decline"}],
        ["What is your name?"],
        "no name (decline)",
    ),
    Question(
        "summarize",
        "summarize",
        {"text": STORY},
        "sampling",
        [SAMPLE],
        [f"Summarize in a few words: {STORY}"],
        f"summary by {SAMPLE['model']}: {SAMPLE['content']['text']}",
    ),
    Question(
        "register",
        "register",
        {},
        "elicitation",
        [
            {"action": "accept", "content": {"value": "Ada"}},
            {"action": "accept", "content": {"value": "Paris"}},
        ],
        ["Your name?", "Your city?"],
        "Ada from Paris",
    ),
    Question(
        "confirm",
        "confirm",
        {"action": "launch"},
        "elicitation",
        [{"action": "accept", "content": {"value": True}}],
        ["Confirm launch?"],
        "launch: confirmed (accept)",
    ),
]
REQUEST_METHODS = {"elicitation": "elicitation/create", "sampling": "sampling/createMessage"}

ADD = {"a": 2, "b": 3}
FAILURE = "out of paper: «tray» 2"
TOPIC = "objmcp"
BOOK = 7
ASKING_STEPS = [
    step("tools", "listTools"),
    call("add", "add", **ADD),
    call("fail", "fail", message=FAILURE),
    call("unknown", "no_such_tool"),
    *(call(question.label, question.tool, **question.arguments) for question in QUESTIONS),
    step("resources", "listResources"),
    step("templates", "listResourceTemplates"),
    step("readme", "readResource", {"uri": "library://readme"}),
    step("book", "readResource", {"uri": f"library://books/{BOOK}"}),
    step("prompts", "listPrompts"),
    step("review", "getPrompt", {"name": "review", "arguments": {"topic": TOPIC}}),
]

# A client that declared nothing: the tool that says ahead (confirm), then one that asks
# half-way (ask), with the count of confirm's starts before and after.
BARE_STEPS = [
    call("started_before", "confirmations_started"),
    call("confirm", "confirm", action="launch"),
    call("ask", "ask"),
    call("started_after", "confirmations_started"),
]

IGNORED_QUERY = "add two integers"
IGNORING_STEPS = [
    step("tools", "listTools"),
    call("search", "search_tools", query=IGNORED_QUERY, limit=1),
    call("through", "call_tool", name="add", arguments=ADD),
]
QUERY = "median of some numbers"
SEARCHING_STEPS = [
    step("tools", "listTools"),
    call("search", "search_tools", query=QUERY, limit=2),
    step("changed", "toolsChanged", {"count": 1}),
    step("relisted", "listTools"),
    call("median", "median", data=[3, 1, 2]),
]


def script(mode: str, server: Any) -> dict[str, Any]:
    """The script of one run: ``server(search)`` says how each client reaches its server."""
    return {
        "mode": mode,
        "clients": [
            {
                "label": "asking",
                "server": server(False),
                "capabilities": {"elicitation": {}, "sampling": {}},
                "answers": [
                    answer
                    for question in QUESTIONS
                    if question.kind == "elicitation"
                    for answer in question.answers
                ],
                "samples": [
                    answer
                    for question in QUESTIONS
                    if question.kind == "sampling"
                    for answer in question.answers
                ],
                "steps": ASKING_STEPS,
            },
            {"label": "bare", "server": server(False), "steps": BARE_STEPS},
            {"label": "ignoring", "server": server(True), "steps": IGNORING_STEPS},
            {
                "label": "searching",
                "server": server(True),
                "listChanged": True,
                "steps": SEARCHING_STEPS,
            },
        ],
    }


# -- the runs -----------------------------------------------------------------------------------


@dataclass
class Run:
    """One driver run: its era and transport, and each client's report."""

    mode: str
    transport: str
    clients: dict[str, dict[str, Any]]

    @property
    def modern(self) -> bool:
        return self.mode == "modern"

    def result(self, client: str, label: str) -> dict[str, Any]:
        """What step ``label`` of ``client`` gave (it must not have thrown)."""
        entry = self.clients[client]["steps"][label]
        assert "result" in entry, f"{client}/{label} threw: {entry.get('error')}"
        result: dict[str, Any] = entry["result"]
        return result

    def error(self, client: str, label: str) -> dict[str, Any]:
        """What step ``label`` of ``client`` threw."""
        entry = self.clients[client]["steps"][label]
        assert "error" in entry, f"{client}/{label} did not throw: {entry.get('result')}"
        error: dict[str, Any] = entry["error"]
        return error

    def text(self, client: str, label: str) -> str:
        """The one text block of a call's result."""
        content = self.result(client, label)["content"]
        assert len(content) == 1 and content[0]["type"] == "text", content
        text: str = content[0]["text"]
        return text

    def wire(self, client: str, label: str | None = None) -> list[dict[str, Any]]:
        """The messages of ``client`` (while step ``label`` ran, when given)."""
        return [
            event
            for event in self.clients[client]["wire"]
            if label is None or event["step"] == label
        ]


@pytest.fixture(scope="module")
def http_servers() -> Iterator[dict[bool, HttpServer]]:
    """The fixture over HTTP: plain (False) and in search mode (True)."""
    servers: dict[bool, HttpServer] = {}
    try:
        servers[False] = HttpServer(target=TARGET)
        servers[True] = HttpServer(*SEARCH, target=TARGET)
        yield servers
    finally:
        for server in servers.values():
            server.stop()


RUNS = [(mode, transport) for transport in ("stdio", "http") for mode in ERAS]


@pytest.fixture(scope="module", params=RUNS, ids=[f"{mode}-{t}" for mode, t in RUNS])
def run(request: pytest.FixtureRequest, node2: str, http_servers: dict[bool, HttpServer]) -> Run:
    mode, transport = request.param

    def server(search: bool) -> dict[str, Any]:
        if transport == "http":
            return {"url": http_servers[search].url}
        options = SEARCH if search else ()
        return {"command": PYTHON, "args": ["-m", "objmcp", "run", *options, TARGET]}

    report, _ = drive_js(node2, DRIVER, script(mode, server))
    clients: dict[str, dict[str, Any]] = report["clients"]
    for label, client in clients.items():
        assert client["connected"], f"{label}: {client['fatal']}"
        assert client["errors"] == [], f"{label}: {client['errors']}"
    return Run(mode, transport, clients)


# -- the tests ----------------------------------------------------------------------------------


def test_the_pinned_client_is_installed(node2: str) -> None:
    package = json.loads((JS2 / "package.json").read_text())
    assert package["dependencies"]["@modelcontextprotocol/client"] == CLIENT_VERSION
    installed = JS2 / "node_modules" / "@modelcontextprotocol" / "client" / "package.json"
    assert json.loads(installed.read_text())["version"] == CLIENT_VERSION


def test_the_client_speaks_its_era(run: Run) -> None:
    for label, client in run.clients.items():
        assert client["era"] == run.mode, label
        assert client["protocolVersion"] == ERAS[run.mode], label
        assert client["serverVersion"]["name"] == "Frontdesk", label
        assert client["capabilities"]["tools"] == {"listChanged": True}, label
        sent = [
            event["method"]
            for event in run.wire(label)
            if event["direction"] == "out" and event["kind"] != "response"
        ]
        # On stdio the 2026-07-28 client asks server/discover of a sibling process it spawns
        # for the probe, so the connection itself starts with the first step's request.
        assert ("initialize" in sent) is not run.modern, label
        if run.modern and run.transport == "http":
            assert sent[0] == "server/discover", label
        if not run.modern:
            assert sent[:2] == ["initialize", "notifications/initialized"], label


def without_execution(run: Run, tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tools listed, each checked for and without the ``execution.taskSupport`` that
    2025-11-25 adds to its definition (the core tasks; 2026-07-28 has none)."""
    for tool in tools:
        execution = tool.pop("execution", None)
        assert execution == (None if run.modern else {"taskSupport": "optional"}), tool["name"]
    return tools


def test_the_tools_are_listed_as_the_object_model_makes_them(run: Run) -> None:
    listed = without_execution(run, run.result("asking", "tools")["tools"])
    expected = objmcp.Toolbox(FRONTDESK()).specs("mcp")
    assert {tool["name"] for tool in listed} == TOOLS | {
        "summarize",
        "register",
        "confirm",
        "confirmations_started",
    }
    assert listed == expected


def test_a_call(run: Run) -> None:
    result = run.result("asking", "add")
    assert result["isError"] is False
    assert run.text("asking", "add") == str(FRONTDESK().add(**ADD))
    assert result["structuredContent"] == {"result": FRONTDESK().add(**ADD)}


def test_a_failure_is_an_error_result_and_an_unknown_tool_an_error(run: Run) -> None:
    # The tool ran and failed: a result the model can read. No such tool: a protocol error,
    # which the client throws.
    assert run.result("asking", "fail")["isError"] is True
    assert run.text("asking", "fail") == f"ValueError: {FAILURE}"
    error = run.error("asking", "unknown")
    assert error["code"] == -32602
    assert "no_such_tool" in error["message"]


@pytest.mark.parametrize("question", QUESTIONS, ids=[question.label for question in QUESTIONS])
def test_a_question_is_answered_by_the_clients_handler(run: Run, question: Question) -> None:
    assert run.text("asking", question.label) == question.text
    client = run.clients["asking"]
    heard = client["asked"] if question.kind == "elicitation" else client["sampled"]
    mine = [entry for entry in heard if entry["step"] == question.label]
    assert [entry["answer"] for entry in mine] == question.answers
    if question.kind == "elicitation":
        assert [entry["message"] for entry in mine] == question.asked
    else:
        assert [
            [message["content"]["text"] for message in entry["params"]["messages"]]
            for entry in mine
        ] == [[text] for text in question.asked]
    wire = run.wire("asking", question.label)
    rounds = [event for event in wire if event.get("resultType") == "input_required"]
    requests = [
        event for event in wire if event["direction"] == "in" and event["kind"] == "request"
    ]
    calls = [event for event in wire if event["direction"] == "out" and event["kind"] == "request"]
    if run.modern:
        # Answered input_required, the answers carried by a retry (a request of its own): no
        # request from the server.
        assert len(rounds) == question.rounds
        assert len(calls) == question.rounds + 1
        assert requests == []
    else:
        assert rounds == []
        assert len(calls) == 1
        assert [event["method"] for event in requests] == [REQUEST_METHODS[question.kind]] * len(
            question.answers
        )


def test_without_the_capability_a_question_is_minus_32021_or_an_error_result(run: Run) -> None:
    for label in ("confirm", "ask"):
        if run.modern:
            error = run.error("bare", label)
            assert error["class"] == "MissingRequiredClientCapabilityError"
            assert error["code"] == -32021
            assert error["data"] == {"requiredCapabilities": {"elicitation": {"form": {}}}}
            assert "elicitation" in error["message"]
            if run.transport == "http":  # as 2026-07-28/basic says: with status 400
                (posted,) = [e for e in run.clients["bare"]["http"] if e["step"] == label]
                assert (posted["method"], posted["rpc"], posted["status"]) == (
                    "POST",
                    "tools/call",
                    400,
                )
        else:
            assert run.result("bare", label)["isError"] is True
            assert "does not support elicitation" in run.text("bare", label)
    # confirm says ahead what it asks (needs=["elicitation"]): refused before it ran, in
    # either era
    started = [
        run.result("bare", label)["structuredContent"]["result"]
        for label in ("started_before", "started_after")
    ]
    assert started[0] == started[1]


def test_resources_are_listed_and_read(run: Run) -> None:
    library = FRONTDESK()
    (readme,) = run.result("asking", "resources")["resources"]
    assert readme["uri"] == "library://readme"
    assert readme["mimeType"] == "text/plain"
    (template,) = run.result("asking", "templates")["resourceTemplates"]
    assert template["uriTemplate"] == "library://books/{number}"
    (content,) = run.result("asking", "readme")["contents"]
    assert content == {
        "uri": "library://readme",
        "mimeType": "text/plain",
        "text": library.readme(),
    }
    (content,) = run.result("asking", "book")["contents"]
    assert content["uri"] == f"library://books/{BOOK}"
    assert content["text"] == library.book(BOOK)


def test_prompts_are_listed_and_got(run: Run) -> None:
    (prompt,) = run.result("asking", "prompts")["prompts"]
    assert prompt["name"] == "review"
    assert prompt["arguments"] == [{"name": "topic", "required": True}]
    got = run.result("asking", "review")
    assert got["messages"] == [
        {"role": "user", "content": {"type": "text", "text": FRONTDESK().review(TOPIC)}}
    ]


def found_by(run: Run, client: str) -> list[str]:
    """The tools a client's search step found, by name."""
    return [hit["name"] for hit in json.loads(run.text(client, "search"))]


def test_a_client_that_ignores_the_change_calls_through_call_tool(run: Run) -> None:
    assert [tool["name"] for tool in run.result("ignoring", "tools")["tools"]] == META_TOOLS
    assert found_by(run, "ignoring") == ["add"]
    assert run.text("ignoring", "through") == str(FRONTDESK().add(**ADD))
    # Told or not (a legacy client is, unasked; a modern one opened no listen stream), it
    # never re-listed.
    listed = [event for event in run.wire("ignoring") if event.get("method") == "tools/list"]
    assert len(listed) == 1
    told = [n["method"] for n in run.clients["ignoring"]["notifications"]]
    if run.modern:
        assert told == []
    else:
        assert told == ["notifications/tools/list_changed"]


def test_a_search_changes_the_list_and_the_sdk_relists(run: Run) -> None:
    before = [tool["name"] for tool in run.result("searching", "tools")["tools"]]
    assert before[:3] == META_TOOLS
    found = found_by(run, "searching")
    assert "median" in found and "median" not in before
    (changed,) = run.clients["searching"]["toolsChanged"]
    assert changed["error"] is None
    assert set(changed["names"]) == set(before) | set(found)
    relisted = without_execution(run, run.result("searching", "relisted")["tools"])
    assert [tool["name"] for tool in relisted] == changed["names"]
    (median,) = [tool for tool in relisted if tool["name"] == "median"]
    (expected,) = [t for t in objmcp.Toolbox(FRONTDESK()).specs("mcp") if t["name"] == "median"]
    assert median == expected  # a first-class tool, with its full schema
    told = [
        event
        for event in run.wire("searching")
        if event["direction"] == "in" and event.get("method") == "notifications/tools/list_changed"
    ]
    assert len(told) == 1
    listens = [
        event for event in run.wire("searching") if event.get("method") == "subscriptions/listen"
    ]
    if run.modern:
        # The SDK's listChanged option opened a listen stream at connect, which objmcp
        # acknowledged; the change came on it.
        assert [event["step"] for event in listens] == ["connect"]
        acknowledged = [
            event
            for event in run.wire("searching", "connect")
            if event.get("method") == "notifications/subscriptions/acknowledged"
        ]
        assert len(acknowledged) == 1
    else:
        assert listens == []


def test_the_tool_a_search_found_is_called_by_its_own_name(run: Run) -> None:
    result = run.result("searching", "median")
    assert result["isError"] is False
    assert run.text("searching", "median") == str(FRONTDESK().median([3, 1, 2]))
