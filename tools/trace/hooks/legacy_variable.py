"""`Variable(t)`: the pre-0.4 wrapper old training code still calls (`Variable(Tensor(n,
1).fill_(1.0))` for a GAN's real labels) returns a new tensor that the torch-function
mode never sees, so the tags the tracer put on `t` (made from constants, from the batch,
a probability op's provenance) would be lost. The new tensor gets them."""

from __future__ import annotations

import functools

import torch
from torch.autograd import Variable

from ..recorder import Recorder
from .guard import Undo


def install(rec: Recorder, undo: Undo) -> None:
    orig = Variable.__new__

    @functools.wraps(orig)
    def new(cls, *args, **kwargs):
        out = orig(cls, *args, **kwargs)  # the program's own call
        src = args[0] if args else kwargs.get("data")
        if isinstance(src, torch.Tensor) and isinstance(out, torch.Tensor) and out is not src:
            for key, value in getattr(src, "__dict__", {}).items():
                if key.startswith("_ti_"):
                    try:
                        setattr(out, key, value)
                    except (AttributeError, TypeError):
                        continue
        return out

    Variable.__new__ = staticmethod(new)  # type: ignore[method-assign]
    undo.append(lambda: setattr(Variable, "__new__", orig))
