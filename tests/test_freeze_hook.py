"""The freeze hook hears both spellings of a freeze: `p.requires_grad_(False)` and the
attribute `p.requires_grad = False` (a property on `torch.Tensor` that hands the value on
to the C attribute). The program's assignment takes effect, the freeze is kept with the
program's line, and undoing the hooks leaves `torch.Tensor` as it was."""

from __future__ import annotations

import os

import torch

from torch_investigate.tools.trace import tensors
from torch_investigate.tools.trace.config import Config
from torch_investigate.tools.trace.hooks import freeze
from torch_investigate.tools.trace.recorder import Recorder


def test_an_attribute_freeze_is_recorded_and_the_patch_undone(monkeypatch):
    monkeypatch.setattr(tensors, "_REPO_ROOT", os.path.realpath(os.path.dirname(__file__)))
    tensors._frame_cache.clear()
    rec = Recorder(Config())
    undo: list = []
    freeze.install(rec, undo)
    try:
        layer = torch.nn.Linear(3, 2)
        layer.weight.requires_grad = False  # the program's own freeze
        assert layer.weight.requires_grad is False and layer.bias.requires_grad is True
        assert id(layer.weight) in rec.freezes.froze
        assert rec.frozen_at[id(layer.weight)][0].endswith("test_freeze_hook.py")
        layer.weight.requires_grad = True  # unfrozen: nothing left to place
        assert id(layer.weight) not in rec.frozen_at
    finally:
        for fn in reversed(undo):
            fn()
        tensors._frame_cache.clear()
    assert "requires_grad" not in vars(torch.Tensor)
    assert "requires_grad_" in vars(torch.Tensor)  # the method restored, not removed
    t = torch.zeros(2)
    t.requires_grad = True
    assert t.requires_grad
