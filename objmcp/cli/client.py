"""``objmcp call TARGET TOOL key=value ...``: one call through a real server process.

A small blocking client on pipes, newline-delimited JSON, no SDK: it starts
``python -m objmcp run TARGET --for-call`` (its stderr is the user's, without the
start line, nor the log of a tool that raised, which the result already says; in a
process group of its own, so that Ctrl-C reaches only this client), speaks the modern revision
:data:`PROTOCOL_VERSION` declaring the elicitation capability and the tasks
extension in every request's ``_meta``, finds the tool in ``tools/list``, reads
the ``key=value`` and ``key:=json`` words against its input schema
(:func:`objmcp.cli.arguments.parse_arguments`: a value for a parameter that takes a
string is the text as written, unless it is a number or boolean the parameter also
takes), calls it, and prints the result's text. Questions the tool asks
(``input_required`` rounds, or a task's ``inputRequests``) are put to the user on
the terminal when stdin is one (:mod:`objmcp.cli.ask`), and declined otherwise.

A call the server answers as a task (``resultType: "task"``) is followed to its
end: ``tasks/get`` every ``pollIntervalMs``, the status line on stderr as it
changes, the questions answered by ``tasks/update``, and Ctrl-C sent on as
``tasks/cancel``; its result is printed as a plain call's. Exit status: 0, 1 for
an error result, 2 when the call could not be made (or its task failed), 130
when Ctrl-C cancelled it.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from .._exceptions import TargetError
from ..protocol.modern import (
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    PROTOCOL_VERSION_KEY,
    SERVER_INFO_KEY,
)
from ..protocol.tasks.extension import TASKS
from .arguments import parse_arguments
from .wording import counted, did_you_mean

__all__ = [
    "CAPABILITIES",
    "PROTOCOL_VERSION",
    "ServerGone",
    "ServerProcess",
    "TaskCancelled",
    "call_tool",
]

PROTOCOL_VERSION = "2026-07-28"
"""The revision ``objmcp call`` speaks: the modern one, where a long call becomes a task."""

CAPABILITIES: dict[str, Any] = {"elicitation": {"form": {}}, "extensions": {TASKS: {}}}
"""What ``objmcp call`` declares: it answers questions and follows tasks."""

_MAX_ROUNDS = 64  # input_required rounds of one request before giving up
_POLL_FLOOR = 0.05  # seconds: the least time between two polls, whatever the server says
_SHOWN_TOOLS = 12  # tools named when the command names none, or one not listed

Asker = Callable[[dict[str, Any]], dict[str, Any]]


class ServerGone(Exception):
    """The server process closed its output (it exited) before answering."""


class ServerProcess:
    """A server subprocess spoken to through its stdin and stdout, one JSON message a line."""

    def __init__(
        self, command: Sequence[str], asker: Asker, meta: Mapping[str, Any] | None = None
    ) -> None:
        self.process = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None,
            start_new_session=True,  # Ctrl-C at the terminal is ours to send on, not its
        )
        self.asker = asker
        self.meta = dict(meta or {})
        """Put in every request's ``_meta`` (the modern era's revision and capabilities)."""
        self._ids = itertools.count(1)

    def send(self, message: dict[str, Any]) -> None:
        """Write one message; raises :class:`ServerGone` when the server is gone."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(message).encode() + b"\n")
            self.process.stdin.flush()
        except OSError:
            raise ServerGone from None

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        """Send a notification."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send a request and return its result, answering the server's own requests
        meanwhile; raises :class:`ServerGone`, or ``RuntimeError`` for a JSON-RPC error."""
        request_id = next(self._ids)
        if self.meta:
            params = {**params, "_meta": {**self.meta, **(params.get("_meta") or {})}}
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        while True:
            message = self._receive()
            if "method" in message:
                if "id" in message:
                    self._answer(message)
                continue
            if message.get("id") != request_id:
                continue
            if "error" in message:
                raise RuntimeError(_error_text(message["error"]))
            result = message.get("result")
            return result if isinstance(result, dict) else {}

    def request_answered(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """:meth:`request`, its ``input_required`` rounds driven: the questions answered
        and the request sent again with the answers and its ``requestState``."""
        result = self.request(method, params)
        for _ in range(_MAX_ROUNDS):
            if result.get("resultType") != "input_required":
                return result
            retry = {**params, "inputResponses": self.answers(result.get("inputRequests"))}
            if "requestState" in result:
                retry["requestState"] = result["requestState"]
            result = self.request(method, retry)
        raise RuntimeError(f"{method} asked for input more than {_MAX_ROUNDS} times")

    def answers(self, asked: object) -> dict[str, Any]:
        """The answers to ``inputRequests`` (``{key: {method, params}}``), by key."""
        answers: dict[str, Any] = {}
        for key, request in (asked if isinstance(asked, dict) else {}).items():
            method = request.get("method") if isinstance(request, dict) else None
            if method != "elicitation/create":
                raise RuntimeError(f"the tool asked for {method}, which objmcp call cannot answer")
            params = request.get("params")
            answers[key] = self.asker(params if isinstance(params, dict) else {})
        return answers

    def _receive(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise ServerGone
            try:
                message = json.loads(line)
            except ValueError:
                sys.stderr.write(f"objmcp call: not JSON from the server: {line[:200]!r}\n")
                continue
            if isinstance(message, dict):
                return message

    def _answer(self, message: dict[str, Any]) -> None:
        method = message["method"]
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
        if method == "elicitation/create":
            params = message.get("params")
            reply["result"] = self.asker(params if isinstance(params, dict) else {})
        elif method == "ping":
            reply["result"] = {}
        else:
            reply["error"] = {"code": -32601, "message": f"objmcp call does not answer {method}"}
        self.send(reply)

    def close(self, timeout: float = 10.0) -> int:
        """Close the server's input and wait for it to end (killing it after ``timeout``)."""
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


class TaskCancelled(Exception):
    """Ctrl-C cancelled the task the call became; the message says where it stands."""


def call_tool(
    spec: str,
    tool: str,
    words: Sequence[str],
    server_args: Sequence[str],
    as_json: bool,
    out: TextIO | None = None,
) -> int:
    """Call ``tool`` of the TARGET ``spec`` through a server process; print the result
    (following the call's task to its end when the server makes it one)."""
    from .. import __version__

    out = sys.stdout if out is None else out
    for word in words:
        if "=" not in word or word.startswith(("=", ":=")):
            raise TargetError(
                f"{word!r} is not key=value: write each argument as name=value (or "
                "name:=JSON for a JSON value)"
            )
    asker = _terminal_asker() if sys.stdin.isatty() else _decline
    command = [sys.executable, "-m", "objmcp", "run", spec, "--for-call", *server_args]
    meta = {
        PROTOCOL_VERSION_KEY: PROTOCOL_VERSION,
        CLIENT_CAPABILITIES_KEY: CAPABILITIES,
        CLIENT_INFO_KEY: {"name": "objmcp-call", "version": __version__},
    }
    server = ServerProcess(command, asker, meta)
    try:
        result = _session(server, spec, tool, words)
    except ServerGone:
        status = server.close()
        sys.stderr.write(f"objmcp call: the server ended before answering (exit status {status})\n")
        return status or 2
    except TaskCancelled as cancelled:
        server.close()
        sys.stderr.write(f"objmcp call: {cancelled}\n")
        return 130
    except (RuntimeError, ValueError) as error:
        server.close()
        sys.stderr.write(f"objmcp call: {error}\n")
        return 2
    except BaseException:
        server.process.kill()
        server.close()
        raise
    server.close()
    if as_json:
        out.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    else:
        for item in result.get("content", []):
            if isinstance(item, dict) and item.get("type") == "text":
                text = str(item.get("text", ""))
                out.write(text + ("" if text.endswith("\n") or not text else "\n"))
            else:
                out.write(json.dumps(item, ensure_ascii=False) + "\n")
    out.flush()
    return 1 if result.get("isError") else 0


def _session(
    server: ServerProcess, spec: str, tool: str | None, words: Sequence[str]
) -> dict[str, Any]:
    tools: dict[str, dict[str, Any]] = {}
    cursor: str | None = None
    while True:
        listed = server.request("tools/list", {"cursor": cursor} if cursor else {})
        tools.update({entry["name"]: entry for entry in listed.get("tools", [])})
        cursor = listed.get("nextCursor")
        if not cursor:
            break
    unsaid = _unsaid(spec, tool, tools, words)
    if unsaid:
        raise ValueError(unsaid)
    assert tool is not None
    arguments = parse_arguments(words, tools[tool].get("inputSchema", {}))
    result = server.request_answered("tools/call", {"name": tool, "arguments": arguments})
    if result.get("resultType") == "task":
        result = _follow(server, result)
    return _plain(result)


def _unsaid(
    spec: str, tool: str | None, tools: Mapping[str, Mapping[str, Any]], words: Sequence[str]
) -> str | None:
    """What the command leaves out and how to say it: no tool (the tools it could
    call), a tool not listed (the closest), or no arguments for a tool that requires
    some (their names); None when the call can be made."""
    form = f"objmcp call {spec} TOOL key=value ..."
    if tool is None or tool not in tools:
        names = list(tools)
        shown = ", ".join(names[:_SHOWN_TOOLS])
        if len(names) > _SHOWN_TOOLS:
            shown += f" and {len(names) - _SHOWN_TOOLS} more ('objmcp inspect {spec}' lists them)"
        listed = (
            f"{spec} has {counted(len(names), 'tool')}: {shown}"
            if names
            else f"{spec} has no tools"
        )
        if tool is None:
            return f"which tool? {listed}. Call one with: {form}"
        hint = did_you_mean(tool, names)
        return f"no tool {tool!r}.{' ' + hint if hint else ''} {listed}."
    required = [str(name) for name in tools[tool].get("inputSchema", {}).get("required", [])]
    if words or not required:
        return None
    example = " ".join(f"{name}=VALUE" for name in required)
    return (
        f"{tool} needs {counted(len(required), 'argument')}, {', '.join(required)}: "
        f"objmcp call {spec} {tool} {example} ('objmcp inspect {spec}' describes them)"
    )


def _plain(result: dict[str, Any]) -> dict[str, Any]:
    """The ``CallToolResult`` without the modern era's envelope (``resultType``, the
    server's info in ``_meta``): a task's result and a plain call's print alike."""
    plain = {key: value for key, value in result.items() if key != "resultType"}
    meta = plain.get("_meta")
    if isinstance(meta, dict) and SERVER_INFO_KEY in meta:
        rest = {key: value for key, value in meta.items() if key != SERVER_INFO_KEY}
        if rest:
            plain["_meta"] = rest
        else:
            del plain["_meta"]
    return plain


# --- tasks ------------------------------------------------------------------------------------


def _follow(server: ServerProcess, task: dict[str, Any]) -> dict[str, Any]:
    """Poll the task ``task`` (as ``tools/call`` answered it) to its end; its result.

    Its status line goes to stderr each time it changes; its questions are answered
    once each (a key answered is not asked again, as the extension allows); Ctrl-C
    sends ``tasks/cancel`` and raises :class:`TaskCancelled`."""
    task_id = str(task.get("taskId"))
    sys.stderr.write(f"objmcp call: the call goes on as task {task_id} (Ctrl-C cancels it)\n")
    shown: str | None = None
    answered: set[str] = set()
    try:
        while True:
            line = _status_line(task)
            if line != shown:
                sys.stderr.write(f"objmcp call: {line}\n")
                sys.stderr.flush()
                shown = line
            status = task.get("status")
            if status == "completed":
                result = task.get("result")
                return result if isinstance(result, dict) else {}
            if status == "failed":
                raise RuntimeError(_error_text(task.get("error") or task.get("statusMessage")))
            if status == "cancelled":
                raise RuntimeError(f"the task was cancelled: {task.get('statusMessage', '')}")
            asked = task.get("inputRequests")
            fresh = {
                key: request
                for key, request in (asked if isinstance(asked, dict) else {}).items()
                if key not in answered
            }
            if status == "input_required" and fresh:
                given = server.answers(fresh)
                answered.update(given)
                server.request("tasks/update", {"taskId": task_id, "inputResponses": given})
            else:
                interval = task.get("pollIntervalMs")
                seconds = interval / 1000 if isinstance(interval, (int, float)) else 1.0
                time.sleep(max(seconds, _POLL_FLOOR))
            task = server.request("tasks/get", {"taskId": task_id})
    except KeyboardInterrupt:
        raise TaskCancelled(_cancel(server, task_id)) from None


def _cancel(server: ServerProcess, task_id: str) -> str:
    """Send ``tasks/cancel`` for ``task_id``; what became of the task, in words."""
    sys.stderr.write(f"\nobjmcp call: cancelling task {task_id}\n")
    try:
        server.request("tasks/cancel", {"taskId": task_id})
        status = server.request("tasks/get", {"taskId": task_id}).get("status")
    except RuntimeError as error:  # it ended and expired meanwhile, say
        return f"task {task_id} could not be cancelled: {error}"
    return f"Ctrl-C: task {task_id} is {status}"  # cancelled, or it had ended already


def _status_line(task: dict[str, Any]) -> str:
    status, message = task.get("status"), task.get("statusMessage")
    if status == "completed":  # its message was the last progress report's
        message = None
    return f"task {status}" + (f": {message}" if message else "")


def _error_text(error: object) -> str:
    """A JSON-RPC error (or a bare message) in words."""
    if not isinstance(error, dict):
        return str(error)
    data = error.get("data")
    return f"{error.get('message')}" + (f" ({json.dumps(data)})" if data else "")


# --- questions --------------------------------------------------------------------------------


def _decline(params: dict[str, Any]) -> dict[str, Any]:
    message = params.get("message", "")
    sys.stderr.write(f"objmcp call: declined a question (stdin is not a terminal): {message}\n")
    return {"action": "decline"}


def _terminal_asker() -> Asker:
    from .ask import ask

    def asker(params: dict[str, Any]) -> dict[str, Any]:
        return ask(params, sys.stdin, sys.stderr)

    return asker
