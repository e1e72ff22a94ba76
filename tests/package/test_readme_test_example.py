"""The README's example of testing an object with ``objmcp.testing`` passes as written, run
by pytest in a process of its own (issue 40: it needed ``@pytest.mark.anyio``)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

NOTES = textwrap.dedent(
    '''
    import objmcp


    class Notes:
        """The README's notebook, with the README's ``clear``."""

        def __init__(self) -> None:
            self.notes: list[str] = ["a note"]

        def clear(self, elicit: objmcp.Elicit) -> str:
            """Delete every note, once the user says so."""
            if not elicit("Delete every note?", bool).value:
                return "kept"
            self.notes.clear()
            return "cleared"
    '''
)


def readme_testing_example() -> str:
    """The first Python block of the README's "Testing your object" section."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("### Testing your object", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert found is not None, "the section has a Python example"
    return found.group(1)


def test_the_readme_testing_example_passes_as_written(tmp_path: Path) -> None:
    example = readme_testing_example()
    (tmp_path / "test_readme_example.py").write_text(NOTES + "\n\n" + example)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout, done.stdout
