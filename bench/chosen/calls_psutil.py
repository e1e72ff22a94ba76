"""The calls of ``psutil`` (rank 106, tuning).

Written from psutil's documentation (the "System related functions" of its API page: "CPU"
``cpu_count``, "Disks" ``disk_partitions``, "Other system info" ``boot_time``, and "Processes"
``pid_exists``), each answer computed by calling psutil itself. Only what does not change
between the served call and the answer's is asked (counts, the boot time, the mounts, whether a
process exists), not loads, memory or times. A psutil result tuple (a named tuple) is in JSON's
terms as its fields, an object of its field names, as for the first zoo's scipy results.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]


def _psutil() -> Any:
    return importlib.import_module("psutil")


def _partitions() -> Any:
    return expected_json([part._asdict() for part in _psutil().disk_partitions(all=False)])


TARGETS: tuple[Target, ...] = (
    Target(
        "psutil",
        (
            Call("cpu_count", {"logical": True}, lambda: _psutil().cpu_count(logical=True)),
            Call("cpu_count", {"logical": False}, lambda: _psutil().cpu_count(logical=False)),
            Call("boot_time", {}, lambda: _psutil().boot_time()),
            Call("pid_exists", {"pid": 1}, lambda: _psutil().pid_exists(1)),
            Call("pid_exists", {"pid": 99999999}, lambda: _psutil().pid_exists(99999999)),
            Call("disk_partitions", {"all": False}, _partitions),
        ),
    ),
)
