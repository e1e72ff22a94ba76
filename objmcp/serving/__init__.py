"""Serving: the session run over a transport, and the calls it starts run for real.

``connection`` (the runner: one client's session, its calls and their answers, on
anyio), ``settings`` (the frozen options a connection runs by, and the hub of the
connections served), ``execute`` (how a call of any kind is run and ended, for every
runner), ``running`` (a call in flight and what it is handed), ``logs`` (the served
object's log records, sent to the client of the call that logged them),
``byte_stream`` (a connection over a pair of byte streams: stdio's read and write
loops), ``reader`` (stdio's fast lane: quick calls answered on the reading thread),
``writer`` (the fast lane's output, written by whichever thread finds it idle),
``asgi`` (the Streamable HTTP application: its routing and its answers),
``http_checks`` (what a request must show first: host, origin, token, headers),
``http_sessions`` (the handshake era's sessions over HTTP) and ``streams`` (the SSE
streams).

It may import the protocol, the object model, the transport and
``objmcp._exceptions``; never the server or the command line above it, which hand
it what it needs: :class:`~objmcp.serving.settings.Settings` (and, for the ASGI app,
the :class:`~objmcp.serving.asgi.Host` interface).
"""
