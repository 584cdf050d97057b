"""`nn.Module.__init__` (where each module was built) and `nn.Parameter.__new__`
(parameters created inside a forward, which no optimizer built earlier can own)."""

from __future__ import annotations

import functools

import torch
from torch import nn

from ..recorder import Recorder
from ..tensors import frame_dict, frame_key, repo_frame
from .built_at import construction_frame
from .guard import Undo


def install(rec: Recorder, undo: Undo) -> None:
    orig_init = nn.Module.__init__

    @functools.wraps(orig_init)  # code that reads the signature sees nn.Module's
    def init(self, *a, **k):
        orig_init(self, *a, **k)  # the program's own call
        if not rec.busy:
            object.__setattr__(self, "_ti_created", construction_frame(self))

    nn.Module.__init__ = init
    undo.append(lambda: setattr(nn.Module, "__init__", orig_init))

    orig_new = nn.Parameter.__new__

    def new(cls, data=None, requires_grad=True):
        p = orig_new(cls, data, requires_grad)  # the program's own call
        if not rec.busy and rec.stack and rec.status == "running" and torch.is_grad_enabled():
            _created_in_forward(rec, p)
        return p

    nn.Parameter.__new__ = staticmethod(new)
    undo.append(lambda: setattr(nn.Parameter, "__new__", staticmethod(orig_new)))


def _created_in_forward(rec: Recorder, p: nn.Parameter) -> None:
    frame = repo_frame()
    key = frame_key(frame)
    c = rec.created_in_forward.setdefault(
        key, {"frame": frame_dict(frame), "count": 0, "shapes": []}
    )
    c["count"] += 1
    if len(c["shapes"]) < 4:
        c["shapes"].append(list(p.shape))
    rec.param(p).created_in_forward = True
