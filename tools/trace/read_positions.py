"""The positions of a next-token model's output the training loss scores, and those its
evaluation reads.

When a training target is the model's input moved one position (the next token), the
output at position t is trained only where the target at t is not the loss's ignore
index: a task scored on its answer alone (the sum's digits after the two operands) masks
the prompt's positions with that index. Generation reads one position of each evaluation
forward: `logits[:, -1]` of a prompt of length L is position L - 1, where the answer's
first token is predicted. A position the evaluation reads that no training sequence ever
had scored was never trained there: the mask is one position too long (`y[:2n] = -1`
where `y[:2n - 1] = -1` was meant).

Recorded: per position along the time axis, the training sequences that hold it and the
targets the loss scores there (the detailed steps); in evaluation, one position selected
along an axis of a top-level model's output as long as the model's token input
(`logits[:, -1, :]`, `logits.select(1, -1)`). A slice (`logits[:, :-1]`, an evaluation
loss aligning its targets) is no read: that loss's own mask says which positions count.
A forward of one position (cached decoding, a start token) says nothing about where in
the sequence it is. Per position, the input's next tokens where the loss ignores the
target are kept too (a few values): a prompt hides real tokens, padding one value.

The intervention `score_positions` ("axis:p,q") gives the training loss, at those
positions where it ignores the target, the input's next token as the target: the
smallest change that trains them (interventions/loss.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from .tensors import frame_dict, repo_frame, tensors_in

MAX_READS = 64  # distinct (axis, length, position) reads kept
MAX_HIDDEN = 8


@dataclass
class PositionLog:
    time_axis: int | None = None
    ignore_index: int | None = None
    frame: dict | None = None  # the first training loss call counted
    seen: list[int] = field(default_factory=list)  # per position: training sequences
    scored: list[int] = field(default_factory=list)  # per position: targets scored
    # per position: the input's next tokens where the loss ignores the target (up to
    # MAX_HIDDEN values): a prompt's real tokens, or padding's one value
    hidden: list[list[int]] = field(default_factory=list)
    reads: list[dict] = field(default_factory=list)  # evaluation reads of one position

    def summary(self) -> dict:
        return {
            "time_axis": self.time_axis,
            "ignore_index": self.ignore_index,
            "frame": self.frame,
            "seen": list(self.seen),
            "scored": list(self.scored),
            "hidden": [list(v) for v in self.hidden],
            "reads": [dict(r) for r in self.reads],
        }


def scored(log: PositionLog, x: torch.Tensor, y: torch.Tensor, axis: int, ignore: int, frame):
    """A training batch of ids `x` whose targets `y` (laid out as `x`) are `x` moved one
    position along `axis`: per position, the sequences and the targets the loss scores."""
    if x.dim() != 2 or x.is_floating_point():
        return
    if log.time_axis is None:
        log.time_axis, log.ignore_index, log.frame = axis, ignore, frame_dict(frame)
    if log.time_axis != axis or log.ignore_index != ignore:
        return
    xs, ys = x.detach().movedim(axis, -1), y.detach().movedim(axis, -1)  # (sequences, positions)
    kept = (ys != ignore).sum(0).tolist()
    _add(log.scored, kept)
    _add(log.seen, [int(ys.shape[0])] * len(kept))
    log.hidden.extend([] for _ in range(len(kept) - len(log.hidden)))
    masked = (ys[:, :-1] == ignore).any(0).nonzero().flatten().tolist()  # a next token exists
    for p in masked:
        if len(log.hidden[p]) < MAX_HIDDEN:
            nxt = torch.unique(xs[:, p + 1][ys[:, p] == ignore]).tolist()[:MAX_HIDDEN]
            log.hidden[p] = sorted(set(log.hidden[p]) | set(nxt))[:MAX_HIDDEN]


def _add(counts: list[int], more: list[int]) -> None:
    counts.extend([0] * (len(more) - len(counts)))
    for i, n in enumerate(more):
        counts[i] += int(n)


def evaluated(evaluation: bool, args: tuple, kwargs: dict, out) -> None:
    """A top-level model's output in evaluation remembers the shape of the 2-D integer
    ids it was computed from (its token input)."""
    if not evaluation:
        return
    ids = next(
        (
            t
            for t in tensors_in(args) or tensors_in(kwargs)
            if t.dim() == 2 and not t.is_floating_point() and t.dtype != torch.bool
        ),
        None,
    )
    if ids is None:
        return
    for t in tensors_in(out):
        if t.dim() >= 2:
            t._ti_ids = tuple(ids.shape)


def after_op(log: PositionLog, evaluating: bool, name: str, args) -> None:
    """`out[:, p]` or `out.select(axis, p)` of an evaluation output that remembers its ids:
    position p read along an axis as long as the ids'."""
    a0 = args[0] if args else None
    ids = getattr(a0, "_ti_ids", None)
    if ids is None or not evaluating or len(args) < 2:
        return
    if name == "__getitem__":
        index = args[1] if isinstance(args[1], tuple) else (args[1],)
        if any(i is None or i is Ellipsis or _mask(i) for i in index):
            return  # the index's entries no longer line up with the axes
        picks = list(enumerate(index[:2]))
    elif name == "select" and len(args) >= 3:
        picks = [(args[1], args[2])]
    else:
        return
    for axis, i in picks:
        if not isinstance(i, int) or isinstance(i, bool) or axis not in (0, 1):
            continue
        n = int(a0.shape[axis])
        if n == ids[axis] and n >= 2 and -n <= i < n:
            _read(log, axis, n, i % n)


def _mask(i) -> bool:
    return isinstance(i, torch.Tensor) and (i.dtype == torch.bool or i.dim() > 1)


def _read(log: PositionLog, axis: int, length: int, position: int) -> None:
    for r in log.reads:
        if (r["axis"], r["length"], r["position"]) == (axis, length, position):
            r["count"] += 1
            return
    if len(log.reads) < MAX_READS:
        log.reads.append({
            "axis": axis, "length": length, "position": position, "count": 1,
            "frame": frame_dict(repo_frame()),
        })  # fmt: skip
