"""A hypothesis state machine over the sans-IO session with jobs on
(``objmcp.protocol.tasks.jobs``):
any interleaving of calls made jobs, calls ending, ``job_status``, ``job_result`` (answered
at once, or held until the runner's wait is over), ``job_cancel``, client cancellations and
the clock running past ``task_ttl``, from two callers, keeps the promises: one answer per
request, a job's result is its call's own, none after a cancel, another caller is told the
job is unknown, and so is a job forgotten after its ttl. And any arguments at all to a job
tool get one answer, a result, never a protocol error."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import objmcp
from objmcp import Toolbox
from objmcp.model.values.content import ToolResult
from objmcp.protocol import answers as session_answers
from objmcp.protocol.session import (
    CancelCall,
    Send,
    ServerInfo,
    Session,
    StartCall,
    WaitForJob,
)
from objmcp.protocol.tasks import handoff
from objmcp.protocol.tasks.extension import TaskStore
from objmcp.protocol.tasks.jobs import JobTools
from objmcp.protocol.tasks.kept import KeptTasks


class Small:
    """Something to call."""

    def work(self) -> str:
        """Works."""
        return "worked"


TOOLBOX = Toolbox(Small())
INFO = ServerInfo("jobs")
KEEP = 10.0
CALLERS = st.sampled_from(["alice", "bob"])
"""The callers, by key."""
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


def session(clock: Any) -> Session:
    return Session(
        TOOLBOX,
        INFO,
        clock=clock,
        tasks=TaskStore(limit=2, keep=KEEP, kept=KeptTasks(1000)),
        jobs=JobTools(1.0),
    )


def keyed(caller_key: str | None) -> objmcp.Caller | None:
    """The caller whose :attr:`~objmcp.Caller.key` is ``caller_key`` (None: none)."""
    return objmcp.Caller(key=caller_key) if caller_key is not None else None


def request(request_id: int, tool: str, arguments: object) -> dict[str, Any]:
    params = {"name": tool, "arguments": arguments, "_meta": META}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def text(result: dict[str, Any]) -> str:
    return "".join(block["text"] for block in result["content"])


@dataclass
class Job:
    """What the model knows of a job."""

    owner: str
    call_id: int
    output: str
    status: str = "working"
    ended_at: float | None = None


class JobSessionMachine(RuleBasedStateMachine):
    """The session, the runner's part played by the rules, and a model of each job."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 1_000_000.0
        self.session = session(lambda: self.now)
        self.ids = itertools.count(1)
        self.answered: set[int] = set()
        self.running: dict[int, tuple[int, str]] = {}  # call id -> request id, caller
        self.jobs: dict[str, Job] = {}
        self.held: dict[int, tuple[int, str, str]] = {}  # call id -> request id, job, caller
        self.outputs = itertools.count(1)
        self.given_up: set[int] = set()  # held requests the client cancelled

    def receive(self, caller: str, tool: str, arguments: object) -> tuple[int, list[Any]]:
        request_id = next(self.ids)
        actions = self.session.receive(request(request_id, tool, arguments), keyed(caller))
        self.take(actions)
        return request_id, actions

    def take(self, actions: list[Any]) -> dict[int, dict[str, Any]]:
        """Record the responses among ``actions``, each answering a request once."""
        found = {}
        for action in actions:
            if isinstance(action, Send) and isinstance(action.message, dict):
                answer_id = action.message.get("id")
                if isinstance(answer_id, int):
                    assert answer_id not in self.answered, f"request {answer_id} answered twice"
                    self.answered.add(answer_id)
                    assert "result" in action.message, action.message
                    found[answer_id] = action.message["result"]
        return found

    def known(self, job_id: str, caller: str) -> Job | None:
        job = self.jobs.get(job_id)
        if job is None or job.owner != caller:
            return None
        if job.ended_at is not None and self.now >= job.ended_at + KEEP:
            return None
        return job

    def check_result(self, result: dict[str, Any], job_id: str, caller: str) -> None:
        """A job_result answer, against the model."""
        job = self.known(job_id, caller)
        said = text(result)
        if job is None:
            assert result["isError"] and said.startswith(f"Unknown job {job_id!r}")
        elif job.status == "completed":
            assert said == job.output and result["isError"] is False
        elif job.status == "cancelled":
            assert result["isError"] and "was cancelled" in said
        else:
            assert "is still running" in said and result["isError"] is False

    @rule(caller=CALLERS)
    def call(self, caller: str) -> None:
        _, actions = self.receive(caller, "work", {})
        (start,) = [action for action in actions if isinstance(action, StartCall)]
        request_id = start.context.request_id
        assert isinstance(request_id, int)
        self.running[start.call_id] = (request_id, caller)

    @precondition(lambda self: self.running)
    @rule(data=st.data())
    def make_job(self, data: st.DataObject) -> None:
        call_id = data.draw(st.sampled_from(sorted(self.running)))
        request_id, caller = self.running[call_id]
        alive = [job.owner for job in self.jobs.values() if not job.ended_at]
        mine, share = alive.count(caller), max(1, 2 // len({*alive, caller}))
        room = mine == 0 or (mine < share and len(alive) < 2)  # each caller its share
        is_job = any(job.call_id == call_id for job in self.jobs.values())
        actions, job_id = handoff.make_job(self.session, call_id)
        if is_job or not room:
            assert job_id is None and actions == []
            return
        assert job_id is not None
        answers = self.take(actions)
        assert f'job_id "{job_id}"' in text(answers[request_id])
        self.jobs[job_id] = Job(caller, call_id, f"done {next(self.outputs)}")

    @precondition(lambda self: self.running)
    @rule(data=st.data())
    def finish(self, data: st.DataObject) -> None:
        call_id = data.draw(st.sampled_from(sorted(self.running)))
        request_id, _ = self.running.pop(call_id)
        job = next((job for job in self.jobs.values() if job.call_id == call_id), None)
        output = job.output if job is not None else "plain"
        answers = self.take(
            session_answers.call_finished(self.session, call_id, ToolResult(output))
        )
        if job is None:
            assert text(answers[request_id]) == "plain"
            return
        assert answers == {}  # the job's request was answered when it became one
        if job.status == "working":
            job.status, job.ended_at = "completed", self.now

    @precondition(lambda self: self.jobs)
    @rule(data=st.data(), caller=CALLERS)
    def status(self, data: st.DataObject, caller: str) -> None:
        job_id = data.draw(st.sampled_from(list(self.jobs)))
        request_id, actions = self.receive(caller, "job_status", {"job_id": job_id})
        said = text(self.answer_of(actions, request_id))
        job = self.known(job_id, caller)
        if job is None:
            assert said.startswith("Unknown job")
        else:
            expected = {"working": "is running", "completed": "has ended"}
            assert expected.get(job.status, "was cancelled") in said

    def answer_of(self, actions: list[Any], request_id: int) -> dict[str, Any]:
        (send,) = [a for a in actions if isinstance(a, Send) and a.message.get("id") == request_id]
        assert isinstance(send.message, dict)
        result: dict[str, Any] = send.message["result"]
        return result

    @precondition(lambda self: self.jobs)
    @rule(data=st.data(), caller=CALLERS)
    def result(self, data: st.DataObject, caller: str) -> None:
        job_id = data.draw(st.sampled_from(list(self.jobs)))
        request_id, actions = self.receive(caller, "job_result", {"job_id": job_id})
        waits = [action for action in actions if isinstance(action, WaitForJob)]
        job = self.known(job_id, caller)
        if job is not None and job.status == "working":
            (wait,) = waits
            assert wait.job_id == job_id and request_id not in self.answered
            self.held[wait.call_id] = (request_id, job_id, caller)
            return
        assert waits == []
        self.check_result(self.answer_of(actions, request_id), job_id, caller)

    @precondition(lambda self: self.held)
    @rule(data=st.data())
    def wait_over(self, data: st.DataObject) -> None:
        call_id = data.draw(st.sampled_from(sorted(self.held)))
        request_id, job_id, caller = self.held.pop(call_id)
        answers = self.take(handoff.job_waited(self.session, call_id, job_id))
        if request_id in self.given_up:
            assert answers == {}
        else:
            self.check_result(answers[request_id], job_id, caller)

    @precondition(lambda self: self.held)
    @rule(data=st.data())
    def client_gives_up(self, data: st.DataObject) -> None:
        call_id = data.draw(st.sampled_from(sorted(self.held)))
        request_id, _, _ = self.held[call_id]
        cancel = {"requestId": request_id, "_meta": META}
        notification = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel}
        assert self.take(self.session.receive(notification)) == {}
        self.given_up.add(request_id)

    @precondition(lambda self: self.jobs)
    @rule(data=st.data(), caller=CALLERS)
    def cancel(self, data: st.DataObject, caller: str) -> None:
        job_id = data.draw(st.sampled_from(list(self.jobs)))
        job = self.known(job_id, caller)
        request_id, actions = self.receive(caller, "job_cancel", {"job_id": job_id})
        said = text(self.answer_of(actions, request_id))
        stops = [action for action in actions if isinstance(action, CancelCall)]
        if job is None:
            assert said.startswith("Unknown job") and stops == []
        elif job.status == "working":
            assert stops == [CancelCall(job.call_id)] and "is cancelled" in said
            job.status, job.ended_at = "cancelled", self.now
        else:
            assert stops == [] and "had ended already" in said

    @rule(seconds=st.sampled_from([0.5, 3.0, KEEP]))
    def time_passes(self, seconds: float) -> None:
        self.now += seconds

    @invariant()
    def held_requests_are_unanswered(self) -> None:
        for request_id, _, _ in self.held.values():
            assert request_id not in self.answered


TestJobSession = JobSessionMachine.TestCase
TestJobSession.settings = settings(max_examples=100, stateful_step_count=25, deadline=None)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(
    tool=st.sampled_from(["job_status", "job_result", "job_cancel"]),
    arguments=JSON | st.dictionaries(st.just("job_id"), JSON, min_size=1),
)
def test_any_arguments_to_a_job_tool_get_one_result(tool: str, arguments: object) -> None:
    actions = session(lambda: 0.0).receive(request(1, tool, arguments), keyed("alice"))
    (send,) = actions
    assert isinstance(send, Send) and isinstance(send.message, dict)
    assert send.message["id"] == 1
    result = send.message["result"]
    assert result["isError"] is True  # no job exists: a wrong argument, or an unknown job
    assert text(result)
