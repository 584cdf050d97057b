"""`Tensor.requires_grad_(False)` (and `Module.requires_grad_(False)`, which calls it per
parameter): the program's line that froze each tensor, kept until it is unfrozen. A
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


@guarded
def _record(rec: Recorder, t: torch.Tensor, requires_grad: bool) -> None:
    rec.freezes.record(t, requires_grad, rec.n_steps)
    line = None if requires_grad else program_line(("/torch/nn/",))
    if line is None:
        rec.frozen_at.pop(id(t), None)
    else:
        rec.frozen_at[id(t)] = line
