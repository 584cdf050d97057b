"""A softmax whose normalized axis is not the one the product after it sums over: attention
weights normalized over the queries (`softmax(att, dim=-2)`) and then applied to the values
(`att @ v`, which sums over the keys). Each output then mixes weights normalized across
other positions, later ones included; a causal mask no longer keeps the future out.

The mark (`_ti_smax`: the normalized axis and the softmax's line) is set by a softmax in a
forward and follows the tensor only through ops that keep its axes where they are (dropout,
masking, a copy, a dtype change) or move them knowably (transpose, permute); any other op
drops it, so a weight renormalized by hand, or summed elsewhere, is never judged."""

from __future__ import annotations

import torch

from .recorder import Recorder
from .tensors import frame_dict, repo_frame

KEEPS_AXES = {
    "dropout", "contiguous", "clone", "to", "float", "double", "half", "type_as", "masked_fill",
    "masked_fill_", "dropout_", "bfloat16",
}  # fmt: skip
PRODUCTS = {"matmul", "__matmul__", "bmm"}


def after_op(rec: Recorder, name: str, args, kwargs, out: torch.Tensor) -> None:
    a0 = args[0] if args else None
    if name == "softmax" and rec.depth > 0 and isinstance(a0, torch.Tensor) and out.dim() >= 2:
        dim = kwargs.get("dim", args[1] if len(args) > 1 and isinstance(args[1], int) else None)
        if isinstance(dim, int):
            out._ti_smax = (dim % out.dim(), repo_frame())
        return
    if name in PRODUCTS and len(args) >= 2:
        _product(rec, args)
        return
    mark = getattr(a0, "_ti_smax", None) if isinstance(a0, torch.Tensor) else None
    if mark is None:
        return
    axis, frame = mark
    if name in KEEPS_AXES and out.dim() == a0.dim():
        out._ti_smax = mark
    elif name in ("transpose", "swapaxes") and len(args) >= 3 and out.dim() == a0.dim():
        i, j = (d % a0.dim() for d in args[1:3])
        out._ti_smax = ({i: j, j: i}.get(axis, axis), frame)
    elif name == "t" and a0.dim() == 2:
        out._ti_smax = (1 - axis, frame)
    elif name == "permute" and out.dim() == a0.dim():
        dims = args[1] if len(args) == 2 and isinstance(args[1], (tuple, list)) else args[1:]
        dims = [d % a0.dim() for d in dims]
        if axis in dims:
            out._ti_smax = (dims.index(axis), frame)


def _product(rec: Recorder, args) -> None:
    """`w @ v` sums over w's last axis and v's second to last: the softmax's axis must be it."""
    a, b = args[0], args[1]
    for x, summed in ((a, -1), (b, -2)):
        mark = getattr(x, "_ti_smax", None) if isinstance(x, torch.Tensor) else None
        if mark is None or x.dim() < 2:
            continue
        axis, frame = mark
        summed %= x.dim()
        if axis != summed and x.shape[axis] > 1 and x.shape[summed] > 1:
            site = rec.op_site("softmax_axis", frame, in_forward=True, op="matmul",
                               shape=list(x.shape), dim=axis - x.dim())  # fmt: skip
            if site is not None and "caller" not in site:
                site["caller"] = frame_dict(repo_frame())
            if site:
                ph = rec.phase_now()
                site["phases"][ph] = site["phases"].get(ph, 0) + 1
