"""A boxed server process, spoken to by the server in front of it (``run --http --sandbox``).

Over HTTP, objmcp's secrets (the token, the state key, the JWT keys, Redis) stay in the
front process; the served code runs in a child, ``objmcp run TARGET`` on stdio inside
bubblewrap's box, with an empty environment. :class:`BoxedChild` is the front's end of
that pipe: newline-delimited JSON in the 2026-07-28 revision, every request standing
alone (its ``_meta`` says the revision, what the front's caller can answer, and who the
caller is, which the boxed server trusts from its front alone: :data:`FRONT_CALLER`).

One reading thread sorts what the child writes: a response goes to the call that sent
its request, a progress notification to the call whose token it names; a request of
the child's own (``ping``) is answered there. Calls block in their own threads (the
front's tools are sync): a question the boxed tool asks comes back as ``input_required``
and the call is sent again with the answers and the request state, so that the tool,
parked in the child, carries on (never run again from the top). A call the front's
client cancels is cancelled in the child (``notifications/cancelled``). When the child
ends, every call waiting on it is answered that it ended, and the next call starts a
new one.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import queue
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..model.calling.caller import Caller, caller_record
from ..protocol.modern import CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, PROTOCOL_VERSION_KEY
from .box import FRONT_CALLER

__all__ = ["PROTOCOL_VERSION", "BoxedChild", "ChildGone", "Relay"]

logger = logging.getLogger("objmcp")

PROTOCOL_VERSION = "2026-07-28"
"""The revision the front speaks to its boxed child."""

_POLL = 0.05  # seconds between two looks at a waiting call's cancelled flag
_MAX_ROUNDS = 64  # input_required rounds of one call before giving up
_GONE = object()  # what a waiting call is handed when the child has ended


class ChildGone(Exception):
    """The boxed server ended (or could not be started) before it answered."""


Relay = Callable[[str, dict[str, Any]], dict[str, Any]]
"""What answers one of the child's questions: ``(method, params)`` to its answer."""


