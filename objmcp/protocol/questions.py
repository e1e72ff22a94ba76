"""The questions a running call puts to the client, and their answers, in both eras.

A tool may stop to ask the client something: the user (``elicitation/create``),
the client's model (``sampling/createMessage``) or its roots (``roots/list``).
:meth:`Questions.refusal` says first whether it may: whether the call's revision has the
feature and the client declared it.

Handshake era: the connection stays open, so the server sends the client a
request of its own and waits. :meth:`Questions.ask` gives it an id of ours
(``objmcp-1``, ...) and remembers which call asked; the client's response comes
back through the session's ``receive`` as an :class:`~objmcp.protocol.actions.Answer`
(:meth:`Questions.answered`), and a response to no question of ours, or to one of
a call that has ended, is dropped.

Modern era: there is no way back to the client but the answer to its request. A
call that asks is answered ``input_required``, with its questions (one or several,
each under its key: ``q0``, ``q1``... or the name the method gave it) and a request
state sealed by the server (:meth:`Questions.input_required`); the client sends
the request again with its answers and the state, and the call runs again with the
answers so far, by key (:meth:`Questions.retry`), up to ``max_rounds`` rounds, or
resumes where it waited when the runner parked it. The state
is bound to the tool, the arguments and the caller, and it expires: a state made
for another call, another caller or an earlier time is refused (-32602); a retry that
lacks an answer runs the method again, which asks again for what is missing, and
answers with no state are ignored (the "mrtr" error handling). See
:mod:`objmcp.protocol.state` for the seal.

The session owns one :class:`Questions` and hands it the call a question is
about; the calls themselves stay the session's.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from typing import Any

from . import jsonrpc as rpc
from .actions import Action, Answer, Feature, Send, ServerInfo
from .calls import Call
from .jsonrpc import Message, ProtocolError, RequestId
from .modern import SERVER_INFO_KEY
from .revisions import Revision
from .state import RequestState, StateError, StateSeal

__all__ = ["REQUIRED", "Questions", "missing_capability"]

REQUIRED: dict[str, dict[str, Any]] = {
    "elicitation": {"elicitation": {"form": {}}},
    "elicitation.url": {"elicitation": {"url": {}}},
    "sampling": {"sampling": {}},
    "roots": {"roots": {}},
}
"""The client capabilities each kind of question needs, as ``requiredCapabilities``
says them."""


def missing_capability(feature: str, reason: str) -> ProtocolError:
    """The -32021 error for a request whose client lacks what ``feature`` needs."""
    return rpc.missing_capability(REQUIRED[feature], reason)


logger = logging.getLogger("objmcp")


class Questions:
    """The questions of one connection's calls: those awaited (handshake era), and the
    sealed rounds of ``input_required`` (modern era)."""

    def __init__(
        self, seal: StateSeal, clock: Callable[[], float], state_ttl: float, max_rounds: int
    ) -> None:
        self.seal = seal
        self.clock = clock
        self.state_ttl = state_ttl
        """Seconds a call's sealed state is good for, from its first question (modern era)."""
        self.max_rounds = max_rounds
        """Rounds of questions one call may ask (modern era); a retry of a later round is
        refused."""
        self.asks: dict[str, int] = {}
        """Handshake era: our requests to the client awaiting an answer -> the call that
        asked."""
        self._ids = itertools.count(1)

    @staticmethod
    def refusal(call: Call | None, feature: Feature) -> str | None:
        """Why ``call`` (None: a call that is over) cannot ask the client for ``feature``
        now, or None when it can: ``"elicitation"`` (a form), ``"elicitation.url"``,
        ``"sampling"`` or ``"roots"``."""
        if call is None:
            return "The call is over: there is nobody to ask"
        revision, capabilities = call.revision, call.capabilities
        if feature in ("elicitation", "elicitation.url"):
            kind = "URL elicitation" if feature == "elicitation.url" else "elicitation"
            since = "2025-11-25" if feature == "elicitation.url" else "2025-06-18"
            has = revision.url_elicitation if feature == "elicitation.url" else revision.elicitation
            if not has:
                return (
                    f"The client does not support {kind}: revision {revision.version} "
                    f"has none (it came in {since})"
                )
            declared = capabilities.get("elicitation")
            modes = declared if isinstance(declared, dict) else None
            if feature == "elicitation.url":
                able = modes is not None and isinstance(modes.get("url"), dict)
            else:  # an empty object stands for form mode, as it did before modes
                able = modes is not None and (not modes or isinstance(modes.get("form"), dict))
            if not able:
                return f"The client does not support {kind} (it did not declare the capability)"
            return None
        if not isinstance(capabilities.get(feature), dict):
            return f"The client does not support {feature} (it did not declare the capability)"
        return None

    @staticmethod
    def missing(call: Call | None, feature: Feature) -> ProtocolError | None:
        """Modern era: the -32021 error a call that asks for ``feature`` gets when its
        client did not declare the capability (None otherwise: the handshake era answers
        with an error result, as :meth:`refusal` says)."""
        if call is None or call.revision.era != "modern":
            return None
        reason = Questions.refusal(call, feature)
        if reason is None:
            return None
        return missing_capability(feature, reason)

    @staticmethod
    def elicitation_complete(revision: Revision | None, elicitation_id: str) -> list[Action]:
        """A URL question's out-of-band step is done: the notification that tells the
        client, in the revision that has ``notifications/elicitation/complete``."""
        if revision is None or not revision.elicitation_ids:
            return []
        method = "notifications/elicitation/complete"
        params = {"elicitationId": elicitation_id}
        return [Send({"jsonrpc": "2.0", "method": method, "params": params})]

    def ask(
        self, call_id: int, related: RequestId | None, method: str, params: dict[str, Any]
    ) -> tuple[list[Action], str]:
        """The request to send the client on behalf of the call ``call_id`` (whose
        request is ``related``, None when it is over), and its id."""
        ask_id = f"objmcp-{next(self._ids)}"
        self.asks[ask_id] = call_id
        request = {"jsonrpc": "2.0", "id": ask_id, "method": method, "params": params}
        return [Send(request, related)], ask_id

    def answered(self, message: dict[str, Any]) -> Answer | None:
        """The client's response ``message``, as the :class:`Answer` to one of our
        questions; None when it answers none still awaited (it is dropped)."""
        ask_id = message.get("id")
        if not isinstance(ask_id, str) or ask_id not in self.asks:
            logger.debug("ignoring a response to no question of ours: id %r", ask_id)
            return None
        del self.asks[ask_id]
        result, error = message.get("result"), message.get("error")
        if isinstance(result, dict):
            return Answer(ask_id, result, None)
        said = error if isinstance(error, dict) else {"message": f"a malformed answer: {error!r}"}
        return Answer(ask_id, None, said)

    def forget(self, call_id: int) -> None:
        """A call that ended waits for no answer: late ones are ignored."""
        for ask_id in [a for a, asker in self.asks.items() if asker == call_id]:
            del self.asks[ask_id]

    def retry(self, tool: str, arguments: object, params: dict[str, Any]) -> RequestState | None:
        """Modern era: what a retried call brings: its state's answers and the new ones (to
        the keys the state asked; any other response is ignored), the state's expiry and
        rounds, and where the call waits (None: the request is no retry, and
        ``inputResponses`` with no ``requestState`` are ignored). A retry whose state is
        good but lacks an answer brings the answers so far, and no park: the method runs
        again and asks for what is missing."""
        if "requestState" not in params:
            return None  # inputResponses alone answer nothing of ours: the call starts afresh
        try:
            state = self.seal.open(params.get("requestState"), tool, arguments, self.clock())
        except StateError as error:
            raise ProtocolError(rpc.INVALID_PARAMS, f"Invalid params: {error}") from None
        if state.rounds > self.max_rounds:
            raise ProtocolError(
                rpc.INVALID_PARAMS, f"Invalid params: more than {self.max_rounds} rounds of input"
            )
        given = params.get("inputResponses")
        responses = given if isinstance(given, dict) else {}
        answers = dict(state.answers)
        for key in state.asked:
            if isinstance(responses.get(key), dict):
                answers[key] = responses[key]
        # an answer missing: the method runs again with the answers so far, and asks for
        # the rest (a parked call is not resumed)
        whole = all(key in answers for key in state.asked)
        park = state.park if whole else None
        return RequestState(
            tool, state.digest, answers, state.expires, park, (), state.rounds, state.kept
        )

    def input_required(
        self,
        call: Call,
        requests: dict[str, dict[str, Any]],
        park: str | None,
        info: ServerInfo,
        kept: bytes | None = None,
    ) -> Message:
        """Modern era: the response of ``call`` that stopped to ask: ``input_required``,
        with the questions (``inputRequests``: key -> ``{"method", "params"}``) and a sealed
        state for the client to send back with its answers (``park`` names where the
        suspended call waits for them, when it does; ``kept`` is what the call left for
        its retry)."""
        expires = call.expires if call.expires is not None else self.clock() + self.state_ttl
        asked = tuple(requests)
        state = RequestState(
            call.tool, call.digest, call.answers, expires, park, asked, call.rounds + 1, kept
        )
        result: dict[str, Any] = {
            "resultType": "input_required",
            "inputRequests": requests,
            "requestState": self.seal.seal(state),
            "_meta": {SERVER_INFO_KEY: info.implementation(call.revision)},
        }
        return rpc.result_response(call.request_id, result)
