"""What a target publishes, and what it withholds.

``introspect`` and ``collect`` (the callables an object offers, made tools, resources and
prompts), ``publish`` (``@objmcp.tool`` and its kin), ``makers`` (classes served as tools
that make one), ``resources`` with ``uritemplates``, ``prompts``; and what is dangerous to
hand a model: ``danger``, ``effects`` (the table of effects), ``codereading`` and
``bytecode`` (what a callable's own code does).
"""
