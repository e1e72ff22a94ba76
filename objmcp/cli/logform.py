"""How the CLI says a warning on stderr: ``objmcp: warning: ...``, in every verb.

``inspect`` writes its warnings with :func:`labelled`; ``run`` (and so what ``call``
relays of its server) formats log records with :class:`LineFormatter`, a record of
another logger than objmcp's under that logger's name (``httpx: info: ...``). The
source comes first, as in the start line (``objmcp: serving ...``), so that a line
read in a client's log, or among a tool's own prints, says whose it is.
:class:`CarriedByResult` leaves out the records a call's error result carries.
"""

from __future__ import annotations

import logging

from ..model.values.content import IN_RESULT

__all__ = ["CarriedByResult", "LineFormatter", "labelled"]


def labelled(level: str, message: str, source: str = "objmcp") -> str:
    """``"objmcp: warning: message"``: one line of stderr, with its newline."""
    return f"{source}: {level.lower()}: {message}\n"


class LineFormatter(logging.Formatter):
    """A log record as :func:`labelled` says it (its traceback, if any, below)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record's line, objmcp's own loggers' under ``objmcp``."""
        top = record.name.partition(".")[0]
        source = "objmcp" if top == "objmcp" else record.name
        line = labelled(record.levelname, record.getMessage(), source).rstrip("\n")
        if record.exc_info:
            record.exc_text = record.exc_text or self.formatException(record.exc_info)
        if record.exc_text:
            line += "\n" + record.exc_text
        if record.stack_info:
            line += "\n" + self.formatStack(record.stack_info)
        return line


class CarriedByResult(logging.Filter):
    """Leaves out a record whose news a call's error result carries (a tool that raised),
    for a server whose only client shows that result: ``objmcp call``'s."""

    def filter(self, record: logging.LogRecord) -> bool:
        """False for a record marked :data:`~objmcp.model.values.content.IN_RESULT`."""
        return not getattr(record, IN_RESULT, False)
