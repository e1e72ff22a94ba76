"""The calls of ``cryptography`` (rank 11, tuning).

Written from cryptography's documentation: the "Fernet (symmetric encryption)" page
(``Fernet.generate_key()``) and the "RSA" page (``rsa.generate_private_key(public_exponent=65537,
key_size=2048)`` and its "Handling partial RSA private keys" functions ``rsa_crt_iqmp``,
``rsa_crt_dmp1``, ``rsa_recover_prime_factors``), each answer computed by calling cryptography
itself, in JSON's terms (a tuple as a list). A new key is random, so those two answers are not
looked at (``UNCHECKED``). The RSA numbers are the textbook example p=61, q=53, e=17, d=2753.

Targets: the walk chose ``cryptography.fernet:Fernet`` and
``cryptography.hazmat.primitives.hashes``; the hashes module has no functions (only classes
whose instances are arguments to others), so the second target here is
``cryptography.hazmat.primitives.asymmetric.rsa``, the documented functions of cryptography
that take plain values. ``Fernet(key).encrypt``/``decrypt``, the Fernet page's main use, need
an instance made with a key.

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``rsa_crt_dmq1``
and ``rsa_recover_private_exponent`` (the functions left), then the first class whose object has
a text without an address, ``RSAPublicNumbers`` (its text, ``<RSAPublicNumbers(e=17,
n=3233)>``). Skipped: ``Fernet``'s methods (an instance needs a key the target cannot be given),
the abstract key classes, ``RSAPrivateNumbers`` (its text is its address).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target, expected_json

__all__ = ["TARGETS"]


def _rsa() -> Any:
    return importlib.import_module("cryptography.hazmat.primitives.asymmetric.rsa")


TARGETS: tuple[Target, ...] = (
    Target("cryptography.fernet:Fernet", (Call("generate_key", {}, lambda: UNCHECKED),)),
    Target(
        "cryptography.hazmat.primitives.asymmetric.rsa",
        (
            Call(
                "generate_private_key",
                {"public_exponent": 65537, "key_size": 2048},
                lambda: UNCHECKED,
            ),
            Call("rsa_crt_iqmp", {"p": 61, "q": 53}, lambda: _rsa().rsa_crt_iqmp(61, 53)),
            Call(
                "rsa_crt_dmp1",
                {"private_exponent": 2753, "p": 61},
                lambda: _rsa().rsa_crt_dmp1(2753, 61),
            ),
            Call(
                "rsa_recover_prime_factors",
                {"n": 3233, "e": 17, "d": 2753},
                lambda: expected_json(_rsa().rsa_recover_prime_factors(3233, 17, 2753)),
            ),
            Call(
                "rsa_crt_dmq1",
                {"private_exponent": 2753, "q": 53},
                lambda: _rsa().rsa_crt_dmq1(2753, 53),
            ),
            Call(
                "rsa_recover_private_exponent",
                {"e": 17, "p": 61, "q": 53},
                lambda: _rsa().rsa_recover_private_exponent(17, 61, 53),
            ),
            Call(
                "RSAPublicNumbers",
                {"e": 17, "n": 3233},
                lambda: str(_rsa().RSAPublicNumbers(17, 3233)),
            ),
        ),
    ),
)
