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

from .ops import tag_of
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


# Mean distance of a soft target's row sums from 1 along the class axis beyond which its
# rows are no distributions (label smoothing, mixup and a teacher's softmax sum to 1).
OFF_ONE = 0.1
PRODUCTS_ELEMENTWISE = {"mul", "__mul__", "__rmul__"}


def soft_target(rec: Recorder, name: str, args) -> None:
    """A target a softmax made outside the program's forwards, multiplied on the training
    path with log-probabilities the model's output gave (a hand-written soft-target
    cross-entropy `-(q * logits.log_softmax(-1)).sum(-1)`), normalized over another axis
    than the log_softmax's (`softmax(affinity, dim=0)`: over the samples, not the classes)
    while its rows along the log_softmax's axis do not sum to 1: an op site."""
    if name not in PRODUCTS_ELEMENTWISE or len(args) < 2 or not torch.is_grad_enabled():
        return
    a, b = args[0], args[1]
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        return
    if a.shape != b.shape or a.dim() < 2:
        return
    for logp, q in ((a, b), (b, a)):
        axes = _axes(logp, q)
        if axes is None:
            continue
        with rec.quiet():
            sums = q.detach().double().sum(axes[0])
            off = float((sums - 1).abs().mean())
        if off < OFF_ONE:
            continue
        site = rec.op_site(
            "soft_target_axis", repo_frame(), op=name, shape=list(q.shape),
            dim=axes[0] - q.dim(), source_dim=axes[1] - q.dim(),
            source=frame_dict(tag_of(q)[1]), in_forward=rec.depth > 0,
        )  # fmt: skip
        if site:
            site["phases"]["train"] = site["phases"].get("train", 0) + 1
            site.setdefault("row_sum", float(sums.mean()))
        return


def _axes(logp: torch.Tensor, q: torch.Tensor) -> tuple[int, int] | None:
    """(the log_softmax's axis, the target softmax's axis) when they differ, else None."""
    lt, qt = tag_of(logp), tag_of(q)
    if lt is None or qt is None or lt[0] != "log_softmax" or qt[0] != "softmax":
        return None
    if lt[3] is None or qt[3] is None or q.requires_grad or not logp.requires_grad:
        return None
    if not (getattr(logp, "_ti_pred", False) or getattr(logp, "_ti_out", False)):
        return None
    d, e = lt[3] % logp.dim(), qt[3] % q.dim()
    if d == e or q.shape[d] < 2 or q.shape[e] < 2:
        return None
    return d, e


def moved(rec: Recorder, args, kwargs) -> tuple[tuple, dict]:
    """softmax_dim_at ("file:line:dim"): the softmax called on that line normalizes over
    that axis instead (the args unchanged elsewhere)."""
    file, line, dim = rec.iv.softmax_dim_at.rsplit(":", 2)
    frame = repo_frame()
    if frame is None or frame[0] != file or frame[1] != int(line):
        return args, kwargs
    rec.counts["softmax_dim_moved"] += 1
    if "dim" in kwargs or len(args) < 2:
        return args, {**kwargs, "dim": int(dim)}
    return (args[0], int(dim), *args[2:]), kwargs
