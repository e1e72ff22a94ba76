"""The built-in JWT check (``objmcp[auth]``), against a tiny authorization server made
here: RSA keys from PyJWT's crypto backend, its JWKS served on 127.0.0.1 by a thread,
tokens minted in the test. ``objmcp run --http --jwks-url ... --issuer ... --audience ...
--scope ...`` serves the zoo; the official SDK client calls through it with a good
token, and each bad token is refused with its status and ``WWW-Authenticate``."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx2 as httpx  # the HTTP client the mcp SDK ships with
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from http_helpers import HttpServer, modern, modern_headers, post, text_of
from jwt.algorithms import RSAAlgorithm
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

import objmcp
from objmcp.serving.jwks import KeySet

pytestmark = pytest.mark.anyio

ISSUER = "https://auth.example"
SCOPE = "zoo:use"


class AuthServer:
    """An authorization server's signing side: keys, their JWKS on 127.0.0.1, tokens."""

    def __init__(self) -> None:
        self.keys = {"k1": rsa.generate_private_key(public_exponent=65537, key_size=2048)}
        self.published = ["k1"]
        self.fetches = 0
        served = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                served.fetches += 1
                body = json.dumps(served.jwks()).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/jwks"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def jwks(self) -> dict[str, Any]:
        keys = []
        for kid in self.published:
            public = RSAAlgorithm.to_jwk(self.keys[kid].public_key(), as_dict=True)
            keys.append({**public, "kid": kid, "use": "sig", "alg": "RS256"})
        return {"keys": keys}

    def rotate(self, kid: str) -> None:
        self.keys[kid] = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.published.append(kid)

    def token(self, audience: str, kid: str = "k1", signer: Any = None, **claims: Any) -> str:
        now = int(time.time())
        body = {
            "iss": ISSUER,
            "aud": audience,
            "sub": "alice",
            "client_id": "test-client",
            "scope": SCOPE,
            "iat": now,
            "exp": now + 300,
            **claims,
        }
        body = {key: value for key, value in body.items() if value is not None}
        key = signer if signer is not None else self.keys[kid]
        return jwt.encode(body, key, algorithm="RS256", headers={"kid": kid})

    def public_pem(self, kid: str = "k1") -> str:
        return (
            self.keys[kid]
            .public_key()
            .public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
            )
            .decode()
        )

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture(scope="module")
def auth() -> Iterator[AuthServer]:
    server = AuthServer()
    yield server
    server.close()


@pytest.fixture(scope="module")
def resource(auth: AuthServer) -> Iterator[HttpServer]:
    server = HttpServer(
        "--jwks-url",
        auth.url,
        "--issuer",
        ISSUER,
        "--audience",
        "http://127.0.0.1:{port}/mcp",
        "--scope",
        SCOPE,
    )
    yield server
    server.stop()


async def test_the_sdk_client_calls_with_a_good_token(
    auth: AuthServer, resource: HttpServer
) -> None:
    token = auth.token(resource.url)
    for mode in ("legacy", "2026-07-28"):
        transport = streamable_http_client(
            resource.url,
            http_client=create_mcp_http_client(headers={"authorization": f"Bearer {token}"}),
        )
        async with Client(transport, mode=mode) as client:
            added = await client.call_tool("add", {"a": 20, "b": 22})
        assert text_of(added) == "42"


@pytest.mark.parametrize(
    ("case", "status", "challenge"),
    [
        ("another audience", 401, "the token is not for this resource"),
        ("expired", 401, "the token has expired"),
        ("not yet valid", 401, "the token is not valid yet"),
        ("wrong issuer", 401, "the token is from another issuer"),
        ("forged", 401, "Signature verification failed"),
        ("unknown key", 401, "no signing key 'k-unknown'"),
        ("no expiry", 401, "the token is not good: Token is missing the 'exp' claim"),
        ("missing scope", 403, 'error="insufficient_scope", scope="zoo:use"'),
        ("not a JWT", 401, "the token is not a JWT"),
    ],
)
def test_a_bad_token_is_refused(
    auth: AuthServer, resource: HttpServer, case: str, status: int, challenge: str
) -> None:
    now = int(time.time())
    tokens = {
        "another audience": lambda: auth.token("https://other.example/mcp"),
        "expired": lambda: auth.token(resource.url, exp=now - 120),
        "not yet valid": lambda: auth.token(resource.url, nbf=now + 120),
        "wrong issuer": lambda: auth.token(resource.url, iss="https://evil.example"),
        "forged": lambda: auth.token(resource.url, signer=rsa.generate_private_key(65537, 2048)),
        "unknown key": lambda: auth.token(resource.url, kid="k-unknown", signer=auth.keys["k1"]),
        "no expiry": lambda: auth.token(resource.url, exp=None),
        "missing scope": lambda: auth.token(resource.url, scope="zoo:other"),
        "not a JWT": lambda: "opaque-token",
    }
    refused = post(
        resource.url,
        modern("tools/list"),
        **modern_headers("tools/list"),
        authorization=f"Bearer {tokens[case]()}",
    )
    assert refused.status_code == status
    given = refused.headers["www-authenticate"]
    assert given.startswith("Bearer ")
    if status == 401:
        assert 'error="invalid_token"' in given
        # the body says the token sent was refused, and why: not that none was sent
        assert refused.text.startswith("Unauthorized: the bearer token was refused")
        said = refused.text.replace('"', "'")  # the header's quotes are its own
        assert challenge in said
    assert challenge in given


