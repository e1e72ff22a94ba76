"""``--allow-net HOST:PORT``: the one way out of the box's empty network, for each address
allowed.

The box has a network namespace of its own, loopback only. For each allowed address,
objmcp outside the box listens on a Unix socket in a folder bound into the box
(:data:`NET_FOLDER`) and, for each connection, connects to HOST:PORT and copies both ways
(:func:`forward_outside`); inside, the boxed server listens on a loopback address of the
box's own at PORT and hands each connection to that Unix socket (:func:`forward_inside`).
The box's ``/etc/hosts`` names HOST at that loopback address (``127.0.0.1`` is itself), so
the code connects to HOST:PORT as it would: nothing else is reachable.
"""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import os
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["NET_FOLDER", "Allowed", "allowed", "forward_inside", "forward_outside", "hosts_file"]

NET_FOLDER = "/run/objmcp-net"
"""Where the box sees the Unix sockets of the addresses it may reach."""

_CHUNK = 65536


@dataclass(frozen=True)
class Allowed:
    """An address the box may reach: ``host``:``port``, which the box names at ``inside``
    (a loopback address of its own), through the Unix socket ``number``."""

    host: str
    port: int
    inside: str
    number: int

    @property
    def socket_name(self) -> str:
        """The Unix socket's file name in :data:`NET_FOLDER`."""
        return f"{self.number}.sock"


def allowed(addresses: list[str]) -> list[Allowed]:
    """The ``--allow-net`` addresses (``HOST:PORT``), each given its loopback address in
    the box; ValueError for one that is not HOST:PORT, or names an address that is
    neither a name nor loopback's."""
    found: list[Allowed] = []
    for number, address in enumerate(addresses):
        host, colon, port = address.rpartition(":")
        if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"--allow-net {address}: give HOST:PORT (example.org:443)")
        host = host.strip("[]")
        inside = "127.0.0.1" if host == "localhost" else f"127.0.1.{number + 1}"
        try:
            literal = ipaddress.ip_address(host)
        except ValueError:
            literal = None  # a name
        if literal is not None and not literal.is_loopback:
            raise ValueError(
                f"--allow-net {address}: give the host by its name (or 127.0.0.1): the "
                "box reaches an address only through the name it gives it"
            )
        if literal is not None:
            inside = host
        found.append(Allowed(host, int(port), inside, number))
    return found


def hosts_file(allowed: list[Allowed]) -> str:
    """The box's ``/etc/hosts``: localhost, and each allowed host at its address."""
    lines = ["127.0.0.1 localhost", "::1 localhost"]
    lines += [f"{a.inside} {a.host}" for a in allowed if a.host not in ("localhost", a.inside)]
    return "\n".join(lines) + "\n"


def forward_outside(folder: str, allowed: list[Allowed]) -> list[socket.socket]:
    """Outside the box: listen on each allowed address's Unix socket in ``folder`` and
    carry each connection to its HOST:PORT (daemon threads); the listening sockets."""
    listening = []
    for address in allowed:
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(os.path.join(folder, address.socket_name))
        server.listen(16)
        listening.append(server)
        target = (address.host, address.port)
        connect = functools.partial(socket.create_connection, target, 30)
        threading.Thread(target=_accept, args=(server, connect), daemon=True).start()
    return listening


def forward_inside(allowed: list[Allowed]) -> list[socket.socket]:
    """In the box: listen on each allowed address's loopback address and PORT, and carry
    each connection to its Unix socket (daemon threads); the listening sockets."""
    listening = []
    for address in allowed:
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((address.inside, address.port))
        server.listen(16)
        listening.append(server)
        path = os.path.join(NET_FOLDER, address.socket_name)
        connect = functools.partial(_unix, path)
        threading.Thread(target=_accept, args=(server, connect), daemon=True).start()
    return listening


def _unix(path: str) -> socket.socket:
    connected = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connected.connect(path)
    return connected


def _accept(server: socket.socket, connect: Callable[[], socket.socket]) -> None:
    while True:
        try:
            client, _ = server.accept()
        except OSError:
            return  # closed
        threading.Thread(target=_carry, args=(client, connect), daemon=True).start()


def _carry(client: socket.socket, connect: Callable[[], socket.socket]) -> None:
    try:
        other = connect()
    except OSError:
        client.close()
        return
    other.settimeout(None)
    threading.Thread(target=_pump, args=(other, client), daemon=True).start()
    _pump(client, other)


def _pump(source: socket.socket, sink: socket.socket) -> None:
    """Copy ``source`` to ``sink`` until it ends, then end ``sink``'s writing."""
    try:
        while chunk := source.recv(_CHUNK):
            sink.sendall(chunk)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)
