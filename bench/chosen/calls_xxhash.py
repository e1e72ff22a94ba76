"""The calls of ``xxhash`` (rank 222, held-out, second walk).

Written from xxhash's documentation (its README on PyPI, "Usage": the hashlib-like ``xxh32()``
fed by ``update`` then read by ``digest``/``hexdigest``/``intdigest``; the ``seed`` examples;
the oneshot functions ``xxh32_hexdigest(bytes, seed=0)``, ``xxh64_intdigest``, ``xxh64_digest``
and the XXH3 ones), each answer computed by calling xxhash itself: a hex digest as its text, an
integer digest as a number, a raw ``digest`` as base64. The argument names are those of the
package's own type stubs (``data``, ``seed``; the C functions take them by keyword too). Data,
``bytes`` in the API, is sent as text, as a model sends it; the seeds are the numbers.

``xxhash:xxh32`` is a target beyond the walk's: the README's first example (``x = xxh32()``,
``update`` twice, then the digests) is on one instance, which the module target can only make
(its text is its address). Its constructor needs no argument.
"""

from __future__ import annotations

import base64
import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]

SPAM = "Nobody inspects the spammish repetition"
SEED32 = "I want an unsigned 32-bit seed!"


def _xx() -> Any:
    return importlib.import_module("xxhash")


def _streamed() -> Any:
    hasher = _xx().xxh32()
    hasher.update(b"Nobody inspects")
    hasher.update(b" the spammish repetition")
    return hasher


TARGETS: tuple[Target, ...] = (
    Target(
        "xxhash",
        (
            Call("xxh32_hexdigest", {"data": SPAM}, lambda: _xx().xxh32_hexdigest(SPAM.encode())),
            Call(
                "xxh64_hexdigest",
                {"data": "xxhash", "seed": 20141025},
                lambda: _xx().xxh64_hexdigest(b"xxhash", seed=20141025),
            ),
            Call(
                "xxh64_intdigest",
                {"data": "xxhash", "seed": 20141025},
                lambda: _xx().xxh64_intdigest(b"xxhash", seed=20141025),
            ),
            Call(
                "xxh32_hexdigest",
                {"data": SEED32, "seed": 1},
                lambda: _xx().xxh32_hexdigest(SEED32.encode(), seed=1),
            ),
            Call(
                "xxh64_digest",
                {"data": "xxhash", "seed": 20141025},
                lambda: base64.b64encode(_xx().xxh64_digest(b"xxhash", seed=20141025)).decode(),
            ),
            Call(
                "xxh3_128_hexdigest",
                {"data": "xxhash"},
                lambda: _xx().xxh3_128_hexdigest(b"xxhash"),
            ),
            Call("xxh3_64_intdigest", {"data": "hello"}, lambda: _xx().xxh3_64_intdigest(b"hello")),
        ),
    ),
    Target(
        "xxhash:xxh32",
        (
            Call("update", {"data": "Nobody inspects"}, lambda: UNCHECKED),
            Call("update", {"data": " the spammish repetition"}, lambda: UNCHECKED),
            Call("hexdigest", {}, lambda: _streamed().hexdigest()),
            Call("intdigest", {}, lambda: _streamed().intdigest()),
            Call("digest", {}, lambda: base64.b64encode(_streamed().digest()).decode()),
        ),
    ),
)
