"""The calls of ``idna`` (rank 5, tuning).

Written from idna's documentation (its README: ``encode``, ``decode``, ``alabel``, ``ulabel``,
``uts46_remap``, the UTS 46 option, and the RFC 5892 context rules of its API), each answer
computed by calling idna itself, in JSON's terms (the ``bytes`` of an A-label as its ASCII
text).

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``check_bidi``,
``check_hyphen_ok`` and ``check_initial_combiner`` (the first three not called, in ``dir()``
order), then ``intranges_contain`` (the next with a non-string parameter; ``check_label`` and
``check_nfc`` take only a label). ``ranges`` is the encoded form ``intranges_from_list`` makes
(``start << 32 | end``), here the range of ``A`` to ``Z``.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

UPPER = (0x41 << 32) | 0x5B


def _idna() -> Any:
    return importlib.import_module("idna")


TARGETS: tuple[Target, ...] = (
    Target(
        "idna",
        (
            Call(
                "encode",
                {"s": "ドメイン.テスト"},
                lambda: _idna().encode("ドメイン.テスト").decode("ascii"),
            ),
            Call(
                "decode",
                {"s": "xn--eckwd4c7c.xn--zckzah"},
                lambda: _idna().decode("xn--eckwd4c7c.xn--zckzah"),
            ),
            Call(
                "encode",
                {"s": "Königsgäßchen.de", "uts46": True},
                lambda: _idna().encode("Königsgäßchen.de", uts46=True).decode("ascii"),
            ),
            Call(
                "alabel",
                {"label": "ドメイン"},
                lambda: _idna().alabel("ドメイン").decode("ascii"),
            ),
            Call(
                "ulabel",
                {"label": "xn--eckwd4c7c"},
                lambda: _idna().ulabel("xn--eckwd4c7c"),
            ),
            Call(
                "uts46_remap",
                {"domain": "Example.COM", "std3_rules": True},
                lambda: _idna().uts46_remap("Example.COM", std3_rules=True),
            ),
            Call(
                "valid_contextj",
                {"label": "a\u094d\u200db", "pos": 2},
                lambda: _idna().valid_contextj("a\u094d\u200db", 2),
            ),
            Call(
                "valid_contexto",
                {"label": "l\u00b7l", "pos": 1},
                lambda: _idna().valid_contexto("l\u00b7l", 1),
            ),
            Call(
                "check_bidi",
                {"label": "abc", "check_ltr": True},
                lambda: _idna().check_bidi("abc", check_ltr=True),
            ),
            Call(
                "check_hyphen_ok",
                {"label": "my-domain"},
                lambda: _idna().check_hyphen_ok("my-domain"),
            ),
            Call(
                "check_initial_combiner",
                {"label": "abc"},
                lambda: _idna().check_initial_combiner("abc"),
            ),
            Call(
                "intranges_contain",
                {"int_": 65, "ranges": [UPPER]},
                lambda: _idna().intranges_contain(65, (UPPER,)),
            ),
        ),
    ),
)
