"""`torch.nn.init`'s in-place initializers (what every built-in layer's `reset_parameters`
calls, and what a program's own init calls): the values each tensor held when an
initializer last wrote it. A parameter still frozen at the end that holds exactly those
values was never trained nor loaded: a random projection the model learns on."""

from __future__ import annotations

import functools

import torch
import torch.nn.init as nn_init

from ..recorder import Recorder
from .guard import Undo, guarded

INITIALIZERS = tuple(
    name
    for name in dir(nn_init)
    if name.endswith("_") and not name.startswith("_") and callable(getattr(nn_init, name))
)


def install(rec: Recorder, undo: Undo) -> None:
    for name in INITIALIZERS:
        orig = getattr(nn_init, name)
        setattr(nn_init, name, _wrap(rec, orig))
        undo.append(functools.partial(setattr, nn_init, name, orig))


def _wrap(rec: Recorder, orig):
    @functools.wraps(orig)
    def initializer(tensor, *a, **k):
        out = orig(tensor, *a, **k)  # the program's own call
        if not rec.busy and isinstance(tensor, torch.Tensor):
            _record(rec, tensor)
        return out

    return initializer


@guarded
def _record(rec: Recorder, t: torch.Tensor) -> None:
    with rec.quiet():
        rec.freezes.initialize(t)
