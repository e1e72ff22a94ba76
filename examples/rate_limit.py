"""A per-client rate limit as an objmcp hook: ``python examples/rate_limit.py``.

Each client may make ``per_minute`` tool calls in any minute; more are refused with an
error result that says when to try again. Clients are told apart by the name they
give in their ``clientInfo`` (a caller's identity will do better once there is one).
The object served knows nothing of it.
"""

from __future__ import annotations

import collections
import threading
import time

import objmcp


class RateLimit(objmcp.Hook):
    """At most ``per_minute`` calls per client in any sliding minute."""

    def __init__(self, per_minute: int = 60) -> None:
        self.per_minute = per_minute
        self._calls: dict[str, collections.deque[float]] = collections.defaultdict(
            collections.deque
        )
        self._lock = threading.Lock()  # hooks may run on several threads at once

    def before(self, call: objmcp.CallInfo) -> None:
        """Refuse the call when its client made ``per_minute`` calls in the last minute."""
        now = time.monotonic()
        with self._lock:
            recent = self._calls[call.client or "anonymous"]
            while recent and recent[0] <= now - 60:
                recent.popleft()
            if len(recent) >= self.per_minute:
                wait = 60 - (now - recent[0])
                raise objmcp.ToolError(
                    f"Rate limit: {self.per_minute} calls a minute; try again in {wait:.0f} s"
                )
            recent.append(now)


class Counter:
    """A counter to call."""

    def __init__(self) -> None:
        self.count = 0

    def bump(self) -> int:
        """Add one to the count, and return it."""
        self.count += 1
        return self.count


if __name__ == "__main__":
    objmcp.start("counter", Counter(), hooks=[RateLimit(per_minute=3)])
