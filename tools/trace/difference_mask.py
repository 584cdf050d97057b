"""Losses written by hand on batches cut by hand, and the masks multiplied into them.

Rows a program cuts itself (`X[idx]`, `y[idx]`, `X[i:i + bs]`) carry the key of their
index; once a model receives rows with a key, every tensor cut with that key in the same
iteration is the batch's too (its targets, its mask), as a DataLoader's tuple would be.

A hand-written difference (`pred - y`, recognised by loss_calls.difference_target) keeps
its target through element-wise ops (`** 2`, `abs`); a 0/1 tensor of its size multiplied
into it is a loss mask. Per difference site: how many elements the mask keeps, the target
values it keeps (when few), and in how many calls they are one value while the batch's
targets take several."""

from __future__ import annotations

import torch

from .hooks.guard import guarded
from .recorder import Recorder
from .tensors import frame_dict, repo_frame

ELEMENTWISE = {"pow", "__pow__", "square", "abs", "neg", "__neg__", "__abs__"}
MULS = {"mul", "__mul__", "__rmul__"}
# ops whose result keeps the rows of a keyed operand (a target scaled, `y[idx] / scale`)
ROW_KEEPING = MULS | {
    "add", "__add__", "__radd__", "sub", "__sub__", "masked_fill", "where",
    "div", "__truediv__", "true_divide", "__rtruediv__",
}  # fmt: skip
MAX_KEYS = 64  # row keys fed to a model since the last backward
MAX_VALUES = 16  # kept target values listed


def _rows_key(index) -> tuple | None:
    if isinstance(index, torch.Tensor) and index.dim() == 1 and not index.is_floating_point():
        return ("tensor", id(index))
    if isinstance(index, slice) and isinstance(index.start, int) and isinstance(index.stop, int):
        return ("slice", index.start, index.stop, index.step)
    return None


def cut(name: str, args, out) -> None:
    """`data[index]`: the rows remember the index they were cut with. An element-wise op
    on such rows that makes no gradient (`x * visible`, an imputer hiding readings) keeps
    their key: the model then receives the same rows, changed."""
    if not isinstance(out, torch.Tensor) or out.dim() < 1:
        return
    if name == "__getitem__" and len(args) >= 2:
        key = _rows_key(args[1])
        if key is not None:
            out._ti_rows_key = key
        return
    if name in ROW_KEEPING and not out.requires_grad:
        keyed = next(
            (a for a in args[:2] if isinstance(a, torch.Tensor) and hasattr(a, "_ti_rows_key")),
            None,
        )
        if keyed is not None and keyed.dim() >= 1 and out.shape[0] == keyed.shape[0]:
            out._ti_rows_key = keyed._ti_rows_key


def fed(rec: Recorder, tensors: list) -> None:
    """A model receives rows cut by hand: their key marks the iteration's batch."""
    for t in tensors:
        key = getattr(t, "_ti_rows_key", None)
        if key is not None and len(rec.fed_rows_keys) < MAX_KEYS:
            rec.fed_rows_keys.add(key)


def of_batch(rec: Recorder, x: torch.Tensor) -> bool:
    """Cut with the key of rows a model received in this iteration."""
    key = getattr(x, "_ti_rows_key", None)
    return key is not None and key in rec.fed_rows_keys


def backward(rec: Recorder) -> None:
    rec.fed_rows_keys.clear()


def difference(rec: Recorder, name: str, args, out: torch.Tensor) -> None:
    """Tag a recognised hand-written difference with its site and target, and carry the
    tag through element-wise ops of the same shape."""
    pending = rec.pending_difference
    if pending is not None and any(a is pending[1] for a in args[:2]):
        rec.pending_difference = None
        out._ti_hand_diff = pending
        return
    a0 = args[0] if args else None
    tag = getattr(a0, "_ti_hand_diff", None) if isinstance(a0, torch.Tensor) else None
    if tag is not None and name in ELEMENTWISE and out.shape == a0.shape:
        out._ti_hand_diff = tag
        return
    if name in MULS and len(args) >= 2:
        with rec.quiet():
            _masked(rec, args, out)


def zero_one_keep(weights: torch.Tensor, target: torch.Tensor) -> tuple | None:
    """A 0/1 tensor multiplied into an element-wise loss of `target`'s size: the elements
    it keeps, and the target flattened beside them. None for weights (other values) or
    another size."""
    w = weights.detach().reshape(-1)
    if w.numel() != target.numel() or not bool(((w == 0) | (w == 1)).all()):
        return None
    return w != 0, target.detach().reshape(-1)


@guarded
def _masked(rec: Recorder, args, out: torch.Tensor) -> None:
    diff = next((a for a in args[:2] if getattr(a, "_ti_hand_diff", None) is not None), None)
    mask = next((a for a in args[:2] if isinstance(a, torch.Tensor) and a is not diff), None)
    if diff is None or mask is None or mask.shape != diff.shape or mask.numel() < 2:
        return
    key, target = diff._ti_hand_diff
    split = zero_one_keep(mask, target)
    if split is None:
        return
    keep, y = split
    site = rec.difference_masks.setdefault(
        key,
        {"frame": frame_dict(repo_frame()), "calls": 0, "kept": 0, "total": 0,
         "one_value": 0, "kept_values": [], "kept_in_input": 0, "dropped_in_input": 0,
         "compared": 0},
    )  # fmt: skip
    site["calls"] += 1
    site["kept"] += int(keep.sum())
    site["total"] += int(keep.numel())
    _in_input(rec, site, keep, y)
    kept = torch.unique(y[keep]) if bool(keep.any()) else y[:0]
    if kept.numel() == 1 and torch.unique(y).numel() > 1:
        site["one_value"] += 1
    values = sorted(set(site["kept_values"]) | {float(v) for v in kept[:MAX_VALUES].tolist()})
    site["kept_values"] = values[:MAX_VALUES]


def _in_input(rec: Recorder, site: dict, keep: torch.Tensor, y: torch.Tensor) -> None:
    """How many kept and dropped elements the model received as they are: the target's
    value at the same place of the model's input (an imputer's visible readings)."""
    x = rec.last_input
    if not isinstance(x, torch.Tensor) or x.numel() != y.numel() or not x.is_floating_point():
        return
    same = x.detach().reshape(-1).to(y.dtype) == y
    site["compared"] += 1
    site["kept_in_input"] += int((keep & same).sum())
    site["dropped_in_input"] += int((~keep & same).sum())
