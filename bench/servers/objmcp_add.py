"""One ``add`` tool served over stdio by objmcp from a plain Python object."""

import objmcp


class Adder:
    """A plain object whose one public method becomes the ``add`` tool."""

    def add(self, a: int, b: int) -> int:
        """Add two integers."""
        return a + b


if __name__ == "__main__":
    objmcp.start("bench", Adder())
