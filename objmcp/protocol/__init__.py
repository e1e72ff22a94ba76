"""The protocol: MCP as a sans-IO session, messages in and actions out.

``jsonrpc`` (ids, errors), ``revisions`` (every revision and what differs between
them, in one table), ``session`` (the session itself: both eras, lists, resources,
prompts, questions to the client), ``state`` (the modern era's sealed request
states), ``subscriptions`` (who listens for what) and ``limits`` (what one message
may hold).

It may import itself, the object model and ``objmcp._exceptions``; never the
transport, the serving layer or anyio. No I/O, no clock of its own: tests drive it
with plain lists of messages.
"""
