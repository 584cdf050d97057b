"""Evaluation scores whose predictions and labels come in different orders: a DataLoader
that shuffles (a RandomSampler) yields its rows in a new order every pass, so predictions
gathered from it line up with the labels it yielded beside them, and with no other order.
Per pass of such a loader, the per-row tensors of its batches (one value per row: labels,
ids) are kept in the order yielded; an evaluation comparison (`==` or `-`) of a
prediction with labels of the same size is matched against them: the labels the loader
yielded, in its order (the pairs kept), the same values in another order (labels read
from the dataset in its own order while the predictions follow the loader's), or
neither. Only the run (interventions/batch.py ordered_iterator) tells whether the
reordered comparison is what the evaluation scores."""

from __future__ import annotations

import torch
from torch.utils.data import DataLoader, RandomSampler

from .recorder import Recorder
from .tensors import frame_dict, repo_frame

COMPARISONS = {"eq", "__eq__", "sub", "__sub__", "__rsub__", "rsub"}
MAX_ROWS = 1_000_000  # values kept per batch position and pass


def started(rec: Recorder, loader: DataLoader, site: str) -> None:
    """A new pass of a loader: one that shuffles starts its record of what it yields."""
    state = rec.eval_order.get(site)
    if not isinstance(getattr(loader, "sampler", None), RandomSampler):
        if state is not None:
            state.pop("cols", None)  # rebuilt in order: its passes line up with the data
        return
    if state is None:
        state = rec.eval_order[site] = {"yielded": 0, "reordered": 0, "unmatched": 0}
    state["cols"], state["rows"] = {}, 0


def loaded(rec: Recorder, site: str, tensors: list[torch.Tensor]) -> None:
    """The per-row tensors of a batch a shuffling, non-training loader yielded."""
    state = rec.eval_order.get(site)
    if state is None or "cols" not in state:
        return
    if rec.loaders.get(site, {}).get("role") == "train":
        state["cols"] = {}  # a training loader's order is nobody's evaluation
        return
    for i, t in enumerate(tensors):
        if t.dim() >= 1 and t.shape[0] and t.numel() == t.shape[0]:
            if state["rows"] + t.numel() > MAX_ROWS:
                return
            state["cols"].setdefault(i, []).append(t.detach().reshape(-1).clone())
    state["rows"] += max((t.shape[0] for t in tensors if t.dim() >= 1), default=0)


def _pred(t: torch.Tensor) -> bool:
    return bool(getattr(t, "_ti_pred", False) or getattr(t, "_ti_out", False))


def after_op(rec: Recorder, name: str, args) -> None:
    """An evaluation comparison of a prediction with labels, after a shuffling loader's
    pass: which order its labels are in."""
    if name not in COMPARISONS or len(args) < 2 or not rec.last_output_eval:
        return
    a, b = args[0], args[1]
    if rec.eval_scores_train or not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        return
    state = rec.eval_order.get(rec.current_loader or "")
    if state is None or not state.get("cols") or _pred(a) == _pred(b):
        return
    if a.shape != b.shape or a.numel() < 2:
        return
    with rec.quiet(), torch._C.DisableTorchFunction():
        labels = (b if _pred(a) else a).detach().reshape(-1).double()
        found = _order(labels, state["cols"])
    state[found] += 1
    if found == "reordered" and "frame" not in state:
        state["frame"], state["compared"] = frame_dict(repo_frame()), int(labels.numel())


def _order(labels: torch.Tensor, cols: dict[int, list[torch.Tensor]]) -> str:
    n = labels.numel()
    for parts in cols.values():
        if parts[-1].numel() == n and torch.equal(parts[-1].double(), labels):
            return "yielded"  # one batch's labels, beside that batch's predictions
        if sum(p.numel() for p in parts) != n:
            continue
        whole = torch.cat(parts).double()
        if torch.equal(whole, labels):
            return "yielded"
        if torch.equal(whole.sort().values, labels.sort().values):
            return "reordered"
    return "unmatched"


def serialize(rec: Recorder) -> list[dict]:
    """Per shuffling loader whose pass an evaluation compared: how its labels lined up."""
    return [
        {"site": site, "yielded": s["yielded"], "reordered": s["reordered"],
         "unmatched": s["unmatched"], "frame": s.get("frame"), "compared": s.get("compared", 0)}
        for site, s in rec.eval_order.items()
        if s["yielded"] or s["reordered"] or s["unmatched"]
    ]  # fmt: skip
