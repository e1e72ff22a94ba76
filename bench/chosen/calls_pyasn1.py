"""The calls of ``pyasn1`` (rank 61, held-out).

Written from pyasn1's documentation (the "Codecs" pages: ``decode`` of a DER substrate with no
``asn1Spec``, which gives back the universal types it finds, and the rest of the substrate),
each answer computed by calling pyasn1 itself, in JSON's terms: the ASN.1 value as its
``str`` (its documented printable form, ``prettyPrint``), the rest of the substrate as text.
The substrate is the string a model sends for the ``bytes``, one character a byte.

The walk's second target, ``pyasn1.codec.der.encoder``, is listed with no call: its
``encode`` takes an ASN.1 object (``univ.Integer(12)``), or a Python value with an ASN.1
object as ``asn1Spec``, and neither has a JSON form, so no call a model could send encodes
anything. Neither codec takes a number, list or object a model could send.
"""

from __future__ import annotations

import importlib

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

INTEGER = "\x02\x01\x0c"
OCTETS = "\x04\x05hello"
SEQUENCE = "\x30\x06\x02\x01\x01\x02\x01\x02"
OID = "\x06\x03\x2a\x03\x04"


def _decode(substrate: str) -> list[str]:
    decoder = importlib.import_module("pyasn1.codec.der.decoder")
    value, rest = decoder.decode(substrate.encode("latin-1"))
    return [str(value), bytes(rest).decode("latin-1")]


TARGETS: tuple[Target, ...] = (
    Target(
        "pyasn1.codec.der.decoder",
        (
            Call("decode", {"substrate": INTEGER}, lambda: _decode(INTEGER)),
            Call("decode", {"substrate": OCTETS}, lambda: _decode(OCTETS)),
            Call("decode", {"substrate": SEQUENCE}, lambda: _decode(SEQUENCE)),
            Call("decode", {"substrate": OID}, lambda: _decode(OID)),
        ),
    ),
    Target("pyasn1.codec.der.encoder", ()),
)
