"""`search_code`: grep over the indexed files, each hit with its enclosing symbol."""

from __future__ import annotations

import re

from pydantic import BaseModel

from torch_investigate.tools.code.index import CodeIndex

MAX_LINE_CHARS = 200


class SearchHit(BaseModel):
    file: str
    line: int
    symbol: str
    text: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line} ({self.symbol}): {self.text}"


def compile_pattern(pattern: str, regex: bool | None = None) -> tuple[re.Pattern[str], bool]:
    """(compiled, used_as_regex). With regex=None a pattern that is not a valid regex is
    searched as plain text."""
    if regex is False:
        return re.compile(re.escape(pattern)), False
    try:
        return re.compile(pattern), True
    except re.error:
        if regex:
            raise
        return re.compile(re.escape(pattern)), False


def find_code(index: CodeIndex, pattern: str, *, regex: bool | None = None) -> list[SearchHit]:
    compiled, _ = compile_pattern(pattern, regex)
    hits = []
    for rel in index.files:
        for n, line in enumerate(index.lines(rel), 1):
            if compiled.search(line):
                text = line.strip()
                if len(text) > MAX_LINE_CHARS:
                    text = text[: MAX_LINE_CHARS - 3] + "..."
                hits.append(
                    SearchHit(file=rel, line=n, symbol=index.enclosing_symbol(rel, n), text=text)
                )
    return hits


def search_code(
    index: CodeIndex, pattern: str, max_results: int = 50, *, regex: bool | None = None
) -> str:
    """Matches as `file:line (symbol): line`, at most max_results, with a note when cut."""
    if not pattern:
        return "Empty pattern: give a regex or plain text to search for."
    try:
        compiled, as_regex = compile_pattern(pattern, regex)
    except re.error as e:
        return f"Invalid regex {pattern!r}: {e}. Pass regex=False to search it as plain text."
    hits = find_code(index, compiled.pattern, regex=True)
    how = "regex" if as_regex else "plain text"
    if not hits:
        return f"No matches for '{pattern}' ({how}) in {len(index.files)} files."
    shown = hits[: max(1, max_results)]
    lines = [f"{len(hits)} match{'es' if len(hits) != 1 else ''} for '{pattern}' ({how}):"]
    lines += [str(h) for h in shown]
    if len(hits) > len(shown):
        lines.append(
            f"[showing {len(shown)} of {len(hits)} matches; {len(hits) - len(shown)} cut. "
            "Narrow the pattern or raise max_results]"
        )
    return "\n".join(lines)
