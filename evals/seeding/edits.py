"""Source edits: byte ranges of the original files replaced by new text.

A seeding is a list of edits over the files as the code index read them. Exactly one
edit is the anchor: the line it lands on in the seeded file is the ground-truth line.
Edits never overlap; they are applied per file from the end, so byte offsets taken
from the original tree stay valid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Edit:
    file: str  # relative, forward slashes
    start: int  # byte offsets into the original file, end exclusive
    end: int
    text: str
    # The ground truth is `anchor` lines below the line where the new text starts
    # (1 for `insert_after`, whose text begins with a newline); None: not the anchor.
    anchor: int | None = None


class EditConflict(ValueError):
    pass


def apply_edits(
    sources: Mapping[str, bytes], edits: list[Edit]
) -> tuple[dict[str, bytes], tuple[str, int]]:
    """The edited files (only those touched) and the anchor's (file, line) after editing."""
    anchors = [e for e in edits if e.anchor is not None]
    if len(anchors) != 1:
        raise EditConflict(f"a seeding needs exactly one anchor edit, got {len(anchors)}")
    anchor = anchors[0]
    by_file: dict[str, list[Edit]] = {}
    for e in edits:
        by_file.setdefault(e.file, []).append(e)
    edited: dict[str, bytes] = {}
    anchor_at: tuple[str, int] | None = None
    for file, file_edits in by_file.items():
        data = sources[file]
        ordered = sorted(file_edits, key=lambda e: (e.start, e.end))
        for a, b in zip(ordered, ordered[1:]):
            if b.start < a.end or (b.start == a.end == b.end == a.start):
                raise EditConflict(f"overlapping edits in {file} at byte {b.start}")
        shift = 0
        for e in ordered:  # where each edit's text starts in the edited file
            if e is anchor:
                new_start = e.start + shift
                anchor_offset = new_start
            shift += len(e.text.encode("utf-8")) - (e.end - e.start)
        for e in reversed(ordered):
            data = data[: e.start] + e.text.encode("utf-8") + data[e.end :]
        edited[file] = data
        if anchor.file == file:
            line = data[:anchor_offset].count(b"\n") + 1
            anchor_at = (file, line + (anchor.anchor or 0))
    assert anchor_at is not None
    return edited, anchor_at
