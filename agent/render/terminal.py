"""The Markdown report drawn for a terminal (rich), not printed as Markdown source.

Paragraphs and lists wrap at word boundaries. A table too wide for the terminal
would have rich fold its words mid-word; such a table is drawn as one record per
row ("Run: as written · Status: completed · ...") that wraps like a paragraph.
"""

from __future__ import annotations

from typing import TextIO

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.markdown import Markdown, TableElement
from rich.text import Text

_SEPARATOR = " · "
_RULES = "─━═│┃ "  # the table's own lines, not words


def _cuts_words(console: Console, options: ConsoleOptions, table: RenderableType, cells) -> bool:
    """Whether drawing `table` at this width shortens or splits any word of its cells."""
    words = {w for cell in cells for w in cell.plain.split()}
    lines = console.render_lines(table, options, pad=False)
    drawn = " ".join("".join(seg.text for seg in line) for line in lines)
    return any(w not in words for w in drawn.split() if w.strip(_RULES))


class _FittingTable(TableElement):
    """A Markdown table, or its rows as records when its words cannot fit."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        header = (
            [c.content for c in self.header.row.cells] if self.header and self.header.row else []
        )
        rows = [[c.content for c in r.cells] for r in self.body.rows] if self.body else []
        tables = list(super().__rich_console__(console, options))
        cells = header + [cell for row in rows for cell in row]
        if not any(_cuts_words(console, options, t, cells) for t in tables):
            yield from tables
            return
        for row in rows:
            record = Text("• ")
            for i, (name, cell) in enumerate(zip(header, row, strict=False)):
                if i:
                    record.append(_SEPARATOR)
                record.append(f"{name.plain}: ", style="bold")
                record.append_text(cell)
            yield record


class TerminalMarkdown(Markdown):
    elements = {**Markdown.elements, "table_open": _FittingTable}


def print_markdown(text: str, file: TextIO | None = None, width: int | None = None) -> None:
    """Draw a Markdown report on a terminal (`file` defaults to stdout)."""
    console = Console(file=file, width=width, soft_wrap=False)
    console.print(TerminalMarkdown(text, hyperlinks=False))
