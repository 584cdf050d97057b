"""Which axis of a next-token model's input holds the text's neighbours?

A language model's batch is a sequence laid out along one axis (the one its targets are
shifted along: the time axis) and other sequences along the other. Tokens next to each
other in text depend on each other: the pair (token, next token) repeats far more often
than its two tokens' frequencies alone make it. When the data was laid out the wrong
way (`data.view(-1, bsz)` where `data.view(bsz, -1).t()` was meant), the text runs
across the batch axis and the model reads tokens `bsz` apart as neighbours: the time
axis then holds no more dependence than chance, the batch axis all of it.

Per axis, pairs of neighbouring ids are pooled over the first training batches, and
their dependence measured as the chance that two pairs drawn from them agree over the
chance the two tokens' frequencies give (`R = C2(pairs) / (C2(first) * C2(second))`, each
`C2` the unbiased collision estimate: 1 for independent neighbours). Pairs of equal ids
(padding after padding, a batch of copies) and masked ids (negative) are left out: they
say nothing about the order of a text.

Before the first forward, the layout ops on integer tensors (view, transpose, ...) record where
each storage got each of its last shapes: the last one as wide across as a batch and
longer along its time axis is the line that laid out the data the batches are cut from.
"""

from __future__ import annotations

import torch

from .recorder import Recorder
from .tensors import frame_dict, repo_frame

LAYOUT_OPS = {
    "view", "reshape", "t", "transpose", "permute", "contiguous", "flatten", "unflatten",
    "narrow", "swapaxes", "movedim",
}  # fmt: skip
MAX_BATCHES = 20
MAX_PAIRS = 200_000  # per axis
MIN_PAIRS = 1_000  # per axis, before a dependence is read


def laid_out(rec: Recorder, name: str, out) -> None:
    """Before the first forward, an integer tensor shaped by a layout op: its storage was
    laid out at this line."""
    if (
        name not in LAYOUT_OPS
        or rec.counts["forward"]
        or not isinstance(out, torch.Tensor)
        or out.is_floating_point()
        or len(rec.layout_sites) >= 10_000
    ):
        return
    with rec.quiet():
        key = _storage(out)
        if key is not None:
            sites = rec.layout_sites.setdefault(key, [])
            sites[:] = [*sites[-7:], (tuple(out.shape), repo_frame())]


def next_token_batch(rec: Recorder, x: torch.Tensor, axis: int) -> None:
    """One training batch of ids `x` whose targets are `x` moved one position along
    `axis`: its neighbouring pairs along that axis and across it."""
    n = rec.neighbours
    if x.dim() != 2 or x.is_floating_point() or n["batches"] >= MAX_BATCHES:
        return
    with rec.quiet(), torch.no_grad():
        if n["time_axis"] is None:
            n["time_axis"] = axis
            n["layout"] = frame_dict(_laid_out_at(rec, x, axis))
        if n["time_axis"] != axis:
            return
        n["batches"] += 1
        for key, ax in (("along", axis), ("across", 1 - axis)):
            pairs = _pairs(x.detach(), ax)
            if pairs is not None and sum(p.numel() for p, _ in n[key]) < MAX_PAIRS:
                n[key].append(pairs)


def _laid_out_at(rec: Recorder, x: torch.Tensor, axis: int):
    """The last layout of the batch's storage into a whole the batch is a stretch of:
    as wide across as the batch, longer along its time axis (not the batch's own
    reshapes for the loss)."""
    for shape, frame in reversed(rec.layout_sites.get(_storage(x), [])):
        if len(shape) == 2 and shape[1 - axis] == x.shape[1 - axis] and shape[axis] > x.shape[axis]:
            return frame
    return None


def summary(rec: Recorder) -> dict | None:
    """The dependence of neighbouring ids along the time axis and across it."""
    n = rec.neighbours
    if not n["batches"]:
        return None
    out = {"batches": n["batches"], "time_axis": n["time_axis"], "layout": n["layout"]}
    for key in ("along", "across"):
        parts = n[key]
        a = torch.cat([p for p, _ in parts]) if parts else torch.empty(0, dtype=torch.long)
        b = torch.cat([q for _, q in parts]) if parts else torch.empty(0, dtype=torch.long)
        out[f"{key}_pairs"] = int(a.numel())
        out[key] = dependence(a, b) if a.numel() >= MIN_PAIRS else None
    return out


def dependence(a: torch.Tensor, b: torch.Tensor) -> float | None:
    """How much more often pairs (a, b) repeat than their parts' frequencies make them:
    1 for independent parts."""
    width = int(torch.maximum(a.max(), b.max())) + 1
    pair = a * width + b
    ca, cb, cp = _collision(a), _collision(b), _collision(pair)
    if ca <= 0 or cb <= 0:
        return None
    return cp / (ca * cb)


def _collision(x: torch.Tensor) -> float:
    """The unbiased chance that two of the values, drawn without replacement, agree."""
    _, counts = torch.unique(x, return_counts=True)
    n = x.numel()
    counts = counts.double()
    return float((counts * (counts - 1)).sum()) / (n * (n - 1)) if n > 1 else 0.0


def _pairs(x: torch.Tensor, axis: int) -> tuple[torch.Tensor, torch.Tensor] | None:
    size = x.shape[axis]
    if size < 2:
        return None
    a = x.narrow(axis, 0, size - 1).reshape(-1).long()
    b = x.narrow(axis, 1, size - 1).reshape(-1).long()
    keep = (a != b) & (a >= 0) & (b >= 0)
    return a[keep], b[keep]


def _storage(t: torch.Tensor) -> int | None:
    try:
        return int(t.untyped_storage().data_ptr())
    except Exception:  # noqa: BLE001 - a tensor without a storage (meta, a subclass) has no layout
        return None
