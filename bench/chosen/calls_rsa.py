"""The calls of ``rsa`` (rank 118, held-out).

Written from Python-RSA's documentation (the "Usage" page: "Generating keys",
"Encryption and decryption", "Signing and verification"; the "Reference" page for
``compute_hash`` and ``find_signature_hash``), each answer computed by calling rsa itself. Bytes
are in JSON's terms as objmcp's README gives them: their text when they are UTF-8, else base64,
and a model sends bytes back as it got them (base64). A key is sent the two ways a model holds
one: a private key as its PEM text (``save_pkcs1``), a public key as its numbers (``n``, ``e``,
as ``PublicKey(n, e)`` takes them). The key is a fixed 512-bit pair made once for these calls
(fast, not for real use); ``CIPHER`` was made once with ``encrypt`` (whose padding is random).
``newkeys`` is random too, so its answer is not looked at.
"""

from __future__ import annotations

import base64
import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]

PRIVATE_PEM = """-----BEGIN RSA PRIVATE KEY-----
MIIBPAIBAAJBAKTM6YezNEgdk7SfEoVkf5BKMv+QZkm4gwMrG52p9SYfF5Q3Wn/Y
AJViPi94qyaXJSgHI/yYeTgmpVSBBuoob5sCAwEAAQJAUMojseKoPrJBNsrEyZ/6
6UF2vtKLUpihoWwAncozjl4yNb2q+K5MjRmfUGtHOWkrLmWZdpIfx1bvm+/Y+zi4
AQIjAK6mOhf9n/qCl5IFcwjSZTiN0HELVhD+ezWStkf1rZp1XyMCHwDxkEVjIy9s
wiWLkRyRMt6gdXkF7Pp+E97oP/rnsSkCIlfxumUkQK+bnQlZlyCFGZVNy/1wkOlD
y/UhKIq5yq5xlfMCHlQq87JWSSj5AMH/ftesxNtd8xw4dRNG8y0zVcYy+QIjAKNk
JqxkPhO4GEpJUqJ1XNGJr5otXUPDKmH4lDD4AfHpTS0=
-----END RSA PRIVATE KEY-----
"""
PUBLIC = {
    "n": int(
        "8631299315049011127813206389199810710805225021993077401705387394636027204898"
        "419704440182034030015079796639749844150113704253918057127462428377716024176539"
    ),
    "e": 65537,
}
MESSAGE = "hello world"
SIGNATURE = (
    "E0AtfkrWBb2MFuKb70G7MuXQEKdAuHGuSOrDwOcEHRcMpDeL1q+prs/oyMOrRVTtTmxc3pghITwKfeKk1L057A=="
)
CIPHER = "Ca6Vy0GZ3j052y18VrHZzGzyH94hlr5kzQ+pdiEfYSUBpYmuR1zoPNXzWFdhiToOOyJFtVQs4jTKbl1LUI0N6g=="


def _rsa() -> Any:
    return importlib.import_module("rsa")


def _private() -> Any:
    return _rsa().PrivateKey.load_pkcs1(PRIVATE_PEM.encode())


def _public() -> Any:
    return _rsa().PublicKey(PUBLIC["n"], PUBLIC["e"])


def _text(data: bytes) -> str:
    """Bytes as objmcp's README says they come back: UTF-8 text, else base64."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return base64.b64encode(data).decode("ascii")


TARGETS: tuple[Target, ...] = (
    Target(
        "rsa",
        (
            Call("newkeys", {"nbits": 512}, lambda: UNCHECKED),
            Call(
                "compute_hash",
                {"message": MESSAGE, "method_name": "SHA-256"},
                lambda: _text(_rsa().compute_hash(MESSAGE.encode(), "SHA-256")),
            ),
            Call(
                "sign",
                {"message": MESSAGE, "priv_key": PRIVATE_PEM, "hash_method": "SHA-256"},
                lambda: _text(_rsa().sign(MESSAGE.encode(), _private(), "SHA-256")),
            ),
            Call(
                "verify",
                {"message": MESSAGE, "signature": SIGNATURE, "pub_key": PUBLIC},
                lambda: _rsa().verify(MESSAGE.encode(), base64.b64decode(SIGNATURE), _public()),
            ),
            Call(
                "find_signature_hash",
                {"signature": SIGNATURE, "pub_key": PUBLIC},
                lambda: _rsa().find_signature_hash(base64.b64decode(SIGNATURE), _public()),
            ),
            Call(
                "decrypt",
                {"crypto": CIPHER, "priv_key": PRIVATE_PEM},
                lambda: _text(_rsa().decrypt(base64.b64decode(CIPHER), _private())),
            ),
        ),
    ),
)
