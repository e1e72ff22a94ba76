"""Interoperability: objmcp's tasks (the 2026-07-28 extension ``io.modelcontextprotocol/tasks``)
driven by the official TypeScript client 2.x (``@modelcontextprotocol/client``) with the
extension's own client package (``@modelcontextprotocol/ext-tasks``), both pinned in
``tests/js2``, over stdio and Streamable HTTP.

``tests/js2/tasks.mjs`` makes one ext-tasks session per client (``createTaskSessionFromClient``)
and settles each call through it: the package polls ``tasks/get``, answers a task's questions
through ``tasks/update`` from its ``onInputRequest``, and cancels with ``tasks/cancel``. One
node process runs per transport, its clients one after the other:

- ``jobs`` (2026-07-28, ``tests/servers/jobs.py``): a quick call answered at once, a slow one
  that becomes a task and ends (its progress as the status message), one that asks inside
  its task, one cancelled as soon as it is a task, and a ``task="always"`` tool;
- ``resumer`` (2026-07-28): a client of its own takes up (``resumeTask``) a task the jobs
  client handed off: over HTTP, from the same server process; over stdio it spawned a server
  of its own, which knows no such task;
- ``errands`` (2026-07-28, ``tests/servers/errands.py``): a call that asks first (the usual
  ``input_required`` round, then the retry) and then works on as a task, one that asks two
  things together inside its task, one that fails inside its task;
- ``legacy`` (the 2.x default handshake, jobs again): the same package against a 2025-11-25
  connection, a task exactly when the server declares that revision's ``tasks`` capability.

Every server runs with ``--task-after 0.2``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from conftest import JS2, PYTHON, ROOT
from http_helpers import HttpServer
from peer_helpers import drive_js

DRIVER = JS2 / "tasks.mjs"
TASKS_VERSION = "0.2.2"
TASKS = "io.modelcontextprotocol/tasks"
TASK_AFTER = ("--task-after", "0.2")
JOBS = f"{ROOT / 'tests' / 'servers' / 'jobs.py'}:Jobs"
ERRANDS = f"{ROOT / 'tests' / 'servers' / 'errands.py'}:Errands"
# What ext-tasks makes of a server that declares the extension (its "v2" generation).
EXTENSION_CAPABILITIES = {
    "inventory": "known-handles",
    "execution": True,
    "cancellation": True,
    "inputResponses": True,
    "requestedRetention": False,
}

NAME = {"action": "accept", "content": {"value": "Ada"}}
OWNER = {"action": "accept", "content": {"value": "Grace"}}
MOTTO = {"model": "tiny-2", "role": "assistant", "content": {"type": "text", "text": "Onwards"}}


def step(
    label: str,
    tool: str,
    *,
    cancel: bool = False,
    handoff: bool = False,
    preference: str = "allow",
    **arguments: Any,
) -> dict[str, Any]:
    """A call of ``tool``, settled to its end (cancelled once it is a task, with ``cancel``;
    handed off then, and not settled, with ``handoff``); ``preference`` is the package's task
    preference for it."""
    return {
        "label": label,
        "tool": tool,
        "arguments": arguments,
        "cancel": cancel,
        "handoff": handoff,
        "preference": preference,
    }


JOBS_STEPS = [
    step("quick", "quick"),
    step("slow", "slow", seconds=1.2),
    step("ask", "ask_name"),
    step("cancel", "blocking", cancel=True, seconds=60),
    step("always", "always"),
    step("handoff", "slow", handoff=True, seconds=0.8),
]
ERRANDS_STEPS = [step("report", "report"), step("survey", "survey"), step("crash", "crash")]
# "prefer": on a 2025-11-25 connection the package asks for a task (params.task) only then,
# for a tool whose execution.taskSupport is "optional".
LEGACY_STEPS = [
    step("slow", "slow", preference="prefer", seconds=0.6),
    step("ask", "ask_name", preference="prefer"),
]


def script(server: Any) -> dict[str, Any]:
    """The script of one run: ``server(target)`` says how a client reaches that target."""
    return {
        "clients": [
            {
                "label": "jobs",
                "mode": "modern",
                "server": server(JOBS),
                "capabilities": {"elicitation": {}},
                "answers": [NAME],
                "steps": JOBS_STEPS,
            },
            {
                # a client of its own, with the jobs client's endpoint: takes up the task
                # the jobs client handed off
                "label": "resumer",
                "mode": "modern",
                "endpoint": "jobs",
                "server": server(JOBS),
                "steps": [{"label": "resume", "resume": "handoff"}],
            },
            {
                "label": "errands",
                "mode": "modern",
                "server": server(ERRANDS),
                "capabilities": {"elicitation": {}, "sampling": {}},
                "answers": [OWNER, NAME],
                "samples": [MOTTO],
                "steps": ERRANDS_STEPS,
            },
            {
                "label": "legacy",
                "mode": "legacy",
                "server": server(JOBS),
                "capabilities": {"elicitation": {}},
                "answers": [NAME],
                "steps": LEGACY_STEPS,
            },
        ]
    }


@dataclass
class Run:
    """One driver run over one transport: each client's report."""

    transport: str
    clients: dict[str, dict[str, Any]]

    def step(self, client: str, label: str) -> dict[str, Any]:
        """What step ``label`` of ``client`` saw (it must not have thrown)."""
        entry: dict[str, Any] = self.clients[client]["steps"][label]
        assert "error" not in entry, f"{client}/{label} threw: {entry['error']}"
        return entry

    def result(self, client: str, label: str) -> dict[str, Any]:
        """The call result a step settled with."""
        outcome = self.step(client, label)["outcome"]
        assert outcome["status"] == "completed", outcome
        result: dict[str, Any] = outcome["result"]
        return result

    def text(self, client: str, label: str) -> str:
        """The one text block of a step's result."""
        content = self.result(client, label)["content"]
        assert len(content) == 1 and content[0]["type"] == "text", content
        text: str = content[0]["text"]
        return text

    def sent(self, client: str, label: str) -> list[str]:
        """The methods of the requests ``client`` sent while step ``label`` ran."""
        return [
            event["method"]
            for event in self.clients[client]["wire"]
            if event["step"] == label and event["direction"] == "out" and event["kind"] == "request"
        ]

    def answered(self, client: str, label: str, method: str) -> list[dict[str, Any]]:
        """The responses to the ``method`` requests of step ``label``, in order."""
        wire = [event for event in self.clients[client]["wire"] if event["step"] == label]
        ids = {
            event["id"]
            for event in wire
            if event["direction"] == "out" and event.get("method") == method
        }
        return [
            event
            for event in wire
            if event["direction"] == "in" and event["kind"] == "response" and event["id"] in ids
        ]

    def asked(self, client: str, label: str) -> list[dict[str, Any]]:
        """The questions the session's onInputRequest answered during step ``label``."""
        return [entry for entry in self.clients[client]["asked"] if entry["step"] == label]


