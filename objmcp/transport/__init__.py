"""The transport: bytes in and out, with nothing of MCP in them.

``framing`` (newline and Content-Length frames, and deciding between them),
``stdio`` (the process's descriptors, stdout guarded for the protocol) and ``forks``
(the protocol's descriptors kept from a child a tool forks).

It may import only itself and ``objmcp._exceptions``: it moves bytes and knows
neither messages' meaning nor tools.
"""
