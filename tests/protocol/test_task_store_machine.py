"""A hypothesis state machine over the task store (``objmcp.protocol.tasks.extension``): any
interleaving of tasks made, polled, asked, answered, ended, cancelled and expired keeps
the promises: one final state per task, no result after a cancel, nothing kept past its
time, no task seen by another caller, each caller its share of the live tasks, and never
more ended tasks kept than the limit, the oldest of a caller over its share forgotten
first."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from objmcp.protocol.tasks.extension import ENDED, Task, TaskStore
from objmcp.protocol.tasks.kept import KeptTasks, size_of

LIMIT = 3
KEEP = 10.0
CALLER_KEYS = st.sampled_from([None, "alice", "bob"])


class TaskStoreMachine(RuleBasedStateMachine):
    """The store, beside a model of what each task's final state must be."""

    def __init__(self) -> None:
        super().__init__()
        self.store = TaskStore(limit=LIMIT, keep=KEEP, poll_interval=0.5)
        self.now = 1_000_000.0
        self.made: list[Task] = []
        self.final: dict[str, str] = {}  # task id -> the first final status it reached
        self.ended_at: dict[str, float] = {}
        self.kept: list[Task] = []  # the model of the ended tasks kept, oldest first

    @rule(caller_key=CALLER_KEYS)
    def create(self, caller_key: str | None) -> None:
        running = [task.caller_key for task in self.made if not task.ended]
        mine = running.count(caller_key)
        share = max(1, LIMIT // len({*running, caller_key}))
        room = mine == 0 or (mine < share and len(running) < LIMIT)
        task = self.store.create(len(self.made), caller_key, self.now)
        if not room:
            assert task is None
            return
        assert task is not None and task.status == "working"
        assert self.store.find(task.task_id, caller_key, self.now) is task
        self.made.append(task)

    @precondition(lambda self: self.made)
    @rule(data=st.data(), status=st.sampled_from(["completed", "failed", "cancelled"]))
    def end(self, data: st.DataObject, status: Any) -> None:
        task = data.draw(st.sampled_from(self.made))
        result = {"content": [], "isError": False} if status == "completed" else None
        error = {"code": -32603, "message": "x"} if status == "failed" else None
        changed = self.store.end(task, status, self.now, result=result, error=error)
        assert changed == (task.task_id not in self.final and self._known(task))
        if changed:
            self.final[task.task_id] = status
            self.ended_at[task.task_id] = self.now
            self._keep(task)

    def _keep(self, task: Task) -> None:
        """What the bounds of the kept tasks do, modelled: the expired go, then the
        oldest of a caller over its share while more than the limit are kept."""
        self.kept = [kept for kept in self.kept if self.ended_at[kept.task_id] + KEEP > self.now]
        self.kept.append(task)
        while len(self.kept) > LIMIT:
            caller_keys = [kept.caller_key for kept in self.kept]
            share = max(1, LIMIT // len(set(caller_keys)))
            over = {key for key in caller_keys if caller_keys.count(key) > share}
            victim = next((kept for kept in self.kept if kept.caller_key in over), self.kept[0])
            self.kept.remove(victim)

    @precondition(lambda self: self.made)
    @rule(data=st.data(), keys=st.lists(st.sampled_from("abcd"), max_size=3))
    def ask(self, data: st.DataObject, keys: list[str]) -> None:
        task = data.draw(st.sampled_from(self.made))
        self.store.ask(task, {key: {"method": "roots/list"} for key in keys}, self.now)
        if task.ended:
            assert not task.questions

    @precondition(lambda self: self.made)
    @rule(data=st.data(), keys=st.lists(st.sampled_from("abcde"), max_size=3))
    def answer(self, data: st.DataObject, keys: list[str]) -> None:
        task = data.draw(st.sampled_from(self.made))
        outstanding = set(task.questions)
        self.store.answer(task, {key: {"action": "accept"} for key in keys}, self.now)
        assert set(task.questions) == outstanding - set(keys)
        if not task.ended and not task.questions:
            assert task.status == "working"

    @precondition(lambda self: self.made)
    @rule(data=st.data(), caller_key=CALLER_KEYS)
    def poll(self, data: st.DataObject, caller_key: str | None) -> None:
        task = data.draw(st.sampled_from(self.made))
        found = self.store.find(task.task_id, caller_key, self.now)
        if found is None:
            return
        assert caller_key == task.caller_key, "a task is seen by its caller only"
        wire = self.store.wire(found, True)
        assert wire["taskId"] == task.task_id
        if wire["status"] == "cancelled":
            assert "result" not in wire and "error" not in wire
        if wire["status"] == "input_required":
            assert wire["inputRequests"]

    @rule(seconds=st.floats(min_value=0, max_value=2 * KEEP))
    def wait(self, seconds: float) -> None:
        self.now += seconds
        self.store.expire(self.now)

    def _known(self, task: Task) -> bool:
        return self.store.by_id(task.task_id) is task

    @invariant()
    def one_final_state_each(self) -> None:
        for task in self.made:
            if task.task_id in self.final:
                assert task.status == self.final[task.task_id]
                assert task.status in ENDED
            if task.status == "cancelled":
                assert task.result is None and task.error is None

    @invariant()
    def nothing_kept_past_its_time_nor_beyond_the_bounds(self) -> None:
        for task in self.made:
            ended = self.ended_at.get(task.task_id)
            if ended is None:
                assert self._known(task), "a running task is never forgotten"
            elif self.now >= ended + KEEP:
                assert self.store.by_id(task.task_id) is None
            else:
                assert self._known(task) == (task in self.kept)

    @invariant()
    def bounded(self) -> None:
        running = [task.caller_key for task in self.made if not task.ended]
        assert self.store.live() == len(running)
        assert self.store.live() <= LIMIT + len(set(running)) - 1  # one a caller beyond
        assert len(self.store.kept) <= LIMIT
        assert len(self.store) <= len(self.made)


TestTaskStore = TaskStoreMachine.TestCase
TestTaskStore.settings = settings(max_examples=60, stateful_step_count=30, deadline=None)


def test_ids_are_unguessable_and_carry_the_route() -> None:
    store = TaskStore(route="p1")
    ids = {store.create(n, None, 0.0).task_id for n in range(50)}  # type: ignore[union-attr]
    assert len(ids) == 50
    assert all(task_id.startswith("p1.") and len(task_id) > 30 for task_id in ids)


@given(steps=st.lists(st.tuples(CALLER_KEYS, st.integers(0, 3000)), max_size=40))
def test_ended_tasks_kept_stay_in_bounds_and_spare_a_caller_within_its_share(
    steps: list[tuple[str | None, int]],
) -> None:
    count, size = 4, 5000
    kept = KeptTasks(count, size)
    store = TaskStore(limit=100, keep=KEEP, kept=kept)
    ended: list[Task] = []
    for number, (caller_key, length) in enumerate(steps):
        task = store.create(number, caller_key, 0.0)
        assert task is not None
        before = [old for old in ended if store.by_id(old.task_id) is old]
        caller_keys = {old.caller_key for old in before} | {caller_key}
        share_count, share_size = max(1, count // len(caller_keys)), size // len(caller_keys)
        within = {
            key
            for key in caller_keys - {caller_key}
            if len([old for old in before if old.caller_key == key]) <= share_count
            and sum(old.size for old in before if old.caller_key == key) <= share_size
        }
        store.end(task, "completed", 0.0, result={"content": [{"text": "x" * length}]})
        ended.append(task)
        assert len(kept) <= count and kept.total <= size
        if len(caller_keys) <= count:
            for old in before:
                if old.caller_key in within:
                    assert store.by_id(old.task_id) is old, "lost to another caller"


@given(
    st.recursive(
        st.none() | st.integers() | st.text(),
        lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    )
)
def test_what_a_result_keeps_counts_each_string_and_a_long_one_shared_once(value: Any) -> None:
    long = "x" * 5000
    alone = size_of(value)
    assert alone >= sum(len(found) for found in _strings(value))
    twice = size_of({"text": long, "structuredContent": {"result": long}, "more": value})
    assert 5000 + alone <= twice < 5000 + alone + 100


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [*value, *(found for item in value.values() for found in _strings(item))]
    if isinstance(value, list):
        return [found for item in value for found in _strings(item)]
    return []
