"""An object whose methods misbehave in every way the fault tests try: they raise
``BaseException`` subclasses, return what JSON cannot carry, recurse without end, and
write megabytes to stdout themselves, from threads and from child processes."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from typing import Any

import objmcp


class Faulty:
    """Misbehaving methods, and one that behaves."""

    def ok(self) -> str:
        """Behave."""
        return "ok"

    def interrupt(self) -> str:
        """Raise KeyboardInterrupt in a worker thread."""
        raise KeyboardInterrupt

    async def interrupt_async(self) -> str:
        """Raise KeyboardInterrupt on the event loop."""
        raise KeyboardInterrupt

    def exit(self) -> str:
        """Raise SystemExit."""
        raise SystemExit(3)

    async def exit_async(self) -> str:
        """Raise SystemExit on the event loop."""
        raise SystemExit(4)

    def generator_exit(self) -> str:
        """Raise GeneratorExit."""
        raise GeneratorExit

    def loop(self) -> dict[str, Any]:
        """Return a dict that contains itself."""
        found: dict[str, Any] = {}
        found["self"] = found
        return found

    def opaque(self) -> object:
        """Return something JSON has no form for."""
        return threading.Lock()

    def recurse(self, depth: int = 0) -> int:
        """Recurse without end."""
        return self.recurse(depth + 1)

    @objmcp.tool  # named: what it does is what the test is about
    def shout(self, megabytes: int) -> str:
        """Print megabytes to stdout: print(), sys.stdout, fd 1, a thread and a child."""
        line = "x" * 1023 + "\n"
        for _ in range(megabytes * 1024 // 4):
            print(line, end="")
        sys.stdout.write(line * (megabytes * 256))
        os.write(1, (line * (megabytes * 256)).encode())
        thread = threading.Thread(target=lambda: print(line * (megabytes * 256), end=""))
        thread.start()
        thread.join()
        code = f"import sys; sys.stdout.write({line!r} * {megabytes * 256})"
        subprocess.run([sys.executable, "-c", code], check=True)
        return "shouted"


if __name__ == "__main__":
    objmcp.start("faulty", Faulty())
