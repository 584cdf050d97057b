"""The model's input at the elements a loss mask keeps. A 0/1 mask multiplied into an
element-wise loss (`(bce * weight).sum() / weight.sum()`) of a per-row label, whose model
input holds one feature vector per loss element (days x features for a label per day):
how many kept and how many dropped elements the model received as one and the same
vector (the fill value of rows that were missing: zeros and a missing flag), whether an
input channel holds the target on the dropped elements (a masked model's visible part,
noisy or not: the hidden ones are what it must predict), and whether the mask differs
between samples (a fixed position, such as a summary token, is a design). Read by
agent/checks/filled_rows.py."""

from __future__ import annotations

import torch

from .recorder import Recorder


def read(rec: Recorder, keep: torch.Tensor, y: torch.Tensor) -> dict:
    """The mask's fill counts, or {} when the model's input has no feature vector per
    loss element."""
    x = rec.last_input
    n = keep.numel()
    if not isinstance(x, torch.Tensor) or not x.is_floating_point() or x.dim() < 2:
        return {}
    width = int(x.shape[-1])
    if width < 2 or x.numel() != n * width or y.numel() != n:
        return {}
    rows = x.detach().reshape(n, width).nan_to_num(nan=float("inf"))
    kept, dropped = rows[keep], rows[~keep]
    if len(kept) < 2 or len(dropped) < 2:
        return {}
    values, counts = torch.unique(kept, dim=0, return_counts=True)
    fill = values[int(counts.argmax())]
    target = y[~keep].to(dropped.dtype)
    per_sample = keep.reshape(int(x.shape[0]), -1)
    return {
        "kept_filled": int((kept == fill).all(1).sum()),
        "dropped_filled": int((dropped == fill).all(1).sum()),
        "target_in_input": _copied(dropped, target),
        "varies": bool((per_sample != per_sample[:1]).any()),
    }


# an input channel holds the target when it misses it by less than this share of the
# target's variance (a noisy copy of it); a constant target must be matched exactly
COPY = 0.25


def _copied(rows: torch.Tensor, target: torch.Tensor) -> bool:
    """Some column of `rows` is the target, or a close copy of it."""
    if not bool(torch.isfinite(rows).all()) or not bool(torch.isfinite(target).all()):
        return bool((rows == target[:, None]).all(0).any())
    miss = ((rows - target[:, None]) ** 2).mean(0)
    return bool((miss <= COPY * float(target.var())).any())
