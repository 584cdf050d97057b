"""Padding told from a class by where it sits: the value an index loss ignores ends each
sequence of the targets, read before they were flattened for the loss."""

from __future__ import annotations

import torch


def ignored_tail(tgt: torch.Tensor, ignore: int) -> bool | None:
    """Whether the ignored value ends each sequence, as padding does: in the targets
    before they were flattened (`tgt.reshape(-1)` of a [T, B] or [B, T] batch), along one
    axis of two or more positions, every sequence that holds the value holds it from some
    position to its end, and some sequence holds it after real targets. None when the
    targets were never anything but one per sample."""
    src = getattr(tgt, "_ti_unflat", None)
    if src is None or src.dim() != 2 or src.numel() != tgt.numel():
        return None
    hit = src == ignore
    for axis in (0, 1):
        if src.shape[axis] < 2:
            continue
        seqs = hit if axis == 1 else hit.t()  # one row per sequence
        # from its first ignored position on, the sequence is ignored to its end
        after_first = torch.cummax(seqs.int(), dim=1).values.bool()
        mixed = seqs.any(dim=1) & ~seqs.all(dim=1)
        if bool((after_first == seqs).all()) and bool(mixed.any()):
            return True
    return False
