"""A hypothesis state machine over tasks at the session level (sans-IO): the 2026-07-28
tasks extension as :class:`~objmcp.protocol.session.Session` serves it, driven directly
with a fake clock, the machine playing the clients (three callers, with and without the
extension) and the runner (calls that become tasks, ask, report progress, end).

Any interleaving of calls, calls becoming tasks, polls (``tasks/get``), updates,
cancels, answers taken by the calls, listen streams that name tasks, the calls ending (a
result, a JSON-RPC error), the clock passing a task's ttl, client cancellations and end
of input keeps every promise:

- every request gets exactly one answer (a task's call: its ``CreateTaskResult``; a
  listen stream: at the end), and none after the client cancelled it;
- every task reaches one final state and keeps it; a cancelled one keeps no result, and
  its call's end is reported to nobody;
- nothing is kept past its ttl: once ``task_ttl`` has passed since it ended, a task is
  unknown (-32602) even to its owner;
- another caller never sees a task: ``tasks/get``, ``tasks/update`` and
  ``tasks/cancel`` of it are -32602 and do nothing, a listen stream of another caller
  is not granted it, and ``notifications/tasks`` go only to the owner's streams;
- each caller has its share of ``max_tasks`` alive (the pool divided by the callers with
  tasks alive, one at least, and one always for a caller with none); beyond, a call
  stays a plain call;
- each status change of a task is heard once on each stream granted it, saying what
  ``tasks/get`` says, and nothing else is.

The store alone has a machine of its own (``test_task_store_machine.py``).
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import objmcp
from objmcp import Toolbox
from objmcp.model.values.content import ToolResult
from objmcp.protocol import answers as session_answers
from objmcp.protocol import midcall
from objmcp.protocol.jsonrpc import ProtocolError, RequestId
from objmcp.protocol.session import (
    CLIENT_CAPABILITIES_KEY,
    PROTOCOL_VERSION_KEY,
    Action,
    CancelCall,
    Send,
    ServerInfo,
    Session,
    StartCall,
    TaskAnswered,
)
from objmcp.protocol.subscriptions import SUBSCRIPTION_ID_KEY
from objmcp.protocol.tasks import handoff
from objmcp.protocol.tasks.extension import ENDED, TASKS, TaskStore
from objmcp.protocol.tasks.kept import KeptTasks


class Desk:
    """What the machine serves: a plain tool and one that always runs as a task."""

    def work(self, n: int) -> int:
        """Some work."""
        return n

    @objmcp.tool(task="always")
    def always(self) -> str:
        """Work that is always a task."""
        return "done"


TOOLBOX = Toolbox(Desk())
LIMIT = 3
KEEP = 30.0
CALLERS = (None, "alice", "bob")
"""The callers, by key (None: no credentials were checked)."""
WITH_TASKS: dict[str, Any] = {"extensions": {TASKS: {}}}
UNKNOWN = -32602
MISSING = -32021

callers = st.sampled_from(CALLERS)
askers = st.sampled_from(["owner", "owner", "owner", *CALLERS])
"""Who asks about a task: its owner more often than not."""
keys = st.lists(st.sampled_from("abc"), min_size=1, max_size=2, unique=True)


def keyed(caller_key: str | None) -> objmcp.Caller | None:
    """The caller whose :attr:`~objmcp.Caller.key` is ``caller_key`` (None: none)."""
    return objmcp.Caller(key=caller_key) if caller_key is not None else None


@dataclass
class Call:
    """A call the session started, as the runner sees it."""

    call_id: int
    request_id: int
    caller: str | None
    tasks: bool
    """Whether its request declared the extension."""
    task: str | None = None
    wanted: bool = True
    """False once its answer is no longer due (cancelled, or its task cancelled)."""
    ended: bool = False


@dataclass
class TaskModel:
    """What a task must be."""

    task_id: str
    owner: str | None
    call: Call
    status: str = "working"
    outstanding: set[str] = field(default_factory=set)
    asked: set[str] = field(default_factory=set)
    given: set[str] = field(default_factory=set)
    """Answered by ``tasks/update``, not yet taken by the call."""
    result: dict[str, Any] | None = None
    ended_at: float | None = None

    def gone(self, now: float) -> bool:
        """Whether its ttl has passed."""
        return self.ended_at is not None and now >= self.ended_at + KEEP


@dataclass
class Stream:
    """A listen stream the client opened."""

    caller: str | None
    granted: frozenset[str]


class TaskSessionMachine(RuleBasedStateMachine):
    """A session serving tasks, beside a model of what each request and task is due."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 1_000_000.0
        # ended tasks kept beyond max_tasks are the store machine's: none is forgotten here
        store = TaskStore(limit=LIMIT, keep=KEEP, poll_interval=0.5, kept=KeptTasks(1000))
        self.session = Session(
            TOOLBOX,
            ServerInfo("machine"),
            clock=lambda: self.now,
            extensions={TASKS: {}},
            tasks=store,
        )
        self.ids = itertools.count(1)
        self.marks = itertools.count(1)
        self.waiting: dict[int, str] = {}  # request id -> method, unanswered
        self.calls: dict[int, Call] = {}  # by call id
        self.tasks: dict[str, TaskModel] = {}
        self.streams: dict[int, Stream] = {}
        self.final: dict[str, str] = {}

    # --- the client --------------------------------------------------------------------

    def send(
        self, method: str, caller: str | None, capabilities: dict[str, Any], **params: Any
    ) -> tuple[int, list[Action]]:
        request_id = next(self.ids)
        meta = {PROTOCOL_VERSION_KEY: "2026-07-28", CLIENT_CAPABILITIES_KEY: capabilities}
        message = {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": method,
            "params": {**params, "_meta": meta},
        }
        self.waiting[request_id] = method
        return request_id, self.session.receive(message, keyed(caller))

    def answers(self, actions: list[Action]) -> dict[RequestId, dict[str, Any]]:
        """The responses among ``actions``, each to a request waiting for it (now not)."""
        found: dict[RequestId, dict[str, Any]] = {}
        for action in actions:
            if not isinstance(action, Send) or "method" in action.message:
                continue
            message = action.message
            json.dumps(message, allow_nan=False)
            request_id = message["id"]
            assert request_id in self.waiting, f"an answer to no request waiting: {message}"
            assert request_id not in found, f"two answers to {request_id}"
            del self.waiting[request_id]
            found[request_id] = message
        return found

    def heard(self, actions: list[Action]) -> dict[int, dict[str, Any]]:
        """The ``notifications/tasks`` among ``actions``, by the stream they went on."""
        found: dict[int, dict[str, Any]] = {}
        for action in actions:
            if isinstance(action, Send) and action.message.get("method") == "notifications/tasks":
                params = action.message["params"]
                stream_id = params["_meta"][SUBSCRIPTION_ID_KEY]
                assert action.related == stream_id
                assert stream_id in self.streams, "news on a stream that is not open"
                assert stream_id not in found, "two news on one stream in one step"
                found[stream_id] = params
        return found

    def check_news(self, actions: list[Action], task: TaskModel | None, changed: bool) -> None:
        """The news of one step: about ``task`` on each stream granted it, when it
        ``changed``; else none."""
        heard = self.heard(actions)
        due = set()
        if task is not None and changed:
            due = {s for s, stream in self.streams.items() if task.task_id in stream.granted}
        assert set(heard) == due, (heard, due)
        for stream_id, params in heard.items():
            assert task is not None
            assert self.streams[stream_id].caller == task.owner, "news to another caller"
            assert params["taskId"] == task.task_id and params["status"] == task.status
            assert "resultType" not in params
            self.check_detail(task, params)

    def check_detail(self, task: TaskModel, detail: dict[str, Any]) -> None:
        """A ``DetailedTask`` says what the model says."""
        assert detail["status"] == task.status
        if task.status == "completed":
            assert detail["result"] == task.result
        else:
            assert "result" not in detail, "a result where there is none (after a cancel?)"
        if task.status == "failed":
            assert detail["error"]["code"] == -32603
        if task.status == "input_required":
            assert set(detail["inputRequests"]) == task.outstanding
        else:
            assert "inputRequests" not in detail

    def pick_task(self, data: st.DataObject) -> TaskModel:
        # in the order made: task ids are random, and what is drawn must not depend on them
        return data.draw(st.sampled_from(list(self.tasks.values())))

    def live_tasks(self) -> int:
        return sum(1 for task in self.tasks.values() if task.status not in ENDED)

    def room(self, caller: str | None) -> bool:
        """Whether ``caller``'s share of ``max_tasks`` has room (``objmcp.protocol.shares``)."""
        alive = [task.owner for task in self.tasks.values() if task.status not in ENDED]
        mine = alive.count(caller)
        share = max(1, LIMIT // len({*alive, caller}))
        return mine == 0 or (mine < share and len(alive) < LIMIT)

    @rule(caller=callers, tasks=st.booleans(), always=st.booleans())
    def call(self, caller: str | None, tasks: bool, always: bool) -> None:
        capabilities = WITH_TASKS if tasks else {}
        name, arguments = ("always", {}) if always else ("work", {"n": next(self.marks)})
        request_id, actions = self.send(
            "tools/call", caller, capabilities, name=name, arguments=arguments
        )
        if always and not tasks:
            (answer,) = self.answers(actions).values()
            assert answer["error"]["code"] == MISSING
            return
        (start,) = actions
        assert isinstance(start, StartCall) and start.tool == name
        self.calls[start.call_id] = Call(start.call_id, request_id, caller, tasks)

    @precondition(lambda self: any(c.tasks and c.task is None and c.wanted for c in self.running()))
    @rule(data=st.data())
    def become_task(self, data: st.DataObject) -> None:
        # the runner's rule: only a call of a client that declared the extension
        choices = [c for c in self.running() if c.tasks and c.task is None and c.wanted]
        call = data.draw(st.sampled_from(choices))
        room = self.room(call.caller)
        actions, task_id = handoff.make_task(self.session, call.call_id)
        if not room:
            assert task_id is None and actions == [], "more live tasks than its share"
            return
        assert task_id is not None and len(actions) == 1
        (answer,) = self.answers(actions).values()
        created = answer["result"]
        assert answer["id"] == call.request_id
        assert created["resultType"] == "task" and created["taskId"] == task_id
        assert created["status"] == "working"
        assert task_id not in self.tasks
        call.task = task_id
        self.tasks[task_id] = TaskModel(task_id, call.caller, call)

    def running(self) -> list[Call]:
        return [call for call in self.calls.values() if not call.ended]

    @precondition(lambda self: self.tasks)
    @rule(data=st.data(), who=askers, tasks=st.booleans())
    def poll(self, data: st.DataObject, who: str | None, tasks: bool) -> None:
        task = self.pick_task(data)
        caller = task.owner if who == "owner" else who
        capabilities = WITH_TASKS if tasks else {}
        _, actions = self.send("tasks/get", caller, capabilities, taskId=task.task_id)
        (answer,) = self.answers(actions).values()
        assert len(actions) == 1
        if not tasks:
            assert answer["error"]["code"] == MISSING
        elif caller != task.owner or task.gone(self.now):
            assert answer["error"]["code"] == UNKNOWN, "another caller or an expired task"
        else:
            assert answer["result"]["taskId"] == task.task_id
            self.check_detail(task, answer["result"])

    @precondition(lambda self: any(not t.call.ended for t in self.tasks.values()))
    @rule(data=st.data(), asked=keys)
    def ask(self, data: st.DataObject, asked: list[str]) -> None:
        choices = [t for t in self.tasks.values() if not t.call.ended]
        task = data.draw(st.sampled_from(choices))
        requests = {key: {"method": "roots/list", "params": {}} for key in asked}
        before = (task.status, set(task.outstanding))
        if task.status not in ENDED:
            fresh = set(asked) - task.asked
            task.asked |= fresh
            task.outstanding |= fresh
            if task.outstanding:
                task.status = "input_required"
        actions = handoff.task_asks(self.session, task.task_id, requests)
        self.check_news(actions, task, (task.status, task.outstanding) != before)

    @precondition(lambda self: self.tasks)
    @rule(data=st.data(), who=askers, given=keys)
    def update(self, data: st.DataObject, who: str | None, given: list[str]) -> None:
        task = self.pick_task(data)
        caller = task.owner if who == "owner" else who
        if task.outstanding and data.draw(st.booleans()):
            given = sorted(task.outstanding)  # all it asks, as a client mostly answers
        responses = {key: {"roots": []} for key in given}
        _, actions = self.send(
            "tasks/update", caller, WITH_TASKS, taskId=task.task_id, inputResponses=responses
        )
        (answer,) = self.answers(actions).values()
        if caller != task.owner or task.gone(self.now):
            assert answer["error"]["code"] == UNKNOWN
            assert len(actions) == 1, "another caller's update did something"
            return
        assert answer["result"]["resultType"] == "complete"
        before = task.status
        if task.status not in ENDED:
            task.given |= task.outstanding & set(given)
            task.outstanding -= set(given)
            if task.status == "input_required" and not task.outstanding:
                task.status = "working"
        woken = [a for a in actions if isinstance(a, TaskAnswered)]
        assert all(a.task_id == task.task_id for a in woken)
        self.check_news(actions, task, task.status != before)

    @precondition(lambda self: self.tasks)
    @rule(data=st.data(), who=askers)
    def cancel(self, data: st.DataObject, who: str | None) -> None:
        task = self.pick_task(data)
        caller = task.owner if who == "owner" else who
        _, actions = self.send("tasks/cancel", caller, WITH_TASKS, taskId=task.task_id)
        (answer,) = self.answers(actions).values()
        stops = [a for a in actions if isinstance(a, CancelCall)]
        if caller != task.owner or task.gone(self.now):
            assert answer["error"]["code"] == UNKNOWN
            assert len(actions) == 1, "another caller's cancel did something"
            return
        assert set(answer["result"]) == {"resultType", "_meta"}
        changed = task.status not in ENDED
        if changed:
            self.end(task, "cancelled")
            task.call.wanted = False
            assert [a.call_id for a in stops] == [task.call.call_id]
        else:
            assert stops == [], "an ended task's call was cancelled again"
        self.check_news(actions, task, changed)

    @precondition(lambda self: self.tasks or self.calls)
    @rule(data=st.data(), caller=callers, tasks=st.booleans(), bogus=st.booleans())
    def listen(self, data: st.DataObject, caller: str | None, tasks: bool, bogus: bool) -> None:
        named = sorted(data.draw(st.sets(st.sampled_from(list(self.tasks) or ["x"]))))
        if bogus:
            named.append("no-such-task")
        capabilities = WITH_TASKS if tasks else {}
        request_id, actions = self.send(
            "subscriptions/listen", caller, capabilities, notifications={"taskIds": named}
        )
        if not tasks and named:
            (answer,) = self.answers(actions).values()
            assert answer["error"]["code"] == MISSING
            return
        (ack,) = actions
        assert isinstance(ack, Send) and ack.related == request_id
        granted = {
            task_id
            for task_id in named
            if task_id in self.tasks
            and self.tasks[task_id].owner == caller
            and not self.tasks[task_id].gone(self.now)
        }
        notifications = ack.message["params"]["notifications"]
        assert sorted(notifications.get("taskIds", [])) == sorted(granted)
        self.streams[request_id] = Stream(caller, frozenset(granted))

    @precondition(lambda self: self.running())
    @rule(data=st.data(), how=st.sampled_from(["result", "error", "failure"]))
    def finish(self, data: st.DataObject, how: str) -> None:
        call = data.draw(st.sampled_from(self.running()))
        call.ended = True
        mark = next(self.marks)
        if how == "failure":
            failure = ProtocolError(-32603, f"broke {mark}")
            actions = session_answers.request_finished(self.session, call.call_id, None, failure)
        else:
            result = ToolResult(f"said {mark}", mark, is_error=how == "error")
            actions = session_answers.call_finished(self.session, call.call_id, result)
        task = self.tasks.get(call.task) if call.task is not None else None
        answers = self.answers(actions)
        if not call.wanted:
            assert actions == [], "the end of a cancelled call was reported"
            return
        if task is None:
            (answer,) = answers.values()
            assert answer["id"] == call.request_id
            if how == "failure":
                assert answer["error"]["code"] == -32603
            else:
                assert answer["result"]["content"][0]["text"] == f"said {mark}"
            self.check_news(actions, None, False)
            return
        assert answers == {}, "a task's call answered its request twice"
        status = "failed" if how == "failure" else "completed"
        self.end(task, status)
        if status == "completed":
            kept = self.session.tasks.by_id(task.task_id)
            assert kept is not None and kept.result is not None
            task.result = kept.result
            assert task.result["content"][0]["text"] == f"said {mark}"
            assert task.result["isError"] == (how == "error")
        self.check_news(actions, task, True)

    def end(self, task: TaskModel, status: str) -> None:
        assert task.task_id not in self.final
        self.final[task.task_id] = status
        task.status, task.ended_at = status, self.now
        task.outstanding.clear()
        task.given.clear()

    @precondition(lambda self: any(not t.call.ended for t in self.tasks.values()))
    @rule(data=st.data(), wanted=keys)
    def take(self, data: st.DataObject, wanted: list[str]) -> None:
        """The task's call takes the answers to its questions: all of them or none, and
        only its own."""
        choices = [t for t in self.tasks.values() if not t.call.ended]
        task = data.draw(st.sampled_from(choices))
        if task.given and data.draw(st.booleans()):
            wanted = sorted(task.given)  # what its call waits for
        taken = handoff.task_answers(self.session, task.task_id, set(wanted))
        if task.status in ENDED or not set(wanted) <= task.given:
            assert taken is None
            return
        assert taken is not None and set(taken) == set(wanted)
        assert all(value == {"roots": []} for value in taken.values())
        task.given -= set(wanted)

    @precondition(lambda self: self.running())
    @rule(data=st.data())
    def progress(self, data: st.DataObject) -> None:
        call = data.draw(st.sampled_from(self.running()))
        actions = midcall.progress(self.session, call.call_id, 1, 2, "half")
        assert actions == []  # no progressToken asked; a task says it in its statusMessage

    @precondition(lambda self: self.waiting)
    @rule(data=st.data())
    def client_cancels(self, data: st.DataObject) -> None:
        """``notifications/cancelled`` of a request still waiting: a plain call or a
        listen stream."""
        request_id = data.draw(st.sampled_from(sorted(self.waiting)))
        params = {"requestId": request_id, "reason": "bored"}
        message = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params}
        actions = self.session.receive(message)
        del self.waiting[request_id]
        self.streams.pop(request_id, None)
        calls = [c for c in self.running() if c.request_id == request_id and c.wanted]
        assert [a.call_id for a in actions if isinstance(a, CancelCall)] == [
            c.call_id for c in calls
        ]
        assert all(isinstance(a, CancelCall) for a in actions)
        for call in calls:
            call.wanted = False

    @rule(seconds=st.sampled_from([0.5, KEEP / 2, KEEP, 2 * KEEP]))
    def wait(self, seconds: float) -> None:
        self.now += seconds

    # --- the promises ------------------------------------------------------------------

    @invariant()
    def one_final_state_each(self) -> None:
        for task_id, model in self.tasks.items():
            kept = self.session.tasks.by_id(task_id)
            if kept is None:
                assert model.ended_at is not None, "a live task was forgotten"
                continue
            assert kept.status == model.status
            if task_id in self.final:
                assert kept.status == self.final[task_id]
            if kept.status == "cancelled":
                assert kept.result is None and kept.error is None

    @invariant()
    def nothing_kept_past_its_ttl(self) -> None:
        for task_id, model in self.tasks.items():
            found = self.session.tasks.find(task_id, model.owner, self.now)
            assert (found is None) == model.gone(self.now)
        alive = {task.owner for task in self.tasks.values() if task.status not in ENDED}
        assert self.session.tasks.live() == self.live_tasks()
        assert self.live_tasks() <= max(LIMIT, LIMIT + len(alive) - 1)

    def teardown(self) -> None:
        """End of input: the listen streams are answered; then every call still running
        ends, and every request has had its one answer."""
        actions = self.session.close()
        closed = {a.message["id"] for a in actions if isinstance(a, Send) and "id" in a.message}
        assert closed == set(self.streams)
        for stream_id in closed:
            del self.waiting[stream_id]
        for call in self.running():
            call.ended = True
            ended = session_answers.call_finished(self.session, call.call_id, ToolResult("late"))
            answers = self.answers(ended)
            if not call.wanted or call.task is not None:
                assert answers == {}
            else:
                assert set(answers) == {call.request_id}
        assert self.waiting == {}, f"requests never answered: {self.waiting}"


TestTaskSession = TaskSessionMachine.TestCase
TestTaskSession.settings = settings(max_examples=60, stateful_step_count=30, deadline=None)


def test_an_answer_is_taken_once_and_by_its_own_task_only() -> None:
    machine = TaskSessionMachine()
    made = []
    for _ in range(2):
        _, actions = machine.send(
            "tools/call", "alice", WITH_TASKS, name="work", arguments={"n": 1}
        )
        (start,) = actions
        assert isinstance(start, StartCall)
        _, task_id = handoff.make_task(machine.session, start.call_id)
        assert task_id is not None
        handoff.task_asks(machine.session, task_id, {"a": {"method": "roots/list", "params": {}}})
        made.append(task_id)
    first, second = made
    machine.send("tasks/update", "alice", WITH_TASKS, taskId=first, inputResponses={"a": 1})
    assert handoff.task_answers(machine.session, second, {"a"}) is None
    assert handoff.task_answers(machine.session, first, {"a", "b"}) is None
    assert handoff.task_answers(machine.session, first, {"a"}) == {"a": 1}
    assert handoff.task_answers(machine.session, first, {"a"}) is None
