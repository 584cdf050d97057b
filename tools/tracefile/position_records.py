"""Trace records of the positions a next-token model is trained and read at
(tools/trace/read_positions.py)."""

from __future__ import annotations

from pydantic import Field

from torch_investigate.tools.tracefile.records import Frame, TraceRecord


class PositionRead(TraceRecord):
    """Evaluation code selecting one position of a model's output along an axis as long
    as the model's token input (`logits[:, -1]` of a prompt of `length` tokens)."""

    axis: int
    length: int
    position: int  # counted from the start (-1 of length L is L - 1)
    count: int = 0
    frame: Frame | None = None  # the first such selection


class Positions(TraceRecord):
    """Of next-token targets (the model's input moved one position along `time_axis`),
    per position over the detailed training steps: the sequences holding it and the
    targets the loss scores there; and the positions evaluation reads."""

    time_axis: int | None = None
    ignore_index: int | None = None
    frame: Frame | None = None  # the first training loss call counted
    seen: list[int] = Field(default_factory=list)
    scored: list[int] = Field(default_factory=list)
    # the input's next tokens where the loss ignores the target (a few values)
    hidden: list[list[int]] = Field(default_factory=list)
    reads: list[PositionRead] = Field(default_factory=list)

    def unscored_reads(self) -> list[int]:
        """Positions evaluation reads along the time axis that training sequences hold and
        the loss never scored there, where the input's next token (the target the mask
        hides) takes several values: real tokens, not padding after a sequence's end."""
        if self.time_axis is None or not any(self.scored):
            return []
        return sorted({
            r.position for r in self.reads
            if r.axis == self.time_axis and r.position < len(self.hidden)
            and self.seen[r.position] and not self.scored[r.position]
            and len(self.hidden[r.position]) >= 2
        })  # fmt: skip
