"""The calls of ``ptyprocess`` (rank 149, tuning): none.

ptyprocess's documentation (ptyprocess.readthedocs.io, "API": ``PtyProcess.spawn(argv, ...)``,
then ``read``/``write``/``isalive``/``terminate`` on the process it gives) has one way in: start
a program in a pseudo-terminal. Every documented call spawns a process, which the bench's calls
must not do, and the methods that read and write are a spawned process's. So this module only
says how the walk's target is served: ``spawn`` withheld (it runs a program), and
``write_to_stdout`` withheld (it writes bytes to the serving process's own standard output,
which a stdio server shares with its protocol). No other part of ptyprocess is documented for
callers.

More calls (issue 37, the README's "More tuning calls"): none. Every other method of
``PtyProcess`` is a spawned process's.
"""

from __future__ import annotations

from zoo_cases import Target

__all__ = ["TARGETS"]

TARGETS: tuple[Target, ...] = (
    Target("ptyprocess:PtyProcess", (), withheld=("spawn", "write_to_stdout")),
)
