"""The calls of ``pynacl`` (rank 159, tuning), import name ``nacl``.

Written from PyNaCl's documentation (the "Hashing" page: ``sha256``, ``sha512``, ``blake2b``
with ``digest_size`` and ``key``, ``siphash24``; the "Password hashing" page: ``verify`` and
the scrypt key derivation with explicit ``opslimit`` / ``memlimit``), each answer computed by
calling PyNaCl itself, in JSON's terms: a hex digest (``bytes`` of ASCII, the default
``HexEncoder``) as its text, a raw derived key as base64. Messages, keys, passwords and salts
are the strings a model sends for the ``bytes`` parameters. ``str`` (a random salt each time)
is not called: no answer can be computed for it; the hash ``verify`` checks was made once by
``nacl.pwhash.argon2id.str`` with the interactive limits.

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``generichash``
(``digest_size``), ``shorthash`` and ``siphashx24`` (a 16-byte key), the first three of
``nacl.hash`` not called.
"""

from __future__ import annotations

import base64
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

HASHED = (
    "$argon2id$v=19$m=65536,t=2,p=1$jmNbiec89S2b9CjuytQPbw$"
    "CjraRzO+AvgP9iDvLiZZJ7m2D6A9hOJpa+2hpZr00D4"
)
SALT = "0123456789abcdef0123456789abcdef"


def _hash() -> Any:
    return importlib.import_module("nacl.hash")


def _pwhash() -> Any:
    return importlib.import_module("nacl.pwhash")


def _text(value: bytes) -> str:
    return value.decode("ascii")


def _scrypt_key() -> str:
    key: bytes = _pwhash().kdf_scryptsalsa208sha256(
        32, b"correct horse", SALT.encode(), opslimit=524288, memlimit=16777216
    )
    return base64.b64encode(key).decode("ascii")


TARGETS: tuple[Target, ...] = (
    Target(
        "nacl.hash",
        (
            Call("sha256", {"message": "hello"}, lambda: _text(_hash().sha256(b"hello"))),
            Call(
                "sha512",
                {"message": "The quick brown fox"},
                lambda: _text(_hash().sha512(b"The quick brown fox")),
            ),
            Call(
                "blake2b",
                {"data": "hello", "digest_size": 16},
                lambda: _text(_hash().blake2b(b"hello", digest_size=16)),
            ),
            Call(
                "blake2b",
                {"data": "hello", "digest_size": 32, "key": "secret key"},
                lambda: _text(_hash().blake2b(b"hello", digest_size=32, key=b"secret key")),
            ),
            Call(
                "siphash24",
                {"message": "hello", "key": "0123456789abcdef"},
                lambda: _text(_hash().siphash24(b"hello", key=b"0123456789abcdef")),
            ),
            Call(
                "generichash",
                {"data": "hello", "digest_size": 16},
                lambda: _text(_hash().generichash(b"hello", digest_size=16)),
            ),
            Call(
                "shorthash",
                {"message": "hello", "key": "0123456789abcdef"},
                lambda: _text(_hash().shorthash(b"hello", key=b"0123456789abcdef")),
            ),
            Call(
                "siphashx24",
                {"message": "hello", "key": "0123456789abcdef"},
                lambda: _text(_hash().siphashx24(b"hello", key=b"0123456789abcdef")),
            ),
        ),
    ),
    Target(
        "nacl.pwhash",
        (
            Call(
                "verify",
                {"password_hash": HASHED, "password": "correct horse"},
                lambda: _pwhash().verify(HASHED.encode(), b"correct horse"),
            ),
            Call(
                "kdf_scryptsalsa208sha256",
                {
                    "size": 32,
                    "password": "correct horse",
                    "salt": SALT,
                    "opslimit": 524288,
                    "memlimit": 16777216,
                },
                _scrypt_key,
            ),
        ),
    ),
)
