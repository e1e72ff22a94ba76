"""The blocking form of :mod:`objmcp.testing`'s client, for sync tests.

:class:`SyncClient` drives an async :class:`~objmcp.testing.Client` (from
``objmcp._testclient``) through the blocking portal of the event loop
:func:`objmcp.testing.connect_sync` runs in a thread: each method is the async
client's, called and waited for. Re-exported by :mod:`objmcp.testing`, and that is
where to import it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import anyio.from_thread

from ._testanswers import CallResult, Task
from ._testclient import Client

__all__ = ["SyncClient"]


class SyncClient:
    """The blocking form of :class:`Client`, made by :func:`connect_sync`; ``client`` is
    the async client it drives."""

    def __init__(self, client: Client, portal: anyio.from_thread.BlockingPortal) -> None:
        self.client = client
        self._portal = portal

    @property
    def notifications(self) -> list[dict[str, Any]]:
        """See :class:`Client`."""
        return self.client.notifications

    @property
    def logs(self) -> list[dict[str, Any]]:
        """See :class:`Client`."""
        return self.client.logs

    @property
    def asked(self) -> list[dict[str, Any]]:
        """See :class:`Client`."""
        return self.client.asked

    @property
    def server_info(self) -> dict[str, Any] | None:
        """See :class:`Client`."""
        return self.client.server_info

    @property
    def server_capabilities(self) -> dict[str, Any]:
        """See :class:`Client`."""
        return self.client.server_capabilities

    @property
    def protocol_version(self) -> str:
        """See :class:`Client`."""
        return self.client.protocol_version

    def __repr__(self) -> str:
        return f"<objmcp.testing.SyncClient {self.client.era} {self.client.protocol_version}>"

    def call(
        self, tool: str, /, arguments: Mapping[str, Any] | None = None, **keywords: Any
    ) -> CallResult:
        """See :meth:`Client.call`."""
        return self._portal.call(functools.partial(self.client.call, tool, arguments, **keywords))

    def list_tools(self) -> list[dict[str, Any]]:
        """See :meth:`Client.list_tools`."""
        return self._portal.call(self.client.list_tools)

    def set_log_level(self, level: str) -> None:
        """See :meth:`Client.set_log_level`."""
        self._portal.call(self.client.set_log_level, level)

    def request(self, method: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """See :meth:`Client.request`."""
        return self._portal.call(self.client.request, method, params)

    def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """See :meth:`Client.notify`."""
        self._portal.call(self.client.notify, method, params)

    def call_task(
        self, tool: str, /, arguments: Mapping[str, Any] | None = None, **keywords: Any
    ) -> Task:
        """See :meth:`Client.call_task`."""
        return self._portal.call(
            functools.partial(self.client.call_task, tool, arguments, **keywords)
        )

    def get_task(self, task_id: str) -> Task:
        """See :meth:`Client.get_task`."""
        return self._portal.call(self.client.get_task, task_id)

    def update_task(self, task_id: str, answers: Mapping[str, Any]) -> None:
        """See :meth:`Client.update_task`."""
        self._portal.call(self.client.update_task, task_id, answers)

    def cancel_task(self, task_id: str) -> None:
        """See :meth:`Client.cancel_task`."""
        self._portal.call(self.client.cancel_task, task_id)

    def follow_task(self, task: Task | str) -> Task:
        """See :meth:`Client.follow_task`."""
        return self._portal.call(self.client.follow_task, task)
