"""`Tensor.requires_grad_(False)` (and `Module.requires_grad_(False)`, which calls it per
parameter) and its attribute spelling `p.requires_grad = False`: the program's line that
froze each tensor, kept until it is unfrozen. A
parameter an optimizer holds frozen is then placed where it was frozen (a setup helper,
a config flag read as true), not where the optimizer was built."""

from __future__ import annotations

import torch

from ..recorder import Recorder
from .guard import Undo, guarded
from .mode_switch import program_line


def install(rec: Recorder, undo: Undo) -> None:
    orig = torch.Tensor.requires_grad_

    def requires_grad_(self, requires_grad: bool = True):
        if not rec.busy and rec.status == "running":
            _record(rec, self, bool(requires_grad))
        return orig(self, requires_grad)  # the program's own call

    torch.Tensor.requires_grad_ = requires_grad_  # type: ignore[method-assign]
    undo.append(lambda: setattr(torch.Tensor, "requires_grad_", orig))
    _install_attribute(rec, undo)


def _install_attribute(rec: Recorder, undo: Undo) -> None:
    """`t.requires_grad = flag` sets the C attribute every tensor inherits: a property on
    `torch.Tensor` records the assignment and hands it on; reads go straight to the C
    getter. Skipped when the class already defines its own."""
    if "requires_grad" in vars(torch.Tensor):
        return
    base = torch._C.TensorBase.requires_grad

    def assign(self, requires_grad) -> None:
        if not rec.busy and rec.status == "running":
            _record(rec, self, bool(requires_grad))
        base.__set__(self, requires_grad)  # the program's own assignment

    torch.Tensor.requires_grad = property(base.__get__, assign)  # type: ignore[assignment]
    undo.append(lambda: delattr(torch.Tensor, "requires_grad"))


@guarded
def _record(rec: Recorder, t: torch.Tensor, requires_grad: bool) -> None:
    rec.freezes.record(t, requires_grad, rec.n_steps)
    line = None if requires_grad else program_line(("/torch/nn/",))
    if line is None:
        rec.frozen_at.pop(id(t), None)
    else:
        rec.frozen_at[id(t)] = line
