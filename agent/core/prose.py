"""How report text is written on one line: whitespace collapsed, cut to a limit, a
sentence closed (the answer in agent/core/answer.py and every renderer write it so)."""

from __future__ import annotations


def one_line(text: str, limit: int = 0) -> str:
    """Collapse whitespace so the text fits a table cell or a list item."""
    flat = " ".join(text.split())
    if limit and len(flat) > limit:
        return flat[: limit - 1] + "…"
    return flat


def sentence(text: str) -> str:
    """One line ending in a full stop, so a following sentence does not run into it."""
    flat = one_line(text)
    return flat if not flat or flat[-1] in ".!?" else flat + "."
