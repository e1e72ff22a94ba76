"""Calling: the tools and the toolbox that runs them.

``tool`` (one published callable, with ``binding`` for its arguments and ``toolschema`` for
its schemas), ``toolbox`` (the object model's front, with ``catalog``, what it publishes,
``toolcalls``, a tool called, ``reading``, a resource read or a prompt got, ``owned``, the
object of a session or caller a call runs on, ``closing`` and ``madeby``), ``pipeline`` (the
one way a call is run), ``outcome`` (a call's outcome made a result), ``threads`` (where sync
tools run), ``hooks`` (before, after, on error), ``per`` (an object per session or caller),
``inject`` and ``injecting`` (parameters objmcp fills in), ``caller`` (who is calling) and
``headers`` (parameters mirrored into request headers).
"""
