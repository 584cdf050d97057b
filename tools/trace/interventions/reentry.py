"""A value cut out of the graph that re-enters it: `float(t)` or `t.item()` of a tensor
that carries gradient, on the training path, then used again as a Python number in an
op that builds the loss (`x.new_full(shape, float(log_scale.sum()))`, `loss + l2.item()`).
The number looks right, its gradient is gone. The numbers cut in the current training
step are remembered with their tensors, so a later op that receives one of them is
seen (`reentered_cut` op sites), and under `rejoin_cuts` gets the tensor back instead.
"""

from __future__ import annotations

import torch

from ..recorder import Recorder
from ..tensors import frame_dict, repo_frame

# ops that may take a cut number back in: arithmetic, and factories that make a tensor of it
ARITHMETIC = {
    "add", "sub", "mul", "div", "true_divide", "__add__", "__radd__", "__sub__", "__rsub__",
    "__mul__", "__rmul__", "__truediv__", "__rtruediv__", "rsub",
}  # fmt: skip
FACTORIES = {"full", "new_full", "full_like", "tensor", "as_tensor", "scalar_tensor"}
MAX_CUTS = 64


def remember(rec: Recorder, t: torch.Tensor, value, frame) -> None:
    """A number cut from a scalar that carries gradient, on the training path."""
    # a whole number would meet literals (`x + 1.0`) by chance; a computed one does not
    if isinstance(value, float) and not value.is_integer() and t.dim() == 0 and t.requires_grad:
        if len(rec.cut_values) >= MAX_CUTS:
            rec.cut_values.pop(next(iter(rec.cut_values)))
        rec.cut_values[value] = (t, frame_dict(frame))


def rejoined(rec: Recorder, name: str, func, args, kwargs):
    """An op that takes back a cut number: recorded; under rejoin_cuts it runs with the
    tensor the number came from. Returns the op's output when it ran it, else None."""
    if not rec.cut_values or not (name in ARITHMETIC or name in FACTORIES):
        return None
    hits = [(i, a) for i, a in enumerate(args) if isinstance(a, float) and a in rec.cut_values]
    fill = kwargs.get("fill_value")
    if isinstance(fill, float) and fill in rec.cut_values:
        hits.append(("fill_value", fill))
    if not hits:
        return None
    position, value = hits[0]
    source, cut_frame = rec.cut_values[value]
    frame = repo_frame()
    site = rec.op_site("reentered_cut", frame, op=name, cut=cut_frame)
    if site:
        site["phases"]["train"] = site["phases"].get("train", 0) + 1
    if not rec.iv.rejoin_cuts:
        return None
    with rec.quiet():
        return _with_tensor(name, func, args, kwargs, position, source)


def _with_tensor(name, func, args, kwargs, position, source: torch.Tensor):
    if name in ARITHMETIC:
        args = list(args)
        args[position] = source
        return func(*args, **kwargs)  # the program's own call
    # a factory: the same values, made from the tensor so the graph goes through them
    size = kwargs.get("size")
    if name == "new_full":
        like, size = args[0], (args[1] if len(args) > 1 else size)
        return source.to(like.dtype).expand(tuple(size)).clone()
    if name == "full":
        size = args[0] if args else size
        return source.expand(tuple(size)).clone()
    if name == "full_like":
        return source.to(args[0].dtype).expand(args[0].shape).clone()
    return source.clone()