def test_a_token_just_past_its_expiry_is_within_the_leeway(
    auth: AuthServer, resource: HttpServer
) -> None:
    token = auth.token(resource.url, exp=int(time.time()) - 5)
    listed = post(
        resource.url,
        modern("tools/list"),
        **modern_headers("tools/list"),
        authorization=f"Bearer {token}",
    )
    assert listed.status_code == 200


async def test_the_key_set_is_cached_refreshed_for_a_new_key_and_bounded(auth: AuthServer) -> None:
    keys = KeySet(auth.url, min_interval=0)
    before = auth.fetches
    assert (await keys.key("k1")).key_id == "k1"
    assert (await keys.key("k1")).key_id == "k1"
    assert auth.fetches == before + 1  # cached
    auth.rotate("k2")  # published before it signs
    assert (await keys.key("k2")).key_id == "k2"
    assert auth.fetches == before + 2  # refreshed for the key it did not hold
    bounded = KeySet(auth.url, min_interval=3600)
    await bounded.key("k1")
    for _ in range(5):
        with pytest.raises(Exception, match="no signing key 'forged-"):
            await bounded.key(f"forged-{_}")
    assert bounded.fetches == 1  # unknown kids cost no fetch within min_interval


async def test_a_static_key_and_the_caller_it_names(auth: AuthServer) -> None:
    class Who:
        def whoami(self, caller: objmcp.Caller) -> str:
            """Who called."""
            return f"{caller.subject} via {caller.client_id}: {' '.join(sorted(caller.scopes))}"

    audience = "http://127.0.0.1/mcp"
    app = objmcp.asgi_app(
        "who", Who(), auth=objmcp.Auth(jwt_key=auth.public_pem(), issuer=ISSUER, audience=audience)
    )
    claims = {"iss": ISSUER, "aud": audience, "exp": int(time.time()) + 60}
    pem_as_secret = _hs256(claims, auth.public_pem().encode())  # algorithm confusion
    unsigned = jwt.encode(
        {"iss": ISSUER, "aud": audience, "exp": int(time.time()) + 60}, None, "none"
    )
    transport = httpx.ASGITransport(app=app)
    headers = {
        "accept": "application/json, text/event-stream",
        **modern_headers("tools/call", "whoami"),
    }
    message = modern("tools/call", 1, name="whoami", arguments={})
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:

        async def call(token: str) -> httpx.Response:
            sent = {**headers, "authorization": f"Bearer {token}"}
            return await client.post("/mcp", json=message, headers=sent)

        good = await call(auth.token(audience))
        confused = await call(pem_as_secret)
        none = await call(unsigned)
    await app.aclose()
    assert good.json()["result"]["content"][0]["text"] == "alice via test-client: zoo:use"
    assert (confused.status_code, none.status_code) == (401, 401)


def _hs256(claims: dict[str, Any], secret: bytes) -> str:
    """A token signed HS256 with ``secret`` (made by hand: PyJWT will not sign with a PEM)."""

    def part(value: object) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

    signed = f"{part({'alg': 'HS256', 'typ': 'JWT'})}.{part(claims)}"
    mac = hmac.new(secret, signed.encode(), hashlib.sha256).digest()
    return f"{signed}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"


def test_a_jwt_check_needs_its_issuer_and_audience(auth: AuthServer) -> None:
    with pytest.raises(ValueError, match="issuer= and audience="):
        objmcp.asgi_app("zoo", object(), auth=objmcp.Auth(jwks_url=auth.url))
    with pytest.raises(ValueError, match="token=, verify= or a JWT check"):
        objmcp.asgi_app(
            "zoo",
            object(),
            auth=objmcp.Auth(jwks_url=auth.url, issuer=ISSUER, audience="x", token="t"),
        )


async def test_the_metadata_names_the_audience_as_the_resource(auth: AuthServer) -> None:
    audience = "https://notes.example/mcp"
    app = objmcp.asgi_app(
        "zoo",
        object(),
        auth=objmcp.Auth(
            jwks_url=auth.url,
            issuer=ISSUER,
            audience=audience,
            scopes=[SCOPE],
            authorization_servers=[ISSUER],
        ),
    )
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        described = await client.get("/.well-known/oauth-protected-resource/mcp")
    await app.aclose()
    assert described.json()["resource"] == audience
    assert described.json()["scopes_supported"] == [SCOPE]


def test_a_jwt_check_is_authentication_enough_beyond_loopback(auth: AuthServer) -> None:
    from objmcp.cli.parser import _parser
    from objmcp.cli.serve import _check_exposure

    common = ["run", "--http", "--host", "0.0.0.0", "x.py:X"]
    parser, _ = _parser()
    checked = parser.parse_args([*common[:-1], "--jwks-url", auth.url, common[-1]])
    _check_exposure(checked, "0.0.0.0", "http://0.0.0.0:8000/mcp")  # no --token needed
    with pytest.raises(objmcp.TargetError, match="no token"):
        _check_exposure(parser.parse_args(common), "0.0.0.0", "http://0.0.0.0:8000/mcp")
