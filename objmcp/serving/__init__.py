"""Serving: the session run over a transport, and the calls it starts run for real.

``connection`` (one client's session, its calls and their answers, on anyio; and
the :class:`~objmcp.serving.connection.Host` interface a connection needs of its
server), ``running`` (a call in flight and what it is handed), ``reader`` (stdio's
fast lane: quick calls answered on the reading thread), ``asgi`` (the Streamable
HTTP application) and ``streams`` (its SSE streams).

It may import the protocol, the object model, the transport and
``objmcp._exceptions``; never the server or the command line above it, which hand
it what it needs through ``Host``.
"""
