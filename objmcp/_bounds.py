"""The records of what calls may take: :class:`Limits` (one message, one call, one
connection) and :class:`Waiting` (calls waiting for their client's answer). Part of the
server's options (:mod:`objmcp._options`, which gives them with the others)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .model.calling.threads import DEFAULT_LIMIT
from .model.values.content import DEFAULT_LIMITS, ResultLimits
from .protocol.limits import (
    DEFAULT_MAX_CALLS,
    DEFAULT_MAX_DEPTH,
    DEFAULT_MAX_STRING,
    check_limits,
    check_seconds,
)
from .protocol.lists import check_listing
from .serving.option_fields import Flag, option
from .serving.settings import DEFAULT_MAX_WAITING, DEFAULT_MAX_WAITING_TOTAL
from .transport.framing import DEFAULT_MAX_FRAME

if TYPE_CHECKING:  # the command line reads the records before what serves is imported
    from .model.calling.toolbox import Concurrency

__all__ = ["Limits", "Waiting", "set_checked"]


def set_checked(record: object, name: str, value: object) -> None:
    """Store a checked option's normal form in a frozen record, while it is made."""
    object.__setattr__(record, name, value)


@dataclass(frozen=True, kw_only=True)
class Limits:
    """What one message, one call and one connection may take.

    ``concurrency``: ``"threads"`` (sync calls run in worker threads, at most
    ``max_threads`` at once; a call waiting for the client's answer does not count) or
    ``"serial"`` (one call at a time). ``max_calls``: requests running at once on one
    connection (more are refused, "Server busy"). ``max_frame``, ``max_depth`` and
    ``max_string``: bytes of one message, its levels of nesting, characters of one of its
    strings. ``call_timeout``: seconds a call may run, waits for the client's answers not
    counted; then it is stopped and answered with an error (None: no limit). ``grace``:
    seconds calls may finish after end of input. ``max_items``: items read from the
    iterators and generators a call, a resource read or a prompt returns, all together (the
    rest is cut and the result says so). ``max_result``: characters of a result's text, a
    resource's contents or a prompt's messages (a longer one is an error). ``max_values``:
    JSON values an argument sent as JSON text may hold, counted before it is read (beyond,
    an error names the argument), and over HTTP the values of a request's body (413).
    ``page_size``: lists longer than this come in pages with a cursor (None: one page).
    ``lenient``: an argument sent as JSON text where the schema wants an array, an object,
    a number or a boolean is read, as some clients send them (False: refused).
    """

    concurrency: Concurrency = option(
        "threads",
        Flag(
            "--concurrency",
            "run sync calls in threads, or one at a time",
            choices=("threads", "serial"),
        ),
    )
    max_threads: int = option(
        DEFAULT_LIMIT, Flag("--max-threads", "sync calls running at once", int, "N")
    )
    max_calls: int = option(
        DEFAULT_MAX_CALLS, Flag("--max-calls", "requests running at once, each client", int, "N")
    )
    max_frame: int = option(
        DEFAULT_MAX_FRAME, Flag("--max-frame", "bytes of one message", int, "BYTES")
    )
    max_depth: int = option(
        DEFAULT_MAX_DEPTH, Flag("--max-depth", "levels of nesting in one message", int, "N")
    )
    max_string: int = option(
        DEFAULT_MAX_STRING, Flag("--max-string", "characters of one string", int, "N")
    )
    call_timeout: float | None = option(
        None,
        Flag(
            "--call-timeout",
            "stop a call that runs longer (waits for the client's answers not counted)",
            float,
            "SECONDS",
        ),
    )
    grace: float = option(
        5.0, Flag("--grace", "seconds calls may finish after end of input", float, "SECONDS")
    )
    max_items: int = option(
        DEFAULT_LIMITS.max_items,
        Flag("--max-items", "items read from a result's iterators, in all", int, "N"),
    )
    max_result: int = option(
        DEFAULT_LIMITS.max_result, Flag("--max-result", "characters of a result", int, "N")
    )
    max_values: int = option(
        DEFAULT_LIMITS.max_values,
        Flag(
            "--max-values",
            "JSON values in an argument sent as JSON text, and in an HTTP request's body, "
            "counted before it is parsed",
            int,
            "N",
        ),
    )
    page_size: int | None = option(
        None, Flag("--page-size", "list in pages of N (one page when not given)", int, "N")
    )
    lenient: bool = option(
        True,
        Flag(
            "--no-lenient",
            "refuse arguments sent as JSON text where the schema wants another kind",
            switch=False,
        ),
    )

    def __post_init__(self) -> None:
        if self.concurrency not in ("threads", "serial"):
            raise ValueError(f"concurrency must be 'threads' or 'serial', not {self.concurrency!r}")
        check_limits(
            max_threads=self.max_threads,
            max_calls=self.max_calls,
            max_frame=self.max_frame,
            max_depth=self.max_depth,
            max_string=self.max_string,
        )
        check_seconds(call_timeout=self.call_timeout)
        if not isinstance(self.grace, (int, float)) or self.grace < 0:
            raise ValueError(f"grace must be a number of seconds, 0 or more, not {self.grace!r}")
        ResultLimits(self.max_items, self.max_result, self.max_values)
        check_listing(self.page_size)
        if not isinstance(self.lenient, bool):
            raise TypeError(f"lenient takes True or False, not {self.lenient!r}")


