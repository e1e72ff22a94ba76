"""Coverage-guided fuzz target (atheris) for objmcp's framing and session layers.

An input is a byte stream a client could write to a stdio server. Its first byte says
how the stream is read: bits 0-1 the framing (auto, newline, content-length, auto),
bits 2-4 the size of the chunks it arrives in, bit 5 a 64-byte frame limit instead of
the default, bits 6-7 when the calls it starts finish (all at the end, after each
frame, or all but the newest after each frame). The rest goes through the glue of
``StreamConnection`` (frame decoder, ``parse_message``, session) into a session with
limits small inputs reach; at the end the session is closed and every call still
running is finished, in the order the calls started, with the served object's result.

Checked on every input, beyond "nothing but the errors the glue catches is raised":

- the decoder gives the same frames whatever the chunking (its errors may be worded
  differently), never more outputs than bytes, none over the limit, and newline
  frames that are trimmed lines;
- every request with a string or integer id gets exactly one response with that id
  (unless the client cancelled it, then none, even when its call finishes later);
  every message that cannot be answered by id (not JSON, not an object, a bad id, a
  refused batch, a frame error) gets exactly one error with id null; notifications
  and stray responses get none; no two running calls share an id; the requests of a
  batch are answered in the batch's array (a listen stream's aside); a message that is
  not in a batch gets what it is owed at once (a request: its response, its call or
  its stream's acknowledgement), over the session's limits as under them; at the end
  the id of every request that got a result is free for a new one;
- everything the server sends is a well-formed JSON-RPC 2.0 response, batch of
  responses or notification (the server has asked nothing, so it gets no requests
  and sends none), is encoded by ``encode_message`` as strict JSON (UTF-8, no NaN or
  Infinity) with no raw newline, and comes back out of a frame decoder unchanged;
- a response's ``Send.related`` is its id.

Run it from the repository root (new inputs are written to the first directory):

    .venv/bin/python tests/fuzz/target.py tests/fuzz/corpus -max_total_time=600

``tests/protocol/test_fuzz_corpus.py`` replays the corpus, and ``tests/fuzz/crashes``, with
:func:`one_input` alone (no atheris needed). The fuzzer runs :func:`explore`, which lets
the violations of the bugs in :data:`KNOWN_BUGS` pass while they are open.
"""

from __future__ import annotations

import contextlib
import logging
import shlex
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

import anyio


def _instrumented() -> contextlib.AbstractContextManager[object]:
    """atheris's coverage instrumentation of what is imported inside, when this file runs
    as the fuzzer (it must wrap the imports, which run before :func:`main`)."""
    if __name__ != "__main__":
        return contextlib.nullcontext()
    import atheris

    hooks: contextlib.AbstractContextManager[object] = atheris.instrument_imports(
        include=["objmcp"]
    )
    return hooks


with _instrumented():
    import objmcp
    from objmcp import FrameError, ToolResult
    from objmcp.model.calling.toolbox import Toolbox
    from objmcp.model.values.jsontext import ParseFailure, encode_message, parse_message
    from objmcp.protocol import answers as session_answers
    from objmcp.protocol.jsonrpc import INVALID_REQUEST, PARSE_ERROR, RequestId, error_response
    from objmcp.protocol.session import (
        Action,
        Answer,
        CancelCall,
        Send,
        ServerInfo,
        Session,
        StartCall,
    )
    from objmcp.protocol.state import StateSeal
    from objmcp.protocol.subscriptions import SUBSCRIPTION_ID_KEY
    from objmcp.serving.execute import read_or_get
    from objmcp.transport.framing import (
        DEFAULT_MAX_FRAME,
        NEED_DATA,
        FrameDecoder,
        Framing,
        encode_frame,
    )

__all__ = ["KNOWN_BUGS", "Violation", "explore", "main", "one_input"]


class Violation(AssertionError):
    """objmcp broke a promise the target checks (``assert`` would vanish under -O)."""


def expect(condition: bool, what: str, *details: object) -> None:
    """Raise :class:`Violation` saying ``what`` unless ``condition`` holds."""
    if not condition:
        shown = "".join(f"\n  {detail!r}"[:2000] for detail in details)
        raise Violation(what + shown)


