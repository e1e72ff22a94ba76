"""Slow errands for the real clients with task support (``tests/peers/test_ts_tasks.py``):
served with a short ``task_after``, they become tasks after asking first, ask two things at
once inside their task, or fail once they are one."""

from __future__ import annotations

import anyio

import objmcp

# Past the tests' --task-after (0.2 s), short enough for a quick run.
WORK_SECONDS = 0.6


class Errands:
    """Errands that outlive a short ``task_after``."""

    async def report(self, elicit: objmcp.Elicit, progress: objmcp.Progress) -> str:
        """Asks whose report it is at once, then works on as a task."""
        owner = await elicit("Whose report?", str, key="owner")
        await anyio.sleep(WORK_SECONDS / 2)
        await progress(1, 2, "drafting")
        await anyio.sleep(WORK_SECONDS / 2)
        return f"Report for {owner.value}"

    async def survey(self, elicit: objmcp.Elicit, sample: objmcp.Sample) -> str:
        """Works as a task, then asks a name and a sample together."""
        await anyio.sleep(WORK_SECONDS)
        answers = await objmcp.ask_all(
            {
                "name": elicit.question("Your name?", str),
                "motto": sample.question("A motto, please", max_tokens=20),
            }
        )
        return f"{answers['name'].value}: {answers['motto'].text}"

    async def crash(self) -> str:
        """Works as a task, then fails."""
        await anyio.sleep(WORK_SECONDS)
        raise ValueError("the printer is on fire")
