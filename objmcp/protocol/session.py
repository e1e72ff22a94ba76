"""The MCP session: messages in, actions out, no I/O (after h11).

Theory of operation
-------------------
The runner decodes a frame and hands the JSON value to :meth:`Session.receive`,
which returns the :class:`Action` list the runner must carry out, in order:

- :class:`Send` a message (a response, or a batch of them);
- :class:`StartCall` a tool, a resource read or a prompt (the runner runs it, however
  long it takes);
- :class:`Resume` a parked call with the answer its retry brought (modern era);
- :class:`CancelCall` a call the client gave up on;
- :class:`Answer`: the client answered a question a call asked.

When a started call ends, the runner reports it with :meth:`Session.call_finished`
and gets the actions that answer it. The session keeps the promises:

1. Every request gets exactly one response, unless the client cancels it; a
   notification gets none. A response to a cancelled call is never sent.
2. A request id still in flight cannot be reused: the second request gets -32600.
3. The era is decided per message, by one rule for every transport
   (:func:`~objmcp.protocol.modern.is_modern`): a request is *modern* when it is
   ``server/discover`` or its ``params._meta`` names
   ``io.modelcontextprotocol/protocolVersion`` (and it is not ``initialize``); it is
   then answered from its ``_meta`` alone. Other
   requests belong to the connection's handshake, which starts at ``initialize``.
4. What differs by revision is looked up in :mod:`objmcp.protocol.revisions`.

Where things are
----------------
This module is the state machine: reading messages, the state they change, and what
the server declares. Where a message goes is :mod:`~objmcp.protocol.routing`'s: a
request's method is looked up in one table, :data:`~objmcp.protocol.methods.METHODS`,
each entry naming its handler and the capability it needs (``tools/call`` is looked at
first, before the table: it is the request a server is for). The
concerns around it have modules of their own, of plain functions taking what they
need (and one object the session owns, :class:`~objmcp.protocol.questions.Questions`,
for the questions its calls wait on):

- :mod:`~objmcp.protocol.actions`: the records handed to the runner and taken back;
- :mod:`~objmcp.protocol.calls`: a request in flight, its batch, how it is answered, and
  the session's book of the calls in flight (:class:`~objmcp.protocol.calls.CallBook`);
- :mod:`~objmcp.protocol.starting`: ``tools/call``, and how any call is started;
- :mod:`~objmcp.protocol.midcall`: what a running call does through the session
  (progress, log records, questions, parking);
- :mod:`~objmcp.protocol.answers`: how a call that ended is answered;
- :mod:`~objmcp.protocol.handshake` and :mod:`~objmcp.protocol.modern`: the two eras;
- :mod:`~objmcp.protocol.questions`: what a call asks the client, in both eras;
- :mod:`~objmcp.protocol.parking`: modern-era calls suspended at a question;
- :mod:`~objmcp.protocol.lists`: the list methods and their pages;
- :mod:`~objmcp.protocol.features`: resources, prompts, completion, and what the
  server declares of them;
- :mod:`~objmcp.protocol.extensions`: the MCP extensions the server declares, and
  those a request negotiated;
- :mod:`~objmcp.protocol.tasks.extension` and
  :mod:`~objmcp.protocol.tasks.extension_methods`: 2026-07-28 calls answered as tasks
  (the tasks extension), and ``tasks/get``, ``tasks/update``, ``tasks/cancel``;
- :mod:`~objmcp.protocol.tasks.jobs` and :mod:`~objmcp.protocol.tasks.job_methods`: the opt-in
  jobs, tasks for a client that has none, behind three tools;
- :mod:`~objmcp.protocol.tasks.handoff`: a running call handed over to a task or a job;
- :mod:`~objmcp.protocol.tasks.core`: 2025-11-25's experimental core tasks (a
  ``tools/call`` with ``params.task``, ``tasks/get``, ``tasks/result``, ``tasks/list``,
  ``tasks/cancel``);
- :mod:`~objmcp.protocol.methods`: the method table and its handlers;
- :mod:`~objmcp.protocol.notifications`: what the server tells the client unasked.

The names of those modules the rest of objmcp uses are re-exported here.
"""

