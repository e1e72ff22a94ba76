"""The object model: what a Python object offers, as tools, resources and prompts.

It holds introspection (``introspect``, ``hints``, and ``makers`` for the classes a
module serves as tools that make one), schemas from type hints and
docstrings (``schema``, and ``paramtypes`` for what untyped code says otherwise),
JSON in and out of Python values (``convert``, ``shapes``, ``validate``,
``quickcheck``, ``jsontext``, ``jsoncount``), what a call returns (``content``,
``media``), what a method may be handed (``inject``, ``elicit``, ``sampling``), how
members are published (``publish``, ``tool``, ``resources``, ``prompts``), and the
:class:`~objmcp.Toolbox` that finds them (``collect``, withholding what ``danger``
knows to be dangerous) and calls them (``toolbox``, ``outcome``, ``threads``), with
its definitions for LLM APIs (``specs``).

It may import only itself and ``objmcp._exceptions``: no protocol, no transport,
no I/O. It stands on its own (``objmcp.Toolbox`` serves any LLM API), and could
serve another protocol unchanged.
"""