@pytest.fixture(scope="module")
def http_servers() -> Iterator[dict[str, HttpServer]]:
    """Each target over HTTP, shared by the run's clients."""
    servers: dict[str, HttpServer] = {}
    try:
        for target in (JOBS, ERRANDS):
            servers[target] = HttpServer(*TASK_AFTER, target=target)
        yield servers
    finally:
        for server in servers.values():
            server.stop()


@pytest.fixture(scope="module", params=["stdio", "http"])
def run(request: pytest.FixtureRequest, node2: str, http_servers: dict[str, HttpServer]) -> Run:
    transport = request.param

    def server(target: str) -> dict[str, Any]:
        if transport == "http":
            return {"url": http_servers[target].url}
        return {"command": PYTHON, "args": ["-m", "objmcp", "run", *TASK_AFTER, target]}

    report, _ = drive_js(node2, DRIVER, script(server))
    clients: dict[str, dict[str, Any]] = report["clients"]
    for label, client in clients.items():
        assert client["connected"], f"{label}: {client['fatal']}"
        assert client["errors"] == [], f"{label}: {client['errors']}"
    return Run(transport, clients)


def test_the_pinned_package_is_installed(node2: str) -> None:
    package = json.loads((JS2 / "package.json").read_text())
    assert package["dependencies"]["@modelcontextprotocol/ext-tasks"] == TASKS_VERSION
    installed = JS2 / "node_modules" / "@modelcontextprotocol" / "ext-tasks" / "package.json"
    assert json.loads(installed.read_text())["version"] == TASKS_VERSION


def test_the_package_finds_the_extension(run: Run) -> None:
    for label in ("jobs", "errands"):
        client = run.clients[label]
        assert client["era"] == "modern"
        assert client["capabilities"]["extensions"][TASKS] == {}
        assert client["taskCapabilities"] == EXTENSION_CAPABILITIES


def test_a_quick_call_is_answered_at_once(run: Run) -> None:
    assert run.step("jobs", "quick")["kind"] == "immediate"
    assert run.text("jobs", "quick") == "quick"
    assert run.sent("jobs", "quick") == ["tools/call"]


def test_a_slow_call_becomes_a_task_the_package_follows_to_its_result(run: Run) -> None:
    slow = run.step("jobs", "slow")
    assert slow["kind"] == "task"
    (created,) = run.answered("jobs", "slow", "tools/call")
    assert (created["resultType"], created["status"]) == ("task", "working")
    assert run.text("jobs", "slow") == "slept 1.2"
    assert run.result("jobs", "slow")["isError"] is False
    sent = run.sent("jobs", "slow")
    assert sent[0] == "tools/call" and set(sent[1:]) == {"tasks/get"}
    # the method's progress, as the task's status message (kept once it completed)
    assert "half-way" in [event["statusMessage"] for event in slow["events"]]
    assert slow["events"][-1]["status"] == "completed"
    assert slow["after"] == {
        "taskId": slow["taskId"],
        "status": "completed",
        "statusMessage": "half-way",
    }


