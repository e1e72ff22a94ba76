"""What a front puts on the queue for a worker, converted and sealed: a caller written and
read back is the same caller (its key above all: it keeps ``per="caller"`` objects and
tasks apart); a queued job opens only for its own task's id, under the same state key, and
not once changed. Property-based (hypothesis)."""

from __future__ import annotations

import base64
import string

from hypothesis import given
from hypothesis import strategies as st

import objmcp
from objmcp.model.calling.caller import caller_from, caller_record
from objmcp.serving.shared_tasks import SharedTasks
from objmcp.serving.task_queue import opened_job

text = st.text(string.printable, max_size=20)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
    max_leaves=8,
)
callers = st.builds(
    objmcp.Caller,
    subject=st.none() | text,
    client_id=st.none() | text,
    scopes=st.frozensets(text, max_size=4),
    claims=st.dictionaries(text, json_values, max_size=4),
)


@given(callers)
def test_a_caller_written_for_a_worker_reads_back_the_same(caller: objmcp.Caller) -> None:
    again = caller_from(caller_record(caller))
    assert again == caller and again is not None
    assert again.key == caller.key and dict(again.claims) == dict(caller.claims)


def test_no_caller_is_no_caller() -> None:
    assert caller_record(None) is None and caller_from(None) is None


def store(key: bytes) -> SharedTasks:
    return SharedTasks("redis://127.0.0.1:1/0", key, ttl=60, max_tasks=10)  # never connects


@given(st.dictionaries(text, json_values, max_size=5), text, text)
def test_a_job_opens_for_its_task_only_and_unchanged(
    job: dict[str, object], task_id: str, other_id: str
) -> None:
    shared = store(b"k" * 32)
    sealed = shared.sealed(f"queue:{task_id}", job)
    assert opened_job(shared, task_id, sealed) == job
    if other_id != task_id:
        assert opened_job(shared, other_id, sealed) is None
    assert opened_job(store(b"x" * 32), task_id, sealed) is None  # another state key
    raw = bytearray(base64.b64decode(sealed))
    for at in (0, len(raw) // 2, len(raw) - 1):  # the nonce, the text, the tag
        changed = raw.copy()
        changed[at] ^= 1
        assert opened_job(shared, task_id, base64.b64encode(changed).decode()) is None
    assert opened_job(shared, task_id, "not base64 !") is None
