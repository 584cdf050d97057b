"""Evaluation forwards that score the training rows: a train-set accuracy through the
evaluation code (`accuracy(model, train_x, train_y)` on the very tensor the training
batches are cut from or a training loader's TensorDataset holds, or the training loader
iterated with the model in eval mode). Their
comparisons are no held-out reading: the program's own evaluation accuracy and error
(eval_matches.py) leave them out, so memorized rows do not read as learned ones."""

from __future__ import annotations

import torch

from .recorder import Recorder


def _key(t: torch.Tensor) -> tuple[int, tuple[int, ...]]:
    return id(t), tuple(t.shape)


def cut(a0, index, out) -> None:
    """`out = a0[index]` by a 1-D index tensor: the rows of a batch cut from a0."""
    if (
        isinstance(a0, torch.Tensor)
        and isinstance(out, torch.Tensor)
        and isinstance(index, torch.Tensor)
        and index.dim() == 1
        and a0.dim() >= 1
    ):
        out._ti_cut_from = _key(a0)
        if index.dtype in (torch.int64, torch.int32, torch.bool) and out.dim() >= 1:
            out._ti_row_source = (a0, index)


def keeps_rows(name: str, a0, args, out) -> None:
    """An op that keeps each row where it was (a column selection `x[:, cols]`, a dtype
    or device conversion) carries the rows' source on: an augmentation that permutes a
    batch's columns still holds the rows it was cut from."""
    src = getattr(a0, "_ti_row_source", None)
    if src is None or not isinstance(out, torch.Tensor) or out.dim() < 1:
        return
    if out.shape[0] != a0.shape[0]:
        return
    if name == "__getitem__":
        index = args[1] if len(args) > 1 else None
        if not (isinstance(index, tuple) and index and index[0] == slice(None)):
            return
    elif name in ELEMENTWISE:
        if out.shape != a0.shape:
            return
    elif name not in ROW_KEEPING:
        return
    out._ti_row_source = src


ROW_KEEPING = {"float", "double", "to", "contiguous", "clone", "detach", "type"}
# noise added, a scale applied: each row stays the row it was
ELEMENTWISE = {
    "add", "sub", "mul", "div", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__",
    "__rmul__", "__truediv__", "clamp", "clip",
}  # fmt: skip


def origin_rows(x: torch.Tensor) -> torch.Tensor | None:
    """The rows a training input was made from when the program transformed them after
    cutting them (`x[b][:, perm]`): None when it was not cut, or is those rows as cut."""
    src = getattr(x, "_ti_row_source", None)
    if src is None:
        return None
    a0, index = src
    rows = a0[index]
    if rows.shape[0] != x.shape[0] or (rows.shape == x.shape and torch.equal(rows, x)):
        return None
    return rows


def dataset_tensors(rec: Recorder, dataset, site: str) -> None:
    """The tensors a loader's TensorDataset (or a Subset of one) holds."""
    base = getattr(dataset, "dataset", dataset)
    held = getattr(base, "tensors", None)
    if isinstance(held, tuple) and all(isinstance(t, torch.Tensor) for t in held):
        rec.loader_tensors[site] = {_key(t) for t in held}


def loaded(tensors: list[torch.Tensor], site: str) -> None:
    for t in tensors:
        t._ti_loader = site


def at_forward(rec: Recorder, tensors: list, evaluation: bool) -> None:
    """A top-level model forward: a training forward notes where its batch came from; an
    evaluation forward notes whether its input is the training data itself."""
    x = tensors[0] if tensors and isinstance(tensors[0], torch.Tensor) else None
    if x is None:
        rec.eval_scores_train = False
        return
    if not evaluation:
        source = getattr(x, "_ti_cut_from", None)
        if source is not None:
            rec.train_sources.add(source)
        loader = getattr(x, "_ti_loader", None)
        if loader is not None:
            rec.train_loaders.add(loader)
        return
    loader = getattr(x, "_ti_loader", None)
    rec.eval_scores_train = (
        _key(x) in rec.train_sources
        or (loader is not None and loader in rec.train_loaders)
        or any(_key(x) in rec.loader_tensors.get(site, ()) for site in rec.train_loaders)
    )
