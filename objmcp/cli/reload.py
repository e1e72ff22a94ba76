"""``objmcp dev TARGET``: serve over stdio, and restart the server when its files change.

Theory of operation. The dev process is a proxy between the client (its own
stdin and stdout) and a child ``python -m objmcp run TARGET --framing newline``
(whose stderr is the dev process's). Messages pass through unchanged, with three
exceptions, all about the handshake era's stateful session:

1. The client's ``initialize`` request, ``notifications/initialized`` and its
   latest ``logging/setLevel`` are remembered. The ``initialize`` result passed
   back says ``tools.listChanged: true``, because this server's tools do change.
2. The watcher polls the modification times of the target's Python files (a
   file target: it and the ``.py`` files beside it; a module: its file, or its
   whole top-level package), and those given with ``--watch``, every
   ``interval`` seconds. On a change the child is stopped (its input closed,
   then terminated if it lingers) and a new one started, to which the
   remembered messages are replayed; their answers are not passed on. Once the
   new child has answered the replayed ``initialize``, the client gets
   ``notifications/tools/list_changed`` and lists again.
3. Every request gets one answer: a request the old child had not answered
   when it was stopped is answered with a JSON-RPC error saying the server
   restarted, and one that arrives while no child runs (it failed to load, say)
   is answered with an error saying so; a fixed file restarts it.

Messages sent while a child starts wait for it. Calls in flight when a file
changes are lost with the old process (their errors say so), as are questions
the old child was asking. A modern-era client (2026-07-28) keeps no session, so
nothing is replayed, and it is told nothing: it lists again as its cache hints
say. The client may use either framing; children always speak newline JSON.

Ctrl-C stops the child and ends the dev process with status 130, as it ends
``objmcp run``, saying nothing more. The child runs in a session of its own, so
a terminal's Ctrl-C reaches the dev process alone, which passes it on once.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..transport.framing import NEED_DATA, FrameDecoder, encode_frame
from .targets import parse_target

__all__ = ["DevProxy", "develop", "snapshot", "watch_roots"]

_SETTLE = 0.1
"""Seconds to let an editor finish saving before restarting."""
_RESTARTED = "objmcp dev: the server restarted (its files changed) before answering; send it again"
_NOT_RUNNING = (
    "objmcp dev: the server is not running (see its errors above); save a fix to restart it"
)


def develop(spec: str, server_args: Sequence[str], watch: Sequence[str], interval: float) -> int:
    """Serve the TARGET ``spec`` on stdin/stdout, restarting it on changes; returns the status."""
    parse_target(spec)  # a malformed TARGET is refused now; one that fails to load, by the child
    roots = watch_roots(spec) + [(Path(p).expanduser().resolve(), True) for p in watch]
    command = [sys.executable, "-m", "objmcp", "run", spec, "--framing", "newline", *server_args]
    files = snapshot(roots)
    sys.stderr.write(f"objmcp dev: serving {spec}, watching {len(files)} file(s)\n")
    return DevProxy(command, roots, interval).run()


def watch_roots(spec: str) -> list[tuple[Path, bool]]:
    """What to watch for a TARGET, without importing it: (path, recursively) pairs."""
    target = parse_target(spec)
    if target.is_path:
        path = target.path
        return [(path, True)] if path.is_dir() else [(path, False), (path.parent, False)]
    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    try:
        found = importlib.util.find_spec(target.where.partition(".")[0])
    except (ImportError, ValueError):
        found = None
    if found is None:
        return [(Path(cwd), False)]  # the module may yet be written here
    if found.submodule_search_locations:
        return [(Path(location), True) for location in found.submodule_search_locations]
    return [(Path(found.origin), False)] if found.origin and found.has_location else []


def snapshot(roots: Sequence[tuple[Path, bool]]) -> dict[str, tuple[int, int]]:
    """The modification time and size of each watched Python file."""
    files: dict[str, tuple[int, int]] = {}
    for root, recursive in roots:
        paths: Iterable[Path]
        if root.is_dir():
            paths = root.rglob("*.py") if recursive else root.glob("*.py")
        else:
            paths = [root]
        for path in paths:
            try:
                stat = path.stat()
            except OSError:
                continue
            files[str(path)] = (stat.st_mtime_ns, stat.st_size)
    return files


def _key(request_id: object) -> str:
    return json.dumps(request_id, sort_keys=True)


def _error(request_id: object, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32603, "message": message}}


class DevProxy:
    """The proxy between a client and a restartable server child (see the module docstring)."""

    def __init__(
        self, command: Sequence[str], roots: Sequence[tuple[Path, bool]], interval: float
    ) -> None:
        self.command = list(command)
        self.roots = list(roots)
        self.interval = interval
        self.lock = threading.Lock()  # the state below, and writes to the child
        self.output_lock = threading.Lock()  # writes to the client
        self.child: subprocess.Popen[bytes] | None = None
        self.reader: threading.Thread | None = None
        self.generation = 0
        self.restarting = False
        # What the client sent while no child could take it (a restart): sent on after.
        self.waiting: list[dict[str, Any] | list[Any] | bytes] = []
        self.pending: dict[str, tuple[object, int]] = {}  # request key -> (id, generation)
        self.swallow: dict[str, str] = {}  # replayed request key -> method
        self.initialize: dict[str, Any] | None = None
        self.initialized = False
        self.log_level: dict[str, Any] | None = None
        self.framing: str = "newline"
        self.input_ended = threading.Event()
        self.interrupted = False  # Ctrl-C: the child's end is no news

    def run(self) -> int:
        """Serve until the client's input ends; returns the exit status."""
        with self.lock:
            self.generation += 1
            self._start()
        threading.Thread(target=self._read_client, daemon=True).start()
        files = snapshot(self.roots)
        try:
            while not self.input_ended.wait(self.interval):
                current = snapshot(self.roots)
                if current == files:
                    continue
                changed = sorted(set(current.items()) ^ set(files.items()))
                time.sleep(_SETTLE)
                files = snapshot(self.roots)
                sys.stderr.write(f"objmcp dev: {Path(changed[0][0]).name} changed; restarting\n")
                self._restart()
        except KeyboardInterrupt:
            with self.lock:
                self.interrupted = True
                child = self.child
            if child is not None:
                _interrupt(child)
            return 130
        with self.lock:
            child, reader = self.child, self.reader
        if child is not None:
            child.wait()
        if reader is not None:
            reader.join(5)
        return 0

    # --- children ---------------------------------------------------------------------------

    def _start(self) -> None:
        """Start a child for the current generation, replay the session to it, send on
        what waited (the lock is held)."""
        child = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,  # Ctrl-C is the dev process's to pass on (POSIX)
        )
        self.child = child
        self.restarting = False
        self.reader = threading.Thread(
            target=self._read_child, args=(child, self.generation), daemon=True
        )
        self.reader.start()
        replay = [self.initialize, self.log_level] if self.initialize is not None else []
        for number, message in enumerate(replay):
            if message is None:
                continue
            replay_id = f"objmcp-dev-{self.generation}-{number}"
            self.swallow[_key(replay_id)] = str(message["method"])
            self._to_child({**message, "id": replay_id})
            if number == 0 and self.initialized:
                self._to_child({"jsonrpc": "2.0", "method": "notifications/initialized"})
        waiting, self.waiting = self.waiting, []
        refused = [request_id for item in waiting for request_id in self._forward(item)]
        for request_id in refused:  # the child died at once: still one answer each
            self._to_client(_error(request_id, _NOT_RUNNING))
        if self.input_ended.is_set() and child.stdin is not None:
            child.stdin.close()  # the client left while this child started

    def _restart(self) -> None:
        with self.lock:
            old, old_generation = self.child, self.generation
            self.generation += 1  # the old child's last words are dropped from now on
            self.child = None
            self.restarting = True
            self.swallow.clear()
            lost = [rid for rid, gen in self.pending.values() if gen == old_generation]
            self.pending = {k: v for k, v in self.pending.items() if v[1] != old_generation}
        for request_id in lost:
            self._to_client(_error(request_id, _RESTARTED))
        if old is not None:
            _stop(old, grace=2.0)
        with self.lock:
            self._start()

    def _to_child(self, message: dict[str, Any] | list[Any] | bytes) -> bool:
        """Write to the current child (the lock is held); False when it cannot take it."""
        child = self.child
        if child is None or child.stdin is None:
            return False
        if isinstance(message, bytes):
            data = message
        else:
            data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
        try:
            child.stdin.write(data + b"\n")
            child.stdin.flush()
        except OSError:
            return False
        return True

    def _read_child(self, child: subprocess.Popen[bytes], generation: int) -> None:
        assert child.stdout is not None
        for line in child.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                sys.stderr.write(f"objmcp dev: not JSON from the server: {line[:200]!r}\n")
                continue
            with self.lock:
                if generation != self.generation:
                    continue  # a stopped child's last words
                message, notify = self._from_child(message)
            if message is not None:
                self._to_client(message)
            if notify:
                self._to_client({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        status = child.wait()
        with self.lock:
            if generation != self.generation or self.restarting or self.interrupted:
                return
            self.child = None
            lost = [rid for rid, gen in self.pending.values() if gen == generation]
            self.pending = {k: v for k, v in self.pending.items() if v[1] != generation}
        if not self.input_ended.is_set():
            sys.stderr.write(
                f"objmcp dev: the server exited (status {status}); waiting for a change\n"
            )
        for request_id in lost:
            self._to_client(_error(request_id, _NOT_RUNNING))

    def _from_child(self, message: Any) -> tuple[Any, bool]:
        """What to pass on of a child's message, and whether to say the tools changed."""
        if isinstance(message, list):
            for item in message:
                if isinstance(item, dict) and "method" not in item and "id" in item:
                    self.pending.pop(_key(item["id"]), None)
            return message, False
        if not isinstance(message, dict) or "method" in message or "id" not in message:
            return message, False
        key = _key(message["id"])
        replayed = self.swallow.pop(key, None)
        if replayed is not None:
            return None, replayed == "initialize" and "result" in message and self.initialized
        self.pending.pop(key, None)
        result = message.get("result")
        if self.initialize is not None and key == _key(self.initialize.get("id")):
            tools = (
                result.get("capabilities", {}).get("tools") if isinstance(result, dict) else None
            )
            if isinstance(tools, dict):
                tools["listChanged"] = True
        return message, False

    # --- the client -------------------------------------------------------------------------

    def _read_client(self) -> None:
        decoder = FrameDecoder("auto")
        while True:
            try:
                data = os.read(0, 1 << 16)
            except OSError:
                data = b""
            if data:
                decoder.feed(data)
                frames = []
                while (frame := decoder.next_frame()) is not NEED_DATA:
                    frames.append(frame)
            else:
                last = decoder.end_of_input()
                frames = [last] if last is not None else []
            if decoder.framing != "auto":
                self.framing = decoder.framing
            for frame in frames:
                if isinstance(frame, bytes):
                    self._from_client(frame)
                else:
                    self._to_client(
                        {
                            "jsonrpc": "2.0",
                            "id": None,
                            "error": {"code": -32600, "message": str(frame)},
                        }
                    )
            if not data:
                break
        with self.lock:
            self.input_ended.set()
            child = self.child
            if child is not None and child.stdin is not None:
                with contextlib.suppress(OSError):
                    child.stdin.close()

    def _from_client(self, body: bytes) -> None:
        try:
            message: Any = json.loads(body)
        except ValueError:
            message = None
        item: dict[str, Any] | list[Any] | bytes = (
            message
            if isinstance(message, (dict, list))
            else body.replace(b"\r", b" ").replace(b"\n", b" ")
        )
        with self.lock:
            for part in message if isinstance(message, list) else [message]:
                if isinstance(part, dict):
                    self._remember(part)
            if self.child is None and self.restarting:
                self.waiting.append(item)
                return
            refused = self._forward(item)
        for request_id in refused:
            self._to_client(_error(request_id, _NOT_RUNNING))

    def _remember(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        if method == "initialize" and "id" in message:
            self.initialize, self.initialized, self.log_level = message, False, None
        elif method == "notifications/initialized":
            self.initialized = True
        elif method == "logging/setLevel" and "id" in message:
            self.log_level = message

    def _forward(self, item: dict[str, Any] | list[Any] | bytes) -> list[object]:
        """Send a client's message on (the lock is held); the ids of requests it could not."""
        parts = item if isinstance(item, list) else [item]
        requests = [p["id"] for p in parts if isinstance(p, dict) and "method" in p and "id" in p]
        if not self._to_child(item):
            return requests
        for request_id in requests:
            self.pending[_key(request_id)] = (request_id, self.generation)
        return []

    def _to_client(self, message: Any) -> None:
        body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
        frame = encode_frame(
            body, "content-length" if self.framing == "content-length" else "newline"
        )
        with self.output_lock:
            try:
                sys.stdout.buffer.write(frame)
                sys.stdout.buffer.flush()
            except OSError:
                pass  # the client is gone; its end of input ends the proxy


def _interrupt(child: subprocess.Popen[bytes]) -> None:
    """End a child as Ctrl-C ends ``objmcp run`` (SIGINT: status 130, nothing said), then
    as :func:`_stop` if it lingers."""
    if os.name == "posix":
        with contextlib.suppress(OSError):
            child.send_signal(signal.SIGINT)
    _stop(child, grace=5.0)


def _stop(child: subprocess.Popen[bytes], grace: float) -> None:
    """End a child: close its input, then terminate and at last kill it if it lingers."""
    if child.stdin is not None:
        with contextlib.suppress(OSError):
            child.stdin.close()
    for step in (child.terminate, child.kill):
        try:
            child.wait(grace)
            return
        except subprocess.TimeoutExpired:
            step()
            grace = 3.0
    child.wait()
