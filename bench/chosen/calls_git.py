"""The calls of ``gitpython`` (rank 144, held-out), import name ``git``.

The walk chose ``git:Repo``, GitPython's documented main API (the tutorial opens a ``Repo`` and
reads its heads, commits and index). It is not used: ``Repo()`` with no arguments opens the
repository of the server's working directory (whatever it is: no fixed answer, or an error
outside a repository), and nearly all of its methods run the ``git`` program, which a call here
must not do. The calls are to another target of the library, ``git.objects.util``, the date,
timezone and actor parsing of the API reference's "Objects.Util" section, which run no
program and read no file.

Each answer is computed by calling GitPython itself, in JSON's terms: a tuple as a list, an
``Actor`` as its ``str`` (the name). ``parse_date`` takes ``str | datetime``: the date-time is
sent as ISO 8601 text and its answer computed from the ``datetime`` that text is.
"""

from __future__ import annotations

import importlib
from datetime import datetime
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

LINE = "author Jane Doe <jane@example.com> 1704443400 +0100"


def _util() -> Any:
    return importlib.import_module("git.objects.util")


def _actor_and_date(line: str) -> list[Any]:
    actor, timestamp, offset = _util().parse_actor_and_date(line)
    return [str(actor), timestamp, offset]


TARGETS: tuple[Target, ...] = (
    Target(
        "git.objects.util",
        (
            Call(
                "parse_date",
                {"string_date": "Fri, 05 Jan 2024 10:30:00 +0100"},
                lambda: expected_json(_util().parse_date("Fri, 05 Jan 2024 10:30:00 +0100")),
            ),
            Call(
                "parse_date",
                {"string_date": "2024-01-05T10:30:00+02:00"},
                lambda: expected_json(
                    _util().parse_date(datetime.fromisoformat("2024-01-05T10:30:00+02:00"))
                ),
            ),
            Call("altz_to_utctz_str", {"altz": -7200}, lambda: _util().altz_to_utctz_str(-7200)),
            Call("utctz_to_altz", {"utctz": "+0530"}, lambda: _util().utctz_to_altz("+0530")),
            Call("parse_actor_and_date", {"line": LINE}, lambda: _actor_and_date(LINE)),
        ),
    ),
)
