"""An audit log of every tool call, one JSON line each: ``python examples/audit_log.py``.

The hook appends who called which tool with what, how it ended and how long it took
to the file named by ``AUDIT_LOG`` (``audit.jsonl`` by default). The object served
knows nothing of it.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import objmcp


class AuditLog(objmcp.Hook):
    """Appends a JSON line to ``path`` for every tool call that ends."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()  # hooks may run on several threads at once

    def after(self, call: objmcp.CallInfo, end: objmcp.CallEnd) -> None:
        """Log a call that succeeded."""
        self._write(call, end)

    def on_error(self, call: objmcp.CallInfo, end: objmcp.CallEnd) -> None:
        """Log a call that failed, with the type of what it raised."""
        self._write(call, end)

    def _write(self, call: objmcp.CallInfo, end: objmcp.CallEnd) -> None:
        line = {
            "time": time.time(),
            "client": call.client,
            "protocol": call.protocol_version,
            "request": call.request_id,
            "tool": call.tool,
            "arguments": call.arguments,
            "ok": not end.result.is_error,
            "error": type(end.error).__name__ if end.error is not None else None,
            "ms": round(end.seconds * 1000, 3),
        }
        text = json.dumps(line, default=repr) + "\n"
        with self._lock, self.path.open("a", encoding="utf-8") as log:
            log.write(text)


class Vault:
    """Secrets, read and written."""

    def __init__(self) -> None:
        self.secrets: dict[str, str] = {}

    def put(self, name: str, value: str) -> None:
        """Keep a secret under a name."""
        self.secrets[name] = value

    def get(self, name: str) -> str:
        """The secret kept under a name."""
        return self.secrets[name]

    async def names(self) -> list[str]:
        """The names of the secrets kept."""
        return sorted(self.secrets)


if __name__ == "__main__":
    log = AuditLog(os.environ.get("AUDIT_LOG", "audit.jsonl"))
    objmcp.start("vault", Vault(), hooks=[log])
