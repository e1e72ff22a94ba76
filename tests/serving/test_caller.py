"""Who is calling: every bearer-token check (a fixed token, ``verify=`` saying True, a
user id or claims) names an ``objmcp.Caller``, handed to the tools that ask for it (and
in ``Context``), over real HTTP (the ASGI app through httpx); none on stdio."""

from __future__ import annotations

from typing import Any

import httpx2 as httpx  # the HTTP client the mcp SDK ships with
import pytest
from http_helpers import initialize_message, modern, modern_headers

import objmcp
import objmcp.testing

pytestmark = pytest.mark.anyio

ACCEPT = {"accept": "application/json, text/event-stream"}
CLAIMS = {
    "alice-token": {"sub": "alice", "azp": "notes-app", "scope": "notes:read notes:write"},
    "alice-refreshed": {"sub": "alice", "client_id": "notes-app", "scp": ["notes:read"]},
    "service-token": {"client_id": "cron", "scope": "notes:read"},
}


class Who:
    """Says who called."""

    def whoami(self, caller: objmcp.Caller | None) -> dict[str, Any]:
        """The caller, as the tool sees it."""
        if caller is None:
            return {"caller": None}
        return {
            "subject": caller.subject,
            "client_id": caller.client_id,
            "scopes": sorted(caller.scopes),
            "claims": dict(caller.claims),
        }

    def via_context(self, context: objmcp.Context) -> str:
        """The subject, as the context carries it."""
        caller = context.caller
        return "nobody" if caller is None else f"{caller.subject}/{caller.client_id}"


async def _modern_call(
    client: httpx.AsyncClient, token: str, tool: str, request_id: int = 1
) -> httpx.Response:
    headers = {**ACCEPT, "authorization": f"Bearer {token}", **modern_headers("tools/call", tool)}
    message = modern("tools/call", request_id, name=tool, arguments={})
    return await client.post("/mcp", json=message, headers=headers)


def _structured(response: httpx.Response) -> Any:
    assert response.status_code == 200, response.text
    return response.json()["result"]["structuredContent"]


async def _served(app: objmcp.McpApp) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app)
    return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1")


async def test_verify_returning_claims_names_the_caller() -> None:
    app = objmcp.asgi_app(
        "who", Who(), auth=objmcp.Auth(verify=lambda token: CLAIMS.get(token, {}))
    )
    async with await _served(app) as client:
        alice = await _modern_call(client, "alice-token", "whoami")
        service = await _modern_call(client, "service-token", "whoami", 2)
        context = await _modern_call(client, "alice-refreshed", "via_context", 3)
        refused = await _modern_call(client, "eve", "whoami", 4)
    await app.aclose()
    assert _structured(alice) == {
        "subject": "alice",
        "client_id": "notes-app",
        "scopes": ["notes:read", "notes:write"],
        "claims": CLAIMS["alice-token"],
    }
    served = _structured(service)
    assert (served["subject"], served["client_id"], served["scopes"]) == (
        None,
        "cron",
        ["notes:read"],
    )
    assert context.json()["result"]["content"][0]["text"] == "alice/notes-app"
    assert refused.status_code == 401  # empty claims refuse the token


@pytest.mark.parametrize(
    ("options", "token", "expected"),
    [
        ({"token": "fixed"}, "fixed", {"subject": None, "client_id": None}),
        ({"verify": lambda token: token == "yes"}, "yes", {"subject": None, "client_id": None}),
        ({"verify": lambda token: "bob"}, "any", {"subject": "bob", "client_id": None}),
    ],
)
async def test_every_check_names_a_caller(
    options: dict[str, Any], token: str, expected: dict[str, Any]
) -> None:
    app = objmcp.asgi_app("who", Who(), auth=objmcp.Auth(**options))
    async with await _served(app) as client:
        answered = _structured(await _modern_call(client, token, "whoami"))
    await app.aclose()
    assert {key: answered[key] for key in expected} == expected
    assert answered["scopes"] == [] and answered["claims"] == {}


async def test_no_authentication_means_no_caller() -> None:
    app = objmcp.asgi_app("who", Who())
    async with await _served(app) as client:
        message = modern("tools/call", 1, name="whoami", arguments={})
        headers = {**ACCEPT, **modern_headers("tools/call", "whoami")}
        answered = await client.post("/mcp", json=message, headers=headers)
    await app.aclose()
    assert _structured(answered) == {"caller": None}
    async with objmcp.testing.connect(Who()) as stdio:
        assert (await stdio.call("whoami")).structured == {"caller": None}
        assert (await stdio.call("via_context")).text == "nobody"
        listed = await stdio.list_tools()
    assert [tool["inputSchema"].get("properties", {}) for tool in listed] == [{}, {}]


async def test_a_session_follows_the_subject_through_a_refreshed_token() -> None:
    # handshake era: the session is bound to sub=alice, and each call sees the caller of
    # its own request (the refreshed token's scopes)
    app = objmcp.asgi_app(
        "who", Who(), auth=objmcp.Auth(verify=lambda token: CLAIMS.get(token, {}))
    )
    async with await _served(app) as client:

        def as_(token: str, **more: str) -> dict[str, str]:
            return {**ACCEPT, "authorization": f"Bearer {token}", **more}

        opened = await client.post("/mcp", json=initialize_message(), headers=as_("alice-token"))
        session = opened.headers["mcp-session-id"]
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call"}
        call["params"] = {"name": "whoami", "arguments": {}}
        kept = await client.post(
            "/mcp", json=call, headers=as_("alice-refreshed", **{"mcp-session-id": session})
        )
        other = await client.post(
            "/mcp", json=call, headers=as_("service-token", **{"mcp-session-id": session})
        )
    await app.aclose()
    assert kept.json()["result"]["structuredContent"]["scopes"] == ["notes:read"]
    assert other.status_code == 404  # no subject: bound to its token, not alice's session


def test_a_caller_from_claims() -> None:
    caller = objmcp.Caller.from_claims({"sub": "u1", "scp": "a b", "azp": "c"})
    assert (caller.subject, caller.client_id, caller.scopes) == ("u1", "c", frozenset({"a", "b"}))
    assert caller.allows(["a"]) and not caller.allows(["a", "z"])
    assert objmcp.Caller().subject is None