@dataclass(frozen=True, kw_only=True)
class Waiting:
    """Calls waiting for the client's answer (a question asked mid-call).

    ``max_waiting`` and ``max_waiting_total``: how many calls may wait at once, in one
    handshake-era session and in all (parked calls and tasks' calls that ask counted); each
    may keep a worker thread: beyond either, the question raises
    :class:`~objmcp.InteractionUnavailable` in the call, which answers with an error unless
    it catches it. ``max_parked`` and ``park_timeout`` (the modern era): how many calls may
    wait suspended for the client's retry, and for how many seconds; beyond either, the
    retry runs the method again from the start, answering its earlier questions from the
    request state. A 2026-07-28 task's call waiting for ``tasks/update`` is counted with
    them, and its question fails at once when there is no room; each caller has its share,
    ``max_parked`` divided by the callers with calls waiting, one at least. ``state_key``
    seals the modern era's request states (else the ``OBJMCP_STATE_KEY`` environment
    variable, else a random key: then a retry that reaches another process cannot be read).
    """

    max_waiting: int = option(
        DEFAULT_MAX_WAITING,
        Flag("--max-waiting", "calls of one client waiting for its answers at once", int, "N"),
    )
    max_waiting_total: int = option(
        DEFAULT_MAX_WAITING_TOTAL,
        Flag(
            "--max-waiting-total",
            "calls of every client waiting for their answers at once",
            int,
            "N",
        ),
    )
    max_parked: int = option(
        64,
        Flag(
            "--max-parked",
            "2026-07-28 calls suspended at once for their client's retry",
            int,
            "N",
        ),
    )
    park_timeout: float = option(
        300.0,
        Flag(
            "--park-timeout",
            "seconds a suspended call waits for its retry (then the retry runs it again)",
            float,
            "SECONDS",
        ),
    )
    state_key: str | bytes | None = option(None, secret=True)

    def __post_init__(self) -> None:
        for name in ("max_waiting", "max_waiting_total", "max_parked"):
            number = getattr(self, name)
            if isinstance(number, bool) or not isinstance(number, int) or number < 0:
                raise ValueError(f"{name} must be a whole number, 0 or more, not {number!r}")
        if not isinstance(self.park_timeout, (int, float)) or self.park_timeout < 0:
            raise ValueError(f"park_timeout cannot be negative, not {self.park_timeout!r}")
        if self.state_key is not None and not isinstance(self.state_key, (str, bytes)):
            raise TypeError("state_key takes a string or bytes")
