"""The object model: what a Python object offers, as tools, resources and prompts.

In folders, by what each part does: ``finding`` (what a target publishes, and what it
withholds as dangerous), ``describe`` (signatures, docs, types, schemas), ``values`` (JSON
arguments in, results out), ``calling`` (the tools, the :class:`~objmcp.Toolbox` that runs
them, hooks, threads, per-caller objects), ``asking`` (questions to the client mid-call)
and ``discovery`` (a whole library behind meta-tools, and its search).

It may import only itself and ``objmcp._exceptions``: no protocol, no transport,
no I/O. It stands on its own (``objmcp.Toolbox`` serves any LLM API), and could
serve another protocol unchanged.
"""
