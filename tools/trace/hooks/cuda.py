"""Hard-coded CUDA requests run on the CPU: GPU-only code still traces.

`Tensor.cuda()`/`to("cuda")` return a copy, as on a GPU, so a leaf moved after
`requires_grad=True` is a non-leaf here too (the bug stays visible). Device keywords of
factory functions are mapped by the function mode.
"""

from __future__ import annotations

import torch
from torch import nn

from ..recorder import Recorder
from .guard import Undo


def install(rec: Recorder, undo: Undo) -> None:
    if torch.cuda.is_available() or not rec.cfg.map_cuda:
        return
    T = torch.Tensor
    orig_tcuda, orig_tto = T.cuda, T.to
    orig_mcuda, orig_mto = nn.Module.cuda, nn.Module.to

    def is_cuda(d) -> bool:
        return (isinstance(d, str) and d.startswith("cuda")) or (
            isinstance(d, torch.device) and d.type == "cuda"
        )

    def t_cuda(self, device=None, non_blocking=False, memory_format=torch.preserve_format):
        return orig_tto(self, "cpu", copy=True)  # the program's own call

    def t_to(self, *args, **kwargs):
        if args and is_cuda(args[0]):
            args = ("cpu", *args[1:])
            kwargs["copy"] = True
        if is_cuda(kwargs.get("device")):
            kwargs["device"] = "cpu"
            kwargs["copy"] = True
        return orig_tto(self, *args, **kwargs)  # the program's own call

    def m_cuda(self, device=None):
        return self

    def m_to(self, *args, **kwargs):
        if args and is_cuda(args[0]):
            args = ("cpu", *args[1:])
        if is_cuda(kwargs.get("device")):
            kwargs["device"] = "cpu"
        return orig_mto(self, *args, **kwargs)  # the program's own call

    # the function mode sees these replacements as the ops it dispatches: keep the names
    t_cuda.__name__, t_to.__name__ = "cuda", "to"
    T.cuda, T.to, nn.Module.cuda, nn.Module.to = t_cuda, t_to, m_cuda, m_to
    orig_sync = torch.cuda.synchronize
    torch.cuda.synchronize = lambda *a, **k: None
    undo.append(lambda: setattr(T, "cuda", orig_tcuda))
    undo.append(lambda: setattr(T, "to", orig_tto))
    undo.append(lambda: setattr(nn.Module, "cuda", orig_mcuda))
    undo.append(lambda: setattr(nn.Module, "to", orig_mto))
    undo.append(lambda: setattr(torch.cuda, "synchronize", orig_sync))
