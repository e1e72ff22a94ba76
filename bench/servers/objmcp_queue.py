"""The queued tool of the task store bench (``bench/tasks.py``, its ``store`` phase):
served by ``objmcp run --http --tasks redis://... --queue double`` fronts and run by
``objmcp worker`` processes.

``double(n, ms)`` sleeps ``ms`` milliseconds on the event loop (a fixed small amount of
work that takes no processor: the figure is then what the queue costs and how it spreads
calls over workers, not how two workers share two cores with the fronts, Redis and the
driver), and answers ``{"double": 2n, "pid": <this process>}``. Before it sleeps it notes
``n`` on a line of the file ``ran-<pid>`` in the folder ``$BENCH_QUEUE_LOG`` (when set):
the union of those files says which calls ran, and how many times each."""

import os
from pathlib import Path

import anyio


class Queued:
    """A call that takes a while, and says which worker ran it."""

    async def double(self, n: int, ms: float) -> dict[str, int]:
        """Note ``n`` as run by this process, sleep ``ms`` milliseconds; ``2n`` and the
        process id."""
        folder = os.environ.get("BENCH_QUEUE_LOG")
        if folder:
            with (Path(folder) / f"ran-{os.getpid()}").open("a") as noted:
                noted.write(f"{n}\n")
        await anyio.sleep(ms / 1000)
        return {"double": 2 * n, "pid": os.getpid()}
