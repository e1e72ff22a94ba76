"""Interoperability: the official TypeScript MCP SDK client answers objmcp's sampling, roots and
URL-elicitation requests.

``tests/js/interactive.mjs`` declares the capabilities each script gives, answers
``sampling/createMessage``, ``roots/list`` and ``elicitation/create`` from scripted lists and
records each request twice: as the SDK handed it to the handler (after its schemas) and as it
came off the transport; it also records each ``notifications/elicitation/complete``. These tests
run it against the zoo server as a real subprocess and check what the client saw, what reached
the tools, and what a client without the capabilities is told.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from peer_helpers import is_error, text_of
from test_ts_interactive import call, run_interactive

EVERYTHING: dict[str, Any] = {
    "sampling": {},
    "roots": {"listChanged": True},
    "elicitation": {"form": {}, "url": {}},
}

TEXT = 'Le café ✓ 🦊 中文, "quoted" \\ and a\nnew line.'


def text_block(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


# One session makes every call below, in this order; the server's requests take the scripted
# answers of their kind in order.
CALLS: dict[str, dict[str, Any]] = {
    "summarize": call("summarize", {"text": TEXT}),
    "async_summarize": call("async_summarize", {"text": "the minutes"}),
    "sample_refused": call("summarize", {"text": "anything"}),
    "where": call("where"),
    "where_empty": call("where"),
    "roots_refused": call("where"),
    "sign_in": call("sign_in"),
    "sign_in_declined": call("sign_in"),
    "sign_in_cancelled": call("sign_in"),
    "form": call("ask"),
    "after": call("add", {"a": 20, "b": 22}),
}
SAMPLES: list[dict[str, Any]] = [
    {
        "model": "claude-small-1",
        "role": "assistant",
        "content": text_block("Brief: café ✓"),
        "stopReason": "endTurn",
    },
    {"model": "other-model", "role": "assistant", "content": text_block("Nothing happened.")},
    {"error": {"code": -1, "message": "User rejected sampling request"}},
]
ROOTS: list[dict[str, Any]] = [
    {
        "roots": [
            {"uri": "file:///home/ada/my%20project", "name": "projet é"},
            {"uri": "file:///tmp"},
        ]
    },
    {"roots": []},
    {"error": {"code": -32603, "message": "the roots are secret"}},
]
ANSWERS: list[dict[str, Any]] = [
    {"action": "accept"},
    {"action": "decline"},
    {"action": "cancel"},
    {"action": "accept", "content": {"value": True}},
]
SIGN_INS = ["sign_in", "sign_in_declined", "sign_in_cancelled"]

# What summarize asks for: every field a sampling request can carry here.
SUMMARIZE_PARAMS: dict[str, Any] = {
    "messages": [
        {"role": "user", "content": text_block(TEXT)},
        {"role": "assistant", "content": text_block("Noted.")},
        {"role": "user", "content": text_block("Summarize that.")},
    ],
    "maxTokens": 50,
    "systemPrompt": "Be brief.",
    "temperature": 0.5,
    "stopSequences": ["END"],
    "modelPreferences": {"hints": [{"name": "claude-small"}]},
}
# What async_summarize asks for: one user message and the default token limit, nothing more.
ASYNC_SUMMARIZE_PARAMS: dict[str, Any] = {
    "messages": [{"role": "user", "content": text_block("Summarize: the minutes")}],
    "maxTokens": 1024,
}


class Run:
    """The report of the scripted session."""

    def __init__(self, report: dict[str, Any]) -> None:
        self.report = report
        self.calls: dict[str, dict[str, Any]] = dict(zip(CALLS, report["calls"], strict=True))

    def __getitem__(self, label: str) -> dict[str, Any]:
        entry = self.calls[label]
        assert entry["name"] == CALLS[label]["name"]
        return entry

    def index(self, label: str) -> int:
        """The position of the call ``label`` in the session (the report's ``"call"``)."""
        return list(CALLS).index(label)


@pytest.fixture(scope="module")
def run(node: str) -> Run:
    script = {
        "capabilities": EVERYTHING,
        "samples": SAMPLES,
        "roots": ROOTS,
        "answers": ANSWERS,
        "calls": list(CALLS.values()),
    }
    return Run(run_interactive(node, script))


def test_each_request_came_once_during_its_call_and_took_its_answer(run: Run) -> None:
    sampling = ["summarize", "async_summarize", "sample_refused"]
    assert [entry["call"] for entry in run.report["sampled"]] == [run.index(x) for x in sampling]
    assert [entry["answer"] for entry in run.report["sampled"]] == SAMPLES
    roots = ["where", "where_empty", "roots_refused"]
    assert [entry["call"] for entry in run.report["listedRoots"]] == [run.index(x) for x in roots]
    assert [entry["answer"] for entry in run.report["listedRoots"]] == ROOTS
    asking = [*SIGN_INS, "form"]
    assert [entry["call"] for entry in run.report["asked"]] == [run.index(x) for x in asking]
    assert [entry["answer"] for entry in run.report["asked"]] == ANSWERS
    assert run.report["errors"] == []


# -- sampling --------------------------------------------------------------------------------


def test_the_sampling_request_carries_every_option(run: Run) -> None:
    request = run.report["sampled"][0]
    # What the SDK's handler got, and (nothing more, nothing less) what was on the wire.
    assert request["params"] == SUMMARIZE_PARAMS
    assert request["wire"] == SUMMARIZE_PARAMS


def test_the_completion_reaches_a_sync_tool(run: Run) -> None:
    assert not is_error(run["summarize"])
    assert text_of(run["summarize"]) == "Brief: café ✓ [claude-small-1, endTurn]"


def test_an_async_tool_samples_with_the_defaults(run: Run) -> None:
    request = run.report["sampled"][1]
    assert request["params"] == ASYNC_SUMMARIZE_PARAMS
    assert request["wire"] == ASYNC_SUMMARIZE_PARAMS
    assert not is_error(run["async_summarize"])
    assert text_of(run["async_summarize"]) == "Nothing happened. [other-model]"


def test_a_refused_sampling_request_is_a_tool_error(run: Run) -> None:
    entry = run["sample_refused"]
    assert is_error(entry)
    assert "User rejected sampling request" in text_of(entry)


# -- roots -----------------------------------------------------------------------------------


def test_the_roots_request_has_no_arguments(run: Run) -> None:
    for request in run.report["listedRoots"]:
        assert request["params"] in (None, {})
        assert request["wire"] in (None, {})


def test_the_roots_reach_the_tool(run: Run) -> None:
    assert not is_error(run["where"])
    assert json.loads(text_of(run["where"])) == [
        "projet é=file:///home/ada/my%20project",
        "None=file:///tmp",
    ]


def test_no_roots_is_an_empty_list(run: Run) -> None:
    assert not is_error(run["where_empty"])
    assert json.loads(text_of(run["where_empty"])) == []


def test_a_refused_roots_request_is_a_tool_error(run: Run) -> None:
    entry = run["roots_refused"]
    assert is_error(entry)
    assert "the roots are secret" in text_of(entry)


# -- URL elicitation -------------------------------------------------------------------------


def test_a_url_question_as_the_client_sees_it(run: Run) -> None:
    ids = []
    for question in run.report["asked"][:3]:
        assert question["mode"] == "url"
        assert question["message"] == "Sign in to continue"
        assert question["url"] == "https://example.com/login"
        assert question["requestedSchema"] is None
        elicitation_id = question["elicitationId"]
        assert isinstance(elicitation_id, str) and elicitation_id
        assert question["wire"] == {
            "mode": "url",
            "message": "Sign in to continue",
            "url": "https://example.com/login",
            "elicitationId": elicitation_id,
        }
        ids.append(elicitation_id)
    # Each question has an id of its own.
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("sign_in", "accept:True"),
        ("sign_in_declined", "decline:True"),
        ("sign_in_cancelled", "cancel:True"),
    ],
)
def test_a_url_answer_reaches_the_tool(run: Run, label: str, expected: str) -> None:
    assert not is_error(run[label])
    assert text_of(run[label]) == expected


