"""A session's tasks say which changed since last asked, for a store several processes
share, and keep nothing of the kind when nobody asks."""

from __future__ import annotations

from objmcp.protocol.tasks.extension import TaskStore


def test_a_published_store_gives_each_changed_task_once_in_order() -> None:
    store = TaskStore(10, 60.0, published=True)
    first = store.create(1, "alice", 0.0)
    second = store.create(2, "bob", 0.0)
    assert first is not None and second is not None
    assert [t.task_id for t in store.take_changed()] == [first.task_id, second.task_id]
    assert store.take_changed() == []
    store.say(second, "halfway", 1.0)
    store.ask(first, {"q0": {"method": "elicitation/create", "params": {}}}, 2.0)
    store.say(second, "nearly", 3.0)
    assert [t.task_id for t in store.take_changed()] == [second.task_id, first.task_id]
    store.answer(first, {"q0": {"action": "accept"}}, 4.0)
    store.end(second, "completed", 5.0, result={"content": []})
    changed = store.take_changed()
    assert [(t.task_id, t.status) for t in changed] == [
        (first.task_id, "working"),
        (second.task_id, "completed"),
    ]


def test_a_store_nobody_publishes_keeps_no_changes() -> None:
    store = TaskStore(10, 60.0)
    task = store.create(1, None, 0.0)
    assert task is not None
    store.say(task, "working on it", 1.0)
    store.end(task, "completed", 2.0)
    assert store.changed == {} and store.take_changed() == []