def test_a_question_inside_a_task_is_answered_through_tasks_update(run: Run) -> None:
    ask = run.step("jobs", "ask")
    assert ask["kind"] == "task"
    assert run.text("jobs", "ask") == "Hello, Ada!"
    (asked,) = run.asked("jobs", "ask")
    assert asked["kind"] == "elicitation"
    assert asked["params"]["message"] == "Your name?"
    assert (asked["scope"], asked["delivery"]) == ("task", "task-update")
    assert (asked["taskId"], asked["inputId"]) == (ask["taskId"], "name")
    assert "input_required" in [event["status"] for event in ask["events"]]
    assert run.sent("jobs", "ask").count("tasks/update") == 1


def test_a_task_is_cancelled(run: Run) -> None:
    cancelled = run.step("jobs", "cancel")
    assert cancelled["kind"] == "task"
    assert cancelled["outcome"] == {"status": "cancelled"}
    assert cancelled["after"]["status"] == "cancelled"
    sent = run.sent("jobs", "cancel")
    assert sent[:2] == ["tools/call", "tasks/cancel"]
    (acknowledged,) = run.answered("jobs", "cancel", "tasks/cancel")
    assert acknowledged["error"] is None


def test_a_task_handed_off_is_taken_up_by_another_client_of_its_server(run: Run) -> None:
    handoff = run.step("jobs", "handoff")
    assert (handoff["kind"], handoff["outcome"]) == ("task", None)
    assert run.sent("jobs", "handoff") == ["tools/call"]  # released: no poll
    if run.transport == "http":
        # the same server process, and the same caller (no token): the task and its result
        resumed = run.step("resumer", "resume")
        assert (resumed["kind"], resumed["taskId"]) == ("task", handoff["taskId"])
        assert run.text("resumer", "resume") == "slept 0.8"
        assert resumed["after"]["status"] == "completed"
    else:
        # a server process of its own, which never heard of the task: unknown, -32602
        error = run.clients["resumer"]["steps"]["resume"]["error"]
        assert error["code"] == -32602
        (answered,) = run.answered("resumer", "resume", "tasks/get")
        assert answered["error"] == -32602


def test_a_tool_that_is_always_a_task(run: Run) -> None:
    always = run.step("jobs", "always")
    assert always["kind"] == "task"
    assert run.text("jobs", "always") == "always a task"


def test_a_call_that_asks_first_then_works_on_as_a_task(run: Run) -> None:
    report = run.step("errands", "report")
    assert report["kind"] == "task"
    assert run.text("errands", "report") == "Report for Grace"
    (asked,) = run.asked("errands", "report")
    assert asked["params"]["message"] == "Whose report?"
    # asked before it was a task: the request's input_required round, then the retry
    assert (asked["scope"], asked["delivery"], asked["taskId"]) == (
        "request",
        "request-retry",
        None,
    )
    calls = run.answered("errands", "report", "tools/call")
    assert [event["resultType"] for event in calls] == ["input_required", "task"]
    assert "tasks/update" not in run.sent("errands", "report")


def test_two_questions_at_once_inside_a_task_are_answered_together(run: Run) -> None:
    survey = run.step("errands", "survey")
    assert survey["kind"] == "task"
    assert run.text("errands", "survey") == "Ada: Onwards"
    asked = run.asked("errands", "survey")
    assert sorted((entry["kind"], entry["inputId"]) for entry in asked) == [
        ("elicitation", "name"),
        ("sampling", "motto"),
    ]
    assert {(entry["delivery"], entry["taskId"]) for entry in asked} == {
        ("task-update", survey["taskId"])
    }
    assert run.sent("errands", "survey").count("tasks/update") == 1


def test_a_failure_inside_a_task_is_its_error_result(run: Run) -> None:
    # The method raised: a tool error, so the task completed with an error result, as a
    # plain call's would be (a task fails only on a protocol error).
    crash = run.step("errands", "crash")
    assert crash["kind"] == "task"
    assert run.result("errands", "crash")["isError"] is True
    assert run.text("errands", "crash") == "ValueError: the printer is on fire"
    assert crash["after"]["status"] == "completed"


def test_a_legacy_connection_gets_its_results_through_2025_11_25_tasks(run: Run) -> None:
    legacy = run.clients["legacy"]
    assert legacy["era"] == "legacy"
    # 2025-11-25 tasks are the server's `tasks` capability (its requests.tools.call): the
    # package asks for a task only when it is there, as it is (objmcp's core tasks)
    requests = legacy["capabilities"].get("tasks", {}).get("requests", {})
    assert "call" in requests.get("tools", {}), legacy["capabilities"]
    assert legacy["taskCapabilities"]["execution"] is True
    for label in ("slow", "ask"):
        assert run.step("legacy", label)["kind"] == "task"
    assert run.text("legacy", "slow") == "slept 0.6"
    assert run.text("legacy", "ask") == "Hello, Ada!"
    assert [entry["kind"] for entry in run.asked("legacy", "ask")] == ["elicitation"]
