"""The wire, byte for byte: real server processes spoken to through raw pipes."""

from __future__ import annotations

import json
import subprocess
from typing import Any

from conftest import PYTHON, ZOO, RawServer, server_env

import objmcp

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}},
}
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


def call(request_id: Any, name: str, arguments: dict[str, Any], **params: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments, **params},
    }


def run_bytes(data: bytes, *args: str) -> tuple[bytes, bytes, int]:
    """Feed ``data`` to a fresh zoo server, close its input, and collect everything."""
    process = subprocess.run(
        [PYTHON, str(ZOO), *args],
        input=data,
        capture_output=True,
        env=server_env(),
        timeout=60,
        check=False,
    )
    return process.stdout, process.stderr, process.returncode


def lines(out: bytes) -> list[Any]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def content_length_frames(out: bytes) -> list[Any]:
    messages = []
    while out:
        header, _, rest = out.partition(b"\r\n\r\n")
        assert header.lower().startswith(b"content-length:"), out[:80]
        length = int(header.split(b":", 1)[1])
        messages.append(json.loads(rest[:length]))
        out = rest[length:]
    return messages


def frame(message: Any) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def test_content_length_framing_is_detected_and_answered_in_kind() -> None:
    data = (
        frame(INIT)
        + frame(call(2, "add", {"a": 20, "b": 22}))
        + frame(call(3, "echo", {"text": "a\nb"}))
    )
    out, _, status = run_bytes(data)
    answers = {m["id"]: m for m in content_length_frames(out)}
    assert status == 0
    assert answers[1]["result"]["protocolVersion"] == "2025-06-18"
    assert answers[2]["result"]["content"][0]["text"] == "42"
    assert answers[3]["result"]["content"][0]["text"] == "a\nb"


def test_content_length_framing_can_be_forced_and_survives_a_broken_header() -> None:
    data = b"Content-Length: banana\r\n\r\n" + frame(INIT) + frame(call(2, "add", {"a": 1, "b": 2}))
    out, _, status = run_bytes(data, "content-length")
    answers = content_length_frames(out)
    assert status == 0
    assert answers[0]["id"] is None and answers[0]["error"]["code"] == -32600
    assert "Content-Length" in answers[0]["error"]["message"]
    assert [a["id"] for a in answers[1:]] == [1, 2]


def test_newline_framing_tolerates_crlf_and_blank_lines() -> None:
    data = (
        b"\r\n\n"
        + json.dumps(INIT).encode()
        + b"\r\n\r\n"
        + json.dumps(call(2, "add", {"a": 1, "b": 1})).encode()
        + b"\n"
    )
    out, _, status = run_bytes(data)
    assert status == 0
    assert [m["id"] for m in lines(out)] == [1, 2]


