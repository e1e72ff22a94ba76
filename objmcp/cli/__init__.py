"""The command line: ``objmcp run | worker | inspect | call | config | dev | bundle``.

``main`` (the verbs' handlers) and ``parser`` (the parser), with ``flags``,
``arguments``, ``config_file`` (``--config FILE``), ``http_limits`` and ``http_port``
(the options and how they are read), ``serve`` (``run``, on stdio or HTTP, and
``worker``), ``sandbox`` (``--sandbox``: the boxed command), ``targets``
(``path.py:Name`` to an object), ``listing`` (``inspect``'s table), ``client`` (``call``:
a real server process spoken to over MCP), ``ask`` (a question put to the user on the
terminal), ``clientconfig`` (``config``: the entries clients read), ``reload`` (``dev``:
restarting on change), ``bundle`` (``bundle``: an MCP Bundle for Claude Desktop),
``serverjson`` (``bundle --server-json``: the MCP registry's ``server.json``),
``ctrl_c``, ``logform`` (stderr's lines) and ``wording`` (counts and "did you mean").

It may import everything of objmcp but ``__main__``; nothing imports it but
``__main__`` (``import objmcp`` never loads it).
"""