from __future__ import annotations

import collections
import logging
import time
from collections.abc import Callable, Collection, Mapping
from typing import Any, Literal

from ..model.calling.caller import Caller
from ..model.calling.toolbox import Changes, Toolbox
from ..model.values.jsontext import ParseFailure
from . import features, handshake, lists, notifications, routing, starting
from . import jsonrpc as rpc
from .actions import (
    Action,
    Answer,
    CacheHint,
    CallContext,
    CancelCall,
    Feature,
    Resume,
    Send,
    ServerInfo,
    StartCall,
    TaskAnswered,
    WaitForJob,
)
from .calls import Batch, Call, CallBook, id_of
from .envelope import Envelope, read_envelope, unreadable
from .extensions import Extensions
from .features import RESOURCE_NOT_FOUND, Declared, check_declare
from .jsonrpc import Message, ProtocolError, RequestId
from .limits import (
    DEFAULT_MAX_CALLS,
    DEFAULT_MAX_DEPTH,
    DEFAULT_MAX_STRING,
    check_limits,
    over_limits,
    text_within_limits,
)
from .lists import check_listing
from .modern import (
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    DEFAULT_HINT,
    LOG_LEVEL_KEY,
    PROTOCOL_VERSION_KEY,
    SERVER_INFO_KEY,
)
from .notifications import LOG_LEVELS
from .parking import Parking
from .questions import Questions
from .revisions import Revision
from .state import StateSeal
from .subscriptions import Subscriptions
from .surfaced import DEFAULT_SURFACED, Surfaced
from .tasks import core as core_tasks
from .tasks import extension_methods as task_methods
from .tasks.extension import TASKS, TaskStore
from .tasks.jobs import JobTools

__all__ = [
    "Action",
    "Answer",
    "CallContext",
    "CacheHint",
    "CancelCall",
    "Feature",
    "Resume",
    "Send",
    "ServerInfo",
    "Session",
    "check_listing",
    "StartCall",
    "TaskAnswered",
    "WaitForJob",
    # re-exported from the modules of the session's concerns, where they are defined
    "CLIENT_CAPABILITIES_KEY",
    "CLIENT_INFO_KEY",
    "DEFAULT_HINT",
    "LOG_LEVEL_KEY",
    "LOG_LEVELS",
    "PROTOCOL_VERSION_KEY",
    "RESOURCE_NOT_FOUND",
    "SERVER_INFO_KEY",
    "check_declare",
]

logger = logging.getLogger("objmcp")

MAX_SEARCHERS = 1000
"""Callers whose searches a session keeps the finds of (search mode), the least recently
searching forgotten first."""


