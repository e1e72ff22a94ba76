"""The calls of ``rfc3339-validator`` (rank 374, tuning, third walk).

Written from rfc3339-validator's documentation (its README on PyPI, "Usage":
``validate_rfc3339('1424-45-93T15:32:12.9023368Z')`` is ``False``,
``validate_rfc3339('2001-10-23T15:32:12.9023368Z')`` is ``True``; the function's docstring: it
validates dates against the RFC 3339 date-time format, leap seconds not supported), each answer
computed by calling rfc3339_validator itself.

No call has a non-string parameter: the module's one function, ``validate_rfc3339``, takes
only the date-time text to check (a model sends it as the text it is asked about, valid or not).
"""

from __future__ import annotations

import importlib
from functools import partial

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _validate(text: str) -> bool:
    answer: bool = importlib.import_module("rfc3339_validator").validate_rfc3339(text)
    return answer


CASES = (
    "2001-10-23T15:32:12.9023368Z",
    "1424-45-93T15:32:12.9023368Z",
    "2024-02-29T23:59:59+05:30",
    "2023-02-29T10:00:00Z",
    "2024-01-05 10:30:00Z",
    "2024-01-05T10:30:00",
)

TARGETS: tuple[Target, ...] = (
    Target(
        "rfc3339_validator",
        tuple(
            Call("validate_rfc3339", {"date_string": text}, partial(_validate, text))
            for text in CASES
        ),
    ),
)
