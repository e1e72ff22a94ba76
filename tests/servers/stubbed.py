"""A class whose signatures only its stub (``stubbed.pyi`` beside this file) writes, as a
compiled library's are (issue 37: kiwisolver's ``Solver``, tomli's ``loads``): made from a C
base whose constructor :mod:`inspect` cannot read, with unannotated methods that pass their
arguments on as ``(*args, **kwargs)``."""

from __future__ import annotations


class Ledger(dict):
    """Amounts recorded under names."""

    def record(self, *args, **kwargs):
        """Add an amount to a name's; returns the balance."""
        return self._record(*args, **kwargs)

    def scale(self, *args, **kwargs):
        """Multiply every amount by a factor; returns the balance."""
        return self._scale(*args, **kwargs)

    def _record(self, entry, /, amount=1.0, *, note=""):
        name = f"{entry} ({note})" if note else entry
        self[name] = self.get(name, 0) + amount
        return self._balance()

    def _scale(self, factor):
        for name in self:
            self[name] *= factor
        return self._balance()

    def _balance(self):
        return float(sum(self.values()))
