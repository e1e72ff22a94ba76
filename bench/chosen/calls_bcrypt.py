"""The calls of ``bcrypt`` (rank 184, tuning).

Written from bcrypt's documentation (its README: ``hashpw`` with a salt, ``checkpw``, and
``kdf``), each answer computed by calling bcrypt itself, in JSON's terms: a hash (``bytes`` of
ASCII) as its text, a derived key (raw ``bytes``) as base64. Passwords and salts are the
strings a model sends for the ``bytes`` parameters. ``gensalt`` is not called: its salt is
random, so no answer can be computed for it.

More calls (issue 37), taken by the rule of the README's "More tuning calls": the one callable
left, ``gensalt``, has a random answer, so the rule takes three more calls of the README's:
``hashpw`` with a cost-4 salt, and ``kdf`` with 64 bytes and with few rounds
(``ignore_few_rounds``).
"""

from __future__ import annotations

import base64
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

SALT = "$2b$10$abcdefghijklmnopqrstuu"
HASHED = "$2b$10$abcdefghijklmnopqrstuu23JPZtHcGhwXSF41f93o/7vBdDut3Xu"
CHEAP_SALT = "$2b$04$ABCDEFGHIJKLMNOPQRSTUu"


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
            Call(
                "hashpw",
                {"password": "hunter2", "salt": CHEAP_SALT},
                lambda: _bcrypt().hashpw(b"hunter2", CHEAP_SALT.encode()).decode("ascii"),
            ),
            Call(
                "kdf",
                {"password": "hunter2", "salt": "salty", "desired_key_bytes": 64, "rounds": 100},
                lambda: _kdf("hunter2", "salty", 64, 100),
            ),
            Call(
                "kdf",
                {
                    "password": "hunter2",
                    "salt": "salty",
                    "desired_key_bytes": 8,
                    "rounds": 5,
                    "ignore_few_rounds": True,
                },
                lambda: base64.b64encode(
                    _bcrypt().kdf(b"hunter2", b"salty", 8, 5, ignore_few_rounds=True)
                ).decode("ascii"),
            ),
        ),
    ),
)
