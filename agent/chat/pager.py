"""`/report` in a chat: the Markdown report drawn for the terminal (agent/render/terminal.py)
and shown a page at a time, so a long report never scrolls the conversation away.

On a terminal, a page is the terminal's height; Enter shows the next one and `q` stops.
Off a terminal (a pipe, a script), the first `MAX_LINES` lines are printed and the rest
is named, not dumped: the transcript holds the whole report.
"""

from __future__ import annotations

import io
import sys

from rich.console import Console

from torch_investigate.agent.render.terminal import print_markdown

MAX_LINES = 200  # off a terminal
MORE = "-- {left} more lines: Enter shows the next page, q stops -- "


def terminal_lines(markdown: str, width: int) -> list[str]:
    """The report as the terminal draws it (headings, wrapped paragraphs, tables)."""
    buffer = io.StringIO()
    print_markdown(markdown, file=buffer, width=max(40, width - 1))
    return buffer.getvalue().rstrip("\n").splitlines()


def page(console: Console, lines: list[str], interactive: bool | None = None) -> None:
    if interactive is None:
        interactive = console.is_terminal and sys.stdin.isatty()
    size = max(10, console.height - 2) if interactive else MAX_LINES
    at = 0
    while True:
        for line in lines[at : at + size]:
            console.print(line, markup=False, highlight=False, soft_wrap=True)
        at += size
        left = len(lines) - at
        if left <= 0:
            return
        if not interactive:
            console.print(
                f"[... {left} more lines of the report: the transcript holds all of it]",
                style="dim", markup=False,
            )  # fmt: skip
            return
        try:
            answer = input(MORE.format(left=left))
        except EOFError:
            return
        if answer.strip().lower().startswith("q"):
            return
