"""Rows of one forward's output that a loss reads by index: full-graph training.

A graph model (or any model run once over the whole dataset) takes the same input tensors
at every forward and returns one row per node; training and evaluation differ only in
which rows the loss reads (`out[idx_train]`, `out[mask_val]`). Held-out rows inside the
training rows are then invisible to input fingerprints: every pass sees every node. Here
an output indexed along its rows by a 1-D integer or boolean index, when the forward's
first input is the same tensor object each time, tags the result with the rows it holds;
a loss call on such a result adds them to its phase: the training rows as one set per
input, each evaluation pass's rows as a set of its own (the first few per call site)."""

from __future__ import annotations

import torch

from .hooks.guard import guarded
from .recorder import Recorder
from .tensors import frame_dict, repo_frame

MAX_ROWS = 200_000  # training rows kept per input
MAX_PASSES = 32  # distinct evaluation row sets kept


def source_of(tensors: list[torch.Tensor]) -> str | None:
    """The identity of a forward's first input: a full-graph model receives the same
    tensor object at every forward (a mini-batch model a new one each time)."""
    if not tensors:
        return None
    x = tensors[0]
    return f"{id(x)}:{tuple(x.shape)}"


CONVERSIONS = {"to", "long", "int", "cpu", "cuda", "contiguous", "clone", "type", "view", "reshape"}


def born(rec: Recorder, name: str, a0, out: torch.Tensor) -> None:
    """The line that made an index tensor outside any forward (a split's `idx[1500:]`): where
    the training rows were chosen. A conversion keeps the line it converts."""
    if rec.depth != 0 or out.dim() != 1 or out.dtype not in (torch.int64, torch.int32):
        return
    kept = getattr(a0, "_ti_born", None) if name in CONVERSIONS else None
    out._ti_born = kept or repo_frame()


def indexed(a0: torch.Tensor, index, out: torch.Tensor) -> None:
    """`out = a0[index]` where a0 is a forward's output: tag `out` with the rows."""
    src = getattr(a0, "_ti_src", None)
    if src is None or not isinstance(index, torch.Tensor) or index.dim() != 1 or a0.dim() < 1:
        return
    n = a0.shape[0]
    if index.dtype == torch.bool:
        if index.shape[0] != n:
            return
        rows = index.nonzero().flatten()
    elif index.dtype in (torch.int64, torch.int32):
        rows = index.remainder(n) if n else index
    else:
        return
    out._ti_rows = (src, rows, getattr(index, "_ti_born", None))


@guarded  # a failure here is the tracer's, counted, never the program's
def at_loss(rec: Recorder, inp: torch.Tensor, train: bool, site: str) -> None:
    """A loss call at `site` whose input holds indexed rows of a forward's output."""
    src, rows, born = inp._ti_rows
    with rec.quiet(), torch.no_grad():
        ids = rows.detach().cpu().tolist()
    if train:
        kept = rec.indexed_train.setdefault(src, set())
        if len(kept) < MAX_ROWS:
            kept.update(ids)
        rec.indexed_train_site.setdefault(src, site)
        if born is not None:
            rec.indexed_train_born.setdefault(src, frame_dict(born))
        return
    rows_set = frozenset(ids)
    for p in rec.indexed_eval:
        if p["site"] == site and p["src"] == src and p["rows"] == rows_set:
            return
    if len(rec.indexed_eval) < MAX_PASSES:
        rec.indexed_eval.append({"site": site, "src": src, "rows": rows_set})


def serialize(rec: Recorder) -> list[dict]:
    """Each evaluation row set against the training rows of the same input."""
    out = []
    for p in rec.indexed_eval:
        train = rec.indexed_train.get(p["src"])
        if not train:
            continue
        out.append(
            {
                "site": p["site"],
                "rows": len(p["rows"]),
                "overlap": len(p["rows"] & train),
                "train_rows": len(train),
                "train_site": rec.indexed_train_site.get(p["src"], "?"),
                "train_index_made": rec.indexed_train_born.get(p["src"]),
            }
        )
    return out