def test_parse_errors_and_invalid_requests_get_one_error_each_and_serving_goes_on() -> None:
    garbage = [
        b"this is not json",
        b'{"jsonrpc": "2.0", "id": 5, "method": ',
        b"\xff\xfe not utf-8",
        b"[" * 100000 + b"]" * 100000,
        b'{"jsonrpc": "2.0", "id": 6, "method": "tools/list", "params": {"x": NaN}}',
    ]
    invalid = [
        {"id": 7, "method": "tools/list"},
        {"jsonrpc": "1.0", "id": 8, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 9, "method": 42},
        {"jsonrpc": "2.0", "id": None, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": True, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 10, "method": "tools/list", "params": [1, 2]},
        "a string",
    ]
    data = json.dumps(INIT).encode() + b"\n"
    data += b"\n".join(garbage) + b"\n"
    data += b"\n".join(json.dumps(m).encode() for m in invalid) + b"\n"
    data += json.dumps(call(11, "add", {"a": 1, "b": 2})).encode() + b"\n"
    out, _, status = run_bytes(data)
    answers = lines(out)
    assert status == 0
    assert answers[0]["id"] == 1
    parse_errors = answers[1 : 1 + len(garbage)]
    assert [a["error"]["code"] for a in parse_errors] == [-32700] * len(garbage)
    assert all(a["id"] is None for a in parse_errors)
    refused = answers[1 + len(garbage) : -1]
    assert [a["error"]["code"] for a in refused] == [-32600] * len(invalid)
    assert [a["id"] for a in refused] == [7, 8, 9, None, None, 10, None]
    assert answers[-1]["id"] == 11 and answers[-1]["result"]["content"][0]["text"] == "3"


def test_requests_before_initialize_and_version_negotiation() -> None:
    server = RawServer(str(ZOO))
    try:
        early = server.request({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        assert early["error"]["code"] == -32600 and "initialize" in early["error"]["message"]
        assert server.request({"jsonrpc": "2.0", "id": 2, "method": "ping"}) == {
            "jsonrpc": "2.0",
            "id": 2,
            "result": {},
        }
        too_old = server.request({**INIT, "id": 3, "params": {"protocolVersion": "2024-01-01"}})
        assert too_old["error"]["code"] == -32602
        assert too_old["error"]["data"] == {
            "supported": ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"],
            "requested": "2024-01-01",
        }
        nonsense = server.request({**INIT, "id": 4, "params": {"protocolVersion": "latest"}})
        assert nonsense["error"]["code"] == -32602
        missing = server.request({**INIT, "id": 5, "params": {}})
        assert missing["error"]["code"] == -32602
        assert "requested" not in missing["error"]["data"]
        between = server.request({**INIT, "id": 6, "params": {"protocolVersion": "2025-05-01"}})
        assert between["result"]["protocolVersion"] == "2025-03-26"
        newer = server.request({**INIT, "id": 7, "params": {"protocolVersion": "2027-01-01"}})
        assert newer["result"]["protocolVersion"] == "2025-11-25"
        assert newer["result"]["serverInfo"] == {
            "name": "zoo",
            "version": "1.0.0",
            "title": "The Zoo",
        }
        oldest = server.request({**INIT, "id": 8, "params": {"protocolVersion": "2024-11-05"}})
        assert oldest["result"]["serverInfo"] == {"name": "zoo", "version": "1.0.0"}
        listed = server.request({"jsonrpc": "2.0", "id": 9, "method": "tools/list"})
        assert "tools" in listed["result"]
        none = server.request({"jsonrpc": "2.0", "id": 10, "method": "resources/list"})
        assert none["result"] == {"resources": []}  # none, as the SDKs' servers say
        unknown = server.request({"jsonrpc": "2.0", "id": 11, "method": "resources/read"})
        assert unknown["error"]["code"] == -32601
    finally:
        server.close()


def test_batches_only_in_2025_03_26() -> None:
    server = RawServer(str(ZOO))
    try:
        server.initialize("2025-06-18")
        refused = server.request([call(2, "add", {"a": 1, "b": 2})])
        assert refused["id"] is None and refused["error"]["code"] == -32600
        assert "2025-03-26" in refused["error"]["message"]
        server.initialize("2025-03-26")
        batch = [
            call(3, "add", {"a": 1, "b": 2}),
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 4, "method": "ping"},
            call(5, "nap", {"seconds": 0.2}),
        ]
        answer = server.request(batch)
        assert isinstance(answer, list)
        assert sorted(item["id"] for item in answer) == [3, 4, 5]
        empty = server.request([])
        assert empty["id"] is None and empty["error"]["code"] == -32600
        server.send([{"jsonrpc": "2.0", "method": "notifications/initialized"}])
        after = server.request({"jsonrpc": "2.0", "id": 6, "method": "ping"})
        assert after["id"] == 6  # the batch of notifications got no answer
    finally:
        server.close()


def test_modern_requests_are_answered_from_their_meta_alone() -> None:
    server = RawServer(str(ZOO))
    try:
        found = server.request(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "server/discover",
                "params": {"_meta": MODERN_META},
            }
        )["result"]
        assert found["supportedVersions"] == ["2026-07-28"]
        assert found["resultType"] == "complete"
        assert found["ttlMs"] >= 0 and found["cacheScope"] in ("public", "private")
        assert found["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "zoo"
        assert found["instructions"] == "A zoo of tools."
        assert "serverInfo" not in found
        listed = server.request(
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": MODERN_META}}
        )["result"]
        names = [tool["name"] for tool in listed["tools"]]
        assert names == list(dict.fromkeys(names)) and "add" in names
        assert listed["resultType"] == "complete" and "ttlMs" in listed and "cacheScope" in listed
        again = server.request(
            {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": MODERN_META}}
        )["result"]
        assert [tool["name"] for tool in again["tools"]] == names
        added = server.request(call(4, "add", {"a": 2, "b": 2}, _meta=MODERN_META))["result"]
        assert added["resultType"] == "complete" and added["content"][0]["text"] == "4"
        wrong = {**MODERN_META, "io.modelcontextprotocol/protocolVersion": "2099-01-01"}
        unsupported = server.request(call(5, "add", {"a": 1, "b": 1}, _meta=wrong))["error"]
        assert unsupported["code"] == -32022
        assert unsupported["data"] == {"supported": ["2026-07-28"], "requested": "2099-01-01"}
        no_caps = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
        missing = server.request(call(6, "add", {"a": 1, "b": 1}, _meta=no_caps))["error"]
        assert missing["code"] == -32602 and "clientCapabilities" in missing["message"]
        for number, method in enumerate(["ping", "logging/setLevel", "resources/subscribe"], 7):
            removed = server.request(
                {"jsonrpc": "2.0", "id": number, "method": method, "params": {"_meta": MODERN_META}}
            )
            assert removed["error"]["code"] == -32601, method
        # the modern requests did not initialize the handshake era
        plain = server.request({"jsonrpc": "2.0", "id": 20, "method": "tools/list"})
        assert plain["error"]["code"] == -32600
    finally:
        server.close()


def test_a_reused_id_in_flight_is_refused_and_a_cancelled_call_is_never_answered() -> None:
    server = RawServer(str(ZOO))
    try:
        server.initialize()
        server.send(call(1, "sleep", {"seconds": 1.5}))
        reused = server.request(call(1, "add", {"a": 1, "b": 1}))
        assert reused["id"] == 1 and reused["error"]["code"] == -32600
        server.send(call(2, "nap", {"seconds": 30}))
        server.send(
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}
        )
        assert server.read()["result"]["content"][0]["text"] == "slept 1.5"
        assert (
            server.request(call(2, "add", {"a": 2, "b": 3}))["result"]["content"][0]["text"] == "5"
        )
        out, _, status = server.close()
        assert status == 0 and out == b""
    finally:
        if server.process.poll() is None:
            server.process.kill()


def test_at_end_of_input_calls_in_flight_still_answer() -> None:
    data = (
        json.dumps(INIT)
        + "\n"
        + json.dumps(call(2, "sleep", {"seconds": 0.5}))
        + "\n"
        + json.dumps(call(3, "nap", {"seconds": 0.5}))
        + "\n"
    ).encode()
    out, _, status = run_bytes(data)
    answers = {m["id"]: m["result"]["content"][0]["text"] for m in lines(out)[1:]}
    assert status == 0
    assert answers == {2: "slept 0.5", 3: "napped 0.5"}


def test_stdout_belongs_to_the_protocol() -> None:
    data = (json.dumps(INIT) + "\n" + json.dumps(call(2, "noisy", {"text": "hi"})) + "\n").encode()
    out, err, status = run_bytes(data)
    answers = lines(out)  # every line of stdout is a protocol message
    assert status == 0
    assert answers[-1]["result"]["content"][0]["text"] == "quiet hi"
    assert b"print says hi" in err
    assert b"sys.stdout says hi" in err
    assert b"fd 1 says hi" in err


def test_exceptions_are_logged_with_traceback_on_stderr_not_sent() -> None:
    data = (
        json.dumps(INIT) + "\n" + json.dumps(call(2, "fail", {"message": "boom"})) + "\n"
    ).encode()
    out, err, status = run_bytes(data)
    result = lines(out)[-1]["result"]
    assert result == {"content": [{"type": "text", "text": "ValueError: boom"}], "isError": True}
    assert b"Traceback" in err and b"ValueError: boom" in err
    assert status == 0


def test_unanswerable_unicode_is_escaped_not_crashing() -> None:
    data = (
        json.dumps(INIT) + "\n" + json.dumps(call(2, "echo", {"text": "\ud800 lone"})) + "\n"
    ).encode()
    out, _, status = run_bytes(data)
    assert status == 0
    assert lines(out)[-1]["result"]["content"][0]["text"] == "\ud800 lone"


def test_a_client_that_stops_reading_does_not_crash_the_server() -> None:
    server = RawServer(str(ZOO))
    try:
        server.initialize()
        server.send(call(2, "sleep", {"seconds": 0.5}))
        assert server.process.stdout is not None
        server.process.stdout.close()  # the answer to call 2 meets a broken pipe
        server.send(call(3, "add", {"a": 1, "b": 1}))
        assert server.process.stdin is not None
        server.process.stdin.close()
        assert server.process.wait(timeout=30) == 0
        assert server.process.stderr is not None
        assert b"Traceback" not in server.process.stderr.read()
    finally:
        if server.process.poll() is None:
            server.process.kill()


def test_a_frame_over_the_size_limit_is_refused_and_serving_goes_on() -> None:
    import os

    class Small:
        def echo(self, text: str) -> str:
            return text

    big = json.dumps(call(2, "echo", {"text": "x" * 5000}))
    data = [json.dumps(INIT), big, json.dumps(call(3, "echo", {"text": "small"}))]
    read_in, write_in = os.pipe()
    read_out, write_out = os.pipe()
    os.write(write_in, ("\n".join(data) + "\n").encode())
    os.close(write_in)
    objmcp.start(
        "small", Small(), input=read_in, output=write_out, limits=objmcp.Limits(max_frame=1000)
    )
    os.close(write_out)
    os.close(read_in)
    with os.fdopen(read_out, "rb") as out:
        answers = lines(out.read())
    assert [a["id"] for a in answers] == [1, None, 3]
    assert answers[1]["error"]["code"] == -32600
    assert "1000" in answers[1]["error"]["message"]
    assert answers[2]["result"]["content"][0]["text"] == "small"


def test_progress_follows_the_revision_and_only_when_asked() -> None:
    server = RawServer(str(ZOO))
    try:
        server.initialize("2024-11-05")
        server.send(call(2, "steps", {"count": 2}, _meta={"progressToken": "p"}))
        first = server.read()
        assert first == {
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {"progressToken": "p", "progress": 1, "total": 2},  # no message in 2024-11-05
        }
        assert server.read()["params"]["progress"] == 2
        assert server.read()["result"]["content"][0]["text"] == "did 2"
        server.initialize("2025-06-18")
        server.send(call(3, "steps", {"count": 1}, _meta={"progressToken": 7}))
        assert server.read()["params"] == {
            "progressToken": 7,
            "progress": 1,
            "total": 1,
            "message": "step 1",
        }
        assert server.read()["id"] == 3
        # without a token, no notification at all
        assert server.request(call(4, "steps", {"count": 2}))["id"] == 4
    finally:
        server.close()


def test_a_cancelled_sync_call_sees_its_flag_and_stops_early() -> None:
    server = RawServer(str(ZOO))
    try:
        server.initialize()
        server.send(call(2, "steps", {"count": 400}, _meta={"progressToken": 1}))
        assert server.read()["method"] == "notifications/progress"  # the call is running
        server.send(
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}
        )
        server.send({"jsonrpc": "2.0", "id": 3, "method": "ping"})
        while (message := server.read()).get("method") == "notifications/progress":
            pass  # sent before the cancellation arrived
        assert message["id"] == 3
        out, err, status = server.close()
        assert status == 0 and out == b""  # the cancelled call is never answered
        assert b"steps stopped early" in err
    finally:
        if server.process.poll() is None:
            server.process.kill()


def elicit_init(server: RawServer) -> None:
    answer = server.request(
        {
            **INIT,
            "params": {"protocolVersion": "2025-06-18", "capabilities": {"elicitation": {}}},
        }
    )
    assert answer["result"]["protocolVersion"] == "2025-06-18"
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})