def test_each_url_question_is_completed_with_its_own_id(run: Run) -> None:
    # sign_in completes whatever the answer; each notification names its own question and
    # reached the client during the call that asked it.
    assert run.report["completed"] == [
        {"call": run.index(label), "params": {"elicitationId": question["elicitationId"]}}
        for label, question in zip(SIGN_INS, run.report["asked"][:3], strict=True)
    ]


def test_a_form_question_still_works_beside_url_mode(run: Run) -> None:
    question = run.report["asked"][3]
    assert question["message"] == "Sure?"
    assert question["mode"] in (None, "form")
    assert question["url"] is None and question["elicitationId"] is None
    assert not is_error(run["form"])
    assert text_of(run["form"]) == "accept:True"


def test_the_session_goes_on(run: Run) -> None:
    assert not is_error(run["after"])
    assert text_of(run["after"]) == "42"


# -- clients without the capabilities --------------------------------------------------------


def test_a_client_without_the_capabilities_is_told_so(node: str) -> None:
    calls = {
        "summarize": (call("summarize", {"text": "x"}), "does not support sampling"),
        "async_summarize": (call("async_summarize", {"text": "x"}), "does not support sampling"),
        "where": (call("where"), "does not support roots"),
        "sign_in": (call("sign_in"), "does not support URL elicitation"),
        "ask": (call("ask"), "does not support elicitation"),
    }
    script = {
        "capabilities": {},
        "calls": [made for made, _ in calls.values()] + [call("add", {"a": 2, "b": 3})],
    }
    report = run_interactive(node, script)
    # Nothing was sent to the client: each tool was told at once.
    for kind in ("asked", "sampled", "listedRoots", "completed"):
        assert report[kind] == [], kind
    *refused, after = report["calls"]
    for (label, (made, expected)), entry in zip(calls.items(), refused, strict=True):
        assert entry["name"] == made["name"], label
        assert is_error(entry), label
        assert expected in text_of(entry), label
    assert text_of(after) == "5"
    assert report["errors"] == []


