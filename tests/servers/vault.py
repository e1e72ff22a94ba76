"""An object with things it does not publish, for the reachability tests: private and
dunder methods, a property with a side effect, class attributes, a module global, and
methods inherited from a base class of its own (published) and from ``object`` (not)."""

from __future__ import annotations

import objmcp

SECRET = "module-global-secret"


class Base:
    """A base class of the user's own: its public methods are the object's too."""

    def inherited(self) -> str:
        """A public method from the base class."""
        return "inherited ok"


class Vault(Base):
    """Holds a secret; publishes only ``peek`` and ``touches``."""

    password = "class-attribute-secret"

    def __init__(self) -> None:
        self._secret = "instance-secret"
        self.touched = 0

    @property
    def exposed(self) -> str:
        """A property: never evaluated by the server."""
        self.touched += 1
        return self._secret

    def peek(self) -> str:
        """Say something harmless."""
        return "nothing to see"

    def touches(self) -> int:
        """How many times the property ran."""
        return self.touched

    def _private(self) -> str:
        return self._secret

    def __secret(self) -> str:
        return self._secret

    def __call__(self) -> str:
        return self._secret


if __name__ == "__main__":
    objmcp.start("vault", Vault())
