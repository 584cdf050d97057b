"""Which forward a tensor came from: a model's outputs carry the index of their forward
(`_ti_fw`), tensors computed from them carry it on (`_ti_from_fw`), through ops on
tensors and on lists of them (`torch.stack(outputs)`, `torch.cat`). The program reading a
forward's output, and a no-grad forward's output combined with tensors that carry
gradient, are told from it."""

from __future__ import annotations

import torch

from .recorder import Recorder

KEYS = ("_ti_fw", "_ti_from_fw")


def operands(args) -> list[torch.Tensor]:
    """The first two operands, and the tensors of a list or tuple given first."""
    out = [a for a in args[:2] if isinstance(a, torch.Tensor)]
    if args and isinstance(args[0], list | tuple):
        out += [a for a in args[0][:64] if isinstance(a, torch.Tensor)]
    return out


def read(rec: Recorder, args) -> None:
    for a in operands(args):
        fw = getattr(a, "_ti_fw", None)
        if fw is not None:
            rec.fw_read.add(fw)


def derived_from(args) -> int | None:
    """The forward whose output the operands hold or were computed from."""
    for a in operands(args):
        for key in KEYS:
            index = getattr(a, key, None)
            if index is not None:
                return index
    return None


def carry(args, out) -> None:
    src = derived_from(args)
    if src is None:
        return
    for t in (out,) if isinstance(out, torch.Tensor) else out if isinstance(out, tuple) else ():
        if isinstance(t, torch.Tensor):
            t._ti_from_fw = src


def feeds_training(rec: Recorder, args, out) -> None:
    """A no-grad forward whose output an op combines with tensors that carry gradient
    (a target network's projection regressed by the online one, a teacher's soft targets,
    pseudo-labels, in a hand-written loss as in a library one) is part of training, not an
    evaluation: resolved here, before the backward would call it an evaluation."""
    if not (isinstance(out, torch.Tensor) and out.requires_grad and torch.is_grad_enabled()):
        return
    fed = set()
    for a in args:
        if isinstance(a, torch.Tensor) and not a.requires_grad:
            for key in KEYS:
                index = getattr(a, key, None)
                if index is not None:
                    fed.add(index)
    if fed:
        rec.resolve_nograd(fed, "train")
