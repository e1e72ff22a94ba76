"""The calls of ``python-dotenv`` (rank 42, tuning).

Written from python-dotenv's documentation (its README: "Getting Started" with ``load_dotenv``
and ``dotenv_values``, and the "Command-line Interface"'s library counterparts ``set_key``,
``get_key`` and ``unset_key``), each answer computed by calling dotenv itself, in JSON's terms
(a tuple as a list). The calls work on one file in the temporary directory, ``ENV_FILE``, which
the first ``set_key`` makes: they set three keys, read them, load them and remove one, and
``_replay`` makes the same calls on a file of its own to compute each answer. (``load_dotenv``
sets the served process's environment; the replay puts its own back.) dotenv's functions take
paths, text and booleans only: no number, list or mapping parameter exists to send.

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``find_dotenv``
(twice: its booleans ``usecwd`` and ``raise_error_if_not_found``, for a file name no folder
holds, so the answer is ``""`` wherever the search starts) and ``get_cli_string``, twice (the
functions left; ``load_ipython_extension`` takes an IPython shell).
"""

from __future__ import annotations

import importlib
import os
import tempfile
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

ENV_FILE = "/tmp/objmcp-calls-dotenv.env"

STEPS: tuple[tuple[str, dict[str, Any]], ...] = (
    (
        "set_key",
        {"key_to_set": "DATABASE_URL", "value_to_set": "postgres://localhost:5432/app"},
    ),
    ("set_key", {"key_to_set": "PORT", "value_to_set": "8080"}),
    (
        "set_key",
        {"key_to_set": "DEBUG", "value_to_set": "true", "quote_mode": "never", "export": True},
    ),
    ("get_key", {"key_to_get": "PORT"}),
    ("dotenv_values", {"interpolate": False}),
    ("load_dotenv", {"override": True}),
    ("unset_key", {"key_to_unset": "DEBUG"}),
    ("dotenv_values", {}),
)


def _replay(count: int) -> Any:
    """The answer of the ``count``-th step, after the steps before it, on a file of its own."""
    dotenv = importlib.import_module("dotenv")
    saved = dict(os.environ)
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, ".env")
            answer: Any = None
            for tool, arguments in STEPS[:count]:
                answer = getattr(dotenv, tool)(path, **arguments)
            return expected_json(answer)
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _step(index: int) -> Call:
    tool, arguments = STEPS[index]
    return Call(tool, {"dotenv_path": ENV_FILE, **arguments}, lambda: _replay(index + 1))


ABSENT = "objmcp-calls-absent.env"


def _dotenv() -> Any:
    return importlib.import_module("dotenv")


MORE: tuple[Call, ...] = (
    Call(
        "find_dotenv",
        {"filename": ABSENT, "usecwd": True},
        lambda: _dotenv().find_dotenv(ABSENT, usecwd=True),
    ),
    Call(
        "find_dotenv",
        {"filename": ABSENT, "raise_error_if_not_found": False},
        lambda: _dotenv().find_dotenv(ABSENT, raise_error_if_not_found=False),
    ),
    Call(
        "get_cli_string",
        {"path": ".env", "action": "set", "key": "PORT", "value": "8080"},
        lambda: _dotenv().get_cli_string(".env", "set", "PORT", "8080"),
    ),
    Call(
        "get_cli_string",
        {"path": ".env", "action": "get", "key": "PORT"},
        lambda: _dotenv().get_cli_string(".env", "get", "PORT"),
    ),
)

TARGETS: tuple[Target, ...] = (
    Target("dotenv", (*(_step(index) for index in range(len(STEPS))), *MORE)),
)