class BoxedChild:
    """One boxed server process (``command``), and the requests waiting for its answers."""

    def __init__(self, command: Sequence[str], client: Mapping[str, Any]) -> None:
        self.command = list(command)
        self.client = dict(client)
        """The front's ``clientInfo``, sent with every request."""
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()  # around starting, and the waiting map
        self._writing = threading.Lock()  # one message at a time (never held while reading)
        self._waiting: dict[int, tuple[subprocess.Popen[bytes], queue.SimpleQueue[object]]] = {}
        """The requests waiting for an answer, by id: the process each went to, and where
        its answer goes."""
        self._progress: dict[str, int] = {}  # progress tokens: whose request
        self._ids = itertools.count(1)

    @property
    def pid(self) -> int | None:
        """The process id of the child (bubblewrap's, outside the box), None before it
        started."""
        return None if self._process is None else self._process.pid

    def start(self) -> None:
        """Start the child unless it runs; raises :class:`ChildGone` when it cannot."""
        with self._lock:
            if self._process is not None and self._process.poll() is None:
                return
            try:
                process = subprocess.Popen(
                    self.command,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    env={},  # bubblewrap's own /proc/1/environ would show the front's
                    close_fds=True,
                    start_new_session=True,  # the front's Ctrl-C is the front's to pass on
                )
            except OSError as error:
                raise ChildGone(f"the boxed server could not be started: {error}") from None
            self._process = process
            reader = threading.Thread(
                target=self._read, args=(process,), name="objmcp-boxed-child", daemon=True
            )
            reader.start()

    def request(
        self,
        method: str,
        params: dict[str, Any],
        *,
        capabilities: Mapping[str, Any] | None = None,
        caller: Caller | None = None,
        progress: Callable[[dict[str, Any]], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> dict[str, Any]:
        """Send one request and wait for its result (a dict): ``capabilities`` are what the
        caller can answer, ``caller`` who it is; ``progress`` is handed each progress
        notification (in this thread); once ``cancelled()`` is true, the request is
        cancelled in the child and the result is ``{}``. Raises :class:`ChildGone`, or
        ``RuntimeError`` for an error answer."""
        self.start()
        request_id = next(self._ids)
        meta: dict[str, Any] = {
            PROTOCOL_VERSION_KEY: PROTOCOL_VERSION,
            CLIENT_CAPABILITIES_KEY: dict(capabilities or {}),
            CLIENT_INFO_KEY: self.client,
        }
        if caller is not None:
            meta[FRONT_CALLER] = caller_record(caller)
        token = f"front-{request_id}"
        if progress is not None:
            meta["progressToken"] = token
        sent = {**params, "_meta": {**(params.get("_meta") or {}), **meta}}
        answers: queue.SimpleQueue[object] = queue.SimpleQueue()
        with self._lock:
            process = self._process
            if process is None:
                raise ChildGone("the boxed server has ended")
            self._waiting[request_id] = (process, answers)
            if progress is not None:
                self._progress[token] = request_id
        try:
            message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": sent}
            self._send(process, message)
            return self._wait(process, request_id, answers, progress, cancelled)
        finally:
            with self._lock:
                self._waiting.pop(request_id, None)
                self._progress.pop(token, None)

    def call(
        self,
        name: str,
        arguments: Mapping[str, Any],
        ask: Relay,
        **options: Any,
    ) -> dict[str, Any]:
        """Call the tool ``name`` and return its ``CallToolResult``: each question it asks
        (``input_required``) is answered by ``ask`` and the call sent again with the
        answers, as the revision says; ``options`` are :meth:`request`'s."""
        params: dict[str, Any] = {"name": name, "arguments": dict(arguments)}
        for _ in range(_MAX_ROUNDS):
            result = self.request("tools/call", params, **options)
            if result.get("resultType") != "input_required":
                return result
            asked = result.get("inputRequests")
            responses = {
                key: ask(str(request.get("method")), dict(request.get("params") or {}))
                for key, request in (asked.items() if isinstance(asked, dict) else ())
                if isinstance(request, dict)
            }
            params = {"name": name, "arguments": dict(arguments), "inputResponses": responses}
            if "requestState" in result:
                params["requestState"] = result["requestState"]
        raise RuntimeError(f"tool {name} asked for input more than {_MAX_ROUNDS} times")

    def close(self, timeout: float = 5.0) -> None:
        """End the child: its input closed, killed if it has not ended after ``timeout``."""
        with self._lock:
            process, self._process = self._process, None
        if process is None:
            return
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def _wait(
        self,
        process: subprocess.Popen[bytes],
        request_id: int,
        answers: queue.SimpleQueue[object],
        progress: Callable[[dict[str, Any]], None] | None,
        cancelled: Callable[[], bool] | None,
    ) -> dict[str, Any]:
        while True:
            try:
                message = answers.get(timeout=_POLL if cancelled is not None else None)
            except queue.Empty:
                assert cancelled is not None
                if cancelled():
                    with contextlib.suppress(ChildGone):
                        self._send(
                            process,
                            {
                                "jsonrpc": "2.0",
                                "method": "notifications/cancelled",
                                "params": {"requestId": request_id, "reason": "cancelled"},
                            },
                        )
                    return {}
                continue
            if message is _GONE:
                raise ChildGone(_ended(process))
            if isinstance(message, tuple):  # progress, told in the call's own thread
                if progress is not None:
                    progress(message[1])
                continue
            assert isinstance(message, dict)
            if "error" in message:
                error = message["error"]
                text = error.get("message") if isinstance(error, dict) else None
                raise RuntimeError(str(text or error))
            result = message.get("result")
            return result if isinstance(result, dict) else {}

    def _send(self, process: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
        """Write ``message`` to ``process``; :class:`ChildGone` when it has ended."""
        line = json.dumps(message, separators=(",", ":")).encode() + b"\n"
        assert process.stdin is not None
        with self._writing:
            try:
                process.stdin.write(line)
                process.stdin.flush()
            except (OSError, ValueError):  # ValueError: its input closed by close()
                raise ChildGone(_ended(process)) from None

    def _read(self, process: subprocess.Popen[bytes]) -> None:
        """Sort what the child writes until it ends; then every waiting call is told."""
        assert process.stdout is not None
        for line in process.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                logger.warning("the boxed server wrote what is not JSON: %r", line[:200])
                continue
            if isinstance(message, dict):
                self._sort(process, message)
        process.wait()
        with self._lock:  # a request sent to a child started since waits for that one
            waiting = [answers for sent_to, answers in self._waiting.values() if sent_to is process]
        for answers in waiting:
            answers.put(_GONE)

    def _sort(self, process: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
        method = message.get("method")
        if method is None:
            with self._lock:
                waiting = self._waiting.get(message.get("id"))  # type: ignore[arg-type]
            if waiting is not None:
                waiting[1].put(message)
        elif "id" in message:  # a request of the child's own: only ping is asked on stdio
            reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
            if method == "ping":
                reply["result"] = {}
            else:
                reply["error"] = {"code": -32601, "message": f"the front does not answer {method}"}
            with contextlib.suppress(ChildGone):
                self._send(process, reply)
        elif method == "notifications/progress":
            params = message.get("params")
            if isinstance(params, dict):
                with self._lock:
                    request_id = self._progress.get(str(params.get("progressToken")))
                    waiting = self._waiting.get(request_id)  # type: ignore[arg-type]
                if waiting is not None:
                    waiting[1].put(("progress", params))


def _ended(process: subprocess.Popen[bytes]) -> str:
    """What to say of a call whose child ``process`` ended before it answered."""
    status = process.poll()
    said = f" (exit status {status})" if status is not None else ""
    return f"the boxed server ended before it answered{said}; the next call starts a new one"
