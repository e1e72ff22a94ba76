"""``objmcp run --http --sandbox`` (issue 43): objmcp's secrets stay in the front process, the
served code runs in boxed children it speaks to over a pipe, and a queue's worker boxes
what it runs. Through real processes in a real box (Debian's bubblewrap): the official SDK
client in both eras, raw 2026-07-28 requests for tasks and cancellation, JWTs for callers,
a real Redis for the queue. What the front promises is what a server without the box
does: questions to the user, progress, cancellation, tasks and ``--per`` objects."""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jwt
import pytest
from conftest import ROOT
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from http_helpers import HttpServer, modern, modern_headers, post, text_of
from mcp import Client, types
from task_helpers import GUARD, QueueWorker, lines
from test_shared_tasks_http import started_task, until

FRONT = str(ROOT / "tests" / "servers" / "boxed_front.py")
TARGET = f"{FRONT}:Front"
SECRET = "the-front-state-key-0123456789abcdef0123456789abcdef"
TOOLS = {"made_for", "ask", "count", "until_cancelled", "crash", "environment", "read", "queued"}
TOOLS |= {"echo"}


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A secret planted outside the box, and a folder it may write."""
    root = tmp_path_factory.mktemp("front")
    outside, writable = root / "outside", root / "writable"
    for folder in (outside, writable):
        folder.mkdir()
    (outside / "secret.txt").write_text("the host's secret")
    return {"outside": outside, "writable": writable}


def boxed(places: dict[str, Path], *options: str, token: str = "") -> HttpServer:
    """The front of :data:`TARGET`'s boxed children, holding :data:`SECRET` (and ``token``,
    which every request must then carry)."""
    more = ("--sandbox", "--writable", str(places["writable"]), "--discovery", "off", *options)
    more += tuple(word for name in sorted(TOOLS) for word in ("--include", name))
    return HttpServer(*more, target=TARGET, env={"OBJMCP_STATE_KEY": SECRET, "OBJMCP_TOKEN": token})


@pytest.fixture(scope="module")
def front(places: dict[str, Path]) -> Iterator[HttpServer]:
    server = boxed(places, "--task-after", "5")
    yield server
    server.stop()


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_official_client_reaches_the_boxed_tools(
    front: HttpServer, places: dict[str, Path], mode: str
) -> None:
    asked: list[str] = []
    progress: list[tuple[float, float | None, str | None]] = []

    async def answer(context: Any, request: types.ElicitRequestParams) -> Any:
        asked.append(request.message)
        return types.ElicitResult(action="accept", content={"value": "Ada"})

    async def report(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    secret = places["outside"] / "secret.txt"
    async with Client(front.url, mode=mode, elicitation_callback=answer) as client:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        hello = await client.call_tool("ask", {})
        counted = await client.call_tool("count", {"steps": 3}, progress_callback=report)
        outside = await client.call_tool("read", {"path": str(secret)})
        environment = await client.call_tool("environment", {})
        first = await client.call_tool("made_for", {})
        second = await client.call_tool("made_for", {})
    assert listed == TOOLS
    assert (text_of(hello), hello.is_error) == ("hello Ada", False)
    assert asked == ["Your name?"]  # asked once: the parked call went on, not again
    assert (text_of(counted), counted.is_error) == ("3", False)
    assert progress == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]
    assert outside.is_error
    assert text_of(outside).startswith(f"sandbox: cannot read {secret}: outside what the box")
    assert not environment.is_error and SECRET not in text_of(environment)
    assert "OBJMCP_STATE_KEY" not in json.loads(text_of(environment))
    assert first.structured_content == second.structured_content  # one shared object


def test_a_cancelled_call_is_cancelled_in_the_box(
    front: HttpServer, places: dict[str, Path]
) -> None:
    marker = places["writable"] / "cancelled.txt"
    call = modern("tools/call", 7, name="until_cancelled", arguments={"marker": str(marker)})
    answers: list[Any] = []
    running = threading.Thread(
        target=lambda: answers.append(
            post(front.url, call, **modern_headers("tools/call", "until_cancelled"))
        )
    )
    running.start()
    assert lines(marker, 1) == ["started"]
    cancel = modern("notifications/cancelled", None, requestId=7)
    told = post(front.url, cancel, **modern_headers("notifications/cancelled"))
    assert lines(marker, 2) == ["started", "cancelled"]  # the boxed tool saw it
    running.join(GUARD)
    assert told.status_code == 202 and answers


def test_a_child_that_ends_is_said_and_the_next_call_starts_another(
    places: dict[str, Path],
) -> None:
    token = "the-front-token-" + secrets.token_hex(8)
    server = boxed(places, token=token)
    try:
        before = _call(server, "made_for", token)
        environment = _call(server, "environment", token)
        first = _call(server, "read", token, path="/proc/1/environ")
        front = _call(server, "read", token, path=f"/proc/{server.process.pid}/environ")
        ended = _call(server, "crash", token)
        after = _call(server, "made_for", token)
    finally:
        server.stop()
    # neither the token nor the state key is anywhere the boxed code can look
    for secret in (token, SECRET):
        assert secret not in json.dumps([environment, first, front])
    assert not environment["isError"] and not first["isError"]
    assert front["isError"] and front["content"][0]["text"].startswith("sandbox: cannot read")
    assert ended["isError"], ended
    assert ended["content"][0]["text"].startswith("sandbox: the boxed server ended")
    assert "exit status 3" in ended["content"][0]["text"]
    assert not after["isError"], after
    assert after["structuredContent"]["object"] != before["structuredContent"]["object"]


def test_big_calls_at_once_cross_the_pipe_both_ways(front: HttpServer) -> None:
    # each argument and each result fills the pipe many times over, while others do
    texts = [str(number) * 300_000 for number in range(6)]
    answers: dict[int, Any] = {}

    def echo(number: int) -> None:
        answers[number] = _call(front, "echo", text=texts[number])

    callers = [threading.Thread(target=echo, args=(number,)) for number in range(6)]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join(GUARD)
    assert sorted(answers) == list(range(6))
    for number, answer in answers.items():
        assert not answer["isError"], answer["content"][0]["text"][:300]
        assert answer["content"][0]["text"] == texts[number]


def test_a_task_runs_in_the_box(front: HttpServer, places: dict[str, Path]) -> None:
    marker = places["writable"] / "task.txt"
    task_id = started_task(front.url, "queued", marker=str(marker))  # task="always"
    done = until(front.url, task_id, "completed")
    assert done["result"]["content"][0]["text"] == "home seen: False; key: False"
    assert marker.read_text() == "ran\n"


class Issuer:
    """An RSA key that signs JWTs, its public half in ``pem``."""

    def __init__(self, folder: Path) -> None:
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.pem = folder / "issuer.pem"
        public = self.key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        self.pem.write_bytes(public)

    def token(self, subject: str) -> str:
        now = int(time.time())
        claims = {"iss": "https://issuer.test", "aud": "boxed", "sub": subject}
        return jwt.encode({**claims, "iat": now, "exp": now + 300}, self.key, algorithm="RS256")


def test_per_caller_objects_are_children_of_their_own(
    places: dict[str, Path], tmp_path: Path
) -> None:
    issuer = Issuer(tmp_path)
    checks = ("--jwt-key", str(issuer.pem), "--issuer", "https://issuer.test")
    server = boxed(places, "--per", "caller", *checks, "--audience", "boxed")
    try:
        alice = [_call(server, "made_for", issuer.token("alice")) for _ in range(2)]
        bob = _call(server, "made_for", issuer.token("bob"))
        nobody = post(server.url, modern("tools/call", 1, name="made_for", arguments={}))
    finally:
        server.stop()
    made = [answer["structuredContent"] for answer in (*alice, bob)]
    assert made[0] == made[1] == {"object": made[0]["object"], "maker": "alice", "caller": "alice"}
    assert made[2]["object"] != made[0]["object"]
    assert (made[2]["maker"], made[2]["caller"]) == ("bob", "bob")
    assert nobody.status_code == 401


@pytest.mark.anyio
async def test_per_session_objects_are_children_of_their_own(places: dict[str, Path]) -> None:
    server = boxed(places, "--per", "session")
    try:
        made = []
        for _ in range(2):
            async with Client(server.url, mode="legacy") as client:
                made.append([(await client.call_tool("made_for", {})) for _ in range(2)])
        modern_call = _call(server, "made_for")  # a 2026-07-28 request belongs to no session
    finally:
        server.stop()
    objects = [[call.structured_content["object"] for call in calls] for calls in made]  # type: ignore[index]
    assert objects[0][0] == objects[0][1] and objects[1][0] == objects[1][1]
    assert objects[0][0] != objects[1][0]
    assert modern_call["isError"] and "session" in modern_call["content"][0]["text"]


def test_a_queue_worker_runs_the_calls_in_its_box(
    redis_url: str, places: dict[str, Path], tmp_path: Path
) -> None:
    env = {"OBJMCP_STATE_KEY": secrets.token_hex(32)}
    front = HttpServer("--tasks", redis_url, target=TARGET, env=env)
    marker = places["writable"] / "queued.txt"
    box = ("--sandbox", "--writable", str(places["writable"]))
    worker = QueueWorker(redis_url, env, tmp_path / "worker.log", *box, target=TARGET)
    try:
        task_id = started_task(front.url, "queued", marker=str(marker))
        done = until(front.url, task_id, "completed")
    finally:
        worker.stop()
        front.stop()
    # the front is not boxed: it sees /home; the worker's child, which ran the call, does not
    assert done["result"]["content"][0]["text"] == "home seen: False; key: False"
    assert marker.read_text() == "ran\n"


def _call(server: HttpServer, tool: str, token: str | None = None, **arguments: Any) -> Any:
    headers = modern_headers("tools/call", tool)
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    answered = post(server.url, modern("tools/call", 1, name=tool, arguments=arguments), **headers)
    return answered.json()["result"]
