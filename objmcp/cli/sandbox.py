"""``--sandbox`` on the command line: the served code in a box made by bubblewrap
(:mod:`objmcp.serving.bwrap`).

On stdio the whole server runs in the box (objmcp keeps no secret there: the box's
environment is emptied, a state key made up inside): :func:`boxed_command` is the ``bwrap``
command line that runs ``objmcp run TARGET`` again, inside. Over HTTP (and in a queue's
worker) objmcp's secrets stay in the process outside, which serves the tools of boxed
children (:func:`boxed_front`).
"""

from __future__ import annotations

import argparse
import shutil
import socket
import sys
from pathlib import Path

from .._options import Sandbox
from ..model.finding.publish import ToolOptions
from ..serving.bwrap import BoxedRun, box_command

__all__ = ["FRONT_LEAVES", "boxed_command", "boxed_front", "sandbox_of"]


def sandbox_of(options: argparse.Namespace) -> Sandbox:
    """The box the command line's ``--readable``, ``--writable``, ``--allow-net`` and
    ``--box-memory`` describe."""
    return Sandbox(
        readable=options.readable or (),
        writable=options.writable or (),
        allow_net=options.allow_net or (),
        memory=options.box_memory,
    )


def boxed_command(
    options: argparse.Namespace, target: str, serving: list[str], *, fronted: bool = False
) -> BoxedRun:
    """The ``bwrap`` command that serves ``target`` (``serving``: its ``objmcp run``
    options) in the box ``options`` describe (``fronted``: to a front over a pipe)."""
    folder = _target_folder(target)
    served = target if folder is None else _absolute_target(target)
    program = [sys.executable, "-m", "objmcp", "run", *serving, served]
    return box_command(sandbox_of(options), program, folder, fronted=fronted)


FRONT_LEAVES = ("tasks.", "telemetry.", "objects.", "discovery.")
"""The options the front keeps to itself, never given to its boxed children: tasks (the
store's address), traces, whose object a call runs on (the front's children are its
objects) and search (over the children's tools)."""


def boxed_front(
    options: argparse.Namespace, per: str, name: str
) -> tuple[object, dict[str, ToolOptions]]:
    """The target of the server in front of TARGET's boxed children, and its tools'
    options (:func:`objmcp.serving.boxed_front.front_target`): the children are served
    TARGET by ``objmcp run`` in the box ``options`` describe."""
    import atexit

    from .. import __version__
    from ..serving.box_net import forward_outside
    from ..serving.boxed_front import front_target
    from .flags import serving_pairs

    serving = [
        word
        for dest, words in serving_pairs(options)
        if not dest.startswith(FRONT_LEAVES)
        for word in words
    ]
    if per != "shared":  # each child is one session's or one caller's object
        serving += ["--per", "session"]
    run = boxed_command(options, options.target, [*serving, "--for-call"], fronted=True)
    if run.net_folder is not None:
        listening = forward_outside(run.net_folder, run.allowed)
        atexit.register(_stop_forwarding, listening, run.net_folder)
    client = {"name": "objmcp-front", "version": __version__}
    return front_target(run.command, per, name, client)


def _stop_forwarding(listening: list[socket.socket], folder: str) -> None:
    for server in listening:
        server.close()
    shutil.rmtree(folder, ignore_errors=True)


def _target_folder(target: str) -> str | None:
    """The folder of a file or folder target (``path.py``, ``path.py:Name``, ``pkg/``: the
    folder that goes on ``sys.path``), or the current one for a module there; None: an
    installed module, found on ``sys.path``."""
    from .targets import parse_target

    parsed = parse_target(target)
    if parsed.is_path:
        return str(parsed.path.parent)
    local = Path.cwd() / parsed.where.partition(".")[0]
    if local.is_dir() or local.with_suffix(".py").is_file():
        return str(Path.cwd())
    return None


def _absolute_target(target: str) -> str:
    """``target`` with its path made absolute (the box starts in its folder)."""
    from .targets import Target, parse_target

    parsed = parse_target(target)
    if not parsed.is_path:
        return target
    return str(Target(str(parsed.path), parsed.attribute, parsed.call))
