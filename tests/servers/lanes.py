"""An object for the reader-thread tests (test_reader.py): sync calls that are fast, that
fail, that return a coroutine, that hold until the client lets them go, that run until
cancelled and that log; async calls; and a count of the threads inside :meth:`Lanes.hold`
at once.

Files go to the folder named by $LANES_DIR: ``started-NAME`` when a call named NAME
starts, ``cancelled-NAME`` when it sees its flag; a file ``open-NAME`` there lets the
holds named NAME go (as :meth:`Lanes.release` does, for a client that can no longer call).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

import objmcp

HANG_GUARD = 60.0
"""Seconds a hold waits at most (so that a failing test cannot leave a process behind)."""

logger = logging.getLogger("lanes")


class Lanes:
    """Calls that hold, spin, log or answer at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._gates: dict[str, threading.Event] = {}
        self._running = 0
        self._peak = 0
        self._threads: set[int] = set()

    # --- helpers (private: not tools) ---------------------------------------------------

    def _gate(self, name: str) -> threading.Event:
        with self._lock:
            return self._gates.setdefault(name, threading.Event())

    def _mark(self, kind: str, name: str) -> None:
        folder = os.environ.get("LANES_DIR")
        if folder:  # written whole, then named: a reader never sees half of it
            path = Path(folder) / f"{kind}-{name}"
            part = Path(folder) / f"{kind}-{name}.{threading.get_ident()}.part"
            part.write_text(threading.current_thread().name)
            part.replace(path)

    def _opened(self, name: str) -> bool:
        folder = os.environ.get("LANES_DIR")
        return bool(folder) and (Path(folder) / f"open-{name}").exists()

    def _wait(self, name: str) -> bool:
        gate = self._gate(name)
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            if gate.wait(0.01) or self._opened(name):
                return True
        return False

    # --- tools ----------------------------------------------------------------------------

    def double(self, x: int) -> int:
        """Twice ``x``, at once."""
        return 2 * x

    async def triple(self, x: int) -> int:
        """Three times ``x``, on the event loop."""
        return 3 * x

    async def stall(self, name: str) -> str:
        """Hold the event loop itself (nothing else runs on it) until the file ``open-NAME``
        appears."""
        self._mark("started", name)
        deadline = time.monotonic() + HANG_GUARD
        while not self._opened(name) and time.monotonic() < deadline:
            time.sleep(0.01)
        return f"{name} let the loop go"

    def slow_double(self, x: int, seconds: float) -> int:
        """Twice ``x``, after sleeping ``seconds`` in the calling thread."""
        time.sleep(seconds)
        return 2 * x

    def deferred(self, x: int) -> Any:
        """A sync method that gives back a coroutine (:meth:`triple`'s), settled on the loop."""
        return self.triple(x)

    def fail(self, x: int) -> int:
        """Raise, naming ``x``."""
        raise ValueError(f"no good: {x}")

    def hold(self, name: str) -> str:
        """Wait until the gate ``name`` opens; say which thread waited."""
        me = threading.current_thread()
        with self._lock:
            self._running += 1
            self._peak = max(self._peak, self._running)
            self._threads.add(threading.get_ident())
        try:
            self._mark("started", name)
            opened = self._wait(name)
        finally:
            with self._lock:
                self._running -= 1
        return f"{name} {'released' if opened else 'never released'} in {me.name}"

    def hold_reporting(self, name: str, progress: objmcp.Progress) -> str:
        """:meth:`hold`, for a tool that has more than a flag injected (so runs in a worker)."""
        progress(0, 1, "holding")
        return self.hold(name)

    async def release(self, name: str) -> str:
        """Open the gate ``name`` (on the event loop: no thread is needed)."""
        self._gate(name).set()
        return f"opened {name}"

    async def stats(self) -> dict[str, Any]:
        """How many holds run now, the most that ever ran at once, and in how many threads."""
        with self._lock:
            return {"running": self._running, "peak": self._peak, "threads": len(self._threads)}

    def spin(self, name: str, cancelled: objmcp.Cancelled) -> str:
        """Run until cancelled; then leave a file saying so."""
        self._mark("started", name)
        deadline = time.monotonic() + HANG_GUARD
        while not cancelled.wait(0.01):
            if time.monotonic() > deadline:
                return "never cancelled"
        self._mark("cancelled", name)
        return "stopped"

    def chat(self, count: int, tag: str = "", gate: str = "") -> str:
        """Log ``count`` records (``TAG before N``); if ``gate``, hold there, then log
        ``count`` more (``TAG after N``)."""
        for number in range(count):
            logger.info("%s before %d", tag, number)
        if gate:
            self._wait(gate)
            for number in range(count):
                logger.info("%s after %d", tag, number)
        return f"{tag} chatted {count}"


if __name__ == "__main__":
    objmcp.start("lanes", Lanes())
