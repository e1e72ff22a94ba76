"""Tasks' answers kept in Redis, so that any process of a deployment answers for any task.

The process that runs a task's call *publishes* the task each time it changes: the body
it would answer ``tasks/get`` with, its caller's key and its own name. Any process then
*fetches* it by id for that caller, or *lists* a caller's tasks. What is stored is sealed
with AES-GCM under a key derived from the server's state key (``$OBJMCP_STATE_KEY``), the
task's id bound in: Redis holds no result, question or caller key in the clear, and a
record moved to another id, or changed, opens as nothing.

A process that holds running tasks keeps a *lease* in Redis, renewed while it lives
(:meth:`SharedTasks.renew`), and an *inbox*: another process that is asked to answer or
cancel one of its tasks forwards the request there (:meth:`~SharedTasks.forward`), and
the holder takes it (:meth:`~SharedTasks.takes`) and replies
(:meth:`~SharedTasks.replies`), both sealed as the records are. A task still working
whose process's lease has run out is fetched as ``failed``, saying so: never "working"
forever, never "not found". An ended task is kept ``ttl`` seconds (Redis expires it); a
caller keeps at most ``max_tasks`` ended tasks, the oldest forgotten first.

Needs the ``redis`` extra (``redis``, ``cryptography``), on asyncio.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import os
import time
import typing
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio

if TYPE_CHECKING:
    from redis.asyncio import Redis

__all__ = [
    "QUEUED",
    "DEFAULT_LEASE",
    "FORWARD_WAIT",
    "LOST",
    "Forwarded",
    "SharedTasks",
    "StoredTask",
    "TaskSeal",
]

logger = logging.getLogger("objmcp")

DEFAULT_LEASE = 10.0
"""Seconds a process's lease lasts unless renewed: how long a task of a process that died
may still be fetched as working."""

LOST = (
    "The server process running this task stopped before it ended (its lease in the task "
    "store ran out): the task failed"
)
"""The status message of a task whose process's lease ran out."""

QUEUED = ""
"""The owner of a task whose call waits on the queue for a worker: it has no lease."""

FORWARD_WAIT = 10.0
"""Seconds a request forwarded to the process holding its task waits for the reply."""

_ENDED = frozenset({"completed", "failed", "cancelled"})
_KEPT_WHILE_WORKING = 24 * 3600.0  # a working task's record outlives any lease it needs


@dataclass(frozen=True)
class StoredTask:
    """A task as the store gives it back: the ``tasks/get`` body, whose it is, and which
    process ran it."""

    task_id: str
    body: dict[str, Any]
    caller_key: str | None
    owner: str
    core: bool = False
    """A 2025-11-25 core task (its body is ``tasks/get``'s of 2026-07-28 all the same)."""

    @property
    def ended(self) -> bool:
        """Whether the task reached a final status."""
        return self.body.get("status") in _ENDED


@dataclass(frozen=True)
class Forwarded:
    """A request another process forwarded to this one, which holds its task: the
    JSON-RPC ``message``, its caller's key, and where the reply goes."""

    message: dict[str, Any]
    caller_key: str | None
    reply_to: str


class TaskSeal:
    """Seals and opens task records with a key derived from the state key (AES-GCM, the
    task's id as associated data)."""

    def __init__(self, state_key: bytes) -> None:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        derived = hmac.new(state_key, b"objmcp task records v1", hashlib.sha256).digest()
        self._cipher = AESGCM(derived)

    def seal(self, task_id: str, record: Mapping[str, Any]) -> bytes:
        """``record`` as JSON, encrypted and bound to ``task_id``."""
        nonce = os.urandom(12)
        text = json.dumps(record, separators=(",", ":")).encode()
        return nonce + self._cipher.encrypt(nonce, text, task_id.encode())

    def open(self, task_id: str, sealed: bytes) -> dict[str, Any] | None:
        """The record sealed for ``task_id``, or None for one changed, or sealed for
        another id or under another key."""
        from cryptography.exceptions import InvalidTag

        try:
            text = self._cipher.decrypt(sealed[:12], sealed[12:], task_id.encode())
        except (InvalidTag, ValueError):
            return None
        record = json.loads(text)
        return record if isinstance(record, dict) else None


