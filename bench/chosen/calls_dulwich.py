"""The calls of ``dulwich`` (rank 334, tuning, third walk).

Written from dulwich's documentation (its README on PyPI, "Getting started": the "higher-level
plumbing ('porcelain')", ``porcelain.log('.', max_entries=1)``; the porcelain docstrings of
``init``, ``commit``, ``branch_create``, ``branch_list``, ``tag_create``, ``tag_list``,
``describe``, ``active_branch`` and ``status``, the git commands a model reaches for), each
answer computed by calling dulwich itself.

The calls work on one repository in the temporary directory, ``REPO``, which the first call
(``init``) makes: an initial commit, a branch, an annotated tag, then reading them back.
``_replay`` makes the same calls on a repository of its own to compute each answer. The
commit's and the tag's times and zones are given (as the docstrings allow), so the commit id is
fixed. ``init`` answers with a ``Repo``, whose text holds the path: not looked at
(``UNCHECKED``). Answers in JSON's terms: ASCII ``bytes`` (a commit id, ref names) as text,
a ``GitStatus`` named tuple as a list, ``None`` as null, and ``log``, which prints its answer,
the printed text. Author and committer (typed ``bytes``) are sent as text, as a model sends them.

Withheld: ``clean``, ``rm`` and ``remove`` (delete files of the working tree), ``daemon`` and
``web_daemon`` (serve), ``filter_branch`` (runs filters), ``gc`` and ``prune`` (delete
objects).
"""

from __future__ import annotations

import importlib
import io
import os
import tempfile
from typing import Any

from zoo_cases import UNCHECKED, Call, Target, expected_json

__all__ = ["TARGETS"]

REPO = "/tmp/objmcp-calls-dulwich"
ADA = "Ada Lovelace <ada@example.com>"
WHEN = 1700000000

STEPS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("init", {}),
    (
        "commit",
        {
            "message": "Initial commit",
            "author": ADA,
            "committer": ADA,
            "author_timestamp": WHEN,
            "author_timezone": 0,
            "commit_timestamp": WHEN,
            "commit_timezone": 0,
        },
    ),
    ("branch_create", {"name": "feature"}),
    ("branch_list", {}),
    (
        "tag_create",
        {
            "tag": "v1.0",
            "author": ADA,
            "message": "Release 1.0",
            "annotated": True,
            "tag_time": WHEN,
            "tag_timezone": 0,
        },
    ),
    ("tag_list", {}),
    ("describe", {}),
    ("active_branch", {}),
    ("log", {"max_entries": 1}),
    ("status", {}),
)


def _json(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.decode("ascii")
    if isinstance(value, list):
        return [_json(item) for item in value]
    return expected_json(value)


def _replay(count: int) -> Any:
    """The answer of the ``count``-th step, after the steps before it, on a repository of its
    own."""
    porcelain = importlib.import_module("dulwich.porcelain")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "repo")
        answer: Any = None
        for tool, arguments in STEPS[:count]:
            if tool == "init":
                answer = porcelain.init(path)
            elif tool == "log":
                printed = io.StringIO()
                porcelain.log(path, outstream=printed, **arguments)
                answer = printed.getvalue()
            else:
                answer = getattr(porcelain, tool)(path, **arguments)
        return _json(answer)


def _step(index: int) -> Call:
    tool, arguments = STEPS[index]
    if tool == "init":
        return Call(tool, {"path": REPO}, lambda: UNCHECKED)
    return Call(tool, {"repo": REPO, **arguments}, lambda: _replay(index + 1))


TARGETS: tuple[Target, ...] = (
    Target(
        "dulwich.porcelain",
        tuple(_step(index) for index in range(len(STEPS))),
        withheld=("clean", "rm", "remove", "daemon", "web_daemon", "filter_branch", "gc", "prune"),
    ),
)