@pytest.mark.parametrize(
    ("elicitation", "refused", "expected", "allowed", "answer", "result"),
    [
        # An empty elicitation capability means form mode only.
        (
            {},
            "sign_in",
            "does not support URL elicitation",
            "ask",
            {"action": "accept", "content": {"value": False}},
            "accept:False",
        ),
        (
            {"form": {}},
            "sign_in",
            "does not support URL elicitation",
            "ask",
            {"action": "decline"},
            "decline:None",
        ),
        (
            {"url": {}},
            "ask",
            "does not support elicitation",
            "sign_in",
            {"action": "accept"},
            "accept:True",
        ),
    ],
)
def test_a_client_gets_only_the_elicitation_modes_it_declared(
    node: str,
    elicitation: dict[str, Any],
    refused: str,
    expected: str,
    allowed: str,
    answer: dict[str, Any],
    result: str,
) -> None:
    script = {
        "capabilities": {"elicitation": elicitation},
        "answers": [answer],
        "calls": [call(refused), call(allowed)],
    }
    report = run_interactive(node, script)
    refused_entry, allowed_entry = report["calls"]
    assert is_error(refused_entry)
    assert expected in text_of(refused_entry)
    assert not is_error(allowed_entry)
    assert text_of(allowed_entry) == result
    # The client saw only the question it can answer.
    assert [question["call"] for question in report["asked"]] == [1]
    assert [question["answer"] for question in report["asked"]] == [answer]
    completed = [] if allowed == "ask" else [report["asked"][0]["elicitationId"]]
    assert [note["params"]["elicitationId"] for note in report["completed"]] == completed
    assert report["errors"] == []
