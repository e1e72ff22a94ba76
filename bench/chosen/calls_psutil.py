"""The calls of ``psutil`` (rank 106, tuning).

Written from psutil's documentation (the "System related functions" of its API page: "CPU"
``cpu_count``, "Disks" ``disk_partitions``, "Other system info" ``boot_time``, and "Processes"
``pid_exists``), each answer computed by calling psutil itself. Only what does not change
between the served call and the answer's is asked (counts, the boot time, the mounts, whether a
process exists), not loads, memory or times. A psutil result tuple (a named tuple) is in JSON's
terms as its fields, an object of its field names, as for the first zoo's scipy results.

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``debug``,
``heap_trim`` and ``net_if_addrs`` (the first three whose answer does not change between two
calls; the ``cpu_*``, ``disk_io_counters``, ``disk_usage``, ``getloadavg`` and ``heap_info``
figures do), then ``sensors_temperatures`` (``fahrenheit``), the one function left with a
non-string parameter whose answer stays. An address's ``family`` is the integer its enum is.
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


def _addresses() -> Any:
    return expected_json(
        {
            name: [address._asdict() for address in addresses]
            for name, addresses in _psutil().net_if_addrs().items()
        }
    )


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
            Call("debug", {"msg": "hello"}, lambda: _psutil().debug("hello")),
            Call("heap_trim", {}, lambda: _psutil().heap_trim()),
            Call("net_if_addrs", {}, _addresses),
            Call(
                "sensors_temperatures",
                {"fahrenheit": True},
                lambda: expected_json(_psutil().sensors_temperatures(fahrenheit=True)),
            ),
        ),
    ),
)
