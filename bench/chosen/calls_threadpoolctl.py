"""The calls of ``threadpoolctl`` (rank 203, tuning, second walk).

Written from threadpoolctl's documentation (its README on PyPI: "Python Runtime Programmatic
Introspection" with ``threadpool_info``, "Setting the Maximum Size of Thread-Pools" with
``threadpool_limits(limits=1, user_api='blas')``, the cache of ``get_cached_controller`` and
``reset_cached_controller``; ``threadpool_limits``'s docstring for its ``limits`` forms: an
int, a dict by prefix or API, a list of ``{"prefix": ..., "num_threads": ...}``,
``'sequential_blas_under_openmp'``).

The target is the walk's, the module ``threadpoolctl``. Its answers must be fixed, and most of
this library's are figures of the machine and of the process: ``threadpool_info`` lists the
native libraries loaded in the process that answers, with their paths, versions and thread
counts (the serving process and the caller's differ, and the counts are the machine's cores),
so it has no call here. ``threadpool_limits`` changes the thread limits of the loaded libraries
and answers the limiter object, whose text holds a memory address and whose state is the
process's libraries: its calls are ``UNCHECKED`` (no error is what is checked), and their
expects do not call it (it would limit the caller's own libraries). ``reset_cached_controller``
answers ``None`` wherever it runs.
"""

from __future__ import annotations

import importlib

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]


TARGETS: tuple[Target, ...] = (
    Target(
        "threadpoolctl",
        (
            Call("threadpool_limits", {"limits": 1, "user_api": "blas"}, lambda: UNCHECKED),
            Call(
                "threadpool_limits",
                {"limits": {"openblas": 2, "openmp": 1}},
                lambda: UNCHECKED,
            ),
            Call(
                "threadpool_limits",
                {"limits": [{"prefix": "libgomp", "num_threads": 2}]},
                lambda: UNCHECKED,
            ),
            Call(
                "threadpool_limits",
                {"limits": "sequential_blas_under_openmp"},
                lambda: UNCHECKED,
            ),
            Call(
                "reset_cached_controller",
                {},
                lambda: importlib.import_module("threadpoolctl").reset_cached_controller(),
            ),
        ),
    ),
)