class SharedTasks:
    """Tasks' answers in Redis at ``url`` (see the module): ``state_key`` seals them,
    ``ttl`` is how long an ended one is kept, ``max_tasks`` how many ended ones a caller
    keeps, ``lease`` how long a process's lease lasts unless renewed. ``owner`` names this
    process (made up when not given); ``prefix`` the keys of one deployment."""

    def __init__(
        self,
        url: str,
        state_key: bytes,
        *,
        ttl: float,
        max_tasks: int,
        lease: float = DEFAULT_LEASE,
        owner: str | None = None,
        prefix: str = "objmcp",
    ) -> None:
        try:
            from redis.asyncio import Redis
        except ImportError:
            raise ImportError(
                "a shared task store needs the redis extra: pip install 'objmcp[redis]'"
            ) from None
        if ttl <= 0 or lease <= 0 or max_tasks < 1:
            raise ValueError("ttl and lease must be positive, max_tasks 1 or more")
        self.url = url
        self.owner = owner or base64.urlsafe_b64encode(os.urandom(9)).decode()
        self._redis: Redis = Redis.from_url(url)
        self._seal = TaskSeal(state_key)
        self._caller_salt = hmac.new(state_key, b"objmcp task callers v1", hashlib.sha256)
        self._ttl, self._max_tasks, self._prefix = ttl, max_tasks, prefix
        self.lease = lease
        """Seconds this process's lease lasts unless renewed."""
        self.publishing = anyio.Lock()
        """Held by whoever publishes this process's changed tasks: each takes its bodies
        and publishes them under it, so that no task's older body lands after a newer."""
        self._changes = f"{prefix}:changes"

    async def aclose(self) -> None:
        """Close the connections to Redis (the lease is left to run out)."""
        await self._redis.aclose()

    async def renew(self) -> None:
        """This process lives: its lease lasts ``lease`` seconds more."""
        await self._redis.set(self._lease_key(self.owner), b"1", px=int(self.lease * 1000))

    async def publish(
        self,
        task_id: str,
        caller_key: str | None,
        body: Mapping[str, Any],
        owner: str | None = None,
        *,
        core: bool = False,
    ) -> None:
        """The task ``task_id`` of ``caller_key`` now stands as ``body`` (what
        ``tasks/get`` answers in 2026-07-28), in this process (or ``owner``:
        :data:`QUEUED` for a call on the queue); ``core`` for a 2025-11-25 core task. An
        ended one is kept ``ttl`` seconds."""
        owner = self.owner if owner is None else owner
        record = {"caller": caller_key, "owner": owner, "body": dict(body), "core": core}
        ended = body.get("status") in _ENDED
        keep = self._ttl if ended else _KEPT_WHILE_WORKING
        listed = self._ended_list(caller_key)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.set(self._task_key(task_id), self._seal.seal(task_id, record), px=int(keep * 1000))
            if ended:  # the oldest ended first when a caller keeps too many
                pipe.zadd(listed, {task_id: time.time()})
                pipe.zrem(self._working_list(caller_key), task_id)
            else:
                pipe.zadd(self._working_list(caller_key), {task_id: time.time()}, nx=True)
            changed = {"task": task_id, "caller": caller_key, "body": record["body"], "core": core}
            pipe.publish(self._changes, self._seal.seal(self._changes, changed))
            await pipe.execute()
        if ended:
            await self._forget_beyond(caller_key)

    async def fetch(self, task_id: str, caller_key: str | None) -> StoredTask | None:
        """The task ``task_id`` as the store has it, for ``caller_key``; None when there is
        none, or it is another caller's (the same answer: a task's existence is its
        caller's to know). A working task whose process's lease ran out is ``failed``."""
        sealed = await self._redis.get(self._task_key(task_id))
        if not isinstance(sealed, bytes):
            return None
        record = self._seal.open(task_id, sealed)
        if record is None:
            logger.warning("a task record in the store does not open: ignored")
            return None
        given = record.get("caller")
        if not _same_caller(given, caller_key):
            return None
        owner, core = str(record.get("owner")), record.get("core") is True
        found = StoredTask(task_id, record["body"], given, owner, core)
        if found.ended or found.owner == QUEUED:
            return found
        if await self._redis.exists(self._lease_key(found.owner)):
            return found
        return await self._lost(found)

    async def listed(self, caller_key: str | None) -> list[StoredTask]:
        """The tasks of ``caller_key`` the store has, the oldest first."""
        ids = [
            *await self._redis.zrange(self._working_list(caller_key), 0, -1),
            *await self._redis.zrange(self._ended_list(caller_key), 0, -1),
        ]
        found = []
        for raw in dict.fromkeys(ids):
            task = await self.fetch(raw.decode(), caller_key)
            if task is None:  # expired: its id goes too
                await self._redis.zrem(self._ended_list(caller_key), raw)
                await self._redis.zrem(self._working_list(caller_key), raw)
            else:
                found.append(task)
        return found

    async def changes(self) -> AsyncIterator[StoredTask]:
        """Every task as it is published from now on, by any process (the owner left
        empty), until cancelled."""
        pubsub = self._redis.pubsub()
        try:
            await pubsub.subscribe(self._changes)
            async for message in pubsub.listen():
                if message.get("type") != "message":
                    continue
                record = self._seal.open(self._changes, message["data"])
                if record is None or not isinstance(record.get("task"), str):
                    continue
                caller = record.get("caller")
                caller = caller if isinstance(caller, str) else None
                core = record.get("core") is True
                yield StoredTask(record["task"], record["body"], caller, "", core)
        finally:
            await pubsub.aclose()

    async def forward(
        self,
        owner: str,
        message: Mapping[str, Any],
        caller_key: str | None,
        wait: float = FORWARD_WAIT,
    ) -> dict[str, Any] | None:
        """Hand ``message``, a request of ``caller_key`` about a task ``owner`` holds, to
        that process and give back its response; None when none came within ``wait``
        seconds."""
        reply_to = self._key("reply", base64.urlsafe_b64encode(os.urandom(12)).decode())
        inbox = self._key("inbox", owner)
        record = {"message": dict(message), "caller": caller_key, "reply": reply_to}
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.rpush(inbox, self._seal.seal(inbox, record))
            pipe.pexpire(inbox, int(max(wait, self.lease) * 1000))
            await pipe.execute()
        got = await self._redis.blpop([reply_to], timeout=wait)
        if got is None:
            return None
        return self._seal.open(reply_to, typing.cast("bytes", got[1]))

    async def takes(self, wait: float) -> Forwarded | None:
        """The next request forwarded to this process, waiting up to ``wait`` seconds
        (None when none came, or it does not open)."""
        inbox = self._key("inbox", self.owner)
        got = await self._redis.blpop([inbox], timeout=wait)
        if got is None:
            return None
        record = self._seal.open(inbox, typing.cast("bytes", got[1]))
        if record is None or not isinstance(record.get("message"), dict):
            logger.warning("a request forwarded to this process does not open: ignored")
            return None
        caller = record.get("caller")
        return Forwarded(
            record["message"], caller if isinstance(caller, str) else None, str(record.get("reply"))
        )

    async def replies(self, forwarded: Forwarded, response: Mapping[str, Any]) -> None:
        """Give ``response`` to the process that forwarded ``forwarded``."""
        key = forwarded.reply_to
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.rpush(key, self._seal.seal(key, dict(response)))
            pipe.pexpire(key, int(FORWARD_WAIT * 1000))
            await pipe.execute()

    def sealed(self, label: str, record: Mapping[str, Any]) -> str:
        """``record`` sealed for ``label`` (as the task records are), as text."""
        return base64.b64encode(self._seal.seal(label, record)).decode()

    def opened(self, label: str, text: str) -> dict[str, Any] | None:
        """The record :meth:`sealed` for ``label``, or None."""
        try:
            sealed = base64.b64decode(text, validate=True)
        except ValueError:
            return None
        return self._seal.open(label, sealed)

    async def claim(self, task_id: str, by: str, *, again: bool = False) -> str:
        """Claim the queued task ``task_id`` for ``by`` (a worker's owner name, or a
        cancel): who holds it now, ``by`` when it was free (or ``again``: taken over)."""
        key = self._key("claim", task_id)
        keep = int(_KEPT_WHILE_WORKING * 1000)
        if again:
            await self._redis.set(key, by.encode(), px=keep)
            return by
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.set(key, by.encode(), px=keep, nx=True)
            pipe.get(key)
            _, holder = await pipe.execute()
        return holder.decode() if isinstance(holder, bytes) else by

    async def runs(self, task_id: str) -> int:
        """Count one more start of the call of the task ``task_id`` (a queue's worker):
        how many there were, this one included."""
        key = self._key("runs", task_id)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.incr(key)
            pipe.pexpire(key, int(_KEPT_WHILE_WORKING * 1000))
            counted, _ = await pipe.execute()
        return int(counted)

    async def _lost(self, task: StoredTask) -> StoredTask:
        """``task``, failed because its process's lease ran out (published so)."""
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        body = {**task.body, "status": "failed", "statusMessage": LOST, "lastUpdatedAt": now}
        await self.publish(task.task_id, task.caller_key, body, core=task.core)  # ended
        return StoredTask(task.task_id, body, task.caller_key, task.owner, task.core)

    async def _forget_beyond(self, caller_key: str | None) -> None:
        """Forget ``caller_key``'s oldest ended tasks beyond ``max_tasks``."""
        listed = self._ended_list(caller_key)
        extra = await self._redis.zcard(listed) - self._max_tasks
        if extra > 0:
            for raw, _ in typing.cast(
                "list[tuple[bytes, float]]", await self._redis.zpopmin(listed, extra)
            ):
                await self._redis.delete(self._task_key(raw.decode()))

    def _key(self, kind: str, name: str) -> str:
        return f"{self._prefix}:{kind}:{name}"

    def _task_key(self, task_id: str) -> str:
        return f"{self._prefix}:task:{task_id}"

    def _lease_key(self, owner: str) -> str:
        return f"{self._prefix}:lease:{owner}"

    def _ended_list(self, caller_key: str | None) -> str:
        return f"{self._prefix}:ended:{self._caller_tag(caller_key)}"

    def _working_list(self, caller_key: str | None) -> str:
        return f"{self._prefix}:working:{self._caller_tag(caller_key)}"

    def _caller_tag(self, caller_key: str | None) -> str:
        """A caller's name in the store's keys: keyed, so that it shows no caller key."""
        tag = self._caller_salt.copy()
        tag.update(b"\0" if caller_key is None else b"=" + caller_key.encode())
        return tag.hexdigest()[:32]


def _same_caller(stored: object, asking: str | None) -> bool:
    if stored is None or asking is None:
        return stored is None and asking is None
    return isinstance(stored, str) and hmac.compare_digest(stored, asking)