KNOWN_BUGS: tuple[str, ...] = ()
"""Violations (how their messages start) of bugs reported, with a regression input in
``tests/fuzz/crashes``, that :func:`main` lets pass while they are not fixed."""


# --- what is served ---------------------------------------------------------------------------


class Pad:
    """The object served: three tools, a resource, a resource template and a prompt."""

    def add(self, a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    def echo(self, text: str) -> str:
        """Say it back."""
        return text

    def mean(self, values: list[float]) -> float:
        """The mean of some numbers."""
        return sum(values) / max(len(values), 1)

    @objmcp.resource("pad://readme", cache=(60_000, "public"))
    async def readme(self) -> str:
        """What the pad is."""
        return "A pad of notes."

    @objmcp.resource("pad://notes/{key}")
    async def note(self, key: str) -> dict[str, str]:
        """One note, by key."""
        return {"key": key}

    @objmcp.prompt(
        complete={"tone": lambda typed: [t for t in ("dry", "warm") if t.startswith(typed)]}
    )
    async def greet(self, who: Literal["world", "team"], tone: str = "warm") -> str:
        """Say hello."""
        return f"Say hello to the {who}, {tone}ly."


TOOLBOX = Toolbox(Pad())
INFO = ServerInfo(
    "fuzz",
    title="Fuzz",
    instructions="Be nice.",
    description="The fuzz target's server.",
    website_url="https://example.com",
)
SEAL = StateSeal(b"the fuzz target's request-state key")


def new_session() -> Session:
    """A session like a server's, with a fixed clock, pages of two tools and limits a
    small input can reach."""
    return Session(
        TOOLBOX,
        INFO,
        seal=SEAL,
        clock=lambda: 1.8e9,
        page_size=2,
        cache={"tools/list": (5_000, "public")},
        max_calls=4,
        max_string=512,
    )


# --- how the input is read --------------------------------------------------------------------

Finish = Literal["end", "each", "lag"]
FRAMINGS: tuple[Framing, ...] = ("auto", "newline", "content-length", "auto")
CHUNKS = (0, 1, 2, 3, 5, 8, 13, 64)
"""Sizes of the chunks the stream arrives in (0: all at once)."""
SMALL_FRAME = 64
FINISHES: tuple[Finish, ...] = ("end", "each", "lag", "end")


@dataclass(frozen=True)
class Reading:
    """How one input's stream is read, from its first byte."""

    framing: Framing
    chunk: int
    max_size: int
    finish: Finish

    @classmethod
    def of(cls, byte: int) -> Reading:
        """The reading the bits of ``byte`` choose."""
        return cls(
            FRAMINGS[byte & 3],
            CHUNKS[(byte >> 2) & 7],
            SMALL_FRAME if byte & 0x20 else DEFAULT_MAX_FRAME,
            FINISHES[byte >> 6],
        )


def chunks(stream: bytes, size: int) -> Iterator[bytes]:
    """``stream`` in pieces of ``size`` bytes (in one piece for 0)."""
    if size == 0:
        yield stream
        return
    for start in range(0, len(stream), size):
        yield stream[start : start + size]


def frames(stream: bytes, reading: Reading, decoder: FrameDecoder) -> Iterator[bytes | FrameError]:
    """What ``decoder`` makes of ``stream`` arriving in the chunks ``reading`` says, as the
    read loop takes it, every frame checked."""
    budget = len(stream) + 1
    for chunk in chunks(stream, reading.chunk):
        decoder.feed(chunk)
        while True:
            frame = decoder.next_frame()
            if frame is NEED_DATA:
                break
            budget -= 1
            expect(budget >= 0, "the decoder gives more frames than it was fed bytes")
            yield checked_frame(frame, decoder)
        expect(decoder.buffered >= 0, "a negative buffer", decoder.buffered)
    last = decoder.end_of_input()
    if last is not None:
        yield checked_frame(last, decoder)


def checked_frame(frame: object, decoder: FrameDecoder) -> bytes | FrameError:
    """``frame`` as it came out of ``decoder``, checked."""
    if isinstance(frame, FrameError):
        expect(bool(str(frame)), "a frame error that says nothing")
        return frame
    expect(isinstance(frame, bytes), "a frame that is neither bytes nor a FrameError", frame)
    assert isinstance(frame, bytes)
    expect(len(frame) <= decoder.max_size, "a frame over the limit", len(frame))
    if decoder.framing != "content-length":  # (a Content-Length body may be empty)
        expect(bool(frame), "an empty line as a frame")
        expect(b"\n" not in frame, "a newline frame holding a newline", frame)
        expect(frame == frame.strip(b" \t\r\n"), "a newline frame not trimmed", frame)
    return frame


def outline(stream: bytes, reading: Reading) -> tuple[Framing, list[bytes | None] | None]:
    """The framing the decoder settles on for ``stream``, and the frames (None for each
    error), or None for them when a header went over 8 KiB (that limit holds only while
    a header is incomplete, so the chunking decides whether it is reached)."""
    decoder = FrameDecoder(reading.framing, reading.max_size)
    found: list[bytes | None] | None = []
    for frame in frames(stream, reading, decoder):
        if isinstance(frame, FrameError) and "over 8 KiB" in str(frame):
            found = None
        elif found is not None:
            found.append(None if isinstance(frame, FrameError) else frame)
    return decoder.framing, found


# --- the client's ledger ----------------------------------------------------------------------


def is_id(value: object) -> bool:
    """An id MCP allows: a string or an integer (not a bool)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def owed(message: object) -> Literal["response", "null", "nothing"]:
    """What JSON-RPC says one decoded message is owed: a response with its id, one error
    with id null, or nothing (a notification, or a response, which the session ignores
    since it asked nothing; with ``"method": null`` too, as the session reads it)."""
    if not isinstance(message, dict):
        return "null"
    has_id = "id" in message
    version_ok = message.get("jsonrpc") == "2.0"
    method = message.get("method")
    if version_ok and method is None and has_id and ("result" in message or "error" in message):
        return "nothing"
    if has_id:
        return "response" if is_id(message["id"]) else "null"
    return "nothing" if version_ok and isinstance(method, str) else "null"


def check_response(response: object) -> dict[str, Any]:
    """A JSON-RPC 2.0 response as MCP narrows it (string or integer ids, null for errors
    only), returned as a dict."""
    expect(isinstance(response, dict), "a response that is not an object", response)
    assert isinstance(response, dict)
    expect(response.get("jsonrpc") == "2.0", 'a response without "jsonrpc": "2.0"', response)
    expect("id" in response, "a response without an id", response)
    expect(("result" in response) != ("error" in response), "not one of result, error", response)
    expect(set(response) <= {"jsonrpc", "id", "result", "error"}, "stray members", response)
    request_id = response["id"]
    if "result" in response:
        expect(is_id(request_id), "a result whose id is no string or integer", response)
        expect(isinstance(response["result"], dict), "a result that is not an object", response)
    else:
        expect(request_id is None or is_id(request_id), "an error with a bad id", response)
        error = response["error"]
        expect(isinstance(error, dict), "an error that is not an object", response)
        expect(type(error.get("code")) is int, "an error code that is no integer", response)
        message = error.get("message")
        expect(isinstance(message, str) and bool(message), "an error saying nothing", response)
        expect(set(error) <= {"code", "message", "data"}, "stray members in an error", response)
    return response


def check_notification(notification: dict[str, Any]) -> None:
    """A JSON-RPC 2.0 notification."""
    expect(notification.get("jsonrpc") == "2.0", "a notification not 2.0", notification)
    expect("id" not in notification, "a server request nobody asked for", notification)
    expect(isinstance(notification["method"], str), "a method that is no string", notification)
    expect(set(notification) <= {"jsonrpc", "method", "params"}, "stray members", notification)
    params = notification.get("params", {})
    expect(isinstance(params, dict), "notification params that are not an object", notification)


def wire(message: object, framing: Framing) -> object:
    """``message`` as the client reads it: encoded as the connection writes it, checked to
    be strict JSON in one frame, decoded."""
    body = encode_message(message)
    expect(b"\n" not in body, "an encoded message holding a raw newline", body)
    written: Literal["newline", "content-length"] = (
        "content-length" if framing == "content-length" else "newline"
    )
    decoder = FrameDecoder(written)
    decoder.feed(encode_frame(body, written))
    expect(decoder.next_frame() == body, "a written frame that reads back otherwise", body)
    expect(decoder.next_frame() is NEED_DATA, "a written frame that reads as more", body)
    try:
        return parse_message(body)
    except ParseFailure as error:
        raise Violation(f"the server wrote what is not JSON ({error}): {body[:2000]!r}") from None


class Ledger:
    """The client's side of one session: what it is owed, and a check of every action."""

    def __init__(self, session: Session, finish: Finish) -> None:
        self.session = session
        self.finish = finish
        self.framing: Framing = "newline"
        """How the connection writes (the decoder's framing once it decided)."""
        self.owed: Counter[RequestId] = Counter()
        """Request id -> how many requests with it still wait for their response."""
        self.batched: Counter[RequestId] = Counter()
        """The part of :attr:`owed` due in the array that answers a batch."""
        self.reading_batch = False
        """Whether the actions being carried out are the session's answer to a batch."""
        self.batched_calls: set[int] = set()
        """Calls started by a batch."""
        self.nulls_owed = 0
        self.nulls_seen = 0
        self.started: dict[int, StartCall] = {}
        """Calls started and not finished, in the order they started."""
        self.cancelled: set[int] = set()
        self.listens: set[RequestId] = set()
        """Listen streams open (they are answered at close, or cancelled by the client)."""
        self.acknowledged: Counter[RequestId] = Counter()
        """Listen streams acknowledged by what the session is receiving."""
        self.succeeded: set[RequestId] = set()
        """Ids of the requests that got a result."""

    # --- what the client sends ---

    def frame(self, frame: bytes | FrameError, framing: Framing) -> None:
        """Carry one frame through the glue of ``StreamConnection``, then finish the calls
        the policy says are done."""
        self.framing = framing
        if isinstance(frame, FrameError):
            self.nulls_owed += 1
            self.send(error_response(None, INVALID_REQUEST, str(frame)), None)
        else:
            try:
                message = parse_message(frame)
            except ParseFailure as error:
                self.nulls_owed += 1
                actions = self.session.parse_error(str(error))
                expect(len(actions) == 1, "not one answer to a parse error", actions)
                expect(self.code(actions[0]) == PARSE_ERROR, "a parse error not -32700", actions)
                self.perform(actions)
            else:
                self.receive(message)
        if self.finish == "each":
            self.finish_calls(len(self.started))
        elif self.finish == "lag":
            self.finish_calls(len(self.started) - 1)

    def receive(self, message: object) -> None:
        """Hand the session a decoded message, after noting what it is owed."""
        revision = self.session.revision
        batch = isinstance(message, list)
        refused = batch and (not message or revision is None or not revision.batches)
        if refused:
            self.nulls_owed += 1
        elif isinstance(message, list):
            for item in message:
                self.owe(item, batched=True)
        else:
            self.owe(message)
        self.acknowledged.clear()
        actions = self.session.receive(message)
        if refused or not batch:
            self.check_answer("null" if batch else owed(message), message, actions)
        self.reading_batch = batch and not refused
        self.perform(actions)
        self.reading_batch = False
        open_now = set(self.session.subscriptions.listens)
        seen = self.listens | set(self.acknowledged)
        expect(open_now <= seen, "a listen stream never acknowledged", open_now - seen)
        for request_id in seen:
            # a stream that was open or acknowledged and is not open now was cancelled:
            # its request is owed no response
            closed = (request_id in self.listens) + self.acknowledged[request_id]
            for _ in range(closed - (request_id in open_now)):
                self.owe_less(request_id, "a listen stream cancelled twice")
        self.listens = open_now

    @staticmethod
    def check_answer(kind: str, message: object, actions: list[Action]) -> None:
        """The session's immediate answer to a message that is not a batch it takes."""
        answer = actions[0] if len(actions) == 1 else None
        if kind == "null":
            said = answer.message if isinstance(answer, Send) else None
            ok = isinstance(said, dict) and said.get("id", "") is None and "error" in said
            expect(ok, "not one error with id null for an invalid message", message)
        elif kind == "nothing":
            # a cancellation may end the wait of a batch: its responses go out then
            answers = [
                a
                for a in actions
                if not isinstance(a, CancelCall)
                and not (isinstance(a, Send) and isinstance(a.message, list))
            ]
            expect(not answers, "an answer to a notification or response", message)
        else:
            assert isinstance(message, dict)
            if isinstance(answer, StartCall):
                ok = answer.context.request_id == message["id"]
            else:  # its response, or the acknowledgement of the stream it opens
                ok = isinstance(answer, Send) and answer.related == message["id"]
            expect(ok, "not one answer to a request", message, actions)

    def owe(self, message: object, batched: bool = False) -> None:
        """Note what one message (not a batch) is owed, in a batch's array if ``batched``."""
        kind = owed(message)
        if kind == "response":
            assert isinstance(message, dict)
            self.owed[message["id"]] += 1
            self.batched[message["id"]] += batched
        elif kind == "null":
            self.nulls_owed += 1

    def end(self) -> None:
        """The input ended: close the session, finish every call, check that all is said."""
        self.perform(self.session.close())
        expect(not self.session.subscriptions.listens, "listen streams open after close")
        self.listens.clear()
        self.finish_calls(len(self.started))
        expect(self.session.in_flight == 0, "calls in flight at the end", self.session.in_flight)
        expect(not +self.owed, "requests never answered", +self.owed)
        expect(self.nulls_seen == self.nulls_owed, "errors with id null missing")
        for request_id in list(self.succeeded):  # all answered: every id is free again
            ping = {"jsonrpc": "2.0", "id": request_id, "method": "ping"}
            self.owe(ping)
            actions = self.session.receive(ping)
            answer = actions[0] if len(actions) == 1 else None
            said = answer.message if isinstance(answer, Send) else None
            ok = isinstance(said, dict) and "result" in said
            expect(ok, "an id still taken after its request was answered", request_id, actions)
            self.perform(actions)

    # --- what the session says ---

    def perform(self, actions: list[Action]) -> None:
        """Check and carry out the session's actions."""
        for action in actions:
            if isinstance(action, Send):
                self.send(action.message, action.related)
            elif isinstance(action, StartCall):
                self.start(action)
            elif isinstance(action, CancelCall):
                started = self.started.get(action.call_id)
                expect(started is not None, "a cancel of no running call", action)
                expect(action.call_id not in self.cancelled, "a call cancelled twice", action)
                assert started is not None
                self.cancelled.add(action.call_id)
                self.owe_less(started.context.request_id, "a cancel of a call owed nothing")
                if action.call_id in self.batched_calls:
                    self.batched[started.context.request_id] -= 1
            elif isinstance(action, Answer):
                raise Violation(f"an answer to a question nobody asked: {action!r}")
            else:
                raise Violation(f"an unknown action: {action!r}")

    def start(self, action: StartCall) -> None:
        """Check a call the session starts, and note it running."""
        request_id = action.context.request_id
        running = {
            call.context.request_id
            for call_id, call in self.started.items()
            if call_id not in self.cancelled
        }
        expect(action.call_id not in self.started, "a call id used twice", action)
        expect(self.owed[request_id] > 0, "a call no request waits for", action)
        expect(request_id not in running, "two running calls with one id", action)
        if action.kind == "tool":
            known = action.tool in TOOLBOX
        elif action.kind == "resource":
            known = TOOLBOX.find_resource(action.tool) is not None
        else:
            known = action.tool in TOOLBOX.prompts
        expect(known, "a call of nothing published", action)
        self.started[action.call_id] = action
        if self.reading_batch:
            self.batched_calls.add(action.call_id)

    def finish_calls(self, count: int) -> None:
        """Finish the ``count`` calls that started first, in order, with real results; a
        cancelled one must get no answer."""
        for call_id in list(self.started)[: max(count, 0)]:
            action = self.started.pop(call_id)
            actions: list[Action]
            if action.kind == "tool":
                result: ToolResult = TOOLBOX.call(action.tool, action.arguments)
                actions = session_answers.call_finished(self.session, call_id, result)
            else:
                body, error = anyio.run(read_or_get, TOOLBOX, action)
                actions = session_answers.request_finished(self.session, call_id, body, error)
            if call_id in self.cancelled:
                self.cancelled.discard(call_id)
                expect(actions == [], "an answer to a cancelled call", action, actions)
            expect(all(isinstance(a, Send) for a in actions), "a finish that acts", actions)
            expect(len(actions) <= 1, "a finish that sends more than once", actions)
            self.perform(actions)

    def send(self, message: object, related: RequestId | None) -> None:
        """Check one message the server writes, and settle what it answers."""
        read = wire(message, self.framing)
        if isinstance(read, list):
            expect(bool(read), "an empty batch response")
            responses = [check_response(item) for item in read]
            answered = [response["id"] for response in responses]
            expect(related is None or related in answered, "a batch related elsewhere", related)
            for request_id in answered:
                if request_id is not None:
                    expect(self.batched[request_id] > 0, "a batch answering others", read)
                    self.batched[request_id] -= 1
            for response in responses:
                self.settle(response)
            return
        expect(isinstance(read, dict), "a message that is no object nor batch", read)
        assert isinstance(read, dict)
        if "method" in read:
            check_notification(read)
            if read["method"] == "notifications/subscriptions/acknowledged":
                meta = read.get("params", {}).get("_meta", {})
                stream = meta.get(SUBSCRIPTION_ID_KEY) if isinstance(meta, dict) else None
                expect(is_id(stream), "an acknowledgement of no stream", read)
                assert isinstance(stream, (str, int))
                expect(self.owed[stream] > 0, "an acknowledged stream nobody opened", read)
                expect(related == stream, "an acknowledgement related elsewhere", related, read)
                self.acknowledged[stream] += 1
                if self.reading_batch:  # a stream is answered when it ends, batch or not
                    self.batched[stream] -= 1
            return
        response = check_response(read)
        request_id = response["id"]
        expect(related == request_id, "a response related elsewhere", related, read)
        if request_id is not None:
            alone = self.owed[request_id] - self.batched[request_id]
            expect(alone > 0, "a request of a batch answered outside its array", read)
        self.settle(response)

    def settle(self, response: dict[str, Any]) -> None:
        """Strike what ``response`` answers off what is owed."""
        request_id = response["id"]
        if request_id is None:
            self.nulls_seen += 1
            expect(self.nulls_seen <= self.nulls_owed, "an error with id null for nothing")
        else:
            self.owe_less(request_id, "a response no request waits for")
            if "result" in response:
                self.succeeded.add(request_id)

    def owe_less(self, request_id: RequestId, what: str) -> None:
        """One request with ``request_id`` less waits (``what`` is wrong if none did)."""
        expect(self.owed[request_id] > 0, what, request_id)
        self.owed[request_id] -= 1

    @staticmethod
    def code(action: Action) -> object:
        """The error code a Send of one error response carries."""
        message = action.message if isinstance(action, Send) else None
        error = message.get("error") if isinstance(message, dict) else None
        return error.get("code") if isinstance(error, dict) else None


# --- the target -------------------------------------------------------------------------------


def one_input(data: bytes) -> None:
    """One checked round: ``data[0]`` says how to read ``data[1:]``, the client's stream;
    raises :class:`Violation` for a broken promise (or whatever objmcp raised)."""
    if not data:
        return
    reading = Reading.of(data[0])
    stream = data[1:]
    if reading.chunk != 0:
        whole = Reading(reading.framing, 0, reading.max_size, reading.finish)
        (chunked_framing, chunked), (whole_framing, at_once) = (
            outline(stream, reading),
            outline(stream, whole),
        )
        expect(
            chunked_framing == whole_framing,
            "the chunking changed the framing auto-detection chose",
            chunked_framing,
            whole_framing,
        )
        if chunked is not None and at_once is not None:
            expect(chunked == at_once, "the chunking changed the frames", chunked, at_once)
    decoder = FrameDecoder(reading.framing, reading.max_size)
    ledger = Ledger(new_session(), reading.finish)
    for frame in frames(stream, reading, decoder):
        ledger.frame(frame, decoder.framing)
    ledger.end()


def explore(data: bytes) -> None:
    """:func:`one_input`, except that the violations of :data:`KNOWN_BUGS` pass (so that a
    fuzzing run goes on past a bug reported but not yet fixed)."""
    try:
        one_input(data)
    except Violation as violation:
        if not str(violation).startswith(KNOWN_BUGS):
            raise


def main() -> None:
    """Fuzz :func:`explore` with atheris (libFuzzer flags and corpus directories in argv)."""
    import atheris

    # What a served method raises is logged with its traceback: not for every input.
    logging.getLogger("objmcp").addHandler(logging.NullHandler())
    # -merge and -fork run argv[0] again through the shell: it must be a whole command
    command = shlex.join([sys.executable, sys.argv[0]])
    atheris.Setup([command, *sys.argv[1:]], explore)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
