"""The program's own evaluation scores, for a run that records no evaluation loss: an
`==` between a prediction of a forward made in evaluation (no grad, or a model in eval
mode) and integer labels of the same shape (`(logits.argmax(1) == y).sum()`), and a
difference between such a prediction and a float target of its shape (`(pred - y).abs()`,
a hand-written error). Counted per evaluation pass (optimizer steps so far): they show
what a change to the evaluation inputs did to the evaluation's answers."""

from __future__ import annotations

import torch

from .recorder import Recorder

EQUALS = {"eq", "__eq__"}
SUBTRACTIONS = {"sub", "__sub__", "__rsub__", "rsub"}
MAX_MATCHES = 20_000
_LABELS = (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool)


def after_op(rec: Recorder, name: str, args, out) -> None:
    if name in SUBTRACTIONS:
        _error(rec, args, out)
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


def _error(rec: Recorder, args, out) -> None:
    if len(args) < 2 or not rec.last_output_eval or len(rec.eval_errors) >= MAX_MATCHES:
        return
    a, b = args[0], args[1]
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        return
    if sum([_is_pred(a), _is_pred(b)]) != 1 or a.shape != b.shape or a.numel() < 2:
        return
    if not (a.is_floating_point() and b.is_floating_point()) or a.requires_grad or b.requires_grad:
        return
    with rec.quiet():
        rec.eval_errors.append([rec.n_steps, float(out.detach().abs().sum()), int(out.numel())])
