"""Interoperability: the official TypeScript MCP SDK client answers objmcp's questions.

``tests/js/interactive.mjs`` connects through the SDK's ``StdioClientTransport`` (the handshake
era), declares the capabilities the script gives (form elicitation when it gives none), answers
each ``elicitation/create`` from a scripted list, makes the scripted calls in order (asking for
progress where told) and prints one JSON report. These tests run it against the zoo server as a
real subprocess; ``tests/model/test_elicitation.py`` drives the same scenarios with the Python SDK.
``tests/peers/test_ts_sampling.py`` uses the same driver for sampling, roots and URL elicitation.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import JS, ZOO
from peer_helpers import is_error, run_script, text_of

DRIVER = JS / "interactive.mjs"


BOOL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"value": {"type": "boolean"}},
    "required": ["value"],
}


def run_interactive(node: str, script: dict[str, Any]) -> dict[str, Any]:
    """Run the interactive TS driver against the zoo with ``script``; returns its report."""
    report, _ = run_script(node, DRIVER, ZOO, script)
    assert report["protocolVersion"] == "2025-11-25"
    return report


def call(name: str, arguments: dict[str, Any] | None = None, *, progress: bool = False) -> Any:
    return {"name": name, "arguments": arguments or {}, "progress": progress}


# One session makes every call below, in this order, and gives these answers, in this order.
CALLS: dict[str, dict[str, Any]] = {
    "accept": call("ask"),
    "decline": call("ask"),
    "cancel": call("ask"),
    "name": call("ask_name"),
    "twice": call("ask_twice"),
    "wrong_type": call("ask"),
    "refused": call("ask"),
    "badly": call("ask_badly"),
    "steps": call("steps", {"count": 3}, progress=True),
    "after": call("add", {"a": 1, "b": 1}),
}
ANSWERS: list[dict[str, Any]] = [
    {"action": "accept", "content": {"value": True}},
    {"action": "decline"},
    {"action": "cancel"},
    {"action": "accept", "content": {"value": "Ada"}},
    {"action": "accept", "content": {"name": "Ada"}},
    {"action": "accept", "content": {"value": "red"}},
    {"action": "accept", "content": {"value": "yes"}},
    {"error": {"code": -32600, "message": "the user is away"}},
]
# The questions those calls ask, in order (ask_badly asks none: it fails before asking).
MESSAGES = ["Sure?", "Sure?", "Sure?", "Your name?", "Details?", "Colour?", "Sure?", "Sure?"]


class Run:
    """The report of the scripted session."""

    def __init__(self, report: dict[str, Any]) -> None:
        self.report = report
        self.asked: list[dict[str, Any]] = report["asked"]
        self.calls: dict[str, dict[str, Any]] = dict(zip(CALLS, report["calls"], strict=True))

    def __getitem__(self, label: str) -> dict[str, Any]:
        entry = self.calls[label]
        assert entry["name"] == CALLS[label]["name"]
        return entry


@pytest.fixture(scope="module")
def run(node: str) -> Run:
    return Run(run_interactive(node, {"answers": ANSWERS, "calls": list(CALLS.values())}))


def test_every_question_is_asked_once_in_order(run: Run) -> None:
    assert [question["message"] for question in run.asked] == MESSAGES
    # Each question got the answer scripted for it, and all were used.
    assert [question["answer"] for question in run.asked] == ANSWERS


def test_the_bool_question_schema(run: Run) -> None:
    assert run.asked[0]["requestedSchema"] == BOOL_SCHEMA


@pytest.mark.parametrize(
    ("label", "expected"),
    [("accept", "accept:True"), ("decline", "decline:None"), ("cancel", "cancel:None")],
)
def test_a_sync_tool_gets_each_kind_of_answer(run: Run, label: str, expected: str) -> None:
    assert not is_error(run[label])
    assert text_of(run[label]) == expected


def test_an_async_tool_gets_a_string(run: Run) -> None:
    assert run.asked[3]["requestedSchema"] == {
        "type": "object",
        "properties": {"value": {"type": "string"}},
        "required": ["value"],
    }
    assert not is_error(run["name"])
    assert text_of(run["name"]) == "hello Ada"


def test_a_form_then_an_enum_come_back_typed(run: Run) -> None:
    assert not is_error(run["twice"])
    # The age the answer left out takes the dataclass default.
    assert text_of(run["twice"]) == "Details(name='Ada', age=30) <Color.RED: 'red'>"
    details = run.asked[4]["requestedSchema"]
    assert details["type"] == "object"
    assert set(details["properties"]) == {"name", "age"}
    assert details["properties"]["name"]["type"] == "string"
    assert details["properties"]["name"]["description"] == "What to call you."
    assert details["properties"]["age"]["type"] == "integer"
    assert details["properties"]["age"]["description"] == "In years."
    assert details["required"] == ["name"]
    color = run.asked[5]["requestedSchema"]
    assert color["properties"]["value"]["enum"] == ["red", "green"]
    assert color["required"] == ["value"]


def test_a_wrong_typed_answer_is_a_tool_error_naming_the_field(run: Run) -> None:
    entry = run["wrong_type"]
    assert is_error(entry)
    assert "value" in text_of(entry)


def test_a_client_error_for_the_question_is_a_tool_error(run: Run) -> None:
    entry = run["refused"]
    assert is_error(entry)
    assert "the user is away" in text_of(entry)


def test_an_unaskable_question_is_a_tool_error(run: Run) -> None:
    entry = run["badly"]
    assert is_error(entry)
    assert "TypeError" in text_of(entry)


def test_progress_reaches_the_client_before_the_result(run: Run) -> None:
    entry = run["steps"]
    assert not is_error(entry)
    assert text_of(entry) == "did 3"
    expected = [{"progress": step, "total": 3, "message": f"step {step}"} for step in (1, 2, 3)]
    # Everything the server sent for the call arrived, in order, before its response.
    assert entry["wireProgress"] == expected
    assert entry["lateProgress"] == []
    # SDK 1.32.2 dispatches a response at once but a notification a microtask later, so the
    # progress that arrives in the same chunk as the response can miss its handler and be
    # dropped with an "unknown token" error (typescript-sdk#2580). What the callback got is a
    # prefix of what arrived; the rest is accounted for by those errors and nothing else.
    delivered = entry["progress"]
    assert delivered == expected[: len(delivered)]
    dropped = [
        json.loads(error["message"].split(": ", 1)[1])["params"]["progress"]
        for error in run.report["errors"]
        if "progress notification for an unknown token" in error["message"]
    ]
    assert dropped == [step["progress"] for step in expected[len(delivered) :]]
    assert len(run.report["errors"]) == len(dropped), run.report["errors"]


def test_calls_without_progress_get_none(run: Run) -> None:
    for label in CALLS:
        if label != "steps":
            assert run[label]["progress"] == []
            assert run[label]["wireProgress"] == []
            assert run[label]["lateProgress"] == []


def test_the_session_goes_on(run: Run) -> None:
    assert not is_error(run["after"])
    assert text_of(run["after"]) == "2"


def test_a_client_without_the_capability_is_told_so(node: str) -> None:
    report = run_interactive(
        node,
        {"capabilities": {}, "calls": [call("ask"), call("add", {"a": 2, "b": 3})]},
    )
    assert report["asked"] == []
    asked, after = report["calls"]
    assert is_error(asked)
    assert "does not support elicitation" in text_of(asked)
    assert text_of(after) == "5"
    assert report["errors"] == []
