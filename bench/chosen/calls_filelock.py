"""The calls of ``filelock`` (rank 50, held-out).

Written from filelock's documentation (its tutorial and API page: a ``FileLock`` on a
``.lock`` path, ``acquire`` with a ``timeout`` and ``poll_interval``, ``release``, ``force``),
each answer computed by calling filelock itself on a lock in a fresh temporary directory (the
answers do not depend on the path). ``acquire`` gives a proxy for a ``with`` block, with no
JSON form, so its answer is not looked at (``UNCHECKED``); the lock's state is read through
properties (``is_locked``), which are not tools, so no call checks it.

The target is the walk's ``filelock:FileLock``, whose constructor needs the lock file's path:
served as a class it has only its static and class methods (none), so these calls are the
documented API as a model would call it, which objmcp can reach only given an instance.
``break_lock`` deletes the lock file: withheld.
"""

from __future__ import annotations

import importlib
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]


def _on_lock(use: Callable[[Any], Any]) -> Any:
    """What ``use`` gives for a ``FileLock`` on a path in a fresh temporary directory."""
    with tempfile.TemporaryDirectory() as folder:
        lock = importlib.import_module("filelock").FileLock(str(Path(folder) / "data.txt.lock"))
        try:
            return use(lock)
        finally:
            lock.release(force=True)


def _acquired_then(use: Callable[[Any], Any]) -> Any:
    def run(lock: Any) -> Any:
        lock.acquire(timeout=5)
        return use(lock)

    return _on_lock(run)


TARGETS: tuple[Target, ...] = (
    Target(
        "filelock:FileLock",
        (
            Call("acquire", {"timeout": 5}, lambda: UNCHECKED),
            Call(
                "is_thread_local", {}, lambda: _acquired_then(lambda lock: lock.is_thread_local())
            ),
            Call("release", {}, lambda: _acquired_then(lambda lock: lock.release())),
            Call("acquire", {"timeout": 0.5, "poll_interval": 0.05}, lambda: UNCHECKED),
            Call(
                "release",
                {"force": True},
                lambda: _acquired_then(lambda lock: lock.release(force=True)),
            ),
        ),
        withheld=("break_lock",),
    ),
)
