"""Run a command as a stdio MCP server, and keep a copy of everything sent to it.

``python record.py LOG COMMAND [ARG ...]`` starts COMMAND with its stdout and stderr this
process's own, and copies every byte read on stdin both to COMMAND's stdin and to the file LOG,
unchanged, as it arrives; at the end of stdin it closes COMMAND's and exits with its status.
``tests/peers/test_client_inspector.py`` puts it between the MCP Inspector and ``objmcp run`` to see
the arguments the Inspector makes of its ``--tool-arg`` values.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys


def main() -> int:
    log_path, *command = sys.argv[1:]
    server = subprocess.Popen(command, stdin=subprocess.PIPE)
    assert server.stdin is not None
    # BrokenPipeError: the server is gone, and its exit status says why
    with open(log_path, "wb") as log, contextlib.suppress(BrokenPipeError):
        while chunk := os.read(sys.stdin.fileno(), 65536):
            log.write(chunk)
            log.flush()
            server.stdin.write(chunk)
            server.stdin.flush()
    with contextlib.suppress(BrokenPipeError):
        server.stdin.close()
    return server.wait()


if __name__ == "__main__":
    sys.exit(main())
