"""The port of ``objmcp run --http``: read as a number a port can be, and found free
before anything says it is served there."""

from __future__ import annotations

import argparse
import socket
import sys

from .._exceptions import TargetError

__all__ = ["check_free", "port"]

_HIGHEST = 65535


def port(text: str) -> int:
    """``--port``: a whole number from 1 to 65535 (an argparse type)."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: give 1 to {_HIGHEST}") from None
    if not 1 <= number <= _HIGHEST:
        raise argparse.ArgumentTypeError(f"{number} is not a port: give 1 to {_HIGHEST}")
    return number


def check_free(host: str, number: int) -> None:
    """Raise :class:`TargetError` if ``host:number`` cannot be bound now (a port in use, an
    address not this machine's), binding it as uvicorn will, then letting it go."""
    try:
        found = socket.getaddrinfo(host, number, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as error:
        raise TargetError(f"--host {host}: not an address to serve at ({error})") from None
    family, kind, protocol, _, address = found[0]
    with socket.socket(family, kind, protocol) as probe:
        if sys.platform != "win32":  # as uvicorn: a port just left in TIME_WAIT is free
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            raise TargetError(
                f"cannot serve at {host}:{number}: {error.strerror or error}; is another "
                "server there? Stop it, or choose another --port"
            ) from None
