"""Every example of the docs site runs (issue 45), page by page, as ``internals/docs.md`` says:
in a fresh directory holding a copy of ``examples/`` (the README's: a copy of the checkout's
tracked files, as a fresh clone has them), with a fresh ``HOME`` and, first on ``PATH``, a
virtualenv where the wheel built from this checkout is installed. A titled
``python`` block is its file, written and run; the other ``python`` blocks of a page run as
one script; each ``sh`` block runs as one bash script, and what it started in the
background is stopped when it ends. A ``text`` block titled "Output" shows what the example
before it printed, and is held to it (``tests/docs/output.py``; in any order where the
example left processes in the background). The lines of
``tests/docs/not_run.toml`` are only syntax-checked, and each must be on its page."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import tomllib
from blocks import Block, blocks_of
from conftest import ROOT
from output import missing_from

DOCS = ROOT / "docs"
README = "README.md"
PAGES = [README, *sorted(path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md"))]
NOT_RUN = tomllib.loads((ROOT / "tests" / "docs" / "not_run.toml").read_text())["command"]
EXTRAS = "http,code,auth,otel,redis,demo"
RUN = ("python", "sh")
BLOCK_TIMEOUT = 180
REDIS_URL = "redis://127.0.0.1:6379"
OUTPUT = "Output"
"""The title of a text block that shows what the example before it prints."""
SHOWN_HOME = "/home/you"
"""The home folder as the pages show it."""
_MARK = "@@objmcp-docs-block "


@pytest.fixture(scope="module")
def wheel_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` of a fresh virtualenv holding the wheel built from this checkout."""
    where = tmp_path_factory.mktemp("wheel")
    uv = str(ROOT / ".venv" / "bin" / "uv")
    built = subprocess.run(
        [uv, "build", "--wheel", "-q", "-o", str(where / "dist"), str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (where / "dist").glob("objmcp-*.whl")
    venv = where / "venv"
    subprocess.run(
        [uv, "venv", "-q", "--python", str(ROOT / ".venv" / "bin" / "python"), str(venv)],
        check=True,
    )
    installed = subprocess.run(
        [
            uv,
            "pip",
            "install",
            "-q",
            "--python",
            str(venv / "bin" / "python"),
            f"{wheel}[{EXTRAS}]",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr
    return venv / "bin"


def not_run_lines(page: str) -> set[str]:
    """The lines of ``page`` that CI only syntax-checks."""
    return {entry["line"] for entry in NOT_RUN if entry["page"] == page}


def source(page: str) -> Path:
    """Where ``page`` is: a page of ``docs/``, or the README."""
    return ROOT / README if page == README else DOCS / page


def runnable(page: str) -> list[Block]:
    return [b for b in blocks_of(source(page).read_text()) if b.language in RUN]


def fresh_clone(where: Path) -> None:
    """The checkout's tracked files at ``where``, as a fresh clone has them (and not the
    venvs, node_modules or builds of this one)."""
    tracked = (
        subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (where / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, where / name)


@pytest.mark.parametrize("page", [page for page in PAGES if runnable(page)])
def test_every_example_of_the_page_runs_and_prints_what_the_page_shows(
    page: str, wheel_bin: Path
) -> None:
    text = source(page).read_text()
    with tempfile.TemporaryDirectory() as scratch, _RedisIfNamed(text):
        here, home = Path(scratch) / "page", Path(scratch) / "home"
        if page == README:
            fresh_clone(here)
        else:
            shutil.copytree(ROOT / "examples", here / "examples")
        home.mkdir()
        env = {
            "HOME": str(home),
            "PATH": f"{wheel_bin}:/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "TMPDIR": str(Path(scratch)),
            "PYTHONUNBUFFERED": "1",  # a block's lines in the order it wrote them
        }
        skipped = not_run_lines(page)
        printed: dict[int, str] = {}
        script: list[str] = []
        for block in runnable(page):
            where = f"{page}:{block.line}"
            if block.language == "python" and block.title:
                target = here / block.title
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(block.text + "\n")
                printed[block.line] = _run(["python", block.title], here, env, where)
            elif block.language == "python":
                script.append(f"# {where}\nprint({_MARK!r} + '{block.line}')\n{block.text}\n")
            else:
                lines = [
                    ": # not run" if line.strip() in skipped else line
                    for line in block.text.split("\n")
                ]
                command = ["bash", "-euo", "pipefail", "-c", "\n".join(lines)]
                printed[block.line] = _run(command, here, env, where)
        if script:
            (here / "_page_examples.py").write_text("\n".join(script))
            said = _run(["python", "_page_examples.py"], here, env, f"{page}: its python blocks")
            for part in said.split(_MARK)[1:]:
                line, _, rest = part.partition("\n")
                printed[int(line)] = rest
    wrong = []
    for block, output in outputs(page):
        shown_as_home = printed[block.line].replace(str(home), SHOWN_HOME)
        background = re.search(r"(?<!&)&[ \t]*$", block.text, flags=re.M) is not None
        missing = missing_from(output.text, shown_as_home, ordered=not background)
        if missing is not None:
            wrong.append(
                f"{page}:{output.line} shows {missing!r}, which {page}:{block.line} did not "
                f"print; it printed:\n{shown_as_home[-3000:]}"
            )
    assert not wrong, "\n\n".join(wrong)


def outputs(page: str) -> list[tuple[Block, Block]]:
    """Each block of ``page`` titled "Output", after the example it shows the output of
    (the runnable block before it)."""
    found: list[tuple[Block, Block]] = []
    last: Block | None = None
    for block in blocks_of(source(page).read_text()):
        if block.language in RUN:
            last = block
        elif block.title == OUTPUT:
            assert last is not None, f"{page}:{block.line}: an output of no example"
            found.append((last, block))
    return found


def test_the_pages_show_outputs_and_each_follows_an_example_that_runs() -> None:
    shown = [(page, output) for page in PAGES for _, output in outputs(page)]
    assert len(shown) > 20  # the reader sees what to expect often: each is held to the run
    for page, output in shown:
        assert output.language == "text", f"{page}:{output.line}"


def test_every_line_not_run_is_on_its_page_with_a_reason_and_parses() -> None:
    for entry in NOT_RUN:
        assert entry["reason"].strip(), entry
        lines = {
            line.strip()
            for block in runnable(entry["page"])
            if block.language == "sh"
            for line in block.text.split("\n")
        }
        assert entry["line"] in lines, f"{entry['line']!r} is in no sh block of {entry['page']}"
        parsed = subprocess.run(
            ["bash", "-n", "-c", entry["line"]], capture_output=True, text=True, check=False
        )
        assert parsed.returncode == 0, (entry, parsed.stderr)


def _run(command: list[str], cwd: Path, env: dict[str, str], where: str) -> str:
    """What ``command`` printed (its output and errors), run in its own process group, its
    output in a file (so that a server it left in the background holds no pipe open); what
    it left is stopped then."""
    with tempfile.TemporaryFile() as output:
        process = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            status = process.wait(timeout=BLOCK_TIMEOUT)
        finally:
            with contextlib.suppress(ProcessLookupError):  # it ended with its group
                os.killpg(process.pid, signal.SIGKILL)
        output.seek(0)
        said = output.read().decode(errors="replace")
    assert status == 0, f"{where} failed (exit status {status}):\n{said[-6000:]}"
    return said


class _RedisIfNamed:
    """A Redis on 127.0.0.1:6379 while a page that names it runs (Debian's redis-server)."""

    def __init__(self, text: str) -> None:
        self.wanted = REDIS_URL in text
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> None:
        if not self.wanted:
            return
        server = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(
            [server, "--port", "6379", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in _until_listening():
            if self.process.poll() is not None:
                raise AssertionError("redis-server did not start on port 6379")

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)


def _until_listening() -> Iterator[None]:
    """Yields until something accepts connections on 127.0.0.1:6379."""
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", 6379)) == 0:
                return
        yield
        time.sleep(0.05)


def test_every_flag_an_objmcp_command_in_a_sentence_names_exists() -> None:
    # a command written in a sentence (`objmcp run --http ...`), not in a block, is not run:
    # each flag it names must be one of its verb's (a bare TARGET is run's), so that a flag
    # renamed or dropped fails here
    from objmcp.cli.parser import _parser

    parser, verbs = _parser()
    known = {name: set(verb._option_string_actions) for name, verb in verbs.items()}
    unknown: list[str] = []
    spans = 0
    for page in PAGES:
        prose = re.sub(
            r"^[ \t]*(`{3,}|~{3,}).*?^[ \t]*\1[ \t]*$",
            "",
            source(page).read_text(),
            flags=re.M | re.S,
        )
        for span in re.findall(r"`(objmcp [^`\n]+)`", prose):
            words = span.split()
            verb = words[1] if words[1] in verbs else "run"
            spans += 1
            for word in words[1:]:
                flag = word.split("=", 1)[0]
                if flag.startswith("--") and flag not in known[verb] | set(
                    parser._option_string_actions
                ):
                    unknown.append(f"{page}: `{span}`: objmcp {verb} has no {flag}")
    assert spans > 50  # the pages name commands in sentences often: this reads them
    assert not unknown, "\n".join(unknown)
