"""The calls of ``asn1crypto`` (rank 232, tuning, second walk).

Written from asn1crypto's documentation (its README's "PEM Encoder and Decoder", docs/pem.md:
``pem.detect`` whether bytes hold a PEM block, ``pem.unarmor`` into ``(type_name, headers,
der_bytes)`` or, with ``multiple=True``, one such triple per block, ``pem.armor(type_name,
der_bytes, headers=None)`` back; the functions' docstrings), each answer computed by calling
``asn1crypto.pem`` itself, in JSON's terms: a tuple as a list, the headers' ``OrderedDict`` as
an object, DER bytes (raw: ``DER`` holds ``0xff``) as base64, PEM bytes (ASCII) as their text,
``unarmor``'s generator as the list of its triples. A model sends PEM as its text and DER
bytes as base64 (``DER`` is a SEQUENCE of the INTEGERs 65537 and 255).

The target is the walk's, ``asn1crypto.pem``. Its only parameter that is not text, bytes or
a flag is ``armor``'s ``headers`` (a mapping): two calls send one.
"""

from __future__ import annotations

import base64
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

DER = "MAkCAwEAAQICAP8="
PUBLIC = "-----BEGIN PUBLIC KEY-----\nMAkCAwEAAQICAP8=\n-----END PUBLIC KEY-----\n"
ENCRYPTED = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "Proc-Type: 4,ENCRYPTED\n"
    "DEK-Info: AES-128-CBC,0123456789ABCDEF0123456789ABCDEF\n"
    "\n"
    "MAkCAwEAAQICAP8=\n"
    "-----END RSA PRIVATE KEY-----\n"
)
DEK = {"Proc-Type": "4,ENCRYPTED", "DEK-Info": "AES-128-CBC,0123456789ABCDEF0123456789ABCDEF"}
COMMENT = {"Comment": "test key, 2 integers"}


def _pem() -> Any:
    return importlib.import_module("asn1crypto.pem")


def _triple(found: tuple[str, Any, bytes]) -> list[Any]:
    name, headers, der = found
    return [name, dict(headers), base64.b64encode(der).decode("ascii")]


def _armored(type_name: str, headers: dict[str, str] | None = None) -> str:
    pem: bytes = _pem().armor(type_name, base64.b64decode(DER), headers=headers)
    return pem.decode("ascii")


TARGETS: tuple[Target, ...] = (
    Target(
        "asn1crypto.pem",
        (
            Call(
                "detect",
                {"byte_string": PUBLIC},
                lambda: _pem().detect(PUBLIC.encode("ascii")),
            ),
            Call(
                "detect",
                {"byte_string": "just some text, no armor"},
                lambda: _pem().detect(b"just some text, no armor"),
            ),
            Call(
                "unarmor",
                {"pem_bytes": ENCRYPTED},
                lambda: _triple(_pem().unarmor(ENCRYPTED.encode("ascii"))),
            ),
            Call(
                "unarmor",
                {"pem_bytes": PUBLIC + ENCRYPTED, "multiple": True},
                lambda: [
                    _triple(found)
                    for found in _pem().unarmor((PUBLIC + ENCRYPTED).encode("ascii"), multiple=True)
                ],
            ),
            Call(
                "armor",
                {"type_name": "PUBLIC KEY", "der_bytes": DER},
                lambda: _armored("PUBLIC KEY"),
            ),
            Call(
                "armor",
                {"type_name": "RSA PRIVATE KEY", "der_bytes": DER, "headers": DEK},
                lambda: _armored("RSA PRIVATE KEY", DEK),
            ),
            Call(
                "armor",
                {"type_name": "PUBLIC KEY", "der_bytes": DER, "headers": COMMENT},
                lambda: _armored("PUBLIC KEY", COMMENT),
            ),
        ),
    ),
)
