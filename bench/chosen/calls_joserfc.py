"""The calls of ``joserfc`` (rank 308, third walk).

Written from joserfc's documentation (its README on PyPI, "Usage": ``jwt.encode`` and
``jwt.decode`` with an "oct" key; the "JSON Web Key" guide, jose.authlib.org (docs/guide/jwk.rst):
``jwk.import_key`` of a JWK dict and of a string with ``key_type="oct"``; the "RFC 7638"
page: ``jwk.thumbprint``, ``jwk.thumbprint_uri``), each answer computed by calling joserfc
itself, in JSON's terms. The key ``jwt.encode`` and ``jwt.decode`` take is sent as the JSON Web
Key a model holds (the JWK dict of the README's "your-secret-key"), and ``expect`` imports it
with ``jwk.import_key`` as the README does. A ``Token`` has no JSON form: its two documented
attributes, ``header`` and ``claims``. A key has no JSON form (its text is its address): its
JWK dict, ``as_dict()``, the writer's choice. ``generate_key`` is random, so it is not called.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

SECRET = {"kty": "oct", "k": "eW91ci1zZWNyZXQta2V5"}
TOKEN = (
    "eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9.eyJrIjoidmFsdWUifQ."
    "_M8ViO_GK6TnZ9G9eqdlS7IpNWzhoGwaYYDQ3hEwwmA"
)
SIGNING = {"kty": "oct", "k": "eW91ci1zZWNyZXQta2V5", "use": "sig"}


def _m(name: str) -> Any:
    return importlib.import_module(name)


def _key(data: Any, key_type: str | None = None) -> Any:
    return _m("joserfc.jwk").import_key(data, key_type)


def _decode(value: str) -> dict[str, Any]:
    token = _m("joserfc.jwt").decode(value, _key("your-secret-key", "oct"))
    return {"header": token.header, "claims": token.claims}


TARGETS: tuple[Target, ...] = (
    Target(
        "joserfc.jwt",
        (
            Call(
                "encode",
                {"header": {"alg": "HS256"}, "claims": {"k": "value"}, "key": SECRET},
                lambda: _m("joserfc.jwt").encode(
                    {"alg": "HS256"}, {"k": "value"}, _key("your-secret-key", "oct")
                ),
            ),
            Call("decode", {"value": TOKEN, "key": SECRET}, lambda: _decode(TOKEN)),
        ),
    ),
    Target(
        "joserfc.jwk",
        (
            Call("import_key", {"data": SIGNING}, lambda: _key(SIGNING).as_dict()),
            Call(
                "import_key",
                {"data": "a-random-string-as-key", "key_type": "oct"},
                lambda: _key("a-random-string-as-key", "oct").as_dict(),
            ),
            Call(
                "thumbprint",
                {"value": SECRET},
                lambda: _m("joserfc.jwk").thumbprint(SECRET),
            ),
            Call(
                "thumbprint_uri",
                {"value": SECRET, "digest_method": "sha384"},
                lambda: _m("joserfc.jwk").thumbprint_uri(SECRET, "sha384"),
            ),
        ),
    ),
)
