"""The program's own training loss on its evaluation batches, computed by the tracer.

A program may score its evaluation in a way the tracer cannot read (an AUC by ranks, a
numpy metric, a printed F1). When a DataLoader feeds its training loss the target at one
position of each batch, an evaluation loader's batch holds its target at the same
position: the loss function the program trains with (its options included) is applied
to the evaluation forward's output and that target, under no_grad, and summed per pass.
The run's own held-out reading then exists for every program with an evaluation loader,
for checks that compare two runs' evaluations (an intervention on evaluation inputs); for
a classifier the tracer also counts how many of those rows the model gets right, which
the program's own accuracy over the same rows must agree with."""

from __future__ import annotations

import math

import torch

from .loss_kinds import BINARY_TARGET, INDEX_TARGET
from .recorder import Recorder

MAX_VALUES = 2000
UNWEIGHTED = ("weight", "pos_weight", "label_smoothing")


def tag(tensors: list[torch.Tensor]) -> None:
    """A loader batch's tensors remember their position in it."""
    for i, t in enumerate(tensors):
        t._ti_batch_pos = i


def target_seen(rec: Recorder, target: torch.Tensor) -> None:
    """The position of a training loss's target in its loader's batch (the first seen)."""
    pos = getattr(target, "_ti_batch_pos", None)
    loader = rec.loaders.get(rec.current_loader or "", {})
    if rec.target_pos is None and pos is not None and loader.get("role") == "train":
        rec.target_pos = pos


def evaluated(rec: Recorder, outs: list[torch.Tensor]) -> None:
    """A top-level forward without gradient on an evaluation loader's batch: the training
    loss of its output against the batch's target."""
    if rec.loss_fn is None or rec.target_pos is None or not outs or torch.is_grad_enabled():
        return
    loader = rec.loaders.get(rec.current_loader or "", {})
    batch = rec.current_batch
    if loader.get("role") == "train" or batch is None or len(batch) <= rec.target_pos:
        return
    out, target = outs[0], batch[rec.target_pos]
    if not out.is_floating_point() or out.dim() == 0 or out.shape[0] != target.shape[0]:
        return
    func, kwargs, extra = rec.loss_fn
    # the plain loss of each row: class weights and smoothing change what it means per row
    kwargs = {k: v for k, v in kwargs.items() if k not in UNWEIGHTED}
    try:
        with rec.quiet():
            v = float(func(out, target, *extra, **kwargs))
    except Exception:  # noqa: BLE001 - a target this loss cannot read is no reading
        return
    if math.isfinite(v) and len(rec.shadow_eval) < MAX_VALUES:
        rec.shadow_eval.append([rec.n_steps, v * int(out.shape[0]), int(out.shape[0])])
        _correct(rec, out.detach(), target, getattr(func, "__name__", ""))


def _correct(rec: Recorder, out: torch.Tensor, target: torch.Tensor, loss: str) -> None:
    """The share of the batch the model classifies right, counted by the tracer from the
    forward's output and the batch's own target: class indices against the argmax of a
    [N, C] output under a cross-entropy, 0/1 targets against one logit per element under
    a binary cross-entropy (a probability's half under the one without logits)."""
    with rec.quiet():
        if loss in INDEX_TARGET and out.dim() == 2 and target.shape == out.shape[:1]:
            hit = out.argmax(1) == target
        elif loss in BINARY_TARGET and out.shape == target.shape:
            if not bool(((target == 0) | (target == 1)).all()):
                return
            hit = (out > (0.0 if "logits" in loss else 0.5)) == target.bool()
        else:
            return
        rec.shadow_correct.append([rec.n_steps, int(hit.sum()), int(hit.numel())])
