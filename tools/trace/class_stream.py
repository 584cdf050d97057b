"""The classes of every training loss call over the whole run, cheaply.

The detailed windows record the first batches in full; data stored class by class
shows only its first class there (a loader that does not shuffle 800 negatives before
800 positives), which reads as constant labels. Here each training loss call whose
target holds few distinct values adds, per call site, the class a batch holds when it
holds one (else None) with its row count, and the run's count per class: whether the
targets ever vary, and in what order the classes came, over the whole run."""

from __future__ import annotations

import torch

from .hooks.guard import guarded
from .recorder import Recorder

MAX_CLASSES = 64  # more distinct values: no classes (a regression, a language model's tokens)
MAX_BATCHES = 4000  # per call site


@guarded  # a failure here is the tracer's, counted, never the program's
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
    t = target.detach()
    if t.is_complex() or (t.is_floating_point() and not bool((t == t.round()).all())):
        s["gave_up"] = True  # soft or continuous targets: no classes
        return
    with rec.quiet(), torch.no_grad():
        values, counts = torch.unique(t.reshape(-1), return_counts=True)
    keys = [f"{v:g}" if isinstance(v, float) else str(v) for v in values.tolist()]
    merged = s["counts"]
    for k, c in zip(keys, counts.tolist(), strict=True):
        merged[k] = merged.get(k, 0) + int(c)
    if len(merged) > MAX_CLASSES:
        s["gave_up"] = True
        return
    s["one_per_row"] &= t.dim() <= 1 or t.numel() == t.shape[0]
    s["batches"].append([keys[0] if len(keys) == 1 else None, int(t.shape[0]) if t.dim() else 1])


def serialize(rec: Recorder) -> dict:
    return {
        key: {"counts": s["counts"], "batches": s["batches"], "one_per_row": s["one_per_row"]}
        for key, s in rec.class_streams.items()
        if not s["gave_up"] and s["batches"]
    }
