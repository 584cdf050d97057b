"""`Module.train(False)` (and `.eval()`, which calls it): the line of the program's own
code that switched a module to eval mode, kept per module until it is switched back. A
training forward in eval mode is then placed where the mode was switched off (a callback,
a helper), not only where the forward ran. Likewise the line that last switched it to
train mode, with the number of backwards by then: an evaluation in train mode that
follows such a switch with no training step between is placed at that switch."""

from __future__ import annotations

import os
import sys

from torch import nn

from ..recorder import Recorder
from ..tensors import in_repo, relpath
from .guard import Undo, guarded

_TRACER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # this package


def install(rec: Recorder, undo: Undo) -> None:
    orig = nn.Module.train

    def train(self, mode: bool = True):
        if not rec.busy and rec.status == "running":
            _record(rec, self, bool(mode))
        return orig(self, mode)  # the program's own call

    nn.Module.train = train  # type: ignore[method-assign]
    undo.append(lambda: setattr(nn.Module, "train", orig))


@guarded
def _record(rec: Recorder, module: nn.Module, mode: bool) -> None:
    line = program_line(("/torch/nn/",))
    if mode:
        rec.mode_off.pop(id(module), None)
        if line is not None:
            rec.mode_on[id(module)] = (line, rec.counts["backward"])
        else:
            rec.mode_on.pop(id(module), None)
        if id(module) in rec.switched_off:
            rec.switched_off.discard(id(module))
            rec.train_mode_counts["back_to_train"] += 1
        return
    rec.switched_off.add(id(module))
    rec.mode_on.pop(id(module), None)
    if line is not None:
        rec.mode_off[id(module)] = line
        rec.eval_lines.add(line[:2])
    else:
        rec.mode_off.pop(id(module), None)


def program_line(skip: tuple[str, ...] = ()) -> tuple[str, int, str] | None:
    """The first caller outside the tracer (and outside files whose path holds one of
    `skip`): the program's own line, or None for a framework's (whose call is its own
    business, so nothing is kept)."""
    f = sys._getframe(1)
    while f is not None and (
        f.f_code.co_filename.startswith(_TRACER) or any(s in f.f_code.co_filename for s in skip)
    ):
        f = f.f_back
    if f is not None and in_repo(f.f_code.co_filename):
        return (relpath(f.f_code.co_filename), f.f_lineno, f.f_code.co_name)
    return None
