"""A slow network link for tests: a TCP proxy on 127.0.0.1 that hands every chunk on
``delay`` seconds after it came, each way, in order (a process far from its Redis)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from typing import Any


class SlowLink:
    """Connections to ``127.0.0.1:port`` reach ``host:target_port``, every chunk
    ``delay`` seconds late; until :meth:`close`."""

    def __init__(self, host: str, target_port: int, delay: float) -> None:
        self.delay = delay
        self._target = (host, target_port)
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._server: asyncio.Server | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._ready.wait(10)
        assert self._server is not None, "the slow link did not start"
        self.port: int = self._server.sockets[0].getsockname()[1]

    def close(self) -> None:
        """Stop the proxy's loop: nothing is carried any more (its sockets close with the
        test's process; stop what uses it first)."""
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._connected, "127.0.0.1", 0)
        )
        self._ready.set()
        self._loop.run_forever()

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            far_reader, far_writer = await asyncio.open_connection(*self._target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(
            self._carry(reader, far_writer), self._carry(far_reader, writer), return_exceptions=True
        )

    async def _carry(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        due: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        sending = asyncio.create_task(self._send_when_due(due, writer))
        try:
            while chunk := await reader.read(65536):
                due.put_nowait((time.monotonic() + self.delay, chunk))
        finally:
            due.put_nowait((time.monotonic() + self.delay, b""))
            await sending

    @staticmethod
    async def _send_when_due(due: asyncio.Queue[Any], writer: asyncio.StreamWriter) -> None:
        while True:
            when, chunk = await due.get()
            await asyncio.sleep(max(0.0, when - time.monotonic()))
            if not chunk:
                break
            writer.write(chunk)
            with contextlib.suppress(ConnectionError):
                await writer.drain()
        with contextlib.suppress(ConnectionError):
            writer.close()