def test_answers_to_questions_are_matched_by_id_and_strays_ignored() -> None:
    server = RawServer(str(ZOO))
    try:
        elicit_init(server)
        server.send(call(2, "ask", {}))
        question = server.read()
        assert question["method"] == "elicitation/create"
        assert question["params"]["message"] == "Sure?"
        server.send({"jsonrpc": "2.0", "id": "not-ours", "result": {"action": "accept"}})
        server.send({"jsonrpc": "2.0", "id": question["id"], "result": {"action": "decline"}})
        server.send({"jsonrpc": "2.0", "id": question["id"], "result": {"action": "accept"}})
        assert server.read()["result"]["content"][0]["text"] == "decline:None"
        assert server.request({"jsonrpc": "2.0", "id": 3, "method": "ping"})["id"] == 3
    finally:
        server.close()


def test_a_cancelled_or_abandoned_question_releases_the_call() -> None:
    server = RawServer(str(ZOO))
    try:
        elicit_init(server)
        server.send(call(2, "ask", {}))
        assert server.read()["method"] == "elicitation/create"
        cancel = {"requestId": 2}
        server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel})
        assert server.request({"jsonrpc": "2.0", "id": 3, "method": "ping"})["id"] == 3
        server.send(call(4, "ask_name", {}))
        assert server.read()["method"] == "elicitation/create"
        out, _, status = server.close()  # end of input while the question waits
        assert status == 0
        assert b'"id":2' not in out  # the cancelled call got no answer
    finally:
        if server.process.poll() is None:
            server.process.kill()


