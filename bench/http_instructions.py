"""Instructions a ``tools/call`` costs the HTTP server, counted, not timed.

On a shared machine, throughput over HTTP moves by a quarter from run to run. Valgrind's
callgrind counts the instructions a process executes, the same for the same binary, inputs
and environment whatever else the machine is doing. Each server of ``run_http.py``
(objmcp's ASGI app, the SDK's, the floor: a bare ASGI app that reads the body, parses it and
answers) runs under callgrind in uvicorn; after a warm-up its counters are zeroed, then a
fixed number of ``add(a, b)`` calls are made on keep-alive connections, in each era (a
handshake-era session, and 2026-07-28 requests of their own), every answer checked; the
counters are dumped and divided by the calls. Instructions in the kernel (the syscalls, a
thread woken) are not counted: the figures say what the Python code costs.

    .venv/bin/python bench/http_instructions.py [--servers objmcp,floor] [--calls 300]

Needs ``valgrind`` (Debian's package). A run takes a minute or two a server.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from run_http import (
    ERAS,
    HOST,
    SERVERS,
    SyncClient,
    Wire,
    arguments,
    check_call,
    close_session,
    free_port,
    open_session,
)

HERE = Path(__file__).resolve().parent
START_TIMEOUT = 300.0  # seconds: Python under callgrind starts some fifty times slower


def drive(port: int, era: str, calls: int, first_id: int) -> None:
    """``calls`` checked calls of ``add`` in ``era`` on one connection."""
    wire, client = Wire(port), SyncClient(port, 120.0)
    try:
        session = None if era == "modern" else open_session(client, wire)
        for i in range(calls):
            a, b = arguments(i)
            request_id = first_id + i
            check_call(
                client.exchange(wire.call(session, request_id, a, b)),
                request_id,
                a + b,
                era == "modern",
            )
        if session is not None:
            close_session(client, wire, session)
    finally:
        client.close()


def wait_for(port: int, process: subprocess.Popen[bytes]) -> None:
    """Wait until the server accepts connections."""
    import socket

    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the server ended before it served")
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError("the server did not start within the timeout")


def counted(key: str, era: str, calls: int, scratch: Path) -> float:
    """Instructions per call of server ``key`` in ``era``."""
    port = free_port()
    out = scratch / f"{key}-{era}.%p"
    command = [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={out}",
        sys.executable,
        str(HERE / "run_http.py"),
        "--serve",
        key,
        "--port",
        str(port),
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(port, process)
        drive(port, era, calls // 3, 1)  # warm-up: imports, caches, first-call work
        subprocess.run(
            ["callgrind_control", "-z", str(process.pid)], check=True, stdout=subprocess.DEVNULL
        )
        drive(port, era, calls, 10_000)
        subprocess.run(
            ["callgrind_control", "-d", str(process.pid)], check=True, stdout=subprocess.DEVNULL
        )
    finally:
        process.terminate()
        process.wait(timeout=120)
    (dump,) = glob.glob(f"{str(out).replace('%p', '*')}.1")
    for line in Path(dump).read_text().splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1]) / calls
    raise RuntimeError(f"no summary in {dump}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--servers", default="objmcp,sdk-json,floor", help="servers, by commas")
    parser.add_argument("--calls", type=int, default=300, help="counted calls an era (300)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        parser.error("valgrind is needed (Debian: apt-get install valgrind)")
    keys = [key for key in args.servers.split(",") if key]
    known = {spec.key for spec in SERVERS}
    if unknown := [key for key in keys if key not in known]:
        parser.error(f"no server {unknown}; known: {sorted(known)}")
    figures: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for key in keys:
            figures[key] = {era: counted(key, era, args.calls, Path(scratch)) for era in ERAS}
            print(
                f"{key}: " + ", ".join(f"{era} {figures[key][era]:,.0f}" for era in ERAS),
                file=sys.stderr,
                flush=True,
            )
    print(
        f"instructions a tools/call, {args.calls} calls an era (python {sys.version.split()[0]},"
        f" {os.uname().machine})"
    )
    header = ["server", *ERAS, *(f"/ floor, {era}" for era in ERAS)]
    print(" | ".join(header))
    for key, by_era in figures.items():
        ratios = [
            f"{by_era[era] / figures['floor'][era]:.2f}x" if "floor" in figures else "-"
            for era in ERAS
        ]
        print(" | ".join([key, *(f"{by_era[era]:,.0f}" for era in ERAS), *ratios]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
