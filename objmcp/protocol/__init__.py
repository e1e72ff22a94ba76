"""The protocol: MCP as a sans-IO session, messages in and actions out.

``session`` is the state machine: it reads messages, keeps the calls in flight and hands
each method to its handler through one table, ``methods`` (each entry with the capability
gate it passes). Around it, one concern a module: ``actions`` (the records it hands the I/O
layer, and takes back), ``calls`` (a request in flight, its batch, its answer),
``handshake`` and ``modern`` (the two eras: ``initialize`` first, or the revision named in
each request's ``_meta``), ``questions`` (what a call asks the client, in both eras),
``parking`` (modern-era calls suspended at a question until the retry that answers it),
``lists`` (the list methods and their pages), ``features`` (resources, prompts and
completion, and what the server declares), ``extensions`` (the MCP extensions the server
declares, and those a request negotiated) and ``notifications`` (what the server tells the
client unasked); ``tasks/`` holds the calls that outlive their request (the tasks extension,
the 2025-11-25 core tasks, jobs, and what ended tasks keep). Beneath them: ``envelope``
(what kind one JSON-RPC message is), ``jsonrpc`` (ids, errors, and the HTTP status an error
carries), ``revisions`` (every revision and what differs between them, in one table),
``state`` (the modern era's sealed request states), ``subscriptions`` (who listens for what)
and ``limits`` (what one message may hold).

It may import itself, the object model and ``objmcp._exceptions``; never the
transport, the serving layer or anyio. No I/O, no clock of its own: tests drive it
with plain lists of messages.
"""
