"""Serving: the session run over a transport, and the calls it starts run for real.

- **A connection's calls**: ``runner`` (one client's session, its calls and their answers,
  on anyio), ``pending`` (the questions a call waits on), ``running`` (a call in flight and
  what it is handed), ``execute`` (how a call of any kind is run and ended), ``settings``
  (the frozen options a connection runs by, and the hub of the connections served),
  ``logs`` (the served object's log records, sent to the client of the call that logged
  them), ``tracing`` (the spans), ``signals``.
- **stdio**: ``byte_stream`` (a connection over a pair of byte streams: stdio's read and
  write loops), ``reader`` (stdio's fast lane: quick calls answered on the reading
  thread), ``writer`` (the fast lane's output, written by whichever thread finds it idle).
- **HTTP**: ``asgi`` (the Streamable HTTP application: its routing and its answers), the
  ``http_*`` modules (what a request must show first, its options, params, replies,
  scopes and the handshake era's sessions), ``jwt_check`` and ``jwks`` (bearer tokens),
  ``streams`` (the SSE streams).
- **Tasks across processes**: ``shared_tasks``, ``task_sharing``, ``core_sharing``,
  ``task_queue``, ``queueing`` and ``queue_worker`` (Redis, and the queue of calls).
- **The box**: ``bwrap``, ``box``, ``box_net``, ``boxed_child`` and ``boxed_front``
  (``--sandbox``); ``option_fields`` (the option records' fields and their flags).

It may import the protocol, the object model, the transport and
``objmcp._exceptions``; never the server or the command line above it, which hand
it what it needs: :class:`~objmcp.serving.settings.Settings` (and, for the ASGI app,
the :class:`~objmcp.serving.asgi.Host` interface).
"""
