"""What ``objmcp run`` says as it starts, and the options a whole library needs."""

from __future__ import annotations

import more_itertools
from conftest import RawServer

from objmcp import Toolbox


def test_the_start_up_line_counts_the_tools_and_names_the_biggest_modules() -> None:
    server = RawServer(
        "-m", "objmcp", "run", "more_itertools", "--page-size", "50", "--discovery", "off"
    )
    try:
        server.initialize()
        first = server.request({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})["result"]
        assert len(first["tools"]) == 50 and first.get("nextCursor")
        params = {"cursor": first["nextCursor"]}
        second = server.request(
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": params}
        )["result"]
        names = [tool["name"] for tool in first["tools"] + second["tools"]]
        assert len(names) == len(set(names)) == 100
    finally:
        _, stderr, status = server.close()
    said = stderr.decode()
    count = len(Toolbox(more_itertools))
    assert f"objmcp: serving more_itertools on stdio: {count} tools" in said, said
    assert "most from more_itertools.more " in said, said
    assert status == 0


def test_a_class_made_with_no_arguments_is_named_on_stderr_at_log_level_info() -> None:
    server = RawServer("-m", "objmcp", "run", "pathlib:Path", "--log-level", "info")
    try:
        server.initialize()
    finally:
        _, stderr, _ = server.close()
    said = "objmcp: info: serving Path: made with no arguments, PosixPath('.')"
    assert said in stderr.decode()


def test_with_jobs_on_the_start_up_line_names_the_job_tools() -> None:
    server = RawServer("-m", "objmcp", "run", "colorsys", "--jobs")
    try:
        server.initialize()
        listed = server.request({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})["result"]
    finally:
        _, stderr, _ = server.close()
    names = [tool["name"] for tool in listed["tools"]]
    assert names[-3:] == ["job_status", "job_result", "job_cancel"], names
    said = stderr.decode()
    assert "; jobs on: job_status, job_result, job_cancel listed too" in said, said
