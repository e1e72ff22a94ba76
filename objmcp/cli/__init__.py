"""The command line: ``objmcp run | inspect | call | config | dev | bundle``.

``main`` (the parser and the verbs), ``targets`` (``path.py:Name`` to an object),
``listing`` (``inspect``'s table), ``client`` (``call``: a real server process
spoken to over MCP), ``ask`` (a question put to the user on the terminal),
``clientconfig`` (``config``: the entries clients read), ``reload`` (``dev``:
restarting on change), ``bundle`` (``bundle``: an MCP Bundle for Claude Desktop),
``serverjson`` (``bundle --server-json``: the MCP registry's ``server.json``) and
``wording`` (counts and "did you mean").

It may import everything of objmcp but ``__main__``; nothing imports it but
``__main__`` (``import objmcp`` never loads it).
"""
