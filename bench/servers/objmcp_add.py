"""The bench tools served over stdio by objmcp from a plain Python object: ``add`` for the
round trips, ``length`` and ``blob`` for the 10 MB payloads."""

import objmcp


class Adder:
    """A plain object whose public methods become the tools."""

    def add(self, a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    def length(self, text: str) -> int:
        """The number of characters in ``text``."""
        return len(text)

    def blob(self, size: int) -> str:
        """A string of ``size`` characters."""
        return "x" * size


if __name__ == "__main__":
    objmcp.start("bench", Adder())
