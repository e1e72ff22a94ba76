"""A class whose method documents its parameters as a bulleted list under ``Parameters:``,
as docutils does (issue 37): each item's text is the parameter's description; another
leaves its parameters to it (``Parameters: see `Bulleted.render()```)."""

from __future__ import annotations


class Bulleted:
    """Renders text, its parameters documented in a bulleted list."""

    def render(self, source: str, writer: str = "html", strict: bool = False) -> str:
        """Render ``source`` with a writer.

        Parameters:

        * `source` **required**: The text to render.  Typically a short
          paragraph.

          - It may span lines.

        * `writer`: The writer's name.  Default: "html".

        - strict (bool) -- Refuse unknown markup.
        """
        return f"{writer}:{source}:{strict}"

    def preview(self, source: str, writer: str = "html") -> str:
        """Render the first line of ``source``.

        Parameters: see `Bulleted.render()`.
        """
        return self.render(source.partition("\n")[0], writer)
