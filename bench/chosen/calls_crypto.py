"""The calls of ``Crypto`` (pycryptodome, rank 325, third walk).

Written from pycryptodome's documentation (the SHA-256 page, Doc/src/hash/sha256.rst: ``h =
SHA256.new(); h.update(b'Hello'); h.hexdigest()``, and the module's one-shot ``digest``
docstring; the "Key Derivation Functions" page, Doc/src/protocol/kdf.rst: ``PBKDF2`` with
``count`` and ``hmac_hash_module=SHA512``, ``scrypt`` with ``N=2**14, r=8, p=1``, ``HKDF`` with
``SHA512`` and two keys, ``bcrypt`` and ``bcrypt_check``), each answer computed by calling
pycryptodome itself, in JSON's terms: raw ``bytes`` (digests, derived keys) as base64, ASCII
``bytes`` (a bcrypt hash) as text, a list of keys as a list, ``None`` as null. Passwords, salts
and messages are the text a model sends for the bytes the functions take; a fixed salt (the
docs draw a random one) keeps the answers fixed; ``count`` and ``cost`` are lowered from the
docs' 1000000 and 12 so that each call stays under a second. A hash module a function takes
(``hmac_hash_module``, ``hashmod``) is sent as its name, ``"SHA512"``, as a model would.

``Crypto.Hash.SHA256:SHA256Hash`` is a target beyond the walk's two: the docs' use of SHA-256
is a hash object's ``update`` and ``hexdigest``, and the module's ``new`` answers with that
object, which has no JSON form (its text is its address); its constructor needs no argument
(``data=None``), so the class target serves the docs' calls on one object.
"""

from __future__ import annotations

import base64
import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]

PASSWORD = "my super secret"
SALT = "0123456789abcdef"
HASHED = "$2a$10$KBCwKxOzLha2MUDgW0PjXeo9EG7den0KqJMHH7jIOsRgKMMH3n2kG"
"""The bcrypt hash of ``PASSWORD`` at cost 10 with ``SALT``, as the ``bcrypt`` call gives it."""


def _m(name: str) -> Any:
    return importlib.import_module(name)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _kdf(function: str, *arguments: Any, **options: Any) -> Any:
    return getattr(_m("Crypto.Protocol.KDF"), function)(*arguments, **options)


def _bcrypt() -> str:
    hashed: bytes = _kdf("bcrypt", PASSWORD, 10, SALT.encode())
    return hashed.decode("ascii")


TARGETS: tuple[Target, ...] = (
    Target(
        "Crypto.Hash.SHA256",
        (
            Call(
                "digest",
                {"data": "Hello"},
                lambda: _b64(_m("Crypto.Hash.SHA256").digest(b"Hello")),
            ),
        ),
    ),
    Target(
        "Crypto.Hash.SHA256:SHA256Hash",
        (
            Call("update", {"data": "Hello"}, lambda: UNCHECKED),
            Call(
                "hexdigest",
                {},
                lambda: _m("Crypto.Hash.SHA256").new(b"Hello").hexdigest(),
            ),
        ),
    ),
    Target(
        "Crypto.Protocol.KDF",
        (
            Call(
                "PBKDF2",
                {"password": PASSWORD, "salt": SALT, "dkLen": 32, "count": 1000},
                lambda: _b64(_kdf("PBKDF2", PASSWORD, SALT.encode(), 32, count=1000)),
            ),
            Call(
                "PBKDF2",
                {
                    "password": PASSWORD,
                    "salt": SALT,
                    "dkLen": 64,
                    "count": 1000,
                    "hmac_hash_module": "SHA512",
                },
                lambda: _b64(
                    _kdf(
                        "PBKDF2",
                        PASSWORD,
                        SALT.encode(),
                        64,
                        count=1000,
                        hmac_hash_module=_m("Crypto.Hash.SHA512"),
                    )
                ),
            ),
            Call(
                "scrypt",
                {"password": PASSWORD, "salt": SALT, "key_len": 32, "N": 16384, "r": 8, "p": 1},
                lambda: _b64(_kdf("scrypt", PASSWORD, SALT.encode(), 32, N=16384, r=8, p=1)),
            ),
            Call(
                "HKDF",
                {
                    "master": "a master secret",
                    "key_len": 32,
                    "salt": SALT,
                    "hashmod": "SHA512",
                    "num_keys": 2,
                },
                lambda: [
                    _b64(key)
                    for key in _kdf(
                        "HKDF", b"a master secret", 32, SALT.encode(), _m("Crypto.Hash.SHA512"), 2
                    )
                ],
            ),
            Call(
                "bcrypt",
                {"password": PASSWORD, "cost": 10, "salt": SALT},
                _bcrypt,
            ),
            Call(
                "bcrypt_check",
                {"password": PASSWORD, "bcrypt_hash": HASHED},
                lambda: _kdf("bcrypt_check", PASSWORD, HASHED),
            ),
        ),
    ),
)
