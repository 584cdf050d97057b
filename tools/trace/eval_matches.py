"""The program's own evaluation accuracy: an `==` between a prediction of a forward made
in evaluation (no grad, or a model in eval mode) and integer labels of the same shape
(`(logits.argmax(1) == y).sum()`). Counted per evaluation pass (optimizer steps so far):
a run that records no evaluation loss still shows what a change to the evaluation inputs
did to the evaluation's answers."""

from __future__ import annotations

import torch

from .recorder import Recorder

EQUALS = {"eq", "__eq__"}
MAX_MATCHES = 20_000
_LABELS = (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool)


def after_op(rec: Recorder, name: str, args, out) -> None:
    if name not in EQUALS or len(args) < 2 or not rec.last_output_eval:
        return
    a, b = args[0], args[1]
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        return
    preds = [_is_pred(a), _is_pred(b)]
    if sum(preds) != 1 or a.shape != b.shape or a.numel() < 2:
        return
    if a.dtype not in _LABELS or b.dtype not in _LABELS or len(rec.eval_matches) >= MAX_MATCHES:
        return
    with rec.quiet():
        rec.eval_matches.append([rec.n_steps, int(out.sum()), int(out.numel())])


def _is_pred(t: torch.Tensor) -> bool:
    return bool(getattr(t, "_ti_pred", False) or getattr(t, "_ti_out", False))
