"""A class served boxed behind a front (``objmcp run --http --sandbox``, issue 43): its tools
ask the user, report progress, wait to be cancelled, end their own process, say who calls
and which object answers, and try what the box refuses."""

from __future__ import annotations

import os
import pathlib
import secrets
import time

import objmcp


class Front:
    """One object per session or caller when served ``--per``; else shared."""

    def __init__(self, caller: objmcp.Caller | None = None) -> None:
        self.made = secrets.token_hex(4)
        self.maker = caller.subject if caller is not None else None

    def made_for(self, caller: objmcp.Caller | None = None) -> dict[str, object]:
        """Which object answers, whom it was made for, and who calls now."""
        subject = caller.subject if caller is not None else None
        return {"object": self.made, "maker": self.maker, "caller": subject}

    def ask(self, elicit: objmcp.Elicit) -> str:
        """Ask the user's name."""
        answer = elicit("Your name?", str)
        return f"hello {answer.value}" if answer.accepted else answer.action

    def count(self, progress: objmcp.Progress, steps: int = 3) -> int:
        """Count to ``steps``, saying how far."""
        for step in range(1, steps + 1):
            progress(step, steps, f"step {step}")
        return steps

    def until_cancelled(self, marker: str, cancelled: objmcp.Cancelled) -> str:
        """Note in ``marker`` that it started, then that it was cancelled."""
        path = pathlib.Path(marker)
        path.write_text("started\n")
        deadline = time.monotonic() + 30
        while not cancelled.is_set() and time.monotonic() < deadline:
            time.sleep(0.02)
        path.write_text("started\ncancelled\n" if cancelled.is_set() else "started\ntimed out\n")
        return "ended"

    def echo(self, text: str) -> str:
        """``text`` back."""
        return text

    def crash(self) -> str:
        """End this process at once."""
        os._exit(3)

    def environment(self) -> dict[str, str]:
        """This process's environment."""
        return dict(os.environ)

    def read(self, path: str) -> str:
        """The text of the file ``path``."""
        return pathlib.Path(path).read_text()

    @objmcp.tool(task="always")
    def queued(self, marker: str, seconds: float = 0.5) -> str:
        """After ``seconds``, write to ``marker`` (a task: a queue's worker runs it), and say
        what the process sees of the host."""
        time.sleep(seconds)
        pathlib.Path(marker).write_text("ran\n")
        return f"home seen: {os.path.exists('/home')}; key: {'OBJMCP_STATE_KEY' in os.environ}"
