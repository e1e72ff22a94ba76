"""The transport: bytes in and out, with nothing of MCP in them.

``framing`` (newline and Content-Length frames, and deciding between them) and
``stdio`` (the process's descriptors, stdout guarded for the protocol).

It may import only itself and ``objmcp._exceptions``: it moves bytes and knows
neither messages' meaning nor tools.
"""
