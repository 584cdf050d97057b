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


class CutNumber(float):
    """The number `t.item()` gives back on the training path: a float that keeps where it
    was cut through the program's own arithmetic on it (`w * scalars[name]`,
    `sum(values)`), so an op that takes it back in is seen; under rejoin_cuts it keeps the
    tensor too, and that op gets the same arithmetic on the tensor (`source` is None
    otherwise: a logged number holds no graph)."""

    def __new__(cls, value: float, source: torch.Tensor, rec: Recorder, frame=None):
        number = super().__new__(cls, value)
        number.source, number.rec, number.frame = source, rec, frame
        return number

    def _apply(self, other, op, swapped: bool = False):
        if isinstance(other, CutNumber):
            theirs = other.source
        elif isinstance(other, (int, float)) and not isinstance(other, bool):
            theirs = other
        else:
            return NotImplemented
        plain = op(float(other), float(self)) if swapped else op(float(self), float(other))
        if self.source is None or (isinstance(other, CutNumber) and other.source is None):
            return CutNumber(plain, None, self.rec, self.frame)
        a, b = (theirs, self.source) if swapped else (self.source, theirs)
        with self.rec.quiet():
            return CutNumber(plain, op(a, b), self.rec, self.frame)

    def __add__(self, o):
        return self._apply(o, lambda a, b: a + b)

    def __radd__(self, o):
        return self._apply(o, lambda a, b: a + b, swapped=True)

    def __sub__(self, o):
        return self._apply(o, lambda a, b: a - b)

    def __rsub__(self, o):
        return self._apply(o, lambda a, b: a - b, swapped=True)

    def __mul__(self, o):
        return self._apply(o, lambda a, b: a * b)

    def __rmul__(self, o):
        return self._apply(o, lambda a, b: a * b, swapped=True)

    def __truediv__(self, o):
        return self._apply(o, lambda a, b: a / b)

    def __rtruediv__(self, o):
        return self._apply(o, lambda a, b: a / b, swapped=True)

    def __neg__(self):
        if self.source is None:
            return CutNumber(-float(self), None, self.rec, self.frame)
        with self.rec.quiet():
            return CutNumber(-float(self), -self.source, self.rec, self.frame)


def remember(rec: Recorder, t: torch.Tensor, value, frame):
    """A number cut from a scalar that carries gradient, on the training path; under
    rejoin_cuts the number handed back keeps its tensor (CutNumber)."""
    if not (isinstance(value, float) and t.dim() == 0 and t.requires_grad):
        return value
    # a whole number would meet literals (`x + 1.0`) by chance; a computed one does not
    if not value.is_integer():
        if len(rec.cut_values) >= MAX_CUTS:
            rec.cut_values.pop(next(iter(rec.cut_values)))
        rec.cut_values[value] = (t, frame_dict(frame))
    return CutNumber(value, t if rec.iv.rejoin_cuts else None, rec, frame_dict(frame))


def rejoined(rec: Recorder, name: str, func, args, kwargs):
    """An op that takes back a cut number: recorded; under rejoin_cuts it runs with the
    tensor the number came from. Returns the op's output when it ran it, else None."""
    if not (name in ARITHMETIC or name in FACTORIES):
        return None

    def cut(a) -> bool:
        return isinstance(a, CutNumber) or (isinstance(a, float) and a in rec.cut_values)

    hits = [(i, a) for i, a in enumerate(args) if cut(a)]
    fill = kwargs.get("fill_value")
    if cut(fill):
        hits.append(("fill_value", fill))
    if not hits:
        return None
    position, value = hits[0]
    kind = "reentered_cut"  # the number as it was cut
    if isinstance(value, float) and value in rec.cut_values:
        source, cut_frame = rec.cut_values[value]
        source = (
            value.source if isinstance(value, CutNumber) and value.source is not None else source
        )
    else:  # the program's arithmetic on it in between (`w * loss.item()`)
        source, cut_frame, kind = value.source, value.frame, "reentered_number"
        joins = kwargs.get("requires_grad") or any(
            isinstance(a, torch.Tensor) and a.requires_grad for a in args
        )
        if not joins:  # a logged total made a tensor (`torch.tensor(running_loss)`): no term
            return None
    frame = repo_frame()
    site = rec.op_site(kind, frame, op=name, cut=cut_frame)
    if site:
        site["phases"]["train"] = site["phases"].get("train", 0) + 1
    if not rec.iv.rejoin_cuts or source is None:
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
