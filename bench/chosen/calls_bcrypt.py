"""The calls of ``bcrypt`` (rank 184, tuning).

Written from bcrypt's documentation (its README: ``hashpw`` with a salt, ``checkpw``, and
``kdf``), each answer computed by calling bcrypt itself, in JSON's terms: a hash (``bytes`` of
ASCII) as its text, a derived key (raw ``bytes``) as base64. Passwords and salts are the
strings a model sends for the ``bytes`` parameters. ``gensalt`` is not called: its salt is
random, so no answer can be computed for it.
"""

from __future__ import annotations

import base64
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

SALT = "$2b$10$abcdefghijklmnopqrstuu"
HASHED = "$2b$10$abcdefghijklmnopqrstuu23JPZtHcGhwXSF41f93o/7vBdDut3Xu"


def _bcrypt() -> Any:
    return importlib.import_module("bcrypt")


def _kdf(password: str, salt: str, size: int, rounds: int) -> str:
    key: bytes = _bcrypt().kdf(
        password=password.encode(), salt=salt.encode(), desired_key_bytes=size, rounds=rounds
    )
    return base64.b64encode(key).decode("ascii")


TARGETS: tuple[Target, ...] = (
    Target(
        "bcrypt",
        (
            Call(
                "hashpw",
                {"password": "correct horse", "salt": SALT},
                lambda: _bcrypt().hashpw(b"correct horse", SALT.encode()).decode("ascii"),
            ),
            Call(
                "checkpw",
                {"password": "correct horse", "hashed_password": HASHED},
                lambda: _bcrypt().checkpw(b"correct horse", HASHED.encode()),
            ),
            Call(
                "checkpw",
                {"password": "wrong horse", "hashed_password": HASHED},
                lambda: _bcrypt().checkpw(b"wrong horse", HASHED.encode()),
            ),
            Call(
                "kdf",
                {"password": "password", "salt": "salt", "desired_key_bytes": 32, "rounds": 50},
                lambda: _kdf("password", "salt", 32, 50),
            ),
            Call(
                "kdf",
                {"password": "s3cret", "salt": "pepper", "desired_key_bytes": 16, "rounds": 50},
                lambda: _kdf("s3cret", "pepper", 16, 50),
            ),
        ),
    ),
)
