"""A prediction that picks the largest distance: `cdist(q, protos).topk(1)` (topk keeps the
largest by default), `.argmax()` or `.max(dim)` over distances, whose indices are then
compared with `==` to other indices (the labels) in evaluation. A nearest-neighbour or
prototype classifier must pick the smallest distance; farthest-point sampling picks the
largest but compares its indices with nothing.

Distances are marked where an op makes them (`cdist`, `pairwise_distance`, the norm of a
difference) and follow the tensor through reshapes, squaring and square roots only."""

from __future__ import annotations

import torch

from . import sort_order
from .ops import PASSTHROUGH
from .recorder import Recorder
from .tensors import frame_dict, repo_frame

DISTANCES = {"cdist", "pairwise_distance"}
NORMS = {"norm", "vector_norm", "linalg_vector_norm"}
DIFFERENCES = {"sub", "__sub__", "__rsub__", "rsub"}
KEEPS_DISTANCE = PASSTHROUGH | {"pow", "__pow__", "sqrt", "square", "squeeze"}
EQUALS = {"eq", "__eq__"}


def after_op(rec: Recorder, name: str, args, kwargs, out) -> None:
    """`out`: the op's tensor, or its tuple (topk and max over a dim give values and indices).
    Evaluation sorts are read here too (sort_order.py)."""
    sort_order.after_op(rec, name, args, kwargs)
    a0 = args[0] if args else None
    if not isinstance(a0, torch.Tensor):
        return
    if name in DIFFERENCES:
        out._ti_diff = True
        return
    if name in DISTANCES or (name in NORMS and getattr(a0, "_ti_diff", False)):
        out._ti_dist = True
        return
    if getattr(a0, "_ti_dist", False):
        if name in KEEPS_DISTANCE:
            out._ti_dist = True
        elif _largest(name, args, kwargs) and not torch.is_grad_enabled():
            frame = repo_frame()
            for t in out if isinstance(out, tuple) else (out,):
                if isinstance(t, torch.Tensor):
                    t._ti_farthest = frame
        return
    if not isinstance(out, torch.Tensor):
        return
    mark = getattr(a0, "_ti_farthest", None)
    if mark is not None and name in PASSTHROUGH:
        out._ti_farthest = mark
    elif name in EQUALS and len(args) >= 2:
        marks = [getattr(a, "_ti_farthest", None) for a in args[:2] if isinstance(a, torch.Tensor)]
        mark = next((m for m in marks if m is not None), None)
        if mark is not None:
            site = rec.op_site("farthest", mark, op="eq", in_forward=False)
            if site and "caller" not in site:
                site["caller"] = frame_dict(repo_frame())
            if site:
                site["phases"]["eval"] = site["phases"].get("eval", 0) + 1


def _largest(name: str, args, kwargs) -> bool:
    """An index op that keeps the largest values (topk's default, argmax, max over a dim)."""
    if name == "topk":
        return bool(kwargs.get("largest", args[3] if len(args) > 3 else True))
    if name == "argmax":
        return True
    return name == "max" and (len(args) > 1 or "dim" in kwargs)
