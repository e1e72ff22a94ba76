"""Objects bound to the thread that made them (a ``sqlite3`` connection), served with
``concurrency="serial"``: made on the one thread that runs their calls, through a real process,
whether the target is a class or a factory; and what is said when one was made elsewhere."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
from conftest import PYTHON, ROOT, RawServer, server_env

import objmcp

LEDGER = ROOT / "tests" / "servers" / "ledger.py"
SERVED_SERIALLY = {
    "the script, serving its class": (str(LEDGER),),
    "a class TARGET": ("-m", "objmcp", "run", f"{LEDGER}:Ledger", "--concurrency", "serial"),
    "a factory TARGET": (
        "-m",
        "objmcp",
        "run",
        f"{LEDGER}:open_ledger()",
        "--concurrency",
        "serial",
    ),
}
ENTRIES = [("rent", -950.0), ("salary", 2400.5), ("rent", -950.0), ("coffee", -3.25)]


def call(server: RawServer, request_id: int, tool: str, **arguments: Any) -> dict[str, Any]:
    """Call ``tool`` on ``server``; the result."""
    params = {"name": tool, "arguments": arguments}
    answer = server.request(
        {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    )
    assert answer["id"] == request_id, answer
    result: dict[str, Any] = answer["result"]
    return result


@pytest.mark.parametrize("command", SERVED_SERIALLY.values(), ids=SERVED_SERIALLY.keys())
def test_a_sqlite_ledger_made_on_the_serial_thread_serves_every_call(
    command: tuple[str, ...],
) -> None:
    server = RawServer(*command)
    try:
        server.initialize()
        counts = [
            call(server, number, "record", item=item, amount=amount)
            for number, (item, amount) in enumerate(ENTRIES, start=1)
        ]
        balance = call(server, 10, "balance")
        by_item = call(server, 11, "by_item")
        made_on = call(server, 12, "where_made")
    finally:
        _, stderr, status = server.close()
    said = stderr.decode()
    assert [result["isError"] for result in counts] == [False] * len(ENTRIES), counts
    assert [result["structuredContent"]["result"] for result in counts] == [1, 2, 3, 4]
    assert balance["structuredContent"]["result"] == sum(amount for _, amount in ENTRIES)
    totals: dict[str, float] = {}
    for item, amount in ENTRIES:
        totals[item] = totals.get(item, 0.0) + amount
    assert by_item["structuredContent"] == totals
    assert made_on["content"][0]["text"] == "objmcp-serial"
    # close() ran on the thread that opened the database, so sqlite3 did not refuse it
    assert "closing Ledger failed" not in said, said
    assert status == 0, said


def test_a_ledger_called_from_worker_threads_says_why_it_fails_and_what_to_do() -> None:
    server = RawServer("-m", "objmcp", "run", f"{LEDGER}:Ledger")
    try:
        server.initialize()
        result = call(server, 1, "record", item="rent", amount=-950.0)
    finally:
        server.close()
    text = result["content"][0]["text"]
    assert result["isError"] is True
    assert text.startswith("ProgrammingError: SQLite objects created in a thread"), text
    assert 'concurrency="serial"' in text and "check_same_thread=False" in text, text


@pytest.mark.parametrize("concurrency", ["threads", "serial"])
def test_a_factory_that_fails_is_reported_as_it_was_before(
    tmp_path: Path, concurrency: str
) -> None:
    (tmp_path / "shaky.py").write_text("def make():\n    return {}['missing']\n")
    done = subprocess.run(
        [PYTHON, "-m", "objmcp", "run", "shaky:make()", "--concurrency", concurrency],
        cwd=tmp_path,
        env=server_env(),
        input=b"",
        capture_output=True,
        timeout=60,
        check=False,
    )
    said = done.stderr.decode()
    assert done.returncode == 2, said
    assert "Calling shaky:make() raised an error" in said, said
    assert "KeyError: 'missing'" in said and "shaky.py" in said, said


def test_a_class_added_while_serving_is_made_on_the_serial_thread() -> None:
    from ledger import Ledger  # tests/servers is not a package: its folder goes on sys.path

    tools = objmcp.Toolbox({}, concurrency="serial")

    def add_ledger_from_a_call() -> str:
        changes = tools.add({"inner": Ledger})  # on the serial thread itself: made right here
        return ",".join(changes.tools)

    try:
        tools.add({"ledger": Ledger})  # from this thread, made on the serial one
        tools.add({"adder": add_ledger_from_a_call})
        assert tools.call("ledger_record", {"item": "tea", "amount": 2.5}).value == 1
        assert tools.call("ledger_where_made").text == "objmcp-serial"
        assert "inner_record" in tools.call("adder").text.split(",")
        assert tools.call("inner_record", {"item": "tea", "amount": 1.0}).value == 1
        assert tools.call("inner_balance").value == 1.0
    finally:
        tools.close()
    assert threading.current_thread().name != "objmcp-serial"


@pytest.fixture(autouse=True)
def _servers_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "servers"))
