"""The calls of ``pyjwt`` (rank 44, held-out).

Written from PyJWT's documentation (the "Usage Examples" page: encoding and decoding tokens with
HS256, specifying additional headers, reading the claimset without validation, reading headers
without validation; the "API Reference" page), each answer computed by calling PyJWT itself.
The tokens the decoding calls send were made by ``jwt.encode`` with the same payloads and key.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

KEY = "a-string-secret-at-least-256-bits-long"
PAYLOAD = {"sub": "1234567890", "name": "John Doe", "admin": True, "iat": 1516239022}
TOKEN = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiYWRtaW4iOnRydWUsImlhdCI6MTUxNjIzOTAyMn0."
    "KMUFsIDTnFmyG3nMiGM6H9FNFUROf3wh7SmqJp-QV30"
)
KID_PAYLOAD = {"sub": "42", "exp": 4102444800}
KID_TOKEN = (
    "eyJhbGciOiJIUzI1NiIsImtpZCI6ImtleS0xIiwidHlwIjoiSldUIn0."
    "eyJzdWIiOiI0MiIsImV4cCI6NDEwMjQ0NDgwMH0."
    "i5gO8ZhFawAWpNHboqbqlJymQQiBJTMKctNRTx7PDQA"
)


def _jwt() -> Any:
    return importlib.import_module("jwt")


TARGETS: tuple[Target, ...] = (
    Target(
        "jwt",
        (
            Call(
                "encode",
                {"payload": PAYLOAD, "key": KEY, "algorithm": "HS256"},
                lambda: _jwt().encode(PAYLOAD, KEY, algorithm="HS256"),
            ),
            Call(
                "encode",
                {
                    "payload": KID_PAYLOAD,
                    "key": KEY,
                    "algorithm": "HS256",
                    "headers": {"kid": "key-1"},
                },
                lambda: _jwt().encode(
                    KID_PAYLOAD, KEY, algorithm="HS256", headers={"kid": "key-1"}
                ),
            ),
            Call(
                "decode",
                {"jwt": TOKEN, "key": KEY, "algorithms": ["HS256"]},
                lambda: _jwt().decode(TOKEN, KEY, algorithms=["HS256"]),
            ),
            Call(
                "decode",
                {"jwt": KID_TOKEN, "options": {"verify_signature": False}},
                lambda: _jwt().decode(KID_TOKEN, options={"verify_signature": False}),
            ),
            Call(
                "get_unverified_header",
                {"jwt": KID_TOKEN},
                lambda: _jwt().get_unverified_header(KID_TOKEN),
            ),
        ),
    ),
)
