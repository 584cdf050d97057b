"""The classes of every training loss call over the whole run, cheaply.

The detailed windows record the first batches in full; data stored class by class
shows only its first class there (a loader that does not shuffle 800 negatives before
800 positives), which reads as constant labels. Here each training loss call whose
target holds few distinct values adds, per call site, the class a batch holds when it
holds one (else None) with its row count, and the run's count per class: whether the
targets ever vary, and in what order the classes came, over the whole run."""

from __future__ import annotations

import torch

from .recorder import Recorder

MAX_CLASSES = 64  # more distinct values: no classes (a regression, a language model's tokens)
MAX_BATCHES = 4000  # per call site


def record(rec: Recorder, site: str, target: torch.Tensor) -> None:
    """`site` (file:line) is this call's; a second call on the same line before the next
    backward (a GAN's `bce(D(x), ones) + bce(D(fake), zeros)`) is a stream of its own,
    `file:line#1`."""
    seen = rec.class_site_calls
    n = seen.get(site, 0)
    seen[site] = n + 1
    key = f"{site}#{n}" if n else site
    streams = rec.class_streams
    s = streams.get(key)
    if s is None:
        if len(streams) >= 16:
            return
        s = streams[key] = {"counts": {}, "batches": [], "one_per_row": True, "gave_up": False}
    if s["gave_up"] or len(s["batches"]) >= MAX_BATCHES or target.numel() == 0:
        return
    if target.is_floating_point() or target.is_complex():
        t = target.detach()
        if not bool((t == t.round()).all()):  # soft or continuous targets
            s["gave_up"] = True
            return
    with rec.quiet(), torch.no_grad():
        values, counts = torch.unique(target.detach().reshape(-1), return_counts=True)
    merged = s["counts"]
    for v, c in zip(values.tolist(), counts.tolist(), strict=True):
        k = f"{v:g}" if isinstance(v, float) else str(v)
        merged[k] = merged.get(k, 0) + int(c)
    if len(merged) > MAX_CLASSES:
        s["gave_up"] = True
        return
    s["one_per_row"] &= target.dim() <= 1 or target.numel() == target.shape[0]
    single = (
        (f"{values[0].item():g}" if values.is_floating_point() else str(values[0].item()))
        if values.numel() == 1
        else None
    )
    s["batches"].append([single, int(target.shape[0]) if target.dim() else 1])


def serialize(rec: Recorder) -> dict:
    return {
        key: {"counts": s["counts"], "batches": s["batches"], "one_per_row": s["one_per_row"]}
        for key, s in rec.class_streams.items()
        if not s["gave_up"] and s["batches"]
    }
