"""Property tests of 2025-11-25's core tasks on the sans-IO session
(:mod:`objmcp.protocol.tasks.core`): whatever the client sends as ``params.task`` or as a
``tasks/list`` cursor is a task, a plain call, or a clear error, never a failure of
objmcp's own; and any interleaving of task calls, their ends, ``tasks/get``,
``tasks/result``, ``tasks/cancel`` and cancelled ``tasks/result`` requests keeps the
promises: each request its one answer, a ``tasks/result`` answered only once its task
has ended and exactly with the call's result (or error), no result after a cancel."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import objmcp
from objmcp import Toolbox
from objmcp.model.values.content import ToolResult
from objmcp.protocol import answers as session_answers
from objmcp.protocol.jsonrpc import ProtocolError
from objmcp.protocol.session import Action, Send, ServerInfo, Session, StartCall

RELATED = "io.modelcontextprotocol/related-task"


class Modes:
    """One tool of each ``task`` mode."""

    def plain(self) -> str:
        """Optional."""
        return "plain"

    @objmcp.tool(task="never")
    def never(self) -> str:
        """Forbidden."""
        return "never"

    @objmcp.tool(task="always")
    def always(self) -> str:
        """Required."""
        return "always"


TOOLBOX = Toolbox(Modes())
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)


def session(page_size: int | None = None, knows: bool = True) -> Session:
    """A session initialized in 2025-11-25, by a client that declared the ``tasks``
    capability when it ``knows`` tasks."""
    made = Session(TOOLBOX, ServerInfo("props"), page_size=page_size)
    initialize = {
        "protocolVersion": "2025-11-25",
        "capabilities": {"tasks": {"list": {}, "cancel": {}}} if knows else {},
        "clientInfo": {"name": "props", "version": "0"},
    }
    made.receive({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": initialize})
    return made


def request(request_id: int | str, method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def sent(actions: list[Action]) -> list[dict[str, Any]]:
    messages = [action.message for action in actions if isinstance(action, Send)]
    assert all(isinstance(message, dict) for message in messages)
    return messages  # type: ignore[return-value]


@settings(max_examples=200, deadline=None)
@given(
    task=JSON | st.dictionaries(st.just("ttl"), JSON),
    tool=st.sampled_from(sorted(TOOLBOX)),
    knows=st.booleans(),
)
def test_any_task_param_is_a_task_a_plain_call_or_a_clear_error(
    task: Any, tool: str, knows: bool
) -> None:
    served = session(knows=knows)
    actions = served.receive(request(1, "tools/call", name=tool, arguments={}, task=task))
    started = [action for action in actions if isinstance(action, StartCall)]
    (answer,) = sent(actions) or [None]
    if answer is None:  # a plain call: no task asked, and one is required only if known
        assert task is None and len(started) == 1
        assert tool != "always" or not knows
    elif "error" in answer:
        assert answer["error"]["code"] in (-32601, -32602), answer
        assert not started
    else:
        assert set(answer["result"]) == {"task"} and len(started) == 1
        assert answer["result"]["task"]["status"] == "working"
        assert tool != "never"


@settings(max_examples=100, deadline=None)
@given(cursor=JSON, made=st.integers(0, 5))
def test_any_tasks_list_cursor_is_a_page_or_invalid_params(cursor: Any, made: int) -> None:
    served = session(page_size=2)
    for number in range(made):
        served.receive(request(number, "tools/call", name="plain", arguments={}, task={}))
    params = {} if cursor is None else {"cursor": cursor}
    (answer,) = sent(served.receive({**request("list", "tasks/list"), "params": params}))
    if "error" in answer:
        assert answer["error"]["code"] == -32602
    else:
        assert len(answer["result"]["tasks"]) <= 2


OPS = st.lists(
    st.tuples(
        st.sampled_from(["call", "finish", "fail", "error", "get", "result", "cancel", "drop"]),
        st.integers(0, 3),
    ),
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(ops=OPS)
def test_any_interleaving_keeps_the_promises_of_tasks(ops: list[tuple[str, int]]) -> None:
    served = session()
    tasks: list[str] = []  # by the order made
    calls: dict[str, int] = {}  # task id -> its call id
    running: set[str] = set()
    waiting: dict[str, str] = {}  # our tasks/result request id -> its task id
    answered: dict[str, dict[str, Any]] = {}
    asked_for: dict[str, str] = {}  # every tasks/result request id -> its task id
    ended: dict[str, str] = {}  # task id -> the status it ended with
    ids = iter(range(10_000))

    def take(actions: list[Action]) -> None:
        for message in sent(actions):
            if message.get("method") == "notifications/tasks/status":
                assert message["params"]["taskId"] in tasks
                continue
            request_id = message["id"]
            if isinstance(request_id, str) and request_id.startswith("r"):
                assert request_id not in answered, "two answers to one tasks/result"
                task_id = waiting.pop(request_id)
                assert task_id in ended, "a tasks/result answered before its task ended"
                answered[request_id] = message

    for op, which in ops:
        task_id = tasks[which % len(tasks)] if tasks else None
        if op == "call":
            actions = served.receive(
                request(f"c{next(ids)}", "tools/call", name="plain", arguments={}, task={})
            )
            (start,) = [a for a in actions if isinstance(a, StartCall)]
            (created,) = sent(actions)
            made = created["result"]["task"]["taskId"]
            tasks.append(made)
            calls[made] = start.call_id
            running.add(made)
        elif task_id is None:
            continue
        elif op in ("finish", "fail") and task_id in running:
            running.discard(task_id)
            result = ToolResult("done" if op == "finish" else "broke", is_error=op == "fail")
            ended.setdefault(task_id, "completed" if op == "finish" else "failed")
            take(session_answers.call_finished(served, calls[task_id], result))
        elif op == "error" and task_id in running:
            running.discard(task_id)
            failure = ProtocolError(-32603, "Internal error")
            ended.setdefault(task_id, "failed")
            take(session_answers.request_finished(served, calls[task_id], None, failure))
        elif op == "get":
            (got,) = sent(served.receive(request(f"g{next(ids)}", "tasks/get", taskId=task_id)))
            assert got["result"]["status"] == ended.get(task_id, "working")
        elif op == "result":
            request_id = f"r{next(ids)}"
            waiting[request_id] = asked_for[request_id] = task_id
            take(served.receive(request(request_id, "tasks/result", taskId=task_id)))
        elif op == "cancel":
            actions = served.receive(request(f"x{next(ids)}", "tasks/cancel", taskId=task_id))
            answer = next(m for m in sent(actions) if str(m.get("id", "")).startswith("x"))
            if task_id in ended:
                assert answer["error"]["code"] == -32602
            else:
                assert answer["result"]["status"] == "cancelled"
                ended[task_id] = "cancelled"
                running.discard(task_id)
                take(actions)
        elif op == "drop" and waiting:
            request_id = sorted(waiting)[which % len(waiting)]
            notice = {"requestId": request_id}
            cancelled = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": notice}
            assert served.receive(cancelled) == []
            del waiting[request_id]
    for task_id in list(running):  # the calls end: every tasks/result left gets its answer
        ended.setdefault(task_id, "completed")
        take(session_answers.call_finished(served, calls[task_id], ToolResult("late")))
    assert not waiting
    for request_id, answer in answered.items():
        task_id = asked_for[request_id]
        if ended[task_id] == "cancelled":
            assert answer["error"]["code"] == -32602  # no result after a cancel
        elif "error" in answer:  # the call's own JSON-RPC error
            assert answer["error"]["code"] == -32603 and ended[task_id] == "failed"
        else:
            assert answer["result"]["_meta"] == {RELATED: {"taskId": task_id}}
            assert answer["result"]["isError"] is (ended[task_id] == "failed")
