"""Reading tools for people and the LLM: numbered source in bounded windows.

Every answer is text made for reading. A window holds at most `WINDOW` lines and says
how many were cut and how to see the rest; an unknown file or symbol gives a message
with close matches, never an exception.
"""

from __future__ import annotations

import difflib

from torch_investigate.tools.code.index import CodeIndex
from torch_investigate.tools.code.records import Symbol

WINDOW = 100  # lines per view: about what a reader (or a model) can hold at once


def number_lines(lines: list[str], start: int) -> str:
    """`  41 | x = ...` for each line, numbered from start."""
    width = max(4, len(str(start + len(lines) - 1)))
    return "\n".join(f"{n:>{width}} | {text}" for n, text in enumerate(lines, start))


def read_lines(index: CodeIndex, file: str, start: int, end: int, *, window: int = WINDOW) -> str:
    """Lines start..end (1-based, inclusive) of file, at most `window` of them."""
    rel = index.relative(file)
    if rel is None:
        return _unknown_file(index, file)
    lines = index.lines(rel)
    total = len(lines)
    if total == 0:
        return f"{rel} is empty."
    start = max(1, start)
    end = min(total, max(start, end))
    if start > total:
        return f"{rel} has {total} lines; line {start} is past the end."
    shown_end = min(end, start + window - 1)
    header = f"{rel}:{start}-{shown_end} (of {total} lines)"
    body = number_lines(lines[start - 1 : shown_end], start)
    notes = []
    if shown_end < end:
        cut = end - shown_end
        nxt_end = min(end, shown_end + window)
        notes.append(
            f"[{cut} more line{'s' if cut != 1 else ''} cut; read {rel}:{shown_end + 1}-{nxt_end} to continue]"
        )
    return "\n".join([header, body, *notes])


def read_symbol(index: CodeIndex, ref: str, *, window: int = WINDOW) -> str:
    """The source of `file.py:Class.method` (or an unambiguous `Class.method`)."""
    symbol = index.symbol(ref)
    if symbol is None and ":" not in ref:
        named = index.find_symbols(ref)
        if len(named) > 1:
            listing = ", ".join(s.id for s in named[:10])
            return f"{ref!r} is ambiguous: {listing}. Name the file: file.py:{ref}"
        symbol = named[0] if named else None
    if symbol is None:
        return _unknown_symbol(index, ref)
    text = read_lines(index, symbol.file, symbol.line_start, symbol.line_end, window=window)
    return f"{symbol.id} ({symbol.kind}, lines {symbol.line_start}-{symbol.line_end})\n{text}"


def read_target(index: CodeIndex, target: str, *, window: int = WINDOW) -> str:
    """`file.py`, `file.py:Symbol`, `file.py:10-60`, `file.py:42` or a bare `Symbol`."""
    target = target.strip()
    file_part, sep, rest = target.rpartition(":")
    if not sep or index.relative(file_part) is None:
        if index.relative(target) is not None:
            return _read_file(index, target, window)
        if not sep and (target.endswith(".py") or "/" in target):
            return _unknown_file(index, target)
        if (
            sep
            and index.relative(file_part) is None
            and ("/" in file_part or file_part.endswith(".py"))
        ):
            return _unknown_file(index, file_part)
        return read_symbol(index, target, window=window)
    rest = rest.strip()
    span = _parse_span(rest)
    if span is not None:
        start, end = span
        return read_lines(index, file_part, start, end, window=window)
    return read_symbol(index, f"{index.relative(file_part)}:{rest}", window=window)


def _parse_span(rest: str) -> tuple[int, int] | None:
    first, dash, second = rest.partition("-")
    if not first.strip().isdigit() or (dash and not second.strip().isdigit()):
        return None
    start = int(first)
    end = int(second) if dash else start + WINDOW - 1
    return start, end


def _read_file(index: CodeIndex, file: str, window: int) -> str:
    rel = index.relative(file)
    assert rel is not None
    total = len(index.lines(rel))
    text = read_lines(index, rel, 1, total, window=window)
    outline = _outline(index, rel)
    return f"{text}\n{outline}" if total > window and outline else text


def _outline(index: CodeIndex, rel: str) -> str:
    unit = index.unit(rel)
    if unit is None:
        return ""
    symbols = [s for s in unit.symbols if s.kind != "module"]
    if not symbols:
        return ""
    rows = [f"  {s.qualname} ({s.kind}) {s.line_start}-{s.line_end}" for s in symbols[:60]]
    more = f"\n  ... {len(symbols) - 60} more" if len(symbols) > 60 else ""
    return "Symbols in this file (read file.py:Symbol to see one):\n" + "\n".join(rows) + more


def _unknown_file(index: CodeIndex, file: str) -> str:
    close = difflib.get_close_matches(file, index.files, n=5, cutoff=0.4)
    base = file.rsplit("/", 1)[-1]
    close += [f for f in index.files if f.rsplit("/", 1)[-1] == base and f not in close]
    hint = f" Close matches: {', '.join(close[:5])}." if close else ""
    listing = ", ".join(index.files[:20]) + (" ..." if len(index.files) > 20 else "")
    return f"No file {file!r} in the index.{hint} Indexed files ({len(index.files)}): {listing or 'none'}"


def _unknown_symbol(index: CodeIndex, ref: str) -> str:
    close = index.close_matches(ref)
    hint = f" Close matches: {', '.join(close)}." if close else ""
    file_part = ref.rpartition(":")[0]
    rel = index.relative(file_part) if file_part else None
    if rel is not None:
        names = [s.qualname for s in _symbols_of(index, rel)]
        listing = ", ".join(names[:30]) + (" ..." if len(names) > 30 else "")
        return f"No symbol {ref!r}.{hint} Symbols in {rel}: {listing or 'none'}"
    return f"No symbol {ref!r}.{hint} Use file.py:Symbol, file.py:10-60 or file.py."


def _symbols_of(index: CodeIndex, rel: str) -> list[Symbol]:
    unit = index.unit(rel)
    return [s for s in unit.symbols if s.kind != "module"] if unit is not None else []