class Session:
    """One client connection's protocol state. Feed it decoded messages; do what it says."""

    def __init__(
        self,
        toolbox: Toolbox,
        info: ServerInfo,
        *,
        seal: StateSeal | None = None,
        clock: Callable[[], float] = time.time,
        state_ttl: float = 600.0,
        max_rounds: int = 16,
        page_size: int | None = None,
        cache: Mapping[str, CacheHint] | None = None,
        declare: Collection[str] = (),
        max_calls: int = DEFAULT_MAX_CALLS,
        max_depth: int = DEFAULT_MAX_DEPTH,
        max_string: int = DEFAULT_MAX_STRING,
        max_parked: int = 64,
        max_surfaced: int = DEFAULT_SURFACED,
        extensions: Extensions | None = None,
        tasks: TaskStore | None = None,
        jobs: JobTools | None = None,
        keeps_tasks: bool = True,
        reachable: Callable[[], bool] | None = None,
    ) -> None:
        check_limits(max_calls=max_calls, max_depth=max_depth, max_string=max_string)
        self.toolbox = toolbox
        self.info = info
        self.questions = Questions(seal or StateSeal(), clock, state_ttl, max_rounds)
        """What the calls ask the client, and the answers they wait for."""
        self.parking = Parking(max_parked)
        """Modern era: the calls suspended at a question, for the retries that answer them."""
        self.max_calls = max_calls
        """Requests that may run at once; more are refused with :data:`~rpc.SERVER_BUSY`."""
        self.max_depth = max_depth
        """Levels of nesting a message may have; deeper ones are refused."""
        self.max_string = max_string
        """Characters a string of a message may have; longer ones are refused."""
        check_listing(page_size)
        self.page_size = page_size
        """Lists longer than this come in pages, with an opaque cursor (None: one page)."""
        self.cache: dict[str, CacheHint] = dict(cache or {})
        """Modern era: the ``ttlMs`` and ``cacheScope`` of each cacheable result."""
        check_declare(declare)
        self.declare = frozenset(declare)
        """Capabilities declared even while nothing is published for them (``resources``,
        ``prompts``): a handshake client keeps what initialize declared."""
        self.extensions: Extensions = dict(extensions or {})
        """The extensions the server declares (checked: :func:`extensions.declared`)."""
        self.clock = clock
        self.tasks = tasks if tasks is not None else TaskStore()
        """The tasks of this session's calls (the 2026-07-28 extension's, and 2025-11-25's),
        and the jobs of its clients with no tasks."""
        self.jobs = jobs
        """The job tools, when jobs are on (:mod:`objmcp.protocol.tasks.jobs`)."""
        self.core = core_tasks.CoreTasks(reachable)
        """2025-11-25: the ``tasks/result`` requests waiting, and the tasks' questions."""
        self.keeps_tasks = keeps_tasks
        """Whether a task outlives its request here (not on stateless HTTP, whose every
        request has a session of its own): 2025-11-25 declares ``tasks`` only then."""
        self.revision: Revision | None = None
        """The handshake revision negotiated by ``initialize``, if any."""
        self.client_capabilities: Mapping[str, Any] = {}
        self.client_name: str | None = None
        """Handshake era: the name the client gave at ``initialize`` (its ``clientInfo``)."""
        self.declared: Mapping[str, Any] = {}
        """Handshake era: the capabilities ``initialize`` declared (the session keeps them)."""
        self.log_level: str | None = None
        """Handshake era: the level ``logging/setLevel`` asked for (None: send no log)."""
        self.calls = CallBook(max_calls)
        """The calls in flight."""
        self.tool_list = lists.ToolList()
        """What ``tools/list`` answers, kept between calls while the tools do not change."""
        self.caller: Caller | None = None
        """Who sent the message being read, when the transport checked credentials."""
        self._vouched = False  # the message being read is within the limits (by its text)
        self.subscriptions = Subscriptions()
        """Who asked to hear of which changes."""
        self.max_surfaced = max_surfaced
        self._surfaced: collections.OrderedDict[str | None, Surfaced] = collections.OrderedDict()

    @property
    def surfaced(self) -> Surfaced:
        """In search mode: the tools the searches of the caller of the message being read
        found, listed after the meta-tools (at most ``max_surfaced``, the least recently
        used dropped). One list a caller: the modern era's requests over HTTP share one
        session, and one caller's searches are not another's."""
        return self.surfaced_for(self.caller_key)

    def surfaced_for(self, caller_key: str | None) -> Surfaced:
        """The tools the searches of the caller ``caller_key`` found (the callers least
        recently searching forgotten beyond :data:`MAX_SEARCHERS`)."""
        found = self._surfaced.get(caller_key)
        if found is None:
            found = self._surfaced[caller_key] = Surfaced(self.max_surfaced)
            while len(self._surfaced) > MAX_SEARCHERS:
                self._surfaced.popitem(last=False)
        self._surfaced.move_to_end(caller_key)
        return found

    @property
    def in_flight(self) -> int:
        """How many calls are running."""
        return len(self.calls)

    # --- input ----------------------------------------------------------------------------

    def assume(self, version: str) -> None:
        """Serve as if ``initialize`` had chosen the handshake revision ``version``, for a
        client that sends none (stateless HTTP); raises ValueError for an unknown one."""
        revision = handshake.assumed(version)
        self.revision = revision
        self.declared = self.capabilities(revision)

    def receive(
        self,
        message: object,
        caller: Caller | None = None,
        *,
        source: bytes | None = None,
    ) -> list[Action]:
        """Take one decoded JSON-RPC message (or batch) and say what to do.

        ``caller`` is who sent it, the :class:`~objmcp.Caller` its credentials name, when
        the transport checked them: its calls are handed it, ``tools/list`` shows it only
        the tools its scopes reach, and its :attr:`~objmcp.Caller.key` keeps its things
        apart (a modern-era request state is good for that caller only; tasks, parked
        calls and search finds are its own). ``source`` is the JSON text it was decoded
        from, when the transport has it: it spares walking the message for ``max_depth``
        and ``max_string`` when it vouches for them (see ``text_within_limits``)."""
        self.caller = caller
        self._vouched = source is not None and text_within_limits(
            source, self.max_depth, self.max_string
        )
        try:
            if isinstance(message, list):
                return self._receive_batch(message)
            actions: list[Action] = []
            response = self._receive_one(message, actions, None)
            if response is not None:
                actions.append(Send(response, id_of(response)))
            return actions
        finally:
            self.caller = None
            self._vouched = False

    def parse_error(self, detail: str) -> list[Action]:
        """The answer to a frame that is not JSON: -32700 with id null."""
        return [Send(rpc.error_response(None, rpc.PARSE_ERROR, f"Parse error: {detail}"))]

    def unreadable(self, failure: ParseFailure) -> list[Action]:
        """The answer to a frame that could not be read: -32700 with id null, or -32602
        to a request with a number out of a float's range (``1e400``)."""
        response = unreadable(failure)
        return [Send(response, id_of(response))]

    def changed(self, changes: Changes) -> list[Action]:
        """What was published changed: the ``list_changed`` notifications due."""
        return notifications.list_changed(self.subscriptions, changes, self.declared)

    def resource_updated(self, uri: str) -> list[Action]:
        """The resource ``uri`` changed: the notifications its subscribers are due."""
        return notifications.resource_updated(self.subscriptions, uri)

    def close(self) -> list[Action]:
        """The server stops serving this connection: end the open listen streams
        gracefully (their result, then ``notifications/cancelled`` as stdio asks)."""
        return notifications.closing(self.subscriptions, self.info, self.cache)

    # --- messages -------------------------------------------------------------------------

    def _receive_batch(self, batch: list[object]) -> list[Action]:
        if not batch:
            message = "Invalid Request: an empty batch"
            return [Send(rpc.error_response(None, rpc.INVALID_REQUEST, message))]
        refused = handshake.batch_refusal(self.revision)
        if refused is not None:
            return [Send(rpc.error_response(None, rpc.INVALID_REQUEST, refused))]
        group = Batch()
        actions: list[Action] = []
        for item in batch:
            response = self._receive_one(item, actions, group)
            if response is not None:
                group.responses.append(response)
        group.open = False
        return [*actions, *group.finish()]

    def _receive_one(
        self, message: object, actions: list[Action], batch: Batch | None
    ) -> Message | None:
        """Handle one message; return its immediate response, or None (notification, call)."""
        too_large = None
        if not self._vouched and isinstance(message, dict):
            too_large = over_limits(message, self.max_depth, self.max_string)
        found = read_envelope(message, too_large)
        if not isinstance(found, Envelope):
            return found  # refused, or dropped
        if found.kind == "response":
            answer = self.questions.answered(found.message)
            if answer is not None:
                actions.append(answer)
                if self.core.asks:
                    actions.extend(core_tasks.answered(self, answer.ask_id))
            return None
        assert found.params is not None
        if found.kind == "notification":
            routing.notification(self, found.method, found.params, actions)
            return None
        request_id = found.request_id
        if (
            self.calls.waits(request_id)
            or request_id in self.subscriptions.listens
            or request_id in self.core.waiting
        ):
            return rpc.error_response(
                request_id,
                rpc.INVALID_REQUEST,
                f"Invalid Request: id {request_id!r} is already in use by a request in flight",
            )
        try:
            return routing.request(self, request_id, found.method, found.params, actions, batch)
        except ProtocolError as error:
            return error.response(request_id)

    def _end(self, call_id: int) -> Call | None:
        """Forget a call that ended (and its questions); None when it was cancelled."""
        call = self.calls.end(call_id)
        questions = self.questions
        if questions.asks:
            questions.forget(call_id)
        return call

    @property
    def caller_key(self) -> str | None:
        """The :attr:`~objmcp.Caller.key` of the caller of the message being read (None:
        one client only, as on stdio): what a task, a park or a sealed state is bound to."""
        return self.caller.key if self.caller is not None else None

    def end_call(self, call_id: int) -> Call | None:
        """Forget the call ``call_id`` (and its questions): its end answers nothing. The
        call, or None when it was forgotten already."""
        return self._end(call_id)

    def hold(self, call: Call) -> int:
        """Take ``call`` in as a request in flight that the session answers later itself
        (a ``job_result`` waiting for its job); its call id."""
        self.calls.check_room("ask for the job's result again when one has been answered")
        call.caller_key = self.caller_key
        return self.calls.add(call)

    def declares(self, revision: Revision, gate: Declared) -> bool:
        """Whether the server declared what a request that needs ``gate`` needs."""
        # A handshake client keeps what initialize declared; a modern one asks each time.
        has = self.declared if revision.era == "handshake" else self.capabilities(revision)
        return features.declares(has, gate)

    def capabilities(self, revision: Revision) -> dict[str, Any]:
        extensions = self.extensions_of(revision)
        found = features.server_capabilities(self.toolbox, self.declare, revision, extensions)
        if revision.core_tasks and self.keeps_tasks:
            found["tasks"] = core_tasks.capability()
        return found

    def has_core_tasks(self, revision: Revision) -> bool:
        """Whether a request of ``revision`` has 2025-11-25's core tasks: the revision has
        them and the server declared them at ``initialize``."""
        return revision.core_tasks and "tasks" in self.declared

    def is_core(self, call: Call) -> bool:
        """Whether ``call`` runs as a 2025-11-25 core task (not as the extension's task,
        whatever its revision)."""
        task = self.tasks.by_id(call.task) if call.task is not None else None
        return task is not None and task.core

    def make_core_task(self, request_id: RequestId) -> list[Action]:
        """2025-11-25: answer the call just started for ``request_id`` with the task it
        runs as (``CreateTaskResult``); its end is kept in the task."""
        call_id = self.calls.let_go(request_id)
        assert call_id is not None
        call = self.calls.get(call_id)
        assert call is not None
        made = core_tasks.create(self, call, call_id)
        assert made is not None, "check_room made room for it"
        return made[0]

    def owned_tasks(
        self, revision: Revision, capabilities: Mapping[str, Any], requested: object
    ) -> Callable[[str], bool] | None:
        """Which task ids the caller of a ``subscriptions/listen`` may hear of (None: no
        tasks in ``revision``); -32021 when its filter ``requested`` names tasks and the
        request did not declare the extension."""
        extensions = self.extensions_of(revision)
        return task_methods.owned(self, revision, capabilities, requested, extensions)

    def extensions_of(self, revision: Revision) -> Extensions:
        """The extensions the server declares in ``revision``: objmcp's own only where the
        revision defines them (the tasks extension in 2026-07-28)."""
        if not revision.extensions:
            return {}
        if revision.tasks_extension or TASKS not in self.extensions:
            return self.extensions
        return {name: value for name, value in self.extensions.items() if name != TASKS}

    def start(
        self,
        call: Call,
        kind: Literal["tool", "resource", "prompt"],
        target: str,
        arguments: object,
        params: dict[str, Any],
        actions: list[Action],
    ) -> None:
        """Start ``call`` (:func:`~objmcp.protocol.starting.start`)."""
        starting.start(self, call, kind, target, arguments, params, actions)