ELICIT_META = {**MODERN_META, "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}


def test_a_retry_is_replayed_in_another_process_with_the_same_key() -> None:
    import os

    os.environ["OBJMCP_STATE_KEY"] = "shared secret of the test"
    try:
        first, second = RawServer(str(ZOO)), RawServer(str(ZOO))
    finally:
        del os.environ["OBJMCP_STATE_KEY"]
    try:
        asked = first.request(call(1, "ask_twice", {}, _meta=ELICIT_META))["result"]
        assert asked["resultType"] == "input_required"
        assert asked["inputRequests"]["q0"]["method"] == "elicitation/create"
        answer = {"q0": {"action": "accept", "content": {"name": "Bo", "age": 7}}}
        retry = call(2, "ask_twice", {}, _meta=ELICIT_META)
        retry["params"].update(inputResponses=answer, requestState=asked["requestState"])
        again = second.request(retry)["result"]  # a process that never saw the first round
        assert again["resultType"] == "input_required"
        assert again["inputRequests"]["q1"]["params"]["message"] == "Colour?"
        final = call(3, "ask_twice", {}, _meta=ELICIT_META)
        final["params"].update(
            inputResponses={"q1": {"action": "accept", "content": {"value": "green"}}},
            requestState=again["requestState"],
        )
        done = first.request(final)["result"]
        assert done["resultType"] == "complete"
        assert done["content"][0]["text"] == "Details(name='Bo', age=7) <Color.GREEN: 'green'>"
    finally:
        first.close()
        second.close()


def test_forged_mismatched_and_expired_states_are_refused() -> None:
    import time

    from objmcp.protocol.state import RequestState, StateSeal, arguments_digest

    server = RawServer(str(ZOO))
    try:
        asked = server.request(call(1, "ask", {}, _meta=ELICIT_META))["result"]
        state = asked["requestState"]
        answer = {"q0": {"action": "accept", "content": {"value": True}}}

        def retry(request_id: int, name: str, arguments: dict[str, Any], sealed: str) -> Any:
            message = call(request_id, name, arguments, _meta=ELICIT_META)
            message["params"].update(inputResponses=answer, requestState=sealed)
            return server.request(message)

        forged = state[:-4] + ("AAAA" if not state.endswith("AAAA") else "BBBB")
        assert "forged" in retry(2, "ask", {}, forged)["error"]["message"]
        assert "another call" in retry(3, "ask_name", {}, state)["error"]["message"]
        other_key = StateSeal("not the server's key").seal(
            RequestState("ask", arguments_digest({}), {}, time.time() + 60)
        )
        assert retry(4, "ask", {}, other_key)["error"]["code"] == -32602
        # a good state without the answer ("mrtr" error handling): asked again
        missing = call(5, "ask", {}, _meta=ELICIT_META)
        missing["params"].update(inputResponses={"q9": {}}, requestState=state)
        again = server.request(missing)["result"]
        assert again["resultType"] == "input_required" and list(again["inputRequests"]) == ["q0"]
        assert retry(6, "ask", {}, state)["result"]["content"][0]["text"] == "accept:True"
        # answers with no state are ignored: the call starts afresh, and asks
        fresh = call(7, "ask", {}, _meta=ELICIT_META)
        fresh["params"].update(inputResponses=answer)
        assert server.request(fresh)["result"]["resultType"] == "input_required"
    finally:
        server.close()


def test_a_sealed_but_unreadable_state_is_refused_not_fatal() -> None:
    import base64
    import hashlib
    import hmac
    import os

    key = b"a key the test and the server share"
    os.environ["OBJMCP_STATE_KEY"] = key.decode()
    try:
        server = RawServer(str(ZOO))
    finally:
        del os.environ["OBJMCP_STATE_KEY"]
    try:
        body = json.dumps({"t": "ask", "a": 5}).encode()
        mac = hmac.new(key, body, hashlib.sha256).digest()

        def b64(data: bytes) -> str:
            return base64.urlsafe_b64encode(data).decode().rstrip("=")

        message = call(1, "ask", {}, _meta=ELICIT_META)
        message["params"].update(
            inputResponses={"q0": {"action": "accept"}}, requestState=f"{b64(body)}.{b64(mac)}"
        )
        refused = server.request(message)["error"]
        assert refused["code"] == -32602 and "not readable" in refused["message"]
        assert server.request(call(2, "add", {"a": 1, "b": 2}, _meta=ELICIT_META))["result"]
    finally:
        server.close()


def test_log_records_go_to_stderr_as_ever_and_to_the_client_only_when_asked() -> None:
    server = RawServer(str(ZOO))
    try:
        assert server.initialize()  # no logging/setLevel: no notifications/message
        assert server.request(call(2, "chatty", {}))["result"]["content"][0]["text"] == "chatted"
        quiet = server.request(call(3, "chatty", {}, _meta=MODERN_META))  # no logLevel either
        assert quiet["result"]["content"][0]["text"] == "chatted"
        asked = {**MODERN_META, "io.modelcontextprotocol/logLevel": "warning"}
        server.send(call(4, "chatty", {}, _meta=asked))
        message = server.read()
        assert message["method"] == "notifications/message"
        assert message["params"] == {"level": "warning", "logger": "zoo.chatty", "data": "careful"}
        assert server.read()["id"] == 4
        bad = server.request(
            {"jsonrpc": "2.0", "id": 5, "method": "logging/setLevel", "params": {"level": "loud"}}
        )
        assert bad["error"]["code"] == -32602
        out, err, status = server.close()
        assert status == 0 and out == b""
        assert err.count(b"careful") == 3 and b"details" not in err
    finally:
        if server.process.poll() is None:
            server.process.kill()
